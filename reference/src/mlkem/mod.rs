//! ML-KEM (FIPS 203, final, August 2024), generic over its [`Kernels`].
//!
//! Field arithmetic is canonical in [0, q) throughout, as in Go's
//! `crypto/internal/fips140/mlkem`, so raw outputs of the reference and the optimized
//! kernels are comparable byte for byte.
//!
//! The optimization under study (Go CL 715381) changes one step: line 19 of
//! Algorithm 14 (K-PKE.Encrypt), u = NTT⁻¹(Âᵀ ∘ ŷ) + e1. The reference kernel
//! [`Reference`] takes one inverse NTT per product (k² in all), as Go did before the
//! CL; the optimized tier sums in the NTT domain and takes k.
//!
//! | function | FIPS 203 |
//! |---|---|
//! | [`keygen_internal`] | Algorithm 16, ML-KEM.KeyGen_internal(d, z) |
//! | [`EncapsulationKey::from_bytes`] | section 7.2 input checks (length, modulus), then t̂, Â and H(ek) once |
//! | [`DecapsulationKey::from_bytes`] | section 7.3 input checks (length, hash), then ŝ and the embedded ek once |
//! | [`encapsulate_internal`] | Algorithm 17, ML-KEM.Encaps_internal(ek, m), on a parsed key |
//! | [`decapsulate`] | Algorithm 18, ML-KEM.Decaps_internal(dk, c), on a parsed key |
//! | [`encaps_internal`], [`decaps`] | the same on encoded keys (parse, then run) |
//! | [`keygen`] | Algorithm 19, ML-KEM.KeyGen (d and z from the caller's source) |
//! | [`encaps`] | Algorithm 20, ML-KEM.Encaps (m from the caller's source) |

pub mod contracts;
pub(crate) mod encode;
pub mod field;
pub(crate) mod kpke;
pub mod ntt;
pub(crate) mod sample;

pub use crate::SharedSecret;
use crate::ct;
use crate::error::{Error, check_length};
use crate::rng::RandomSource;
pub use contracts::{encrypt_u_ensures, encrypt_u_requires, is_canonical};
use field::{Fe, Zq};
pub use ntt::{NttPoly, Poly};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

/// The largest module rank (ML-KEM-1024).
pub const MAX_K: usize = 4;

/// Â, indexed `[i][j]` with Â\[i\]\[j\] = SampleNTT(ρ ‖ j ‖ i); only the top-left k×k
/// block is used. Generic over the coefficient type like [`Poly`] (`u16` by default).
pub type Matrix<F = Fe> = [[NttPoly<F>; MAX_K]; MAX_K];

/// An ML-KEM parameter set (FIPS 203 section 8, Table 2).
///
/// Only the three standard sets exist ([`ML_KEM_512`], [`ML_KEM_768`],
/// [`ML_KEM_1024`]); the fields are private so no other value can reach the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    name: &'static str,
    k: usize,
    eta1: usize,
    eta2: usize,
    du: u32,
    dv: u32,
}

impl Params {
    /// Name, for example `ML-KEM-768`.
    pub const fn name(&self) -> &'static str {
        self.name
    }
    /// Module rank k.
    pub const fn k(&self) -> usize {
        self.k
    }
    /// η1.
    pub const fn eta1(&self) -> usize {
        self.eta1
    }
    /// η2.
    pub const fn eta2(&self) -> usize {
        self.eta2
    }
    /// d_u.
    pub const fn du(&self) -> u32 {
        self.du
    }
    /// d_v.
    pub const fn dv(&self) -> u32 {
        self.dv
    }
    /// Encapsulation key bytes, 384k + 32.
    pub const fn ek_len(&self) -> usize {
        384 * self.k + 32
    }
    /// Decapsulation key bytes, 768k + 96.
    pub const fn dk_len(&self) -> usize {
        768 * self.k + 96
    }
    /// Ciphertext bytes, 32(d_u·k + d_v).
    pub const fn ct_len(&self) -> usize {
        32 * (self.du as usize * self.k + self.dv as usize)
    }
}

/// ML-KEM-512.
pub const ML_KEM_512: Params = Params {
    name: "ML-KEM-512",
    k: 2,
    eta1: 3,
    eta2: 2,
    du: 10,
    dv: 4,
};
/// ML-KEM-768.
pub const ML_KEM_768: Params = Params {
    name: "ML-KEM-768",
    k: 3,
    eta1: 2,
    eta2: 2,
    du: 10,
    dv: 4,
};
/// ML-KEM-1024.
pub const ML_KEM_1024: Params = Params {
    name: "ML-KEM-1024",
    k: 4,
    eta1: 2,
    eta2: 2,
    du: 11,
    dv: 5,
};
/// The three parameter sets.
pub const ALL: [&Params; 3] = [&ML_KEM_512, &ML_KEM_768, &ML_KEM_1024];

/// Shared-secret length.
pub const SS_LEN: usize = 32;
const _: () = assert!(SS_LEN == SharedSecret::LEN);

/// The kernels an ML-KEM tier supplies.
///
/// The contracts are hax-lib `requires`/`ensures` over executable predicates
/// ([`encrypt_u_requires`], [`encrypt_u_ensures`], in [`contracts`]): erased in a
/// normal build, type-checked under `--cfg hax` (CI), and run as `debug_assert!`s
/// around every call in the protocol code.
#[hax_lib::attributes]
pub trait Kernels {
    /// u = NTT⁻¹(Âᵀ ∘ ŷ) + e1 (Algorithm 14, line 19) for the first k entries.
    ///
    /// Preconditions: every coefficient of `a`, `y_hat` and `e1` is canonical (< q);
    /// slices hold at least k entries. Postcondition: `u[..k]` equals the reference
    /// computation with k² inverse NTTs ([`encrypt_u_per_product`]) coefficient for
    /// coefficient, so every correct tier writes the same bytes.
    ///
    /// # Panics
    /// If k > [`MAX_K`] or `y_hat`, `e1` or `u` holds fewer than k entries (the
    /// library's callers pass k from a parameter set and arrays of `MAX_K`).
    #[hax_lib::requires(encrypt_u_requires(k, a, y_hat, e1) && u.len() >= k)]
    #[hax_lib::ensures(|_| encrypt_u_ensures(k, a, y_hat, e1, &future(u)))]
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]);

    /// True only for [`Reference`], whose `encrypt_u` *is* the computation
    /// [`encrypt_u_ensures`] compares with: K-PKE.Encrypt skips that tautological debug
    /// check for it (it would double the reference's cost in every test) and runs it
    /// for every other tier.
    const IS_REFERENCE: bool = false;
}

/// The reference kernels: Go's `pkeEncrypt` before CL 715381 (k² inverse NTTs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Kernels for Reference {
    fn encrypt_u(k: usize, a: &Matrix, y_hat: &[NttPoly], e1: &[Poly], u: &mut [Poly]) {
        encrypt_u_per_product(k, a, y_hat, e1, u);
    }
    const IS_REFERENCE: bool = true;
}

/// The reference `encrypt_u`: Go's pkeEncrypt before CL 715381, one NTT⁻¹ per
/// product, k² in all: u\[i\] = e1\[i\] + Σ_j NTT⁻¹(Â\[j\]\[i\] ∘ ŷ\[j\]).
///
/// Generic over [`Zq`]: [`Reference`] runs it on `u16`, `refopt prove` on symbolic
/// forms (obligation MLKEM-5).
///
/// # Panics
/// As [`Kernels::encrypt_u`]: if k > [`MAX_K`] or a slice holds fewer than k entries.
pub fn encrypt_u_per_product<F: Zq>(
    k: usize,
    a: &Matrix<F>,
    y_hat: &[NttPoly<F>],
    e1: &[Poly<F>],
    u: &mut [Poly<F>],
) {
    for i in 0..k {
        u[i] = e1[i].clone();
        for j in 0..k {
            // Âᵀ: row i of the transpose is column i of Â.
            let mut product = F::multiply_ntts(&a[j][i], &y_hat[j]);
            let mut term = F::inverse_ntt(&product);
            u[i] = F::poly_add(&u[i], &term);
            // Both carry the secret y.
            F::wipe(&mut product.0);
            F::wipe(&mut term.0);
        }
    }
}

/// An ML-KEM key pair as byte strings. `Debug` shows ek and hides dk; dk is wiped
/// when the pair is dropped (`ZeroizeOnDrop`); `==` compares in constant time
/// ([`ConstantTimeEq`]).
///
/// The keys are lent: a caller can neither take the secret key out of the pair nor
/// replace or grow it in place (either would leave the old bytes unwiped); a copy it
/// makes (`dk().to_vec()`) is its own to wipe.
///
/// ```
/// use reference::mlkem::{ML_KEM_768, keygen_internal};
/// let kp = keygen_internal(&ML_KEM_768, &[1; 32], &[2; 32]);
/// assert_eq!((kp.ek().len(), kp.dk().len()), (1184, 2400));
/// ```
///
/// ```compile_fail,E0616
/// use reference::mlkem::{ML_KEM_768, keygen_internal};
/// let kp = keygen_internal(&ML_KEM_768, &[1; 32], &[2; 32]);
/// let _ = &kp.dk; // a private field (rustdoc checks the error code on nightly only)
/// ```
#[derive(Clone)]
pub struct KeyPair {
    ek: Vec<u8>,
    dk: Vec<u8>,
}

impl KeyPair {
    /// A pair from its two keys' bytes, as stored or received. Nothing is checked: check
    /// `ek` with [`check_encapsulation_key`] and `dk` with [`check_decapsulation_key`]
    /// (the checks [`encaps`] and [`decaps`] run on the bytes they are given); that the
    /// two belong together, by comparing `ek` with the copy embedded in `dk` (what
    /// [`DecapsulationKey::encapsulation_key`] returns).
    pub fn from_parts(ek: Vec<u8>, dk: Vec<u8>) -> Self {
        KeyPair { ek, dk }
    }

    /// The encapsulation key (384k + 32 bytes).
    pub fn ek(&self) -> &[u8] {
        &self.ek
    }

    /// The decapsulation key (768k + 96 bytes): dk_PKE ‖ ek ‖ H(ek) ‖ z. Secret: the
    /// pair wipes its own copy on drop, a copy the caller makes is the caller's to wipe.
    pub fn dk(&self) -> &[u8] {
        &self.dk
    }
}

impl Zeroize for KeyPair {
    /// Wipes dk (ek is public).
    fn zeroize(&mut self) {
        ct::wipe_vec(&mut self.dk);
    }
}

crate::ct::secret_hygiene!(KeyPair);

impl ConstantTimeEq for KeyPair {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.ek.ct_eq(&other.ek) & self.dk.ct_eq(&other.dk)
    }
}

impl core::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyPair")
            .field("ek", &self.ek)
            .field("dk", &format_args!("<{} secret bytes>", self.dk.len()))
            .finish()
    }
}

/// Algorithm 16: ML-KEM.KeyGen_internal(d, z).
pub fn keygen_internal(p: &Params, d: &[u8; 32], z: &[u8; 32]) -> KeyPair {
    let k = p.k;
    let mut ek = vec![0u8; p.ek_len()];
    let mut dk = vec![0u8; p.dk_len()];
    kpke::keygen(p, d, &mut ek, &mut dk[..384 * k]);
    dk[384 * k..768 * k + 32].copy_from_slice(&ek);
    dk[768 * k + 32..768 * k + 64].copy_from_slice(&sample::h(&ek));
    dk[768 * k + 64..].copy_from_slice(z);
    KeyPair { ek, dk }
}

/// Algorithm 19: ML-KEM.KeyGen. Draws d ‖ z as **one** 64-byte call, the convention
/// of the NIST KAT driver for FIPS 203.
pub fn keygen(p: &Params, rng: &mut impl RandomSource) -> KeyPair {
    let mut dz = [0u8; 64];
    rng.fill(&mut dz);
    if crate::plant::active("mlkem-keygen-branches-on-the-draw")
        && core::hint::black_box(dz[0]) == 0
    {
        // Planted: a branch on the first secret byte drawn.
        core::hint::black_box(0u8);
    }
    let mut d = [0u8; 32];
    let mut z = [0u8; 32];
    d.copy_from_slice(&dz[..32]);
    z.copy_from_slice(&dz[32..]);
    let kp = keygen_internal(p, &d, &z);
    dz[..].zeroize();
    d[..].zeroize();
    z[..].zeroize();
    kp
}

/// The encapsulation-key check of FIPS 203 section 7.2: the length, and the modulus
/// check ByteEncode_12(ByteDecode_12(ek)) = ek.
///
/// # Errors
/// [`Error::InvalidLength`] or [`Error::ModulusCheck`].
pub fn check_encapsulation_key(p: &Params, ek: &[u8]) -> Result<(), Error> {
    check_length("encapsulation key", ek, p.ek_len())?;
    if crate::plant::active("mlkem-check-ek-skips-the-modulus") {
        return Ok(());
    }
    let mut ok = 1u8;
    for i in 0..p.k {
        ok &= encode::byte_decode_12_checked(&ek[384 * i..384 * (i + 1)]).1;
    }
    if ok == 1 {
        Ok(())
    } else {
        Err(Error::ModulusCheck)
    }
}

/// The decapsulation-key check of FIPS 203 section 7.3: the length, and the hash
/// check H(dk[384k : 768k+32]) = dk[768k+32 : 768k+64].
///
/// # Errors
/// [`Error::InvalidLength`] or [`Error::HashCheck`].
pub fn check_decapsulation_key(p: &Params, dk: &[u8]) -> Result<(), Error> {
    check_length("decapsulation key", dk, p.dk_len())?;
    if crate::plant::active("mlkem-check-dk-skips-the-hash") {
        return Ok(());
    }
    let k = p.k;
    let h = sample::h(&dk[384 * k..768 * k + 32]);
    // The key is the caller's secret: compare without an early exit.
    if ct::eq_mask(&h, &dk[768 * k + 32..768 * k + 64]) == 0xff {
        Ok(())
    } else {
        Err(Error::HashCheck)
    }
}

/// A checked, parsed encapsulation key: t̂ decoded, Â expanded from ρ, and H(ek)
/// computed once, so repeated encapsulations skip them (Go's `EncapsulationKey768`
/// does the same).
#[derive(Clone, PartialEq, Eq)]
pub struct EncapsulationKey {
    params: Params,
    key: kpke::EncryptionKey,
    h: [u8; 32],
    bytes: Vec<u8>,
}

impl core::fmt::Debug for EncapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EncapsulationKey")
            .field("params", &self.params.name)
            .field("bytes", &self.bytes)
            .finish()
    }
}

impl EncapsulationKey {
    /// Checks (FIPS 203 section 7.2) and parses an encapsulation key.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] or [`Error::ModulusCheck`].
    pub fn from_bytes(p: &Params, ek: &[u8]) -> Result<Self, Error> {
        check_length("encapsulation key", ek, p.ek_len())?;
        let key = kpke::EncryptionKey::parse_checked(p, ek).ok_or(Error::ModulusCheck)?;
        Ok(Self {
            params: *p,
            key,
            h: sample::h(ek),
            bytes: ek.to_vec(),
        })
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The parameter set.
    pub fn params(&self) -> &Params {
        &self.params
    }
}

/// A checked, parsed decapsulation key: ŝ decoded, the embedded encapsulation key
/// parsed (Â expanded), H(ek) and z kept. `Debug` hides the secrets; ŝ, z and the
/// encoded key are wiped on drop (`ZeroizeOnDrop`); `==` compares the encoded keys in
/// constant time ([`ConstantTimeEq`]).
///
/// ŝ and z live on the heap: moving the key (returning it, storing it) moves a
/// pointer, so no stack copy of them is left behind unwiped; `clone` copies them
/// straight into the new key's box.
pub struct DecapsulationKey {
    secret: Box<DkSecrets>,
    ek: EncapsulationKey,
    bytes: Vec<u8>,
}

/// The decoded secret part of a [`DecapsulationKey`].
struct DkSecrets {
    s_hat: [NttPoly; MAX_K],
    z: [u8; 32],
}

impl DkSecrets {
    /// All zeros, in a new box.
    fn boxed_zero() -> Box<Self> {
        Box::new(DkSecrets {
            s_hat: [NttPoly::ZERO; MAX_K],
            z: [0; 32],
        })
    }
}

impl Zeroize for DkSecrets {
    fn zeroize(&mut self) {
        self.s_hat.zeroize();
        self.z[..].zeroize();
    }
}

impl Clone for DecapsulationKey {
    /// Copies ŝ and z from box to box (a derived `Clone` may build them on the stack
    /// first).
    fn clone(&self) -> Self {
        let mut secret = DkSecrets::boxed_zero();
        secret.s_hat.copy_from_slice(&self.secret.s_hat);
        secret.z.copy_from_slice(&self.secret.z);
        Self {
            secret,
            ek: self.ek.clone(),
            bytes: self.bytes.clone(),
        }
    }
}

impl Zeroize for DecapsulationKey {
    /// Wipes ŝ, z and the encoded key (the embedded ek is public).
    fn zeroize(&mut self) {
        self.secret.zeroize();
        ct::wipe_vec(&mut self.bytes);
    }
}

crate::ct::secret_hygiene!(DecapsulationKey);

impl ConstantTimeEq for DecapsulationKey {
    /// The encoded keys decide everything else (ŝ, ek, H(ek), z are parsed from them).
    fn ct_eq(&self, other: &Self) -> Choice {
        self.bytes.ct_eq(&other.bytes)
    }
}

impl core::fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecapsulationKey")
            .field("params", &self.ek.params.name)
            .field("ek", &self.ek.bytes)
            .finish_non_exhaustive()
    }
}

impl DecapsulationKey {
    /// Checks (FIPS 203 section 7.3: length and hash check) and parses a decapsulation
    /// key dk_PKE ‖ ek ‖ H(ek) ‖ z. The embedded ek is decoded mod q, as Decaps does; the
    /// stored H(ek) is the one used (it was just checked).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] or [`Error::HashCheck`].
    pub fn from_bytes(p: &Params, dk: &[u8]) -> Result<Self, Error> {
        if crate::plant::active("mlkem-decaps-trusts-the-stored-hash") {
            check_length("decapsulation key", dk, p.dk_len())?;
        } else {
            check_decapsulation_key(p, dk)?;
        }
        let k = p.k;
        let ek_bytes = &dk[384 * k..768 * k + 32];
        let mut h = [0u8; 32];
        h.copy_from_slice(&dk[768 * k + 32..768 * k + 64]);
        let mut key = Self {
            secret: DkSecrets::boxed_zero(),
            ek: EncapsulationKey {
                params: *p,
                key: kpke::EncryptionKey::parse_mod_q(p, ek_bytes),
                h,
                bytes: ek_bytes.to_vec(),
            },
            bytes: dk.to_vec(),
        };
        // Decoded and copied straight into the key's heap box: no copy of ŝ or z is
        // returned by value on the way, and moving the key moves a pointer.
        kpke::decode_s_hat_into(p, &dk[..384 * k], &mut key.secret.s_hat);
        key.secret.z.copy_from_slice(&dk[768 * k + 64..]);
        Ok(key)
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The embedded encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey {
        &self.ek
    }
}

/// Algorithm 17: ML-KEM.Encaps_internal(ek, m) on a parsed key. Returns (c, K).
pub fn encapsulate_internal<K: Kernels>(
    ek: &EncapsulationKey,
    m: &[u8; 32],
) -> (Vec<u8>, SharedSecret) {
    let p = &ek.params;
    let (mut shared, mut r) = sample::g(&[m, &ek.h]);
    let shared = SharedSecret::take(&mut shared);
    let mut c = vec![0u8; p.ct_len()];
    kpke::encrypt::<K>(p, &ek.key, m, &r, &mut c);
    r[..].zeroize();
    (c, shared)
}

/// Algorithm 18: ML-KEM.Decaps_internal(dk, c) on a parsed key. A ciphertext of the
/// right length always yields a key: the real one, or the implicit-rejection key
/// J(z ‖ c), chosen without a branch.
///
/// # Errors
/// [`Error::InvalidLength`] for a ciphertext of the wrong length.
pub fn decapsulate<K: Kernels>(dk: &DecapsulationKey, c: &[u8]) -> Result<SharedSecret, Error> {
    let p = &dk.ek.params;
    if !crate::plant::active("mlkem-decaps-no-length-check") {
        check_length("ciphertext", c, p.ct_len())?;
    }
    let mut m_prime = kpke::decrypt(p, &dk.secret.s_hat, c);
    let (mut shared, mut r_prime) = sample::g(&[&m_prime, &dk.ek.h]);
    let mut k_bar = sample::j(&[&dk.secret.z, c]);
    let mut c_prime = vec![0u8; p.ct_len()];
    kpke::encrypt::<K>(p, &dk.ek.key, &m_prime, &r_prime, &mut c_prime);
    if crate::plant::active("mlkem-rejection-key-over-c-prime") {
        // Planted (fuzzing, shared code): J over the re-encryption instead of c.
        k_bar[..].zeroize();
        k_bar = sample::j(&[&dk.secret.z, &c_prime]);
    }
    let differ = if crate::plant::active("mlkem-decaps-variable-time-compare") {
        // Planted: an early-exit comparison (memcmp) of c with the secret c'.
        if c == &c_prime[..] { 0 } else { 0xff }
    } else if crate::plant::active("mlkem-decaps-inverted-rejection-mask") {
        // Planted (bug zoo, shared code): the mask without its negation.
        ct::eq_mask(c, &c_prime)
    } else {
        !ct::eq_mask(c, &c_prime)
    };
    ct::select_into(&mut shared, &k_bar, differ);
    // FIPS 203 section 3.3: intermediate values are destroyed. c' equals c unless
    // the ciphertext is rejected, when it encrypts the secret m'.
    m_prime[..].zeroize();
    r_prime[..].zeroize();
    k_bar[..].zeroize();
    c_prime[..].zeroize();
    Ok(SharedSecret::take(&mut shared))
}

/// Algorithm 17 with the section 7.2 input checks, on an encoded key: parses `ek`
/// ([`EncapsulationKey::from_bytes`]) and runs [`encapsulate_internal`]. Returns (c, K).
///
/// # Errors
/// [`Error::InvalidLength`] or [`Error::ModulusCheck`] for a bad `ek`.
pub fn encaps_internal<K: Kernels>(
    p: &Params,
    ek: &[u8],
    m: &[u8; 32],
) -> Result<(Vec<u8>, SharedSecret), Error> {
    let key = EncapsulationKey::from_bytes(p, ek)?;
    Ok(encapsulate_internal::<K>(&key, m))
}

/// Algorithm 20: ML-KEM.Encaps: checks `ek`, makes one 32-byte draw for m, then
/// encapsulates.
///
/// # Errors
/// As [`encaps_internal`]; nothing is drawn when `ek` is rejected.
pub fn encaps<K: Kernels>(
    p: &Params,
    ek: &[u8],
    rng: &mut impl RandomSource,
) -> Result<(Vec<u8>, SharedSecret), Error> {
    let key = EncapsulationKey::from_bytes(p, ek)?;
    let mut m = [0u8; 32];
    rng.fill(&mut m);
    let out = encapsulate_internal::<K>(&key, &m);
    m[..].zeroize();
    Ok(out)
}

/// Algorithm 21 (ML-KEM.Decaps) with the section 7.3 checks on an encoded key: checks
/// the ciphertext length, parses `dk` ([`DecapsulationKey::from_bytes`]) and runs
/// [`decapsulate`].
///
/// # Errors
/// [`Error::InvalidLength`] for a bad `dk` or `c`; [`Error::HashCheck`] for a `dk`
/// whose stored H(ek) is wrong.
pub fn decaps<K: Kernels>(p: &Params, dk: &[u8], c: &[u8]) -> Result<SharedSecret, Error> {
    if !crate::plant::active("mlkem-decaps-no-length-check") {
        check_length("ciphertext", c, p.ct_len())?;
    }
    let key = DecapsulationKey::from_bytes(p, dk)?;
    decapsulate::<K>(&key, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three parameter sets through their public accessors, as FIPS 203 gives
    /// them: (name, k, η1, η2, d_u, d_v) from Table 2 and the byte sizes of ek, dk
    /// and c from Table 3.
    #[test]
    fn parameter_sets_are_fips_203_tables_2_and_3() {
        type Row = (
            &'static str,
            usize,
            usize,
            usize,
            u32,
            u32,
            usize,
            usize,
            usize,
        );
        let table: [(Params, Row); 3] = [
            (ML_KEM_512, ("ML-KEM-512", 2, 3, 2, 10, 4, 800, 1632, 768)),
            (ML_KEM_768, ("ML-KEM-768", 3, 2, 2, 10, 4, 1184, 2400, 1088)),
            (
                ML_KEM_1024,
                ("ML-KEM-1024", 4, 2, 2, 11, 5, 1568, 3168, 1568),
            ),
        ];
        for (p, want) in table {
            let got = (
                p.name(),
                p.k(),
                p.eta1(),
                p.eta2(),
                p.du(),
                p.dv(),
                p.ek_len(),
                p.dk_len(),
                p.ct_len(),
            );
            assert_eq!(got, want);
        }
    }

    /// A parsed key gives back the bytes it was parsed from, its parameter set and,
    /// for a decapsulation key, the encapsulation key it embeds; `Debug` of an
    /// encapsulation key (public) shows the set and the bytes.
    #[test]
    fn parsed_keys_give_back_their_encoding() {
        let p = &ML_KEM_768;
        let kp = keygen_internal(p, &[1; 32], &[2; 32]);
        let ek = EncapsulationKey::from_bytes(p, kp.ek()).expect("a generated ek");
        assert_eq!(ek.as_bytes(), kp.ek());
        assert_eq!(ek.params().name(), "ML-KEM-768");
        let shown = format!("{ek:?}");
        let head = format!(
            "EncapsulationKey {{ params: \"ML-KEM-768\", bytes: [{}, {}",
            kp.ek()[0],
            kp.ek()[1]
        );
        assert!(shown.starts_with(&head), "{shown}");
        let dk = DecapsulationKey::from_bytes(p, kp.dk()).expect("a generated dk");
        assert_eq!(dk.as_bytes(), kp.dk());
        assert_eq!(dk.encapsulation_key(), &ek);
    }
}
