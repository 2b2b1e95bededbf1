//! libgcrypt patch 06/10, "sntrup761: read random values with single call".
//!
//! `Short_random` and `Small_random` fill all p words with **one** 3044-byte call
//! and read word i from bytes 4i..4i+4 little-endian (`le_bswap32` in the C code,
//! `u32::from_le_bytes` here). Same bytes, same order, same words as the reference's
//! 761 calls of `urandom32` — when the source is a byte stream (obligation S-9 of
//! `refopt prove`).

use reference::RandomSource;
use reference::sntrup761::random::{Bytes, WordSource};
use reference::sntrup761::{P, RANDOM_POLY_BYTES};

/// The p little-endian words of one 3044-byte draw.
pub fn draw_words<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
    draw_words_over(&mut Bytes(rng))
}

/// [`draw_words`] over any [`WordSource`].
pub fn draw_words_over<S: WordSource + ?Sized>(s: &mut S) -> [S::Word; P] {
    let mut bytes: [S::Byte; RANDOM_POLY_BYTES] = core::array::from_fn(|_| S::zero_byte());
    s.fill(&mut bytes);
    let big_endian = reference::plant::active("sntrup761-batched-words-big-endian");
    let l = core::array::from_fn(|i| {
        let b = &bytes[4 * i..4 * i + 4];
        let le = [b[0].clone(), b[1].clone(), b[2].clone(), b[3].clone()];
        if big_endian {
            S::word_from_le_bytes([le[3].clone(), le[2].clone(), le[1].clone(), le[0].clone()])
        } else {
            S::word_from_le_bytes(le)
        }
    });
    // The buffer held secret material; do not leave it on the stack.
    bytes.fill(S::zero_byte());
    core::hint::black_box(&bytes);
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::rng::{Recorder, Shake256Source};
    use reference::sntrup761::Kernels;

    #[test]
    fn draw_pattern_is_one_call_of_3044_bytes() {
        let mut r = Recorder::new(Shake256Source::new(b"x"));
        let mut f = [0; P];
        crate::sntrup761::Optimized::short_random(&mut f, &mut r);
        crate::sntrup761::Optimized::small_random(&mut f, &mut r);
        assert_eq!(r.calls(), &[3044, 3044]);
    }
}
