//! Sampling (`sample.c`, `sample_iid.c`, `crypto_sort_int32.c` of NTRU round 3).

use super::params::{N, SAMPLE_FT_BYTES, SAMPLE_IID_BYTES, WEIGHT};
use super::poly::{Poly, mod3};
use zeroize::Zeroize;

/// `sample_iid`: coefficient i = byte i mod 3 for i < n − 1 (a slightly biased
/// ternary distribution, as specified); coefficient n − 1 = 0.
pub fn sample_iid(bytes: &[u8; SAMPLE_IID_BYTES]) -> Poly {
    let mut r = Poly::ZERO;
    for (c, &b) in r.0.iter_mut().zip(bytes) {
        *c = mod3(u16::from(b));
    }
    r
}

/// `crypto_sort_int32` of the NTRU round-3 code: sorts signed 32-bit values in
/// increasing order with djbsort's portable network (the one sntrup761 uses,
/// [`crate::sntrup761::sort::crypto_sort_int32`]), whose sequence of branch-free
/// compare-exchanges depends only on the length, which is public.
///
/// It replaces a bitonic network padded to 512 slots whose
/// compare-exchange passed its mask through `black_box`: about 11,500 comparators at
/// about 31 instructions each, 81 % of an encapsulation (`docs/ntruhps2048509.md`).
pub fn sort_i32_ct(x: &mut [i32; N - 1]) {
    crate::sntrup761::sort::crypto_sort_int32(x);
}

/// `sample_fixed_type` (HPS): a ternary polynomial with exactly q/16 − 1 = 127
/// coefficients +1 and 127 coefficients −1 (represented as 2), in a uniformly random
/// order: each of the n − 1 slots gets a random 30-bit key (bits 30i .. 30i+29 of the
/// input, little-endian), shifted left by 2, with its value in the low two bits; the
/// keys are sorted in constant time and the low two bits read off.
pub fn sample_fixed_type(u: &[u8; SAMPLE_FT_BYTES]) -> Poly {
    let mut s = [0i32; N - 1];
    for (i, si) in s.iter_mut().enumerate() {
        let bit = 30 * i;
        let byte = bit >> 3;
        let shift = bit & 7;
        // 30 bits starting at `shift` < 8 lie within 5 bytes.
        let mut w: u64 = 0;
        for k in 0..5 {
            if byte + k < SAMPLE_FT_BYTES {
                w |= u64::from(u[byte + k]) << (8 * k);
            }
        }
        let key = ((w >> shift) & ((1 << 30) - 1)) as u32;
        *si = (key << 2) as i32;
    }
    for (i, si) in s.iter_mut().enumerate().take(WEIGHT) {
        // The first WEIGHT/2 slots hold +1, the next WEIGHT/2 hold −1 (2).
        *si |= if i < WEIGHT >> 1 { 1 } else { 2 };
    }
    sort_i32_ct(&mut s);
    let mut r = Poly::ZERO;
    for (c, &si) in r.0.iter_mut().zip(&s) {
        *c = (si & 3) as u16;
    }
    // The sorted list is the secret polynomial with its random keys.
    s[..].zeroize();
    r
}

/// `sample_fg` (HPS): f iid ternary from the first 508 bytes, g of fixed type from the
/// remaining 1905.
pub fn sample_fg(bytes: &[u8; SAMPLE_IID_BYTES + SAMPLE_FT_BYTES]) -> (Poly, Poly) {
    let (iid, ft) = bytes.split_at(SAMPLE_IID_BYTES);
    let mut iid: [u8; SAMPLE_IID_BYTES] = super::copy_array(iid);
    let mut ft: [u8; SAMPLE_FT_BYTES] = super::copy_array(ft);
    let out = (sample_iid(&iid), sample_fixed_type(&ft));
    iid[..].zeroize();
    ft[..].zeroize();
    out
}

/// `sample_rm` (HPS): r iid ternary, m of fixed type, from the same split as
/// [`sample_fg`].
pub fn sample_rm(bytes: &[u8; SAMPLE_IID_BYTES + SAMPLE_FT_BYTES]) -> (Poly, Poly) {
    sample_fg(bytes)
}
