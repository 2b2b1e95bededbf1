//! libgcrypt patch 07/10, "sntrup761: defer reduction in polynomial multiplication".
//!
//! The schoolbook inner product accumulates in `i32` and is frozen once per output
//! coefficient; the wrap-around by x^p = x + 1 is the reference's
//! ([`reference::sntrup761::poly::rq_wrap`], unchanged by the patch).
//!
//! Bounds (obligations B-1, B-2; `const` assertions in `reference::sntrup761`):
//! each of the 2p − 1 sums has at most p = 761 terms.
//! * Rq: |f\[j\]·g\[k\]| <= q12·2, so |Σ| <= 761·2295·2 = 3,492,990 < 2^31, inside
//!   `Fq_freeze`'s exact domain |x| <= 10,534,050 (761·2295 = 1,746,495 for canonical
//!   |g| <= 1).
//! * R3: |f\[j\]·g\[k\]| <= 4, so |Σ| <= 3044 < 2^15: the `i16` handed to `F3_freeze`
//!   is the exact sum (761 for canonical inputs).
//!
//! So each output is the unique representative of the same integer the reference
//! reduces step by step: the results are identical for every input satisfying the
//! kernel preconditions.

use reference::plant;
use reference::sntrup761::arith::{f3_freeze, fq_freeze};
use reference::sntrup761::poly::{r3_wrap, rq_wrap};
use reference::sntrup761::{Fq, P, Small, is_rq, is_small, small_le_2};
use zeroize::Zeroize;

/// Largest |Σ| the Rq accumulator reaches, with |f| <= q12 and |g| <= 2.
pub const RQ_ACC_BOUND: i64 = 2 * 761 * 2295;
/// Largest |Σ| the R3 accumulator reaches, with |f|, |g| <= 2.
pub const R3_ACC_BOUND: i64 = 4 * 761;
const _: () = assert!(RQ_ACC_BOUND < i32::MAX as i64);
const _: () = assert!(RQ_ACC_BOUND <= reference::sntrup761::arith::FQ_FREEZE_DOMAIN as i64);
const _: () = assert!(R3_ACC_BOUND <= i16::MAX as i64);

/// Σ_k f\[k\]·g_rev\[n−1−k\] in i32: the inner product of one output coefficient,
/// with `g_rev` read backwards (the g\[i−j\] of the C loop).
#[inline(always)]
fn dot_rq(f: &[Fq], g_rev: &[Small]) -> i32 {
    let sum = f
        .iter()
        .zip(g_rev.iter().rev())
        .map(|(&a, &b)| i32::from(a) * i32::from(b))
        .sum();
    narrowed_rq(sum)
}

/// Planted accumulator widths (normal builds: the identity). A 22-bit accumulator
/// is what a bound sized for canonical |g| <= 1 (761·2295 = 1,746,495 < 2^21) gives:
/// wrong only for |g| = 2 and large sums, never for honest inputs. No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
fn narrowed_rq(sum: i32) -> i32 {
    if plant::active("sntrup761-acc-22bit") {
        // Planted: sign-extend from 22 bits.
        return (sum << 10) >> 10;
    }
    if plant::active("sntrup761-acc-22bit-negative") {
        // Planted: the sum is kept biased by 2^21 in 22 unsigned bits: a sum below
        // −2^21 wraps (large negative sums, |g| = 2 only); positive sums are fine.
        return if sum < -(1 << 21) {
            sum + (1 << 22)
        } else {
            sum
        };
    }
    sum
}

/// As [`dot_rq`] for two small polynomials.
#[inline(always)]
fn dot_r3(f: &[Small], g_rev: &[Small]) -> i32 {
    let sum: i32 = f
        .iter()
        .zip(g_rev.iter().rev())
        .map(|(&a, &b)| i32::from(a) * i32::from(b))
        .sum();
    narrowed_r3(sum)
}

/// Planted (`sntrup761-r3-acc-12bit`): a 12-bit accumulator, enough for |f|, |g| <= 1
/// (761 < 2^11) but not for the |f|, |g| <= 2 the kernel accepts. Identity otherwise.
#[mutants::skip]
#[inline(always)]
fn narrowed_r3(sum: i32) -> i32 {
    if plant::active("sntrup761-r3-acc-12bit") {
        return (sum << 20) >> 20;
    }
    sum
}

/// Planted (`sntrup761-rq-skip-last-column`): the loop bound stops one column short.
#[mutants::skip]
#[inline(always)]
fn skips_column(i: usize) -> bool {
    plant::active("sntrup761-rq-skip-last-column") && i == 2 * P - 2
}

/// Rq_mult_small, deferred reduction: h = f·g in Rq.
///
/// Preconditions: |f\[j\]| <= q12, |g\[j\]| <= 2. Postcondition: identical to
/// [`reference::sntrup761::poly::rq_mult_small_per_step`].
pub fn rq_mult_small_deferred(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
    debug_assert!(is_rq(f) && small_le_2(g), "Kernels::rq_mult_small requires");
    let mut fg = [0 as Fq; 2 * P - 1];
    for (i, out) in fg.iter_mut().enumerate().take(P) {
        // j in 0..=i pairs f[j] with g[i-j].
        *out = fq_freeze(dot_rq(&f[..=i], &g[..=i]));
    }
    for (i, out) in fg.iter_mut().enumerate().skip(P) {
        // j in i-p+1..p pairs f[j] with g[i-j], g index running p-1 down to i-p+1.
        let lo = i - P + 1;
        if skips_column(i) {
            continue;
        }
        *out = fq_freeze(dot_rq(&f[lo..], &g[lo..]));
    }
    rq_wrap(h, &mut fg);
    // The unreduced product of (secret) polynomials.
    fg[..].zeroize();
    debug_assert!(is_rq(h), "Kernels::rq_mult_small ensures");
}

/// R3_mult, deferred reduction: h = f·g in R3.
///
/// Preconditions: |f\[j\]|, |g\[j\]| <= 2. Postcondition: identical to
/// [`reference::sntrup761::poly::r3_mult_per_step`].
pub fn r3_mult_deferred(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
    debug_assert!(small_le_2(f) && small_le_2(g), "Kernels::r3_mult requires");
    let mut fg = [0 as Small; 2 * P - 1];
    for (i, out) in fg.iter_mut().enumerate().take(P) {
        *out = f3_freeze(dot_r3(&f[..=i], &g[..=i]) as i16);
    }
    for (i, out) in fg.iter_mut().enumerate().skip(P) {
        let lo = i - P + 1;
        *out = f3_freeze(dot_r3(&f[lo..], &g[lo..]) as i16);
    }
    r3_wrap(h, &mut fg);
    // The unreduced product of (secret) polynomials.
    fg[..].zeroize();
    debug_assert!(is_small(h), "Kernels::r3_mult ensures");
}
