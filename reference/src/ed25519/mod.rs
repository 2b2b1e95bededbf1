//! Ed25519 (RFC 8032 section 5.1) over libgcrypt-style 4×64-bit limbs, generic over
//! the field [`Kernels`].
//!
//! The optimization under study is libgcrypt commit 9c12226c (Jussi Kivilinna,
//! "mpi/ec: small optimization for ec_mulm_25519"): it rewrites `ec_addm_25519`,
//! `ec_subm_25519` and `ec_mulm_25519`. The [`Reference`] kernels here are the code
//! before it ([`field`]); the `optimized` crate implements [`Kernels`] with the code
//! after it. Everything else (limb layer [`mpih`], point formulas [`point`], scalars
//! mod L [`scalar`], SHA-512, encodings) is written once and shared.
//!
//! | function | RFC 8032 |
//! |---|---|
//! | [`SigningKey::from_seed`] | 5.1.5 key generation (from the 32-byte secret seed) |
//! | [`sign`] | 5.1.6 sign |
//! | [`verify`] | 5.1.7 verify (cofactorless, strict encodings: see below) |
//! | [`verify_strict`] | 5.1.7 verify, also refusing small-order A and R (ed25519-dalek's `verify_strict`) |
//! | [`point::encode`], [`point::decode_vartime`] | 5.1.2, 5.1.3 |
//!
//! Both verification functions return `Result<(), Error>`: `Ok(())` only for a
//! signature that verifies, [`Error::InvalidSignature`] for every one that does not
//! (and [`Error::InvalidLength`] for wrong lengths), so `verify(..)?` rejects a bad
//! signature, as ed25519-dalek's `Verifier::verify` does.
//!
//! Verification rules (docs/ed25519.md has the table, the choice of each mode and the
//! vectors that test it):
//! * `S` must be canonical (`S < L`), else reject;
//! * `A` and `R` must decode strictly (y < p; x = 0 with the sign bit set is
//!   rejected; a y with no x is rejected), else reject;
//! * k = SHA-512(R ‖ A ‖ M) over the bytes as received;
//! * the **cofactorless** equation \[S\]B = R + \[k\]A, checked as
//!   encode(\[S\]B − \[k\]A) == R.
//! * [`verify`] accepts low-order A and R when the equation holds (the behaviour of
//!   ed25519-dalek's `verify`, Go and OpenSSL); [`verify_strict`] rejects an A or R
//!   of small order (\[8\]P = identity), as ed25519-dalek's `verify_strict` and recent
//!   libsodium do. With A = R = identity and S = 0, [`verify`] accepts every message;
//!   [`verify_strict`] none.
//!
//! Constant time: key generation and signing use the constant-time fixed-window
//! `point::scalar_mul_base` (crate-internal: its callers guarantee k < 2^255, the
//! clamped secret scalar or a nonce reduced mod L); functions with `vartime` in the
//! name run on public data only (verification). Every field kernel is branch-free.

pub mod contracts;
pub mod field;
pub mod mpih;
pub mod point;
pub mod scalar;

use sha2::{Digest, Sha512};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use crate::error::{Error, check_length};
pub use contracts::{addm_ensures, carry_lemma_holds, mulm_ensures, reduce_ensures, subm_ensures};
pub use field::Fe;
use field::{LIMB_SIZE_25519, P_LIMBS, le_p};
use mpih::mul_n;
use point::{BASE, Point};

/// Secret seed bytes.
pub const SEED_LEN: usize = 32;
/// Public key bytes.
pub const PUBLIC_KEY_LEN: usize = 32;
/// Signature bytes.
pub const SIGNATURE_LEN: usize = 64;

/// The field backend: the three routines the optimization changes.
///
/// Contract shared by every backend (so the tiers agree limb for limb): each function
/// is defined on **every** 4-limb input, valid or not, and must return exactly the
/// limbs libgcrypt's `ec_*_25519` return, carries dropped modulo 2^256. Correctness
/// mod p, for the point code: inputs in [0, p] give `addm`, `subm` in [0, p] and
/// `mulm` in [0, p).
///
/// The contracts are hax-lib `ensures` over the executable predicates of
/// [`contracts`] ([`addm_ensures`], [`subm_ensures`], [`reduce_ensures`],
/// [`mulm_ensures`]: the functional result, w ≡ u ± v, w ≡ n, w ≡ u·v mod p, in
/// range), on the tier routines themselves and on the provided wrappers (no
/// `requires`: the functions are total, and the statements are implications from
/// inputs in range): erased in a normal build, type-checked under `--cfg hax` (CI),
/// and checked with `debug_assert!` on every call of both tiers' kernels in tests.
///
/// A tier supplies the three libgcrypt routines (`ec_addm_25519`, `ec_subm_25519`,
/// and the reduction half of `ec_mulm_25519`; the schoolbook product is shared) and
/// its cached base-point table; the point code calls the provided [`Kernels::addm`],
/// [`Kernels::subm`] and [`Kernels::mulm`], which wrap them with the contract checks
/// once for every tier.
#[hax_lib::attributes]
pub trait Kernels {
    /// This tier's `ec_addm_25519`, as libgcrypt writes it.
    #[hax_lib::ensures(|w| addm_ensures(u, v, &w))]
    fn ec_addm_25519(u: &Fe, v: &Fe) -> Fe;
    /// This tier's `ec_subm_25519`, as libgcrypt writes it.
    #[hax_lib::ensures(|w| subm_ensures(u, v, &w))]
    fn ec_subm_25519(u: &Fe, v: &Fe) -> Fe;
    /// This tier's reduction of the 8-limb product `n` (the part of `ec_mulm_25519`
    /// after `mul_n`): the result and the carry limb of L + 19·H_low. For n < 2^511
    /// the result is n mod p, canonical.
    #[hax_lib::ensures(|r| reduce_ensures(n, &r.0))]
    fn ec_mulm_25519_reduce(n: &mut [u64; 2 * LIMB_SIZE_25519]) -> (Fe, u64);

    /// `ec_addm_25519`: u + v mod p for u, v <= p.
    #[hax_lib::ensures(|w| addm_ensures(u, v, &w))]
    #[inline]
    fn addm(u: &Fe, v: &Fe) -> Fe {
        let w = Self::ec_addm_25519(u, v);
        debug_assert!(addm_ensures(u, v, &w), "Kernels::addm ensures");
        w
    }
    /// `ec_subm_25519`: u − v mod p for u, v <= p.
    #[hax_lib::ensures(|w| subm_ensures(u, v, &w))]
    #[inline]
    fn subm(u: &Fe, v: &Fe) -> Fe {
        let w = Self::ec_subm_25519(u, v);
        debug_assert!(subm_ensures(u, v, &w), "Kernels::subm ensures");
        w
    }
    /// `ec_mulm_25519`: u · v mod p for u · v < 2^511, canonical: the shared
    /// schoolbook `mul_n`, then this tier's reduction.
    #[hax_lib::ensures(|w| mulm_ensures(u, v, &w))]
    #[inline]
    fn mulm(u: &Fe, v: &Fe) -> Fe {
        let mut n = [0u64; 2 * LIMB_SIZE_25519];
        mul_n(&mut n, u, v);
        let product = n; // for the contract check (a dead copy in release builds)
        let (w, cy) = Self::ec_mulm_25519_reduce(&mut n);
        debug_assert!(reduce_ensures(&product, &w), "ec_mulm_25519_reduce ensures");
        // The message names the lemma, not the carry: it derives from secret operands.
        debug_assert!(carry_lemma_holds(u, v, cy), "carry lemma: the carry > 9");
        debug_assert!(mulm_ensures(u, v, &w), "Kernels::mulm ensures");
        w
    }
    /// The signed-window table of the base point, `[j]B` for j = 0..=8, computed once
    /// with this tier's kernels ([`point::window_table`]) and cached: key generation
    /// and signing multiply B only, so they skip rebuilding it (7 point operations)
    /// on every call. Implement as a `OnceLock` holding `window_table::<Self>(&BASE)`.
    fn base_table() -> &'static point::WindowTable;
}

/// The reference kernels: libgcrypt before 9c12226c ([`field`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Kernels for Reference {
    fn base_table() -> &'static point::WindowTable {
        static TABLE: std::sync::OnceLock<point::WindowTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| point::window_table::<Self>(&BASE))
    }
    #[inline]
    fn ec_addm_25519(u: &Fe, v: &Fe) -> Fe {
        field::ec_addm_25519(u, v)
    }
    #[inline]
    fn ec_subm_25519(u: &Fe, v: &Fe) -> Fe {
        field::ec_subm_25519(u, v)
    }
    #[inline]
    fn ec_mulm_25519_reduce(n: &mut [u64; 2 * LIMB_SIZE_25519]) -> (Fe, u64) {
        field::ec_mulm_25519_reduce(n)
    }
}

/// An Ed25519 signing key: the 32-byte seed and what RFC 8032 5.1.5 derives from
/// it (the clamped scalar s, the nonce prefix, the public key A).
///
/// `Debug` shows only the public key; the seed, s and the prefix are wiped when the
/// key is dropped (`ZeroizeOnDrop`); `==` compares the seeds (which determine
/// everything else) in constant time ([`ConstantTimeEq`]).
///
/// The secrets live on the heap: moving the key (returning it, storing it) moves a
/// pointer, so no stack copy of them is left behind unwiped; `clone` copies them
/// straight into the new key's box.
pub struct SigningKey {
    secret: Box<KeySecrets>,
    public: [u8; 32],
}

/// The secret part of a [`SigningKey`]. `repr(C)`: the seed is at the start of the
/// box (the secrets test names the box by [`SigningKey::seed`]'s address).
#[repr(C)]
struct KeySecrets {
    seed: [u8; 32],
    s: [u64; 4],
    prefix: [u8; 32],
}

impl KeySecrets {
    /// All zeros, in a new box.
    fn boxed_zero() -> Box<Self> {
        Box::new(KeySecrets {
            seed: [0; 32],
            s: [0; 4],
            prefix: [0; 32],
        })
    }
}

impl Zeroize for KeySecrets {
    fn zeroize(&mut self) {
        self.seed[..].zeroize();
        self.s[..].zeroize();
        self.prefix[..].zeroize();
    }
}

impl Clone for SigningKey {
    /// Copies the secrets from box to box (a derived `Clone` may build them on the
    /// stack first).
    fn clone(&self) -> Self {
        let mut secret = KeySecrets::boxed_zero();
        secret.seed.copy_from_slice(&self.secret.seed);
        secret.s.copy_from_slice(&self.secret.s);
        secret.prefix.copy_from_slice(&self.secret.prefix);
        Self {
            secret,
            public: self.public,
        }
    }
}

impl Zeroize for SigningKey {
    /// Wipes the seed, s and the prefix (the public key stays).
    fn zeroize(&mut self) {
        self.secret.zeroize();
    }
}

crate::ct::secret_hygiene!(SigningKey);

impl ConstantTimeEq for SigningKey {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.secret.seed.ct_eq(&other.secret.seed)
    }
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// RFC 8032 5.1.5: h = SHA-512(seed); s = clamp(h[0..32]); A = \[s\]B.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] when `seed` is not 32 bytes.
    pub fn from_seed<K: Kernels>(seed: &[u8]) -> Result<Self, Error> {
        check_length("seed", seed, SEED_LEN)?;
        // Stored in the key's heap box, so moving the key moves a pointer. On the way
        // the digest h = a ‖ prefix and s pass through the stack by value (h and a are
        // wiped below; the hasher's output temporary and s's are not).
        let mut key = Self {
            secret: KeySecrets::boxed_zero(),
            public: [0; 32],
        };
        key.secret.seed.copy_from_slice(seed);
        let mut h: [u8; 64] = Sha512::digest(&key.secret.seed).into();
        let mut a = [0u8; 32];
        a.copy_from_slice(&h[..32]);
        a[0] &= 248;
        a[31] &= 127;
        a[31] |= 64;
        key.secret.prefix.copy_from_slice(&h[32..]);
        // The projective [a]B (its Z as computed) says more than the encoded A.
        let mut big_a = point::scalar_mul_base::<K>(&a);
        key.public = point::encode::<K>(&big_a);
        big_a.zeroize();
        key.secret.s = field::from_bytes(&a);
        h[..].zeroize();
        a[..].zeroize();
        Ok(key)
    }

    /// The public key A (32 bytes).
    pub fn public_key(&self) -> [u8; 32] {
        self.public
    }

    /// The seed this key was derived from, borrowed: the key wipes it on drop, and
    /// no copy is made that would outlive the key unwiped.
    pub fn seed(&self) -> &[u8; 32] {
        &self.secret.seed
    }
}

/// SHA-512 of the concatenation of `parts`, reduced mod L.
fn hash_mod_l(parts: &[&[u8]]) -> [u64; 4] {
    let mut h = Sha512::new();
    for p in parts {
        h.update(p);
    }
    let mut d: [u8; 64] = h.finalize().into();
    let x = scalar::reduce_bytes(&d);
    // For the nonce, the digest is secret.
    d[..].zeroize();
    x
}

/// The challenge k = SHA-512(R ‖ A ‖ M) mod L of RFC 8032 5.1.6 and 5.1.7.
fn challenge(r_bytes: &[u8; 32], a_bytes: &[u8; 32], msg: &[u8]) -> [u64; 4] {
    // Planted (`ed25519-challenge-omits-the-message`): k binds R and A only, in
    // signing and verification alike, so a signature verifies for every message.
    if crate::plant::active("ed25519-challenge-omits-the-message") {
        return hash_mod_l(&[r_bytes, a_bytes]);
    }
    hash_mod_l(&[r_bytes, a_bytes, msg])
}

/// RFC 8032 5.1.6: r = SHA-512(prefix ‖ M) mod L; R = \[r\]B; k = SHA-512(R ‖ A ‖ M)
/// mod L; S = (r + k·s) mod L; the signature is R ‖ S.
pub fn sign<K: Kernels>(key: &SigningKey, msg: &[u8]) -> [u8; 64] {
    // The nonce r: whoever learns it (and the signature) learns s.
    let mut r = hash_mod_l(&[&key.secret.prefix, msg]);
    let mut r_scalar = scalar::to_bytes(&r);
    let mut big_r = point::scalar_mul_base::<K>(&r_scalar);
    let r_bytes = point::encode::<K>(&big_r);
    big_r.zeroize();
    let k = challenge(&r_bytes, &key.public, msg);
    let s = scalar::mul_add(&k, &key.secret.s, &r);
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&r_bytes);
    sig[32..].copy_from_slice(&scalar::to_bytes(&s));
    r[..].zeroize();
    r_scalar[..].zeroize();
    if crate::plant::active("bench-ed25519-sign-allocates") {
        // A heap temporary in a kernel path: the DHAT gate must report it.
        core::hint::black_box(sig.to_vec());
    }
    if crate::plant::active("bench-ed25519-sign-extra-cost") {
        // Forty more SHA-512-and-reduce steps, about 20 % more instructions on a sign
        // of about 1.1M (measured +19 %): the instruction gate (5 %) must report it.
        for _ in 0..40 {
            core::hint::black_box(hash_mod_l(&[core::hint::black_box(&sig)]));
        }
    }
    sig
}

/// The three 32-byte parts of a verification: A, R and S, after the length checks.
type VerifyInput = ([u8; 32], [u8; 32], [u8; 32]);

/// Length checks, then A, R and S as arrays.
///
/// # Errors
/// [`Error::InvalidLength`] when `public_key` is not 32 bytes or `signature` is not
/// 64 bytes.
fn split(public_key: &[u8], signature: &[u8]) -> Result<VerifyInput, Error> {
    check_length("public key", public_key, PUBLIC_KEY_LEN)?;
    check_length("signature", signature, SIGNATURE_LEN)?;
    let mut a_bytes = [0u8; 32];
    a_bytes.copy_from_slice(public_key);
    let mut r_bytes = [0u8; 32];
    r_bytes.copy_from_slice(&signature[..32]);
    let mut s_bytes = [0u8; 32];
    s_bytes.copy_from_slice(&signature[32..]);
    Ok((a_bytes, r_bytes, s_bytes))
}

/// RFC 8032 5.1.7 with the rules in the module documentation: cofactorless, strict
/// encodings, low-order A and R accepted when the equation holds.
///
/// # Errors
/// [`Error::InvalidLength`] when `public_key` is not 32 bytes or `signature` is not
/// 64 bytes; [`Error::InvalidSignature`] for every signature that does not verify
/// (non-canonical S, A or R that does not decode strictly, failed equation).
pub fn verify<K: Kernels>(public_key: &[u8], msg: &[u8], signature: &[u8]) -> Result<(), Error> {
    let (a, r, s) = split(public_key, signature)?;
    verdict(verify_vartime::<K>(&a, msg, &r, &s, false))
}

/// [`verify`] that also rejects a public key A or a commitment R of small order
/// (\[8\]P is the identity: the eight torsion points), as ed25519-dalek's
/// `verify_strict` does. Non-canonical encodings (y >= p) are rejected in both modes.
/// This is stricter than dalek: some of them, y = p + 3 among them, decode to points
/// of large order that dalek's `verify_strict` would accept (docs/ed25519.md).
///
/// # Errors
/// As [`verify`]; also [`Error::InvalidSignature`] when A or R has small order.
pub fn verify_strict<K: Kernels>(
    public_key: &[u8],
    msg: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let (a, r, s) = split(public_key, signature)?;
    // Planted (`ed25519-verify-strict-is-verify`): the strict flag not passed on.
    let strict = !crate::plant::active("ed25519-verify-strict-is-verify");
    verdict(verify_vartime::<K>(&a, msg, &r, &s, strict))
}

fn verdict(ok: bool) -> Result<(), Error> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

fn verify_vartime<K: Kernels>(
    a_bytes: &[u8; 32],
    msg: &[u8],
    r_bytes: &[u8; 32],
    s_bytes: &[u8; 32],
    strict: bool,
) -> bool {
    // Planted (`ed25519-verify-accepts-a-non-canonical-s`): S >= L let through, so
    // R ‖ (S + L) verifies wherever R ‖ S does (signature malleability).
    if !scalar::is_canonical_vartime(s_bytes)
        && !crate::plant::active("ed25519-verify-accepts-a-non-canonical-s")
    {
        return false;
    }
    let Some(a) = point::decode_vartime::<K>(a_bytes) else {
        return false;
    };
    let Some(r) = point::decode_vartime::<K>(r_bytes) else {
        return false;
    };
    if strict && (point::is_small_order_vartime::<K>(&a) || point::is_small_order_vartime::<K>(&r))
    {
        return false;
    }
    let k = challenge(r_bytes, a_bytes, msg);
    let sb = point::scalar_mul_vartime::<K>(s_bytes, &BASE);
    let ka = point::scalar_mul_vartime::<K>(&scalar::to_bytes(&k), &point::negate::<K>(&a));
    let check: Point = point::add::<K>(&sb, &ka);
    point::encode::<K>(&check) == *r_bytes
}

/// Every coordinate of `p` is in [0, p] (the working invariant), for tests.
pub fn point_in_range(pt: &Point) -> bool {
    le_p(&pt.x) && le_p(&pt.y) && le_p(&pt.z) && pt.z != [0; 4] && pt.z != P_LIMBS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_point_encodes_to_rfc_value() {
        assert_eq!(
            hex::encode(point::encode::<Reference>(&BASE)),
            "5866666666666666666666666666666666666666666666666666666666666666"
        );
        let dec = point::decode_vartime::<Reference>(&point::encode::<Reference>(&BASE)).unwrap();
        assert_eq!(dec, BASE);
    }

    #[test]
    fn constants() {
        // d·121666 = −121665, sqrt(−1)^2 = −1.
        let t = Reference::mulm(&point::D, &[121_666, 0, 0, 0]);
        assert_eq!(Reference::addm(&t, &[121_665, 0, 0, 0]), [0; 4]);
        let i2 = Reference::mulm(&point::SQRT_M1, &point::SQRT_M1);
        assert_eq!(Reference::addm(&i2, &[1, 0, 0, 0]), [0; 4]);
        // [L]B = identity.
        let l = scalar::to_bytes(&scalar::L_LIMBS);
        let lb = point::scalar_mul_vartime::<Reference>(&l, &BASE);
        assert_eq!(
            point::encode::<Reference>(&lb),
            point::encode::<Reference>(&Point::IDENTITY)
        );
    }

    #[test]
    fn scalar_multiplication_keeps_the_working_invariant() {
        let mut k = [0xa5u8; 32];
        k[31] = 0x65; // scalar_mul needs k < 2^255
        let p1 = point::scalar_mul::<Reference>(&k, &BASE);
        assert!(point_in_range(&p1));
        let p2 = point::scalar_mul_vartime::<Reference>(&k, &BASE);
        assert!(point_in_range(&p2));
        assert_eq!(
            point::encode::<Reference>(&p1),
            point::encode::<Reference>(&p2)
        );
    }

    /// The invariant check itself can fail: a point breaking exactly one of its
    /// conditions (a coordinate above p, Z = 0, Z = p) is out of range.
    #[test]
    fn point_in_range_rejects_each_violation() {
        let mut above_p = P_LIMBS;
        above_p[0] += 1;
        let ok = BASE;
        assert!(point_in_range(&ok));
        for (what, pt) in [
            ("X > p", Point { x: above_p, ..ok }),
            ("Y > p", Point { y: above_p, ..ok }),
            ("Z > p", Point { z: above_p, ..ok }),
            ("Z = 0", Point { z: [0; 4], ..ok }),
            ("Z = p", Point { z: P_LIMBS, ..ok }),
        ] {
            assert!(!point_in_range(&pt), "{what} passed point_in_range");
        }
    }

    #[test]
    fn rfc8032_test1() {
        let seed = hex::decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
            .unwrap();
        let key = SigningKey::from_seed::<Reference>(&seed).unwrap();
        assert_eq!(
            hex::encode(key.public_key()),
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
        );
        let sig = sign::<Reference>(&key, b"");
        assert_eq!(
            hex::encode(sig),
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        );
        assert_eq!(verify::<Reference>(&key.public_key(), b"", &sig), Ok(()));
        assert_eq!(
            verify_strict::<Reference>(&key.public_key(), b"", &sig),
            Ok(())
        );
        assert_eq!(
            verify::<Reference>(&key.public_key(), b"x", &sig),
            Err(Error::InvalidSignature)
        );
    }
}
