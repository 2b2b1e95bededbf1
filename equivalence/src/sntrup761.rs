//! sntrup761 pairs and variants (optimizations 1 and 2: libgcrypt patches 06/10 and
//! 07/10).
//!
//! Variants replay the patch series on the one protocol implementation in
//! [`reference::sntrup761`]:
//!
//! | variant | kernels | reproduces |
//! |---|---|---|
//! | `reference` | [`Reference`]: 761 × 4-byte draws, freeze per multiply-add | `kat0-sntrup761-urandom32.txt` |
//! | `batched-rng` | [`BatchedRng`]: one 3044-byte draw (patch 06) | `kat0-sntrup761.txt` (bulk) |
//! | `optimized` | [`Optimized`]: batched draw + deferred reduction (patch 07) | `kat0-sntrup761.txt` (bulk) |
//!
//! Pairs:
//! * `sntrup761/rq-mult-small`, `sntrup761/r3-mult` (kernel): per-step against
//!   deferred reduction on libgcrypt's adversarial patterns, random inputs, and
//!   |g| <= 2 (what arbitrary secret-key bytes decode to).
//! * `sntrup761/short-random`, `sntrup761/small-random` (kernel): per-coefficient
//!   against batched draws from the same seed of a source picked by the selector;
//!   declares [`CALL_BOUNDARY_INVARIANT_RNG`].
//! * `sntrup761/<left>-vs-<right>/<source>` (API): the same seed for both sides gives
//!   identical pk, sk, ct, ss, decapsulated ss and implicit-rejection ss. A pair whose
//!   sides draw differently (reference against a batched variant) declares the
//!   [`CALL_BOUNDARY_INVARIANT_RNG`] precondition; under NIST's CTR-DRBG it reports
//!   [`Outcome::PreconditionNotMet`] with the first difference as detail.

use reference::RandomSource;
use reference::drbg::NistDrbg;
use reference::rng::{ChaCha20Source, Replay, Shake256Source, Tape};
use reference::sntrup761::{
    self as r, CIPHERTEXT_BYTES, Fq, Kernels, KeyPair, P, Q12, Reference, Small, W,
};

use optimized::sntrup761::{BatchedRng, Optimized};

use crate::kat::{KatKem, KatScheme};
use crate::pair::{
    Bound, Exposure, Input, Level, Mismatch, Outcome, Pair, Precondition, Sides, i16_bytes, pattern,
};

/// The sntrup761 variants, by name, in patch order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Before patch 06: per-coefficient draws, per-step reduction.
    Reference,
    /// After patch 06: one draw per polynomial.
    BatchedRng,
    /// After patch 07: one draw per polynomial and deferred reduction.
    Optimized,
}

impl Variant {
    /// Every variant, in patch order.
    pub const ALL: [Variant; 3] = [Variant::Reference, Variant::BatchedRng, Variant::Optimized];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Reference => "reference",
            Variant::BatchedRng => "batched-rng",
            Variant::Optimized => "optimized",
        }
    }

    /// Looks a variant up by name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }

    /// The KEM this variant runs, for [`Pair::sides`].
    pub fn kem_name(self) -> &'static str {
        match self {
            Variant::Reference => "sntrup761 KEM over reference::sntrup761::Reference",
            Variant::BatchedRng => "sntrup761 KEM over optimized::sntrup761::BatchedRng",
            Variant::Optimized => "sntrup761 KEM over optimized::sntrup761::Optimized",
        }
    }

    /// Whether the variant draws each polynomial as one 3044-byte call.
    pub fn batches_draws(self) -> bool {
        !matches!(self, Variant::Reference)
    }

    /// The count-0 KAT file (in the vectors directory) this variant reproduces under
    /// the NIST driver: the draw convention decides which.
    pub fn kat0_file(self) -> &'static str {
        if self.batches_draws() {
            "kat0/kat0-sntrup761.txt"
        } else {
            "kat0/kat0-sntrup761-urandom32.txt"
        }
    }

    /// KEM_KeyGen.
    ///
    /// # Panics
    /// On a broken source: 64 draws of g in a row not invertible mod 3
    /// ([`reference::sntrup761::kem::MAX_G_DRAWS`]).
    pub fn keypair(self, rng: &mut dyn RandomSource) -> KeyPair {
        match self {
            Variant::Reference => r::keypair::<Reference, _>(rng),
            Variant::BatchedRng => r::keypair::<BatchedRng, _>(rng),
            Variant::Optimized => r::keypair::<Optimized, _>(rng),
        }
    }

    /// KEM_Encap.
    ///
    /// # Errors
    /// As [`reference::sntrup761::encapsulate`].
    pub fn encapsulate(
        self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, reference::SharedSecret), reference::Error> {
        match self {
            Variant::Reference => r::encapsulate::<Reference, _>(pk, rng),
            Variant::BatchedRng => r::encapsulate::<BatchedRng, _>(pk, rng),
            Variant::Optimized => r::encapsulate::<Optimized, _>(pk, rng),
        }
    }

    /// KEM_Decap.
    ///
    /// # Errors
    /// As [`reference::sntrup761::decapsulate`].
    pub fn decapsulate(
        self,
        sk: &[u8],
        ct: &[u8],
    ) -> Result<reference::SharedSecret, reference::Error> {
        match self {
            Variant::Reference => r::decapsulate::<Reference>(sk, ct),
            Variant::BatchedRng => r::decapsulate::<BatchedRng>(sk, ct),
            Variant::Optimized => r::decapsulate::<Optimized>(sk, ct),
        }
    }
}

/// The precondition of optimization 1.
pub const CALL_BOUNDARY_INVARIANT_RNG: Precondition = Precondition {
    name: "call-boundary-invariant-rng",
    description: "the random source must deliver bytes that depend only on how many bytes \
                  were drawn, not on how the draws were split into calls (ChaCha20 and \
                  SHAKE-256 streams are; NIST's CTR-DRBG re-keys after every call and is \
                  not): only then do 761 draws of 4 bytes equal one draw of 3044 bytes",
};

// ---------------------------------------------------------------------------
// Kernel pairs

/// The multiplication input patterns, derived from the kernels' declared bounds
/// (|f| <= `fmax`, |g| <= 2): every sign combination of f at ±fmax with g at ±2 and
/// ±1 (the accumulator's two extremes come from equal and opposite signs), libgcrypt's
/// t-sntrup761 patterns, canonical and non-canonical random inputs.
const MULT_PATTERNS: [&str; 15] = [
    "f = +fmax, g = +2",
    "f = -fmax, g = -2",
    "f = +fmax, g = -2",
    "f = -fmax, g = +2",
    "f = +fmax, g = +1",
    "f = -fmax, g = -1",
    "f = +fmax, g = -1",
    "alternating signs",
    "single nonzero at p-1",
    "g with only g0 and g_{p-1}",
    "random weight-w g",
    "|g| <= 2 (arbitrary secret-key bytes)",
    "mixed signs at the bound, |g| = 2",
    "zeros",
    "random",
];

/// Decodes a multiplication case with |f| <= `fmax`: the selector picks one of
/// [`MULT_PATTERNS`]; random values are read from the input (two bytes per f
/// coefficient, one per g coefficient).
fn mult_inputs(input: &[u8], fmax: i16) -> ([Fq; P], [Small; P]) {
    let mut g = Input::new(input);
    let rand_f = |g: &mut Input<'_>| g.range(-i64::from(fmax), i64::from(fmax)) as Fq;
    let rand_small = |g: &mut Input<'_>, m: i64| g.range(-m, m) as Small;
    let mut f = [0 as Fq; P];
    let mut s = [0 as Small; P];
    match pattern(g.selector(), MULT_PATTERNS.len()) {
        0 => {
            f.fill(fmax);
            s.fill(2);
        }
        1 => {
            f.fill(-fmax);
            s.fill(-2);
        }
        2 => {
            f.fill(fmax);
            s.fill(-2);
        }
        3 => {
            f.fill(-fmax);
            s.fill(2);
        }
        4 => {
            f.fill(fmax);
            s.fill(1);
        }
        5 => {
            f.fill(-fmax);
            s.fill(-1);
        }
        6 => {
            f.fill(fmax);
            s.fill(-1);
        }
        7 => {
            for (i, (x, y)) in f.iter_mut().zip(s.iter_mut()).enumerate() {
                (*x, *y) = if i & 1 == 0 { (fmax, 1) } else { (-fmax, -1) };
            }
        }
        8 => {
            f[P - 1] = fmax;
            s[P - 1] = 1;
        }
        9 => {
            f.iter_mut().for_each(|x| *x = rand_f(&mut g));
            s[0] = 1;
            s[P - 1] = -1;
        }
        10 => {
            f.iter_mut().for_each(|x| *x = rand_f(&mut g));
            // Random weight-w g: w distinct positions, random signs.
            let mut placed = 0;
            while placed < W {
                let i = g.below(P as u64) as usize;
                if s[i] == 0 {
                    s[i] = if g.bit() { 1 } else { -1 };
                    placed += 1;
                } else if g.remaining() == 0 {
                    // Past the end of a short input every read is zero: fill in order.
                    if let Some(z) = s.iter_mut().find(|z| **z == 0) {
                        *z = 1;
                        placed += 1;
                    }
                }
            }
        }
        11 => {
            f.iter_mut().for_each(|x| *x = rand_f(&mut g));
            s.iter_mut().for_each(|x| *x = rand_small(&mut g, 2));
        }
        12 => {
            for (x, y) in f.iter_mut().zip(s.iter_mut()) {
                *x = if g.bit() { fmax } else { -fmax };
                *y = if g.bit() { 2 } else { -2 };
            }
        }
        13 => {}
        _ => {
            f.iter_mut().for_each(|x| *x = rand_f(&mut g));
            s.iter_mut().for_each(|x| *x = rand_small(&mut g, 1));
        }
    }
    (f, s)
}

/// The column sums Σ_j f\[j\]·g\[i−j\] (i < 2p − 1) of f·g in Z\[x\], exact for
/// every input the multiplication pairs decode (|f\[i\]| <= q12 = 2295,
/// |g\[i\]| <= 2): a sum is at most 761 · 2295 · 2 = 3 492 990 in size, and the
/// fold of [`exact_product_mod`] adds two, 6 986 980 < 2^31, so the wrapping `i32`
/// operations (which keep the loop vectorized under overflow checks) never wrap.
fn column_sums(f: &[i16], g: &[Small]) -> Vec<i32> {
    debug_assert!(f.len() == P && g.len() == P);
    let mut col = vec![0i32; 2 * P - 1];
    schoolbook_add(f, g, &mut col);
    col
}

/// `out[i + j] += a[i]·b[j]` for every i, j, in wrapping `i32` (`out` at least
/// a.len() + b.len() − 1 long): the schoolbook product of [`column_sums`] and of
/// [`karatsuba`]'s short operands. The callers argue why nothing wraps.
fn schoolbook_add<A, B>(a: &[A], b: &[B], out: &mut [i32])
where
    A: Copy + Into<i32>,
    B: Copy + Into<i32>,
{
    for (i, &x) in a.iter().enumerate() {
        let x: i32 = x.into();
        for (o, &y) in out[i..i + b.len()].iter_mut().zip(b) {
            *o = o.wrapping_add(x.wrapping_mul(y.into()));
        }
    }
}

/// Below this length [`karatsuba`] multiplies by schoolbook.
const KARATSUBA_CUTOFF: usize = 96;

/// The column sums of a·b in Z\[x\] (`a` and `b` of one length n >= 1) into `out`
/// (length 2n − 1): [`column_sums`] by Karatsuba's three half-length products,
/// schoolbook from [`KARATSUBA_CUTOFF`] down (761 → 381 → 191 → 96: 27 products of
/// length 96, 43 % of the schoolbook's multiplications).
///
/// Exact in `i32` for every input the multiplication pairs decode (|a\[i\]| <= q12 =
/// 2295, |b\[i\]| <= 2): at recursion depth d the operands are sums of at most 2^d
/// coefficients and a column sum of length n has at most n terms, so every product
/// column is at most n·4^d·2295·2 in size, the largest at the deepest level
/// (96·64·4590 = 28 200 960), and a recombination adds three of them, under 2^27: the
/// wrapping operations (which keep the loops vectorized under overflow checks, as
/// the fuzz build has them in this crate) never wrap. The test checks the result
/// against `i64` column sums on the decoder's extremes.
fn karatsuba(a: &[i32], b: &[i32], out: &mut [i32]) {
    let n = a.len();
    debug_assert!(n >= 1 && b.len() == n && out.len() == 2 * n - 1);
    out.fill(0);
    if n <= KARATSUBA_CUTOFF {
        schoolbook_add(a, b, out);
        return;
    }
    // a = a0 + x^m·a1, b = b0 + x^m·b1, the high halves padded to length m.
    let m = n.div_ceil(2);
    let high = |v: &[i32]| {
        let mut h = v[m..].to_vec();
        h.resize(m, 0);
        h
    };
    let (a0, a1, b0, b1) = (&a[..m], high(a), &b[..m], high(b));
    let sum = |u: &[i32], v: &[i32]| -> Vec<i32> {
        u.iter().zip(v).map(|(x, y)| x.wrapping_add(*y)).collect()
    };
    let mut z0 = vec![0; 2 * m - 1];
    let mut z1 = vec![0; 2 * m - 1];
    let mut z2 = vec![0; 2 * m - 1];
    karatsuba(a0, b0, &mut z0);
    karatsuba(&a1, &b1, &mut z2);
    karatsuba(&sum(a0, &a1), &sum(b0, &b1), &mut z1);
    // a·b = z0 + x^m·(z1 − z0 − z2) + x^(2m)·z2. With n > 96, 3m − 2 <= 2n − 2, and
    // the columns of z2 past 2n − 2 − 2m are products of the padding: zero.
    for (o, z) in out.iter_mut().zip(&z0) {
        *o = o.wrapping_add(*z);
    }
    for (o, ((z, x), y)) in out[m..].iter_mut().zip(z1.iter().zip(&z0).zip(&z2)) {
        *o = o.wrapping_add(z.wrapping_sub(*x).wrapping_sub(*y));
    }
    for (o, z) in out[2 * m..].iter_mut().zip(&z2) {
        *o = o.wrapping_add(*z);
    }
}

/// The extremes of every column sum (the accumulator of the deferred kernels, before
/// any reduction).
fn column_extremes(f: &[i16], g: &[Small]) -> (i128, i128) {
    let col = column_sums(f, g);
    let lo = col.iter().copied().min().unwrap_or(0);
    let hi = col.iter().copied().max().unwrap_or(0);
    (i128::from(lo), i128::from(hi))
}

/// Reports the coefficient and accumulator extremes of a multiplication case.
fn observe_mult(f: &[i16], s: &[Small], seen: &mut dyn FnMut(&'static str, i128)) {
    for &x in f {
        seen("f[i]", i128::from(x));
    }
    for &y in s {
        seen("g[i]", i128::from(y));
    }
    let (lo, hi) = column_extremes(f, s);
    seen("Σ f[j]·g[i−j]", lo);
    seen("Σ f[j]·g[i−j]", hi);
}

const RQ_BOUNDS: &[Bound] = &[
    Bound::range("f[i]", -(Q12 as i128), Q12 as i128),
    Bound::with_points("g[i]", -2, 2, &[-1, 0, 1]),
    Bound::range(
        "Σ f[j]·g[i−j]",
        -(optimized::sntrup761::poly::RQ_ACC_BOUND as i128),
        optimized::sntrup761::poly::RQ_ACC_BOUND as i128,
    ),
];

const R3_BOUNDS: &[Bound] = &[
    Bound::with_points("f[i]", -2, 2, &[-1, 0, 1]),
    Bound::with_points("g[i]", -2, 2, &[-1, 0, 1]),
    Bound::range(
        "Σ f[j]·g[i−j]",
        -(optimized::sntrup761::poly::R3_ACC_BOUND as i128),
        optimized::sntrup761::poly::R3_ACC_BOUND as i128,
    ),
];

/// The product f·g in Z\[x\]/(x^p − x − 1) computed exactly, every coefficient
/// then reduced to its centred representative mod `m` (q or 3): the unique value the
/// per-step reference returns, computed without its p² freezes (the fuzz targets'
/// oracle, [`Pair::run_fuzz`]). It shares no code with the deferred kernels.
///
/// Exact for every input the pairs decode (see [`column_sums`], [`karatsuba`]).
fn exact_product_mod(f: &[i16; P], g: &[Small; P], m: i32) -> [i32; P] {
    let mut col = vec![0; 2 * P - 1];
    karatsuba(&f.map(i32::from), &g.map(i32::from), &mut col);
    // x^c = x^(c−p+1) + x^(c−p) for c >= p; c − p + 1 < p, so one pass from the top.
    for c in (P..2 * P - 1).rev() {
        let v = col[c];
        col[c - P] = col[c - P].wrapping_add(v);
        col[c - P + 1] = col[c - P + 1].wrapping_add(v);
    }
    core::array::from_fn(|i| {
        let r = col[i].rem_euclid(m);
        if r > m / 2 { r - m } else { r }
    })
}

/// A tier as the fuzz targets run it: `D`'s draws, with `Rq_mult_small` and `R3_mult`
/// computed exactly instead of frozen after every multiply-add: each coefficient of
/// the product modulo x^p − x − 1 as one `i32` column sum (by Karatsuba), reduced once
/// (the private `exact_product_mod`). Both give the unique canonical product for every input
/// meeting the kernel preconditions (|f| <= q12 or 2, |g| <= 2), which the decoders
/// guarantee inside `decapsulate`; `cargo test` checks the two agree
/// (`exact_products_decapsulate_as_the_reference`, `api_pairs_agree_with_exact_products`).
/// `ExactProducts` (the reference's draws) is the reference tier of the fuzz targets
/// `sntrup761_mult`, `sntrup761_decaps` and `sntrup761_api`; [`BatchedExactProducts`]
/// the batched-rng tier of the last. The per-step products were most of their time.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactProducts<D = Reference>(core::marker::PhantomData<D>);

/// The batched-rng tier as the `sntrup761_api` fuzz target runs it: [`BatchedRng`]'s
/// one-call draws (patch 06) with exact products. Against [`ExactProducts`] it
/// isolates patch 06 as `reference-vs-batched-rng` does; against [`Optimized`], patch
/// 07.
pub type BatchedExactProducts = ExactProducts<BatchedRng>;

impl<D: Kernels> Kernels for ExactProducts<D> {
    fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
        D::draw_words(rng)
    }
    fn rq_mult_small(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
        let e = exact_product_mod(f, g, r::Q);
        // Centred mod q: |e[i]| <= q12 < 2^15.
        h.iter_mut().zip(e).for_each(|(h, e)| *h = e as Fq);
    }
    fn r3_mult(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
        let f = f.map(i16::from);
        let e = exact_product_mod(&f, g, 3);
        h.iter_mut().zip(e).for_each(|(h, e)| *h = e as Small);
    }
}

/// How the tiers that keep the reference's multiplications (reference, batched-rng)
/// compute them in [`transcript_with`] and [`run_api_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Products {
    /// As shipped: a freeze after every multiply-add (`cargo test`, `refopt check`).
    PerStep,
    /// [`ExactProducts`]: the same unique canonical products, computed exactly (the
    /// `sntrup761_api` fuzz target; the per-step products were most of its time).
    Exact,
}

/// `Rq_mult_small`: freeze after every multiply-add against one freeze per output
/// coefficient, on every corner of |f| <= q12, |g| <= 2.
struct RqMultSmall;

impl RqMultSmall {
    /// The optimized kernel against `K`'s ([`Reference`]; fuzzing: [`ExactProducts`]).
    fn check<K: Kernels>(input: &[u8]) -> Outcome {
        let (f, s) = mult_inputs(input, Q12 as Fq);
        let mut a = [0; P];
        let mut b = [0; P];
        K::rq_mult_small(&mut a, &f, &s);
        Optimized::rq_mult_small(&mut b, &f, &s);
        Outcome::contract("is_rq(h) (optimized)", r::is_rq(&b))
            .and(|| Outcome::compare([("h", i16_bytes(&a).as_slice(), i16_bytes(&b).as_slice())]))
    }
}

impl Pair for RqMultSmall {
    fn name(&self) -> &'static str {
        "sntrup761/rq-mult-small"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn sides(&self) -> Sides {
        Sides::new(
            "reference::sntrup761::poly::rq_mult_small_per_step (Fq_freeze after every multiply-add)",
            "optimized::sntrup761::poly::rq_mult_small_deferred (i32 column sums, one Fq_freeze each)",
        )
    }
    fn bounds(&self) -> &'static [Bound] {
        RQ_BOUNDS
    }
    fn default_cases(&self) -> usize {
        300
    }
    fn input_len(&self) -> usize {
        1 + 3 * P + 2 * W
    }
    fn run(&self, input: &[u8]) -> Outcome {
        Self::check::<Reference>(input)
    }
    /// Fuzzing compares with [`ExactProducts`] (the same canonical product as the
    /// per-step reference, whose 579 121 freezes cost 4 ms a case).
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        Self::check::<ExactProducts>(input)
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let (f, s) = mult_inputs(input, Q12 as Fq);
        observe_mult(&f, &s, seen);
    }
}

/// `R3_mult`: as [`RqMultSmall`] in R3, |f|, |g| <= 2.
struct R3Mult;

impl R3Mult {
    fn inputs(input: &[u8]) -> ([Small; P], [Small; P]) {
        let (f, s) = mult_inputs(input, 2);
        (f.map(|x| x as Small), s)
    }

    /// The optimized kernel against `K`'s ([`Reference`]; fuzzing: [`ExactProducts`]).
    fn check<K: Kernels>(input: &[u8]) -> Outcome {
        let (e, s) = Self::inputs(input);
        let mut a = [0; P];
        let mut b = [0; P];
        K::r3_mult(&mut a, &e, &s);
        Optimized::r3_mult(&mut b, &e, &s);
        let ab: Vec<u8> = a.iter().map(|&x| x as u8).collect();
        let bb: Vec<u8> = b.iter().map(|&x| x as u8).collect();
        Outcome::contract("is_small(h) (optimized)", r::is_small(&b))
            .and(|| Outcome::compare([("h", ab.as_slice(), bb.as_slice())]))
    }
}

impl Pair for R3Mult {
    fn name(&self) -> &'static str {
        "sntrup761/r3-mult"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn sides(&self) -> Sides {
        Sides::new(
            "reference::sntrup761::poly::r3_mult_per_step (F3_freeze after every multiply-add)",
            "optimized::sntrup761::poly::r3_mult_deferred (column sums, one F3_freeze each)",
        )
    }
    fn bounds(&self) -> &'static [Bound] {
        R3_BOUNDS
    }
    fn default_cases(&self) -> usize {
        300
    }
    fn input_len(&self) -> usize {
        1 + 3 * P + 2 * W
    }
    fn run(&self, input: &[u8]) -> Outcome {
        Self::check::<Reference>(input)
    }
    /// Fuzzing compares with [`ExactProducts`], as for `Rq_mult_small`.
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        Self::check::<ExactProducts>(input)
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let (e, s) = Self::inputs(input);
        observe_mult(&e.map(i16::from), &s, seen);
    }
}

/// Which randomness kernel a [`Draw`] pair compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DrawKernel {
    Short,
    Small,
}

/// `Short_random` / `Small_random`: per-coefficient (reference) against one
/// 3044-byte draw (patch 06), both reading a fresh source of the same seed. The
/// selector picks the source (ChaCha20, SHAKE-256, NIST DRBG); under the DRBG the
/// declared precondition does not hold and a difference is reported as such.
struct Draw(DrawKernel, &'static str);

impl Pair for Draw {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn sides(&self) -> Sides {
        match self.0 {
            DrawKernel::Short => Sides::new(
                "reference::sntrup761::random::short_random (761 draws of 4 bytes)",
                "optimized::sntrup761::random::short_random_batched (one draw of 3044 bytes)",
            ),
            DrawKernel::Small => Sides::new(
                "reference::sntrup761::random::small_random (761 draws of 4 bytes)",
                "optimized::sntrup761::random::small_random_batched (one draw of 3044 bytes)",
            ),
        }
    }
    fn preconditions(&self) -> &'static [Precondition] {
        &WITH_PRECONDITION
    }
    fn default_cases(&self) -> usize {
        300
    }
    fn input_len(&self) -> usize {
        1 + 48
    }
    fn run(&self, input: &[u8]) -> Outcome {
        self.check(input, ShortFromlist::Network)
    }
    /// As [`Pair::run`], but the reference `Short_random`'s words (drawn as the
    /// reference draws them) are sorted by [`short_fromlist_by_sort`] instead of the
    /// reference's sorting network: the sorted list is unique, so the polynomial is
    /// the reference's, at the cost of one network sort instead of two.
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        self.check(input, ShortFromlist::Sort)
    }
}

/// Short_fromlist as the NTRU Prime specification states it, with an ordinary
/// (variable-time) sort: the first w words tagged even, the rest `(L & ~3) | 1`,
/// sorted, each coefficient (L mod 4) − 1. The fuzzing oracle of the `Short_random`
/// pair (`Pair::run_fuzz`): it shares no code with either tier's sorting network.
/// Test data only, never secrets: the sort branches on the words.
fn short_fromlist_by_sort(words: &[u32; P]) -> [Small; P] {
    let mut l: [u32; P] = core::array::from_fn(|i| {
        if i < W {
            words[i] & !1
        } else {
            (words[i] & !3) | 1
        }
    });
    l.sort_unstable();
    core::array::from_fn(|i| (l[i] & 3) as Small - 1)
}

/// How the reference side of the `Short_random` pair turns its words into a
/// polynomial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ShortFromlist {
    /// The reference tier's own `Short_random` (its sorting network): the default run.
    Network,
    /// [`short_fromlist_by_sort`] on the reference tier's words: fuzzing.
    Sort,
}

/// Which tier's polynomial a [`Draw`] pair draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DrawTier {
    /// The reference tier's, 761 draws of 4 bytes; its `Short_fromlist` sorts as
    /// given.
    Reference(ShortFromlist),
    /// The batched tier's (patch 06), one draw of 3044 bytes.
    Batched,
}

impl Draw {
    /// The pair's check; `reference_sort` says how the reference side of
    /// `Short_random` sorts (`Small_random` has one way).
    fn check(&self, input: &[u8], reference_sort: ShortFromlist) -> Outcome {
        let mut g = Input::new(input);
        let source = Source::ALL[pattern(g.selector(), 3)];
        let seed = g.array::<48>();
        let mut ra = Tape::new(source.make(&seed));
        let mut rb = source.make(&seed);
        let kind = self.0;
        /// One tier's polynomial. Generic over the source, not
        /// `&mut dyn RandomSource`, so that every draw is a direct call.
        fn draw<R: RandomSource>(kind: DrawKernel, tier: DrawTier, rng: &mut R) -> Vec<u8> {
            let mut x = [0 as Small; P];
            match (kind, tier) {
                (DrawKernel::Short, DrawTier::Reference(ShortFromlist::Sort)) => {
                    x = short_fromlist_by_sort(&r::random::draw_words_per_coefficient(rng));
                }
                (DrawKernel::Short, DrawTier::Reference(ShortFromlist::Network)) => {
                    Reference::short_random(&mut x, rng)
                }
                (DrawKernel::Short, DrawTier::Batched) => BatchedRng::short_random(&mut x, rng),
                (DrawKernel::Small, DrawTier::Reference(_)) => Reference::small_random(&mut x, rng),
                (DrawKernel::Small, DrawTier::Batched) => BatchedRng::small_random(&mut x, rng),
            }
            x.iter().map(|&c| c as u8).collect()
        }
        let a = draw(kind, DrawTier::Reference(reference_sort), &mut ra);
        let b = draw(kind, DrawTier::Batched, &mut rb);
        let mut drawn = [0 as Small; P];
        drawn.iter_mut().zip(&b).for_each(|(d, &x)| *d = x as Small);
        let contract = match kind {
            DrawKernel::Short => Outcome::contract("is_short (batched)", r::is_short(&drawn)),
            DrawKernel::Small => Outcome::contract("is_small (batched)", r::is_small(&drawn)),
        };
        if !contract.is_equal() {
            return contract;
        }
        match Outcome::compare([("poly", a.as_slice(), b.as_slice())]) {
            Outcome::Mismatch(m) if !ra.is_call_boundary_invariant() => {
                // The same bytes as one stream must give the same polynomial.
                let mut replay = Replay::new(ra.bytes().to_vec());
                let b2 = draw(kind, DrawTier::Batched, &mut replay);
                if replay.overrun() || replay.remaining() != 0 {
                    return Outcome::compare([(
                        "bytes drawn",
                        &ra.bytes().len().to_le_bytes()[..],
                        &(ra.bytes().len() - replay.remaining()).to_le_bytes()[..],
                    )]);
                }
                match Outcome::compare([("poly (replayed stream)", a.as_slice(), b2.as_slice())]) {
                    Outcome::Equal => Outcome::PreconditionNotMet {
                        which: CALL_BOUNDARY_INVARIANT_RNG.name,
                        detail: format!(
                            "{} is not call-boundary invariant: 761 draws of 4 bytes and one \
                             of 3044 bytes give different polynomials ({m}); the same bytes \
                             as one stream give the same polynomial",
                            source.name()
                        ),
                    },
                    other => other,
                }
            }
            o => o,
        }
    }
}

/// The random source a pair drives both sides with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// ChaCha20 keystream (call-boundary invariant).
    ChaCha20,
    /// SHAKE-256 output stream (call-boundary invariant).
    Shake256,
    /// NIST AES-256-CTR-DRBG (re-keys after every call: not invariant).
    NistDrbg,
}

impl Source {
    /// Every source.
    pub const ALL: [Source; 3] = [Source::ChaCha20, Source::Shake256, Source::NistDrbg];

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Source::ChaCha20 => "chacha20",
            Source::Shake256 => "shake256",
            Source::NistDrbg => "nist-drbg",
        }
    }

    /// A fresh source seeded by 48 bytes (ChaCha20: the first 32).
    pub fn make(self, seed: &[u8; 48]) -> Seeded {
        match self {
            Source::ChaCha20 => {
                Seeded::ChaCha20(ChaCha20Source::new(core::array::from_fn(|i| seed[i])))
            }
            Source::Shake256 => Seeded::Shake256(Shake256Source::new(seed)),
            Source::NistDrbg => Seeded::NistDrbg(NistDrbg::new(seed, None)),
        }
    }
}

/// A fresh source of one [`Source`] kind ([`Source::make`]). Each draw picks its
/// generator by `match`, so code generic over [`RandomSource`] calls it without a
/// vtable: the reference `Short_random` and `Small_random` draw 761 times a
/// polynomial (the `sntrup761_draws` fuzz target spent 11 % of its time tracing
/// those indirect calls when this was a `Box<dyn RandomSource>`).
pub enum Seeded {
    /// [`Source::ChaCha20`].
    ChaCha20(ChaCha20Source),
    /// [`Source::Shake256`].
    Shake256(Shake256Source),
    /// [`Source::NistDrbg`].
    NistDrbg(NistDrbg),
}

impl core::fmt::Debug for Seeded {
    /// The kind only: the generator's state is the seed's.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kind = match self {
            Seeded::ChaCha20(_) => Source::ChaCha20,
            Seeded::Shake256(_) => Source::Shake256,
            Seeded::NistDrbg(_) => Source::NistDrbg,
        };
        f.debug_tuple("Seeded").field(&kind.name()).finish()
    }
}

impl RandomSource for Seeded {
    fn fill(&mut self, dst: &mut [u8]) {
        match self {
            Seeded::ChaCha20(s) => s.fill(dst),
            Seeded::Shake256(s) => s.fill(dst),
            Seeded::NistDrbg(s) => s.fill(dst),
        }
    }
    fn is_call_boundary_invariant(&self) -> bool {
        match self {
            Seeded::ChaCha20(s) => s.is_call_boundary_invariant(),
            Seeded::Shake256(s) => s.is_call_boundary_invariant(),
            Seeded::NistDrbg(s) => s.is_call_boundary_invariant(),
        }
    }
}

/// Everything one variant outputs for one seed: pk, sk, ct, ss, ss from decap, and
/// the implicit-rejection ss of a fixed random ciphertext. `Debug` shows pk and ct
/// only (the lengths of the rest); compare with [`compare_transcripts`].
#[derive(Clone, PartialEq, Eq)]
pub struct Transcript {
    /// Public key.
    pub pk: Vec<u8>,
    /// Secret key.
    pub sk: Vec<u8>,
    /// Ciphertext.
    pub ct: Vec<u8>,
    /// Session key from encapsulation.
    pub ss: Vec<u8>,
    /// Session key from decapsulating `ct`.
    pub ss_dec: Vec<u8>,
    /// Session key from decapsulating the random ciphertext.
    pub ss_rej: Vec<u8>,
}

impl Drop for Transcript {
    /// sk and the session keys, taken out of the key types that would wipe them.
    fn drop(&mut self) {
        for v in [
            &mut self.sk,
            &mut self.ss,
            &mut self.ss_dec,
            &mut self.ss_rej,
        ] {
            reference::ct::wipe_vec(v);
        }
    }
}

impl core::fmt::Debug for Transcript {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let secret = |v: &[u8]| format!("<{} secret bytes>", v.len());
        f.debug_struct("Transcript")
            .field("pk", &hex::encode(&self.pk))
            .field("sk", &secret(&self.sk))
            .field("ct", &hex::encode(&self.ct))
            .field("ss", &secret(&self.ss))
            .field("ss_dec", &secret(&self.ss_dec))
            .field("ss_rej", &secret(&self.ss_rej))
            .finish()
    }
}

/// keypair, encap, decap, and decap of `bad_ct`, all drawing from one source.
///
/// # Panics
/// If `bad_ct` is not 1039 bytes, or if the KEM rejects its own key or ciphertext
/// (a bug, which the lab wants to see).
pub fn transcript(v: Variant, rng: &mut dyn RandomSource, bad_ct: &[u8]) -> Transcript {
    transcript_with(v, Products::PerStep, rng, bad_ct)
}

/// [`transcript`] with the reference and batched-rng tiers' products computed as
/// `products` says (the optimized tier's are its own).
///
/// # Panics
/// As [`transcript`].
pub fn transcript_with(
    v: Variant,
    products: Products,
    rng: &mut dyn RandomSource,
    bad_ct: &[u8],
) -> Transcript {
    match (v, products) {
        (Variant::Reference, Products::PerStep) => transcript_of::<Reference>(rng, bad_ct),
        (Variant::Reference, Products::Exact) => transcript_of::<ExactProducts>(rng, bad_ct),
        (Variant::BatchedRng, Products::PerStep) => transcript_of::<BatchedRng>(rng, bad_ct),
        (Variant::BatchedRng, Products::Exact) => {
            transcript_of::<BatchedExactProducts>(rng, bad_ct)
        }
        (Variant::Optimized, _) => transcript_of::<Optimized>(rng, bad_ct),
    }
}

/// [`transcript`] over the kernels `K`.
fn transcript_of<K: Kernels>(rng: &mut dyn RandomSource, bad_ct: &[u8]) -> Transcript {
    let kp = r::keypair::<K, _>(rng);
    let (ct, ss) =
        r::encapsulate::<K, _>(kp.pk(), rng).expect("a generated public key has the right length");
    let ss_dec = r::decapsulate::<K>(kp.sk(), &ct).expect("lengths are right");
    let ss_rej = r::decapsulate::<K>(kp.sk(), bad_ct).expect("lengths are right");
    Transcript {
        pk: kp.pk().to_vec(),
        sk: kp.sk().to_vec(),
        ct,
        ss: ss.as_bytes().to_vec(),
        ss_dec: ss_dec.as_bytes().to_vec(),
        ss_rej: ss_rej.as_bytes().to_vec(),
    }
}

/// Compares two transcripts field by field, after checking each on its own:
/// decapsulating its own ciphertext gave the key it encapsulated (the protocol code
/// every tier shares, which the comparison cannot see, included).
pub fn compare_transcripts(a: &Transcript, b: &Transcript) -> Outcome {
    let round_trip = |side: &str, t: &Transcript| {
        Outcome::contract(
            &format!("Decap(sk, c) = the encapsulated key ({side})"),
            t.ss == t.ss_dec,
        )
    };
    round_trip("left", a)
        .and(|| round_trip("right", b))
        .and(|| compare_fields(a, b))
}

/// The field-by-field comparison of [`compare_transcripts`].
fn compare_fields(a: &Transcript, b: &Transcript) -> Outcome {
    Outcome::compare_exposed([
        ("pk", Exposure::Public, a.pk.as_slice(), b.pk.as_slice()),
        ("sk", Exposure::Secret, &a.sk, &b.sk),
        ("ct", Exposure::Public, &a.ct, &b.ct),
        ("ss", Exposure::Secret, &a.ss, &b.ss),
        ("ss (decap)", Exposure::Secret, &a.ss_dec, &b.ss_dec),
        (
            "ss (implicit rejection)",
            Exposure::Secret,
            &a.ss_rej,
            &b.ss_rej,
        ),
    ])
}

/// Runs `left` and `right` from the same seed of `source` and compares. When the
/// variants draw differently and the source is not call-boundary invariant, a
/// difference is reported as [`Outcome::PreconditionNotMet`], not a mismatch.
pub fn run_api(left: Variant, right: Variant, source: Source, input: &[u8]) -> Outcome {
    run_api_with(left, right, Products::PerStep, source, input)
}

/// [`run_api`] with the reference and batched-rng tiers' products computed as
/// `products` says.
pub fn run_api_with(
    left: Variant,
    right: Variant,
    products: Products,
    source: Source,
    input: &[u8],
) -> Outcome {
    let mut g = Input::new(input);
    let seed = g.array::<48>();
    let mut bad_ct = vec![0u8; CIPHERTEXT_BYTES];
    g.expand(&mut bad_ct);
    let mut rl = Tape::new(source.make(&seed));
    let mut rr = source.make(&seed);
    let invariant = rl.is_call_boundary_invariant();
    let a = transcript_with(left, products, &mut rl, &bad_ct);
    let b = transcript_with(right, products, &mut rr, &bad_ct);
    match compare_transcripts(&a, &b) {
        Outcome::Mismatch(m) if !invariant && left.batches_draws() != right.batches_draws() => {
            // Evidence that the call boundaries, and nothing else, make the difference:
            // fed the very bytes the left side drew, as one stream, the right side must
            // agree exactly.
            let mut replay = Replay::new(rl.bytes().to_vec());
            let b2 = transcript_with(right, products, &mut replay, &bad_ct);
            if replay.overrun() || replay.remaining() != 0 {
                return Outcome::Mismatch(Mismatch {
                    field: "bytes drawn".into(),
                    offset: 0,
                    reference: rl.bytes().len().to_le_bytes().to_vec(),
                    optimized: (rl.bytes().len() - replay.remaining())
                        .to_le_bytes()
                        .to_vec(),
                    exposure: Exposure::Public,
                });
            }
            match compare_transcripts(&a, &b2) {
                Outcome::Equal => Outcome::PreconditionNotMet {
                    which: CALL_BOUNDARY_INVARIANT_RNG.name,
                    detail: format!(
                        "{} is not call-boundary invariant and {} draws 761 x 4 bytes where \
                         {} draws 3044 bytes per polynomial, so the outputs differ ({m}); \
                         fed the same bytes as one stream they are identical",
                        source.name(),
                        if left.batches_draws() {
                            right.name()
                        } else {
                            left.name()
                        },
                        if left.batches_draws() {
                            left.name()
                        } else {
                            right.name()
                        },
                    ),
                },
                other => other,
            }
        }
        o => o,
    }
}

struct Api {
    name: &'static str,
    left: Variant,
    right: Variant,
    source: Source,
}

static WITH_PRECONDITION: [Precondition; 1] = [CALL_BOUNDARY_INVARIANT_RNG];

impl Pair for Api {
    fn name(&self) -> &'static str {
        self.name
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn sides(&self) -> Sides {
        Sides::new(self.left.kem_name(), self.right.kem_name())
    }
    fn preconditions(&self) -> &'static [Precondition] {
        if self.left.batches_draws() != self.right.batches_draws() {
            &WITH_PRECONDITION
        } else {
            &[]
        }
    }
    fn in_default_run(&self) -> bool {
        // Under the NIST DRBG a per-coefficient side and a batched side differ on
        // every input by construction: these pairs show the precondition failing
        // (with the same-bytes replay as its evidence) and are run by name only.
        !(self.source == Source::NistDrbg
            && self.left.batches_draws() != self.right.batches_draws())
    }
    fn input_len(&self) -> usize {
        1 + 48 + 32
    }
    fn default_cases(&self) -> usize {
        // The reference keygen takes milliseconds (R3_recip, Rq_recip3, per-step
        // products): keep a default run in seconds.
        20
    }
    fn run(&self, input: &[u8]) -> Outcome {
        run_api(self.left, self.right, self.source, input)
    }
    /// As [`Pair::run`] with [`Products::Exact`]: the per-step tiers' products
    /// computed exactly, the same values (`cargo test`:
    /// `api_pairs_agree_with_exact_products`).
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        run_api_with(self.left, self.right, Products::Exact, self.source, input)
    }
}

macro_rules! api {
    ($id:ident, $name:literal, $l:ident, $r:ident, $s:ident) => {
        static $id: Api = Api {
            name: $name,
            left: Variant::$l,
            right: Variant::$r,
            source: Source::$s,
        };
    };
}
api!(
    RB_C,
    "sntrup761/reference-vs-batched-rng/chacha20",
    Reference,
    BatchedRng,
    ChaCha20
);
api!(
    RB_S,
    "sntrup761/reference-vs-batched-rng/shake256",
    Reference,
    BatchedRng,
    Shake256
);
api!(
    RB_N,
    "sntrup761/reference-vs-batched-rng/nist-drbg",
    Reference,
    BatchedRng,
    NistDrbg
);
api!(
    RO_C,
    "sntrup761/reference-vs-optimized/chacha20",
    Reference,
    Optimized,
    ChaCha20
);
api!(
    RO_S,
    "sntrup761/reference-vs-optimized/shake256",
    Reference,
    Optimized,
    Shake256
);
api!(
    RO_N,
    "sntrup761/reference-vs-optimized/nist-drbg",
    Reference,
    Optimized,
    NistDrbg
);
api!(
    BO_C,
    "sntrup761/batched-rng-vs-optimized/chacha20",
    BatchedRng,
    Optimized,
    ChaCha20
);
api!(
    BO_N,
    "sntrup761/batched-rng-vs-optimized/nist-drbg",
    BatchedRng,
    Optimized,
    NistDrbg
);

/// Every sntrup761 pair.
pub static PAIRS: &[&dyn Pair] = &[
    &RqMultSmall,
    &R3Mult,
    &Draw(DrawKernel::Short, "sntrup761/short-random"),
    &Draw(DrawKernel::Small, "sntrup761/small-random"),
    &RB_C,
    &RB_S,
    &RB_N,
    &RO_C,
    &RO_S,
    &RO_N,
    &BO_C,
    &BO_N,
];

// ---------------------------------------------------------------------------
// NIST KAT driver

/// sntrup761 as the NIST KAT driver runs it.
#[derive(Clone, Copy, Debug)]
pub struct Kat {
    /// The variant.
    pub variant: Variant,
}

impl KatKem for Kat {
    fn algname(&self) -> &'static str {
        "sntrup761"
    }
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        // The KAT file prints the key: its bytes leave the wiped key pair.
        let kp = self.variant.keypair(rng);
        (kp.pk().to_vec(), kp.sk().to_vec())
    }
    fn enc(
        &self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, Vec<u8>), reference::Error> {
        let (c, k) = self.variant.encapsulate(pk, rng)?;
        Ok((c, k.as_bytes().to_vec()))
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, reference::Error> {
        Ok(self.variant.decapsulate(sk, ct)?.as_bytes().to_vec())
    }
}

/// The count-0 KAT file (relative to the vectors directory) that `refopt kat
/// sntrup761 --variant <variant>` must reproduce, or `None` for an unknown variant.
/// The two draw conventions have two published files, so the generic
/// `kat0/kat0-<scheme>.txt` rule does not apply to sntrup761.
pub fn kat0_file(variant: &str) -> Option<&'static str> {
    Variant::from_name(variant).map(Variant::kat0_file)
}

static KAT: KatScheme = KatScheme {
    name: "sntrup761",
    variants: &["reference", "batched-rng", "optimized"],
    make: |v| Variant::from_name(v).map(|variant| Box::new(Kat { variant }) as Box<dyn KatKem>),
};

/// The sntrup761 schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[&KAT];

/// A `rand_core` 0.10 generator reading one of our sources: `next_u32` is one 4-byte
/// little-endian draw, `fill_bytes` one draw, so the `sntrup761` crate (which draws
/// each coefficient word with `next_u32`) reads the same bytes as `urandom32`.
pub struct SameStream<'a>(pub &'a mut dyn RandomSource);

impl rand_core::TryRng for SameStream<'_> {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.0.fill(&mut b);
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.0.fill(&mut b);
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for SameStream<'_> {}

/// sntrup761's implicit-rejection key Hash0(Hash3(ρ) ‖ c), where Hash_b(s) is the
/// first 32 bytes of SHA-512(b ‖ s) and ρ follows Small(f) ‖ Small(1/g) ‖ pk in the
/// secret key: written here from the specification, independently of the
/// decapsulation code, for the tests and the fuzz harness to check it against.
///
/// # Panics
/// When `sk` ends before ρ does (1731 bytes; a secret key has 1763).
pub fn rejection_key(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    use reference::sntrup761::{PUBLIC_KEY_BYTES, SMALL_BYTES};
    use sha2::{Digest, Sha512};
    let at = 2 * SMALL_BYTES + PUBLIC_KEY_BYTES;
    let rho = &sk[at..at + SMALL_BYTES];
    let hash3 = Sha512::new().chain_update([3]).chain_update(rho).finalize();
    let hash0 = Sha512::new()
        .chain_update([0])
        .chain_update(&hash3[..32])
        .chain_update(ct)
        .finalize();
    let mut out = [0u8; 32];
    out.copy_from_slice(&hash0[..32]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle's Karatsuba gives the exact (`i64`) column sums on every pattern of the
    /// multiplication pairs' decoder (all 256 selectors, among them the extremes
    /// |f| = q12 or 2 and |g| = 2 everywhere), for Rq and R3 operands.
    #[test]
    fn karatsuba_is_the_schoolbook_on_every_pattern() {
        for fmax in [Q12 as Fq, 2] {
            for sel in 0..=255u8 {
                let input: Vec<u8> = (0..1 + 3 * P + 2 * W)
                    .map(|i| {
                        if i == 0 {
                            sel
                        } else {
                            (i * 37 + usize::from(sel)) as u8
                        }
                    })
                    .collect();
                let (f, s) = mult_inputs(&input, fmax);
                let mut col = vec![0; 2 * P - 1];
                karatsuba(&f.map(i32::from), &s.map(i32::from), &mut col);
                let mut wide = vec![0i64; 2 * P - 1];
                for (i, &x) in f.iter().enumerate() {
                    for (j, &y) in s.iter().enumerate() {
                        wide[i + j] += i64::from(x) * i64::from(y);
                    }
                }
                let col: Vec<i64> = col.into_iter().map(i64::from).collect();
                assert_eq!(col, wide, "fmax {fmax}, selector {sel}");
            }
        }
    }
}
