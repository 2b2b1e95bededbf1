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

/// The machine integers the field functions compute with: `u16`, `u32` and `u64`
/// ([`Machine`], the library's only instance), or symbolic bit-vectors, with which
/// `refopt prove` runs these same functions (obligation MLKEM-3).
///
/// The functions below are written once over this trait; the public `u16` functions
/// ([`reduce_once`], [`add`], ..., [`add_mul`]) are their [`Machine`] instances: the
/// same operations as before they were generic, each operator compiled in this crate
/// (see [`Word`]).
pub trait Ints {
    /// `u16`.
    type U16: Word<u16>;
    /// `u32`.
    type U32: Word<u32>;
    /// `u64`.
    type U64: Word<u64>;
    /// `u32::from`.
    fn widen16(a: Self::U16) -> Self::U32;
    /// `u64::from`.
    fn widen32(a: Self::U32) -> Self::U64;
    /// `as u16`: the low 16 bits.
    fn low16(a: Self::U32) -> Self::U16;
    /// `as u32`: the low 32 bits.
    fn low32(a: Self::U64) -> Self::U32;
}

/// One machine-integer type of [`Ints`], for the native type `N`.
///
/// `add`, `sub` and `mul` must not overflow on the inputs the functions accept: on
/// the machine types they are the plain operators, compiled in this crate (so its
/// profile decides whether a debug build checks them, as it did before the
/// functions were generic), and the symbolic instance records each as a claim. The
/// `wrapping_*` operations may wrap by design.
pub trait Word<N>: Copy {
    /// The constant `c`.
    fn constant(c: N) -> Self;
    /// `self + b`, which must not overflow.
    #[must_use]
    fn add(self, b: Self) -> Self;
    /// `self - b`, which must not overflow.
    #[must_use]
    fn sub(self, b: Self) -> Self;
    /// `self * b`, which must not overflow.
    #[must_use]
    fn mul(self, b: Self) -> Self;
    /// `self >> s`, for `s` below the width.
    #[must_use]
    fn shr(self, s: u32) -> Self;
    /// Addition modulo 2^bits.
    #[must_use]
    fn wrapping_add(self, b: Self) -> Self;
    /// Subtraction modulo 2^bits.
    #[must_use]
    fn wrapping_sub(self, b: Self) -> Self;
    /// Multiplication modulo 2^bits.
    #[must_use]
    fn wrapping_mul(self, b: Self) -> Self;
    /// A precondition of the function that calls it, `self < bound`: a
    /// `debug_assert!` on the machine types, a claim on the symbolic ones.
    fn require_below(self, bound: N, what: &'static str);
}

macro_rules! machine_word {
    ($t:ty) => {
        impl Word<$t> for $t {
            #[inline(always)]
            fn constant(c: $t) -> Self {
                c
            }
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                self + b
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                self - b
            }
            #[inline(always)]
            fn mul(self, b: Self) -> Self {
                self * b
            }
            #[inline(always)]
            fn shr(self, s: u32) -> Self {
                self >> s
            }
            #[inline(always)]
            fn wrapping_add(self, b: Self) -> Self {
                <$t>::wrapping_add(self, b)
            }
            #[inline(always)]
            fn wrapping_sub(self, b: Self) -> Self {
                <$t>::wrapping_sub(self, b)
            }
            #[inline(always)]
            fn wrapping_mul(self, b: Self) -> Self {
                <$t>::wrapping_mul(self, b)
            }
            #[inline(always)]
            fn require_below(self, bound: $t, what: &'static str) {
                debug_assert!(self < bound, "{what}");
            }
        }
    };
}
machine_word!(u16);
machine_word!(u32);
machine_word!(u64);

/// [`Word::require_below`], written as a macro: like the `debug_assert!` it is on the
/// machine types, the bound is a precondition, not an operation of the function, and
/// mutation testing (which skips macro arguments) leaves it alone. MLKEM-3 checks it.
macro_rules! require_below {
    ($a:expr, $bound:expr, $what:literal) => {
        Word::require_below($a, $bound, $what)
    };
}

/// The library's [`Ints`]: `u16`, `u32`, `u64`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Machine;

impl Ints for Machine {
    type U16 = u16;
    type U32 = u32;
    type U64 = u64;
    #[inline(always)]
    fn widen16(a: u16) -> u32 {
        u32::from(a)
    }
    #[inline(always)]
    fn widen32(a: u32) -> u64 {
        u64::from(a)
    }
    #[inline(always)]
    fn low16(a: u32) -> u16 {
        a as u16
    }
    #[inline(always)]
    fn low32(a: u64) -> u32 {
        a as u32
    }
}

/// Reduces `a < 2q` to [0, q) with a mask, no branch.
///
/// # Panics
/// Debug builds only, when a >= 2q (a `debug_assert!`); release builds then return a
/// value that is not a mod q.
#[inline(always)]
pub fn reduce_once(a: u16) -> Fe {
    reduce_once_over::<Machine>(a)
}

/// [`reduce_once`] over any [`Ints`].
#[inline(always)]
pub fn reduce_once_over<I: Ints>(a: I::U16) -> I::U16 {
    require_below!(a, 2 * Q, "reduce_once: a < 2q");
    let q = I::U16::constant(Q);
    let x = a.wrapping_sub(q);
    // The top bit of x is set exactly when a < q; add q back then.
    x.wrapping_add(x.shr(15).wrapping_mul(q))
}

/// a + b mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn add(a: Fe, b: Fe) -> Fe {
    add_over::<Machine>(a, b)
}

/// [`add`] over any [`Ints`].
#[inline(always)]
pub fn add_over<I: Ints>(a: I::U16, b: I::U16) -> I::U16 {
    reduce_once_over::<I>(a.add(b))
}

/// a - b mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn sub(a: Fe, b: Fe) -> Fe {
    sub_over::<Machine>(a, b)
}

/// [`sub`] over any [`Ints`].
#[inline(always)]
pub fn sub_over<I: Ints>(a: I::U16, b: I::U16) -> I::U16 {
    if crate::plant::active("mlkem-sub-forgets-the-offset") {
        return reduce_once_over::<I>(a.wrapping_sub(b));
    }
    if crate::plant::active("mlkem-sub-subtracts-before-the-offset") {
        return reduce_once_over::<I>(a.sub(b).add(I::U16::constant(Q)));
    }
    reduce_once_over::<I>(a.add(I::U16::constant(Q)).sub(b))
}

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
    reduce_over::<Machine>(a)
}

/// [`reduce`] over any [`Ints`].
#[inline(always)]
pub fn reduce_over<I: Ints>(a: I::U32) -> I::U16 {
    require_below!(a, 2 * u32::from(Q) * u32::from(Q), "reduce: a < 2q²");
    let quotient = I::low32(
        I::widen32(a)
            .mul(I::U64::constant(BARRETT_M))
            .shr(BARRETT_SHIFT),
    );
    let remainder = I::low16(a.sub(quotient.mul(I::U32::constant(u32::from(Q)))));
    if crate::plant::active("mlkem-reduce-skips-the-final-subtraction") {
        return remainder;
    }
    reduce_once_over::<I>(remainder)
}

/// a · b mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn mul(a: Fe, b: Fe) -> Fe {
    mul_over::<Machine>(a, b)
}

/// [`mul`] over any [`Ints`].
#[inline(always)]
pub fn mul_over<I: Ints>(a: I::U16, b: I::U16) -> I::U16 {
    reduce_over::<I>(I::widen16(a).mul(I::widen16(b)))
}

/// a · (b − c) mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn mul_sub(a: Fe, b: Fe, c: Fe) -> Fe {
    mul_sub_over::<Machine>(a, b, c)
}

/// [`mul_sub`] over any [`Ints`].
#[inline(always)]
pub fn mul_sub_over<I: Ints>(a: I::U16, b: I::U16, c: I::U16) -> I::U16 {
    let (b, c) = if crate::plant::active("mlkem-mul-sub-operands-swapped") {
        (c, b)
    } else {
        (b, c)
    };
    let offset = I::U16::constant(mul_sub_offset());
    let r = reduce_over::<I>(I::widen16(a).mul(I::widen16(b.add(offset).sub(c))));
    if crate::plant::active("mlkem-mul-sub-adds-one-after-the-reduction") {
        return r.wrapping_add(I::U16::constant(1));
    }
    r
}

/// Planted (`mlkem-add-mul-products-through-u64`, caught by MLKEM-3): a·b through a
/// u64 product cut to its low 32 bits. The same value and, on the symbolic integers,
/// the same term as `a·b` in u32, but with no overflow check. No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_product<I: Ints>(a: I::U16, b: I::U16) -> I::U32 {
    I::low32(I::widen32(I::widen16(a)).wrapping_mul(I::widen32(I::widen16(b))))
}

/// What [`mul_sub`] adds to b − c to keep it non-negative: q. Planted
/// (`mlkem-mul-sub-offset-2q`, caught by MLKEM-3): 2q, which takes the product outside
/// `reduce`'s domain. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn mul_sub_offset() -> u16 {
    if crate::plant::active("mlkem-mul-sub-offset-2q") {
        2 * Q
    } else {
        Q
    }
}

/// a·b + c·d mod q.
///
/// # Panics
/// Debug builds only, on some inputs that are not canonical (>= q): there the sum or
/// product may leave its proved range. Inputs must be canonical; on others the
/// result is unspecified.
#[inline(always)]
pub fn add_mul(a: Fe, b: Fe, c: Fe, d: Fe) -> Fe {
    add_mul_over::<Machine>(a, b, c, d)
}

/// [`add_mul`] over any [`Ints`].
#[inline(always)]
pub fn add_mul_over<I: Ints>(a: I::U16, b: I::U16, c: I::U16, d: I::U16) -> I::U16 {
    if crate::plant::active("mlkem-add-mul-products-through-u64") {
        return reduce_over::<I>(planted_product::<I>(a, b).add(planted_product::<I>(c, d)));
    }
    reduce_over::<I>(
        I::widen16(a)
            .mul(I::widen16(b))
            .add(I::widen16(c).mul(I::widen16(d))),
    )
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
