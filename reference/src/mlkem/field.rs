//! Arithmetic in Z_q, q = 3329, always canonical in [0, q) (FIPS 203 section 2.3).
//!
//! Like Go's `crypto/internal/fips140/mlkem/field.go`, every function returns the
//! canonical representative, so raw polynomials are comparable byte for byte and
//! every polynomial map built from these functions is computed exactly mod q.

use super::ntt::{self, NttPoly, Poly};

/// The ML-KEM modulus.
pub const Q: u16 = 3329;

/// A canonical element of Z_q: a `u16` in [0, q).
pub type Fe = u16;

/// Reduces `a < 2q` to [0, q) with a mask, no branch.
///
/// # Panics
/// Debug builds only, when a >= 2q (a `debug_assert!`); release builds then return a
/// value that is not a mod q.
#[inline(always)]
pub fn reduce_once(a: u16) -> Fe {
    debug_assert!(a < 2 * Q);
    let x = a.wrapping_sub(Q);
    // The top bit of x is set exactly when a < q; add q back then.
    x.wrapping_add((x >> 15).wrapping_mul(Q))
}

/// a + b mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn add(a: Fe, b: Fe) -> Fe {
    reduce_once(a + b)
}

/// a - b mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn sub(a: Fe, b: Fe) -> Fe {
    if crate::plant::active("mlkem-sub-forgets-the-offset") {
        return reduce_once(a.wrapping_sub(b));
    }
    reduce_once(a + Q - b)
}

/// What `mul_sub` adds to b − c to keep it non-negative (q; the `refopt_mutant`
/// below makes it 2q, which the bound lemma MLKEM-3 must reject).
const MUL_SUB_OFFSET: u16 = if cfg!(refopt_mutant = "mlkem-mul-sub-offset-2q") {
    2 * Q
} else {
    Q
};

// Bound lemmas MLKEM-3 (checked at compile time, over the constants the code uses):
// canonical values and their sums fit u16; the largest argument of `reduce`
// (a·b + c·d with canonical a..d, or a·(b − c + MUL_SUB_OFFSET)) is below 2q², its
// proved domain (MLKEM-1), and below 2^32.
const _: () = assert!(2 * (Q as u32) < (1 << 16), "MLKEM-3: a + b fits u16");
const _: () = assert!(
    (Q as u32 - 1) + (MUL_SUB_OFFSET as u32) < (1 << 16),
    "MLKEM-3: b + offset fits u16"
);
const _: () = assert!(
    2 * (Q as u32 - 1) * (Q as u32 - 1) < 2 * (Q as u32) * (Q as u32),
    "MLKEM-3: a·b + c·d < 2q²"
);
const _: () = assert!(
    (Q as u32 - 1) * (Q as u32 - 1 + MUL_SUB_OFFSET as u32) < 2 * (Q as u32) * (Q as u32),
    "MLKEM-3: a·(b − c + offset) < 2q²"
);
const _: () = assert!(
    (2 * (Q as u64) * (Q as u64)) < (1 << 32),
    "MLKEM-3: 2q² < 2^32"
);

/// Barrett multiplier ⌊2^24 / q⌋.
const BARRETT_M: u64 = 5039;
/// Barrett shift.
const BARRETT_SHIFT: u32 = 24;

/// Reduces `a < 2q²` to [0, q).
///
/// The quotient estimate (a·5039) >> 24 is at most one short, so the remainder lies
/// in [0, 2q) before the final [`reduce_once`]; an exhaustive test covers the whole
/// domain.
///
/// # Panics
/// Debug builds only, when a >= 2q² (a `debug_assert!`); release builds then return a
/// value that is not a mod q.
#[inline(always)]
pub fn reduce(a: u32) -> Fe {
    debug_assert!(a < 2 * u32::from(Q) * u32::from(Q));
    let quotient = ((u64::from(a) * BARRETT_M) >> BARRETT_SHIFT) as u32;
    if crate::plant::active("mlkem-reduce-skips-the-final-subtraction") {
        return reduce_planted(a, quotient);
    }
    reduce_once((a - quotient * u32::from(Q)) as u16)
}

/// The planted bug `mlkem-reduce-skips-the-final-subtraction`: the remainder in
/// [0, 2q) without the final conditional subtraction (dead unless the bug zoo's
/// switch names it).
#[mutants::skip]
#[inline(never)]
fn reduce_planted(a: u32, quotient: u32) -> Fe {
    (a - quotient * u32::from(Q)) as u16
}

/// a · b mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn mul(a: Fe, b: Fe) -> Fe {
    reduce(u32::from(a) * u32::from(b))
}

/// a · (b − c) mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn mul_sub(a: Fe, b: Fe, c: Fe) -> Fe {
    reduce(u32::from(a) * u32::from(b + MUL_SUB_OFFSET - c))
}

/// a·b + c·d mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn add_mul(a: Fe, b: Fe, c: Fe, d: Fe) -> Fe {
    reduce(u32::from(a) * u32::from(b) + u32::from(c) * u32::from(d))
}

/// Arithmetic in Z_q as the NTT and the `encrypt_u` kernels use it.
///
/// The kernels are written once over this trait: the library runs them on `u16`
/// (the canonical functions of this module, exact on canonical inputs: obligations
/// MLKEM-1..3 of `refopt prove`), the proofs on exact symbolic forms, so the
/// polynomial map the shipped code computes is read off its symbolic run
/// (`equivalence::prove::mlkem`).
///
/// The polynomial operations the kernels call are methods too, defaulting to the
/// generic functions of [`ntt`] (`*_over`); `u16` routes them to the
/// compiled `u16` instances of the same functions ([`ntt::inverse_ntt`],
/// ...), so the library's kernels call one shared copy, as they did before they were
/// generic.
pub trait Zq: Clone {
    /// 0.
    fn zero() -> Self;
    /// A public constant (canonical).
    fn constant(c: Fe) -> Self;
    /// a + b.
    fn add(&self, b: &Self) -> Self;
    /// a − b.
    fn sub(&self, b: &Self) -> Self;
    /// a · b.
    fn mul(&self, b: &Self) -> Self;
    /// a · (b − c).
    fn mul_sub(&self, b: &Self, c: &Self) -> Self;
    /// a·b + c·d.
    fn add_mul(&self, b: &Self, c: &Self, d: &Self) -> Self;
    /// NTT⁻¹ ([`ntt::inverse_ntt_over`]).
    fn inverse_ntt(f: &NttPoly<Self>) -> Poly<Self> {
        ntt::inverse_ntt_over(f)
    }
    /// MultiplyNTTs ([`ntt::multiply_ntts_over`]).
    fn multiply_ntts(f: &NttPoly<Self>, g: &NttPoly<Self>) -> NttPoly<Self> {
        ntt::multiply_ntts_over(f, g)
    }
    /// Sum in R_q ([`ntt::poly_add_over`]).
    fn poly_add(a: &Poly<Self>, b: &Poly<Self>) -> Poly<Self> {
        ntt::poly_add_over(a, b)
    }
    /// Sum in T_q ([`ntt::ntt_add_over`]).
    fn ntt_add(a: &NttPoly<Self>, b: &NttPoly<Self>) -> NttPoly<Self> {
        ntt::ntt_add_over(a, b)
    }
    /// a + b without the reduction (`u16`: the integer sum). Only planted bugs use it
    /// (`reference::plant`); on exact forms it is the sum.
    fn add_unreduced(&self, b: &Self) -> Self {
        self.add(b)
    }
    /// Overwrites secret values with zero (`u16`: zeroize). No default: a symbolic
    /// instance must overwrite too, or a wipe placed before a value's last use would
    /// go unseen by the proofs.
    fn wipe(values: &mut [Self]);
}

impl Zq for Fe {
    #[inline(always)]
    fn zero() -> Self {
        0
    }
    #[inline(always)]
    fn add_unreduced(&self, b: &Self) -> Self {
        self + b
    }
    #[inline(always)]
    fn wipe(values: &mut [Self]) {
        zeroize::Zeroize::zeroize(values);
    }
    #[inline(always)]
    fn constant(c: Fe) -> Self {
        c
    }
    #[inline(always)]
    fn add(&self, b: &Self) -> Self {
        add(*self, *b)
    }
    #[inline(always)]
    fn sub(&self, b: &Self) -> Self {
        sub(*self, *b)
    }
    #[inline(always)]
    fn mul(&self, b: &Self) -> Self {
        mul(*self, *b)
    }
    #[inline(always)]
    fn mul_sub(&self, b: &Self, c: &Self) -> Self {
        mul_sub(*self, *b, *c)
    }
    #[inline(always)]
    fn add_mul(&self, b: &Self, c: &Self, d: &Self) -> Self {
        add_mul(*self, *b, *c, *d)
    }
    #[inline(always)]
    fn inverse_ntt(f: &NttPoly) -> Poly {
        ntt::inverse_ntt(f)
    }
    #[inline(always)]
    fn multiply_ntts(f: &NttPoly, g: &NttPoly) -> NttPoly {
        ntt::multiply_ntts(f, g)
    }
    #[inline(always)]
    fn poly_add(a: &Poly, b: &Poly) -> Poly {
        ntt::poly_add(a, b)
    }
    #[inline(always)]
    fn ntt_add(a: &NttPoly, b: &NttPoly) -> NttPoly {
        ntt::ntt_add(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spot checks; the exhaustive checks over [0, 2q²) and all canonical pairs are
    /// obligations MLKEM-1 and MLKEM-2 of `refopt prove` (equivalence::prove::mlkem).
    #[test]
    fn spot_values() {
        let q = u32::from(Q);
        for a in [0, 1, q - 1, q, q + 1, 2 * q * q - 1, 12_345_678, q * q] {
            assert_eq!(u32::from(reduce(a)), a % q, "a = {a}");
        }
        assert_eq!(add(Q - 1, Q - 1), Q - 2);
        assert_eq!(sub(0, Q - 1), 1);
        assert_eq!(mul_sub(2, 0, 1), Q - 2);
        assert_eq!(add_mul(Q - 1, Q - 1, Q - 1, Q - 1), 2);
    }

    /// The `u16` wipe hook clears the values it is given (the secret intermediates of
    /// both tiers go through it).
    #[test]
    fn fe_wipe_clears() {
        let mut values: [Fe; 3] = [1, Q - 1, 0x5a5];
        <Fe as Zq>::wipe(&mut values);
        assert_eq!(values, [0; 3]);
    }
}
