//! ML-KEM optimized kernels: Go CL 715381, "crypto/mlkem: avoid a few unnecessary
//! inverse NTT calls".

use reference::mlkem::ntt::{inverse_ntt, multiply_ntts};
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
            for (j, y) in y_hat[..k].iter().enumerate() {
                // Âᵀ: row i of the transpose is column i of Â.
                let product = multiply_ntts(planted::a_ji(a, i, j), y);
                u_hat = planted::ntt_add(j, &u_hat, &product);
            }
            if planted::e1_in_ntt_domain(&mut u_hat, &e1[i], &mut u[i]) {
                u_hat.zeroize();
                continue;
            }
            u[i] = planted::poly_add(k, i, &e1[i], &inverse_ntt(&u_hat));
            // Âᵀŷ in the NTT domain carries the secret y.
            u_hat.zeroize();
        }
    }
}

/// The bug zoo's plant sites (`reference::plant`): each function is the correct step
/// unless its bug is switched on. No mutants: with the switch off (every normal build)
/// the planted branch is dead code.
mod planted {
    use reference::mlkem::ntt::{inverse_ntt, ntt_add as add, poly_add as padd};
    use reference::mlkem::{Matrix, NttPoly, Poly};
    use reference::plant::active;

    /// Â\[j\]\[i\] (column i of Â: row i of Âᵀ); `mlkem-transposed-a` takes Â\[i\]\[j\].
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn a_ji(a: &Matrix, i: usize, j: usize) -> &NttPoly {
        if active("mlkem-transposed-a") {
            &a[i][j]
        } else {
            &a[j][i]
        }
    }

    /// The column sum's addition; `mlkem-lazy-sum-two-terms` skips the reduction of
    /// the third term (a lazy sum sized for k = 2).
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn ntt_add(j: usize, acc: &NttPoly, product: &NttPoly) -> NttPoly {
        if active("mlkem-lazy-sum-two-terms") && j == 2 {
            NttPoly(core::array::from_fn(|n| acc.0[n] + product.0[n]))
        } else {
            add(acc, product)
        }
    }

    /// `mlkem-e1-in-ntt-domain`: adds e1 before the inverse NTT and writes u (returns
    /// whether it did).
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn e1_in_ntt_domain(u_hat: &mut NttPoly, e1: &Poly, u: &mut Poly) -> bool {
        if !active("mlkem-e1-in-ntt-domain") {
            return false;
        }
        *u_hat = add(u_hat, &NttPoly(e1.0));
        *u = inverse_ntt(u_hat);
        true
    }

    /// e1 + v; `mlkem-k4-unreduced-last-sum`: for k = 4 the last row adds without the
    /// conditional subtraction of q.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn poly_add(k: usize, i: usize, e1: &Poly, v: &Poly) -> Poly {
        if active("mlkem-k4-unreduced-last-sum") && k == 4 && i == 3 {
            Poly(core::array::from_fn(|n| e1.0[n] + v.0[n]))
        } else {
            padd(e1, v)
        }
    }
}
