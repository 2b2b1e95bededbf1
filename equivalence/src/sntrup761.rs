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

use crate::input::Gen;
use crate::kat::KatKem;
use crate::registry::{Level, Mismatch, Outcome, Pair, Precondition, i16_bytes};
use crate::schemes::KatScheme;

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
    ) -> Result<(Vec<u8>, [u8; 32]), reference::Error> {
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
    pub fn decapsulate(self, sk: &[u8], ct: &[u8]) -> Result<[u8; 32], reference::Error> {
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

/// A multiplication input pattern, chosen by the selector byte (libgcrypt's
/// t-sntrup761 patterns, plus |g| <= 2).
fn mult_inputs(g: &mut Gen) -> ([Fq; P], [Small; P], &'static str) {
    let rand_fq = |g: &mut Gen| (g.below(2 * Q12 as u64 + 1) as i32 - Q12) as Fq;
    let rand_small = |g: &mut Gen| g.below(3) as Small - 1;
    let q12 = Q12 as Fq;
    let mut f = [0 as Fq; P];
    let mut s = [0 as Small; P];
    // Ten patterns over the 256 selector values, without a division.
    let name = match (usize::from(g.selector()) * 10) >> 8 {
        0 => {
            f.fill(q12);
            s.fill(1);
            "all +q12, g = +1"
        }
        1 => {
            f.fill(-q12);
            s.fill(-1);
            "all -q12, g = -1"
        }
        2 => {
            for (i, x) in f.iter_mut().enumerate() {
                *x = if i & 1 == 0 { q12 } else { -q12 };
            }
            for (i, x) in s.iter_mut().enumerate() {
                *x = if i & 1 == 0 { 1 } else { -1 };
            }
            "alternating signs"
        }
        3 => {
            f[P - 1] = q12;
            s[P - 1] = 1;
            "single nonzero at p-1"
        }
        4 => {
            f.iter_mut().for_each(|x| *x = rand_fq(g));
            s[0] = 1;
            s[P - 1] = -1;
            "g with only g0 and g_{p-1}"
        }
        5 => {
            f.iter_mut().for_each(|x| *x = rand_fq(g));
            // Random weight-w g: w distinct positions, random signs.
            let mut placed = 0;
            while placed < W {
                let i = g.below(P as u64) as usize;
                if s[i] == 0 {
                    s[i] = if g.below(2) == 0 { 1 } else { -1 };
                    placed += 1;
                }
            }
            "random weight-w g"
        }
        6 => {
            f.iter_mut().for_each(|x| *x = rand_fq(g));
            s.iter_mut().for_each(|x| *x = g.below(5) as Small - 2);
            "|g| <= 2 (arbitrary secret-key bytes)"
        }
        7 => {
            // Mixed signs at the bound, |g| = 2 where f is extreme.
            for x in f.iter_mut() {
                *x = if g.below(2) == 0 { q12 } else { -q12 };
            }
            for x in s.iter_mut() {
                *x = if g.below(2) == 0 { 2 } else { -2 };
            }
            "mixed signs at the bound, |g| = 2"
        }
        8 => "zeros",
        _ => {
            f.iter_mut().for_each(|x| *x = rand_fq(g));
            s.iter_mut().for_each(|x| *x = rand_small(g));
            "random"
        }
    };
    (f, s, name)
}

struct RqMultSmall;

impl Pair for RqMultSmall {
    fn name(&self) -> &'static str {
        "sntrup761/rq-mult-small"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn default_cases(&self) -> usize {
        300
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let (f, s, _) = mult_inputs(&mut g);
        let mut a = [0; P];
        let mut b = [0; P];
        Reference::rq_mult_small(&mut a, &f, &s);
        Optimized::rq_mult_small(&mut b, &f, &s);
        Outcome::compare([("h", i16_bytes(&a).as_slice(), i16_bytes(&b).as_slice())])
    }
}

struct R3Mult;

impl Pair for R3Mult {
    fn name(&self) -> &'static str {
        "sntrup761/r3-mult"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn default_cases(&self) -> usize {
        300
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let (f, s, _) = mult_inputs(&mut g);
        // R3 operands: f's sign pattern as a small polynomial; a quarter of the time
        // a value of 2 where |f| is large, as arbitrary secret-key bytes may give.
        let e: [Small; P] = core::array::from_fn(|i| {
            let x = f[i];
            if x > (Q12 as Fq >> 1) {
                if input.get(1).is_some_and(|b| b & 3 == 0) {
                    2
                } else {
                    1
                }
            } else if x < -(Q12 as Fq >> 1) {
                -1
            } else {
                0
            }
        });
        let mut a = [0; P];
        let mut b = [0; P];
        Reference::r3_mult(&mut a, &e, &s);
        Optimized::r3_mult(&mut b, &e, &s);
        let a: Vec<u8> = a.iter().map(|&x| x as u8).collect();
        let b: Vec<u8> = b.iter().map(|&x| x as u8).collect();
        Outcome::compare([("h", a.as_slice(), b.as_slice())])
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
    fn preconditions(&self) -> &'static [Precondition] {
        &WITH_PRECONDITION
    }
    fn default_cases(&self) -> usize {
        300
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let source = Source::ALL[((usize::from(g.selector()) * 3) >> 8).min(2)];
        let seed = g.array::<48>();
        let mut ra = Tape::new(source.make(&seed));
        let mut rb = source.make(&seed);
        let kind = self.0;
        let draw = |reference: bool, rng: &mut dyn RandomSource| -> Vec<u8> {
            let mut x = [0 as Small; P];
            match (kind, reference) {
                (DrawKernel::Short, true) => Reference::short_random(&mut x, rng),
                (DrawKernel::Short, false) => BatchedRng::short_random(&mut x, rng),
                (DrawKernel::Small, true) => Reference::small_random(&mut x, rng),
                (DrawKernel::Small, false) => BatchedRng::small_random(&mut x, rng),
            }
            x.iter().map(|&c| c as u8).collect()
        };
        let a = draw(true, &mut ra);
        let b = draw(false, rb.as_mut());
        match Outcome::compare([("poly", a.as_slice(), b.as_slice())]) {
            Outcome::Mismatch(m) if !ra.is_call_boundary_invariant() => {
                // The same bytes as one stream must give the same polynomial.
                let mut replay = Replay::new(ra.bytes().to_vec());
                let b2 = draw(false, &mut replay);
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

    /// A fresh source seeded by 48 bytes.
    pub fn make(self, seed: &[u8; 48]) -> Box<dyn RandomSource> {
        match self {
            Source::ChaCha20 => Box::new(ChaCha20Source::new(core::array::from_fn(|i| seed[i]))),
            Source::Shake256 => Box::new(Shake256Source::new(seed)),
            Source::NistDrbg => Box::new(NistDrbg::new(seed, None)),
        }
    }
}

/// Everything one variant outputs for one seed: pk, sk, ct, ss, ss from decap, and
/// the implicit-rejection ss of a fixed random ciphertext.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// keypair, encap, decap, and decap of `bad_ct`, all drawing from one source.
///
/// # Panics
/// If `bad_ct` is not 1039 bytes, or if the KEM rejects its own key or ciphertext
/// (a bug, which the lab wants to see).
pub fn transcript(v: Variant, rng: &mut dyn RandomSource, bad_ct: &[u8]) -> Transcript {
    let mut kp = v.keypair(rng);
    let (ct, ss) = v
        .encapsulate(&kp.pk, rng)
        .expect("a generated public key has the right length");
    let ss_dec = v.decapsulate(&kp.sk, &ct).expect("lengths are right");
    let ss_rej = v.decapsulate(&kp.sk, bad_ct).expect("lengths are right");
    Transcript {
        pk: core::mem::take(&mut kp.pk),
        sk: core::mem::take(&mut kp.sk),
        ct,
        ss: ss.to_vec(),
        ss_dec: ss_dec.to_vec(),
        ss_rej: ss_rej.to_vec(),
    }
}

/// Compares two transcripts field by field.
pub fn compare_transcripts(a: &Transcript, b: &Transcript) -> Outcome {
    Outcome::compare([
        ("pk", a.pk.as_slice(), b.pk.as_slice()),
        ("sk", &a.sk, &b.sk),
        ("ct", &a.ct, &b.ct),
        ("ss", &a.ss, &b.ss),
        ("ss (decap)", &a.ss_dec, &b.ss_dec),
        ("ss (implicit rejection)", &a.ss_rej, &b.ss_rej),
    ])
}

/// Runs `left` and `right` from the same seed of `source` and compares. When the
/// variants draw differently and the source is not call-boundary invariant, a
/// difference is reported as [`Outcome::PreconditionNotMet`], not a mismatch.
pub fn run_api(left: Variant, right: Variant, source: Source, input: &[u8]) -> Outcome {
    let mut g = Gen::new(input);
    let seed = g.array::<48>();
    let mut bad_ct = vec![0u8; CIPHERTEXT_BYTES];
    g.fill(&mut bad_ct);
    let mut rl = Tape::new(source.make(&seed));
    let mut rr = source.make(&seed);
    let invariant = rl.is_call_boundary_invariant();
    let a = transcript(left, &mut rl, &bad_ct);
    let b = transcript(right, rr.as_mut(), &bad_ct);
    match compare_transcripts(&a, &b) {
        Outcome::Mismatch(m) if !invariant && left.batches_draws() != right.batches_draws() => {
            // Evidence that the call boundaries, and nothing else, make the difference:
            // fed the very bytes the left side drew, as one stream, the right side must
            // agree exactly.
            let mut replay = Replay::new(rl.bytes().to_vec());
            let b2 = transcript(right, &mut replay, &bad_ct);
            if replay.overrun() || replay.remaining() != 0 {
                return Outcome::Mismatch(Mismatch {
                    field: "bytes drawn".into(),
                    offset: 0,
                    reference: rl.bytes().len().to_le_bytes().to_vec(),
                    optimized: (rl.bytes().len() - replay.remaining())
                        .to_le_bytes()
                        .to_vec(),
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
    fn preconditions(&self) -> &'static [Precondition] {
        if self.left.batches_draws() != self.right.batches_draws() {
            &WITH_PRECONDITION
        } else {
            &[]
        }
    }
    fn default_cases(&self) -> usize {
        // The reference keygen takes milliseconds (R3_recip, Rq_recip3, per-step
        // products): keep a default run in seconds.
        20
    }
    fn run(&self, input: &[u8]) -> Outcome {
        run_api(self.left, self.right, self.source, input)
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
        let mut kp = self.variant.keypair(rng);
        (core::mem::take(&mut kp.pk), core::mem::take(&mut kp.sk))
    }
    fn enc(&self, pk: &[u8], rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        let (c, k) = self
            .variant
            .encapsulate(pk, rng)
            .expect("the KAT's own key is valid");
        (c, k.to_vec())
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Vec<u8> {
        self.variant
            .decapsulate(sk, ct)
            .expect("the KAT's own key and ciphertext have the right lengths")
            .to_vec()
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

impl rand_core_010::TryRng for SameStream<'_> {
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

impl rand_core_010::TryCryptoRng for SameStream<'_> {}
