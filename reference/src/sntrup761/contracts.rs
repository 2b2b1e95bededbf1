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

#[cfg(test)]
mod tests {
    use super::*;

    /// Canonical f, small g from a fixed xorshift stream (no secrets: test data).
    fn operands(seed: u64) -> ([Fq; P], [Small; P]) {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let f = core::array::from_fn(|_| (next() % (2 * Q12 as u64 + 1)) as i32 - Q12);
        let g = core::array::from_fn(|_| (next() % 3) as i8 - 1);
        (f.map(|x: i32| x as Fq), g)
    }

    /// Each postcondition accepts the reference's product and rejects it with one
    /// coefficient changed (still in range), so the debug checks can fail.
    #[test]
    fn postconditions_accept_the_product_and_reject_others() {
        let (f, g) = operands(7);
        let mut h = [0; P];
        rq_mult_small_per_step(&mut h, &f, &g);
        assert!(is_rq(&h) && rq_mult_small_ensures(&f, &g, &h));
        h[17] = if h[17] == Q12 as Fq {
            -(Q12 as Fq)
        } else {
            h[17] + 1
        };
        assert!(is_rq(&h) && !rq_mult_small_ensures(&f, &g, &h));

        let f3 = g.map(|x| -x);
        let mut h3 = [0; P];
        r3_mult_per_step(&mut h3, &f3, &g);
        assert!(is_small(&h3) && r3_mult_ensures(&f3, &g, &h3));
        h3[P - 1] = if h3[P - 1] == 1 { -1 } else { h3[P - 1] + 1 };
        assert!(is_small(&h3) && !r3_mult_ensures(&f3, &g, &h3));
    }

    /// The range predicates reject one coefficient just outside their range.
    #[test]
    fn range_predicates_reject_the_first_value_outside() {
        let (mut f, mut g) = operands(11);
        assert!(is_rq(&f) && is_small(&g) && small_le_2(&g));
        f[3] = Q12 as Fq + 1;
        assert!(!is_rq(&f));
        g[5] = 2;
        assert!(!is_small(&g) && small_le_2(&g));
        g[5] = -3;
        assert!(!small_le_2(&g));
        let mut short = [0 as Small; P];
        short[..W].fill(1);
        assert!(is_short(&short));
        short[0] = 0;
        assert!(!is_short(&short));
    }
}
