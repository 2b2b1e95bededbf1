//! ML-KEM pairs and variants (optimization 5, Go CL 715381).
//!
//! * `ml-kem/encrypt-u` (kernel): u = NTT⁻¹(Âᵀ ∘ ŷ) + e1 from both kernels, every k,
//!   on random and bound-extreme canonical inputs.
//! * `ml-kem-512`, `ml-kem-768`, `ml-kem-1024` (API): the same d, z, m give identical
//!   ek, dk, c and K, and decapsulating a random ciphertext gives the same implicit
//!   rejection key.

use reference::RandomSource;
use reference::mlkem::{
    self as r, Kernels, MAX_K, Matrix, NttPoly, Params, Poly, Reference, field::Q,
};

use optimized::mlkem::Optimized;

use crate::input::Gen;
use crate::kat::KatKem;
use crate::registry::{Level, Outcome, Pair, Precondition, u16_bytes};
use crate::schemes::KatScheme;

/// The ML-KEM variants, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// k² inverse NTTs (before the CL).
    Reference,
    /// k inverse NTTs (after the CL).
    Optimized,
}

impl Variant {
    /// Every variant, reference first.
    pub const ALL: [Variant; 2] = [Variant::Reference, Variant::Optimized];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Reference => "reference",
            Variant::Optimized => "optimized",
        }
    }

    /// Looks a variant up by name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }

    /// ML-KEM.KeyGen_internal (the same code for both variants: KeyGen has no
    /// inverse NTT).
    pub fn keygen_internal(self, p: &Params, d: &[u8; 32], z: &[u8; 32]) -> r::KeyPair {
        r::keygen_internal(p, d, z)
    }

    /// ML-KEM.Encaps_internal.
    ///
    /// # Errors
    /// As [`reference::mlkem::encaps_internal`].
    pub fn encaps_internal(
        self,
        p: &Params,
        ek: &[u8],
        m: &[u8; 32],
    ) -> Result<(Vec<u8>, [u8; 32]), reference::Error> {
        match self {
            Variant::Reference => r::encaps_internal::<Reference>(p, ek, m),
            Variant::Optimized => r::encaps_internal::<Optimized>(p, ek, m),
        }
    }

    /// ML-KEM.Encaps_internal on a parsed key.
    pub fn encapsulate(self, ek: &r::EncapsulationKey, m: &[u8; 32]) -> (Vec<u8>, [u8; 32]) {
        match self {
            Variant::Reference => r::encapsulate_internal::<Reference>(ek, m),
            Variant::Optimized => r::encapsulate_internal::<Optimized>(ek, m),
        }
    }

    /// ML-KEM.Decaps_internal on a parsed key.
    ///
    /// # Errors
    /// As [`reference::mlkem::decapsulate`].
    pub fn decapsulate(
        self,
        dk: &r::DecapsulationKey,
        c: &[u8],
    ) -> Result<[u8; 32], reference::Error> {
        match self {
            Variant::Reference => r::decapsulate::<Reference>(dk, c),
            Variant::Optimized => r::decapsulate::<Optimized>(dk, c),
        }
    }

    /// ML-KEM.Decaps.
    ///
    /// # Errors
    /// As [`reference::mlkem::decaps`].
    pub fn decaps(self, p: &Params, dk: &[u8], c: &[u8]) -> Result<[u8; 32], reference::Error> {
        match self {
            Variant::Reference => r::decaps::<Reference>(p, dk, c),
            Variant::Optimized => r::decaps::<Optimized>(p, dk, c),
        }
    }
}

/// Fills a canonical polynomial according to the selector: random, all q-1, all 0,
/// alternating 0 / q-1, a single q-1, or all 1.
fn poly_for(g: &mut Gen, pattern: u8) -> [u16; 256] {
    let mut c = [0u16; 256];
    match pattern % 6 {
        0 => c.iter_mut().for_each(|x| *x = g.below(u64::from(Q)) as u16),
        1 => c.fill(Q - 1),
        2 => {}
        3 => c.iter_mut().step_by(2).for_each(|x| *x = Q - 1),
        4 => c[g.below(256) as usize] = Q - 1,
        _ => c.fill(1),
    }
    c
}

/// The kernel pair: [`Reference`] against the kernel `K` (the registry uses
/// [`Optimized`]; tests plug in deliberately wrong kernels to show the pair fails).
pub struct EncryptU<K>(core::marker::PhantomData<K>);

impl<K> EncryptU<K> {
    /// The pair for kernel `K`.
    pub const fn new() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<K> Default for EncryptU<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Kernels + Sync> Pair for EncryptU<K> {
    fn name(&self) -> &'static str {
        "ml-kem/encrypt-u"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let sel = g.selector();
        let k = 2 + (sel % 3) as usize;
        // Selector bits above the rank pick the pattern; pattern 0 is random. Each
        // operand draws its own pattern half the time so extremes mix with random.
        let pattern = sel / 3;
        let mut a: Matrix = [[NttPoly::ZERO; MAX_K]; MAX_K];
        let mut y = [NttPoly::ZERO; MAX_K];
        let mut e1 = [Poly::ZERO; MAX_K];
        for row in a.iter_mut().take(k) {
            for e in row.iter_mut().take(k) {
                let pat = if g.below(2) == 0 { pattern } else { 0 };
                *e = NttPoly(poly_for(&mut g, pat));
            }
        }
        for e in y.iter_mut().take(k) {
            let pat = if g.below(2) == 0 { pattern } else { 0 };
            *e = NttPoly(poly_for(&mut g, pat));
        }
        for e in e1.iter_mut().take(k) {
            *e = Poly(poly_for(&mut g, pattern));
        }
        let mut ur = [Poly::ZERO; MAX_K];
        let mut uo = [Poly::ZERO; MAX_K];
        Reference::encrypt_u(k, &a, &y, &e1, &mut ur);
        K::encrypt_u(k, &a, &y, &e1, &mut uo);
        let names = ["u[0]", "u[1]", "u[2]", "u[3]"];
        let fields: Vec<(&str, Vec<u8>, Vec<u8>)> = (0..k)
            .map(|i| (names[i], u16_bytes(&ur[i].0), u16_bytes(&uo[i].0)))
            .collect();
        Outcome::compare(
            fields
                .iter()
                .map(|(n, a, b)| (*n, a.as_slice(), b.as_slice())),
        )
    }
}

struct Api(&'static Params, &'static str);

impl Pair for Api {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let p = self.0;
        let mut g = Gen::new(input);
        let d = g.array::<32>();
        let z = g.array::<32>();
        let m = g.array::<32>();
        let mut bad_ct = vec![0u8; p.ct_len()];
        g.fill(&mut bad_ct);
        let run = |v: Variant| {
            let kp = v.keygen_internal(p, &d, &z);
            let (c, k) = v
                .encaps_internal(p, &kp.ek, &m)
                .expect("generated ek is valid");
            let k_dec = v.decaps(p, &kp.dk, &c).expect("generated dk is valid");
            let k_rej = v.decaps(p, &kp.dk, &bad_ct).expect("lengths are right");
            // The parsed-key API must give the same bytes as the encoded-key API; a
            // difference shows up as this variant's implicit-rejection field.
            let ek = r::EncapsulationKey::from_bytes(p, &kp.ek).expect("valid");
            let dk = r::DecapsulationKey::from_bytes(p, &kp.dk).expect("valid");
            let (c2, k2) = v.encapsulate(&ek, &m);
            let k_rej2 = v.decapsulate(&dk, &bad_ct).expect("lengths are right");
            let consistent = c2 == c && k2 == k && k_rej2 == k_rej;
            let k_rej = if consistent {
                k_rej.to_vec()
            } else {
                // Variant-specific, so even the same slip on both sides is reported.
                format!("parsed-key API differs in {}", v.name()).into_bytes()
            };
            // The transcript keeps the test key's bytes (compared, never printed in
            // full); the key pair itself wipes what is left.
            let mut kp = kp;
            let (ek, dk) = (core::mem::take(&mut kp.ek), core::mem::take(&mut kp.dk));
            (ek, dk, c, k.to_vec(), k_dec.to_vec(), k_rej)
        };
        let a = run(Variant::Reference);
        let b = run(Variant::Optimized);
        Outcome::compare([
            ("ek", a.0.as_slice(), b.0.as_slice()),
            ("dk", &a.1, &b.1),
            ("c", &a.2, &b.2),
            ("K", &a.3, &b.3),
            ("K (decaps)", &a.4, &b.4),
            ("K (implicit rejection)", &a.5, &b.5),
        ])
    }
}

/// Every ML-KEM pair.
pub static PAIRS: &[&dyn Pair] = &[
    &KeccakX4,
    &EncryptU::<Optimized>::new(),
    &Api(&r::ML_KEM_512, "ml-kem-512"),
    &Api(&r::ML_KEM_768, "ml-kem-768"),
    &Api(&r::ML_KEM_1024, "ml-kem-1024"),
];

/// The four-way Keccak-f\[1600\] both ML-KEM tiers hash with: the dispatching path
/// (AVX2 where the CPU has it) against the portable one (`keccak::f1600` per state),
/// on random states and states with all-zero or all-one lanes mixed in. On a CPU
/// without AVX2 both would be the portable path, so every case reports the
/// precondition as not met instead of a vacuous agreement.
#[derive(Clone, Copy, Debug)]
pub struct KeccakX4;

const AVX2: Precondition = Precondition {
    name: "avx2",
    description: "the CPU supports AVX2 (is_x86_feature_detected!), so the dispatching path is the SIMD one",
};

impl Pair for KeccakX4 {
    fn name(&self) -> &'static str {
        "keccak-f1600-x4"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn preconditions(&self) -> &'static [Precondition] {
        &[AVX2]
    }
    fn run(&self, input: &[u8]) -> Outcome {
        use reference::keccak_x4::{f1600_x4, f1600_x4_portable, simd_available};
        if !simd_available() {
            return Outcome::PreconditionNotMet {
                which: AVX2.name,
                detail: "the CPU lacks AVX2".into(),
            };
        }
        let mut g = Gen::new(input);
        let extremes = g.selector() & 1 == 1;
        let mut state = [[0u64; 4]; 25];
        for lane in state.iter_mut().flatten() {
            *lane = match (extremes, g.below(4)) {
                (true, 0) => 0,
                (true, 1) => u64::MAX,
                _ => g.u64(),
            };
        }
        let mut dispatched = state;
        f1600_x4(&mut dispatched);
        let mut portable = state;
        f1600_x4_portable(&mut portable);
        let bytes = |s: &[[u64; 4]; 25]| -> Vec<u8> {
            s.iter().flatten().flat_map(|x| x.to_le_bytes()).collect()
        };
        Outcome::compare([(
            "state",
            bytes(&portable).as_slice(),
            bytes(&dispatched).as_slice(),
        )])
    }
}

/// ML-KEM as the NIST KAT driver runs it.
#[derive(Clone, Copy, Debug)]
pub struct Kat {
    /// The parameter set.
    pub params: &'static Params,
    /// The variant.
    pub variant: Variant,
}

impl KatKem for Kat {
    fn algname(&self) -> &'static str {
        self.params.name()
    }
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        // The KAT file prints the key: its bytes leave the wiped key pair.
        let mut kp = r::keygen(self.params, &mut &mut *rng);
        (core::mem::take(&mut kp.ek), core::mem::take(&mut kp.dk))
    }
    fn enc(&self, pk: &[u8], rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        let mut m = [0u8; 32];
        rng.fill(&mut m);
        let (c, k) = self
            .variant
            .encaps_internal(self.params, pk, &m)
            .expect("the KAT's own key is valid");
        (c, k.to_vec())
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Vec<u8> {
        self.variant
            .decaps(self.params, sk, ct)
            .expect("the KAT's own key and ciphertext have the right lengths")
            .to_vec()
    }
}

macro_rules! kat_scheme {
    ($id:ident, $name:literal, $params:expr) => {
        static $id: KatScheme = KatScheme {
            name: $name,
            variants: &["reference", "optimized"],
            make: |v| {
                Variant::from_name(v).map(|variant| {
                    Box::new(Kat {
                        params: &$params,
                        variant,
                    }) as Box<dyn KatKem>
                })
            },
        };
    };
}
kat_scheme!(KAT_512, "ml-kem-512", r::ML_KEM_512);
kat_scheme!(KAT_768, "ml-kem-768", r::ML_KEM_768);
kat_scheme!(KAT_1024, "ml-kem-1024", r::ML_KEM_1024);

/// The ML-KEM schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[&KAT_512, &KAT_768, &KAT_1024];
