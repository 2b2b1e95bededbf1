//! Points of edwards25519, −x² + y² = 1 + d·x²·y² (a = −1), in projective
//! coordinates (X : Y : Z) with x = X/Z, y = Y/Z, as libgcrypt's "Twisted Edwards
//! version" of `dup_point_edwards` / `add_points_edwards` computes them.
//!
//! Every formula is generic over the field [`Kernels`], so the two tiers run the same
//! point code and differ only in `addm`, `subm` and `mulm`. Every coordinate stays in
//! [0, p] (the field routines' working invariant).

use super::Kernels;
use super::field::{Fe, P_LIMBS, canonical, from_bytes, is_canonical_vartime, to_bytes};
use crate::ct;

/// d = −121665/121666 mod p.
pub const D: Fe = [
    0x75eb_4dca_1359_78a3,
    0x0070_0a4d_4141_d8ab,
    0x8cc7_4079_7779_e898,
    0x5203_6cee_2b6f_fe73,
];

/// sqrt(−1) = 2^((p−1)/4) mod p.
pub const SQRT_M1: Fe = [
    0xc4ee_1b27_4a0e_a0b0,
    0x2f43_1806_ad2f_e478,
    0x2b4d_0099_3dfb_d7a7,
    0x2b83_2480_4fc1_df0b,
];

/// The base point B (RFC 8032 section 5.1): y = 4/5, x even.
pub const BASE: Point = Point {
    x: [
        0xc956_2d60_8f25_d51a,
        0x692c_c760_9525_a7b2,
        0xc0a4_e231_fdd6_dc5c,
        0x2169_36d3_cd6e_53fe,
    ],
    y: [
        0x6666_6666_6666_6658,
        0x6666_6666_6666_6666,
        0x6666_6666_6666_6666,
        0x6666_6666_6666_6666,
    ],
    z: [1, 0, 0, 0],
};

/// A projective point (X : Y : Z), coordinates in [0, p]. `Zeroize` so that the
/// constant-time scalar multiplication can wipe the table entry it selected; `Debug`
/// shows no coordinate, since that entry and the running sum are secrets.
///
/// The fields are public and unchecked: a `Point` built by hand with Z = 0 or
/// coordinates above p is not a point, and the formulas' results on it are
/// unspecified. `==` compares the coordinates (variable time), not the group
/// elements: (X : Y : Z) and (2X : 2Y : 2Z) compare unequal. Compare encodings
/// (`encode`) for group equality, and never `==` a secret point.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// X.
    pub x: Fe,
    /// Y.
    pub y: Fe,
    /// Z (nonzero).
    pub z: Fe,
}

impl core::fmt::Debug for Point {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Point").finish_non_exhaustive()
    }
}

impl zeroize::Zeroize for Point {
    fn zeroize(&mut self) {
        for c in [&mut self.x, &mut self.y, &mut self.z] {
            c[..].zeroize();
        }
    }
}

impl Point {
    /// The neutral element (0 : 1 : 1).
    pub const IDENTITY: Point = Point {
        x: [0; 4],
        y: [1, 0, 0, 0],
        z: [1, 0, 0, 0],
    };
}

/// u^e for a public exponent `e` (little-endian bytes), left-to-right
/// square-and-multiply. The exponent is a public constant, so branching on its bits
/// leaks nothing about `u`.
pub fn pow<K: Kernels>(u: &Fe, e: &[u8; 32]) -> Fe {
    let mut r: Fe = [1, 0, 0, 0];
    for i in (0..256).rev() {
        r = K::mulm(&r, &r);
        if (e[i >> 3] >> (i & 7)) & 1 == 1 {
            r = K::mulm(&r, u);
        }
    }
    r
}

/// u^(2^k): k squarings.
fn sqn<K: Kernels>(u: &Fe, k: usize) -> Fe {
    let mut r = *u;
    for _ in 0..k {
        r = K::mulm(&r, &r);
    }
    r
}

/// (u^11, u^(2^250 − 1)): the common prefix of the addition chains for p − 2 and
/// (p − 5)/8 (the classic chain of the Ed25519 reference code): 249 squarings,
/// u^2 and u^8 among them, and 10 multiplications.
fn pow_2_250_minus_1<K: Kernels>(u: &Fe) -> (Fe, Fe) {
    let u2 = K::mulm(u, u);
    let u9 = K::mulm(u, &sqn::<K>(&u2, 2)); // u^8 · u
    let u11 = K::mulm(&u2, &u9);
    let t = K::mulm(&u11, &u11); // u^22
    let e5 = K::mulm(&u9, &t); // u^(2^5 − 1)
    let e10 = K::mulm(&sqn::<K>(&e5, 5), &e5);
    let e20 = K::mulm(&sqn::<K>(&e10, 10), &e10);
    let e40 = K::mulm(&sqn::<K>(&e20, 20), &e20);
    let e50 = K::mulm(&sqn::<K>(&e40, 10), &e10);
    let e100 = K::mulm(&sqn::<K>(&e50, 50), &e50);
    let e200 = K::mulm(&sqn::<K>(&e100, 100), &e100);
    let e250 = K::mulm(&sqn::<K>(&e200, 50), &e50);
    (u11, e250)
}

/// u^(p−2) = 1/u (0 for u = 0): (u^(2^250 − 1))^(2^5) · u^11 = u^(2^255 − 21).
pub fn invert<K: Kernels>(u: &Fe) -> Fe {
    let (u11, e250) = pow_2_250_minus_1::<K>(u);
    K::mulm(&sqn::<K>(&e250, 5), &u11)
}

/// u^((p−5)/8) = u^(2^252 − 3), the square-root exponent of RFC 8032 5.1.3:
/// (u^(2^250 − 1))^4 · u.
pub fn pow_p58<K: Kernels>(u: &Fe) -> Fe {
    let (_, e250) = pow_2_250_minus_1::<K>(u);
    K::mulm(&sqn::<K>(&e250, 2), u)
}

/// Doubling, EFD dbl-2008-bbjlp with a = −1 (libgcrypt `dup_point_edwards`):
/// 4 squarings, 3 multiplications, 3 addm and 5 subm (E = p − C).
pub fn double<K: Kernels>(p1: &Point) -> Point {
    let b = K::addm(&p1.x, &p1.y);
    let b = K::mulm(&b, &b); // B = (X1 + Y1)^2
    let c = K::mulm(&p1.x, &p1.x); // C = X1^2
    let d = K::mulm(&p1.y, &p1.y); // D = Y1^2
    let e = K::subm(&P_LIMBS, &c); // E = a·C = −C
    let f = K::addm(&e, &d); // F = E + D
    let h = K::mulm(&p1.z, &p1.z); // H = Z1^2
    let h2 = K::addm(&h, &h); // ec_mul2: 2H
    let j = K::subm(&f, &h2); // J = F − 2H
    let t = K::subm(&b, &c);
    let t = K::subm(&t, &d); // B − C − D
    let x3 = K::mulm(&t, &j);
    let t = K::subm(&e, &d); // E − D
    let y3 = K::mulm(&f, &t);
    let z3 = K::mulm(&f, &j);
    Point {
        x: x3,
        y: y3,
        z: z3,
    }
}

/// Addition, EFD add-2008-bbjlp with a = −1 (libgcrypt `add_points_edwards`): 11
/// multiplications (one by d) and 1 squaring, 4 addm and 3 subm. Complete on
/// edwards25519 (a is a square and d is not), so it also doubles and adds the
/// identity, which the constant-time window (table entry 0, the first window)
/// relies on.
pub fn add<K: Kernels>(p1: &Point, p2: &Point) -> Point {
    let a = K::mulm(&p1.z, &p2.z); // A = Z1·Z2
    let b = K::mulm(&a, &a); // B = A^2
    let c = K::mulm(&p1.x, &p2.x); // C = X1·X2
    let d = K::mulm(&p1.y, &p2.y); // D = Y1·Y2
    let e = K::mulm(&D, &c);
    let e = K::mulm(&e, &d); // E = d·C·D
    let f = K::subm(&b, &e); // F = B − E
    let g = K::addm(&b, &e); // G = B + E
    let t1 = K::addm(&p1.x, &p1.y);
    let t2 = K::addm(&p2.x, &p2.y);
    let t = K::mulm(&t1, &t2);
    let t = K::subm(&t, &c);
    let t = K::subm(&t, &d); // (X1+Y1)(X2+Y2) − C − D
    let t = K::mulm(&f, &t);
    let x3 = K::mulm(&a, &t);
    let t = K::addm(&d, &c); // D − a·C = D + C
    let t = K::mulm(&g, &t);
    let y3 = K::mulm(&a, &t);
    let z3 = K::mulm(&f, &g);
    Point {
        x: x3,
        y: y3,
        z: z3,
    }
}

/// −P = (p − X : Y : Z).
pub fn negate<K: Kernels>(p1: &Point) -> Point {
    Point {
        x: K::subm(&P_LIMBS, &p1.x),
        y: p1.y,
        z: p1.z,
    }
}

/// `a = if bit == 1 { b } else { a }` on every limb, branch-free
/// (libgcrypt's `point_swap_cond` idea).
fn select_into(a: &mut Point, b: &Point, bit: u64) {
    let m = ct::mask_u64(bit);
    for (dst, src) in [(&mut a.x, &b.x), (&mut a.y, &b.y), (&mut a.z, &b.z)] {
        for (d, s) in dst.iter_mut().zip(src) {
            *d ^= m & (*d ^ *s);
        }
    }
}

/// Signed radix-16 digits of a scalar `k` < 2^255 (little-endian): 64 digits
/// e_i with k = Σ e_i·16^i, e_0..e_62 in [−8, 7] and e_63 in [0, 8]. Branch-free:
/// each nibble plus the incoming carry (0..=16) gives carry = (d + 8) >> 4 and
/// d − 16·carry.
fn signed_digits(k: &[u8; 32]) -> [i8; 64] {
    let mut e = [0i8; 64];
    for (pair, byte) in e.chunks_exact_mut(2).zip(k) {
        pair[0] = (byte & 15) as i8;
        pair[1] = (byte >> 4) as i8;
    }
    let mut carry = 0i8;
    for d in e.iter_mut().take(63) {
        *d += carry;
        carry = (*d + 8) >> 4;
        *d -= carry << 4;
    }
    e[63] += carry;
    e
}

/// [k]P for a secret `k` < 2^255 with a table built for P ([`scalar_mul_with_table`]);
/// the tests compare it with [`scalar_mul_vartime`] for points other than B.
#[cfg(test)]
pub(crate) fn scalar_mul<K: Kernels>(k: &[u8; 32], p1: &Point) -> Point {
    scalar_mul_with_table::<K>(k, &window_table::<K>(p1))
}

/// The window table of the constant-time scalar multiplication: `[j]P` for j = 0..=8, the even entries by
/// doubling. Public data when P is (the base point); built once per tier for B
/// ([`Kernels::base_table`]).
pub fn window_table<K: Kernels>(p1: &Point) -> WindowTable {
    let mut table = [Point::IDENTITY; 9];
    table[1] = *p1;
    for j in 2..9 {
        table[j] = if j & 1 == 0 {
            double::<K>(&table[j >> 1])
        } else {
            add::<K>(&table[j - 1], p1)
        };
    }
    table
}

/// `[j]P` for j = 0..=8.
pub type WindowTable = [Point; 9];

/// [k]B for the base point B and a secret `k` < 2^255: [`scalar_mul_with_table`] with the
/// tier's cached table of B ([`Kernels::base_table`]).
pub(crate) fn scalar_mul_base<K: Kernels>(k: &[u8; 32]) -> Point {
    scalar_mul_with_table::<K>(k, K::base_table())
}

/// [k]P, from the window table of P, for a **secret** scalar `k` < 2^255 (little-endian; every RFC 8032 secret
/// scalar is: clamped scalars have bit 255 clear, nonces are < L), constant time.
/// Crate-internal because that precondition is not checked in release builds (a
/// check would branch on the secret): keygen and sign are its only callers.
///
/// Signed 4-bit windows from the top (digits in [−8, 8], [`signed_digits`]), four
/// doublings and one addition of ±[|digit|]P per window. The entry [|digit|]P is
/// read by scanning the whole 9-entry table with masks and then negated or not with
/// a mask (the negation is always computed), so neither the branch pattern nor the
/// memory access pattern depends on `k`. (libgcrypt does one doubling, one addition
/// and a masked swap per bit; the window keeps the same formulas and cuts the
/// additions by four, docs/ed25519.md "Deviations". Both tiers run this code.)
fn scalar_mul_with_table<K: Kernels>(k: &[u8; 32], table: &WindowTable) -> Point {
    debug_assert!(k[31] < 0x80, "scalar_mul needs k < 2^255");
    let mut e = signed_digits(k);
    let mut r = Point::IDENTITY;
    // [|digit|]P, selected by the secret digit, and its negation.
    let mut t = Point::IDENTITY;
    let mut t_neg = Point::IDENTITY;
    for i in (0..64).rev() {
        let d = e[i];
        // neg = 1 when d < 0; |d| = (d ^ m) − m with m = 0 or −1.
        let m = d >> 7;
        let neg = u64::from((m as u8) & 1);
        let abs = u64::from((d ^ m).wrapping_sub(m) as u8);
        t = Point::IDENTITY;
        if crate::plant::active("ed25519-scalar-mul-indexes-the-table") {
            // Planted: the entry read at the secret index |d| (a cache-timing leak).
            t = table[abs as usize];
        } else {
            for (j, entry) in table.iter().enumerate() {
                // 1 when j == |d|: (j ^ |d|) − 1 borrows exactly when it is 0.
                let eq = ((j as u64 ^ abs).wrapping_sub(1)) >> 63;
                select_into(&mut t, entry, eq);
            }
        }
        t_neg = negate::<K>(&t);
        select_into(&mut t, &t_neg, neg);
        if i == 63 {
            r = t; // the first window: r = identity + t
        } else {
            for _ in 0..4 {
                r = double::<K>(&r);
            }
            r = add::<K>(&r, &t);
        }
    }
    // The digits are the secret scalar, recoded.
    zeroize::Zeroize::zeroize(&mut e[..]);
    zeroize::Zeroize::zeroize(&mut t);
    zeroize::Zeroize::zeroize(&mut t_neg);
    r
}

/// \[k\]P for a **public** scalar `k` (little-endian), variable time: double and add
/// only when the bit is set. Used only by verification.
pub fn scalar_mul_vartime<K: Kernels>(k: &[u8; 32], p1: &Point) -> Point {
    let mut r = Point::IDENTITY;
    for i in (0..256).rev() {
        r = double::<K>(&r);
        if (k[i >> 3] >> (i & 7)) & 1 == 1 {
            r = add::<K>(&r, p1);
        }
    }
    r
}

/// RFC 8032 section 5.1.2: y with the low bit of x in bit 255, from affine
/// x = X/Z, y = Y/Z.
pub fn encode<K: Kernels>(p1: &Point) -> [u8; 32] {
    let mut zi = invert::<K>(&p1.z);
    let mut x = canonical(&K::mulm(&p1.x, &zi));
    let mut y = K::mulm(&p1.y, &zi);
    let mut out = to_bytes(&y);
    out[31] |= ((x[0] & 1) as u8) << 7;
    // 1/Z gives Z, which says more about a secret scalar multiple than the encoding.
    for c in [&mut zi, &mut x, &mut y] {
        zeroize::Zeroize::zeroize(c);
    }
    out
}

/// Whether \[8\]P is the identity, i.e. P is one of the eight torsion points (order
/// 1, 2, 4 or 8). Three doublings; for a point of the curve, \[8\]P has x = 0 only
/// when it is the identity (the group has no element of order 16, so \[8\]P cannot be
/// (0, −1)). For public data only (variable time): strict verification.
#[must_use = "strict verification refuses a small-order point"]
pub fn is_small_order_vartime<K: Kernels>(p1: &Point) -> bool {
    let p8 = double::<K>(&double::<K>(&double::<K>(p1)));
    canonical(&p8.x) == [0; 4]
}

/// Equality of two field elements in [0, p] (public data: variable time).
fn fe_eq_vartime(a: &Fe, b: &Fe) -> bool {
    canonical(a) == canonical(b)
}

/// RFC 8032 section 5.1.3 point decoding, strict: `None` when y >= p
/// (non-canonical), when x² = (y² − 1)/(d·y² + 1) has no root, or when x = 0 with the
/// sign bit set. For public data only (variable time).
#[must_use = "`None` is an encoding that must be refused"]
pub fn decode_vartime<K: Kernels>(s: &[u8; 32]) -> Option<Point> {
    let x_0 = u64::from(s[31] >> 7);
    let mut yb = *s;
    yb[31] &= 0x7f;
    let y = from_bytes(&yb);
    if !is_canonical_vartime(&y) {
        return None;
    }
    let one: Fe = [1, 0, 0, 0];
    let y2 = K::mulm(&y, &y);
    let u = K::subm(&y2, &one); // u = y² − 1
    let v = K::mulm(&D, &y2);
    let v = K::addm(&v, &one); // v = d·y² + 1
    // x = u·v³·(u·v⁷)^((p−5)/8)
    let v2 = K::mulm(&v, &v);
    let v3 = K::mulm(&v2, &v);
    let v7 = K::mulm(&v3, &K::mulm(&v2, &v2));
    let uv7 = K::mulm(&u, &v7);
    let mut x = K::mulm(&K::mulm(&u, &v3), &pow_p58::<K>(&uv7));
    let vx2 = K::mulm(&v, &K::mulm(&x, &x));
    let neg_u = K::subm(&P_LIMBS, &u);
    if fe_eq_vartime(&vx2, &u) {
        // x is a root.
    } else if fe_eq_vartime(&vx2, &neg_u) {
        x = K::mulm(&x, &SQRT_M1);
    } else {
        return None;
    }
    let x = canonical(&x);
    if x == [0; 4] && x_0 == 1 {
        return None;
    }
    let x = if x[0] & 1 != x_0 {
        canonical(&K::subm(&P_LIMBS, &x))
    } else {
        x
    };
    Some(Point { x, y, z: one })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ed25519::Reference;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// p − 2 and (p − 5)/8 = 2^252 − 3, little-endian bytes.
    fn exponents() -> ([u8; 32], [u8; 32]) {
        let mut pm2 = [0xffu8; 32];
        pm2[0] = 0xeb;
        pm2[31] = 0x7f;
        let mut p58 = [0xffu8; 32];
        p58[0] = 0xfd;
        p58[31] = 0x0f;
        (pm2, p58)
    }

    #[test]
    fn addition_chains_match_square_and_multiply() {
        let (pm2, p58) = exponents();
        let mut x: Fe = [3, 0, 0, 0];
        for _ in 0..8 {
            assert_eq!(invert::<Reference>(&x), pow::<Reference>(&x, &pm2));
            assert_eq!(pow_p58::<Reference>(&x), pow::<Reference>(&x, &p58));
            assert_eq!(Reference::mulm(&invert::<Reference>(&x), &x), [1, 0, 0, 0]);
            x = Reference::mulm(&x, &D);
            x = Reference::addm(&x, &SQRT_M1);
        }
        assert_eq!(invert::<Reference>(&[0; 4]), [0; 4]);
    }

    #[test]
    fn signed_digits_reconstruct_the_scalar() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut scalars = vec![[0u8; 32], [0x88; 32], [0x77; 32], [0xff; 32], [0x08; 32]];
        for _ in 0..200 {
            scalars.push(core::array::from_fn(|_| rng.next_u64() as u8));
        }
        for k in &mut scalars {
            k[31] &= 0x7f;
            let e = signed_digits(k);
            assert!(e[..63].iter().all(|&d| (-8..=7).contains(&d)), "{k:x?}");
            assert!((0..=8).contains(&e[63]));
            // Σ e_i·16^i, evaluated from the top as a little-endian byte string.
            let mut acc = [0i32; 33];
            for (i, &d) in e.iter().enumerate() {
                acc[i >> 1] += i32::from(d) << ((i & 1) << 2);
            }
            let mut carry = 0i32;
            let mut got = [0u8; 32];
            for i in 0..32 {
                let v = acc[i] + carry;
                got[i] = (v & 0xff) as u8;
                carry = v >> 8;
            }
            assert_eq!(carry, 0);
            assert_eq!(&got, k);
        }
    }

    #[test]
    fn scalar_mul_matches_double_and_add() {
        let mut ks = vec![[0u8; 32], [0x88; 32], [0x77; 32], [0xff; 32]];
        let mut one = [0u8; 32];
        one[0] = 1;
        ks.push(one);
        let mut eight = [0u8; 32];
        eight[0] = 8;
        ks.push(eight);
        for k in &mut ks {
            k[31] &= 0x7f;
            let a = scalar_mul::<Reference>(k, &BASE);
            let b = scalar_mul_vartime::<Reference>(k, &BASE);
            assert_eq!(encode::<Reference>(&a), encode::<Reference>(&b), "{k:x?}");
        }
    }
}
