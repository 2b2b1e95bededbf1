//! sntrup761 (Streamlined NTRU Prime, round-3 KEM), generic over its [`Kernels`].
//!
//! Structured like libgcrypt's `cipher/sntrup761.c` just before patch 06/10 (itself
//! supercop-20201130 `crypto_kem/sntrup761/ref`, with the patch-05 multiply-shift
//! freezes). Parameters: p = 761, q = 4591, w = 286, ring (Z/q)\[x\]/(x^p − x − 1).
//!
//! The two optimizations under study change only kernels, so the protocol code here
//! runs unchanged under every tier:
//!
//! | kernel | reference ([`Reference`]) | optimized tier |
//! |---|---|---|
//! | [`Kernels::short_random`], [`Kernels::small_random`] | 761 draws of 4 bytes (`urandom32`) | one draw of 3044 bytes (patch 06) |
//! | [`Kernels::rq_mult_small`], [`Kernels::r3_mult`] | freeze after every multiply-add | i32 accumulator, one freeze per coefficient (patch 07) |
//!
//! | module | contents |
//! |---|---|
//! | [`arith`] | `Fq_freeze`, `F3_freeze`, `Fq_recip`, masks, constant-time divmod |
//! | [`sort`] | constant-time `crypto_sort_int32` / `uint32` |
//! | [`poly`] | `R3_mult`, `R3_recip`, `Rq_mult_small`, `Rq_mult3`, `Rq_recip3`, `Round` |
//! | [`encode`] | `Encode`/`Decode`, `Small`, `Rq`, `Rounded` encodings |
//! | [`random`] | `urandom32`, `Short_fromlist`, `Short_random`, `Small_random` |
//! | [`kem`] | core (`KeyGen`, `Encrypt`, `Decrypt`), hashes, the KEM |

pub mod arith;
pub mod contracts;
pub mod encode;
pub mod kem;
pub mod poly;
pub mod random;
pub mod sort;

pub use crate::SharedSecret;
pub use arith::{Fq, Small};
pub use contracts::{is_rq, is_short, is_small, small_le_2};
pub use kem::{KeyPair, decapsulate, encapsulate, keypair};

use crate::rng::RandomSource;

/// p: the ring degree.
pub const P: usize = 761;
/// q: the modulus.
pub const Q: i32 = 4591;
/// q12 = (q − 1)/2: coefficients of Rq are represented in [-q12, q12].
pub const Q12: i32 = (Q - 1) >> 1;
/// w: the weight of Short polynomials.
pub const W: usize = 286;

/// Bytes of an Rq encoding (the public key).
pub const RQ_BYTES: usize = 1158;
/// Bytes of a Rounded encoding.
pub const ROUNDED_BYTES: usize = 1007;
/// Bytes of a Small encoding, ⌈p/4⌉.
pub const SMALL_BYTES: usize = P.div_ceil(4);
/// Bytes of a hash output (and of the confirmation and the session key).
pub const HASH_BYTES: usize = 32;
/// Public key bytes.
pub const PUBLIC_KEY_BYTES: usize = RQ_BYTES;
/// Secret key bytes: f, 1/g (Small each), pk, ρ (Small), Hash4(pk).
pub const SECRET_KEY_BYTES: usize = 2 * SMALL_BYTES + PUBLIC_KEY_BYTES + SMALL_BYTES + HASH_BYTES;
/// Ciphertext bytes: Rounded encoding plus 32-byte confirmation.
pub const CIPHERTEXT_BYTES: usize = ROUNDED_BYTES + HASH_BYTES;
/// Shared-secret bytes.
pub const SHARED_SECRET_BYTES: usize = HASH_BYTES;
/// Bytes one Short or Small polynomial draws: p little-endian 32-bit words.
pub const RANDOM_POLY_BYTES: usize = 4 * P;

const _: () = assert!(SMALL_BYTES == 191);
const _: () = assert!(SECRET_KEY_BYTES == 1763);
const _: () = assert!(CIPHERTEXT_BYTES == 1039);
const _: () = assert!(RANDOM_POLY_BYTES == 3044);
// Obligation S-1: the deferred Rq accumulator, p terms of |f·g| <= q12, fits i32 and
// lies inside Fq_freeze's exact domain.
const _: () = assert!((P as i64) * (Q12 as i64) < (1i64 << 31));
const _: () = assert!((P as i64) * (Q12 as i64) <= arith::FQ_FREEZE_DOMAIN as i64);
// With arbitrary secret-key bytes |g| <= 2: still inside both.
const _: () = assert!(2 * (P as i64) * (Q12 as i64) <= arith::FQ_FREEZE_DOMAIN as i64);
// Obligation S-2: the deferred R3 accumulator (p terms of |f·g| <= 4 when |f|, |g| <= 2:
// |Σ| <= 4p = 3044) fits the i16 argument of F3_freeze.
const _: () = assert!(4 * (P as i64) <= i16::MAX as i64);

/// The kernels an sntrup761 tier supplies.
///
/// Every tier must give results identical to [`Reference`] on the stated
/// preconditions; the randomness kernels additionally only when the source is
/// call-boundary invariant (see [`RandomSource::is_call_boundary_invariant`]).
///
/// A tier supplies its word draw ([`Kernels::draw_words`]) and its two
/// multiplications; `Short_random` and `Small_random` are provided once, for every
/// tier, as the shared maps of the drawn words.
///
/// The contracts are hax-lib `requires`/`ensures` over the executable predicates of
/// [`contracts`]: erased in a normal build, type-checked under `--cfg hax` (CI); the
/// provided methods and the optimized kernels also check them with `debug_assert!` on
/// every call (tests run with debug assertions on).
#[hax_lib::attributes]
pub trait Kernels {
    /// The p little-endian 32-bit words a Short or Small polynomial is made from
    /// (3044 bytes in all), drawn from `rng` the tier's way.
    fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P];
    /// Short_random: a polynomial of weight exactly w with coefficients in {-1,0,1},
    /// [`random::short_fromlist`] of [`Kernels::draw_words`].
    #[hax_lib::ensures(|_| is_short(&future(out)))]
    fn short_random<R: RandomSource + ?Sized>(out: &mut [Small; P], rng: &mut R) {
        let mut l = Self::draw_words(rng);
        random::short_fromlist(out, &l);
        debug_assert!(is_short(out), "Kernels::short_random ensures");
        // The words are secret: do not leave them on the stack.
        zeroize::Zeroize::zeroize(&mut l[..]);
    }
    /// Small_random: a polynomial in {-1,0,1}^p, [`random::small_from_word`] of each
    /// word of [`Kernels::draw_words`].
    #[hax_lib::ensures(|_| is_small(&future(out)))]
    fn small_random<R: RandomSource + ?Sized>(out: &mut [Small; P], rng: &mut R) {
        let mut l = Self::draw_words(rng);
        for (o, &w) in out.iter_mut().zip(&l) {
            *o = random::small_from_word(w);
        }
        debug_assert!(is_small(out), "Kernels::small_random ensures");
        zeroize::Zeroize::zeroize(&mut l[..]);
    }
    /// Rq_mult_small: h = f·g in Rq.
    ///
    /// Preconditions: |f\[i\]| <= q12, |g\[i\]| <= 2. Postcondition: h equals the
    /// reference's freeze-per-step product (hence is the canonical representative of
    /// the exact product).
    #[hax_lib::requires(is_rq(f) && small_le_2(g))]
    #[hax_lib::ensures(|_| contracts::rq_mult_small_ensures(f, g, &future(h)))]
    fn rq_mult_small(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]);
    /// R3_mult: h = f·g in R3.
    ///
    /// Preconditions: |f\[i\]| <= 2, |g\[i\]| <= 2. Postcondition: h equals the
    /// reference's freeze-per-step product (in {-1,0,1}^p).
    #[hax_lib::requires(small_le_2(f) && small_le_2(g))]
    #[hax_lib::ensures(|_| contracts::r3_mult_ensures(f, g, &future(h)))]
    fn r3_mult(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]);
}

/// The reference kernels: libgcrypt before patch 06 (per-coefficient `urandom32`
/// draws) and before patch 07 (freeze after every multiply-add).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Kernels for Reference {
    fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
        random::draw_words_per_coefficient(rng)
    }
    fn rq_mult_small(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
        poly::rq_mult_small_per_step(h, f, g);
    }
    fn r3_mult(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
        poly::r3_mult_per_step(h, f, g);
    }
}
