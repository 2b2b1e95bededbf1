//! ML-KEM optimized kernels: Go CL 715381, "crypto/mlkem: avoid a few unnecessary
//! inverse NTT calls".

use reference::mlkem::field::Zq;
use reference::mlkem::{Kernels, Matrix, NttPoly, Poly};

/// The merged kernel: `u[i] = e1[i] + NTT⁻¹(Σ_j Â[j][i] ∘ ŷ[j])`, summing in the NTT
/// domain and taking k inverse NTTs instead of k².
///
/// Same preconditions and postcondition as [`Kernels::encrypt_u`]. Why the bytes
/// cannot change: every primitive is exact and canonical mod q, and NTT⁻¹ is Z_q-linear,
/// so Σ_j NTT⁻¹(x_j) = NTT⁻¹(Σ_j x_j) (docs/mlkem.md; proved for every input over
/// exact Z_q by obligation MLKEM-5 of `refopt prove`; that the `u16` instance is the
/// exact Z_q map rests on MLKEM-1, MLKEM-2 and MLKEM-3, proved).
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimized;

impl Kernels for Optimized {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        encrypt_u_merged(k, a, y_hat, e1, u);
    }
}

/// The body of [`Optimized::encrypt_u`], generic over [`Zq`]: the library runs it on
/// `u16`, `refopt prove` on symbolic forms.
///
/// # Panics
/// If k > `MAX_K` or `y_hat`, `e1` or `u` holds fewer than k entries (as the trait
/// method documents).
pub fn encrypt_u_merged<F: Zq>(
    k: usize,
    a: &Matrix<F>,
    y_hat: &[NttPoly<F>],
    e1: &[Poly<F>],
    u: &mut [Poly<F>],
) {
    for i in 0..k {
        let mut u_hat = NttPoly::zero();
        for (j, y) in y_hat[..k].iter().enumerate() {
            // Âᵀ: row i of the transpose is column i of Â.
            let mut product = F::multiply_ntts(planted::a_ji(a, i, j), y);
            planted::wipe_early(&mut product);
            u_hat = planted::ntt_add(j, &u_hat, &product);
            F::wipe(&mut product.0);
        }
        if planted::e1_in_ntt_domain(&mut u_hat, &e1[i], &mut u[i]) {
            F::wipe(&mut u_hat.0);
            continue;
        }
        let mut sum = F::inverse_ntt(&u_hat);
        u[i] = planted::poly_add(k, i, &e1[i], &sum);
        // Âᵀŷ, in either domain, carries the secret y.
        F::wipe(&mut u_hat.0);
        F::wipe(&mut sum.0);
    }
}

/// The bug zoo's and the proof self-test's plant sites (`reference::plant`): each
/// function is the correct step unless its bug is switched on. No mutants: with the
/// switch off (every normal build) the planted branch is dead code.
mod planted {
    use reference::mlkem::field::Zq;
    use reference::mlkem::{Matrix, NttPoly, Poly};
    use reference::plant::active;

    /// Â\[j\]\[i\] (column i of Â: row i of Âᵀ); `mlkem-transposed-a` (zoo) and
    /// `mlkem-encrypt-u-transposed` (proof self-test) take Â\[i\]\[j\].
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn a_ji<F>(a: &Matrix<F>, i: usize, j: usize) -> &NttPoly<F> {
        if active("mlkem-transposed-a") || active("mlkem-encrypt-u-transposed") {
            &a[i][j]
        } else {
            &a[j][i]
        }
    }

    /// The column sum's addition; `mlkem-lazy-sum-two-terms` skips the reduction of
    /// the third term (a lazy sum sized for k = 2).
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn ntt_add<F: Zq>(j: usize, acc: &NttPoly<F>, product: &NttPoly<F>) -> NttPoly<F> {
        if active("mlkem-lazy-sum-two-terms") && j == 2 {
            NttPoly(core::array::from_fn(|n| {
                acc.0[n].add_unreduced(&product.0[n])
            }))
        } else {
            F::ntt_add(acc, product)
        }
    }

    /// `mlkem-e1-in-ntt-domain`: adds e1 before the inverse NTT and writes u (returns
    /// whether it did).
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn e1_in_ntt_domain<F: Zq>(
        u_hat: &mut NttPoly<F>,
        e1: &Poly<F>,
        u: &mut Poly<F>,
    ) -> bool {
        if !active("mlkem-e1-in-ntt-domain") {
            return false;
        }
        *u_hat = F::ntt_add(u_hat, &NttPoly(e1.0.clone()));
        *u = F::inverse_ntt(u_hat);
        true
    }

    /// `mlkem-encrypt-u-wipes-the-product-early` (proof self-test): the product is
    /// wiped before it is summed, a wipe one line too early.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn wipe_early<F: Zq>(product: &mut NttPoly<F>) {
        if active("mlkem-encrypt-u-wipes-the-product-early") {
            F::wipe(&mut product.0);
        }
    }

    /// e1 + v; `mlkem-k4-unreduced-last-sum`: for k = 4 the last row adds without the
    /// conditional subtraction of q.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn poly_add<F: Zq>(k: usize, i: usize, e1: &Poly<F>, v: &Poly<F>) -> Poly<F> {
        if active("mlkem-k4-unreduced-last-sum") && k == 4 && i == 3 {
            Poly(core::array::from_fn(|n| e1.0[n].add_unreduced(&v.0[n])))
        } else {
            F::poly_add(e1, v)
        }
    }
}
