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
//! | [`point::encode`], [`point::decode_vartime`] | 5.1.2, 5.1.3 |
//!
//! Verification rules (docs/ed25519.md has the table and the vectors that test it):
//! * `S` must be canonical (`S < L`), else reject;
//! * `A` and `R` must decode strictly (y < p; x = 0 with the sign bit set is
//!   rejected; a y with no x is rejected), else reject;
//! * k = SHA-512(R ‖ A ‖ M) over the bytes as received;
//! * the **cofactorless** equation \[S\]B = R + \[k\]A, checked as
//!   encode(\[S\]B − \[k\]A) == R. Low-order A and R are accepted when it holds.
//!
//! Constant time: key generation and signing use the constant-time fixed-window
//! `point::scalar_mul_base` (crate-internal: its callers guarantee k < 2^255, the
//! clamped secret scalar or a nonce reduced mod L); functions with `vartime` in the
//! name run on public data only (verification). Every field kernel is branch-free.

pub mod field;
pub mod mpih;
pub mod point;
pub mod scalar;

use sha2::{Digest, Sha512};

use crate::error::{Error, check_length};
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
/// The contracts are hax-lib `ensures` over the executable predicates
/// [`addm_ensures`], [`subm_ensures`] and [`mulm_ensures`] (no `requires`: the
/// functions are total, and the range statements are implications from inputs in
/// [0, p]): erased in a normal build, type-checked under `--cfg hax` (CI), and checked
/// with `debug_assert!` on every call of both tiers' kernels in tests.
///
/// A tier supplies the three libgcrypt routines (`ec_addm_25519`, `ec_subm_25519`,
/// and the reduction half of `ec_mulm_25519`; the schoolbook product is shared) and
/// its cached base-point table; the point code calls the provided [`Kernels::addm`],
/// [`Kernels::subm`] and [`Kernels::mulm`], which wrap them with the contract checks
/// once for every tier.
#[hax_lib::attributes]
pub trait Kernels {
    /// This tier's `ec_addm_25519`, as libgcrypt writes it.
    fn ec_addm_25519(u: &Fe, v: &Fe) -> Fe;
    /// This tier's `ec_subm_25519`, as libgcrypt writes it.
    fn ec_subm_25519(u: &Fe, v: &Fe) -> Fe;
    /// This tier's reduction of the 8-limb product `n` (the part of `ec_mulm_25519`
    /// after `mul_n`): the result and the carry limb of L + 19·H_low.
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
        let (w, cy) = Self::ec_mulm_25519_reduce(&mut n);
        debug_assert!(carry_lemma_holds(u, v, cy), "carry lemma: {cy} > 9");
        debug_assert!(mulm_ensures(u, v, &w), "Kernels::mulm ensures");
        w
    }
    /// The signed-window table of the base point, `[j]B` for j = 0..=8, computed once
    /// with this tier's kernels ([`point::window_table`]) and cached: key generation
    /// and signing multiply B only, so they skip rebuilding it (7 point operations)
    /// on every call. Implement as a `OnceLock` holding `window_table::<Self>(&BASE)`.
    fn base_table() -> &'static point::WindowTable;
}

/// A 4-limb value widened to five limbs.
fn wide(x: &Fe) -> [u64; 5] {
    [x[0], x[1], x[2], x[3], 0]
}

/// a + b over five limbs (no overflow for the values used here: all below 2^258).
fn add5(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    let mut w = [0u64; 5];
    let _ = mpih::add_n(&mut w, a, b);
    w
}

/// a − b ∈ {−2p, −p, 0, p, 2p}: a ≡ b (mod p) for values whose difference is at most
/// 2p in size (what the range of `addm`/`subm` leaves).
fn within_two_p_congruent(a: &[u64; 5], b: &[u64; 5]) -> bool {
    let p = wide(&P_LIMBS);
    let p2 = add5(&p, &p);
    *a == *b || *a == add5(b, &p) || *a == add5(b, &p2) || *b == add5(a, &p) || *b == add5(a, &p2)
}

/// Postcondition of [`Kernels::addm`]: for u, v <= p, w <= p and w ≡ u + v (mod p).
pub fn addm_ensures(u: &Fe, v: &Fe, w: &Fe) -> bool {
    !(le_p(u) && le_p(v))
        || (le_p(w) && within_two_p_congruent(&add5(&wide(u), &wide(v)), &wide(w)))
}

/// Postcondition of [`Kernels::subm`]: for u, v <= p, w <= p and w + v ≡ u (mod p).
pub fn subm_ensures(u: &Fe, v: &Fe, w: &Fe) -> bool {
    !(le_p(u) && le_p(v))
        || (le_p(w) && within_two_p_congruent(&add5(&wide(w), &wide(v)), &wide(u)))
}

/// Postcondition of [`Kernels::mulm`] checked on every call: for u, v <= p, w is
/// canonical (< p). (That w ≡ u·v is obligation ED-2 plus the official vectors; a
/// per-call reduction oracle would make the tests too slow.)
pub fn mulm_ensures(u: &Fe, v: &Fe, w: &Fe) -> bool {
    !(le_p(u) && le_p(v)) || field::is_canonical_vartime(w)
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

/// The carry-bound lemma (obligation ED-3): for u, v <= p the carry limb of
/// L + 19·H is at most 9. Backends call it in debug builds; it is vacuous for inputs
/// above p. (Only evaluated under `debug_assert!`, i.e. in tests.)
pub fn carry_lemma_holds(u: &Fe, v: &Fe, carry: u64) -> bool {
    !(le_p(u) && le_p(v)) || carry <= 9
}

/// An Ed25519 signing key: the 32-byte seed and what RFC 8032 5.1.5 derives from
/// it (the clamped scalar s, the nonce prefix, the public key A).
#[derive(Clone)]
pub struct SigningKey {
    seed: [u8; 32],
    s: [u64; 4],
    prefix: [u8; 32],
    public: [u8; 32],
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
        check_length("Ed25519 seed", seed, SEED_LEN)?;
        let mut sd = [0u8; 32];
        sd.copy_from_slice(seed);
        let h: [u8; 64] = Sha512::digest(sd).into();
        let mut a = [0u8; 32];
        a.copy_from_slice(&h[..32]);
        a[0] &= 248;
        a[31] &= 127;
        a[31] |= 64;
        let mut prefix = [0u8; 32];
        prefix.copy_from_slice(&h[32..]);
        let public = point::encode::<K>(&point::scalar_mul_base::<K>(&a));
        Ok(Self {
            seed: sd,
            s: field::from_bytes(&a),
            prefix,
            public,
        })
    }

    /// The public key A (32 bytes).
    pub fn public_key(&self) -> [u8; 32] {
        self.public
    }

    /// The seed this key was derived from.
    pub fn seed(&self) -> [u8; 32] {
        self.seed
    }
}

/// SHA-512 of the concatenation of `parts`, reduced mod L.
fn hash_mod_l(parts: &[&[u8]]) -> [u64; 4] {
    let mut h = Sha512::new();
    for p in parts {
        h.update(p);
    }
    let d: [u8; 64] = h.finalize().into();
    scalar::reduce_bytes(&d)
}

/// RFC 8032 5.1.6: r = SHA-512(prefix ‖ M) mod L; R = \[r\]B; k = SHA-512(R ‖ A ‖ M)
/// mod L; S = (r + k·s) mod L; the signature is R ‖ S.
pub fn sign<K: Kernels>(key: &SigningKey, msg: &[u8]) -> [u8; 64] {
    let r = hash_mod_l(&[&key.prefix, msg]);
    let r_bytes = point::encode::<K>(&point::scalar_mul_base::<K>(&scalar::to_bytes(&r)));
    let k = hash_mod_l(&[&r_bytes, &key.public, msg]);
    let s = scalar::mul_add(&k, &key.s, &r);
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&r_bytes);
    sig[32..].copy_from_slice(&scalar::to_bytes(&s));
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

/// RFC 8032 5.1.7 with the rules in the module documentation. Returns `Ok(false)`
/// for every signature that does not verify, including non-canonical S, invalid or
/// non-canonical encodings of A and R.
///
/// # Errors
/// [`Error::InvalidLength`] when `public_key` is not 32 bytes or `signature` is not
/// 64 bytes.
pub fn verify<K: Kernels>(public_key: &[u8], msg: &[u8], signature: &[u8]) -> Result<bool, Error> {
    check_length("Ed25519 public key", public_key, PUBLIC_KEY_LEN)?;
    check_length("Ed25519 signature", signature, SIGNATURE_LEN)?;
    let mut a_bytes = [0u8; 32];
    a_bytes.copy_from_slice(public_key);
    let mut r_bytes = [0u8; 32];
    r_bytes.copy_from_slice(&signature[..32]);
    let mut s_bytes = [0u8; 32];
    s_bytes.copy_from_slice(&signature[32..]);
    Ok(verify_vartime::<K>(&a_bytes, msg, &r_bytes, &s_bytes))
}

fn verify_vartime<K: Kernels>(
    a_bytes: &[u8; 32],
    msg: &[u8],
    r_bytes: &[u8; 32],
    s_bytes: &[u8; 32],
) -> bool {
    if !scalar::is_canonical_vartime(s_bytes) {
        return false;
    }
    let Some(a) = point::decode_vartime::<K>(a_bytes) else {
        return false;
    };
    if point::decode_vartime::<K>(r_bytes).is_none() {
        return false;
    }
    let k = hash_mod_l(&[r_bytes, a_bytes, msg]);
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
        assert_eq!(verify::<Reference>(&key.public_key(), b"", &sig), Ok(true));
        assert_eq!(
            verify::<Reference>(&key.public_key(), b"x", &sig),
            Ok(false)
        );
    }
}
