//! sntrup761 optimized kernels: libgcrypt patches 06/10 and 07/10, as two named
//! variants that replay the series on top of the same protocol code
//! ([`reference::sntrup761`]).
//!
//! | variant | kernel type | randomness | multiplication |
//! |---|---|---|---|
//! | `reference` | [`reference::sntrup761::Reference`] | 761 × 4-byte draws | freeze per multiply-add |
//! | `batched-rng` | [`BatchedRng`] | one 3044-byte draw (patch 06) | freeze per multiply-add |
//! | `optimized` | [`Optimized`] | one 3044-byte draw (patch 06) | i32 accumulator, one freeze per coefficient (patch 07) |

pub mod poly;
pub mod random;

use reference::RandomSource;
use reference::sntrup761::contracts::{r3_mult_ensures, rq_mult_small_ensures};
use reference::sntrup761::{Fq, Kernels, P, Small, is_rq, poly as rpoly, small_le_2};

/// Patch 06 only: one random call per polynomial, reference multiplications.
///
/// Identical to [`reference::sntrup761::Reference`] when the random source is
/// call-boundary invariant (a byte stream); under NIST's CTR-DRBG it is not, and this
/// variant reproduces the bulk-convention KAT instead of the `urandom32` one.
#[derive(Clone, Copy, Debug, Default)]
pub struct BatchedRng;

impl Kernels for BatchedRng {
    fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
        random::draw_words(rng)
    }
    fn rq_mult_small(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
        rpoly::rq_mult_small_per_step(h, f, g);
    }
    fn r3_mult(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
        rpoly::r3_mult_per_step(h, f, g);
    }
}

/// Patches 06 and 07: one random call per polynomial, and deferred reduction in
/// `Rq_mult_small` and `R3_mult`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimized;

impl Kernels for Optimized {
    fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
        random::draw_words(rng)
    }
    fn rq_mult_small(h: &mut [Fq; P], f: &[Fq; P], g: &[Small; P]) {
        debug_assert!(is_rq(f) && small_le_2(g), "Kernels::rq_mult_small requires");
        poly::rq_mult_small_deferred(h, f, g);
        debug_assert!(
            rq_mult_small_ensures(f, g, h),
            "Kernels::rq_mult_small ensures"
        );
    }
    fn r3_mult(h: &mut [Small; P], f: &[Small; P], g: &[Small; P]) {
        debug_assert!(small_le_2(f) && small_le_2(g), "Kernels::r3_mult requires");
        poly::r3_mult_deferred(h, f, g);
        debug_assert!(r3_mult_ensures(f, g, h), "Kernels::r3_mult ensures");
    }
}
