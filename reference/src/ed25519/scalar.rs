//! Scalars modulo the group order L = 2^252 + 27742317777372353535851937790883648493.
//!
//! Plain and constant time: a 512-bit value is reduced bit by bit from the top
//! (acc = 2·acc + bit, then subtract L unless that borrows), so the work does not
//! depend on the (secret) value. This code is shared by both tiers: the optimization
//! under study is in the field, not here.

use super::mpih::{Limb, add_n, mul_n, set_cond, sub_n};

/// L, little-endian limbs.
pub const L_LIMBS: [u64; 4] = [
    0x5812_631a_5cf5_d3ed,
    0x14de_f9de_a2f7_9cd6,
    0,
    0x1000_0000_0000_0000,
];

/// `x mod L` for a 512-bit little-endian `x`, in constant time.
pub fn reduce_wide(x: &[u64; 8]) -> [u64; 4] {
    let mut acc = [0u64; 4];
    for i in (0..512).rev() {
        // acc < L < 2^253, so 2·acc + 1 < 2^254 fits in four limbs.
        let bit = (x[i >> 6] >> (i & 63)) & 1;
        let mut t = [0u64; 4];
        let _ = super::mpih::lshift(&mut t, &acc, 1);
        t[0] |= bit;
        let mut s = [0u64; 4];
        let borrow = sub_n(&mut s, &t, &L_LIMBS);
        acc = t;
        set_cond(&mut acc, &s, &borrow.is_zero());
    }
    acc
}

/// The 64-byte little-endian integer `b` (a SHA-512 output) mod L.
pub fn reduce_bytes(b: &[u8; 64]) -> [u64; 4] {
    let x: [u64; 8] = core::array::from_fn(|i| {
        let mut l = [0u8; 8];
        l.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(l)
    });
    reduce_wide(&x)
}

/// `(r + k·a) mod L` (RFC 8032 5.1.6 step 5), constant time. `r`, `k` < L and
/// `a` < 2^255, so r + k·a < 2^253 + 2^508 < 2^512: the sum cannot wrap.
pub fn mul_add(k: &[u64; 4], a: &[u64; 4], r: &[u64; 4]) -> [u64; 4] {
    let mut prod = [0u64; 8];
    mul_n(&mut prod, k, a);
    let mut r8 = [0u64; 8];
    r8[..4].copy_from_slice(r);
    let mut sum = [0u64; 8];
    let carry = add_n(&mut sum, &prod, &r8);
    debug_assert_eq!(carry, 0);
    reduce_wide(&sum)
}

/// Little-endian bytes of limbs.
pub fn to_bytes(x: &[u64; 4]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, limb) in out.chunks_exact_mut(8).zip(x) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
    out
}

/// Whether the 32-byte little-endian `s` is < L (RFC 8032 5.1.7 step 1; public
/// data, variable time).
pub fn is_canonical_vartime(s: &[u8; 32]) -> bool {
    let x = super::field::from_bytes(s);
    let mut t = [0u64; 4];
    sub_n(&mut t, &x, &L_LIMBS) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_small_and_order() {
        let mut x = [0u64; 8];
        x[0] = 12345;
        assert_eq!(reduce_wide(&x), [12345, 0, 0, 0]);
        x[..4].copy_from_slice(&L_LIMBS);
        assert_eq!(reduce_wide(&x), [0; 4]);
        x[0] += 1;
        assert_eq!(reduce_wide(&x), [1, 0, 0, 0]);
        // 2^512 - 1 mod L, computed independently (Python: (2**512-1) % L).
        let all = [u64::MAX; 8];
        let got = to_bytes(&reduce_wide(&all));
        assert_eq!(
            hex::encode(got),
            "000f9c44e31106a447938568a71b0ed065bef517d273ecce3d9a307c1b419903"
        );
        assert!(!is_canonical_vartime(&to_bytes(&L_LIMBS)));
        let mut lm1 = L_LIMBS;
        lm1[0] -= 1;
        assert!(is_canonical_vartime(&to_bytes(&lm1)));
    }
}
