//! ntruhps2048509 pairs and variants (optimization 3, jschanck/ntru PR #5).
//!
//! Kernel pairs compare inverses **after canonical reduction**: R2 inverses mod
//! (2, Φ_509), Rq inverses mod (2048, Φ_509). The raw 509-coefficient vectors
//! legitimately differ (the chain's value at x = 1 is a(1); the divstep's output is
//! the canonical representative). Products are compared mod q (their contract).
//!
//! * `ntruhps2048509/r2-inv/portable`, `.../r2-inv/pclmul` (kernel): reference divstep
//!   against the chain, canonicalized mod (2, Φ).
//! * `ntruhps2048509/rq-inv/{before,optimized,portable,pclmul}` (kernel): reference
//!   `poly_Rq_inv` against each variant's, canonicalized mod (q, Φ).
//! * `ntruhps2048509/rq-mul` (kernel): schoolbook against Toom-4/Karatsuba (AVX2
//!   when detected, and the baseline build), mod q.
//! * `ntruhps2048509/r2-mul` (kernel): PCLMULQDQ against the portable carry-less
//!   product, raw bits.
//! * `ntruhps2048509/api/<variant>` (API): the same random bytes give identical pk,
//!   sk, ct, ss, decapsulated ss and implicit-rejection ss.

use reference::RandomSource;
use reference::ntruhps2048509::params::{
    CIPHERTEXT_BYTES, N, PRFKEYBYTES, Q, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES,
};
use reference::ntruhps2048509::poly::{poly_mod_2_phi_n, poly_mod_q_phi_n};
use reference::ntruhps2048509::{self as ntru, Kernels, KeyPair, Poly, Reference};

use optimized::ntruhps2048509::{
    Before, Optimized, OptimizedPclmul, OptimizedPortable, Pclmul, r2_inv,
};

use crate::input::Gen;
use crate::kat::KatKem;
use crate::registry::{Level, Outcome, Pair, Precondition, u16_bytes, u64_bytes};
use crate::schemes::KatScheme;

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
    /// PR #5 on PCLMULQDQ (needs the CPU feature).
    OptimizedPclmul,
}

impl Variant {
    /// Every variant, reference first.
    pub const ALL: [Variant; 5] = [
        Variant::Reference,
        Variant::Before,
        Variant::Optimized,
        Variant::OptimizedPortable,
        Variant::OptimizedPclmul,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Reference => "reference",
            Variant::Before => "before",
            Variant::Optimized => "optimized",
            Variant::OptimizedPortable => "optimized-portable",
            Variant::OptimizedPclmul => "optimized-pclmul",
        }
    }

    /// Looks a variant up by name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }

    /// Whether the variant can run on this CPU (only `optimized-pclmul` needs a
    /// feature).
    pub fn available(self) -> bool {
        self != Variant::OptimizedPclmul || Pclmul::detect().is_some()
    }

    /// `poly_Rq_mul` of the variant.
    pub fn poly_rq_mul(self, a: &Poly, b: &Poly) -> Poly {
        match self {
            Variant::Reference => Reference::poly_rq_mul(a, b),
            Variant::Before => Before::poly_rq_mul(a, b),
            Variant::Optimized => Optimized::poly_rq_mul(a, b),
            Variant::OptimizedPortable => OptimizedPortable::poly_rq_mul(a, b),
            Variant::OptimizedPclmul => OptimizedPclmul::poly_rq_mul(a, b),
        }
    }

    /// `poly_R2_inv` of the variant (raw representative).
    pub fn poly_r2_inv(self, a: &Poly) -> Poly {
        match self {
            Variant::Reference => Reference::poly_r2_inv(a),
            Variant::Before => Before::poly_r2_inv(a),
            Variant::Optimized => Optimized::poly_r2_inv(a),
            Variant::OptimizedPortable => OptimizedPortable::poly_r2_inv(a),
            Variant::OptimizedPclmul => OptimizedPclmul::poly_r2_inv(a),
        }
    }

    /// `poly_Rq_inv` of the variant (raw representative).
    pub fn poly_rq_inv(self, a: &Poly) -> Poly {
        match self {
            Variant::Reference => Reference::poly_rq_inv(a),
            Variant::Before => Before::poly_rq_inv(a),
            Variant::Optimized => Optimized::poly_rq_inv(a),
            Variant::OptimizedPortable => OptimizedPortable::poly_rq_inv(a),
            Variant::OptimizedPclmul => OptimizedPclmul::poly_rq_inv(a),
        }
    }

    /// `crypto_kem_keypair` from its two draws.
    pub fn keypair_derand(self, seed: &[u8; SAMPLE_FG_BYTES], prf: &[u8; PRFKEYBYTES]) -> KeyPair {
        match self {
            Variant::Reference => ntru::keypair_derand::<Reference>(seed, prf),
            Variant::Before => ntru::keypair_derand::<Before>(seed, prf),
            Variant::Optimized => ntru::keypair_derand::<Optimized>(seed, prf),
            Variant::OptimizedPortable => ntru::keypair_derand::<OptimizedPortable>(seed, prf),
            Variant::OptimizedPclmul => ntru::keypair_derand::<OptimizedPclmul>(seed, prf),
        }
    }

    /// `crypto_kem_keypair` drawing from `rng` (2413 bytes, then 32).
    pub fn keypair(self, rng: &mut dyn RandomSource) -> KeyPair {
        let mut seed = [0u8; SAMPLE_FG_BYTES];
        rng.fill(&mut seed);
        let mut prf = [0u8; PRFKEYBYTES];
        rng.fill(&mut prf);
        self.keypair_derand(&seed, &prf)
    }

    /// `crypto_kem_enc` from its draw.
    ///
    /// # Errors
    /// As [`reference::ntruhps2048509::encaps_derand`].
    pub fn encaps_derand(
        self,
        pk: &[u8],
        seed: &[u8; SAMPLE_RM_BYTES],
    ) -> Result<([u8; CIPHERTEXT_BYTES], [u8; 32]), reference::Error> {
        match self {
            Variant::Reference => ntru::encaps_derand::<Reference>(pk, seed),
            Variant::Before => ntru::encaps_derand::<Before>(pk, seed),
            Variant::Optimized => ntru::encaps_derand::<Optimized>(pk, seed),
            Variant::OptimizedPortable => ntru::encaps_derand::<OptimizedPortable>(pk, seed),
            Variant::OptimizedPclmul => ntru::encaps_derand::<OptimizedPclmul>(pk, seed),
        }
    }

    /// `crypto_kem_dec`.
    ///
    /// # Errors
    /// As [`reference::ntruhps2048509::decaps`].
    pub fn decaps(self, sk: &[u8], c: &[u8]) -> Result<[u8; 32], reference::Error> {
        match self {
            Variant::Reference => ntru::decaps::<Reference>(sk, c),
            Variant::Before => ntru::decaps::<Before>(sk, c),
            Variant::Optimized => ntru::decaps::<Optimized>(sk, c),
            Variant::OptimizedPortable => ntru::decaps::<OptimizedPortable>(sk, c),
            Variant::OptimizedPclmul => ntru::decaps::<OptimizedPclmul>(sk, c),
        }
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

/// A polynomial chosen by `pattern`: random u16; random bits; HPS-like 3g·f (the
/// keygen input of `poly_Rq_inv`); a single term x^i; all ones but one; alternating;
/// all q−1; dense high bits.
pub fn poly_for(g: &mut Gen, pattern: u8) -> Poly {
    let mut p = Poly::ZERO;
    match pattern & 7 {
        0 => p.0.iter_mut().for_each(|c| *c = g.below(1 << 16) as u16),
        1 => p.0.iter_mut().for_each(|c| *c = g.below(2) as u16),
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
        3 => p.0[g.below(N as u64) as usize] = 1 + 2 * g.below(1 << 15) as u16,
        4 => {
            p.0.fill(1);
            p.0[g.below(N as u64) as usize] = 0;
        }
        5 => p.0.iter_mut().step_by(2).for_each(|c| *c = 0xffff),
        6 => p.0.fill(Q - 1),
        _ => {
            p.0.iter_mut()
                .for_each(|c| *c = 0xf800 | g.below(1 << 11) as u16)
        }
    }
    p
}

const INVERTIBLE_MOD_2: Precondition = Precondition {
    name: "invertible-mod-2",
    description: "the input is invertible mod (2, Phi_509), i.e. its low bits are not all equal; \
                  otherwise neither side defines an inverse",
};

const PCLMULQDQ: Precondition = Precondition {
    name: "pclmulqdq",
    description: "the CPU supports PCLMULQDQ (is_x86_feature_detected!)",
};

const PCLMUL: &[Precondition] = &[PCLMULQDQ];
const INVERSE_PRECONDITIONS: &[Precondition] = &[INVERTIBLE_MOD_2, PCLMULQDQ];

/// Which inverse an [`Inverse`] pair compares.
#[derive(Clone, Copy)]
enum InverseKind {
    /// `poly_R2_inv`, compared mod (2, Φ).
    R2,
    /// `poly_Rq_inv`, compared mod (q, Φ).
    Rq,
}

/// Reference against one variant's inverse, after canonical reduction mod Φ_509 (raw
/// 509-coefficient vectors may legitimately differ, see docs/ntruhps2048509.md).
struct Inverse(InverseKind, Variant, &'static str);

impl Pair for Inverse {
    fn name(&self) -> &'static str {
        self.2
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn preconditions(&self) -> &'static [Precondition] {
        INVERSE_PRECONDITIONS
    }
    fn default_cases(&self) -> usize {
        match self.0 {
            InverseKind::R2 => 300,
            InverseKind::Rq => 200,
        }
    }
    fn run(&self, input: &[u8]) -> Outcome {
        if !self.1.available() {
            return Outcome::PreconditionNotMet {
                which: PCLMULQDQ.name,
                detail: "the CPU lacks PCLMULQDQ".into(),
            };
        }
        let mut g = Gen::new(input);
        let sel = g.selector();
        let a = poly_for(&mut g, sel);
        if !invertible_mod2(&a) {
            return Outcome::PreconditionNotMet {
                which: INVERTIBLE_MOD_2.name,
                detail: "a ≡ 0 mod (2, Φ)".into(),
            };
        }
        let (field, r, o) = match self.0 {
            InverseKind::R2 => (
                "poly_R2_inv mod (2, Φ)",
                canonical_mod2(&Reference::poly_r2_inv(&a)),
                canonical_mod2(&self.1.poly_r2_inv(&a)),
            ),
            InverseKind::Rq => (
                "poly_Rq_inv mod (q, Φ)",
                canonical_modq(&Reference::poly_rq_inv(&a)),
                canonical_modq(&self.1.poly_rq_inv(&a)),
            ),
        };
        Outcome::compare([(
            field,
            u16_bytes(&r.0).as_slice(),
            u16_bytes(&o.0).as_slice(),
        )])
    }
}

struct RqMul;

impl Pair for RqMul {
    fn name(&self) -> &'static str {
        "ntruhps2048509/rq-mul"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn default_cases(&self) -> usize {
        500
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let sel = g.selector();
        let a = poly_for(&mut g, sel);
        let b = poly_for(&mut g, sel >> 3);
        // The contract is exactness mod q (Toom-4 is exact mod 2^13 only).
        let modq = |p: Poly| u16_bytes(&p.0.map(|c| c & (Q - 1)));
        let r = modq(Reference::poly_rq_mul(&a, &b));
        let o = modq(Optimized::poly_rq_mul(&a, &b));
        let p = modq(OptimizedPortable::poly_rq_mul(&a, &b));
        Outcome::compare([
            (
                "poly_Rq_mul, dispatched (mod q)",
                r.as_slice(),
                o.as_slice(),
            ),
            ("poly_Rq_mul, portable (mod q)", &r, &p),
        ])
    }
}

struct R2Mul;

impl Pair for R2Mul {
    fn name(&self) -> &'static str {
        "ntruhps2048509/r2-mul"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn preconditions(&self) -> &'static [Precondition] {
        PCLMUL
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let Some(p) = Pclmul::detect() else {
            return Outcome::PreconditionNotMet {
                which: PCLMULQDQ.name,
                detail: "the CPU lacks PCLMULQDQ".into(),
            };
        };
        let mut g = Gen::new(input);
        let sel = g.selector();
        let a = r2_inv::r2_from_poly(&poly_for(&mut g, sel));
        let b = r2_inv::r2_from_poly(&poly_for(&mut g, sel >> 3));
        let r = r2_inv::r2_mul_portable(&a, &b);
        let o = p.r2_mul(&a, &b);
        Outcome::compare([(
            "R2 product (portable vs pclmulqdq)",
            u64_bytes(&r).as_slice(),
            u64_bytes(&o).as_slice(),
        )])
    }
}

struct Api(Variant, &'static str);

impl Pair for Api {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn preconditions(&self) -> &'static [Precondition] {
        PCLMUL
    }
    fn default_cases(&self) -> usize {
        50
    }
    fn run(&self, input: &[u8]) -> Outcome {
        if !self.0.available() {
            return Outcome::PreconditionNotMet {
                which: PCLMULQDQ.name,
                detail: "the CPU lacks PCLMULQDQ".into(),
            };
        }
        let mut g = Gen::new(input);
        let mut seed = [0u8; SAMPLE_FG_BYTES];
        g.fill(&mut seed);
        let prf = g.array::<PRFKEYBYTES>();
        let mut rm = [0u8; SAMPLE_RM_BYTES];
        g.fill(&mut rm);
        let mut bad_ct = [0u8; CIPHERTEXT_BYTES];
        g.fill(&mut bad_ct);
        let run = |v: Variant| {
            let kp = v.keypair_derand(&seed, &prf);
            let (c, k) = v.encaps_derand(&kp.pk, &rm).expect("699-byte pk");
            let k_dec = v.decaps(&kp.sk, &c).expect("right lengths");
            let k_rej = v.decaps(&kp.sk, &bad_ct).expect("right lengths");
            (kp, c, k, k_dec, k_rej)
        };
        let a = run(Variant::Reference);
        let b = run(self.0);
        Outcome::compare([
            ("pk", a.0.pk.as_slice(), b.0.pk.as_slice()),
            ("sk", &a.0.sk, &b.0.sk),
            ("ct", &a.1, &b.1),
            ("ss", &a.2, &b.2),
            ("ss (decaps)", &a.3, &b.3),
            ("ss (implicit rejection)", &a.4, &b.4),
        ])
    }
}

/// Every ntruhps2048509 pair.
pub static PAIRS: &[&dyn Pair] = &[
    &Inverse(
        InverseKind::R2,
        Variant::OptimizedPortable,
        "ntruhps2048509/r2-inv/portable",
    ),
    &Inverse(
        InverseKind::R2,
        Variant::OptimizedPclmul,
        "ntruhps2048509/r2-inv/pclmul",
    ),
    &Inverse(
        InverseKind::Rq,
        Variant::Before,
        "ntruhps2048509/rq-inv/before",
    ),
    &Inverse(
        InverseKind::Rq,
        Variant::Optimized,
        "ntruhps2048509/rq-inv/optimized",
    ),
    &Inverse(
        InverseKind::Rq,
        Variant::OptimizedPortable,
        "ntruhps2048509/rq-inv/optimized-portable",
    ),
    &Inverse(
        InverseKind::Rq,
        Variant::OptimizedPclmul,
        "ntruhps2048509/rq-inv/optimized-pclmul",
    ),
    &RqMul,
    &R2Mul,
    &Api(Variant::Before, "ntruhps2048509/api/before"),
    &Api(Variant::Optimized, "ntruhps2048509/api/optimized"),
    &Api(
        Variant::OptimizedPortable,
        "ntruhps2048509/api/optimized-portable",
    ),
    &Api(
        Variant::OptimizedPclmul,
        "ntruhps2048509/api/optimized-pclmul",
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
        let kp = self.0.keypair(rng);
        (kp.pk.to_vec(), kp.sk.to_vec())
    }
    fn enc(&self, pk: &[u8], rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        let mut seed = [0u8; SAMPLE_RM_BYTES];
        rng.fill(&mut seed);
        let (c, k) = self
            .0
            .encaps_derand(pk, &seed)
            .expect("the KAT's own key has the right length");
        (c.to_vec(), k.to_vec())
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Vec<u8> {
        self.0
            .decaps(sk, ct)
            .expect("the KAT's own key and ciphertext have the right lengths")
            .to_vec()
    }
}

static KAT: KatScheme = KatScheme {
    name: "ntruhps2048509",
    variants: &[
        "reference",
        "before",
        "optimized",
        "optimized-portable",
        "optimized-pclmul",
    ],
    make: |v| {
        Variant::from_name(v)
            .filter(|v| v.available())
            .map(|v| Box::new(Kat(v)) as Box<dyn KatKem>)
    },
};

/// The ntruhps2048509 schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[&KAT];
