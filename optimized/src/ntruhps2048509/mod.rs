//! ntruhps2048509 optimized kernels: jschanck/ntru PR #5, "Speedup poly_Rq_inv in
//! avx2-hps2048509" (seed 002), in portable Rust plus PCLMULQDQ.
//!
//! | kernel type | `poly_R2_inv` | `poly_Rq_mul` | replays |
//! |---|---|---|---|
//! | [`Before`] | reference divstep | Toom-4 + Karatsuba (AVX2 if detected) | avx2 before PR #5 (fast Rq_mul, slow R2 inverse) |
//! | [`Optimized`] | addition chain, PCLMULQDQ if detected else portable | Toom-4 + Karatsuba (AVX2 if detected) | PR #5 |
//! | [`OptimizedPortable`] | addition chain, portable carry-less multiply | Toom-4 + Karatsuba, baseline target | PR #5 without CPU features |
//!
//! The chain's inverse is correct mod (2, Φ_509) but its representative mod
//! x^509 − 1 differs from the reference's canonical one (see [`r2_inv`]); keys,
//! ciphertexts and shared secrets are nevertheless byte-identical, because the key
//! generation reduces h⁻¹ mod Φ and h = (3g)²·(3gf)⁻¹ has h(1) = 0.

pub mod arch;
pub mod r2_inv;
pub mod rq_mul;

use reference::ntruhps2048509::{Kernels, Poly, poly::poly_r2_inv_divstep};

pub use arch::{Avx2, Pclmul};

/// The reference R2 inverse with the fast `poly_Rq_mul`: the state before PR #5.
#[derive(Clone, Copy, Debug, Default)]
pub struct Before;

impl Kernels for Before {
    fn poly_rq_mul(a: &Poly, b: &Poly) -> Poly {
        rq_mul::poly_rq_mul_karatsuba(a, b)
    }
    fn poly_r2_inv(a: &Poly) -> Poly {
        poly_r2_inv_divstep(a)
    }
}

/// PR #5 with runtime dispatch: PCLMULQDQ when [`Pclmul::detect`] finds it (checked
/// once per inversion), the portable constant-time carry-less multiply otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimized;

impl Kernels for Optimized {
    fn poly_rq_mul(a: &Poly, b: &Poly) -> Poly {
        rq_mul::poly_rq_mul_karatsuba(a, b)
    }
    fn poly_r2_inv(a: &Poly) -> Poly {
        match Pclmul::detect() {
            Some(p) => poly_r2_inv_pclmul(p, a),
            None => r2_inv::poly_r2_inv_portable(a),
        }
    }
}

/// PR #5 with no CPU-specific code: the portable carry-less multiply and the
/// Toom-4/Karatsuba `poly_Rq_mul` compiled for the baseline target.
#[derive(Clone, Copy, Debug, Default)]
pub struct OptimizedPortable;

impl Kernels for OptimizedPortable {
    fn poly_rq_mul(a: &Poly, b: &Poly) -> Poly {
        rq_mul::poly_rq_mul_portable(a, b)
    }
    fn poly_r2_inv(a: &Poly) -> Poly {
        r2_inv::poly_r2_inv_portable(a)
    }
}

/// `poly_R2_inv` by the chain on PCLMULQDQ.
pub fn poly_r2_inv_pclmul(p: Pclmul, a: &Poly) -> Poly {
    let r = r2_inv::r2_inv_packed(a, |x| p.r2_inv_chain(x));
    debug_assert!(
        !reference::ntruhps2048509::r2_invertible(a)
            || reference::ntruhps2048509::r2_is_inverse(a, &r),
        "Kernels::poly_r2_inv ensures"
    );
    r
}
