//! Randomness for Short and Small polynomials: the **reference kernels** of
//! optimization 1 (before libgcrypt patch 06/10), plus the word-to-coefficient maps
//! that both tiers share.
//!
//! The reference draws each 32-bit word with its own 4-byte call (`urandom32`), so one
//! polynomial costs 761 calls to the random source. The word is little-endian:
//! c0 + 2^8·c1 + 2^16·c2 + 2^24·c3.

use super::arith::Small;
use super::sort::crypto_sort_uint32;
use super::{P, W};
use crate::rng::RandomSource;
use zeroize::Zeroize;

/// A source of bytes as the word draws read it, and the word arithmetic they use.
///
/// The library reads `u8` bytes from a [`RandomSource`] ([`Bytes`]) into `u32`
/// words; `refopt prove` runs the same draw code over a source that hands out
/// stream positions, which traces every word bit to the stream bit it comes from
/// (obligation S-9).
pub trait WordSource {
    /// One byte.
    type Byte: Clone;
    /// One 32-bit word.
    type Word: Clone;
    /// Fills `buf` with the next bytes of the source (one call).
    fn fill(&mut self, buf: &mut [Self::Byte]);
    /// The byte 0.
    fn zero_byte() -> Self::Byte;
    /// `(uint32) b`.
    fn byte_to_word(b: &Self::Byte) -> Self::Word;
    /// `a << s`.
    fn word_shl(a: Self::Word, s: u32) -> Self::Word;
    /// `a + b`.
    fn word_add(a: Self::Word, b: Self::Word) -> Self::Word;
    /// The little-endian word of four bytes (`le_bswap32` of the C code).
    fn word_from_le_bytes(b: [Self::Byte; 4]) -> Self::Word;
    /// Overwrites `buf`, which held drawn (secret) bytes.
    fn wipe(buf: &mut [Self::Byte]);
}

/// The library's [`WordSource`]: bytes from a [`RandomSource`].
#[derive(Debug)]
pub struct Bytes<'a, R: RandomSource + ?Sized>(pub &'a mut R);

impl<R: RandomSource + ?Sized> WordSource for Bytes<'_, R> {
    type Byte = u8;
    type Word = u32;
    #[inline(always)]
    fn fill(&mut self, buf: &mut [u8]) {
        self.0.fill(buf);
    }
    #[inline(always)]
    fn zero_byte() -> u8 {
        0
    }
    #[inline(always)]
    fn byte_to_word(b: &u8) -> u32 {
        u32::from(*b)
    }
    #[inline(always)]
    fn word_shl(a: u32, s: u32) -> u32 {
        a << s
    }
    #[inline(always)]
    fn word_add(a: u32, b: u32) -> u32 {
        a + b
    }
    #[inline(always)]
    fn word_from_le_bytes(b: [u8; 4]) -> u32 {
        u32::from_le_bytes(b)
    }
    #[inline(always)]
    fn wipe(buf: &mut [u8]) {
        buf.zeroize();
    }
}

/// urandom32: one 4-byte draw, read little-endian.
pub fn urandom32<R: RandomSource + ?Sized>(rng: &mut R) -> u32 {
    urandom32_over(&mut Bytes(rng))
}

/// [`urandom32`] over any [`WordSource`]: c0 + 2^8·c1 + 2^16·c2 + 2^24·c3.
#[inline(always)]
pub fn urandom32_over<S: WordSource + ?Sized>(s: &mut S) -> S::Word {
    let mut c: [S::Byte; 4] = core::array::from_fn(|_| S::zero_byte());
    s.fill(&mut c);
    let w = |i: usize, shift: u32| S::word_shl(S::byte_to_word(&c[i]), shift);
    let word = S::word_add(
        S::word_add(S::word_add(S::byte_to_word(&c[0]), w(1, 8)), w(2, 16)),
        w(3, 24),
    );
    S::wipe(&mut c);
    word
}

/// The reference draw: p words, each from its own [`urandom32`] call (761 calls of
/// 4 bytes).
pub fn draw_words_per_coefficient<R: RandomSource + ?Sized>(rng: &mut R) -> [u32; P] {
    draw_words_per_coefficient_over(&mut Bytes(rng))
}

/// [`draw_words_per_coefficient`] over any [`WordSource`].
pub fn draw_words_per_coefficient_over<S: WordSource + ?Sized>(s: &mut S) -> [S::Word; P] {
    core::array::from_fn(|_| urandom32_over(s))
}

/// Short_fromlist: a weight-w polynomial from p random words. The first w words are
/// tagged even (they become ±1), the rest `(L & ~3) | 1` (they become 0); a
/// constant-time sort then shuffles the tags by the random high bits, and each output
/// coefficient is (L & 3) − 1.
pub fn short_fromlist(out: &mut [Small; P], input: &[u32; P]) {
    let mut l = [0u32; P];
    for i in 0..W {
        l[i] = input[i] & !1u32;
    }
    for i in W..P {
        l[i] = (input[i] & !3u32) | 1;
    }
    crypto_sort_uint32(&mut l);
    for (o, &x) in out.iter_mut().zip(&l) {
        *o = (x & 3) as Small - 1;
    }
    // The sorted list is secret: do not leave it on the stack.
    l[..].zeroize();
}

/// The Small map for one word: (((L & 0x3fffffff)·3) >> 30) − 1, in {-1,0,1}.
#[inline(always)]
pub fn small_from_word(l: u32) -> Small {
    (((l & 0x3fff_ffff) * 3) >> 30) as Small - 1
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test data on public values
mod tests {
    use super::*;
    use crate::rng::{Recorder, Shake256Source};

    #[test]
    fn draw_pattern_is_761_calls_of_4_bytes() {
        use crate::sntrup761::{Kernels, Reference};
        let mut r = Recorder::new(Shake256Source::new(b"x"));
        let mut f = [0; P];
        Reference::short_random(&mut f, &mut r);
        Reference::small_random(&mut f, &mut r);
        assert_eq!(r.calls(), &[4; 2 * P][..]);
    }

    /// `urandom32` is one 4-byte draw read little-endian: the word layout every
    /// draw of the reference tier relies on (only its generic form is on the
    /// scheme's path).
    #[test]
    fn urandom32_reads_one_little_endian_word_per_call() {
        let mut r = crate::rng::Replay::new(vec![0x01, 0x02, 0x03, 0x04, 0xff, 0xfe, 0xfd, 0xfc]);
        assert_eq!(urandom32(&mut r), 0x0403_0201);
        assert_eq!(urandom32(&mut r), 0xfcfd_feff);
        assert_eq!(r.remaining(), 0);
        assert!(!r.overrun());
    }

    #[test]
    fn short_has_weight_w() {
        let mut r = Shake256Source::new(b"w");
        for _ in 0..5 {
            use crate::sntrup761::{Kernels, Reference};
            let mut f = [0; P];
            Reference::short_random(&mut f, &mut r);
            assert_eq!(f.iter().filter(|&&x| x != 0).count(), W);
            assert!(f.iter().all(|&x| (-1..=1).contains(&x)));
        }
    }

    #[test]
    fn small_map_extremes() {
        assert_eq!(small_from_word(0), -1);
        assert_eq!(small_from_word(0x3fff_ffff), 1);
        assert_eq!(small_from_word(0xffff_ffff), 1);
        assert_eq!(small_from_word(0x1555_5555), -1);
        assert_eq!(small_from_word(0x1555_5556), 0);
        assert_eq!(small_from_word(0x2aaa_aaab), 1);
    }
}
