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

/// Runs shorter than this go one chain at a time, as in portable4's loops, rather
/// than step by step across the run (measured fastest for 761 and 508 words).
const SHORT: usize = 4;

/// djbsort portable4's network over `x`, with `minmax` as the compare-exchange: the
/// sequence of index pairs depends only on `x.len()`.
///
/// The compare-exchanges are portable4's, grouped so that each group runs over two
/// disjoint runs of consecutive words, which the compiler vectorizes. Only
/// compare-exchanges on disjoint pairs are reordered, so every word sees the same
/// sequence of compare-exchanges as in portable4's loops:
/// - for each `p`, the pairs `(i, i + p)` with `i & p == 0` are disjoint, taken a
///   block of `p` consecutive `i` at a time (a pair at a time when `p` is below
///   [`SHORT`]);
/// - in the merge steps, the `i` of one run of consecutive `i & p == 0` share no word
///   (their partners `i + r` differ by less than `p`, the steps `r` by at least `2p`),
///   so the run's chains go step by step: first every `i`'s compare-exchange at the
///   largest `r`, then at the next, down to `2p`, as each chain alone would (a run
///   shorter than [`SHORT`] goes chain by chain).
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
        if p < SHORT {
            for i in 0..n - p {
                if i & p == 0 {
                    let (lo, hi) = x.split_at_mut(i + p);
                    minmax(&mut lo[i], &mut hi[0]);
                }
            }
        } else {
            let mut b = 0;
            while b < n - p {
                let len = p.min(n - p - b);
                let (lo, hi) = x[b..].split_at_mut(p);
                for (u, v) in lo[..len].iter_mut().zip(&mut hi[..len]) {
                    minmax(u, v);
                }
                b += 2 * p;
            }
        }
        let mut i = 0;
        let mut q = top;
        while q > p {
            while i < n - q {
                if i & p != 0 {
                    // On to the next block of p, whose i have bit p clear. i is at the
                    // start of its block here: a run ends at a block's end, and a run cut
                    // at n − q resumes inside its own block, whose bit p is clear.
                    i += p;
                    continue;
                }
                let end = (i - (i & (p - 1)) + p).min(n - q);
                let len = end - i;
                if len < SHORT {
                    for j in i..end {
                        let mut a = x[j + p];
                        let mut r = q;
                        while r > p {
                            minmax(&mut a, &mut x[j + r]);
                            r >>= 1;
                        }
                        x[j + p] = a;
                    }
                } else {
                    let mut r = q;
                    while r > p {
                        let (lo, hi) = x[i + p..].split_at_mut(r - p);
                        for (u, v) in lo[..len].iter_mut().zip(&mut hi[..len]) {
                            minmax(u, v);
                        }
                        r >>= 1;
                    }
                }
                i = end;
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

    /// djbsort portable4's loops as written, one compare-exchange at a time: the
    /// oracle of the grouped network, so it shares none of that code, though its
    /// first lines read the same.
    fn portable4_loops<T: Copy>(x: &mut [T], minmax: impl Fn(&mut T, &mut T)) {
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

    /// The grouped network gives every word the sequence of compare-exchanges that
    /// portable4's loops give it. The "compare-exchange" here is an order-sensitive
    /// mix of two words (neither symmetric nor idempotent), so the outputs agree only
    /// if each word meets the same partners in the same order.
    #[test]
    fn groups_portable4s_compare_exchanges_without_reordering() {
        let mix = |a: &mut u64, b: &mut u64| {
            let (x, y) = (*a, *b);
            *a = x
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(y)
                .rotate_left(17);
            *b = (y ^ x.rotate_left(29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        };
        for n in (0..300).chain([508, 509, 761, 1024, 1025]) {
            let start: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ n as u64)
                .collect();
            let (mut grouped, mut loops) = (start.clone(), start);
            sorting_network(&mut grouped, mix);
            portable4_loops(&mut loops, mix);
            assert_eq!(grouped, loops, "n = {n}");
        }
    }
}
