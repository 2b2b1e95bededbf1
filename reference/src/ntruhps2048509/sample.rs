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

/// Constant-time compare-and-swap: (a, b) ← (min, max) as signed 32-bit values.
#[inline(always)]
fn minmax(a: &mut i32, b: &mut i32) {
    // b − a computed in 64 bits cannot overflow; its sign says whether to swap.
    let d = i64::from(*b) - i64::from(*a);
    let swap = core::hint::black_box((d >> 63) as i32);
    let t = swap & (*a ^ *b);
    *a ^= t;
    *b ^= t;
}

/// Sorts signed 32-bit values in increasing order with a data-independent sequence of
/// compare-and-swaps: Batcher's bitonic network on 512 slots, the unused slots padded
/// with `i32::MAX` so they stay at the end. The network depends only on the length,
/// which is public; this plays the role of `crypto_sort_int32` (djbsort): any correct
/// sort gives the same output.
pub fn sort_i32_ct(x: &mut [i32; N - 1]) {
    const M: usize = 512;
    let mut s = [i32::MAX; M];
    s[..N - 1].copy_from_slice(x);
    // Bitonic sort, written with the "alternative" comparator layout: every
    // comparator puts the minimum at the lower index.
    let mut k = 2;
    while k <= M {
        // First stage of a merge: compare i with its mirror image in the block of k.
        for blk in (0..M).step_by(k) {
            for i in 0..k >> 1 {
                let (lo, hi) = s.split_at_mut(blk + k - 1 - i);
                minmax(&mut lo[blk + i], &mut hi[0]);
            }
        }
        let mut j = k >> 2;
        while j >= 1 {
            for blk in (0..M).step_by(2 * j) {
                for i in blk..blk + j {
                    let (lo, hi) = s.split_at_mut(i + j);
                    minmax(&mut lo[i], &mut hi[0]);
                }
            }
            j >>= 1;
        }
        k <<= 1;
    }
    x.copy_from_slice(&s[..N - 1]);
    s[..].zeroize();
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
