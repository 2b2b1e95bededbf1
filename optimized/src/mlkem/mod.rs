//! ML-KEM optimized kernels: Go CL 715381, "crypto/mlkem: avoid a few unnecessary
//! inverse NTT calls".

use reference::mlkem::ntt::{inverse_ntt, multiply_ntts, ntt_add, poly_add};
use reference::mlkem::{Kernels, Matrix, NttPoly, Poly};
use reference::plant;
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
                let a_ji = if plant::active("mlkem-transposed-a") {
                    &a[i][j]
                } else {
                    &a[j][i]
                };
                let product = multiply_ntts(a_ji, &y_hat[j]);
                u_hat = if plant::active("mlkem-lazy-sum-two-terms") && j == 2 {
                    // Planted: one conditional subtraction per two additions, a
                    // lazy sum sized for k = 2.
                    NttPoly(core::array::from_fn(|n| u_hat.0[n] + product.0[n]))
                } else {
                    ntt_add(&u_hat, &product)
                };
            }
            if plant::active("mlkem-e1-in-ntt-domain") {
                // Planted: e1 added before the inverse NTT.
                u_hat = ntt_add(&u_hat, &NttPoly(e1[i].0));
                u[i] = inverse_ntt(&u_hat);
                u_hat.zeroize();
                continue;
            }
            let v = inverse_ntt(&u_hat);
            u[i] = if plant::active("mlkem-k4-unreduced-last-sum") && k == 4 && i == 3 {
                // Planted: the unrolled k = 4 path adds e1 to its last row without
                // the conditional subtraction of q.
                Poly(core::array::from_fn(|n| e1[i].0[n] + v.0[n]))
            } else {
                poly_add(&e1[i], &v)
            };
            // Âᵀŷ in the NTT domain carries the secret y.
            u_hat.zeroize();
        }
    }
}
