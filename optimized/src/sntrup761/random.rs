//! libgcrypt patch 06/10, "sntrup761: read random values with single call".
//!
//! `Short_random` and `Small_random` fill all p words with **one** 3044-byte call
//! and read word i from bytes 4i..4i+4 little-endian (`le_bswap32` in the C code,
//! `u32::from_le_bytes` here). Same bytes, same order, same words as the reference's
//! 761 calls of `urandom32` — when the source is a byte stream.

use reference::RandomSource;
use reference::sntrup761::random::{short_fromlist, small_from_word};
use reference::sntrup761::{P, RANDOM_POLY_BYTES, Small, is_short, is_small};
use zeroize::Zeroize;

/// The p little-endian words of one 3044-byte draw.
fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
    let mut bytes = [0u8; RANDOM_POLY_BYTES];
    rng.fill(&mut bytes);
    let mut l = [0u32; P];
    for (w, b) in l.iter_mut().zip(bytes.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    planted_last_word(&mut l);
    // The buffer held secret material; do not leave it on the stack.
    bytes[..].zeroize();
    l
}

/// Planted (`sntrup761-batched-last-word`): the last word read from the previous
/// word's bytes. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_last_word(l: &mut [u32; P]) {
    if reference::plant::active("sntrup761-batched-last-word") {
        l[P - 1] = l[P - 2];
    }
}

/// Short_random, batched: one draw, then `Short_fromlist`.
pub fn short_random_batched<R: RandomSource + ?Sized>(out: &mut [Small; P], rng: &mut R) {
    let mut l = draw_words(rng);
    short_fromlist(out, &l);
    debug_assert!(is_short(out), "Kernels::short_random ensures");
    l[..].zeroize();
}

/// Small_random, batched: one draw, then the Small map per word.
pub fn small_random_batched<R: RandomSource + ?Sized>(out: &mut [Small; P], rng: &mut R) {
    let mut l = draw_words(rng);
    for (o, &w) in out.iter_mut().zip(&l) {
        *o = small_from_word(w);
    }
    debug_assert!(is_small(out), "Kernels::small_random ensures");
    l[..].zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::rng::{Recorder, Shake256Source};

    #[test]
    fn draw_pattern_is_one_call_of_3044_bytes() {
        let mut r = Recorder::new(Shake256Source::new(b"x"));
        let mut f = [0; P];
        short_random_batched(&mut f, &mut r);
        small_random_batched(&mut f, &mut r);
        assert_eq!(r.calls(), &[3044, 3044]);
    }
}
