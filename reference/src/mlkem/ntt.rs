//! The number-theoretic transform (FIPS 203 section 4.3).
//!
//! [`Poly`] is an element of R_q in the normal domain, [`NttPoly`] one in the NTT
//! domain T_q; the types keep the two apart. All arithmetic is canonical
//! ([`super::field`]), so [`inverse_ntt`] computes the Z_q-linear map NTT⁻¹ exactly.

use zeroize::Zeroize;

use super::field::{self, Fe, Q};

/// Number of coefficients.
pub const N: usize = 256;

/// A polynomial in R_q = Z_q\[X\]/(X^256 + 1), coefficients canonical.
///
/// `Zeroize` lets the protocol code wipe the secret ones (s, e, y, e1, e2, ...)
/// before it returns; the type is `Copy`, so it is not wiped on drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poly(pub [Fe; N]);

/// An element of T_q (NTT domain), coefficients canonical. `Zeroize` as [`Poly`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NttPoly(pub [Fe; N]);

impl Poly {
    /// The zero polynomial.
    pub const ZERO: Self = Self([0; N]);
}

impl NttPoly {
    /// The zero element.
    pub const ZERO: Self = Self([0; N]);
}

impl Zeroize for Poly {
    /// One bulk write (zeroize's slice path), not 256 volatile stores.
    fn zeroize(&mut self) {
        self.0[..].zeroize();
    }
}

impl Zeroize for NttPoly {
    /// As for [`Poly`].
    fn zeroize(&mut self) {
        self.0[..].zeroize();
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

// Table generation at compile time only: `%` never runs on data.
#[allow(clippy::integer_division_remainder_used)]
const fn pow_mod_q(base: u32, mut e: u32) -> u16 {
    let q = Q as u32;
    let mut acc = 1u32;
    let mut b = base % q;
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
    let mut f = f.0;
    let mut k = 1;
    let mut len = 128;
    while len >= 2 {
        for start in (0..N).step_by(2 * len) {
            let zeta = ZETAS[k];
            k += 1;
            let (lo, hi) = f[start..start + 2 * len].split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = field::mul(zeta, *b);
                *b = field::sub(*a, t);
                *a = field::add(*a, t);
            }
        }
        len /= 2;
    }
    NttPoly(f)
}

/// Algorithm 10: NTT⁻¹.
pub fn inverse_ntt(f: &NttPoly) -> Poly {
    let mut f = f.0;
    let mut k = 127;
    let mut len = 2;
    while len <= 128 {
        for start in (0..N).step_by(2 * len) {
            let zeta = ZETAS[k];
            k -= 1;
            let (lo, hi) = f[start..start + 2 * len].split_at_mut(len);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = *a;
                *a = field::add(t, *b);
                *b = field::mul_sub(zeta, *b, t);
            }
        }
        len *= 2;
    }
    for c in &mut f {
        *c = field::mul(*c, INV_128);
    }
    Poly(f)
}

/// Algorithm 11: MultiplyNTTs (with Algorithm 12, BaseCaseMultiply, inlined).
pub fn multiply_ntts(f: &NttPoly, g: &NttPoly) -> NttPoly {
    let mut h = [0u16; N];
    for i in 0..128 {
        let (a0, a1) = (f.0[2 * i], f.0[2 * i + 1]);
        let (b0, b1) = (g.0[2 * i], g.0[2 * i + 1]);
        h[2 * i] = field::add_mul(a0, b0, field::mul(a1, b1), GAMMAS[i]);
        h[2 * i + 1] = field::add_mul(a0, b1, a1, b0);
    }
    NttPoly(h)
}

/// Coefficient-wise sum in R_q.
pub fn poly_add(a: &Poly, b: &Poly) -> Poly {
    Poly(core::array::from_fn(|i| field::add(a.0[i], b.0[i])))
}

/// Coefficient-wise difference in R_q.
pub fn poly_sub(a: &Poly, b: &Poly) -> Poly {
    Poly(core::array::from_fn(|i| field::sub(a.0[i], b.0[i])))
}

/// Coefficient-wise sum in T_q.
pub fn ntt_add(a: &NttPoly, b: &NttPoly) -> NttPoly {
    NttPoly(core::array::from_fn(|i| field::add(a.0[i], b.0[i])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_fips203_appendix_a() {
        assert_eq!(&ZETAS[..8], &[1, 1729, 2580, 3289, 2642, 630, 1897, 848]);
        assert_eq!(&GAMMAS[..4], &[17, 3312, 2761, 568]);
        assert_eq!(u32::from(INV_128) * 128 % u32::from(Q), 1);
    }

    /// NTT⁻¹ as implemented is the Z_q-linear map fixed by its 256 basis images: for
    /// random and extreme x, inverse_ntt(x) = Σ x_i · inverse_ntt(e_i) mod q, computed
    /// independently in exact integer arithmetic. (With every primitive exact — the
    /// exhaustive field tests — this is what makes Σ NTT⁻¹(x_j) = NTT⁻¹(Σ x_j), the
    /// identity the optimized kernel relies on.)
    #[test]
    fn inverse_ntt_is_the_linear_map_of_its_basis_images() {
        let basis: Vec<Poly> = (0..N)
            .map(|i| {
                let mut e = NttPoly::ZERO;
                e.0[i] = 1;
                inverse_ntt(&e)
            })
            .collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as u32 % 3329
        };
        for case in 0..64 {
            let x = NttPoly(core::array::from_fn(|i| match case {
                0 => Q - 1,
                1 => (i as u16 & 1) * (Q - 1),
                _ => next() as u16,
            }));
            let mut want = [0u64; N];
            for (xi, b) in x.0.iter().zip(&basis) {
                for (w, bj) in want.iter_mut().zip(&b.0) {
                    *w += u64::from(*xi) * u64::from(*bj);
                }
            }
            let got = inverse_ntt(&x);
            for (g, w) in got.0.iter().zip(want) {
                assert_eq!(u64::from(*g), w % 3329, "case {case}");
            }
        }
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
}
