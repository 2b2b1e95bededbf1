//! NTRU-HPS-2048-509 (NIST PQC round 3 submission, 2020; reference code
//! `ref-common` of jschanck/ntru), generic over its [`Kernels`].
//!
//! n = 509, q = 2048; public key 699 bytes, secret key 935, ciphertext 699, shared
//! secret 32. Coefficients are `u16` and wrap mod 2^16 like the reference code.
//!
//! The optimization under study (jschanck/ntru PR #5, seed 002) replaces
//! `poly_R2_inv`, the inverse mod (2, Φ_509) inside `poly_Rq_inv` (called once per
//! key generation), by an addition chain a^(2^508 − 2). [`Reference`] keeps the
//! round-3 reference: a constant-time divstep loop for the inverse mod 2, then four
//! Newton steps with the schoolbook `poly_Rq_mul`.
//!
//! | function | round-3 reference |
//! |---|---|
//! | `owcpa_keypair` (crate-private), [`owcpa::owcpa_enc`], [`owcpa::owcpa_dec`] | `owcpa.c` |
//! | [`keypair_derand`], [`keypair`] | `crypto_kem_keypair` (`kem.c`) |
//! | [`encaps_derand`], [`encaps`] | `crypto_kem_enc` |
//! | [`decaps`] | `crypto_kem_dec`, with implicit rejection |
//!
//! The randomness convention is the NIST KAT one: keypair draws 2413 bytes (f, g)
//! and then 32 bytes (the PRF key); encaps draws 2413 bytes (r, m).

pub mod contracts;
pub mod owcpa;
pub mod pack;
pub mod poly;
pub mod sample;

pub use crate::SharedSecret;
use crate::ct::{self, copy_then_wipe};
use crate::error::{Error, check_length};
use crate::rng::RandomSource;
pub use contracts::{r2_invertible, r2_is_inverse, rq_is_inverse, rq_mul_is_exact};
pub use poly::Poly;
use sha3::{Digest, Sha3_256};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

/// The parameters of ntruhps2048509 and the sizes derived from them (`params.h`).
pub mod params {
    /// Ring degree n: polynomials live in Z\[x\]/(x^n − 1).
    pub const N: usize = 509;
    /// log2 q.
    pub const LOGQ: usize = 11;
    /// Modulus q = 2048.
    pub const Q: u16 = 1 << LOGQ;
    /// Fixed-type weight q/8 − 2 = 254 (127 coefficients +1, 127 −1).
    pub const WEIGHT: usize = ((Q as usize) >> 3) - 2;
    /// Bytes for an iid ternary sample.
    pub const SAMPLE_IID_BYTES: usize = N - 1;
    /// Bytes for a fixed-type sample: 30 bits per coefficient, ⌈30(n−1)/8⌉.
    pub const SAMPLE_FT_BYTES: usize = (30 * (N - 1)).div_ceil(8);
    /// Bytes drawn for (f, g) by keypair.
    pub const SAMPLE_FG_BYTES: usize = SAMPLE_IID_BYTES + SAMPLE_FT_BYTES;
    /// Bytes drawn for (r, m) by encaps.
    pub const SAMPLE_RM_BYTES: usize = SAMPLE_IID_BYTES + SAMPLE_FT_BYTES;
    /// Bytes of the PRF key for implicit rejection.
    pub const PRFKEYBYTES: usize = 32;
    /// Shared secret bytes.
    pub const SHAREDKEYBYTES: usize = 32;
    /// Coefficients packed per polynomial.
    pub const PACK_DEG: usize = N - 1;
    /// Bytes of a packed ternary polynomial (5 trits per byte).
    pub const PACK_TRINARY_BYTES: usize = PACK_DEG.div_ceil(5);
    /// Bytes of a packed mod-q polynomial (11 bits per coefficient).
    pub const POLYBYTES: usize = (LOGQ * PACK_DEG).div_ceil(8);
    /// OW-CPA message bytes: S3(r) ‖ S3(m).
    pub const OWCPA_MSGBYTES: usize = 2 * PACK_TRINARY_BYTES;
    /// Public key bytes.
    pub const PUBLICKEY_BYTES: usize = POLYBYTES;
    /// OW-CPA secret key bytes: S3(f) ‖ S3(f⁻¹ mod 3) ‖ Sq(h⁻¹).
    pub const OWCPA_SECRETKEYBYTES: usize = 2 * PACK_TRINARY_BYTES + POLYBYTES;
    /// KEM secret key bytes: the OW-CPA key ‖ the PRF key.
    pub const SECRETKEY_BYTES: usize = OWCPA_SECRETKEYBYTES + PRFKEYBYTES;
    /// Ciphertext bytes.
    pub const CIPHERTEXT_BYTES: usize = POLYBYTES;

    const _: () = assert!(PUBLICKEY_BYTES == 699 && SECRETKEY_BYTES == 935);
    const _: () = assert!(CIPHERTEXT_BYTES == 699 && SAMPLE_FG_BYTES == 2413);
}

use params::{
    CIPHERTEXT_BYTES, OWCPA_MSGBYTES, OWCPA_SECRETKEYBYTES, PACK_TRINARY_BYTES, PRFKEYBYTES,
    PUBLICKEY_BYTES, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES, SECRETKEY_BYTES, SHAREDKEYBYTES,
};

const _: () = assert!(SHAREDKEYBYTES == SharedSecret::LEN);

/// The kernels an NTRU-HPS tier supplies.
///
/// The contracts are hax-lib `requires`/`ensures` over the executable predicates
/// [`rq_mul_is_exact`], [`r2_invertible`], [`r2_is_inverse`] and [`rq_is_inverse`]:
/// erased in a normal build, type-checked under `--cfg hax` (CI); the optimized kernels
/// and [`Kernels::poly_rq_inv`] check them with `debug_assert!` on every call (tests run
/// with debug assertions on; on non-invertible input only the implication is checked,
/// since the pairs also compare both tiers there).
#[hax_lib::attributes]
pub trait Kernels {
    /// `poly_Rq_mul`: the product in Z_{2^16}\[x\]/(x^n − 1).
    ///
    /// Postcondition: exact mod q = 2048 for all inputs (the reference is also exact
    /// mod 2^16; only the residue mod q is ever used, every consumer reduces mod q or
    /// checks only bits below 11).
    #[hax_lib::ensures(|r| rq_mul_is_exact(a, b, &r))]
    fn poly_rq_mul(a: &Poly, b: &Poly) -> Poly;

    /// `poly_R2_inv`: an inverse of a mod (2, Φ_n).
    ///
    /// Precondition: a ≢ 0 mod (2, Φ_n) (only bit 0 of each coefficient is read).
    /// Postcondition: coefficients in {0, 1}; r·a ≡ 1 mod (2, Φ_n). The representative
    /// mod x^n − 1 is **not** specified: compare after [`poly::poly_mod_2_phi_n`].
    #[hax_lib::requires(r2_invertible(a))]
    #[hax_lib::ensures(|r| r2_is_inverse(a, &r))]
    fn poly_r2_inv(a: &Poly) -> Poly;

    /// `poly_Rq_inv`: an inverse of a mod (q, Φ_n), as [`Kernels::poly_r2_inv`] then
    /// four Newton steps with [`Kernels::poly_rq_mul`].
    ///
    /// Precondition: a invertible mod (2, Φ_n). Postcondition: r·a ≡ 1 mod (q, Φ_n);
    /// compare after [`poly::poly_mod_q_phi_n`] and reduction mod q.
    #[hax_lib::requires(r2_invertible(a))]
    #[hax_lib::ensures(|r| rq_is_inverse(a, &r))]
    fn poly_rq_inv(a: &Poly) -> Poly {
        let ai2 = Self::poly_r2_inv(a);
        let r = poly::poly_r2_inv_to_rq_inv(&ai2, a, Self::poly_rq_mul);
        debug_assert!(
            !r2_invertible(a) || rq_is_inverse(a, &r),
            "Kernels::poly_rq_inv ensures"
        );
        r
    }
}

/// The reference kernels: the round-3 `ref-common` code (divstep `poly_R2_inv`,
/// schoolbook `poly_Rq_mul`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Kernels for Reference {
    fn poly_rq_mul(a: &Poly, b: &Poly) -> Poly {
        poly::poly_rq_mul_schoolbook(a, b)
    }
    fn poly_r2_inv(a: &Poly) -> Poly {
        poly::poly_r2_inv_divstep(a)
    }
}

/// An ntruhps2048509 key pair. `Debug` shows the start of pk and hides sk; sk is
/// wiped when the pair is dropped (`ZeroizeOnDrop`); `==` compares in constant time
/// ([`ConstantTimeEq`]).
///
/// sk lives on the heap: moving the pair (returning it, storing it) moves a pointer,
/// so no stack copy of the secret key is left behind unwiped, as one would be by an
/// array held in the pair itself.
#[derive(Clone)]
pub struct KeyPair {
    pk: [u8; PUBLICKEY_BYTES],
    sk: Box<[u8; SECRETKEY_BYTES]>,
}

impl KeyPair {
    /// A pair from its two keys' bytes, as stored or received. Nothing is checked but
    /// the lengths (the types'), not that the keys belong together. `sk` is copied
    /// into the pair: the caller's bytes are the caller's to wipe.
    pub fn from_parts(pk: [u8; PUBLICKEY_BYTES], sk: &[u8; SECRETKEY_BYTES]) -> Self {
        KeyPair {
            pk,
            sk: ct::boxed_copy(sk),
        }
    }

    /// The public key (699 bytes).
    pub fn pk(&self) -> &[u8; PUBLICKEY_BYTES] {
        &self.pk
    }

    /// The secret key (935 bytes): S3(f) ‖ S3(f⁻¹ mod 3) ‖ Sq(h⁻¹ mod q) ‖ the 32-byte
    /// PRF key. Secret: the pair wipes its own copy on drop, a copy the caller makes is
    /// the caller's to wipe.
    pub fn sk(&self) -> &[u8; SECRETKEY_BYTES] {
        &self.sk
    }
}

impl Zeroize for KeyPair {
    /// Wipes sk (pk is public).
    fn zeroize(&mut self) {
        self.sk[..].zeroize();
    }
}

crate::ct::secret_hygiene!(KeyPair);

impl ConstantTimeEq for KeyPair {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.pk.ct_eq(&other.pk) & self.sk[..].ct_eq(&other.sk[..])
    }
}

impl core::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyPair")
            .field("pk", &&self.pk[..8])
            .finish_non_exhaustive()
    }
}

/// The first `L` bytes of `s` as an array. Callers check `s.len() >= L` first (public
/// lengths); indexing never goes out of range then.
pub(crate) fn copy_array<const L: usize>(s: &[u8]) -> [u8; L] {
    core::array::from_fn(|i| s[i])
}

fn sha3_256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// `crypto_kem_keypair` from its two draws: `seed` (f, g) and the PRF key.
///
/// # Errors
/// [`Error::InvalidEncoding`] for a seed that gives f = 0 (see
/// `owcpa_keypair`); the C code returns a key pair that cannot decapsulate.
pub fn keypair_derand<K: Kernels>(
    seed: &[u8; SAMPLE_FG_BYTES],
    prf_key: &[u8; PRFKEYBYTES],
) -> Result<KeyPair, Error> {
    // Assembled in the pair's heap box: the whole sk is not returned by value on the
    // way (its packed parts are, see `owcpa_keypair`), and moving the pair moves a
    // pointer. On an error the box, still all zeros, is dropped.
    let mut sk = Box::new([0u8; SECRETKEY_BYTES]);
    let pk = owcpa::owcpa_keypair::<K>(seed, &mut sk)?;
    sk[OWCPA_SECRETKEYBYTES..].copy_from_slice(prf_key);
    Ok(KeyPair { pk, sk })
}

/// `crypto_kem_keypair`: draws 2413 bytes, then 32 bytes (the KAT call pattern).
///
/// # Errors
/// As [`keypair_derand`]: a source whose first 508 bytes are all multiples of 3 (a
/// broken one: all-zero, all-0xff) gives f = 0.
pub fn keypair<K: Kernels>(rng: &mut impl RandomSource) -> Result<KeyPair, Error> {
    let mut seed = [0u8; SAMPLE_FG_BYTES];
    rng.fill(&mut seed);
    let mut prf = [0u8; PRFKEYBYTES];
    rng.fill(&mut prf);
    let kp = keypair_derand::<K>(&seed, &prf);
    seed[..].zeroize();
    prf[..].zeroize();
    kp
}

/// `crypto_kem_enc` from its draw `rm_seed`: (ciphertext, shared secret), with
/// K = SHA3-256(S3(r) ‖ S3(m)).
///
/// # Errors
/// [`Error::InvalidLength`] when `pk` is not 699 bytes. Every 699-byte string is a
/// public key (NTRU has no public-key check).
pub fn encaps_derand<K: Kernels>(
    pk: &[u8],
    rm_seed: &[u8; SAMPLE_RM_BYTES],
) -> Result<([u8; CIPHERTEXT_BYTES], SharedSecret), Error> {
    check_length("public key", pk, PUBLICKEY_BYTES)?;
    let pk: [u8; PUBLICKEY_BYTES] = copy_array(pk);
    let (mut r, mut m) = sample::sample_rm(rm_seed);
    let mut rm = [0u8; OWCPA_MSGBYTES];
    copy_then_wipe(&mut rm[..PACK_TRINARY_BYTES], pack::poly_s3_tobytes(&r));
    copy_then_wipe(&mut rm[PACK_TRINARY_BYTES..], pack::poly_s3_tobytes(&m));
    let k = SharedSecret::take(&mut sha3_256(&[&rm]));
    poly::poly_z3_to_zq(&mut r);
    let c = owcpa::owcpa_enc::<K>(&r, &m, &pk);
    r.zeroize();
    m.zeroize();
    rm[..].zeroize();
    Ok((c, k))
}

/// `crypto_kem_enc`: draws 2413 bytes, then [`encaps_derand`].
///
/// # Errors
/// As [`encaps_derand`]; nothing is drawn when `pk` has the wrong length.
pub fn encaps<K: Kernels>(
    pk: &[u8],
    rng: &mut impl RandomSource,
) -> Result<([u8; CIPHERTEXT_BYTES], SharedSecret), Error> {
    check_length("public key", pk, PUBLICKEY_BYTES)?;
    let mut seed = [0u8; SAMPLE_RM_BYTES];
    if crate::plant::active("ntruhps2048509-encaps-draws-a-padded-seed") {
        // Planted: the seed drawn into a buffer of whole 8-byte words (2416 bytes),
        // its first 2413 used. Same ciphertext and key; 3 bytes more drawn.
        let mut padded = [0u8; SAMPLE_RM_BYTES.next_multiple_of(8)];
        rng.fill(&mut padded);
        seed.copy_from_slice(&padded[..SAMPLE_RM_BYTES]);
        padded.zeroize();
    } else {
        rng.fill(&mut seed);
    }
    if crate::plant::active("ntruhps2048509-encaps-branches-on-the-draw")
        && core::hint::black_box(seed[0]) == 0
    {
        // Planted: a branch on the first secret byte drawn.
        core::hint::black_box(0u8);
    }
    let out = encaps_derand::<K>(pk, &seed);
    seed[..].zeroize();
    out
}

/// `crypto_kem_dec`: the shared secret, or, when decryption fails its checks, the
/// implicit-rejection key SHA3-256(PRF key ‖ c), selected without a branch.
///
/// # Errors
/// [`Error::InvalidLength`] for a secret key that is not 935 bytes or a ciphertext
/// that is not 699 bytes. Every ciphertext of the right length gets a key.
pub fn decaps<K: Kernels>(sk: &[u8], c: &[u8]) -> Result<SharedSecret, Error> {
    if !crate::plant::active("ntruhps2048509-decaps-skips-the-secret-key-length") {
        check_length("secret key", sk, SECRETKEY_BYTES)?;
    }
    check_length("ciphertext", c, CIPHERTEXT_BYTES)?;
    let ct: [u8; CIPHERTEXT_BYTES] = copy_array(c);
    let mut sk_owcpa: [u8; OWCPA_SECRETKEYBYTES] = copy_array(sk);
    let (mut rm, fail) = owcpa::owcpa_dec::<K>(&ct, &sk_owcpa);
    let mut k = sha3_256(&[&rm]);
    let mut k_rej = sha3_256(&[&sk[OWCPA_SECRETKEYBYTES..], c]);
    if crate::plant::active("ntruhps2048509-decaps-branches-on-fail") {
        // Planted: the rejection key chosen by a branch on the secret failure flag.
        if fail != 0 {
            k = k_rej;
        }
    } else {
        ct::select_into(&mut k, &k_rej, ct::mask_u8(fail as u8));
    }
    sk_owcpa[..].zeroize();
    rm[..].zeroize();
    k_rej[..].zeroize();
    Ok(SharedSecret::take(&mut k))
}

#[cfg(test)]
mod tests {
    use super::params::N;
    use super::poly::{Poly, mod3, poly_mod_3_phi_n, poly_rq_mul_schoolbook};
    use super::sample::sort_i32_ct;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    #[test]
    #[allow(clippy::integer_division_remainder_used)] // the test's oracle
    fn mod3_exhaustive_on_u16() {
        for x in 0..=u16::MAX {
            assert_eq!(mod3(x), x % 3, "{x}");
        }
    }

    #[test]
    #[allow(clippy::integer_division_remainder_used)] // public test round number
    fn constant_time_sort_sorts() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for round in 0..50 {
            let mut v = [0i32; N - 1];
            for (i, x) in v.iter_mut().enumerate() {
                let s = rng.next_u64();
                *x = match round % 3 {
                    0 => s as i32,
                    1 => (s & 7) as i32 - 4,  // many ties
                    _ => i32::MAX - i as i32, // reversed, touching the pad value
                };
            }
            let mut want = v;
            want.sort_unstable();
            sort_i32_ct(&mut v);
            assert_eq!(v, want);
        }
    }

    #[test]
    fn s3_inverse_inverts() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..5 {
            let mut a = Poly::ZERO;
            for c in a.0.iter_mut().take(N - 1) {
                let s = rng.next_u64();
                *c = mod3((s & 0xff) as u16);
            }
            let inv = super::poly::poly_s3_inv(&a);
            let mut p = poly_rq_mul_schoolbook(&a, &inv);
            poly_mod_3_phi_n(&mut p);
            let mut one = Poly::ZERO;
            one.0[0] = 1;
            assert_eq!(p, one);
        }
    }
}
