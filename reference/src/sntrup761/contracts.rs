//! The contracts of the sntrup761 [`Kernels`](super::Kernels) as executable
//! predicates: the `requires`/`ensures` of the hax-lib annotations on the trait
//! (type-checked under `--cfg hax`), checked with `debug_assert!` by the provided
//! randomness methods and the optimized multiplications, and available to any caller
//! that wants the release-mode check.

use super::arith::{Fq, Small};
use super::poly::{r3_mult_per_step, rq_mult_small_per_step};
use super::{P, Q12, W};

/// Every coefficient is a canonical element of Z_q: in [−q12, q12].
pub fn is_rq(f: &[Fq; P]) -> bool {
    f.iter().all(|&x| (-Q12..=Q12).contains(&i32::from(x)))
}

/// Every coefficient is in {−1, 0, 1}.
pub fn is_small(f: &[Small; P]) -> bool {
    f.iter().all(|&x| (-1..=1).contains(&x))
}

/// Every coefficient has absolute value at most 2 (the small operands' input bound).
pub fn small_le_2(f: &[Small; P]) -> bool {
    f.iter().all(|&x| (-2..=2).contains(&x))
}

/// Short: small with exactly w nonzero coefficients.
pub fn is_short(f: &[Small; P]) -> bool {
    is_small(f) && f.iter().filter(|&&x| x != 0).count() == W
}

/// Postcondition of `Rq_mult_small`: h is the reference's freeze-per-step product
/// of f and g. Vacuous outside the precondition.
pub fn rq_mult_small_ensures(f: &[Fq; P], g: &[Small; P], h: &[Fq; P]) -> bool {
    if !(is_rq(f) && small_le_2(g)) {
        return true;
    }
    let mut want = [0; P];
    rq_mult_small_per_step(&mut want, f, g);
    *h == want
}

/// Postcondition of `R3_mult`: h is the reference's freeze-per-step product of f
/// and g. Vacuous outside the precondition.
pub fn r3_mult_ensures(f: &[Small; P], g: &[Small; P], h: &[Small; P]) -> bool {
    if !(small_le_2(f) && small_le_2(g)) {
        return true;
    }
    let mut want = [0; P];
    r3_mult_per_step(&mut want, f, g);
    *h == want
}
