//! The contracts of the ntruhps2048509 [`Kernels`](super::Kernels) as executable
//! predicates: the `requires`/`ensures` of the hax-lib annotations on the trait
//! (type-checked under `--cfg hax`), checked with `debug_assert!` by the optimized
//! kernels and the provided `poly_rq_inv`, and available to any caller that wants the
//! release-mode check. Their products are [`poly::poly_rq_mul_columns`]: the reference
//! schoolbook's product, summed in an order that vectorizes.

use super::Poly;
use super::poly;

/// `r` is a·b mod q (every coefficient of the schoolbook product, mod q).
pub fn rq_mul_is_exact(a: &Poly, b: &Poly, r: &Poly) -> bool {
    let want = poly::poly_rq_mul_columns(a, b);
    want.0
        .iter()
        .zip(&r.0)
        .all(|(&x, &y)| poly::modq(x) == poly::modq(y))
}

/// a ≢ 0 mod (2, Φ_n), i.e. a is invertible there (Φ_n is irreducible mod 2 for
/// n = 509): the low bits of a's coefficients are not all equal. Every coefficient
/// is read (no early exit: the debug checks run it on the secret 3g·f).
pub fn r2_invertible(a: &Poly) -> bool {
    a.0.iter().fold(0u16, |acc, &c| acc | ((c ^ a.0[0]) & 1)) == 1
}

/// r's coefficients are in {0, 1, 2} and r·a ≡ 1 mod (3, Φ_n): a stored f⁻¹ mod 3
/// (`fp` of the secret key) inverts f.
pub fn s3_is_inverse(a: &Poly, r: &Poly) -> bool {
    if r.0.iter().any(|&c| c > 2) {
        return false;
    }
    // Coefficients below 3 and at most 509 terms: every column sum is exact in u16.
    let mut prod = poly::poly_rq_mul_columns(a, r);
    poly::poly_mod_3_phi_n(&mut prod);
    prod.0
        .iter()
        .enumerate()
        .all(|(i, &c)| c == u16::from(i == 0))
}

/// r's coefficients are bits and r·a ≡ 1 mod (2, Φ_n).
pub fn r2_is_inverse(a: &Poly, r: &Poly) -> bool {
    if r.0.iter().any(|&c| c > 1) {
        return false;
    }
    let bits = Poly(a.0.map(|c| c & 1));
    let mut prod = poly::poly_rq_mul_columns(&bits, r);
    poly::poly_mod_2_phi_n(&mut prod);
    prod.0
        .iter()
        .enumerate()
        .all(|(i, &c)| c == u16::from(i == 0))
}

/// r·a ≡ 1 mod (q, Φ_n).
pub fn rq_is_inverse(a: &Poly, r: &Poly) -> bool {
    let mut prod = poly::poly_rq_mul_columns(a, r);
    poly::poly_mod_q_phi_n(&mut prod);
    prod.0
        .iter()
        .enumerate()
        .all(|(i, &c)| poly::modq(c) == u16::from(i == 0))
}

#[cfg(test)]
mod tests {
    use super::super::params::{N, Q};
    use super::*;

    /// A fixed pseudorandom polynomial with coefficients below `bound` (test data).
    fn poly(seed: u64, bound: u16) -> Poly {
        let mut s = seed | 1;
        Poly(core::array::from_fn(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % u64::from(bound)) as u16
        }))
    }

    /// Each predicate accepts the reference's result and rejects it with one
    /// coefficient changed, so the debug checks built on them can fail.
    #[test]
    fn predicates_accept_the_reference_and_reject_a_changed_coefficient() {
        let (a, b) = (poly(3, Q), poly(5, Q));
        let mut r = poly::poly_rq_mul_schoolbook(&a, &b);
        assert!(rq_mul_is_exact(&a, &b, &r));
        r.0[200] = r.0[200].wrapping_add(1);
        assert!(!rq_mul_is_exact(&a, &b, &r));

        // A unit mod 2 (its low bits are not all equal) and its inverses.
        let f = poly(9, 3);
        assert!(r2_invertible(&f));
        assert!(!r2_invertible(&Poly([1; N])) && !r2_invertible(&Poly([2; N])));
        let mut r2 = poly::poly_r2_inv_divstep(&f);
        assert!(r2_is_inverse(&f, &r2));
        let mut rq = poly::poly_r2_inv_to_rq_inv(&r2, &f, poly::poly_rq_mul_schoolbook);
        assert!(rq_is_inverse(&f, &rq));
        rq.0[0] = rq.0[0].wrapping_add(2);
        assert!(!rq_is_inverse(&f, &rq));
        r2.0[N - 2] ^= 1;
        assert!(!r2_is_inverse(&f, &r2));
        r2.0[N - 2] ^= 3; // back to the bit, plus 2: not a bit
        assert!(!r2_is_inverse(&f, &r2));

        let mut r3 = poly::poly_s3_inv(&f);
        assert!(s3_is_inverse(&f, &r3));
        r3.0[1] = (r3.0[1] + 1) % 3;
        assert!(!s3_is_inverse(&f, &r3));
        r3.0[1] = 3;
        assert!(!s3_is_inverse(&f, &r3));
    }
}
