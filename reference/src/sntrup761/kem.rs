//! Streamlined NTRU Prime Core, the hashes, and the KEM (round-3 specification,
//! libgcrypt `cipher/sntrup761.c` sections "Streamlined NTRU Prime Core", "confirmation
//! hash", "session-key hash" and "Streamlined NTRU Prime").
//!
//! Secret-key layout (1763 bytes): Small(f) ‖ Small(1/g) ‖ pk ‖ ρ ‖ Hash4(pk).
//! Ciphertext (1039 bytes): Rounded(c) ‖ HashConfirm(r, pk).

use sha2::{Digest, Sha512};

use super::arith::{Fq, Small};
use super::encode::{
    rounded_decode, rounded_encode, rq_decode, rq_encode, small_decode, small_encode,
};
use super::poly::{r3_from_rq, r3_recip, round, rq_mult3, rq_recip3, weightw_mask};
use super::{
    CIPHERTEXT_BYTES, HASH_BYTES, Kernels, P, PUBLIC_KEY_BYTES, ROUNDED_BYTES, RQ_BYTES,
    SECRET_KEY_BYTES, SHARED_SECRET_BYTES, SMALL_BYTES, W,
};
use crate::SharedSecret;
use crate::ct::{self, copy_then_wipe};
use crate::error::{Error, check_length};
use crate::rng::RandomSource;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

const _: () = assert!(SHARED_SECRET_BYTES == SharedSecret::LEN);

/// `bytes` as an array of its required length.
///
/// # Errors
/// [`Error::InvalidLength`] naming `what` when the length is not `N`.
fn fixed<const N: usize>(what: &'static str, bytes: &[u8]) -> Result<[u8; N], Error> {
    check_length(what, bytes, N)?;
    Ok(sub(bytes, 0))
}

/// The `N` bytes of `s` from `at` (the caller has checked the length).
fn sub<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
    core::array::from_fn(|i| s[at + i])
}

/// Hash_prefix: the first 32 bytes of SHA-512(b ‖ input).
pub fn hash_prefix(b: u8, input: &[u8]) -> [u8; HASH_BYTES] {
    let mut h = Sha512::new();
    h.update([b]);
    h.update(input);
    let mut full: [u8; 64] = h.finalize().into();
    let mut out = [0u8; HASH_BYTES];
    out.copy_from_slice(&full[..HASH_BYTES]);
    // The second half is unused, but it is a hash of secrets too.
    full[..].zeroize();
    out
}

/// How many g `core_keygen` (key generation) draws before it gives up on the random source. For a
/// uniform source a draw is rejected with probability below 9·10⁻¹⁰ (x^761 − x − 1
/// factors mod 3 into irreducibles of degrees 19, 60 and 682, so a non-invertible g is
/// divisible by one of them: at most 3⁻¹⁹ + 3⁻⁶⁰ + 3⁻⁶⁸²), so 64 rejections in a row
/// mean a broken source: one repeating a 4-byte word gives the same g every time, and
/// for some words that g is never invertible (0x15555556 gives g = 0). The C code
/// loops for ever.
pub const MAX_G_DRAWS: u32 = 64;

/// KeyGen: g by rejection until invertible in R3 (the retry count is public: it
/// says nothing about the g that is kept), then f Short, h = g/(3f) in Rq.
/// Returns h; f and 1/g are written into the caller's `f` and `ginv` (secret: not
/// returned by value), which the caller wipes once it has encoded them.
///
/// # Panics
/// If [`MAX_G_DRAWS`] draws of g in a row are not invertible (a broken source).
pub(crate) fn core_keygen<K: Kernels, R: RandomSource + ?Sized>(
    rng: &mut R,
    f: &mut [Small; P],
    ginv: &mut [Small; P],
) -> [Fq; P] {
    let mut g = [0 as Small; P];
    let mut draws = 0;
    loop {
        assert!(
            draws < MAX_G_DRAWS,
            "sntrup761 KeyGen: {MAX_G_DRAWS} draws of g in a row were not invertible mod 3 \
             (a broken random source)"
        );
        draws += 1;
        K::small_random(&mut g, rng);
        // Whether g is invertible mod 3 decides a retry; a rejected g is discarded, so
        // the verdict (and the number of tries) is public, as in the C code.
        let status = r3_recip(ginv, &g) as u32;
        if ct::declassify_u32(status) == 0 {
            break;
        }
    }
    K::short_random(f, rng);
    let mut finv = [0 as Fq; P];
    // Always succeeds for a Short f (see `rq_recip3`); the status is not secret.
    let _ = rq_recip3(&mut finv, f);
    let mut h = [0 as Fq; P];
    K::rq_mult_small(&mut h, &finv, &g);
    g[..].zeroize();
    finv[..].zeroize();
    h
}

/// Encrypt: c = Round(h·r).
pub(crate) fn core_encrypt<K: Kernels>(c: &mut [Fq; P], r: &[Small; P], h: &[Fq; P]) {
    let mut hr = [0 as Fq; P];
    K::rq_mult_small(&mut hr, h, r);
    round(c, &hr);
    // h·r before rounding gives r away (h is public).
    hr[..].zeroize();
}

/// Decrypt: e = 3fc mod 3, ev = e/g in R3; r = ev when it has weight w, else the
/// fixed Short (1,..,1,0,..,0), selected by mask.
pub(crate) fn core_decrypt<K: Kernels>(
    r: &mut [Small; P],
    c: &[Fq; P],
    f: &[Small; P],
    ginv: &[Small; P],
) {
    let mut cf = [0 as Fq; P];
    let mut cf3 = [0 as Fq; P];
    let mut e = [0 as Small; P];
    let mut ev = [0 as Small; P];
    K::rq_mult_small(&mut cf, c, f);
    rq_mult3(&mut cf3, &cf);
    r3_from_rq(&mut e, &cf3);
    K::r3_mult(&mut ev, &e, ginv);
    let mask = weightw_mask(&ev) as Small; // 0 if weight w, else -1
    for i in 0..W {
        r[i] = ((ev[i] ^ 1) & !mask) ^ 1;
    }
    for i in W..P {
        r[i] = ev[i] & !mask;
    }
    cf[..].zeroize();
    cf3[..].zeroize();
    e[..].zeroize();
    ev[..].zeroize();
}

/// HashConfirm(r_enc, cache) = Hash2(Hash3(r_enc) ‖ cache), cache = Hash4(pk).
pub(crate) fn hash_confirm(
    r_enc: &[u8; SMALL_BYTES],
    cache: &[u8; HASH_BYTES],
) -> [u8; HASH_BYTES] {
    let mut x = [0u8; 2 * HASH_BYTES];
    copy_then_wipe(&mut x[..HASH_BYTES], hash_prefix(3, r_enc));
    x[HASH_BYTES..].copy_from_slice(cache);
    let confirm = hash_prefix(2, &x);
    x[..].zeroize();
    confirm
}

/// HashSession(b, y, z) = Hash_b(Hash3(y) ‖ z), z the whole ciphertext.
pub(crate) fn hash_session(b: u8, y: &[u8; SMALL_BYTES], z: &[u8]) -> [u8; HASH_BYTES] {
    let mut x = vec![0u8; HASH_BYTES + z.len()];
    copy_then_wipe(&mut x[..HASH_BYTES], hash_prefix(3, y));
    x[HASH_BYTES..].copy_from_slice(z);
    let session = hash_prefix(b, &x);
    x[..].zeroize();
    session
}

/// Hide: (c, r_enc) = (ZEncrypt(r, pk) ‖ HashConfirm(r_enc, cache), Small(r)).
pub(crate) fn hide<K: Kernels>(
    c: &mut [u8; CIPHERTEXT_BYTES],
    r: &[Small; P],
    pk: &[u8; PUBLIC_KEY_BYTES],
    cache: &[u8; HASH_BYTES],
) -> [u8; SMALL_BYTES] {
    let mut r_enc = [0u8; SMALL_BYTES];
    small_encode(&mut r_enc, r);
    let mut h = [0 as Fq; P];
    rq_decode(&mut h, pk);
    let mut cpoly = [0 as Fq; P];
    core_encrypt::<K>(&mut cpoly, r, &h);
    let mut rounded = [0u8; ROUNDED_BYTES];
    rounded_encode(&mut rounded, &cpoly);
    c[..ROUNDED_BYTES].copy_from_slice(&rounded);
    copy_then_wipe(&mut c[ROUNDED_BYTES..], hash_confirm(&r_enc, cache));
    // In decapsulation the re-encryption is secret until compared (a rejected
    // ciphertext's differs from it); the caller wipes `c`, these are its copies.
    cpoly.zeroize();
    rounded.zeroize();
    r_enc
}

/// An sntrup761 key pair as byte strings. `Debug` shows the start of pk and hides sk;
/// sk is wiped when the pair is dropped (`ZeroizeOnDrop`); `==` compares in constant
/// time ([`ConstantTimeEq`]).
///
/// sk lives on the heap: moving the pair (returning it, storing it) moves a pointer,
/// so no stack copy of the secret key is left behind unwiped, as one would be by an
/// array held in the pair itself.
#[derive(Clone)]
pub struct KeyPair {
    pk: [u8; PUBLIC_KEY_BYTES],
    sk: Box<[u8; SECRET_KEY_BYTES]>,
}

impl KeyPair {
    /// A pair from its two keys' bytes, as stored or received. Nothing is checked but
    /// the lengths (the types'), not that the keys belong together. `sk` is copied
    /// into the pair: the caller's bytes are the caller's to wipe.
    pub fn from_parts(pk: [u8; PUBLIC_KEY_BYTES], sk: &[u8; SECRET_KEY_BYTES]) -> Self {
        KeyPair {
            pk,
            sk: ct::boxed_copy(sk),
        }
    }

    /// The public key (1158 bytes).
    pub fn pk(&self) -> &[u8; PUBLIC_KEY_BYTES] {
        &self.pk
    }

    /// The secret key (1763 bytes): Small(f) ‖ Small(1/g) ‖ pk ‖ ρ ‖ Hash4(pk). Secret:
    /// the pair wipes its own copy on drop, a copy the caller makes is the caller's to
    /// wipe.
    pub fn sk(&self) -> &[u8; SECRET_KEY_BYTES] {
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

impl core::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyPair")
            .field("pk", &&self.pk[..8])
            .field("sk", &format_args!("<{} secret bytes>", self.sk.len()))
            .finish()
    }
}

impl ConstantTimeEq for KeyPair {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.pk.ct_eq(&other.pk) & self.sk[..].ct_eq(&other.sk[..])
    }
}

/// KEM_KeyGen. Draws, in order: g (3044 bytes, again per retry), f (3044 bytes),
/// ρ (one 191-byte call); the kernels decide how the polynomial draws are split
/// into calls.
///
/// # Panics
/// If the source is broken: [`MAX_G_DRAWS`] draws of g in a row not invertible mod 3
/// (see `core_keygen`).
pub fn keypair<K: Kernels, R: RandomSource + ?Sized>(rng: &mut R) -> KeyPair {
    let (mut f, mut ginv) = ([0 as Small; P], [0 as Small; P]);
    let h = core_keygen::<K, R>(rng, &mut f, &mut ginv);
    let mut pk = [0u8; PUBLIC_KEY_BYTES];
    rq_encode(&mut pk, &h);
    // Written in place, on the heap, so no stack copy of the whole key outlives this
    // call.
    let mut sk = Box::new([0u8; SECRET_KEY_BYTES]);
    let mut s = [0u8; SMALL_BYTES];
    small_encode(&mut s, &f);
    sk[..SMALL_BYTES].copy_from_slice(&s);
    small_encode(&mut s, &ginv);
    sk[SMALL_BYTES..2 * SMALL_BYTES].copy_from_slice(&s);
    s[..].zeroize();
    f[..].zeroize();
    ginv[..].zeroize();
    let pk_at = 2 * SMALL_BYTES;
    sk[pk_at..pk_at + PUBLIC_KEY_BYTES].copy_from_slice(&pk);
    let rho_at = pk_at + PUBLIC_KEY_BYTES;
    rng.fill(&mut sk[rho_at..rho_at + SMALL_BYTES]);
    sk[rho_at + SMALL_BYTES..].copy_from_slice(&hash_prefix(4, &pk));
    KeyPair { pk, sk }
}

/// Encap with a given Short r (the deterministic part of [`encapsulate`]). Returns
/// (ciphertext, session key).
///
/// # Errors
/// [`Error::InvalidLength`] when `pk` is not 1158 bytes. Any 1158-byte string is
/// accepted: `Rq_decode` reduces every coefficient mod q, as the specification
/// defines it.
pub(crate) fn encapsulate_with_r<K: Kernels>(
    pk: &[u8],
    r: &[Small; P],
) -> Result<(Vec<u8>, SharedSecret), Error> {
    let pk: [u8; PUBLIC_KEY_BYTES] = fixed("public key", pk)?;
    let pk = &pk;
    let cache = hash_prefix(4, pk);
    let mut c = [0u8; CIPHERTEXT_BYTES];
    let mut r_enc = hide::<K>(&mut c, r, pk, &cache);
    let k = SharedSecret::take(&mut hash_session(1, &r_enc, &c));
    r_enc[..].zeroize();
    Ok((c.to_vec(), k))
}

/// KEM_Encap: r = Short_random (one 3044-byte polynomial draw), then
/// `encapsulate_with_r`.
///
/// # Errors
/// [`Error::InvalidLength`] when `pk` is not 1158 bytes; nothing is drawn then.
pub fn encapsulate<K: Kernels, R: RandomSource + ?Sized>(
    pk: &[u8],
    rng: &mut R,
) -> Result<(Vec<u8>, SharedSecret), Error> {
    check_length("public key", pk, PUBLIC_KEY_BYTES)?;
    let mut r = [0 as Small; P];
    K::short_random(&mut r, rng);
    if crate::plant::active("sntrup761-encaps-branches-on-r") && core::hint::black_box(r[0]) == 0 {
        // Planted: a branch on the secret r.
        core::hint::black_box(0u8);
    }
    let out = encapsulate_with_r::<K>(pk, &r);
    r[..].zeroize();
    out
}

/// KEM_Decap with implicit rejection: re-encrypt, compare the whole ciphertext in
/// constant time, and hash either r (b = 1) or ρ (b = 0) with the ciphertext. Every
/// 1039-byte ciphertext yields a key; so does every 1763-byte secret key.
///
/// # Errors
/// [`Error::InvalidLength`] when `ct` is not 1039 bytes or `sk` not 1763 bytes.
pub fn decapsulate<K: Kernels>(sk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
    let ct: [u8; CIPHERTEXT_BYTES] = fixed("ciphertext", ct)?;
    let ct = &ct;
    check_length("secret key", sk, SECRET_KEY_BYTES)?;
    let mut f_enc: [u8; SMALL_BYTES] = sub(sk, 0);
    let mut v_enc: [u8; SMALL_BYTES] = sub(sk, SMALL_BYTES);
    let pk: [u8; RQ_BYTES] = sub(sk, 2 * SMALL_BYTES);
    let mut rho: [u8; SMALL_BYTES] = sub(sk, 2 * SMALL_BYTES + RQ_BYTES);
    let cache: [u8; HASH_BYTES] = sub(sk, 3 * SMALL_BYTES + RQ_BYTES);

    // ZDecrypt
    let mut f = [0 as Small; P];
    let mut v = [0 as Small; P];
    small_decode(&mut f, &f_enc);
    small_decode(&mut v, &v_enc);
    let mut c = [0 as Fq; P];
    rounded_decode(&mut c, &sub(ct, 0));
    let mut r = [0 as Small; P];
    core_decrypt::<K>(&mut r, &c, &f, &v);

    let mut cnew = [0u8; CIPHERTEXT_BYTES];
    let mut r_enc = hide::<K>(&mut cnew, &r, &pk, &cache);
    // differ = 0xff when the ciphertexts differ (mask = -1 in the C code).
    let differ = if crate::plant::active("sntrup761-decaps-variable-time-compare") {
        // Planted: an early-exit comparison (memcmp) of c with the secret re-encryption.
        if ct == &cnew[..] { 0 } else { 0xff }
    } else {
        !ct::eq_mask(ct, &cnew)
    };
    if !crate::plant::active("sntrup761-decaps-rejection-hashes-r") {
        ct::select_into(&mut r_enc, &rho, differ);
    }
    // b = 1 + mask: 1 on success, 0 on rejection, without a branch.
    let b = 1u8.wrapping_add(differ);
    let session = SharedSecret::take(&mut hash_session(b, &r_enc, ct));
    // f, 1/g, ρ, the decrypted r and its re-encryption (which, for a rejected
    // ciphertext, encrypts a secret r) are intermediates.
    f_enc[..].zeroize();
    v_enc[..].zeroize();
    rho[..].zeroize();
    f[..].zeroize();
    v[..].zeroize();
    r[..].zeroize();
    r_enc[..].zeroize();
    cnew[..].zeroize();
    Ok(session)
}
