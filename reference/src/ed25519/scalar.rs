//! Scalars modulo the group order L = 2^252 + 27742317777372353535851937790883648493.
//!
//! Plain and constant time: a 512-bit value is reduced by Barrett's method with
//! masked final subtractions, so the work does not depend on the (secret) value.
//! This code is shared by both tiers: the optimization under study is in the field,
//! not here.

use super::mpih::{Limb, add_n, mul_n, set_cond, sub_n};
use zeroize::Zeroize;

/// L, little-endian limbs.
pub const L_LIMBS: [u64; 4] = [
    0x5812_631a_5cf5_d3ed,
    0x14de_f9de_a2f7_9cd6,
    0,
    0x1000_0000_0000_0000,
];

/// L as five limbs (the width of Barrett's remainders).
const L5: [u64; 5] = [L_LIMBS[0], L_LIMBS[1], L_LIMBS[2], L_LIMBS[3], 0];

/// μ = floor(2^512 / L), Barrett's constant (260 bits, five limbs).
pub const MU_LIMBS: [u64; 5] = [
    0xed9c_e5a3_0a2c_131b,
    0x2106_215d_0863_29a7,
    0xffff_ffff_ffff_ffeb,
    0xffff_ffff_ffff_ffff,
    0xf,
];

/// `x mod L` for a 512-bit little-endian `x`, in constant time: Barrett reduction
/// (Handbook of Applied Cryptography, algorithm 14.42, base 2^64, k = 4):
/// q = floor(floor(x / 2^192)·μ / 2^320) is at most 2 below floor(x / L), so
/// r = x − q·L lies in [0, 3L) and is exact modulo 2^320; two masked conditional
/// subtractions of L finish it. No branch or index depends on `x`.
pub fn reduce_wide(x: &[u64; 8]) -> [u64; 4] {
    let mut q1: [u64; 5] = core::array::from_fn(|i| x[3 + i]);
    let mut q2 = [0u64; 10];
    mul_n(&mut q2, &q1, &MU_LIMBS);
    let mut q3: [u64; 5] = core::array::from_fn(|i| q2[5 + i]);
    let mut ql = [0u64; 10];
    mul_n(&mut ql, &q3, &L5);
    let mut r1: [u64; 5] = core::array::from_fn(|i| x[i]);
    let mut r2: [u64; 5] = core::array::from_fn(|i| ql[i]);
    let mut r = [0u64; 5];
    let _ = sub_n(&mut r, &r1, &r2); // exact: 0 <= r < 3L < 2^320
    let mut s = [0u64; 5];
    for _ in 0..2 {
        let borrow = sub_n(&mut s, &r, &L5);
        set_cond(&mut r, &s, &borrow.is_zero());
    }
    // No `debug_assert_eq!`: its message would print the secret limb.
    debug_assert!(r[4] == 0, "reduce_wide: the result exceeds 4 limbs");
    let out = [r[0], r[1], r[2], r[3]];
    // Reducing a nonce or k·s + r: the intermediates are as secret as the result.
    for t in [
        &mut q1[..],
        &mut q2[..],
        &mut q3[..],
        &mut ql[..],
        &mut r1[..],
        &mut r2[..],
        &mut r[..],
        &mut s[..],
    ] {
        t.zeroize();
    }
    out
}

/// The 64-byte little-endian integer `b` (a SHA-512 output) mod L.
pub fn reduce_bytes(b: &[u8; 64]) -> [u64; 4] {
    let mut x: [u64; 8] = core::array::from_fn(|i| {
        let mut l = [0u8; 8];
        l.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(l)
    });
    let out = reduce_wide(&x);
    x[..].zeroize();
    out
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
    // No `debug_assert_eq!`: its message would print the secret carry.
    debug_assert!(carry == 0, "mul_add: k·a + r >= 2^512");
    let out = reduce_wide(&sum);
    // k·s, r and k·s + r: the signing key and the nonce are recoverable from them.
    for t in [&mut prod, &mut r8, &mut sum] {
        t[..].zeroize();
    }
    out
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
#[must_use = "a non-canonical S must be refused"]
pub fn is_canonical_vartime(s: &[u8; 32]) -> bool {
    let x = super::field::from_bytes(s);
    let mut t = [0u64; 4];
    sub_n(&mut t, &x, &L_LIMBS) == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// Bit-serial reduction (acc = 2·acc + bit, subtract L unless that borrows):
    /// an independent oracle for Barrett.
    fn reduce_bitwise(x: &[u64; 8]) -> [u64; 4] {
        let mut acc = [0u64; 4];
        for i in (0..512).rev() {
            let bit = (x[i >> 6] >> (i & 63)) & 1;
            let mut t = [0u64; 4];
            let _ = crate::ed25519::mpih::lshift::<_, 4, 1>(&mut t, &acc);
            t[0] |= bit;
            let mut s = [0u64; 4];
            let borrow = sub_n(&mut s, &t, &L_LIMBS);
            acc = if borrow == 0 { s } else { t };
        }
        acc
    }

    #[test]
    fn mu_is_floor_of_2_512_over_l() {
        // μ·L <= 2^512 < (μ + 1)·L, i.e. 2^512 − μ·L is in [0, L).
        let mut prod = [0u64; 10];
        mul_n(&mut prod, &MU_LIMBS, &L5);
        assert_eq!(prod[8..], [0, 0], "μ·L < 2^512");
        let low: [u64; 8] = core::array::from_fn(|i| prod[i]);
        let mut rem = [0u64; 8];
        let zero = [0u64; 8];
        // 2^512 − μ·L = −low mod 2^512 (low is not 0: L is odd); it must be < L.
        let _ = sub_n(&mut rem, &zero, &low);
        assert_eq!(rem[4..], [0; 4]);
        let mut t = [0u64; 4];
        assert_eq!(
            sub_n(&mut t, &[rem[0], rem[1], rem[2], rem[3]], &L_LIMBS),
            1
        );
    }

    #[test]
    fn barrett_matches_bitwise_reduction() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut next = move || rng.next_u64();
        let mut cases: Vec<[u64; 8]> = vec![[0; 8], [u64::MAX; 8]];
        let mut l8 = [0u64; 8];
        l8[..4].copy_from_slice(&L_LIMBS);
        cases.push(l8);
        for k in 1..40u64 {
            // k·L − 1, k·L, k·L + 1 near multiples of L, and shifted copies.
            let mut kl = [0u64; 8];
            mul_n(&mut kl, &[k, 0, 0, 0], &L_LIMBS);
            cases.push(kl);
            let mut t = [0u64; 8];
            let _ = sub_n(&mut t, &kl, &[1, 0, 0, 0, 0, 0, 0, 0]);
            cases.push(t);
            let mut hi = [0u64; 8];
            mul_n(&mut hi, &L_LIMBS, &[next(), next(), next(), next() >> 3]);
            cases.push(hi);
        }
        for _ in 0..2000 {
            cases.push(core::array::from_fn(|_| next()));
        }
        for x in &cases {
            assert_eq!(reduce_wide(x), reduce_bitwise(x), "{x:x?}");
        }
    }

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
