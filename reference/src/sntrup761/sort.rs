//! Constant-time sorting (`crypto_sort_int32` / `crypto_sort_uint32`).
//!
//! The sorting network is djbsort's "portable4" shape, which libgcrypt took from
//! supercop-20201130: a merging network whose comparisons depend only on the length,
//! with a branch-free min-max. `Short_fromlist` sorts secret words with it, so a
//! data-dependent sort would leak the positions of the nonzero coefficients.

/// Replaces (a, b) by (min, max) without a branch (`int32_MINMAX`).
#[inline(always)]
fn int32_minmax(a: &mut i32, b: &mut i32) {
    let ab = *b ^ *a;
    let mut c = b.wrapping_sub(*a);
    // When a and b have different signs the subtraction may overflow; then b's sign
    // decides (b < a iff b < 0).
    c ^= ab & (c ^ *b);
    c >>= 31;
    c &= ab;
    *a ^= c;
    *b ^= c;
}

/// Sorts `x` ascending as signed 32-bit integers, in a fixed sequence of
/// compare-exchanges that depends only on `x.len()` (public).
pub fn crypto_sort_int32(x: &mut [i32]) {
    sorting_network(x, int32_minmax);
}

/// djbsort portable4's network over `x`, with `minmax` as the compare-exchange: the
/// sequence of index pairs depends only on `x.len()`.
#[inline(always)]
fn sorting_network<T: Copy>(x: &mut [T], minmax: impl Fn(&mut T, &mut T)) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let mut top = 1;
    while top < n - top {
        top += top;
    }
    let mut p = top;
    while p > 0 {
        for i in 0..n - p {
            if i & p == 0 {
                let (lo, hi) = x.split_at_mut(i + p);
                minmax(&mut lo[i], &mut hi[0]);
            }
        }
        let mut i = 0;
        let mut q = top;
        while q > p {
            while i < n - q {
                if i & p == 0 {
                    let mut a = x[i + p];
                    let mut r = q;
                    while r > p {
                        minmax(&mut a, &mut x[i + r]);
                        r >>= 1;
                    }
                    x[i + p] = a;
                }
                i += 1;
            }
            q >>= 1;
        }
        p >>= 1;
    }
}

/// Sorts `x` ascending as unsigned 32-bit integers: flip the top bit, sort as signed,
/// flip back (`crypto_sort_uint32`). In place: the words are compared as the `i32`
/// they stand for, so no copy of the (secret) list is made and nothing is allocated.
pub fn crypto_sort_uint32(x: &mut [u32]) {
    for v in x.iter_mut() {
        *v ^= 0x8000_0000;
    }
    sorting_network(x, |a: &mut u32, b: &mut u32| {
        let (mut sa, mut sb) = (*a as i32, *b as i32);
        int32_minmax(&mut sa, &mut sb);
        *a = sa as u32;
        *b = sb as u32;
    });
    for v in x.iter_mut() {
        *v ^= 0x8000_0000;
    }
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test data on public values
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// n test words from one seed, with the extremes mixed in.
    fn words(seed: u64, n: usize) -> Vec<u32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|i| match i % 7 {
                0 => 0,
                1 => u32::MAX,
                2 => 0x8000_0000,
                3 => 0x7fff_ffff,
                _ => rng.next_u32(),
            })
            .collect()
    }

    #[test]
    fn sorts_like_std_for_many_lengths() {
        for n in (0..70).chain([255, 256, 257, 761]) {
            for seed in 0..3 {
                let mut a = words(seed * 1000 + n as u64, n);
                let mut b = a.clone();
                crypto_sort_uint32(&mut a);
                b.sort_unstable();
                assert_eq!(a, b, "n = {n}");
                let mut s: Vec<i32> = a.iter().map(|&v| v as i32).collect();
                let mut t = s.clone();
                crypto_sort_int32(&mut s);
                t.sort_unstable();
                assert_eq!(s, t, "n = {n}");
            }
        }
    }
}
