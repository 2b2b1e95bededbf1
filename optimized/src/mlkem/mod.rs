//! ML-KEM optimized kernels: Go CL 715381, "crypto/mlkem: avoid a few unnecessary
//! inverse NTT calls".

use reference::mlkem::ntt::{inverse_ntt, multiply_ntts, ntt_add, poly_add};
use reference::mlkem::{Kernels, Matrix, NttPoly, Poly};
use zeroize::Zeroize;

/// The merged kernel: `u[i] = e1[i] + NTT⁻¹(Σ_j Â[j][i] ∘ ŷ[j])`, summing in the NTT
/// domain and taking k inverse NTTs instead of k².
///
/// Same preconditions and postcondition as [`Kernels::encrypt_u`]. Why the bytes
/// cannot change: every primitive is exact and canonical mod q, and NTT⁻¹ is Z_q-linear,
/// so Σ_j NTT⁻¹(x_j) = NTT⁻¹(Σ_j x_j) (docs/mlkem.md).
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimized;

impl Kernels for Optimized {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        for i in 0..k {
            let mut u_hat = NttPoly::ZERO;
            for j in 0..k {
                // Âᵀ: row i of the transpose is column i of Â.
                u_hat = ntt_add(&u_hat, &multiply_ntts(&a[j][i], &y_hat[j]));
            }
            u[i] = poly_add(&e1[i], &inverse_ntt(&u_hat));
            // Âᵀŷ in the NTT domain carries the secret y.
            u_hat.zeroize();
        }
    }
}
