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

#[cfg(test)]
mod tests {
    use super::super::ntt::N;
    use super::*;

    /// The postcondition accepts the reference's u and rejects it with one
    /// coefficient changed or one row missing; the precondition rejects a
    /// non-canonical input and an out-of-range k.
    #[test]
    fn encrypt_u_contracts_accept_the_reference_and_reject_others() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % u64::from(Q)) as u16
        };
        let k = 3;
        let a: Matrix = core::array::from_fn(|_| {
            core::array::from_fn(|_| NttPoly(core::array::from_fn(|_| next())))
        });
        let y_hat: Vec<NttPoly> = (0..k)
            .map(|_| NttPoly(core::array::from_fn(|_| next())))
            .collect();
        let e1: Vec<Poly> = (0..k)
            .map(|_| Poly(core::array::from_fn(|_| next())))
            .collect();
        assert!(encrypt_u_requires(k, &a, &y_hat, &e1));
        let mut u = [Poly::ZERO; MAX_K];
        encrypt_u_per_product(k, &a, &y_hat, &e1, &mut u);
        assert!(encrypt_u_ensures(k, &a, &y_hat, &e1, &u));
        assert!(!encrypt_u_ensures(k, &a, &y_hat, &e1, &u[..k - 1]));
        u[k - 1].0[N - 1] = (u[k - 1].0[N - 1] + 1) % Q;
        assert!(!encrypt_u_ensures(k, &a, &y_hat, &e1, &u));

        assert!(!encrypt_u_requires(5, &a, &y_hat, &e1));
        let mut bad = e1.clone();
        bad[0].0[0] = Q;
        assert!(!encrypt_u_requires(k, &a, &y_hat, &bad));
    }
}
