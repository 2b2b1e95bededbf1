//! Polynomial arithmetic of NTRU round 3 (`ref-common/poly*.c`), for n = 509,
//! q = 2048.
//!
//! Coefficients are `u16` and arithmetic wraps mod 2^16, as in the round-3 reference
//! code; q = 2^11 divides 2^16, so a result is correct mod q whatever the reduction
//! points, and [`MODQ`](modq) is applied where the reference applies it. Reductions:
//!
//! * mod (q, Φ_n): subtract c_{n−1} from every coefficient ([`poly_mod_q_phi_n`]);
//! * mod (3, Φ_n): add 2·c_{n−1} to every coefficient, then mod 3 ([`poly_mod_3_phi_n`]);
//! * mod (2, Φ_n): XOR every coefficient with c_{n−1} ([`poly_mod_2_phi_n`]).

use super::params::{LOGQ, N, Q};
use zeroize::Zeroize;

/// An element of Z\[x\]/(x^n − 1) with `u16` coefficients (wrapping mod 2^16).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Poly(pub [u16; N]);

impl Zeroize for Poly {
    /// Overwrites the coefficients with zeros (one bulk write, zeroize's slice path):
    /// the protocol code wipes its secret polynomials with it.
    fn zeroize(&mut self) {
        self.0[..].zeroize();
    }
}

impl Poly {
    /// The zero polynomial.
    pub const ZERO: Poly = Poly([0; N]);
}

impl Default for Poly {
    fn default() -> Self {
        Self::ZERO
    }
}

/// Shows no coefficient: a polynomial may be a secret (f, g, their inverses, r, m).
impl core::fmt::Debug for Poly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poly").finish_non_exhaustive()
    }
}

/// `MODQ(x)`: x mod q for the power-of-two q.
#[inline(always)]
pub fn modq(x: u16) -> u16 {
    x & (Q - 1)
}

/// x mod 3 for any 16-bit x, without a division: ⌊x/3⌋ = ⌊x·43691 / 2^17⌋ for
/// x < 2^16 (43691 = ⌈2^17/3⌉, and the error 43691·3 − 2^17 = 1 is below 2^17/2^16).
#[inline(always)]
pub fn mod3(x: u16) -> u16 {
    let q = ((u32::from(x) * 43691) >> 17) as u16;
    x - 3 * q
}

/// `poly_Rq_mul`, the reference schoolbook cyclic convolution in Z_{2^16}\[x\]/(x^n − 1).
///
/// Postcondition: the exact product mod 2^16 (hence mod q) for any inputs.
pub fn poly_rq_mul_schoolbook(a: &Poly, b: &Poly) -> Poly {
    let (a, b) = (&a.0, &b.0);
    let mut r = Poly::ZERO;
    for k in 0..N {
        let mut acc = 0u16;
        for i in 1..N - k {
            acc = acc.wrapping_add(a[k + i].wrapping_mul(b[N - i]));
        }
        for i in 0..=k {
            acc = acc.wrapping_add(a[k - i].wrapping_mul(b[i]));
        }
        r.0[k] = acc;
    }
    r
}

/// The product of [`poly_rq_mul_schoolbook`], summed in another order: column sums
/// `col[i + j] += a[i]·b[j]` in Z_{2^16}, then column n + k folded onto k (x^n = 1).
/// Z_{2^16} is a ring, so both orders give the same product for every input. This one
/// vectorizes (eight `u16` lanes even on SSE2), the schoolbook's reversed index does
/// not: the contracts ([`super::contracts`]) and the fuzz targets' exact reference
/// products use it; the reference tier's `poly_Rq_mul` stays the schoolbook.
pub fn poly_rq_mul_columns(a: &Poly, b: &Poly) -> Poly {
    let mut col = [0u16; 2 * N - 1];
    for (i, &x) in a.0.iter().enumerate() {
        for (c, &y) in col[i..i + N].iter_mut().zip(&b.0) {
            *c = c.wrapping_add(x.wrapping_mul(y));
        }
    }
    let mut r = Poly::ZERO;
    r.0.copy_from_slice(&col[..N]);
    for (c, &high) in r.0.iter_mut().zip(&col[N..]) {
        *c = c.wrapping_add(high);
    }
    r
}

/// `poly_mod_q_Phi_n`: r ← r mod Φ_n (coefficient n−1 becomes 0), mod 2^16.
pub fn poly_mod_q_phi_n(r: &mut Poly) {
    let last = r.0[N - 1];
    for c in r.0.iter_mut() {
        *c = c.wrapping_sub(last);
    }
}

/// `poly_mod_3_Phi_n`: r ← r mod (3, Φ_n), coefficients in {0, 1, 2}.
pub fn poly_mod_3_phi_n(r: &mut Poly) {
    let last2 = r.0[N - 1].wrapping_mul(2);
    for c in r.0.iter_mut() {
        *c = mod3(c.wrapping_add(last2));
    }
}

/// Reduction mod (2, Φ_n): bits, XORed with coefficient n−1, which becomes 0. This is
/// the canonical form in which R2 inverses are compared (brief, section C.3).
pub fn poly_mod_2_phi_n(r: &mut Poly) {
    let last = r.0[N - 1] & 1;
    for c in r.0.iter_mut() {
        *c = (*c ^ last) & 1;
    }
}

/// `poly_Sq_mul`: product mod (q, Φ_n) (mod 2^16 before the packing's MODQ), with the
/// caller's multiplier.
pub fn poly_sq_mul(a: &Poly, b: &Poly, rq_mul: impl Fn(&Poly, &Poly) -> Poly) -> Poly {
    let mut r = rq_mul(a, b);
    poly_mod_q_phi_n(&mut r);
    r
}

/// `poly_S3_mul`: product mod (3, Φ_n), with the reference's explicit MODQ between
/// the multiplication and the mod-3 step (exact for ternary inputs: 509·4 < q).
pub fn poly_s3_mul(a: &Poly, b: &Poly, rq_mul: impl Fn(&Poly, &Poly) -> Poly) -> Poly {
    let mut r = rq_mul(a, b);
    for c in r.0.iter_mut() {
        *c = modq(*c);
    }
    poly_mod_3_phi_n(&mut r);
    r
}

/// `poly_Z3_to_Zq`: maps the representative 2 of −1 to q − 1, bit for bit as the
/// reference does (`r | (-(r >> 1) & (q−1))`).
pub fn poly_z3_to_zq(r: &mut Poly) {
    for c in r.0.iter_mut() {
        *c |= 0u16.wrapping_sub(*c >> 1) & (Q - 1);
    }
}

/// `poly_trinary_Zq_to_Z3`: maps {0, 1, q−1} to {0, 1, 2}.
pub fn poly_trinary_zq_to_z3(r: &mut Poly) {
    for c in r.0.iter_mut() {
        let x = modq(*c);
        *c = 3 & (x ^ (x >> (LOGQ - 1)));
    }
}

/// `poly_lift` (HPS): Lift(m) = m with coefficients in Z_q.
pub fn poly_lift(a: &Poly) -> Poly {
    let mut r = *a;
    poly_z3_to_zq(&mut r);
    r
}

/// `poly_Rq_to_S3`: centre each coefficient in [−q/2, q/2), then reduce mod (3, Φ_n).
pub fn poly_rq_to_s3(a: &Poly) -> Poly {
    let mut r = Poly::ZERO;
    for (o, &c) in r.0.iter_mut().zip(&a.0) {
        let x = modq(c);
        let flag = x >> (LOGQ - 1);
        // −q ≡ 1 (mod 3) because log2 q = 11 is odd: add it when x ≥ q/2.
        *o = x + (flag << (1 - (LOGQ & 1)));
    }
    poly_mod_3_phi_n(&mut r);
    r
}

/// All ones (as `i16`) when both x and y are negative.
#[inline(always)]
fn both_negative_mask(x: i16, y: i16) -> i16 {
    core::hint::black_box((x & y) >> 15)
}

/// `poly_R2_inv`, the current round-3 reference (supercop `invhrss701/simpler`): a
/// Bernstein–Yang divstep loop over F2, always 2(n−1)−1 = 1015 iterations, with masks
/// instead of branches.
///
/// Precondition: a ≢ 0 mod (2, Φ_n) (only bit 0 of each coefficient is read).
/// Postcondition: the **canonical** inverse mod (2, Φ_n): coefficients in {0, 1},
/// coefficient n−1 = 0.
pub fn poly_r2_inv_divstep(a: &Poly) -> Poly {
    let mut f = [1u16; N];
    let mut g = [0u16; N];
    let mut v = [0u16; N];
    let mut w = [0u16; N];
    w[0] = 1;
    for i in 0..N - 1 {
        g[N - 2 - i] = (a.0[i] ^ a.0[N - 1]) & 1;
    }
    let mut delta: i16 = 1;
    for _ in 0..2 * (N - 1) - 1 {
        v.copy_within(0..N - 1, 1);
        v[0] = 0;
        let sign = g[0] & f[0];
        let swap = both_negative_mask(delta.wrapping_neg(), (g[0] as i16).wrapping_neg());
        delta ^= swap & (delta ^ delta.wrapping_neg());
        delta = delta.wrapping_add(1);
        let swap = swap as u16;
        for i in 0..N {
            let t = swap & (f[i] ^ g[i]);
            f[i] ^= t;
            g[i] ^= t;
            let t = swap & (v[i] ^ w[i]);
            v[i] ^= t;
            w[i] ^= t;
        }
        let sign = 0u16.wrapping_sub(sign);
        for i in 0..N {
            g[i] ^= sign & f[i];
            w[i] ^= sign & v[i];
        }
        g.copy_within(1..N, 0);
        g[N - 1] = 0;
    }
    let mut r = Poly::ZERO;
    for i in 0..N - 1 {
        r.0[i] = v[N - 2 - i];
    }
    // The gcd state holds the (secret) input and its inverse.
    for t in [&mut f, &mut g, &mut v, &mut w] {
        t[..].zeroize();
    }
    r
}

/// `poly_S3_inv`: the same divstep loop over F3 (round-3 reference).
///
/// Precondition: a ≢ 0 mod (3, Φ_n) (coefficients are read `& 3`, as the reference
/// does). Postcondition: the canonical inverse mod (3, Φ_n), coefficients in {0, 1, 2},
/// coefficient n−1 = 0.
pub fn poly_s3_inv(a: &Poly) -> Poly {
    let mut f = [1u16; N];
    let mut g = [0u16; N];
    let mut v = [0u16; N];
    let mut w = [0u16; N];
    w[0] = 1;
    for i in 0..N - 1 {
        g[N - 2 - i] = mod3((a.0[i] & 3) + 2 * (a.0[N - 1] & 3));
    }
    let mut delta: i16 = 1;
    for _ in 0..2 * (N - 1) - 1 {
        v.copy_within(0..N - 1, 1);
        v[0] = 0;
        let sign = mod3(2 * g[0] * f[0]);
        let swap = both_negative_mask(delta.wrapping_neg(), (g[0] as i16).wrapping_neg());
        delta ^= swap & (delta ^ delta.wrapping_neg());
        delta = delta.wrapping_add(1);
        let swap = swap as u16;
        for i in 0..N {
            let t = swap & (f[i] ^ g[i]);
            f[i] ^= t;
            g[i] ^= t;
            let t = swap & (v[i] ^ w[i]);
            v[i] ^= t;
            w[i] ^= t;
        }
        for i in 0..N {
            g[i] = mod3(g[i] + sign * f[i]);
            w[i] = mod3(w[i] + sign * v[i]);
        }
        g.copy_within(1..N, 0);
        g[N - 1] = 0;
    }
    let sign = f[0];
    let mut r = Poly::ZERO;
    for i in 0..N - 1 {
        r.0[i] = mod3(sign * v[N - 2 - i]);
    }
    // The gcd state holds the (secret) input and its inverse.
    for t in [&mut f, &mut g, &mut v, &mut w] {
        t[..].zeroize();
    }
    r
}

/// `poly_R2_inv_to_Rq_inv`: Newton (Hensel) lifting of an inverse mod 2 to one mod q,
/// r ← r·(2 − a·r), four times (precision 2 → 4 → 16 → 256 → 65536 ≥ q), that is 8
/// calls of `rq_mul`.
///
/// Preconditions: `ai` is an inverse of `a` mod (2, Φ_n), in any representative mod
/// x^n − 1; `rq_mul` is exact mod q. Postcondition: an inverse of `a` mod (q, Φ_n);
/// its (x − 1)-component depends on the one of `ai` (the brief, section C.3).
pub fn poly_r2_inv_to_rq_inv(ai: &Poly, a: &Poly, rq_mul: impl Fn(&Poly, &Poly) -> Poly) -> Poly {
    const {
        assert!(256 < Q as u32 && (Q as u32) < 65536 && Q.is_power_of_two());
    }
    let mut b = Poly::ZERO;
    for (o, &c) in b.0.iter_mut().zip(&a.0) {
        *o = c.wrapping_neg();
    }
    let mut r = *ai;
    let mut c = Poly::ZERO;
    for _ in 0..4 {
        c = rq_mul(&r, &b);
        c.0[0] = c.0[0].wrapping_add(2);
        r = rq_mul(&c, &r);
    }
    // −a and 2 − a·r are as secret as a (3g·f in key generation).
    b.zeroize();
    c.zeroize();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    #[test]
    fn columns_are_the_schoolbook() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut next = || Poly(core::array::from_fn(|_| rng.next_u64() as u16));
        let mut x508 = Poly::ZERO;
        x508.0[N - 1] = 1;
        let mut cases = vec![
            (Poly([u16::MAX; N]), Poly([u16::MAX; N])),
            (Poly([2047; N]), Poly([u16::MAX; N])),
            (Poly::ZERO, next()),
            (x508, x508), // x^1016 = x^507: only the last column folds
        ];
        for _ in 0..16 {
            cases.push((next(), next()));
        }
        for (i, (a, b)) in cases.iter().enumerate() {
            assert_eq!(
                poly_rq_mul_columns(a, b).0,
                poly_rq_mul_schoolbook(a, b).0,
                "case {i}"
            );
        }
    }
}
