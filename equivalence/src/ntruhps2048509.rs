//! ntruhps2048509 pairs and variants (optimization 3, jschanck/ntru PR #5).
//!
//! Kernel pairs compare inverses **after canonical reduction**: R2 inverses mod
//! (2, Φ_509), Rq inverses mod (2048, Φ_509). The raw 509-coefficient vectors
//! legitimately differ (the chain's value at x = 1 is a(1); the divstep's output is
//! the canonical representative). Products are compared mod q (their contract).
//! Every optimized kernel is compared with a reference that shares none of its code.
//!
//! * `ntruhps2048509/r2-inv/{portable,pclmul}` (kernel): the reference divstep
//!   against the chain on each carry-less multiply, canonicalized mod (2, Φ), the
//!   chain's contract r·a ≡ 1 checked.
//! * `ntruhps2048509/rq-inv/{before,optimized,optimized-portable}` (kernel): the
//!   reference `poly_Rq_inv` (divstep and schoolbook Newton) against each variant's,
//!   canonicalized mod (q, Φ).
//! * `ntruhps2048509/rq-mul/{avx2,portable}` (kernel): schoolbook against
//!   Toom-4/Karatsuba, mod q.
//! * `ntruhps2048509/r2-mul/{portable,pclmul}` (kernel): a bit-by-bit schoolbook
//!   product mod x^509 − 1 against the Karatsuba carry-less product and its fold.
//! * `ntruhps2048509/api/<variant>` (API): the same random bytes give identical pk,
//!   sk, ct, ss, decapsulated ss and implicit-rejection ss.

use reference::RandomSource;
use reference::ntruhps2048509::params::{
    CIPHERTEXT_BYTES, N, PACK_TRINARY_BYTES, PRFKEYBYTES, Q, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES,
};
use reference::ntruhps2048509::poly::{poly_mod_2_phi_n, poly_mod_q_phi_n, poly_rq_mul_columns};
use reference::ntruhps2048509::{self as ntru, Kernels, KeyPair, Poly, Reference};

use optimized::ntruhps2048509::{
    Avx2, Before, Optimized, OptimizedPortable, Pclmul, poly_r2_inv_pclmul, r2_inv,
};

use crate::kat::{KatKem, KatScheme};
use crate::pair::{
    Bound, Exposure, Input, Level, Outcome, Pair, Precondition, Sides, pattern, u16_bytes,
    u64_bytes,
};

/// The ntruhps2048509 variants, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Round-3 reference: divstep R2 inverse, schoolbook Rq_mul.
    Reference,
    /// Reference R2 inverse with the Karatsuba Rq_mul (before PR #5).
    Before,
    /// PR #5 with runtime PCLMULQDQ dispatch.
    Optimized,
    /// PR #5 on the portable carry-less multiply.
    OptimizedPortable,
}

impl Variant {
    /// Every variant, reference first.
    pub const ALL: [Variant; 4] = [
        Variant::Reference,
        Variant::Before,
        Variant::Optimized,
        Variant::OptimizedPortable,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Reference => "reference",
            Variant::Before => "before",
            Variant::Optimized => "optimized",
            Variant::OptimizedPortable => "optimized-portable",
        }
    }

    /// Looks a variant up by name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }

    /// `poly_Rq_mul` of the variant.
    pub fn poly_rq_mul(self, a: &Poly, b: &Poly) -> Poly {
        match self {
            Variant::Reference => Reference::poly_rq_mul(a, b),
            Variant::Before => Before::poly_rq_mul(a, b),
            Variant::Optimized => Optimized::poly_rq_mul(a, b),
            Variant::OptimizedPortable => OptimizedPortable::poly_rq_mul(a, b),
        }
    }

    /// `poly_R2_inv` of the variant (raw representative).
    pub fn poly_r2_inv(self, a: &Poly) -> Poly {
        match self {
            Variant::Reference => Reference::poly_r2_inv(a),
            Variant::Before => Before::poly_r2_inv(a),
            Variant::Optimized => Optimized::poly_r2_inv(a),
            Variant::OptimizedPortable => OptimizedPortable::poly_r2_inv(a),
        }
    }

    /// `poly_Rq_inv` of the variant (raw representative).
    pub fn poly_rq_inv(self, a: &Poly) -> Poly {
        match self {
            Variant::Reference => Reference::poly_rq_inv(a),
            Variant::Before => Before::poly_rq_inv(a),
            Variant::Optimized => Optimized::poly_rq_inv(a),
            Variant::OptimizedPortable => OptimizedPortable::poly_rq_inv(a),
        }
    }

    /// `crypto_kem_keypair` from its two draws.
    ///
    /// # Errors
    /// A seed that gives f = 0 ([`reference::ntruhps2048509::keypair_derand`]).
    pub fn keypair_derand(
        self,
        seed: &[u8; SAMPLE_FG_BYTES],
        prf: &[u8; PRFKEYBYTES],
    ) -> Result<KeyPair, reference::Error> {
        match self {
            Variant::Reference => ntru::keypair_derand::<Reference>(seed, prf),
            Variant::Before => ntru::keypair_derand::<Before>(seed, prf),
            Variant::Optimized => ntru::keypair_derand::<Optimized>(seed, prf),
            Variant::OptimizedPortable => ntru::keypair_derand::<OptimizedPortable>(seed, prf),
        }
    }

    /// `crypto_kem_keypair` drawing from `rng` (2413 bytes, then 32): the shipped
    /// [`reference::ntruhps2048509::keypair`].
    ///
    /// # Errors
    /// A source whose first 2413 bytes give f = 0.
    pub fn keypair(self, rng: &mut dyn RandomSource) -> Result<KeyPair, reference::Error> {
        let rng = &mut &mut *rng;
        match self {
            Variant::Reference => ntru::keypair::<Reference>(rng),
            Variant::Before => ntru::keypair::<Before>(rng),
            Variant::Optimized => ntru::keypair::<Optimized>(rng),
            Variant::OptimizedPortable => ntru::keypair::<OptimizedPortable>(rng),
        }
    }

    /// `crypto_kem_enc` drawing from `rng` (2413 bytes): the shipped
    /// [`reference::ntruhps2048509::encaps`].
    ///
    /// # Errors
    /// As [`reference::ntruhps2048509::encaps`].
    pub fn encaps(
        self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<([u8; CIPHERTEXT_BYTES], reference::SharedSecret), reference::Error> {
        let rng = &mut &mut *rng;
        match self {
            Variant::Reference => ntru::encaps::<Reference>(pk, rng),
            Variant::Before => ntru::encaps::<Before>(pk, rng),
            Variant::Optimized => ntru::encaps::<Optimized>(pk, rng),
            Variant::OptimizedPortable => ntru::encaps::<OptimizedPortable>(pk, rng),
        }
    }

    /// `crypto_kem_enc` from its draw.
    ///
    /// # Errors
    /// As [`reference::ntruhps2048509::encaps_derand`].
    pub fn encaps_derand(
        self,
        pk: &[u8],
        seed: &[u8; SAMPLE_RM_BYTES],
    ) -> Result<([u8; CIPHERTEXT_BYTES], reference::SharedSecret), reference::Error> {
        match self {
            Variant::Reference => ntru::encaps_derand::<Reference>(pk, seed),
            Variant::Before => ntru::encaps_derand::<Before>(pk, seed),
            Variant::Optimized => ntru::encaps_derand::<Optimized>(pk, seed),
            Variant::OptimizedPortable => ntru::encaps_derand::<OptimizedPortable>(pk, seed),
        }
    }

    /// `crypto_kem_dec`.
    ///
    /// # Errors
    /// As [`reference::ntruhps2048509::decaps`].
    pub fn decaps(self, sk: &[u8], c: &[u8]) -> Result<reference::SharedSecret, reference::Error> {
        match self {
            Variant::Reference => ntru::decaps::<Reference>(sk, c),
            Variant::Before => ntru::decaps::<Before>(sk, c),
            Variant::Optimized => ntru::decaps::<Optimized>(sk, c),
            Variant::OptimizedPortable => ntru::decaps::<OptimizedPortable>(sk, c),
        }
    }
}

/// The reference tier as the fuzz target `ntru_decaps` runs it: [`Reference`]'s R2
/// inverse, and as `poly_Rq_mul` the reference schoolbook's product summed in another
/// order ([`poly_rq_mul_columns`]: column sums in Z_{2^16}, folded). Z_{2^16} is a
/// ring, so the product is the same for every input, with no bound to argue; the
/// schoolbook's loop does not vectorize and took 61 % of `ntru_decaps`' time
/// (fuzz/README.md, Speed). Decapsulation's only kernel is `poly_Rq_mul`, so this
/// decapsulates as [`Reference`] for every input (`cargo test`:
/// `exact_rq_mul_decapsulates_as_the_reference`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactRqMul;

impl Kernels for ExactRqMul {
    fn poly_rq_mul(a: &Poly, b: &Poly) -> Poly {
        poly_rq_mul_columns(a, b)
    }
    fn poly_r2_inv(a: &Poly) -> Poly {
        Reference::poly_r2_inv(a)
    }
}

/// The canonical representative mod (2, Φ_509): bits, coefficient 508 = 0.
pub fn canonical_mod2(a: &Poly) -> Poly {
    let mut r = *a;
    poly_mod_2_phi_n(&mut r);
    r
}

/// The canonical representative mod (q, Φ_509): coefficient 508 = 0, all in [0, q).
pub fn canonical_modq(a: &Poly) -> Poly {
    let mut r = *a;
    poly_mod_q_phi_n(&mut r);
    for c in r.0.iter_mut() {
        *c &= Q - 1;
    }
    r
}

/// Whether a is invertible mod (2, Φ_509): Φ_509 is irreducible over F2, so exactly
/// when a mod (2, Φ) ≠ 0, i.e. the low bits are not all equal.
pub fn invertible_mod2(a: &Poly) -> bool {
    canonical_mod2(a).0.iter().any(|&c| c != 0)
}

/// The polynomial patterns of the kernel pairs: random 16-bit coefficients read from
/// the input, random bits, an NTRU public-key-like product of sampled f and g, a
/// single odd coefficient (weight 1 mod 2), all ones but one (weight 508 mod 2),
/// every other coefficient 0xffff, all q − 1, and top-heavy values 0xf800 | x.
pub const POLY_PATTERNS: usize = 8;

/// Fills a polynomial with pattern `pattern` (< [`POLY_PATTERNS`]), reading random
/// values from the input.
pub fn poly_for(g: &mut Input<'_>, pattern: usize) -> Poly {
    let mut p = Poly::ZERO;
    match pattern {
        0 => p.0.iter_mut().for_each(|c| *c = g.u16()),
        1 => p.0.iter_mut().for_each(|c| *c = u16::from(g.bit())),
        2 => {
            let mut seed = [0u8; SAMPLE_FG_BYTES];
            g.fill(&mut seed);
            let (mut f, mut gg) = ntru::sample::sample_fg(&seed);
            ntru::poly::poly_z3_to_zq(&mut f);
            ntru::poly::poly_z3_to_zq(&mut gg);
            for c in gg.0.iter_mut() {
                *c = c.wrapping_mul(3);
            }
            p = Reference::poly_rq_mul(&gg, &f);
        }
        3 => p.0[g.below(N as u64) as usize] = 1 | (g.u16() << 1),
        4 => {
            p.0.fill(1);
            p.0[g.below(N as u64) as usize] = 0;
        }
        5 => p.0.iter_mut().step_by(2).for_each(|c| *c = 0xffff),
        6 => p.0.fill(Q - 1),
        _ => p.0.iter_mut().for_each(|c| *c = 0xf800 | (g.u16() & 0x7ff)),
    }
    p
}

/// Two operands: the selector picks the first one's pattern, an input byte the
/// second's.
fn two_polys(input: &[u8]) -> (Poly, Poly) {
    let mut g = Input::new(input);
    let pa = pattern(g.selector(), POLY_PATTERNS);
    let a = poly_for(&mut g, pa);
    let pb = pattern(g.u8(), POLY_PATTERNS);
    let b = poly_for(&mut g, pb);
    (a, b)
}

/// One operand, its pattern picked by the selector.
fn one_poly(input: &[u8]) -> Poly {
    let mut g = Input::new(input);
    let pa = pattern(g.selector(), POLY_PATTERNS);
    poly_for(&mut g, pa)
}

/// Enough input for every value of the largest pattern (the sampled f and g) of two
/// operands.
const POLY_INPUT_LEN: usize = 2 + 2 * (SAMPLE_FG_BYTES + 2 * N);

const INVERTIBLE_MOD_2: Precondition = Precondition {
    name: "invertible-mod-2",
    description: "the input is invertible mod (2, Phi_509), i.e. its low bits are not all equal; \
                  otherwise neither side defines an inverse",
};

const PCLMULQDQ: Precondition = Precondition {
    name: "pclmulqdq",
    description: "the CPU supports PCLMULQDQ (is_x86_feature_detected!)",
};

const AVX2: Precondition = Precondition {
    name: "avx2",
    description: "the CPU supports AVX2 (is_x86_feature_detected!)",
};

fn pclmul_missing() -> Outcome {
    Outcome::PreconditionNotMet {
        which: PCLMULQDQ.name,
        detail: "the CPU lacks PCLMULQDQ".into(),
    }
}

/// Hamming weight of a mod 2 (number of odd coefficients).
fn weight_mod2(a: &Poly) -> i128 {
    a.0.iter().filter(|&&c| c & 1 == 1).count() as i128
}

const INVERSE_BOUNDS: &[Bound] = &[
    Bound::range("coefficient", 0, 0xffff),
    // Invertible mod (2, Φ): weight 1 (x^i) up to 508 (all ones but one; all ones is
    // Φ itself).
    Bound::range("weight mod 2 (invertible inputs)", 1, N as i128 - 1),
];

/// Which inverse a pair compares, and on which path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InverseKind {
    /// `poly_R2_inv` by the chain on the portable carry-less multiply.
    R2Portable,
    /// `poly_R2_inv` by the chain on PCLMULQDQ.
    R2Pclmul,
    /// `poly_Rq_inv` of a variant.
    Rq(Variant),
}

/// An inverse against the reference's, canonicalized.
struct Inverse(InverseKind, &'static str);

/// The case's operand, or the unmet precondition when it is not invertible mod (2, Φ).
fn invertible_input(input: &[u8]) -> Result<Poly, Outcome> {
    let a = one_poly(input);
    if invertible_mod2(&a) {
        Ok(a)
    } else {
        Err(Outcome::PreconditionNotMet {
            which: INVERTIBLE_MOD_2.name,
            detail: "a ≡ 0 mod (2, Φ)".into(),
        })
    }
}

impl Inverse {
    /// The optimized R2 inverse of an R2 pair, or the unmet precondition when the CPU
    /// lacks PCLMULQDQ for the PCLMUL path.
    fn r2_inverse(&self, a: &Poly) -> Result<Poly, Outcome> {
        match self.0 {
            InverseKind::R2Pclmul => match Pclmul::detect() {
                Some(p) => Ok(poly_r2_inv_pclmul(p, a)),
                None => Err(pclmul_missing()),
            },
            _ => Ok(r2_inv::poly_r2_inv_portable(a)),
        }
    }
}

impl Pair for Inverse {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn sides(&self) -> Sides {
        match self.0 {
            InverseKind::R2Portable => Sides::new(
                "reference::ntruhps2048509::poly::poly_r2_inv_divstep",
                "optimized::ntruhps2048509::r2_inv::poly_r2_inv_portable (addition chain, portable clmul)",
            ),
            InverseKind::R2Pclmul => Sides::new(
                "reference::ntruhps2048509::poly::poly_r2_inv_divstep",
                "optimized::ntruhps2048509::poly_r2_inv_pclmul (addition chain, PCLMULQDQ)",
            ),
            InverseKind::Rq(Variant::Before) => Sides::new(
                "reference::ntruhps2048509::Reference::poly_rq_inv (divstep, schoolbook Newton)",
                "optimized::ntruhps2048509::Before::poly_rq_inv (divstep, Toom/Karatsuba Newton)",
            ),
            InverseKind::Rq(Variant::OptimizedPortable) => Sides::new(
                "reference::ntruhps2048509::Reference::poly_rq_inv (divstep, schoolbook Newton)",
                "optimized::ntruhps2048509::OptimizedPortable::poly_rq_inv (chain, portable)",
            ),
            InverseKind::Rq(_) => Sides::new(
                "reference::ntruhps2048509::Reference::poly_rq_inv (divstep, schoolbook Newton)",
                "optimized::ntruhps2048509::Optimized::poly_rq_inv (chain, PCLMULQDQ and AVX2 when detected)",
            ),
        }
    }
    fn preconditions(&self) -> &'static [Precondition] {
        match self.0 {
            InverseKind::R2Pclmul => &[INVERTIBLE_MOD_2, PCLMULQDQ],
            _ => &[INVERTIBLE_MOD_2],
        }
    }
    fn bounds(&self) -> &'static [Bound] {
        INVERSE_BOUNDS
    }
    fn default_cases(&self) -> usize {
        match self.0 {
            InverseKind::R2Portable | InverseKind::R2Pclmul => 300,
            InverseKind::Rq(_) => 200,
        }
    }
    fn input_len(&self) -> usize {
        POLY_INPUT_LEN
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let a = match invertible_input(input) {
            Ok(a) => a,
            Err(not_met) => return not_met,
        };
        let (field, reference, optimized) = match self.0 {
            InverseKind::R2Portable | InverseKind::R2Pclmul => {
                let o = match self.r2_inverse(&a) {
                    Ok(o) => o,
                    Err(not_met) => return not_met,
                };
                if !ntru::r2_is_inverse(&a, &o) {
                    return Outcome::contract("r2_is_inverse: r·a ≡ 1 mod (2, Φ)", false);
                }
                (
                    "poly_R2_inv mod (2, Φ)",
                    canonical_mod2(&Reference::poly_r2_inv(&a)),
                    canonical_mod2(&o),
                )
            }
            InverseKind::Rq(v) => (
                "poly_Rq_inv mod (q, Φ)",
                canonical_modq(&Reference::poly_rq_inv(&a)),
                canonical_modq(&v.poly_rq_inv(&a)),
            ),
        };
        Outcome::compare([(
            field,
            u16_bytes(&reference.0).as_slice(),
            u16_bytes(&optimized.0).as_slice(),
        )])
    }
    /// Fuzzing checks r·a ≡ 1 on the optimized side only: a is a unit of
    /// Z_2\[x\]/Φ_509 (a field: 2 has order 508 mod 509) and so of Z_2048\[x\]/Φ_509 (a
    /// local ring with maximal ideal (2)), where its inverse is unique. An r with
    /// r·a ≡ 1 is therefore the reference's result after canonical reduction, which
    /// is what [`Pair::run`] compares, without the divstep (0.8 ms) and the
    /// schoolbook Newton iteration.
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        let a = match invertible_input(input) {
            Ok(a) => a,
            Err(not_met) => return not_met,
        };
        match self.0 {
            InverseKind::R2Portable | InverseKind::R2Pclmul => match self.r2_inverse(&a) {
                Ok(o) => Outcome::contract(
                    "r2_is_inverse: r·a ≡ 1 mod (2, Φ) (the unique inverse)",
                    ntru::r2_is_inverse(&a, &o),
                ),
                Err(not_met) => not_met,
            },
            InverseKind::Rq(v) => Outcome::contract(
                "rq_is_inverse: r·a ≡ 1 mod (q, Φ) (the unique inverse)",
                ntru::rq_is_inverse(&a, &v.poly_rq_inv(&a)),
            ),
        }
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let a = one_poly(input);
        for &c in &a.0 {
            seen("coefficient", i128::from(c));
        }
        if invertible_mod2(&a) {
            seen("weight mod 2 (invertible inputs)", weight_mod2(&a));
        }
    }
}

const RQ_MUL_BOUNDS: &[Bound] = &[Bound::with_points(
    "coefficient",
    0,
    0xffff,
    &[Q as i128 - 1, Q as i128],
)];

/// `poly_Rq_mul`: schoolbook against Toom-4/Karatsuba, on the AVX2 base case or the
/// portable one.
struct RqMul(bool, &'static str);

impl Pair for RqMul {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn sides(&self) -> Sides {
        if self.0 {
            Sides::new(
                "reference::ntruhps2048509::Reference::poly_rq_mul (schoolbook)",
                "optimized::ntruhps2048509::rq_mul::poly_rq_mul_karatsuba (Toom-4, Karatsuba, AVX2 64x64 base case)",
            )
        } else {
            Sides::new(
                "reference::ntruhps2048509::Reference::poly_rq_mul (schoolbook)",
                "optimized::ntruhps2048509::rq_mul::poly_rq_mul_portable (Toom-4, Karatsuba, portable base case)",
            )
        }
    }
    fn preconditions(&self) -> &'static [Precondition] {
        if self.0 { &[AVX2] } else { &[] }
    }
    fn bounds(&self) -> &'static [Bound] {
        RQ_MUL_BOUNDS
    }
    fn default_cases(&self) -> usize {
        500
    }
    fn input_len(&self) -> usize {
        POLY_INPUT_LEN
    }
    fn run(&self, input: &[u8]) -> Outcome {
        if self.0 && Avx2::detect().is_none() {
            return Outcome::PreconditionNotMet {
                which: AVX2.name,
                detail: "the CPU lacks AVX2".into(),
            };
        }
        let (a, b) = two_polys(input);
        let modq = |p: Poly| u16_bytes(&p.0.map(|c| c & (Q - 1)));
        let r = modq(Reference::poly_rq_mul(&a, &b));
        let o = if self.0 {
            modq(optimized::ntruhps2048509::rq_mul::poly_rq_mul_karatsuba(
                &a, &b,
            ))
        } else {
            modq(optimized::ntruhps2048509::rq_mul::poly_rq_mul_portable(
                &a, &b,
            ))
        };
        Outcome::compare([("poly_Rq_mul (mod q)", r.as_slice(), o.as_slice())])
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let (a, b) = two_polys(input);
        for &c in a.0.iter().chain(&b.0) {
            seen("coefficient", i128::from(c));
        }
    }
}

/// The R2 product mod x^509 − 1 as a sum of rotations: for every set bit i of a, b
/// rotated by i positions, XORed in. Shares nothing with the Karatsuba product or its
/// fold. Each rotation is read, a word at a time, out of b written twice in a row
/// (bit j + 509 of the doubled vector is bit j of b), so a product costs about
/// 16 word operations per set bit of a instead of 509 bit operations.
pub fn r2_mul_schoolbook(a: &r2_inv::R2, b: &r2_inv::R2) -> r2_inv::R2 {
    const TOP: u64 = (1 << (N - 448)) - 1;
    let mut b = *b;
    b[7] &= TOP;
    let word = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut bb = [0u64; 17];
    bb[..8].copy_from_slice(&b);
    // b << 509 = b << (7·64 + 61), ORed in above bit 508.
    for (t, x) in bb.iter_mut().enumerate().take(16).skip(7) {
        let lo = if t >= 8 { word(t - 8) >> 3 } else { 0 };
        *x |= (word(t - 7) << 61) | lo;
    }
    let mut out = [0u64; 8];
    for i in 0..N {
        if (a[i >> 6] >> (i & 63)) & 1 == 1 {
            // Rotation by i: bits 509 − i .. 1017 − i of the doubled b.
            let s = N - i;
            let (q, r) = (s >> 6, s & 63);
            for (w, o) in out.iter_mut().enumerate() {
                let hi = if r == 0 { 0 } else { bb[q + w + 1] << (64 - r) };
                *o ^= (bb[q + w] >> r) | hi;
            }
        }
    }
    out[7] &= TOP;
    out
}

const R2_MUL_BOUNDS: &[Bound] = &[
    // Dense and sparse 64-bit words reach the carry-less multiply (all-zero and
    // all-one words; the top word holds 61 bits).
    Bound::range("popcount of a 64-bit word of a", 0, 64),
    Bound::range("popcount of a 64-bit word of b", 0, 64),
];

/// The R2 product: schoolbook against the Karatsuba carry-less product on one path.
struct R2Mul(bool, &'static str);

impl R2Mul {
    /// The operands: dense and sparse words mixed in by the selector's patterns; the
    /// top word is masked to 61 bits, as the packing leaves it.
    fn inputs(input: &[u8]) -> (r2_inv::R2, r2_inv::R2) {
        let mut g = Input::new(input);
        let sel = usize::from(g.selector());
        let word = |g: &mut Input<'_>, p: usize| match p {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << g.below(64),
            3 => !(1 << g.below(64)),
            _ => g.u64(),
        };
        let r2 = |g: &mut Input<'_>, p: usize| {
            let mut x = [0u64; 8];
            for w in x.iter_mut() {
                // Pattern 4..: each word random, or dense/sparse by one input byte.
                let wp = if p < 4 { p } else { pattern(g.u8(), 8) };
                *w = word(g, wp);
            }
            x[7] &= (1 << (N - 448)) - 1;
            x
        };
        let a = r2(&mut g, sel & 7);
        let b = r2(&mut g, (sel >> 3) & 7);
        (a, b)
    }
}

impl Pair for R2Mul {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn sides(&self) -> Sides {
        if self.0 {
            Sides::new(
                "equivalence::ntruhps2048509::r2_mul_schoolbook (one rotation of b per set bit of a)",
                "optimized::ntruhps2048509::Pclmul::r2_mul (Karatsuba over pclmulqdq, fold509)",
            )
        } else {
            Sides::new(
                "equivalence::ntruhps2048509::r2_mul_schoolbook (one rotation of b per set bit of a)",
                "optimized::ntruhps2048509::r2_inv::r2_mul_portable (Karatsuba over clmul64_portable, fold509)",
            )
        }
    }
    fn preconditions(&self) -> &'static [Precondition] {
        if self.0 { &[PCLMULQDQ] } else { &[] }
    }
    fn bounds(&self) -> &'static [Bound] {
        R2_MUL_BOUNDS
    }
    fn default_cases(&self) -> usize {
        2000
    }
    fn input_len(&self) -> usize {
        1 + 2 * 8 * 9
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let (a, b) = Self::inputs(input);
        let o = if self.0 {
            match Pclmul::detect() {
                Some(p) => p.r2_mul(&a, &b),
                None => return pclmul_missing(),
            }
        } else {
            r2_inv::r2_mul_portable(&a, &b)
        };
        let r = r2_mul_schoolbook(&a, &b);
        Outcome::compare([(
            "R2 product mod x^509 − 1",
            u64_bytes(&r).as_slice(),
            u64_bytes(&o).as_slice(),
        )])
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let (a, b) = Self::inputs(input);
        for w in &a[..7] {
            seen("popcount of a 64-bit word of a", i128::from(w.count_ones()));
        }
        for w in &b[..7] {
            seen("popcount of a 64-bit word of b", i128::from(w.count_ones()));
        }
    }
}

/// The API pair of one variant against the reference.
struct Api(Variant, &'static str);

impl Pair for Api {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn sides(&self) -> Sides {
        Sides::new(
            "NTRU-HPS-2048-509 KEM over reference::ntruhps2048509::Reference",
            match self.0 {
                Variant::Before => "NTRU-HPS-2048-509 KEM over optimized::ntruhps2048509::Before",
                Variant::OptimizedPortable => {
                    "NTRU-HPS-2048-509 KEM over optimized::ntruhps2048509::OptimizedPortable"
                }
                _ => "NTRU-HPS-2048-509 KEM over optimized::ntruhps2048509::Optimized",
            },
        )
    }
    fn default_cases(&self) -> usize {
        50
    }
    fn input_len(&self) -> usize {
        1 + SAMPLE_FG_BYTES + PRFKEYBYTES + SAMPLE_RM_BYTES + 32
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Input::new(input);
        let mut seed = [0u8; SAMPLE_FG_BYTES];
        g.fill(&mut seed);
        let prf = g.array::<PRFKEYBYTES>();
        let mut rm = [0u8; SAMPLE_RM_BYTES];
        g.fill(&mut rm);
        let mut bad_ct = [0u8; CIPHERTEXT_BYTES];
        g.expand(&mut bad_ct);
        let run = |v: Variant| {
            let kp = v.keypair_derand(&seed, &prf)?;
            let (c, k) = v.encaps_derand(kp.pk(), &rm).expect("699-byte pk");
            let k_dec = v.decaps(kp.sk(), &c).expect("right lengths");
            let k_rej = v.decaps(kp.sk(), &bad_ct).expect("right lengths");
            Ok::<_, reference::Error>((kp, c, k, k_dec, k_rej))
        };
        // Key generation refuses exactly the seeds that give f = 0: every one of the
        // first 508 bytes a multiple of 3 (f's coefficients are those bytes mod 3),
        // which the fuzz edge seeds use (all-zero, all-0xff).
        let degenerate = seed[..N - 1].iter().all(|&b| b % 3 == 0);
        let verdict = |r: &Result<_, reference::Error>| match r {
            Ok(_) => "a key pair".to_owned(),
            Err(e) => e.to_string(),
        };
        let (a, b) = match (run(Variant::Reference), run(self.0)) {
            (Ok(a), Ok(b)) if !degenerate => (a, b),
            (a, b) => {
                let (va, vb) = (verdict(&a), verdict(&b));
                return Outcome::contract(
                    "key generation refuses a seed exactly when it gives f = 0 (reference)",
                    a.is_err() == degenerate,
                )
                .and(|| Outcome::compare([("keygen verdict", va.as_bytes(), vb.as_bytes())]));
            }
        };
        // Each tier on its own: the stored f⁻¹ mod 3 inverts f, and decapsulating its
        // own ciphertext gives the key it encapsulated (the protocol code both tiers
        // share, which the comparison cannot see, included). Φ_509 is irreducible mod
        // 2 and mod 3 (2 and 3 have order 508 mod 509), so the nonzero ternary f of
        // every key generated (f_508 = 0) is invertible in both rings, and HPS has no
        // decryption failures then.
        let own = |v: Variant, sk: &[u8], k: &[u8], k_dec: &[u8]| {
            let (f, fp) = stored_f(sk);
            Outcome::contract(
                &format!("the stored f⁻¹ mod 3 inverts f ({})", v.name()),
                ntru::contracts::s3_is_inverse(&f, &fp),
            )
            .and(|| {
                Outcome::contract(
                    &format!("decaps(sk, c) = the encapsulated key ({})", v.name()),
                    k == k_dec,
                )
            })
        };
        own(Variant::Reference, a.0.sk(), a.2.as_bytes(), a.3.as_bytes())
            .and(|| own(self.0, b.0.sk(), b.2.as_bytes(), b.3.as_bytes()))
            .and(|| {
                Outcome::compare_exposed([
                    (
                        "pk",
                        Exposure::Public,
                        a.0.pk().as_slice(),
                        b.0.pk().as_slice(),
                    ),
                    ("sk", Exposure::Secret, a.0.sk(), b.0.sk()),
                    ("ct", Exposure::Public, &a.1, &b.1),
                    ("ss", Exposure::Secret, a.2.as_bytes(), b.2.as_bytes()),
                    (
                        "ss (decaps)",
                        Exposure::Secret,
                        a.3.as_bytes(),
                        b.3.as_bytes(),
                    ),
                    (
                        "ss (implicit rejection)",
                        Exposure::Secret,
                        a.4.as_bytes(),
                        b.4.as_bytes(),
                    ),
                ])
            })
    }
}

/// f and the stored f⁻¹ mod 3, decoded from the start of a secret key.
fn stored_f(sk: &[u8]) -> (Poly, Poly) {
    let part = |i: usize| -> &[u8; PACK_TRINARY_BYTES] {
        sk[i * PACK_TRINARY_BYTES..(i + 1) * PACK_TRINARY_BYTES]
            .try_into()
            .expect("a generated secret key holds f and f⁻¹ mod 3")
    };
    (
        ntru::pack::poly_s3_frombytes(part(0)),
        ntru::pack::poly_s3_frombytes(part(1)),
    )
}

/// Every ntruhps2048509 pair.
pub static PAIRS: &[&dyn Pair] = &[
    &Inverse(InverseKind::R2Portable, "ntruhps2048509/r2-inv/portable"),
    &Inverse(InverseKind::R2Pclmul, "ntruhps2048509/r2-inv/pclmul"),
    &Inverse(
        InverseKind::Rq(Variant::Before),
        "ntruhps2048509/rq-inv/before",
    ),
    &Inverse(
        InverseKind::Rq(Variant::Optimized),
        "ntruhps2048509/rq-inv/optimized",
    ),
    &Inverse(
        InverseKind::Rq(Variant::OptimizedPortable),
        "ntruhps2048509/rq-inv/optimized-portable",
    ),
    &RqMul(true, "ntruhps2048509/rq-mul/avx2"),
    &RqMul(false, "ntruhps2048509/rq-mul/portable"),
    &R2Mul(false, "ntruhps2048509/r2-mul/portable"),
    &R2Mul(true, "ntruhps2048509/r2-mul/pclmul"),
    &Api(Variant::Before, "ntruhps2048509/api/before"),
    &Api(Variant::Optimized, "ntruhps2048509/api/optimized"),
    &Api(
        Variant::OptimizedPortable,
        "ntruhps2048509/api/optimized-portable",
    ),
];

/// ntruhps2048509 as the NIST KAT driver runs it (keypair draws 2413 then 32 bytes,
/// enc 2413; `CRYPTO_ALGNAME` `ntruhps2048509`).
#[derive(Clone, Copy, Debug)]
pub struct Kat(pub Variant);

impl KatKem for Kat {
    fn algname(&self) -> &'static str {
        "ntruhps2048509"
    }
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        let kp = self
            .0
            .keypair(rng)
            .expect("the KAT's DRBG output gives f ≠ 0");
        (kp.pk().to_vec(), kp.sk().to_vec())
    }
    fn enc(
        &self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, Vec<u8>), reference::Error> {
        let (c, k) = self.0.encaps(pk, rng)?;
        Ok((c.to_vec(), k.as_bytes().to_vec()))
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, reference::Error> {
        Ok(self.0.decaps(sk, ct)?.as_bytes().to_vec())
    }
}

static KAT: KatScheme = KatScheme {
    name: "ntruhps2048509",
    variants: &["reference", "before", "optimized", "optimized-portable"],
    make: |v| Variant::from_name(v).map(|v| Box::new(Kat(v)) as Box<dyn KatKem>),
};

/// The ntruhps2048509 schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[&KAT];

/// NTRU-HPS-2048-509's implicit-rejection key SHA3-256(PRF key ‖ c), the PRF key being
/// the secret key's last `PRFKEYBYTES` bytes (round 3's `crypto_kem_dec`): written
/// here, independently of the decapsulation code, for the tests and the fuzz harness
/// to check it against.
///
/// # Panics
/// When `sk` is shorter than a secret key (935 bytes).
pub fn rejection_key(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    use reference::ntruhps2048509::params::{PRFKEYBYTES, SECRETKEY_BYTES};
    use sha3::{Digest, Sha3_256};
    Sha3_256::new()
        .chain_update(&sk[SECRETKEY_BYTES - PRFKEYBYTES..SECRETKEY_BYTES])
        .chain_update(ct)
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// Arbitrary bytes, n at a time, from a ChaCha20 stream keyed by `key`.
    fn chacha_bytes(key: u8) -> impl FnMut(usize) -> Vec<u8> {
        let mut rng = reference::rng::ChaCha20Source::new([key; 32]);
        move |n| {
            let mut v = vec![0u8; n];
            RandomSource::fill(&mut rng, &mut v);
            v
        }
    }

    #[test]
    fn exact_rq_mul_decapsulates_as_the_reference() {
        use reference::ntruhps2048509::params::SECRETKEY_BYTES;
        let mut bytes = chacha_bytes(0x3c);
        let mut inputs = vec![(bytes(SECRETKEY_BYTES), bytes(CIPHERTEXT_BYTES))];
        for i in 0..2u8 {
            let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|j| j as u8 ^ i);
            let prf: [u8; PRFKEYBYTES] = [i; PRFKEYBYTES];
            let kp = ntru::keypair_derand::<Reference>(&seed, &prf).expect("f ≠ 0");
            let coins = [i.wrapping_mul(7); SAMPLE_RM_BYTES];
            let (ct, _) = ntru::encaps_derand::<Reference>(kp.pk(), &coins).expect("valid pk");
            inputs.push((kp.sk().to_vec(), ct.to_vec()));
        }
        for (i, (sk, ct)) in inputs.iter().enumerate() {
            assert_eq!(
                ntru::decaps::<ExactRqMul>(sk, ct),
                ntru::decaps::<Reference>(sk, ct),
                "input {i}"
            );
        }
    }

    /// The `ntru_encaps` fuzz target's reference tier encapsulates as the reference:
    /// on arbitrary right-length public keys with arbitrary draws, and on a generated
    /// key.
    #[test]
    fn exact_rq_mul_encapsulates_as_the_reference() {
        use reference::rng::Replay;
        let mut bytes = chacha_bytes(0x3d);
        let pk_len = reference::ntruhps2048509::params::PUBLICKEY_BYTES;
        let mut keys: Vec<Vec<u8>> = (0..3).map(|_| bytes(pk_len)).collect();
        let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|j| j as u8);
        keys.push(
            ntru::keypair_derand::<Reference>(&seed, &[1; PRFKEYBYTES])
                .expect("f ≠ 0")
                .pk()
                .to_vec(),
        );
        for (i, pk) in keys.iter().enumerate() {
            let draw = bytes(SAMPLE_RM_BYTES);
            let got = ntru::encaps::<ExactRqMul>(pk, &mut Replay::new(draw.clone()));
            let want = ntru::encaps::<Reference>(pk, &mut Replay::new(draw));
            assert!(want.is_ok(), "key {i}");
            assert_eq!(got, want, "key {i}");
        }
    }

    /// The word-wise rotations equal the product bit by bit.
    #[test]
    fn r2_mul_schoolbook_equals_the_bitwise_product() {
        let bit = |x: &r2_inv::R2, i: usize| (x[i >> 6] >> (i & 63)) & 1;
        let bitwise = |a: &r2_inv::R2, b: &r2_inv::R2| {
            let mut out = [0u64; 8];
            for i in 0..N {
                for j in 0..N {
                    let k = (i + j) % N;
                    out[k >> 6] ^= (bit(a, i) & bit(b, j)) << (k & 63);
                }
            }
            out
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut next = || rng.next_u64();
        let top = (1u64 << (N - 448)) - 1;
        for case in 0..12 {
            let mut a: r2_inv::R2 = core::array::from_fn(|_| next());
            let mut b: r2_inv::R2 = core::array::from_fn(|_| next());
            if case == 0 {
                a = [u64::MAX; 8];
                b = [u64::MAX; 8];
            }
            a[7] &= top;
            b[7] &= top;
            assert_eq!(r2_mul_schoolbook(&a, &b), bitwise(&a, &b), "case {case}");
        }
        let mut one = [0u64; 8];
        one[0] = 1;
        let mut x508 = [0u64; 8];
        x508[7] = 1 << 60;
        // x^508 · x = x^509 = 1 mod x^509 − 1.
        let mut x1 = [0u64; 8];
        x1[0] = 2;
        assert_eq!(r2_mul_schoolbook(&x508, &x1), one);
    }
}
