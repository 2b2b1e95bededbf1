//! Arithmetic modulo p = 2^255 - 19 on four 64-bit limbs: libgcrypt's `mpi/ec.c`
//! field routines for Curve25519 **before** commit 9c12226c ("mpi/ec: small
//! optimization for ec_mulm_25519"), as NIIBE Yutaka wrote them in 9ed0fb37.
//!
//! The three functions are generic over [`Limb`] so that the same code runs on `u64`
//! and, in the SMT proof, on symbolic 64-bit vectors. They take and return exactly
//! four limbs (`LIMB_SIZE_25519`) and are defined on **every** 4-limb input: dropped
//! carries wrap modulo 2^256, as in C.
//!
//! Working invariant of the point code: every coordinate is a 4-limb integer in
//! [0, p]. Under it `addm` and `subm` return values in [0, p] (p itself is possible)
//! and `mulm` returns a canonical value in [0, p).

use super::mpih::{
    Limb, add_n, add_n_in_place, lshift, mul_n, rshift, set_cond, sub_n, sub_n_in_place,
};

/// Limbs per field element (`LIMB_SIZE_25519` on 64-bit limbs).
pub const LIMB_SIZE_25519: usize = 4;

/// A field element: four little-endian 64-bit limbs, not necessarily reduced.
pub type Fe = [u64; LIMB_SIZE_25519];

/// p = 2^255 - 19, little-endian limbs.
pub const P_LIMBS: [u64; 4] = [
    0xffff_ffff_ffff_ffed,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0x7fff_ffff_ffff_ffff,
];

/// p as limbs of type `L`.
pub fn p<L: Limb>() -> [L; 4] {
    P_LIMBS.map(L::constant)
}

/// `wp[LIMB_SIZE_25519-1] &= ~(1 << (255 % BITS_PER_MPI_LIMB))`.
#[inline(always)]
pub fn clear_bit_255<L: Limb>(w: &mut [L; 4]) {
    w[3] = w[3].and(&L::constant(!(1u64 << 63)));
}

/// Old `ec_addm_25519`: w = u + v (carry dropped); w -= p; add p back when that
/// borrowed; clear bit 255.
///
/// Preconditions for a correct result: u + v < 2p + 19 (e.g. u, v <= p). Then the
/// result is u + v mod p, in [0, p]. Defined (and compared) on every input.
#[inline(always)]
pub fn ec_addm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let p = p::<L>();
    let mut n: [L; 4] = core::array::from_fn(|_| L::constant(0)); // memset (n, 0, sizeof n)
    let mut w = n.clone();
    let _ = add_n(&mut w, u, v);
    let borrow = sub_n_in_place(&mut w, &p);
    set_cond(&mut n, &p, &borrow); // borrow != 0 (borrow is 0 or 1)
    let _ = add_n_in_place(&mut w, &n);
    clear_bit_255(&mut w);
    w
}

/// Old `ec_subm_25519`: w = u - v; add p when that borrowed; clear bit 255.
///
/// Preconditions for a correct result: u < 2^255 and v - u <= p (e.g. u, v <= p).
/// Then the result is u - v mod p, in [0, p].
#[inline(always)]
pub fn ec_subm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let p = p::<L>();
    let mut n: [L; 4] = core::array::from_fn(|_| L::constant(0));
    let mut w = n.clone();
    let borrow = sub_n(&mut w, u, v);
    set_cond(&mut n, &p, &borrow);
    let _ = add_n_in_place(&mut w, &n);
    clear_bit_255(&mut w);
    w
}

/// Old `ec_mulm_25519` after the product: reduces the 8-limb product `n` to four
/// limbs, returning the result and the carry limb `m[4]` of L + 19·H_low (the
/// quantity of the carry-bound lemma). It is [`ec_mulm_25519_fold19`] followed by
/// [`ec_mulm_25519_finish`]; the split only names the two halves for the proofs.
#[inline(always)]
pub fn ec_mulm_25519_reduce<L: Limb>(n: &mut [L; 8]) -> ([L; 4], L) {
    let (mut w, carry) = ec_mulm_25519_fold19(n);
    ec_mulm_25519_finish(&mut w, &carry);
    (w, carry)
}

/// First half of the old reduction (seed brief D (1), steps 2-5): L = n mod 2^255;
/// H = n >> 255 as five limbs; 19·H_low as (H_low << 4) + 3·H_low with the carries
/// in `m[4]` (H's fifth limb is overwritten); returns (w, `m[4]`) with
/// `m[4]`·2^256 + w = L + 19·H_low.
#[inline(always)]
pub fn ec_mulm_25519_fold19<L: Limb>(n: &[L; 8]) -> ([L; 4], L) {
    let zero = L::constant(0);
    // memcpy (wp, n, wsize); clear bit 255.
    let mut w: [L; 4] = core::array::from_fn(|i| n[i].clone());
    clear_bit_255(&mut w);

    // memcpy (m, n+3, 5 limbs); rshift (m, m, 5, 63): m = H as five limbs.
    let src: [L; 5] = core::array::from_fn(|i| n[3 + i].clone());
    let mut h: [L; 5] = core::array::from_fn(|_| zero.clone());
    let _ = rshift::<L, 5, 63>(&mut h, &src);

    // memcpy (n, m, 4 limbs): keep H_low. From here libgcrypt's five-limb m is
    // (m, m4): m[0..4] and the carry limb m[4].
    let h_low: [L; 4] = core::array::from_fn(|i| h[i].clone());
    // m = H_low << 4, the bits shifted out become m[4].
    let mut m: [L; 4] = core::array::from_fn(|_| zero.clone());
    let mut m4 = lshift::<L, 4, 4>(&mut m, &h_low);
    // m += H_low three times: 16·H_low + 3·H_low = 19·H_low.
    for _ in 0..3 {
        let cy = add_n_in_place(&mut m, &h_low);
        m4 = m4.wrapping_add(&cy);
    }
    // w += m: (m[4], w) = L + 19·H_low.
    let cy = add_n_in_place(&mut w, &m);
    m4 = m4.wrapping_add(&cy);
    let carry = m4;
    // Always true: L < 2^255 and 19·H_low < 19·2^256, so L + 19·H_low < 20·2^256.
    carry.lemma_le(19, "mulm carry limb <= 19 on every input");
    (w, carry)
}

/// Second half of the old reduction (steps 6-7): fold (2·carry + bit 255)·19 into
/// the low limb after clearing bit 255, then subtract p and add it back when that
/// borrowed.
#[inline(always)]
pub fn ec_mulm_25519_finish<L: Limb>(w: &mut [L; 4], carry: &L) {
    let p = p::<L>();
    let zero = L::constant(0);
    // memset (m, 0, 4 limbs); m[0] = (m[4]·2 + msb)·19; clear bit 255; w += m.
    let msb = w[3].shr(63);
    let mut f: [L; 4] = core::array::from_fn(|_| zero.clone());
    f[0] = carry
        .wrapping_mul(&L::constant(2))
        .wrapping_add(&msb)
        .wrapping_mul(&L::constant(19));
    clear_bit_255(w);
    let _ = add_n_in_place(w, &f);

    // m[0] = 0; w -= p (borrow); m = borrow ? p : 0; w += m.
    let mut f: [L; 4] = core::array::from_fn(|_| zero.clone());
    let borrow = sub_n_in_place(w, &p);
    set_cond(&mut f, &p, &borrow);
    let _ = add_n_in_place(w, &f);
}

/// Old `ec_mulm_25519`: the schoolbook product, then [`ec_mulm_25519_reduce`].
///
/// For u·v < 2^511 (e.g. u, v <= p) the result is u·v mod p, canonical in [0, p).
#[inline(always)]
pub fn ec_mulm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let mut n: [L; 8] = core::array::from_fn(|_| L::constant(0));
    mul_n(&mut n, u, v);
    ec_mulm_25519_reduce(&mut n).0
}

/// Whether a limb vector is at most p (the working invariant), for the contracts'
/// debug checks, which see secret values: p − x computed over every limb, its final
/// borrow the answer (no early exit at the first limb that differs).
pub fn le_p(x: &Fe) -> bool {
    let mut borrow = 0u128;
    for (&p, &l) in P_LIMBS.iter().zip(x) {
        // p_i − x_i − borrow as a 128-bit two's complement: bit 127 is the borrow out.
        borrow = (u128::from(p).wrapping_sub(u128::from(l) + borrow)) >> 127;
    }
    borrow == 0
}

/// The canonical representative in [0, p) of a value in [0, 2p): one conditional
/// subtraction, branch-free. Used for encoding and comparisons (shared by both tiers).
pub fn canonical(x: &Fe) -> Fe {
    let p = P_LIMBS;
    let mut n = [0u64; 4];
    let borrow = sub_n(&mut n, x, &p);
    let mut w = *x;
    set_cond(&mut w, &n, &borrow.is_zero());
    w
}

/// Little-endian 32-byte encoding of a field element, reduced to [0, p) first
/// (the input must be < 2p).
pub fn to_bytes(x: &Fe) -> [u8; 32] {
    let c = canonical(x);
    let mut out = [0u8; 32];
    for (chunk, limb) in out.chunks_exact_mut(8).zip(c) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
    out
}

/// The 256-bit little-endian integer in `b` as limbs (no reduction).
pub fn from_bytes(b: &[u8; 32]) -> Fe {
    core::array::from_fn(|i| {
        let mut l = [0u8; 8];
        l.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(l)
    })
}

/// Whether `x < p` (public data only: variable time).
#[must_use = "a non-canonical encoding must be refused"]
pub fn is_canonical_vartime(x: &Fe) -> bool {
    le_p(x) && *x != P_LIMBS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `le_p` and `is_canonical_vartime` at p and its neighbours, and where a lower
    /// limb decides (top limbs equal to p's) or the top limb alone does.
    #[test]
    fn comparisons_with_p() {
        let p = P_LIMBS;
        let plus = |j: u64| [p[0] + j, p[1], p[2], p[3]];
        let minus = |j: u64| [p[0] - j, p[1], p[2], p[3]];
        for (x, le, canonical) in [
            ([0; 4], true, true),
            (minus(1), true, true),
            (p, true, false),
            (plus(1), false, false),
            (plus(18), false, false),
            ([u64::MAX, u64::MAX, u64::MAX, p[3]], false, false),
            ([u64::MAX, u64::MAX, u64::MAX, p[3] - 1], true, true),
            ([0, 0, 0, p[3] + 1], false, false),
            ([0, 0, 0, 1 << 63], false, false),
            ([u64::MAX; 4], false, false),
            ([p[0], p[1] - 1, p[2], p[3]], true, true),
        ] {
            assert_eq!(le_p(&x), le, "le_p({x:x?})");
            assert_eq!(
                is_canonical_vartime(&x),
                canonical,
                "is_canonical_vartime({x:x?})"
            );
        }
    }

    #[test]
    fn small_values_reduce() {
        let a: Fe = [5, 0, 0, 0];
        let b: Fe = [7, 0, 0, 0];
        assert_eq!(ec_mulm_25519(&a, &b), [35, 0, 0, 0]);
        assert_eq!(ec_addm_25519(&a, &b), [12, 0, 0, 0]);
        assert_eq!(ec_subm_25519(&b, &a), [2, 0, 0, 0]);
        // 5 - 7 = p - 2.
        let mut pm2 = P_LIMBS;
        pm2[0] -= 2;
        assert_eq!(ec_subm_25519(&a, &b), pm2);
        // (p-1)^2 = 1.
        let mut pm1 = P_LIMBS;
        pm1[0] -= 1;
        assert_eq!(ec_mulm_25519(&pm1, &pm1), [1, 0, 0, 0]);
        // p + p stays p (not canonical), p * anything is 0.
        assert_eq!(ec_addm_25519(&P_LIMBS, &P_LIMBS), P_LIMBS);
        assert_eq!(ec_mulm_25519(&P_LIMBS, &pm1), [0; 4]);
        assert_eq!(canonical(&P_LIMBS), [0; 4]);
    }
}
