//! The contracts of the ML-KEM [`Kernels`](super::Kernels) as executable predicates.
//!
//! They are the `requires`/`ensures` of the hax-lib annotations on the trait
//! (type-checked under `--cfg hax`), run as `debug_assert!`s around every call in
//! K-PKE.Encrypt, and available to any caller that wants the release-mode check.

use super::field::Q;
use super::{MAX_K, Matrix, NttPoly, Poly, encrypt_u_per_product};

/// Every coefficient of `c` is canonical (< q).
pub fn is_canonical(c: &[u16]) -> bool {
    c.iter().all(|&x| x < Q)
}

/// The precondition of [`Kernels::encrypt_u`](super::Kernels::encrypt_u): 2 <= k <= 4,
/// the slices hold k entries, and every input coefficient is canonical.
pub fn encrypt_u_requires(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly]) -> bool {
    (2..=MAX_K).contains(&k)
        && y_hat.len() >= k
        && e1.len() >= k
        && a[..k]
            .iter()
            .all(|row| row[..k].iter().all(|e| is_canonical(&e.0)))
        && y_hat[..k].iter().all(|e| is_canonical(&e.0))
        && e1[..k].iter().all(|e| is_canonical(&e.0))
}

/// The postcondition of [`Kernels::encrypt_u`](super::Kernels::encrypt_u): `u[..k]`
/// equals the k²-inverse-NTT computation [`encrypt_u_per_product`] on the same
/// inputs (hence is canonical). Vacuous when the precondition does not hold.
pub fn encrypt_u_ensures(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &[Poly]) -> bool {
    if !encrypt_u_requires(k, a, y_hat, e1) {
        return true;
    }
    let mut want = [Poly::ZERO; MAX_K];
    encrypt_u_per_product(k, a, y_hat, e1, &mut want);
    u.len() >= k && u[..k] == want[..k]
}
