//! The number-theoretic transform (FIPS 203 section 4.3).
//!
//! [`Poly`] is an element of R_q in the normal domain, [`NttPoly`] one in the NTT
//! domain T_q; the types keep the two apart. Both are generic over the coefficient
//! type ([`Zq`], `u16` by default): the library runs every function here on
//! canonical `u16` arithmetic ([`super::field`]), the proofs run the same functions
//! on exact symbolic forms, which shows [`inverse_ntt`] computes the Z_q-linear map
//! NTT⁻¹ (obligation MLKEM-4 of `refopt prove`).

use zeroize::Zeroize;

use super::field::{Fe, Q, Zq};

/// Number of coefficients.
pub const N: usize = 256;

/// A polynomial in R_q = Z_q\[X\]/(X^256 + 1), coefficients canonical.
///
/// `Zeroize` lets the protocol code wipe the secret ones (s, e, y, e1, e2, ...)
/// before it returns; the type is `Copy`, so it is not wiped on drop. `Debug` shows
/// no coefficient, since a polynomial may be one of those secrets.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Poly<F = Fe>(pub [F; N]);

/// An element of T_q (NTT domain), coefficients canonical. `Zeroize` and `Debug` as
/// [`Poly`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct NttPoly<F = Fe>(pub [F; N]);

impl<F> core::fmt::Debug for Poly<F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poly").finish_non_exhaustive()
    }
}

impl<F> core::fmt::Debug for NttPoly<F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NttPoly").finish_non_exhaustive()
    }
}

impl Poly {
    /// The zero polynomial.
    pub const ZERO: Self = Self([0; N]);
}

impl NttPoly {
    /// The zero element.
    pub const ZERO: Self = Self([0; N]);
}

impl Zeroize for Poly<Fe> {
    /// One bulk write (zeroize's slice path), not 256 volatile stores.
    fn zeroize(&mut self) {
        self.0[..].zeroize();
    }
}

impl Zeroize for NttPoly<Fe> {
    /// As for [`Poly`].
    fn zeroize(&mut self) {
        self.0[..].zeroize();
    }
}

impl<F: Zq> Poly<F> {
    /// The zero polynomial over any [`Zq`].
    pub fn zero() -> Self {
        Self(core::array::from_fn(|_| F::zero()))
    }
}

impl<F: Zq> NttPoly<F> {
    /// The zero element over any [`Zq`].
    pub fn zero() -> Self {
        Self(core::array::from_fn(|_| F::zero()))
    }
}

impl Default for Poly {
    fn default() -> Self {
        Self::ZERO
    }
}

impl Default for NttPoly {
    fn default() -> Self {
        Self::ZERO
    }
}

/// base^e mod q, for base < q (table generation at compile time only: `%` never runs
/// on data).
#[allow(clippy::integer_division_remainder_used)]
const fn pow_mod_q(base: u32, mut e: u32) -> u16 {
    let q = Q as u32;
    assert!(base < q);
    let mut acc = 1u32;
    let mut b = base;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    acc as u16
}

const fn bitrev7(i: usize) -> u32 {
    let mut r = 0u32;
    let mut b = 0;
    while b < 7 {
        r |= (((i >> b) & 1) as u32) << (6 - b);
        b += 1;
    }
    r
}

/// ζ^BitRev7(i) mod q for i < 128, ζ = 17 (FIPS 203 Appendix A), computed at compile
/// time.
pub const ZETAS: [Fe; 128] = {
    let mut t = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = pow_mod_q(17, bitrev7(i));
        i += 1;
    }
    t
};

/// ζ^(2·BitRev7(i)+1) mod q for i < 128 (the γ of Algorithm 11).
pub const GAMMAS: [Fe; 128] = {
    let mut t = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = pow_mod_q(17, 2 * bitrev7(i) + 1);
        i += 1;
    }
    t
};

/// 128⁻¹ mod q.
const INV_128: Fe = 3303;

/// Algorithm 9: NTT.
pub fn ntt(f: &Poly) -> NttPoly {
    ntt_over(f)
}

/// [`ntt`] over any [`Zq`].
#[inline(always)]
pub fn ntt_over<F: Zq>(f: &Poly<F>) -> NttPoly<F> {
    let mut f = f.0.clone();
    let mut k = 1;
    let mut len = 128;
    while len >= 2 {
        for start in (0..N).step_by(2 * len) {
            let zeta = F::constant(ZETAS[k]);
            k += 1;
            let (lo, hi) = f[start..start + 2 * len].split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = zeta.mul(b);
                *b = a.sub(&t);
                *a = a.add(&t);
            }
        }
        len /= 2;
    }
    NttPoly(f)
}

/// Algorithm 10: NTT⁻¹.
pub fn inverse_ntt(f: &NttPoly) -> Poly {
    inverse_ntt_over(f)
}

/// [`inverse_ntt`] over any [`Zq`].
#[inline(always)]
pub fn inverse_ntt_over<F: Zq>(f: &NttPoly<F>) -> Poly<F> {
    let mut f = f.0.clone();
    let mut k = 127;
    let mut len = 2;
    while len <= 128 {
        for start in (0..N).step_by(2 * len) {
            let zeta = F::constant(ZETAS[k]);
            k -= 1;
            let (lo, hi) = f[start..start + 2 * len].split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = a.clone();
                *a = t.add(b);
                *b = zeta.mul_sub(b, &t);
            }
        }
        len *= 2;
    }
    if crate::plant::active("mlkem-inverse-ntt-skips-the-scaling") {
        return Poly(f);
    }
    let inv_128 = F::constant(INV_128);
    for c in &mut f {
        *c = c.mul(&inv_128);
    }
    if crate::plant::active("mlkem-inverse-ntt-adds-a-constant") {
        // Planted: an affine map, not a linear one (MLKEM-4's linearity test).
        f[0] = f[0].add(&F::constant(1));
    }
    Poly(f)
}

/// Algorithm 11: MultiplyNTTs (with Algorithm 12, BaseCaseMultiply, inlined).
#[inline]
pub fn multiply_ntts(f: &NttPoly, g: &NttPoly) -> NttPoly {
    multiply_ntts_over(f, g)
}

/// [`multiply_ntts`] over any [`Zq`].
#[inline(always)]
pub fn multiply_ntts_over<F: Zq>(f: &NttPoly<F>, g: &NttPoly<F>) -> NttPoly<F> {
    let mut h: [F; N] = core::array::from_fn(|_| F::zero());
    for i in 0..128 {
        let (a0, a1) = (f.0[2 * i].clone(), f.0[2 * i + 1].clone());
        let (b0, b1) = (g.0[2 * i].clone(), g.0[2 * i + 1].clone());
        h[2 * i] = a0.add_mul(&b0, &a1.mul(&b1), &F::constant(GAMMAS[i]));
        h[2 * i + 1] = a0.add_mul(&b1, &a1, &b0);
    }
    NttPoly(h)
}

/// Coefficient-wise sum in R_q.
#[inline]
pub fn poly_add(a: &Poly, b: &Poly) -> Poly {
    poly_add_over(a, b)
}

/// [`poly_add`] over any [`Zq`].
#[inline(always)]
pub fn poly_add_over<F: Zq>(a: &Poly<F>, b: &Poly<F>) -> Poly<F> {
    Poly(core::array::from_fn(|i| a.0[i].add(&b.0[i])))
}

/// Coefficient-wise difference in R_q.
pub fn poly_sub(a: &Poly, b: &Poly) -> Poly {
    Poly(core::array::from_fn(|i| super::field::sub(a.0[i], b.0[i])))
}

/// Coefficient-wise sum in T_q.
#[inline]
pub fn ntt_add(a: &NttPoly, b: &NttPoly) -> NttPoly {
    ntt_add_over(a, b)
}

/// [`ntt_add`] over any [`Zq`].
#[inline(always)]
pub fn ntt_add_over<F: Zq>(a: &NttPoly<F>, b: &NttPoly<F>) -> NttPoly<F> {
    NttPoly(core::array::from_fn(|i| a.0[i].add(&b.0[i])))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Debug` shows no coefficient (a polynomial may be a secret).
    #[test]
    fn debug_shows_no_coefficient() {
        let f = Poly(core::array::from_fn(|i| 1000 + i as Fe));
        assert_eq!(format!("{f:?}"), "Poly { .. }");
        assert_eq!(format!("{:?}", NttPoly(f.0)), "NttPoly { .. }");
    }

    #[test]
    fn tables_match_fips203_appendix_a() {
        assert_eq!(&ZETAS[..8], &[1, 1729, 2580, 3289, 2642, 630, 1897, 848]);
        assert_eq!(&GAMMAS[..4], &[17, 3312, 2761, 568]);
        assert_eq!(u32::from(INV_128) * 128 % u32::from(Q), 1);
    }

    #[test]
    fn inverse_ntt_inverts_ntt() {
        let mut f = Poly::ZERO;
        for (i, c) in f.0.iter_mut().enumerate() {
            *c = ((i * 2654435761) % 3329) as u16;
        }
        assert_eq!(inverse_ntt(&ntt(&f)), f);
    }

    /// Multiplication in T_q is negacyclic convolution in R_q.
    #[test]
    fn multiply_ntts_is_negacyclic_product() {
        let mut f = Poly::ZERO;
        let mut g = Poly::ZERO;
        for i in 0..N {
            f.0[i] = ((i * 7 + 3) % 3329) as u16;
            g.0[i] = ((i * i * 11 + 5) % 3329) as u16;
        }
        let mut want = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = i64::from(f.0[i]) * i64::from(g.0[j]);
                if i + j < N {
                    want[i + j] += p;
                } else {
                    want[i + j - N] -= p;
                }
            }
        }
        let got = inverse_ntt(&multiply_ntts(&ntt(&f), &ntt(&g)));
        for (g, w) in got.0.iter().zip(want) {
            assert_eq!(i64::from(*g), w.rem_euclid(3329));
        }
    }

    /// `Zeroize` clears every coefficient (keys and the secret vector are wiped
    /// through it), and the zero values agree.
    #[test]
    fn zeroize_clears_and_zeros_agree() {
        let mut f = Poly([Q - 1; N]);
        let mut g = NttPoly([1; N]);
        f.zeroize();
        g.zeroize();
        assert_eq!((f, g), (Poly::ZERO, NttPoly::ZERO));
        assert_eq!((Poly::default(), NttPoly::default()), (f, g));
        assert_eq!((Poly::<Fe>::zero(), NttPoly::<Fe>::zero()), (f, g));
    }
}
