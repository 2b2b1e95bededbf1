//! sntrup761 (optimizations 1 and 2).
//!
//! * Deferred reduction: both tiers' `Rq_mult_small` and `R3_mult` are written once
//!   over the integer arithmetic trait `reference::sntrup761::poly::Arith`; the
//!   library instantiates it with `i8`/`i16`/`i32`, the proofs with [`Val`]: an exact
//!   form of the inputs modulo q (or 3) carried next to an interval for the integer
//!   value. Every operation checks its interval against its machine type (no `i32` or
//!   `i16` overflow, a truncation to `i16` only when exact) and every freeze checks
//!   that its argument stays inside the domain where it is proved exact (S-3, S-4);
//!   a freeze then returns the canonical representative of the same residue. Equal
//!   output forms, both canonical, mean equal outputs for every input.
//! * Batched randomness: both tiers' word draws are written over the byte source
//!   trait `reference::sntrup761::random::WordSource`; [`Stream`] hands out stream
//!   positions instead of bytes (a byte stream is exactly a source whose bytes do not
//!   depend on call boundaries), and each word is computed as the list of stream
//!   bits it is made of.

use optimized::sntrup761::poly::{r3_mult_deferred_over, rq_mult_small_deferred_over};
use optimized::sntrup761::random::draw_words_over;
use reference::plant;
use reference::sntrup761::arith::{
    FQ_FREEZE_DOMAIN, f3_freeze, f3_freeze_sum, fq_freeze, int16_negative_mask, int16_nonzero_mask,
};
use reference::sntrup761::poly::{
    Arith, Int, RecipArith, r3_mult_per_step_over, r3_recip_over, rq_mult_small_per_step_over,
    rq_recip3_over,
};
use reference::sntrup761::random::{WordSource, draw_words_per_coefficient_over};
use reference::sntrup761::{P, Q, Q12, RANDOM_POLY_BYTES};

use super::form::Form;
use super::{CheckResult, Evidence, Failure, Mutant, Obligation, Optimization, Planted};

/// A symbolic integer: its residue as a form of the inputs, and an interval that
/// contains its exact value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Val {
    /// The value modulo the run's modulus (q or 3).
    pub form: Form,
    /// Least possible value.
    pub lo: i64,
    /// Greatest possible value.
    pub hi: i64,
}

impl Val {
    fn zero() -> Self {
        Val {
            form: Form::zero(),
            lo: 0,
            hi: 0,
        }
    }
    /// The input variable `v` of the run mod `m`, with its range.
    pub fn input(m: u32, v: u32, lo: i64, hi: i64) -> Self {
        Val {
            form: Form::var(m, v),
            lo,
            hi,
        }
    }
    fn within(self, lo: i64, hi: i64, what: &str) -> Self {
        assert!(
            lo <= self.lo && self.hi <= hi,
            "sntrup761 symbolic run: {what} may reach [{}, {}], outside [{lo}, {hi}]",
            self.lo,
            self.hi
        );
        self
    }
    fn add(self, b: Val) -> Val {
        let mut form = self.form;
        form.add_assign(&b.form);
        Val {
            form,
            lo: self.lo + b.lo,
            hi: self.hi + b.hi,
        }
    }
    fn mul(&self, b: &Val) -> Val {
        let range = self.range().mul(b.range());
        Val {
            form: self.form.mul(&b.form),
            lo: range.lo,
            hi: range.hi,
        }
    }
    /// The interval alone.
    fn range(&self) -> Iv {
        Iv {
            lo: self.lo,
            hi: self.hi,
        }
    }
}

const I32: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);
const I16: (i64, i64) = (i16::MIN as i64, i16::MAX as i64);
const I8: (i64, i64) = (i8::MIN as i64, i8::MAX as i64);

/// The symbolic instance of `Arith`.
#[derive(Clone, Copy, Debug)]
pub struct SymArith;

/// The accumulator hooks: the identity in every normal build, as for `Int`; with a
/// planted narrower accumulator (`planted_acc_bits`, which `Int` truncates to) the sum
/// must fit that width, so the interval check is shown able to fail.
impl optimized::sntrup761::poly::Accumulator for SymArith {
    fn rq_sum(sum: Val) -> Val {
        narrowed(sum, optimized::sntrup761::poly::planted_acc_bits(true))
    }
    fn r3_sum(sum: Val) -> Val {
        narrowed(sum, optimized::sntrup761::poly::planted_acc_bits(false))
    }
}

/// `sum` checked against a planted accumulator width, if any.
fn narrowed(sum: Val, bits: Option<u32>) -> Val {
    match bits {
        Some(b) => {
            let half = 1i64 << (b - 1);
            sum.within(-half, half - 1, &format!("a {b}-bit accumulator"))
        }
        None => sum,
    }
}

impl Arith for SymArith {
    type Fq = Val;
    type Small = Val;
    type Wide = Val;
    type Narrow = Val;
    /// The zero value, as `Int`'s zeroize leaves 0: a value wiped before its last use
    /// then differs.
    fn wipe_fq(values: &mut [Val]) {
        values.fill(Val::zero());
    }
    fn wipe_small(values: &mut [Val]) {
        values.fill(Val::zero());
    }
    fn fq_zero() -> Val {
        Val::zero()
    }
    fn small_zero() -> Val {
        Val::zero()
    }
    fn wide_zero() -> Val {
        Val::zero()
    }
    fn wide_fq(x: Val) -> Val {
        x.within(I16.0, I16.1, "an Fq value")
    }
    fn wide_small(x: Val) -> Val {
        x.within(I8.0, I8.1, "a small value")
    }
    fn narrow_small(x: Val) -> Val {
        x.within(I8.0, I8.1, "a small value")
    }
    fn add(a: Val, b: Val) -> Val {
        a.add(b).within(I32.0, I32.1, "an i32 sum")
    }
    fn mul(a: Val, b: Val) -> Val {
        a.mul(&b).within(I32.0, I32.1, "an i32 product")
    }
    fn narrow_add(a: Val, b: Val) -> Val {
        a.add(b).within(I16.0, I16.1, "an i16 sum")
    }
    fn narrow_mul(a: Val, b: Val) -> Val {
        a.mul(&b).within(I16.0, I16.1, "an i16 product")
    }
    fn narrow(a: Val) -> Val {
        a.within(I16.0, I16.1, "an i32 truncated to i16")
    }
    fn fq_freeze(a: Val) -> Val {
        let d = i64::from(FQ_FREEZE_DOMAIN);
        let a = a.within(-d, d, "an Fq_freeze argument");
        let q12 = i64::from(Q12);
        if plant::active("sntrup761-prove-freeze-unsigned") {
            // Planted fault in the model (proof self-test): the representative in
            // [0, q − 1], as a freeze that forgets to centre would return.
            return Val {
                form: a.form,
                lo: 0,
                hi: 2 * q12,
            };
        }
        Val {
            form: a.form,
            lo: -q12,
            hi: q12,
        }
    }
    fn f3_freeze(a: Val) -> Val {
        // Typed i16: every i16 is in S-4's domain.
        let a = a.within(I16.0, I16.1, "an F3_freeze argument");
        Val {
            form: a.form,
            lo: -1,
            hi: 1,
        }
    }
}

/// f·g in Z_m\[x\]/(x^p − x − 1) as forms, computed here from the definition and not by
/// either kernel: the columns Σ f_j·g_(c−j), then x^c = x^(c−p+1) + x^(c−p) for
/// c >= p. Both kernels share their wrap-around, so their equality alone would not
/// notice a wrong (or missing) wrap-around; equality with this product does.
fn product_forms(f: &[Val; P], g: &[Val; P]) -> Vec<Form> {
    let mut col = vec![Form::zero(); 2 * P - 1];
    for (c, sum) in col.iter_mut().enumerate() {
        // j ascending: the monomials f_j·g_(c−j) arrive in order (appended, not merged).
        for j in c.saturating_sub(P - 1)..=c.min(P - 1) {
            sum.add_assign(&f[j].form.mul(&g[c - j].form));
        }
    }
    for c in (P..2 * P - 1).rev() {
        let v = core::mem::take(&mut col[c]);
        col[c - P].add_assign(&v);
        col[c - P + 1].add_assign(&v);
    }
    col.truncate(P);
    col
}

/// Runs both tiers of one multiplication over symbolic inputs and compares them with
/// each other and with [`product_forms`].
fn compare(
    m: u32,
    f_range: i64,
    g_range: i64,
    what: &str,
    run: impl Fn(&[Val; P], &[Val; P]) -> ([Val; P], [Val; P]),
) -> CheckResult {
    let f: [Val; P] = core::array::from_fn(|j| Val::input(m, 1 + j as u32, -f_range, f_range));
    let g: [Val; P] = core::array::from_fn(|j| Val::input(m, 1001 + j as u32, -g_range, g_range));
    let (h_ref, h_opt) = run(&f, &g);
    let want = product_forms(&f, &g);
    let half = i64::from((m - 1) / 2);
    let mut terms = 0usize;
    for (i, (r, o)) in h_ref.iter().zip(&h_opt).enumerate() {
        // The trait makes an Fq or small value only as an input, a zero or a freeze
        // result, so shipped code reaches this check only by returning an input
        // coefficient (R3: |g_i| <= 2) as an output; a wrong freeze model reaches it
        // too (plant `sntrup761-prove-freeze-unsigned`, the self-test of the check).
        for (side, x) in [("reference", r), ("optimized", o)] {
            if x.lo < -half || x.hi > half {
                return Err(Failure::failed(format!(
                    "{what}: {side} h[{i}] may leave [-{half}, {half}]"
                )));
            }
        }
        if r.form != o.form {
            return Err(Failure::failed(format!(
                "{what}: h[{i}] differs mod {m} ({} vs {} terms)",
                r.form.len(),
                o.form.len()
            )));
        }
        if r.form != want[i] {
            return Err(Failure::failed(format!(
                "{what}: h[{i}] of both tiers is not coefficient {i} of f·g mod (x^761 − x − 1, {m}) ({} vs {} terms)",
                r.form.len(),
                want[i].len()
            )));
        }
        terms += r.form.len();
    }
    Ok(Evidence::proved(format!(
        "761 output coefficients equal as forms mod {m} ({terms} terms), and equal to f·g mod (x^761 − x − 1) computed from the definition; both canonical; every freeze argument inside its exact domain, no overflow"
    )))
}

/// S-7a: deferred `Rq_mult_small` = per-step.
fn rq_mult_small_equal() -> CheckResult {
    let m = Q as u32;
    compare(m, i64::from(Q12), 2, "Rq_mult_small", |f, g| {
        let mut r: [Val; P] = core::array::from_fn(|_| Val::zero());
        let mut o = r.clone();
        rq_mult_small_per_step_over::<SymArith>(&mut r, f, g);
        rq_mult_small_deferred_over::<SymArith>(&mut o, f, g);
        (r, o)
    })
}

/// S-7b: deferred `R3_mult` = per-step.
fn r3_mult_equal() -> CheckResult {
    compare(3, 2, 2, "R3_mult", |f, g| {
        let mut r: [Val; P] = core::array::from_fn(|_| Val::zero());
        let mut o = r.clone();
        r3_mult_per_step_over::<SymArith>(&mut r, f, g);
        r3_mult_deferred_over::<SymArith>(&mut o, f, g);
        (r, o)
    })
}

/// S-3: `Fq_freeze` exact on its claimed domain.
fn fq_freeze_exhaustive() -> CheckResult {
    let q = Q;
    for x in -FQ_FREEZE_DOMAIN..=FQ_FREEZE_DOMAIN {
        let r = i32::from(fq_freeze(x));
        if !(-Q12..=Q12).contains(&r) || (x - r).rem_euclid(q) != 0 {
            return Err(Failure::failed(format!("Fq_freeze({x}) = {r}")));
        }
    }
    Ok(Evidence::proved(format!(
        "all {} values",
        2 * i64::from(FQ_FREEZE_DOMAIN) + 1
    )))
}

/// S-4: `F3_freeze` exact on every i16.
fn f3_freeze_exhaustive() -> CheckResult {
    for x in i16::MIN..=i16::MAX {
        let r = i32::from(f3_freeze(x));
        if !(-1..=1).contains(&r) || (i32::from(x) - r).rem_euclid(3) != 0 {
            return Err(Failure::failed(format!("F3_freeze({x}) = {r}")));
        }
    }
    Ok(Evidence::proved("all 65 536 values"))
}

/// A byte of the symbolic stream: the constant 0, or the byte at a stream position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymByte {
    /// The constant byte 0 (buffers before a fill, zeroization).
    Zero,
    /// The byte at this position of the stream.
    At(u32),
}

/// A symbolic 32-bit word: each bit is 0 or a given bit of a given stream byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymWord(pub [Option<(u32, u8)>; 32]);

/// A byte stream given by positions: each fill continues where the last one ended,
/// whatever the call boundaries (the precondition of optimization 1).
#[derive(Debug, Default)]
pub struct Stream {
    next: u32,
}

impl WordSource for Stream {
    type Byte = SymByte;
    type Word = SymWord;
    fn fill(&mut self, buf: &mut [SymByte]) {
        for b in buf {
            *b = SymByte::At(self.next);
            self.next += 1;
        }
    }
    fn zero_byte() -> SymByte {
        SymByte::Zero
    }
    /// The zero byte, as the library's zeroize leaves: a buffer wiped before its
    /// last read then gives other words.
    fn wipe(buf: &mut [SymByte]) {
        buf.fill(SymByte::Zero);
    }
    fn byte_to_word(b: &SymByte) -> SymWord {
        SymWord(core::array::from_fn(|i| match b {
            SymByte::At(p) if i < 8 => Some((*p, i as u8)),
            _ => None,
        }))
    }
    fn word_shl(a: SymWord, s: u32) -> SymWord {
        let s = s as usize;
        SymWord(core::array::from_fn(
            |i| if i >= s { a.0[i - s] } else { None },
        ))
    }
    fn word_add(a: SymWord, b: SymWord) -> SymWord {
        SymWord(core::array::from_fn(|i| match (a.0[i], b.0[i]) {
            (None, x) | (x, None) => x,
            (Some(_), Some(_)) => {
                panic!("sntrup761 symbolic run: an addition of words whose bits overlap (bit {i})")
            }
        }))
    }
    fn word_from_le_bytes(b: [SymByte; 4]) -> SymWord {
        SymWord(core::array::from_fn(|i| match b[i / 8] {
            SymByte::At(p) => Some((p, (i % 8) as u8)),
            SymByte::Zero => None,
        }))
    }
}

/// S-9: both tiers draw the same words from every byte stream.
fn draws_equal() -> CheckResult {
    let reference = draw_words_per_coefficient_over(&mut Stream::default());
    let mut batched_source = Stream::default();
    let batched = draw_words_over(&mut batched_source);
    if batched_source.next as usize != RANDOM_POLY_BYTES {
        return Err(Failure::failed(format!(
            "the batched draw read {} bytes, not {RANDOM_POLY_BYTES}",
            batched_source.next
        )));
    }
    for (i, (r, b)) in reference.iter().zip(&batched).enumerate() {
        if r != b {
            return Err(Failure::failed(format!(
                "word {i} differs: reference {:?}, batched {:?}",
                r.0[0], b.0[0]
            )));
        }
        for (bit, x) in r.0.iter().enumerate() {
            let want = Some(((4 * i + bit / 8) as u32, (bit % 8) as u8));
            if *x != want {
                return Err(Failure::failed(format!(
                    "word {i} bit {bit} is {x:?}, not stream bit {want:?} (little-endian)"
                )));
            }
        }
    }
    Ok(Evidence::proved(
        "761 words × 32 bits: the same stream bit in both tiers, word i = LE(stream[4i..4i+4])",
    ))
}

/// An interval `[lo, hi]` that contains a value of the reciprocals' run (S-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iv {
    /// Least possible value.
    pub lo: i64,
    /// Greatest possible value.
    pub hi: i64,
}

impl Iv {
    const fn point(x: i64) -> Self {
        Iv { lo: x, hi: x }
    }
    const fn range(r: (i64, i64)) -> Self {
        Iv { lo: r.0, hi: r.1 }
    }
    fn within(self, r: (i64, i64), what: &str) -> Self {
        assert!(
            r.0 <= self.lo && self.hi <= r.1,
            "sntrup761 reciprocal run: {what} may reach [{}, {}], outside [{}, {}]",
            self.lo,
            self.hi,
            r.0,
            r.1
        );
        self
    }
    fn neg(self) -> Iv {
        Iv {
            lo: -self.hi,
            hi: -self.lo,
        }
    }
    fn hull(self, b: Iv) -> Iv {
        Iv {
            lo: self.lo.min(b.lo),
            hi: self.hi.max(b.hi),
        }
    }
    /// The product's interval: the least and greatest of the four corner products.
    fn mul(self, b: Iv) -> Iv {
        let p = [
            self.lo * b.lo,
            self.lo * b.hi,
            self.hi * b.lo,
            self.hi * b.hi,
        ];
        Iv {
            lo: p.into_iter().fold(i64::MAX, i64::min),
            hi: p.into_iter().fold(i64::MIN, i64::max),
        }
    }
}

/// A mask: 0 or -1.
const MASK: (i64, i64) = (-1, 0);
/// The divstep counter δ's range that the model allows and [`recip_lemmas`] covers:
/// [-2p, 2p] (δ starts at 1, and each of the 2p − 1 steps negates it or not, then adds
/// one: |δ| grows by at most one per step).
const DELTA: (i64, i64) = (-2 * P as i64, 2 * P as i64);

thread_local! {
    /// The widest `Fq_freeze` and `f3_freeze_sum` arguments of the run, for the
    /// evidence.
    static WIDEST: core::cell::Cell<(i64, i64)> = const { core::cell::Cell::new((0, 0)) };
}

/// The interval instance of `RecipArith`: every operation checks its result against
/// its machine type, every freeze its argument against the freeze's exact domain; a
/// swap decision is any mask, so both places of a conditional swap may hold either
/// value (their hull), and one run covers every sequence of swap decisions.
#[derive(Clone, Copy, Debug)]
pub struct IvArith;

impl RecipArith for IvArith {
    type Fq = Iv;
    type Small = Iv;
    type Wide = Iv;
    fn fq(x: i16) -> Iv {
        Iv::point(i64::from(x))
    }
    fn small(x: i8) -> Iv {
        Iv::point(i64::from(x))
    }
    fn wide(x: i32) -> Iv {
        Iv::point(i64::from(x))
    }
    fn wide_fq(x: Iv) -> Iv {
        x.within(I16, "an Fq value")
    }
    fn wide_small(x: Iv) -> Iv {
        x.within(I8, "a small value")
    }
    fn fq_small(x: Iv) -> Iv {
        x.within(I8, "a small value")
    }
    fn small_wide(x: Iv) -> Iv {
        x.within(I8, "an i32 truncated to i8")
    }
    fn mul(a: Iv, b: Iv) -> Iv {
        a.mul(b).within(I32, "an i32 product")
    }
    fn sub(a: Iv, b: Iv) -> Iv {
        Iv {
            lo: a.lo - b.hi,
            hi: a.hi - b.lo,
        }
        .within(I32, "an i32 difference")
    }
    fn small_add(a: Iv, b: Iv) -> Iv {
        Iv {
            lo: a.lo + b.lo,
            hi: a.hi + b.hi,
        }
        .within(I8, "an i8 sum")
    }
    fn small_mul(a: Iv, b: Iv) -> Iv {
        a.mul(b).within(I8, "an i8 product")
    }
    fn fq_freeze(a: Iv) -> Iv {
        let d = i64::from(FQ_FREEZE_DOMAIN);
        let a = a.within((-d, d), "an Fq_freeze argument");
        WIDEST.with(|w| {
            let (fq, f3) = w.get();
            w.set((fq.max(-a.lo).max(a.hi), f3));
        });
        let q12 = i64::from(Q12);
        if plant::active("sntrup761-prove-freeze-unsigned") {
            // The model fault of S-7a (proof self-test): a freeze that forgets to centre.
            return Iv { lo: 0, hi: 2 * q12 };
        }
        Iv { lo: -q12, hi: q12 }
    }
    fn f3_freeze(a: Iv) -> Iv {
        // Typed i8, widened to i16: every i16 is in S-4's domain.
        a.within(I8, "an F3_freeze argument");
        Iv { lo: -1, hi: 1 }
    }
    fn f3_freeze_sum(a: Iv) -> Iv {
        let a = a.within((-2, 2), "an f3_freeze_sum argument");
        WIDEST.with(|w| {
            let (fq, f3) = w.get();
            w.set((fq, f3.max(-a.lo).max(a.hi)));
        });
        Iv { lo: -1, hi: 1 }
    }
    fn swap_mask(delta: Iv, g0: Iv) -> Iv {
        // The lemma covers every δ in DELTA and every g0 that fits int16.
        delta.within(DELTA, "δ");
        g0.within(I16, "g0 truncated to int16");
        Iv::range(MASK)
    }
    fn next_delta(delta: Iv, swap: Iv) -> Iv {
        swap.within(MASK, "a swap mask");
        let d = delta.within(DELTA, "δ").hull(delta.neg());
        Iv {
            lo: d.lo + 1,
            hi: d.hi + 1,
        }
        .within(DELTA, "δ")
    }
    fn cswap_fq(swap: Iv, a: &mut Iv, b: &mut Iv) {
        swap.within(MASK, "a swap mask");
        // The swap lemma is checked on Fq values in [-q12, q12] (fq_cswap_lemma).
        let q12 = i64::from(Q12);
        let h = a
            .within((-q12, q12), "a swapped Fq value")
            .hull(b.within((-q12, q12), "a swapped Fq value"));
        (*a, *b) = (h, h);
    }
    fn cswap_small(swap: Iv, a: &mut Iv, b: &mut Iv) {
        swap.within(MASK, "a swap mask");
        let h = a
            .within(I8, "a small value")
            .hull(b.within(I8, "a small value"));
        (*a, *b) = (h, h);
    }
    fn nonzero_mask(delta: Iv) -> Iv {
        delta.within(I16, "δ truncated to int16");
        Iv::range(MASK)
    }
    fn wipe_fq(values: &mut [Iv]) {
        values.fill(Iv::point(0));
    }
    fn wipe_small(values: &mut [Iv]) {
        values.fill(Iv::point(0));
    }
}

/// The machine instance's masks and swaps do what [`IvArith`] models, on every value
/// the run gives them: `int16_negative_mask`/`int16_nonzero_mask` on every i16, the
/// swap decision on every δ in [`DELTA`] and g0 in i16, δ's update on the same δ,
/// `cswap_small` on every pair of i8, `cswap_fq` on every pair in [-q12, q12] (the
/// only Fq values [`IvArith`] lets it swap), `f3_freeze_sum` on [-2, 2].
fn recip_lemmas() -> Result<String, Failure> {
    let fail = |m: String| Err(Failure::failed(m));
    for x in i16::MIN..=i16::MAX {
        if int16_negative_mask(x) != -i32::from(x < 0)
            || int16_nonzero_mask(x) != -i32::from(x != 0)
        {
            return fail(format!("the int16 masks of {x}"));
        }
    }
    for delta in DELTA.0 as i32..=DELTA.1 as i32 {
        for g0 in i16::MIN..=i16::MAX {
            let want = -i32::from(delta > 0 && g0 != 0);
            if <Int as RecipArith>::swap_mask(delta, i32::from(g0)) != want {
                return fail(format!("the swap decision at δ = {delta}, g0 = {g0}"));
            }
        }
        for (swap, negated) in [(0, delta), (-1, -delta)] {
            if <Int as RecipArith>::next_delta(delta, swap) != negated + 1 {
                return fail(format!("δ's update at δ = {delta}, swap = {swap}"));
            }
        }
    }
    for swap in [0, -1] {
        for a in i8::MIN..=i8::MAX {
            for b in i8::MIN..=i8::MAX {
                let (mut x, mut y) = (a, b);
                <Int as RecipArith>::cswap_small(swap, &mut x, &mut y);
                if (x, y) != if swap == 0 { (a, b) } else { (b, a) } {
                    return fail(format!("cswap_small({swap}, {a}, {b})"));
                }
            }
        }
        let q12 = Q12 as i16;
        for a in -q12..=q12 {
            for b in -q12..=q12 {
                let (mut x, mut y) = (a, b);
                <Int as RecipArith>::cswap_fq(swap, &mut x, &mut y);
                if (x, y) != if swap == 0 { (a, b) } else { (b, a) } {
                    return fail(format!("cswap_fq({swap}, {a}, {b})"));
                }
            }
        }
    }
    for x in -2i8..=2 {
        if f3_freeze_sum(x) != f3_freeze(i16::from(x)) {
            return fail(format!("f3_freeze_sum({x})"));
        }
    }
    Ok(format!(
        "the masks on all 65 536 i16, the swap decision on {} (δ, g0) pairs, both swaps on all i8 pairs and all {} Fq pairs in [-q12, q12], f3_freeze_sum = F3_freeze on [-2, 2]",
        (DELTA.1 - DELTA.0 + 1) * 65_536,
        (2 * Q12 as usize + 1).pow(2)
    ))
}

/// S-16: both reciprocals run over [`IvArith`], from every input of i8 coefficients.
fn recips_in_range() -> CheckResult {
    let lemmas = recip_lemmas()?;
    WIDEST.with(|w| w.set((0, 0)));
    let input = [Iv::range(I8); P];
    let mut out3 = [Iv::point(0); P];
    let _status = r3_recip_over::<IvArith>(&mut out3, &input);
    let mut outq = [Iv::point(0); P];
    let _status = rq_recip3_over::<IvArith>(&mut outq, &input);
    let (fq, f3) = WIDEST.with(|w| w.get());
    let q12 = i64::from(Q12);
    for (what, out, bound) in [("R3_recip", &out3, 1), ("Rq_recip3", &outq, q12)] {
        if let Some(i) = out.iter().position(|x| x.lo < -bound || x.hi > bound) {
            return Err(Failure::failed(format!(
                "{what}: out[{i}] may leave [-{bound}, {bound}]"
            )));
        }
    }
    Ok(Evidence::proved(format!(
        "every operation of both shipped reciprocals inside its type; widest f3_freeze_sum argument |x| <= {f3} (domain 2), widest Fq_freeze argument |x| <= {fq} (domain {}); outputs canonical (the status is a mask by the lemmas); lemmas: {lemmas}",
        FQ_FREEZE_DOMAIN
    )))
}

/// The sntrup761 obligations.
pub static OBLIGATIONS: &[Obligation] = &[
    Obligation {
        id: "S-9",
        optimization: Optimization::Sntrup761Random,
        statement: "the batched tier's one 3044-byte draw (`optimized::sntrup761::random::draw_words`) and the reference's 761 `urandom32` draws (`draw_words_per_coefficient`) return the same 761 words, word i = bytes 4i..4i+3 little-endian (that every tier's `Short_random`/`Small_random` is the trait's provided method over those words is read from the code: What the proofs rest on)",
        method: "symbolic evaluation: both draws run over a source that hands out stream positions (a byte stream: the bytes do not depend on call boundaries); every word bit is traced to its stream bit",
        domain: "every call-boundary-invariant source (byte stream: ChaCha20, SHAKE-256, ...); not NIST's CTR-DRBG, where the tiers differ by design",
        mutant: Mutant::Plants(&[
            Planted::new("sntrup761-batched-words-big-endian", "differs: reference"),
            Planted::new(
                "sntrup761-batched-draw-reads-a-word-more",
                "the batched draw read 3048 bytes, not 3044",
            ),
        ]),
        cheap: true,
        needs_smt: false,
        check: draws_equal,
    },
    Obligation {
        id: "S-3",
        optimization: Optimization::Sntrup761Deferred,
        statement: "`Fq_freeze(x)` is the representative of x mod q in [−q12, q12]",
        method: "exhaustive",
        domain: "every |x| <= 10 534 050 = 2·q12² (21 068 101 values)",
        mutant: Mutant::Plant(Planted::new(
            "sntrup761-fq-freeze-off-by-one-multiplier",
            "Fq_freeze(",
        )),
        cheap: false,
        needs_smt: false,
        check: fq_freeze_exhaustive,
    },
    Obligation {
        id: "S-4",
        optimization: Optimization::Sntrup761Deferred,
        statement: "`F3_freeze(x)` is the representative of x mod 3 in {−1, 0, 1}",
        method: "exhaustive",
        domain: "every i16 (65 536 values)",
        mutant: Mutant::Plant(Planted::new(
            "sntrup761-f3-freeze-rounds-wrong",
            "F3_freeze(",
        )),
        cheap: true,
        needs_smt: false,
        check: f3_freeze_exhaustive,
    },
    Obligation {
        id: "S-7a",
        optimization: Optimization::Sntrup761Deferred,
        statement: "deferred `Rq_mult_small` (i32 accumulator, one freeze per coefficient) = the reference (freeze after every multiply-add), coefficient for coefficient",
        method: "symbolic evaluation of both shipped kernels (and the shared wrap-around) over exact forms mod q with intervals: no i32/i16 overflow, every `Fq_freeze` argument inside S-3's domain (largest: the deferred sum, |Σ| <= 3 492 990), equal canonical outputs",
        domain: "every f with |f_i| <= q12 and g with |g_i| <= 2",
        mutant: Mutant::Plants(&[
            Planted::new(
                "sntrup761-rq-deferred-skips-the-first-product",
                "differs mod 4591",
            ),
            Planted::new(
                "sntrup761-rq-wrap-drops-the-top-coefficient",
                "of both tiers is not coefficient",
            ),
            Planted::new(
                "sntrup761-rq-deferred-wipes-before-the-wrap",
                "differs mod 4591",
            ),
            Planted::new("sntrup761-acc-22bit", "a 22-bit accumulator may reach"),
            Planted::new("sntrup761-prove-freeze-unsigned", "may leave [-2295, 2295]"),
        ]),
        cheap: true,
        needs_smt: false,
        check: rq_mult_small_equal,
    },
    Obligation {
        id: "S-7b",
        optimization: Optimization::Sntrup761Deferred,
        statement: "deferred `R3_mult` = the reference, coefficient for coefficient",
        method: "symbolic evaluation of both shipped kernels over exact forms mod 3 with intervals: the i32 sum (|Σ| <= 3044) truncates to i16 exactly, every `F3_freeze` argument is an i16 (S-4), equal canonical outputs",
        domain: "every f, g with |f_i|, |g_i| <= 2",
        mutant: Mutant::Plants(&[
            Planted::new(
                "sntrup761-r3-deferred-drops-the-last-product",
                "differs mod 3",
            ),
            Planted::new(
                "sntrup761-r3-wrap-drops-the-top-coefficient",
                "of both tiers is not coefficient",
            ),
            Planted::new("sntrup761-r3-acc-12bit", "a 12-bit accumulator may reach"),
        ]),
        cheap: true,
        needs_smt: false,
        check: r3_mult_equal,
    },
    Obligation {
        id: "S-16",
        optimization: Optimization::Sntrup761Deferred,
        statement: "`R3_recip` and `Rq_recip3` (shared by both tiers; `Rq_recip3`'s update f0·g[i] − g0·f[i] is the widest `Fq_freeze` argument, the bound S-3's domain is sized for): every `Fq_freeze` argument inside S-3's domain, every `f3_freeze_sum` argument in [−2, 2] (where it equals `F3_freeze`), no i8/i16/i32 overflow, outputs canonical",
        method: "abstract interpretation of both shipped reciprocals (`r3_recip_over`, `rq_recip3_over`) over intervals, a swap decision being either mask (both places of a swap then hold either value), so one run covers every sequence of the 2p − 1 decisions; the machine masks, swaps and δ update checked exhaustively on the values the run gives them",
        domain: "every input of i8 coefficients, every sequence of swap decisions",
        mutant: Mutant::Plants(&[
            Planted::new(
                "sntrup761-r3-recip-loads-unfrozen",
                "an i32 truncated to i8 may reach",
            ),
            Planted::new(
                "sntrup761-prove-freeze-unsigned",
                "a swapped Fq value may reach",
            ),
        ]),
        cheap: true,
        needs_smt: false,
        check: recips_in_range,
    },
];
