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
    planted::reads_a_word_more(s);
    let mut l = core::array::from_fn(|i| {
        let b = &bytes[4 * i..4 * i + 4];
        S::word_from_le_bytes(planted::byte_order([
            b[0].clone(),
            b[1].clone(),
            b[2].clone(),
            b[3].clone(),
        ]))
    });
    planted::last_word(&mut l);
    // The buffer held secret material; do not leave it on the stack.
    S::wipe(&mut bytes);
    l
}

/// Plant sites (`reference::plant`): the correct step unless the bug is switched on.
/// No mutants: with the switch off (every normal build) the planted branch is dead.
mod planted {
    use reference::plant::active;
    use reference::sntrup761::P;
    use reference::sntrup761::random::WordSource;

    /// The four bytes of a word, little-endian first; `sntrup761-batched-words-big-endian`
    /// (proof self-test) reverses them.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn byte_order<B>(le: [B; 4]) -> [B; 4] {
        if active("sntrup761-batched-words-big-endian") {
            let [a, b, c, d] = le;
            [d, c, b, a]
        } else {
            le
        }
    }

    /// `sntrup761-batched-draw-reads-a-word-more` (proof self-test): the draw reads
    /// 3 048 bytes, as with a buffer sized for p + 1 words, and drops the last four.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn reads_a_word_more<S: WordSource + ?Sized>(s: &mut S) {
        if active("sntrup761-batched-draw-reads-a-word-more") {
            let mut pad: [S::Byte; 4] = core::array::from_fn(|_| S::zero_byte());
            s.fill(&mut pad);
            S::wipe(&mut pad);
        }
    }

    /// `sntrup761-batched-last-word` (bug zoo): the last word read from the previous
    /// word's bytes.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn last_word<W: Clone>(l: &mut [W; P]) {
        if active("sntrup761-batched-last-word") {
            l[P - 1] = l[P - 2].clone();
        }
    }
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
