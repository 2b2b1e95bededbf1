//! ML-KEM pairs and variants (optimization 5, Go CL 715381).
//!
//! * `ml-kem/encrypt-u` (kernel): u = NTT⁻¹(Âᵀ ∘ ŷ) + e1 from both kernels, every k,
//!   on random and bound-extreme canonical inputs (every operand of a column at q−1 for
//!   every k included), the optimized output's contract checked.
//! * `ml-kem-512`, `ml-kem-768`, `ml-kem-1024` (API): for the same keys, m and a random
//!   ciphertext both tiers give identical c, K, decapsulated K and implicit-rejection K.
//! * `keccak-f1600-x4` (kernel): the shared four-way Keccak, AVX2 against portable.

use reference::RandomSource;
use reference::mlkem::{
    self as r, Kernels, MAX_K, Matrix, NttPoly, Params, Poly, Reference, field::Q,
};

use optimized::mlkem::Optimized;

use crate::kat::{KatKem, KatScheme};
use crate::pair::{Bound, Exposure, Input, Level, Outcome, Pair, Precondition, Sides, u16_bytes};

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

    /// ML-KEM.KeyGen: the shipped [`reference::mlkem::keygen`] (one 64-byte draw for
    /// d ‖ z; the same code for both variants).
    pub fn keygen(self, p: &Params, rng: &mut dyn RandomSource) -> r::KeyPair {
        r::keygen(p, &mut &mut *rng)
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
    ) -> Result<(Vec<u8>, reference::SharedSecret), reference::Error> {
        match self {
            Variant::Reference => r::encaps_internal::<Reference>(p, ek, m),
            Variant::Optimized => r::encaps_internal::<Optimized>(p, ek, m),
        }
    }

    /// ML-KEM.Encaps: the shipped [`reference::mlkem::encaps`] (checks `ek`, then one
    /// 32-byte draw for m).
    ///
    /// # Errors
    /// As [`reference::mlkem::encaps`].
    pub fn encaps(
        self,
        p: &Params,
        ek: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, reference::SharedSecret), reference::Error> {
        match self {
            Variant::Reference => r::encaps::<Reference>(p, ek, &mut &mut *rng),
            Variant::Optimized => r::encaps::<Optimized>(p, ek, &mut &mut *rng),
        }
    }

    /// ML-KEM.Encaps_internal on a parsed key.
    pub fn encapsulate(
        self,
        ek: &r::EncapsulationKey,
        m: &[u8; 32],
    ) -> (Vec<u8>, reference::SharedSecret) {
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
    ) -> Result<reference::SharedSecret, reference::Error> {
        match self {
            Variant::Reference => r::decapsulate::<Reference>(dk, c),
            Variant::Optimized => r::decapsulate::<Optimized>(dk, c),
        }
    }

    /// ML-KEM.Decaps.
    ///
    /// # Errors
    /// As [`reference::mlkem::decaps`].
    pub fn decaps(
        self,
        p: &Params,
        dk: &[u8],
        c: &[u8],
    ) -> Result<reference::SharedSecret, reference::Error> {
        match self {
            Variant::Reference => r::decaps::<Reference>(p, dk, c),
            Variant::Optimized => r::decaps::<Optimized>(p, dk, c),
        }
    }
}

/// The canonical-coefficient patterns of the kernel pair: random, all q−1, all 0,
/// alternating 0 / q−1, a single q−1, all 1, and — the worst case for every
/// accumulator — all q−1 in every operand of the case.
const PATTERNS: usize = 7;

/// Fills a canonical polynomial: `pattern` 0 reads every coefficient from the input
/// (two bytes each), the others are the extreme patterns of [`PATTERNS`].
fn poly_for(g: &mut Input<'_>, pattern: usize) -> [u16; 256] {
    let mut c = [0u16; 256];
    match pattern {
        0 => c.iter_mut().for_each(|x| *x = g.below(u64::from(Q)) as u16),
        1 | 6 => c.fill(Q - 1),
        2 => {}
        3 => c.iter_mut().step_by(2).for_each(|x| *x = Q - 1),
        4 => c[g.below(256) as usize] = Q - 1,
        _ => c.fill(1),
    }
    c
}

/// The decoded input of an `ml-kem/encrypt-u` case.
struct EncryptUInput {
    k: usize,
    a: Matrix,
    y: [NttPoly; MAX_K],
    e1: [Poly; MAX_K],
}

/// Decodes a case: the selector picks k (every parameter set: 2, 3, 4) and an
/// extreme pattern; each operand takes that pattern or random coefficients by one
/// input bit, except pattern 6, which sets every operand to all q−1 (the column sums'
/// maximum for the case's k).
fn encrypt_u_input(input: &[u8]) -> EncryptUInput {
    let mut g = Input::new(input);
    let sel = g.selector();
    // k cycles fastest, so the first cases of a run see every parameter set; the
    // rest of the selector spreads over the patterns.
    let k = 2 + usize::from(sel % 3);
    let pat = (usize::from(sel / 3) * PATTERNS) / 86;
    let mut a: Matrix = [[NttPoly::ZERO; MAX_K]; MAX_K];
    let mut y = [NttPoly::ZERO; MAX_K];
    let mut e1 = [Poly::ZERO; MAX_K];
    let pick = |g: &mut Input<'_>| if pat == 6 || g.bit() { pat } else { 0 };
    for row in a.iter_mut().take(k) {
        for e in row.iter_mut().take(k) {
            let p = pick(&mut g);
            *e = NttPoly(poly_for(&mut g, p));
        }
    }
    for e in y.iter_mut().take(k) {
        let p = pick(&mut g);
        *e = NttPoly(poly_for(&mut g, p));
    }
    for e in e1.iter_mut().take(k) {
        *e = Poly(poly_for(&mut g, pat));
    }
    EncryptUInput { k, a, y, e1 }
}

const ENCRYPT_U_BOUNDS: &[Bound] = &[
    Bound::with_points("k", 2, 4, &[3]),
    Bound::range("Â, ŷ, e1 coefficient", 0, Q as i128 - 1),
    Bound::range(
        "Â[j][i]·ŷ[j] coefficient product",
        0,
        (Q as i128 - 1) * (Q as i128 - 1),
    ),
    Bound::range("operands of one column at q−1", 0, 2 * MAX_K as i128),
];

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
    fn sides(&self) -> Sides {
        Sides::new(
            "reference::mlkem::Reference::encrypt_u (k² inverse NTTs, summed in the normal domain)",
            "optimized::mlkem::Optimized::encrypt_u (sum in the NTT domain, k inverse NTTs)",
        )
    }
    fn bounds(&self) -> &'static [Bound] {
        ENCRYPT_U_BOUNDS
    }
    fn input_len(&self) -> usize {
        // Every operand random: (k² + k) polynomials of 256 two-byte coefficients.
        1 + (MAX_K * MAX_K + 2 * MAX_K) * (2 * 256 + 1)
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let EncryptUInput { k, a, y, e1 } = encrypt_u_input(input);
        let mut ur = [Poly::ZERO; MAX_K];
        let mut uo = [Poly::ZERO; MAX_K];
        Reference::encrypt_u(k, &a, &y, &e1, &mut ur);
        K::encrypt_u(k, &a, &y, &e1, &mut uo);
        let names = ["u[0]", "u[1]", "u[2]", "u[3]"];
        let fields: Vec<(&str, Vec<u8>, Vec<u8>)> = (0..k)
            .map(|i| (names[i], u16_bytes(&ur[i].0), u16_bytes(&uo[i].0)))
            .collect();
        // The contract's equality with the k²-inverse-NTT result is the comparison
        // below; its range part is checked here, on the optimized output.
        Outcome::contract(
            "encrypt_u ensures: u[..k] canonical (optimized)",
            uo[..k].iter().all(|p| r::is_canonical(&p.0)),
        )
        .and(|| {
            Outcome::compare(
                fields
                    .iter()
                    .map(|(n, a, b)| (*n, a.as_slice(), b.as_slice())),
            )
        })
    }
    /// NTT(u\[i\] − e1\[i\]) = Σ_j Â\[j\]\[i\] ∘ ŷ\[j\] for the optimized, canonical u:
    /// NTT is a bijection on canonical polynomials and NTT⁻¹ is linear, so this holds
    /// exactly for u = e1 + Σ_j NTT⁻¹(Â\[j\]\[i\] ∘ ŷ\[j\]), the reference's result,
    /// at the cost of k forward NTTs instead of the reference's k² inverse ones.
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        let EncryptUInput { k, a, y, e1 } = encrypt_u_input(input);
        let mut uo = [Poly::ZERO; MAX_K];
        K::encrypt_u(k, &a, &y, &e1, &mut uo);
        let names = [
            "NTT(u[0] − e1[0])",
            "NTT(u[1] − e1[1])",
            "NTT(u[2] − e1[2])",
            "NTT(u[3] − e1[3])",
        ];
        // Σ_j Â[j][i] ∘ ŷ[j] with the reference's MultiplyNTTs and T_q sum, against
        // the NTT of the optimized u[i] − e1[i] (once u is known to be canonical).
        let in_ntt_domain = |i: usize| {
            let want = a[..k]
                .iter()
                .zip(&y[..k])
                .map(|(row, yj)| r::ntt::multiply_ntts(&row[i], yj))
                .fold(NttPoly::ZERO, |acc, p| r::ntt::ntt_add(&acc, &p));
            let mut diff = Poly::ZERO;
            for ((d, &u), &e) in diff.0.iter_mut().zip(&uo[i].0).zip(&e1[i].0) {
                *d = r::field::sub(u, e);
            }
            (u16_bytes(&want.0), u16_bytes(&r::ntt::ntt(&diff).0))
        };
        Outcome::contract(
            "encrypt_u ensures: u[..k] canonical (optimized)",
            uo[..k].iter().all(|p| r::is_canonical(&p.0)),
        )
        .and(|| {
            let fields: Vec<(Vec<u8>, Vec<u8>)> = (0..k).map(in_ntt_domain).collect();
            Outcome::compare(
                fields
                    .iter()
                    .zip(names)
                    .map(|((want, got), n)| (n, want.as_slice(), got.as_slice())),
            )
        })
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let EncryptUInput { k, a, y, e1 } = encrypt_u_input(input);
        seen("k", k as i128);
        let coeffs = a[..k]
            .iter()
            .flat_map(|row| row[..k].iter().flat_map(|e| e.0))
            .chain((0..k).flat_map(|j| y[j].0))
            .chain((0..k).flat_map(|i| e1[i].0));
        for c in coeffs {
            seen("Â, ŷ, e1 coefficient", i128::from(c));
        }
        // Column i of Âᵀ is (Â[0][i], .., Â[k−1][i]), multiplied by ŷ.
        for i in 0..k {
            for n in 0..256 {
                let mut at_max = 0;
                for (row, yj) in a[..k].iter().zip(&y[..k]) {
                    let (x, w) = (row[i].0[n], yj.0[n]);
                    seen(
                        "Â[j][i]·ŷ[j] coefficient product",
                        i128::from(x) * i128::from(w),
                    );
                    at_max += i128::from(x == Q - 1) + i128::from(w == Q - 1);
                }
                seen("operands of one column at q−1", at_max);
            }
        }
    }
}

/// An API pair: the same keys (one key generation: it has no inverse NTT and is the
/// same code for both tiers, so its bytes are inputs here, not evidence), the same m,
/// and a random ciphertext give identical c, K, decapsulated K and implicit-rejection
/// K from the two tiers, through the byte API and the parsed-key API.
struct Api(&'static Params, &'static str);

impl Pair for Api {
    fn name(&self) -> &'static str {
        self.1
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn sides(&self) -> Sides {
        Sides::new(
            "ML-KEM encaps/decaps over reference::mlkem::Reference",
            "ML-KEM encaps/decaps over optimized::mlkem::Optimized",
        )
    }
    fn input_len(&self) -> usize {
        1 + 4 * 32
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let p = self.0;
        let mut g = Input::new(input);
        let d = g.array::<32>();
        let z = g.array::<32>();
        let m = g.array::<32>();
        let mut bad_ct = vec![0u8; p.ct_len()];
        g.expand(&mut bad_ct);
        let kp = r::keygen_internal(p, &d, &z);
        let ek = r::EncapsulationKey::from_bytes(p, kp.ek()).expect("valid");
        let dk = r::DecapsulationKey::from_bytes(p, kp.dk()).expect("valid");
        let run = |v: Variant| {
            let (c, k) = v
                .encaps_internal(p, kp.ek(), &m)
                .expect("generated ek is valid");
            let k_dec = v.decaps(p, kp.dk(), &c).expect("generated dk is valid");
            let k_rej = v.decaps(p, kp.dk(), &bad_ct).expect("lengths are right");
            // The parsed-key API must give the same bytes as the encoded-key API.
            let (c2, k2) = v.encapsulate(&ek, &m);
            let k_rej2 = v.decapsulate(&dk, &bad_ct).expect("lengths are right");
            let consistent = c2 == c && k2 == k && k_rej2 == k_rej;
            (
                c,
                k.as_bytes().to_vec(),
                k_dec.as_bytes().to_vec(),
                k_rej.as_bytes().to_vec(),
                consistent,
            )
        };
        let a = run(Variant::Reference);
        let b = run(Variant::Optimized);
        // Each tier on its own, so even the same slip on both sides is reported (the
        // label is formatted only for a report).
        let parsed_key = |v: Variant, holds: bool| {
            if holds {
                return Outcome::Equal;
            }
            Outcome::contract(
                &format!(
                    "parsed-key API gives the encoded-key API's c, K and implicit-rejection K ({})",
                    v.name()
                ),
                false,
            )
        };
        // Each tier on its own: Decaps of its own ciphertext gives the K it
        // encapsulated (the protocol code both tiers share, which the comparison
        // cannot see, included).
        let round_trip = |v: Variant, k: &[u8], k_dec: &[u8]| {
            Outcome::contract(
                &format!("Decaps(dk, c) = K of Encaps ({})", v.name()),
                k == k_dec,
            )
        };
        round_trip(Variant::Reference, &a.1, &a.2)
            .and(|| round_trip(Variant::Optimized, &b.1, &b.2))
            .and(|| parsed_key(Variant::Reference, a.4))
            .and(|| parsed_key(Variant::Optimized, b.4))
            .and(|| {
                Outcome::compare_exposed([
                    ("c", Exposure::Public, a.0.as_slice(), b.0.as_slice()),
                    ("K", Exposure::Secret, &a.1, &b.1),
                    ("K (decaps)", Exposure::Secret, &a.2, &b.2),
                    ("K (implicit rejection)", Exposure::Secret, &a.3, &b.3),
                ])
            })
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

/// The four-way Keccak-f\[1600\] both ML-KEM tiers hash with: the AVX2 path against
/// the portable one (RustCrypto `keccak` on each state), on states read from the
/// input and states with all-zero or all-one lanes mixed in. On a CPU without AVX2
/// both would be the portable path, so every case reports the precondition as not
/// met instead of a vacuous agreement.
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
    fn sides(&self) -> Sides {
        Sides::new(
            "reference::keccak_x4::f1600_x4_portable (the keccak crate on each state)",
            "reference::keccak_x4::f1600_x4 (AVX2, four states lane-sliced)",
        )
    }
    fn preconditions(&self) -> &'static [Precondition] {
        &[AVX2]
    }
    fn input_len(&self) -> usize {
        1 + 100 * 9
    }
    fn run(&self, input: &[u8]) -> Outcome {
        use reference::keccak_x4::{f1600_x4, f1600_x4_portable, simd_available};
        if !simd_available() {
            return Outcome::PreconditionNotMet {
                which: AVX2.name,
                detail: "the CPU lacks AVX2".into(),
            };
        }
        let mut g = Input::new(input);
        let extremes = g.selector() & 1 == 1;
        let mut state = [[0u64; 4]; 25];
        for lane in state.iter_mut().flatten() {
            *lane = match (extremes, g.u8() & 3) {
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
        let kp = r::keygen(self.params, &mut &mut *rng);
        (kp.ek().to_vec(), kp.dk().to_vec())
    }
    fn enc(
        &self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, Vec<u8>), reference::Error> {
        let (c, k) = self.variant.encaps(self.params, pk, rng)?;
        Ok((c, k.as_bytes().to_vec()))
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, reference::Error> {
        Ok(self
            .variant
            .decaps(self.params, sk, ct)?
            .as_bytes()
            .to_vec())
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
