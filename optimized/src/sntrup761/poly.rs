//! libgcrypt patch 07/10, "sntrup761: defer reduction in polynomial multiplication".
//!
//! The schoolbook inner product accumulates in `i32` and is frozen once per output
//! coefficient; the wrap-around by x^p = x + 1 is the reference's
//! ([`reference::sntrup761::poly::rq_wrap`], unchanged by the patch).
//!
//! Bounds (obligations S-1, S-2; `const` assertions in `reference::sntrup761`):
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
use reference::sntrup761::poly::{Arith, Int};
use reference::sntrup761::{Fq, P, Small};

/// Largest |Σ| the Rq accumulator reaches, with |f| <= q12 and |g| <= 2.
pub const RQ_ACC_BOUND: i64 = 2 * 761 * 2295;
/// Largest |Σ| the R3 accumulator reaches, with |f|, |g| <= 2.
pub const R3_ACC_BOUND: i64 = 4 * 761;
const _: () = assert!(RQ_ACC_BOUND < i32::MAX as i64);
const _: () = assert!(RQ_ACC_BOUND <= reference::sntrup761::arith::FQ_FREEZE_DOMAIN as i64);
const _: () = assert!(R3_ACC_BOUND <= i16::MAX as i64);

/// The bug zoo's accumulator plants (`reference::plant`) as hooks on the arithmetic:
/// the identity on every type in a normal build. With a plant switched on, the machine
/// integers ([`Int`]) narrow the accumulator, and the symbolic arithmetic of
/// `refopt prove` checks its interval against the same planted width
/// ([`planted_acc_bits`]).
pub trait Accumulator: Arith {
    /// The Rq column sum as the deferred kernel hands it to `Fq_freeze`.
    fn rq_sum(sum: Self::Wide) -> Self::Wide {
        sum
    }
    /// The R3 column sum as the deferred kernel hands it to `F3_freeze`.
    fn r3_sum(sum: Self::Wide) -> Self::Wide {
        sum
    }
}

/// A planted accumulator width in bits, or `None` for the shipped `i32` (every normal
/// build). The machine instance ([`Int`]) truncates to it and the proof's symbolic
/// instance checks its interval against it, so the proof sees the same planted width:
/// `sntrup761-acc-22bit` (Rq) and `sntrup761-r3-acc-12bit` (R3). No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
pub fn planted_acc_bits(rq: bool) -> Option<u32> {
    match rq {
        true if plant::active("sntrup761-acc-22bit") => Some(22),
        false if plant::active("sntrup761-r3-acc-12bit") => Some(12),
        _ => None,
    }
}

/// `sum` kept in a `bits`-bit signed accumulator (planted widths only). No mutants:
/// plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn sign_extend(sum: i32, bits: u32) -> i32 {
    (sum << (32 - bits)) >> (32 - bits)
}

impl Accumulator for Int {
    /// Planted accumulator widths (normal builds: the identity). A 22-bit accumulator
    /// is what a bound sized for canonical |g| <= 1 (761·2295 = 1,746,495 < 2^21) gives:
    /// wrong only for |g| = 2 and large sums, never for honest inputs. No mutants:
    /// plant scaffolding.
    #[mutants::skip]
    #[inline(always)]
    fn rq_sum(sum: i32) -> i32 {
        if let Some(bits) = planted_acc_bits(true) {
            return sign_extend(sum, bits);
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

    /// Planted (`sntrup761-r3-acc-12bit`): a 12-bit accumulator, enough for |f|, |g|
    /// <= 1 (761 < 2^11) but not for the |f|, |g| <= 2 the kernel accepts.
    #[mutants::skip]
    #[inline(always)]
    fn r3_sum(sum: i32) -> i32 {
        if let Some(bits) = planted_acc_bits(false) {
            return sign_extend(sum, bits);
        }
        sum
    }
}

/// The operands of one low column of the Rq product; planted
/// (`sntrup761-rq-deferred-skips-the-first-product`, proof self-test): the column's
/// first product f\[0\]·g\[i\] is lost. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_skips_the_first_product<'a, F, G>(f: &'a [F], g: &'a [G]) -> (&'a [F], &'a [G]) {
    if plant::active("sntrup761-rq-deferred-skips-the-first-product") && f.len() > 1 {
        (&f[1..], &g[..g.len() - 1])
    } else {
        (f, g)
    }
}

/// The operands of one high column of the R3 product; planted
/// (`sntrup761-r3-deferred-drops-the-last-product`, proof self-test): the column's
/// last product f\[p−1\]·g\[i−p+1\] is lost. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_drops_the_last_product<'a, F, G>(f: &'a [F], g: &'a [G]) -> (&'a [F], &'a [G]) {
    if plant::active("sntrup761-r3-deferred-drops-the-last-product") {
        (&f[..f.len() - 1], &g[1..])
    } else {
        (f, g)
    }
}

/// Planted (`sntrup761-rq-deferred-wipes-before-the-wrap`, proof self-test): the
/// unreduced product is wiped before the wrap-around reads it. No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_wipes_before_the_wrap<A: Arith>(fg: &mut [A::Fq]) {
    if plant::active("sntrup761-rq-deferred-wipes-before-the-wrap") {
        A::wipe_fq(fg);
    }
}

/// Planted (`sntrup761-rq-skip-last-column`): the loop bound stops one column short.
#[mutants::skip]
#[inline(always)]
fn skips_column(i: usize) -> bool {
    plant::active("sntrup761-rq-skip-last-column") && i == 2 * P - 2
}

/// Σ_k f\[k\]·g_rev\[n−1−k\] in i32: the inner product of one output coefficient,
/// with `g_rev` read backwards (the g\[i−j\] of the C loop).
#[inline(always)]
fn dot_rq<A: Accumulator>(f: &[A::Fq], g_rev: &[A::Small]) -> A::Wide {
    A::rq_sum(
        f.iter()
            .zip(g_rev.iter().rev())
            .fold(A::wide_zero(), |acc, (a, b)| {
                A::add(acc, A::mul(A::wide_fq(a.clone()), A::wide_small(b.clone())))
            }),
    )
}

/// As [`dot_rq`] for two small polynomials.
#[inline(always)]
fn dot_r3<A: Accumulator>(f: &[A::Small], g_rev: &[A::Small]) -> A::Wide {
    A::r3_sum(
        f.iter()
            .zip(g_rev.iter().rev())
            .fold(A::wide_zero(), |acc, (a, b)| {
                A::add(
                    acc,
                    A::mul(A::wide_small(a.clone()), A::wide_small(b.clone())),
                )
            }),
    )
}

/// Rq_mult_small, deferred reduction: h = f·g in Rq.
///
/// Preconditions: |f\[j\]| <= q12, |g\[j\]| <= 2. Postcondition: identical to
/// [`reference::sntrup761::poly::rq_mult_small_per_step`] (obligation S-7a of
/// `refopt prove`, for every input meeting the preconditions).
///
/// # Panics
/// Debug builds only, outside the preconditions, where the `i32` column sum or the
/// freeze's bias can overflow; release builds then return a product that is not the
/// reference's. The callers in the crates pass canonical f and small g.
pub fn rq_mult_small_deferred(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
    rq_mult_small_deferred_over::<Int>(h, f, g);
}

/// [`rq_mult_small_deferred`] over any [`Accumulator`] arithmetic.
pub fn rq_mult_small_deferred_over<A: Accumulator>(
    h: &mut [A::Fq; P],
    f: &[A::Fq; P],
    g: &[A::Small; P],
) {
    let mut fg: [A::Fq; 2 * P - 1] = core::array::from_fn(|_| A::fq_zero());
    for (i, out) in fg.iter_mut().enumerate().take(P) {
        // j in 0..=i pairs f[j] with g[i-j].
        let (f, g) = planted_skips_the_first_product(&f[..=i], &g[..=i]);
        *out = A::fq_freeze(dot_rq::<A>(f, g));
    }
    for (i, out) in fg.iter_mut().enumerate().skip(P) {
        // j in i-p+1..p pairs f[j] with g[i-j], g index running p-1 down to i-p+1.
        let lo = i - P + 1;
        if skips_column(i) {
            continue;
        }
        *out = A::fq_freeze(dot_rq::<A>(&f[lo..], &g[lo..]));
    }
    planted_wipes_before_the_wrap::<A>(&mut fg);
    A::rq_wrap(h, &mut fg);
    // The unreduced product of (secret) polynomials.
    A::wipe_fq(&mut fg);
}

/// R3_mult, deferred reduction: h = f·g in R3.
///
/// Preconditions: |f\[j\]|, |g\[j\]| <= 2. Postcondition: identical to
/// [`reference::sntrup761::poly::r3_mult_per_step`] (obligation S-7b).
///
/// Outside the preconditions (any `i8` operands) it does not panic, but the sum's
/// truncation to `i16` need not be exact and the result need not be the reference's.
pub fn r3_mult_deferred(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
    r3_mult_deferred_over::<Int>(h, f, g);
}

/// [`r3_mult_deferred`] over any [`Accumulator`] arithmetic.
pub fn r3_mult_deferred_over<A: Accumulator>(
    h: &mut [A::Small; P],
    f: &[A::Small; P],
    g: &[A::Small; P],
) {
    let mut fg: [A::Small; 2 * P - 1] = core::array::from_fn(|_| A::small_zero());
    for (i, out) in fg.iter_mut().enumerate().take(P) {
        *out = A::f3_freeze(A::narrow(dot_r3::<A>(&f[..=i], &g[..=i])));
    }
    for (i, out) in fg.iter_mut().enumerate().skip(P) {
        let lo = i - P + 1;
        let (f, g) = planted_drops_the_last_product(&f[lo..], &g[lo..]);
        *out = A::f3_freeze(A::narrow(dot_r3::<A>(f, g)));
    }
    A::r3_wrap(h, &mut fg);
    // The unreduced product of (secret) polynomials.
    A::wipe_small(&mut fg);
}

#[cfg(test)]
mod tests {
    use super::{Int, P, R3_ACC_BOUND, RQ_ACC_BOUND, dot_r3, dot_rq};
    use reference::sntrup761::Q12;
    use reference::sntrup761::{Fq, Small};

    /// The declared accumulator bounds are the largest sums the kernels reach, both
    /// signs: a full column at |f| = q12 (Rq) or 2 (R3) and |g| = 2 attains them.
    #[test]
    fn accumulator_bounds_are_attained() {
        let q12 = Fq::try_from(Q12).expect("q12 fits an Fq");
        for (fs, gs) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let f = [q12 * fs; P];
            let g: [Small; P] = [2 * gs; P];
            let rq = i64::from(dot_rq::<Int>(&f, &g));
            assert_eq!(
                rq,
                RQ_ACC_BOUND * i64::from(fs * i16::from(gs)),
                "Rq, signs {fs} {gs}"
            );
            let f3: [Small; P] = [2 * gs; P];
            let r3 = i64::from(dot_r3::<Int>(&f3, &g));
            assert_eq!(r3, R3_ACC_BOUND, "R3, sign {gs}");
        }
    }
}
