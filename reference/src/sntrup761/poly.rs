//! Polynomials in R3 = F3\[x\]/(x^p − x − 1) and Rq = Fq\[x\]/(x^p − x − 1).
//!
//! Names and loop structure follow libgcrypt's `cipher/sntrup761.c` (from
//! supercop-20201130 `crypto_kem/sntrup761/ref`). The two multiplications here are the
//! **reference kernels** of optimization 2 (before libgcrypt patch 07/10): the
//! accumulator is reduced after every multiply-add.

use super::arith::{
    Fq, Small, f3_freeze, f3_freeze_sum, fq_freeze, int16_negative_mask, int16_nonzero_mask,
};
use super::{P, Q12, W};
use zeroize::Zeroize;

// Per-step bounds of the reference kernels (obligation S-6): with |f| <= q12 and
// |g| <= 2, result + f·g is at most q12 + 2·q12 in absolute value, inside Fq_freeze's
// exact domain; the wrap-around sums are at most 2·q12. In R3, |result + f·g| <= 1 + 4.
const _: () = assert!(Q12 + 2 * Q12 <= super::arith::FQ_FREEZE_DOMAIN);
const R3_STEP_MAX: i32 = 1 + 2 * 2;
const _: () = assert!(R3_STEP_MAX <= i16::MAX as i32);
// Rq_recip3's update f0·g[i] − g0·f[i] is at most 2·q12² in absolute value when its
// four operands lie in [-q12, q12]. FQ_FREEZE_DOMAIN is defined as that bound; that the
// operands stay there (every entry of f, g, v, r is a constant, an input coefficient or
// an Fq_freeze output, whatever the swaps) is checked by obligation S-16, over the
// shipped `rq_recip3_over`.

/// 0 when r has Hamming weight exactly w, else -1 (`Weightw_mask`).
#[must_use = "the mask decides implicit rejection"]
pub fn weightw_mask(r: &[Small; P]) -> i32 {
    let weight: i32 = r.iter().map(|&x| i32::from(x & 1)).sum();
    int16_nonzero_mask((weight - W as i32) as i16)
}

/// R3_fromRq: reduce each coefficient mod 3.
pub fn r3_from_rq(out: &mut [Small; P], r: &[Fq; P]) {
    for (o, &x) in out.iter_mut().zip(r) {
        *o = f3_freeze(x);
    }
}

/// The integer arithmetic the two multiplications (both tiers) are written over.
///
/// The library instantiates it with the C code's types ([`Int`]: `i16` Fq values,
/// `i8` small values, an `i32` and an `i16` accumulator); `refopt prove` instantiates
/// it with exact forms carrying intervals, which checks every range (no overflow,
/// every freeze argument inside its exact domain) and compares the results for every
/// input (obligations S-7a, S-7b). Each method is the one C operation named in its doc.
pub trait Arith {
    /// An Fq coefficient (`Fq`, `i16`).
    type Fq: Clone;
    /// A small coefficient (`small`, `i8`).
    type Small: Clone;
    /// The wide accumulator (`int32`).
    type Wide: Clone;
    /// The narrow accumulator (`int16`).
    type Narrow: Clone;
    /// The Fq value 0.
    fn fq_zero() -> Self::Fq;
    /// The small value 0.
    fn small_zero() -> Self::Small;
    /// The wide value 0.
    fn wide_zero() -> Self::Wide;
    /// `(int32) x` for an Fq value.
    fn wide_fq(x: Self::Fq) -> Self::Wide;
    /// `(int32) x` for a small value.
    fn wide_small(x: Self::Small) -> Self::Wide;
    /// `(int16) x` for a small value.
    fn narrow_small(x: Self::Small) -> Self::Narrow;
    /// `a + b` in `int32`.
    fn add(a: Self::Wide, b: Self::Wide) -> Self::Wide;
    /// `a * b` in `int32`.
    fn mul(a: Self::Wide, b: Self::Wide) -> Self::Wide;
    /// `a + b` in `int16`.
    fn narrow_add(a: Self::Narrow, b: Self::Narrow) -> Self::Narrow;
    /// `a * b` in `int16`.
    fn narrow_mul(a: Self::Narrow, b: Self::Narrow) -> Self::Narrow;
    /// `(int16) a`, an `int32` truncated.
    fn narrow(a: Self::Wide) -> Self::Narrow;
    /// [`fq_freeze`].
    fn fq_freeze(a: Self::Wide) -> Self::Fq;
    /// [`f3_freeze`].
    fn f3_freeze(a: Self::Narrow) -> Self::Small;
    /// The Rq wrap-around [`rq_wrap_over`] (for [`Int`]: its compiled instance
    /// [`rq_wrap`], called as before the kernels were generic).
    fn rq_wrap(h: &mut [Self::Fq; P], fg: &mut [Self::Fq; 2 * P - 1])
    where
        Self: Sized,
    {
        rq_wrap_over::<Self>(h, fg);
    }
    /// The R3 wrap-around [`r3_wrap_over`] (for [`Int`]: [`r3_wrap`]).
    fn r3_wrap(h: &mut [Self::Small; P], fg: &mut [Self::Small; 2 * P - 1])
    where
        Self: Sized,
    {
        r3_wrap_over::<Self>(h, fg);
    }
    /// Overwrites secret Fq values with zero ([`Int`]: zeroize). No default: a
    /// symbolic instance must overwrite too, or a wipe placed before a value's last use
    /// would go unseen by the proofs.
    fn wipe_fq(values: &mut [Self::Fq]);
    /// Overwrites secret small values with zero, as [`Arith::wipe_fq`].
    fn wipe_small(values: &mut [Self::Small]);
}

/// The library's instance of [`Arith`]: the C types.
#[derive(Clone, Copy, Debug, Default)]
pub struct Int;

impl Arith for Int {
    type Fq = Fq;
    type Small = Small;
    type Wide = i32;
    type Narrow = i16;
    #[inline(always)]
    fn wipe_fq(values: &mut [Fq]) {
        values.zeroize();
    }
    #[inline(always)]
    fn wipe_small(values: &mut [Small]) {
        values.zeroize();
    }
    #[inline(always)]
    fn fq_zero() -> Fq {
        0
    }
    #[inline(always)]
    fn small_zero() -> Small {
        0
    }
    #[inline(always)]
    fn wide_zero() -> i32 {
        0
    }
    #[inline(always)]
    fn wide_fq(x: Fq) -> i32 {
        i32::from(x)
    }
    #[inline(always)]
    fn wide_small(x: Small) -> i32 {
        i32::from(x)
    }
    #[inline(always)]
    fn narrow_small(x: Small) -> i16 {
        i16::from(x)
    }
    #[inline(always)]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
    #[inline(always)]
    fn mul(a: i32, b: i32) -> i32 {
        a * b
    }
    #[inline(always)]
    fn narrow_add(a: i16, b: i16) -> i16 {
        a + b
    }
    #[inline(always)]
    fn narrow_mul(a: i16, b: i16) -> i16 {
        a * b
    }
    #[inline(always)]
    fn narrow(a: i32) -> i16 {
        a as i16
    }
    #[inline(always)]
    fn fq_freeze(a: i32) -> Fq {
        fq_freeze(a)
    }
    #[inline(always)]
    fn f3_freeze(a: i16) -> Small {
        f3_freeze(a)
    }
    #[inline(always)]
    fn rq_wrap(h: &mut [Fq; P], fg: &mut [Fq; 2 * P - 1]) {
        rq_wrap(h, fg);
    }
    #[inline(always)]
    fn r3_wrap(h: &mut [Small; P], fg: &mut [Small; 2 * P - 1]) {
        r3_wrap(h, fg);
    }
}

/// x^p = x + 1: folds the high half of a 2p−1 product into the low p coefficients,
/// i from 2p−2 down to p, fg\[i−p\] first, then fg\[i−p+1\], freezing each sum.
/// Shared by both tiers: patch 07 leaves this loop unchanged.
pub fn r3_wrap(h: &mut [Small; P], fg: &mut [Small; 2 * P - 1]) {
    r3_wrap_over::<Int>(h, fg);
}

/// [`r3_wrap`] over any [`Arith`].
pub fn r3_wrap_over<A: Arith>(h: &mut [A::Small; P], fg: &mut [A::Small; 2 * P - 1]) {
    for i in (P..2 * P - 1).rev() {
        if wrap_skips_the_top(i, || {
            crate::plant::active("sntrup761-r3-wrap-drops-the-top-coefficient")
        }) {
            continue;
        }
        fg[i - P] = A::f3_freeze(A::narrow_add(
            A::narrow_small(fg[i - P].clone()),
            A::narrow_small(fg[i].clone()),
        ));
        fg[i - P + 1] = A::f3_freeze(A::narrow_add(
            A::narrow_small(fg[i - P + 1].clone()),
            A::narrow_small(fg[i].clone()),
        ));
    }
    h.clone_from_slice(&fg[..P]);
}

/// Planted (`plant`, proof self-test): the wrap-around leaves the top coefficient
/// x^(2p−2) unfolded. Both tiers share the wrap-around, so they still agree; only a
/// comparison with the product's definition sees it. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn wrap_skips_the_top(i: usize, planted: impl Fn() -> bool) -> bool {
    i == 2 * P - 2 && planted()
}

/// As [`r3_wrap`], in Rq.
pub fn rq_wrap(h: &mut [Fq; P], fg: &mut [Fq; 2 * P - 1]) {
    rq_wrap_over::<Int>(h, fg);
}

/// [`rq_wrap`] over any [`Arith`].
pub fn rq_wrap_over<A: Arith>(h: &mut [A::Fq; P], fg: &mut [A::Fq; 2 * P - 1]) {
    for i in (P..2 * P - 1).rev() {
        if wrap_skips_the_top(i, || {
            crate::plant::active("sntrup761-rq-wrap-drops-the-top-coefficient")
        }) {
            continue;
        }
        fg[i - P] = A::fq_freeze(A::add(
            A::wide_fq(fg[i - P].clone()),
            A::wide_fq(fg[i].clone()),
        ));
        fg[i - P + 1] = A::fq_freeze(A::add(
            A::wide_fq(fg[i - P + 1].clone()),
            A::wide_fq(fg[i].clone()),
        ));
    }
    h.clone_from_slice(&fg[..P]);
}

/// R3_mult, reference: h = f·g in R3, with `F3_freeze` after every multiply-add.
///
/// Preconditions: |f\[j\]| <= 2 and |g\[j\]| <= 2 (canonical inputs are in {-1,0,1};
/// 2 arises only from arbitrary secret-key bytes). Every intermediate is then
/// |result + f·g| <= 1 + 4, far inside `i16`. Postcondition: h in {-1,0,1}^p.
pub fn r3_mult_per_step(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
    r3_mult_per_step_over::<Int>(h, f, g);
}

/// [`r3_mult_per_step`] over any [`Arith`].
pub fn r3_mult_per_step_over<A: Arith>(
    h: &mut [A::Small; P],
    f: &[A::Small; P],
    g: &[A::Small; P],
) {
    let mut fg: [A::Small; 2 * P - 1] = core::array::from_fn(|_| A::small_zero());
    for i in 0..P {
        let mut result = A::small_zero();
        for j in 0..=i {
            result = A::f3_freeze(A::narrow_add(
                A::narrow_small(result),
                A::narrow_mul(
                    A::narrow_small(f[j].clone()),
                    A::narrow_small(g[i - j].clone()),
                ),
            ));
        }
        fg[i] = result;
    }
    for i in P..2 * P - 1 {
        let mut result = A::small_zero();
        for j in i - P + 1..P {
            result = A::f3_freeze(A::narrow_add(
                A::narrow_small(result),
                A::narrow_mul(
                    A::narrow_small(f[j].clone()),
                    A::narrow_small(g[i - j].clone()),
                ),
            ));
        }
        fg[i] = result;
    }
    A::r3_wrap(h, &mut fg);
    // The unreduced product of (secret) polynomials.
    A::wipe_small(&mut fg);
}

/// Rq_mult_small, reference: h = f·g in Rq, with `Fq_freeze` after every
/// multiply-add.
///
/// Preconditions: |f\[j\]| <= q12 and |g\[j\]| <= 2, so each step freezes
/// |result + f·g| <= 2295 + 4590, inside `Fq_freeze`'s domain. Postcondition: h in
/// [-q12, q12]^p.
pub fn rq_mult_small_per_step(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
    rq_mult_small_per_step_over::<Int>(h, f, g);
}

/// [`rq_mult_small_per_step`] over any [`Arith`].
pub fn rq_mult_small_per_step_over<A: Arith>(
    h: &mut [A::Fq; P],
    f: &[A::Fq; P],
    g: &[A::Small; P],
) {
    let mut fg: [A::Fq; 2 * P - 1] = core::array::from_fn(|_| A::fq_zero());
    for i in 0..P {
        let mut result = A::fq_zero();
        for j in 0..=i {
            result = A::fq_freeze(A::add(
                A::wide_fq(result),
                A::mul(A::wide_fq(f[j].clone()), A::wide_small(g[i - j].clone())),
            ));
        }
        fg[i] = result;
    }
    for i in P..2 * P - 1 {
        let mut result = A::fq_zero();
        for j in i - P + 1..P {
            result = A::fq_freeze(A::add(
                A::wide_fq(result),
                A::mul(A::wide_fq(f[j].clone()), A::wide_small(g[i - j].clone())),
            ));
        }
        fg[i] = result;
    }
    A::rq_wrap(h, &mut fg);
    // The unreduced product of (secret) polynomials.
    A::wipe_fq(&mut fg);
}

/// The operations of the two reciprocals, [`r3_recip`] and [`rq_recip3`] (both tiers
/// share them).
///
/// The library instantiates it with the C code's types ([`Int`]); `refopt prove`
/// instantiates it with intervals, and with swap decisions of unknown value (a swap
/// leaves both places holding either value), which checks every freeze argument
/// against the freeze's exact domain and every operation against its type, for every
/// input and every sequence of swap decisions (obligation S-16). Each method is the C
/// operation named in its doc. A trait of its own, not [`Arith`]'s: its proof instance
/// is a plain `Copy` interval, where [`Arith`]'s carries each value's exact form.
pub trait RecipArith {
    /// An Fq value (`Fq`, `i16`).
    type Fq: Copy;
    /// A small value (`small`, `i8`).
    type Small: Copy;
    /// An `int32` value: a product, the divstep counter δ, a mask.
    type Wide: Copy;
    /// The Fq constant `x`.
    fn fq(x: Fq) -> Self::Fq;
    /// The small constant `x`.
    fn small(x: Small) -> Self::Small;
    /// The `int32` constant `x`.
    fn wide(x: i32) -> Self::Wide;
    /// `(int32) x` for an Fq value.
    fn wide_fq(x: Self::Fq) -> Self::Wide;
    /// `(int32) x` for a small value.
    fn wide_small(x: Self::Small) -> Self::Wide;
    /// `(Fq) x` for a small value.
    fn fq_small(x: Self::Small) -> Self::Fq;
    /// `(small) x`, an `int32` truncated.
    fn small_wide(x: Self::Wide) -> Self::Small;
    /// `a * b` in `int32`.
    fn mul(a: Self::Wide, b: Self::Wide) -> Self::Wide;
    /// `a - b` in `int32`.
    fn sub(a: Self::Wide, b: Self::Wide) -> Self::Wide;
    /// `a + b` in `small`.
    fn small_add(a: Self::Small, b: Self::Small) -> Self::Small;
    /// `a * b` in `small`.
    fn small_mul(a: Self::Small, b: Self::Small) -> Self::Small;
    /// [`fq_freeze`].
    fn fq_freeze(a: Self::Wide) -> Self::Fq;
    /// [`f3_freeze`] of a small value.
    fn f3_freeze(a: Self::Small) -> Self::Small;
    /// [`f3_freeze_sum`].
    fn f3_freeze_sum(a: Self::Small) -> Self::Small;
    /// The divstep's swap decision, `int16_negative_mask(-δ) & int16_nonzero_mask(g0)`:
    /// -1 (swap) or 0.
    fn swap_mask(delta: Self::Wide, g0: Self::Wide) -> Self::Wide;
    /// `δ ^= swap & (δ ^ -δ); δ += 1`: δ negated when swapping, then incremented.
    fn next_delta(delta: Self::Wide, swap: Self::Wide) -> Self::Wide;
    /// Exchanges `a` and `b` when `swap` is -1, by masks: `t = swap & (a ^ b)`,
    /// `a ^= t`, `b ^= t`.
    fn cswap_fq(swap: Self::Wide, a: &mut Self::Fq, b: &mut Self::Fq);
    /// [`RecipArith::cswap_fq`] for small values.
    fn cswap_small(swap: Self::Wide, a: &mut Self::Small, b: &mut Self::Small);
    /// `int16_nonzero_mask((int16) δ)`: the reciprocal's status, 0 or -1.
    fn nonzero_mask(delta: Self::Wide) -> Self::Wide;
    /// Overwrites secret Fq values with zero ([`Int`]: zeroize).
    fn wipe_fq(values: &mut [Self::Fq]);
    /// Overwrites secret small values with zero ([`Int`]: zeroize).
    fn wipe_small(values: &mut [Self::Small]);
}

impl RecipArith for Int {
    type Fq = Fq;
    type Small = Small;
    type Wide = i32;
    #[inline(always)]
    fn fq(x: Fq) -> Fq {
        x
    }
    #[inline(always)]
    fn small(x: Small) -> Small {
        x
    }
    #[inline(always)]
    fn wide(x: i32) -> i32 {
        x
    }
    #[inline(always)]
    fn wide_fq(x: Fq) -> i32 {
        i32::from(x)
    }
    #[inline(always)]
    fn wide_small(x: Small) -> i32 {
        i32::from(x)
    }
    #[inline(always)]
    fn fq_small(x: Small) -> Fq {
        Fq::from(x)
    }
    #[inline(always)]
    fn small_wide(x: i32) -> Small {
        x as Small
    }
    #[inline(always)]
    fn mul(a: i32, b: i32) -> i32 {
        a * b
    }
    #[inline(always)]
    fn sub(a: i32, b: i32) -> i32 {
        a - b
    }
    #[inline(always)]
    fn small_add(a: Small, b: Small) -> Small {
        a + b
    }
    #[inline(always)]
    fn small_mul(a: Small, b: Small) -> Small {
        a * b
    }
    #[inline(always)]
    fn fq_freeze(a: i32) -> Fq {
        fq_freeze(a)
    }
    #[inline(always)]
    fn f3_freeze(a: Small) -> Small {
        f3_freeze(i16::from(a))
    }
    #[inline(always)]
    fn f3_freeze_sum(a: Small) -> Small {
        f3_freeze_sum(a)
    }
    #[inline(always)]
    fn swap_mask(delta: i32, g0: i32) -> i32 {
        int16_negative_mask((-delta) as i16) & int16_nonzero_mask(g0 as i16)
    }
    #[inline(always)]
    fn next_delta(delta: i32, swap: i32) -> i32 {
        (delta ^ (swap & (delta ^ -delta))) + 1
    }
    #[inline(always)]
    fn cswap_fq(swap: i32, a: &mut Fq, b: &mut Fq) {
        let t = (swap as Fq) & (*a ^ *b);
        *a ^= t;
        *b ^= t;
    }
    #[inline(always)]
    fn cswap_small(swap: i32, a: &mut Small, b: &mut Small) {
        let t = (swap as Small) & (*a ^ *b);
        *a ^= t;
        *b ^= t;
    }
    #[inline(always)]
    fn nonzero_mask(delta: i32) -> i32 {
        int16_nonzero_mask(delta as i16)
    }
    #[inline(always)]
    fn wipe_fq(values: &mut [Fq]) {
        values.zeroize();
    }
    #[inline(always)]
    fn wipe_small(values: &mut [Small]) {
        values.zeroize();
    }
}

/// R3_recip: out = 1/in in R3 by the constant-time extended-gcd ("divstep") loop of
/// the reference code, 2p−1 iterations. Returns 0 when `in` is invertible, else -1
/// (then `out` is meaningless). `in` may be any `i8` polynomial (a decoded secret key
/// can hold 2): each coefficient is frozen to {-1, 0, 1} as it is loaded, so `out` is
/// the inverse of the element of R3 that `in` represents. (The C code loads them
/// unfrozen; for coefficients already in {-1, 0, 1} the two are the same.)
#[must_use = "0 only when the input is invertible: `out` is meaningless otherwise"]
pub fn r3_recip(out: &mut [Small; P], input: &[Small; P]) -> i32 {
    r3_recip_over::<Int>(out, input)
}

/// [`r3_recip`] over any [`RecipArith`].
pub fn r3_recip_over<A: RecipArith>(out: &mut [A::Small; P], input: &[A::Small; P]) -> A::Wide {
    let zero = A::small(0);
    let mut f = [zero; P + 1];
    let mut g = [zero; P + 1];
    let mut v = [zero; P + 1];
    let mut r = [zero; P + 1];
    r[0] = A::small(1);
    f[0] = A::small(1);
    f[P - 1] = A::small(-1);
    f[P] = A::small(-1);
    let planted_unfrozen = crate::plant::active("sntrup761-r3-recip-loads-unfrozen");
    for i in 0..P {
        g[P - 1 - i] = if planted_unfrozen {
            // Planted (proof self-test): the C code's load, without the freeze.
            input[i]
        } else {
            A::f3_freeze(input[i])
        };
    }
    g[P] = zero;
    let mut delta = A::wide(1);

    for _ in 0..2 * P - 1 {
        // v = x·v
        v.copy_within(0..P, 1);
        v[0] = zero;

        let sign = A::sub(A::wide(0), A::mul(A::wide_small(g[0]), A::wide_small(f[0])));
        let swap = A::swap_mask(delta, A::wide_small(g[0]));
        delta = A::next_delta(delta, swap);

        // Conditional swap of (f, v) with (g, r) by mask, element by element.
        for (fi, gi) in f.iter_mut().zip(g.iter_mut()) {
            A::cswap_small(swap, fi, gi);
        }
        for (vi, ri) in v.iter_mut().zip(r.iter_mut()) {
            A::cswap_small(swap, vi, ri);
        }

        // Every entry of f, g, v, r stays in {-1, 0, 1} (the initial values, the frozen
        // input, swaps and freezes keep it so) and sign is in {-1, 0, 1}: each sum lies
        // in [-2, 2], the domain of `f3_freeze_sum` (checked by S-16).
        let sign = A::small_wide(sign);
        for (gi, &fi) in g.iter_mut().zip(&f) {
            *gi = A::f3_freeze_sum(A::small_add(*gi, A::small_mul(sign, fi)));
        }
        for (ri, &vi) in r.iter_mut().zip(&v) {
            *ri = A::f3_freeze_sum(A::small_add(*ri, A::small_mul(sign, vi)));
        }

        // g = g/x (its constant term is now 0)
        g.copy_within(1..=P, 0);
        g[P] = zero;
    }

    let sign = f[0];
    for i in 0..P {
        out[i] = A::small_mul(sign, v[P - 1 - i]);
    }
    // The gcd state holds the (secret) input and its inverse.
    for t in [&mut f, &mut g, &mut v, &mut r] {
        A::wipe_small(&mut t[..]);
    }
    A::nonzero_mask(delta)
}

/// Rq_mult3: h = 3f in Rq. |3f| <= 6885, inside `Fq_freeze`'s domain.
pub fn rq_mult3(h: &mut [Fq; P], f: &[Fq; P]) {
    for (o, &x) in h.iter_mut().zip(f) {
        *o = fq_freeze(3 * i32::from(x));
    }
}

/// Rq_recip3: out = 1/(3·in) in Rq, the divstep loop over Fq. Returns 0 when it
/// succeeded, else -1. For a short `in` (weight w, q prime, x^p − x − 1 irreducible
/// mod q) it always succeeds.
///
/// The binding `Fq_freeze` caller: f0·g\[i\] − g0·f\[i\] has |x| <= 2·q12² (S-16).
#[must_use = "0 only when the input is invertible: `out` is meaningless otherwise"]
pub fn rq_recip3(out: &mut [Fq; P], input: &[Small; P]) -> i32 {
    rq_recip3_over::<Int>(out, input)
}

/// [`rq_recip3`] over any [`RecipArith`].
pub fn rq_recip3_over<A: RecipArith>(out: &mut [A::Fq; P], input: &[A::Small; P]) -> A::Wide {
    let zero = A::fq(0);
    let mut f = [zero; P + 1];
    let mut g = [zero; P + 1];
    let mut v = [zero; P + 1];
    let mut r = [zero; P + 1];
    r[0] = fq_recip_over::<A>(A::fq(3));
    f[0] = A::fq(1);
    f[P - 1] = A::fq(-1);
    f[P] = A::fq(-1);
    for i in 0..P {
        g[P - 1 - i] = A::fq_small(input[i]);
    }
    g[P] = zero;
    let mut delta = A::wide(1);

    for _ in 0..2 * P - 1 {
        // v = x·v
        v.copy_within(0..P, 1);
        v[0] = zero;

        let swap = A::swap_mask(delta, A::wide_fq(g[0]));
        delta = A::next_delta(delta, swap);

        for (fi, gi) in f.iter_mut().zip(g.iter_mut()) {
            A::cswap_fq(swap, fi, gi);
        }
        for (vi, ri) in v.iter_mut().zip(r.iter_mut()) {
            A::cswap_fq(swap, vi, ri);
        }

        // |f0·g[i] − g0·f[i]| <= 2·q12²: the widest input Fq_freeze must handle.
        let f0 = A::wide_fq(f[0]);
        let g0 = A::wide_fq(g[0]);
        for (gi, &fi) in g.iter_mut().zip(&f) {
            *gi = A::fq_freeze(A::sub(
                A::mul(f0, A::wide_fq(*gi)),
                A::mul(g0, A::wide_fq(fi)),
            ));
        }
        for (ri, &vi) in r.iter_mut().zip(&v) {
            *ri = A::fq_freeze(A::sub(
                A::mul(f0, A::wide_fq(*ri)),
                A::mul(g0, A::wide_fq(vi)),
            ));
        }

        // g = g/x
        g.copy_within(1..=P, 0);
        g[P] = zero;
    }

    let scale = fq_recip_over::<A>(f[0]);
    for i in 0..P {
        out[i] = A::fq_freeze(A::mul(A::wide_fq(scale), A::wide_fq(v[P - 1 - i])));
    }
    // The gcd state holds the (secret) input and its inverse.
    for t in [&mut f, &mut g, &mut v, &mut r] {
        A::wipe_fq(&mut t[..]);
    }
    A::nonzero_mask(delta)
}

/// [`fq_recip`](super::arith::fq_recip) over any [`RecipArith`]: a1^(q−2) by q−3 multiplications (public loop
/// count).
pub(crate) fn fq_recip_over<A: RecipArith>(a1: A::Fq) -> A::Fq {
    let mut ai = a1;
    for _ in 1..super::Q - 2 {
        ai = A::fq_freeze(A::mul(A::wide_fq(a1), A::wide_fq(ai)));
    }
    ai
}

/// Round: each coefficient to the nearest multiple of 3 (a − F3_freeze(a)).
///
/// Precondition: every coefficient is an element of R/q, in [-q12, q12] (what
/// `Rq_mult_small` and `Rq_decode` give).
///
/// # Panics
/// Debug builds only, on the coefficient −32768 (an `i16` overflow).
pub fn round(out: &mut [Fq; P], a: &[Fq; P]) {
    for (o, &x) in out.iter_mut().zip(a) {
        *o = x - Fq::from(f3_freeze(x));
    }
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test oracles on public values
mod tests {
    use super::super::Q;
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// Schoolbook product reduced with `rem_euclid`, the plainest possible oracle.
    fn oracle(f: &[i64], g: &[i64], m: i64) -> Vec<i64> {
        let mut fg = vec![0i64; 2 * P - 1];
        for i in 0..P {
            for j in 0..P {
                fg[i + j] += f[i] * g[j];
            }
        }
        for i in (P..2 * P - 1).rev() {
            fg[i - P] += fg[i];
            fg[i - P + 1] += fg[i];
        }
        fg[..P]
            .iter()
            .map(|&x| (x + (m - 1) / 2).rem_euclid(m) - (m - 1) / 2)
            .collect()
    }

    #[test]
    fn mults_match_plain_oracle() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..3 {
            let f: [Fq; P] = core::array::from_fn(|_| (rng.next_u32() % Q as u32) as i16 - Q12_I16);
            let g: [Small; P] = core::array::from_fn(|_| (rng.next_u32() % 3) as i8 - 1);
            let e: [Small; P] = core::array::from_fn(|_| (rng.next_u32() % 3) as i8 - 1);
            let mut h = [0; P];
            rq_mult_small_per_step(&mut h, &f, &g);
            let want = oracle(&f.map(i64::from), &g.map(i64::from), i64::from(Q));
            assert_eq!(h.map(i64::from).to_vec(), want);
            let mut h3 = [0; P];
            r3_mult_per_step(&mut h3, &e, &g);
            let want = oracle(&e.map(i64::from), &g.map(i64::from), 3);
            assert_eq!(h3.map(i64::from).to_vec(), want);
        }
    }

    const Q12_I16: i16 = Q12 as i16;

    #[test]
    fn recips_invert() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut found = 0;
        while found < 2 {
            let g: [Small; P] = core::array::from_fn(|_| (rng.next_u32() % 3) as i8 - 1);
            let mut ginv = [0; P];
            if r3_recip(&mut ginv, &g) != 0 {
                continue;
            }
            found += 1;
            let mut one = [0; P];
            r3_mult_per_step(&mut one, &g, &ginv);
            let mut want = [0; P];
            want[0] = 1;
            assert_eq!(one, want);

            let mut finv = [0; P];
            assert_eq!(rq_recip3(&mut finv, &g), 0);
            let mut prod = [0; P];
            rq_mult_small_per_step(&mut prod, &finv, &g);
            let mut three = [0; P];
            rq_mult3(&mut three, &prod);
            let mut want = [0 as Fq; P];
            want[0] = 1;
            assert_eq!(three, want);
        }
        // Zero is not invertible.
        let mut out = [0; P];
        assert_eq!(r3_recip(&mut out, &[0; P]), -1);
    }

    /// `R3_recip` of a polynomial holding 2s (as `small_decode` can give) is the
    /// reciprocal of the element of R3 it represents: the same status and output as
    /// for the polynomial with every 2 written as −1.
    #[test]
    fn r3_recip_freezes_its_input() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut invertible = 0;
        for _ in 0..8 {
            let with_twos: [Small; P] = core::array::from_fn(|_| (rng.next_u32() % 4) as i8 - 1);
            let canonical = with_twos.map(|x| if x == 2 { -1 } else { x });
            assert!(with_twos.contains(&2));
            let (mut a, mut b) = ([0; P], [0; P]);
            let status = r3_recip(&mut a, &with_twos);
            assert_eq!(status, r3_recip(&mut b, &canonical));
            if status == 0 {
                assert_eq!(a, b);
                invertible += 1;
            }
        }
        assert!(invertible > 0, "no invertible input among the eight");
    }
}
