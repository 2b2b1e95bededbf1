//! ML-KEM optimized kernels: Go CL 715381, "crypto/mlkem: avoid a few unnecessary
//! inverse NTT calls".

use reference::mlkem::field::Zq;
use reference::mlkem::{Kernels, Matrix, NttPoly, Poly};

/// The merged kernel: `u[i] = e1[i] + NTT⁻¹(Σ_j Â[j][i] ∘ ŷ[j])`, summing in the NTT
/// domain and taking k inverse NTTs instead of k².
///
/// Same preconditions and postcondition as [`Kernels::encrypt_u`]. Why the bytes
/// cannot change: every primitive is exact and canonical mod q, and NTT⁻¹ is Z_q-linear,
/// so Σ_j NTT⁻¹(x_j) = NTT⁻¹(Σ_j x_j) (docs/mlkem.md; proved for every input by
/// obligation MLKEM-5 of `refopt prove`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimized;

impl Kernels for Optimized {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        encrypt_u_merged(k, a, y_hat, e1, u);
    }
}

/// The body of [`Optimized::encrypt_u`], generic over [`Zq`]: the library runs it on
/// `u16`, `refopt prove` on symbolic forms.
pub fn encrypt_u_merged<F: Zq>(
    k: usize,
    a: &Matrix<F>,
    y_hat: &[NttPoly<F>],
    e1: &[Poly<F>],
    u: &mut [Poly<F>],
) {
    let transposed = reference::plant::active("mlkem-encrypt-u-transposed");
    for i in 0..k {
        let mut u_hat = NttPoly::zero();
        for j in 0..k {
            // Âᵀ: row i of the transpose is column i of Â.
            let a_ji = if transposed { &a[i][j] } else { &a[j][i] };
            u_hat = F::ntt_add(&u_hat, &F::multiply_ntts(a_ji, &y_hat[j]));
        }
        u[i] = F::poly_add(&e1[i], &F::inverse_ntt(&u_hat));
    }
}
