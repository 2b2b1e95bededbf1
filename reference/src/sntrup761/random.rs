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

/// urandom32: one 4-byte draw, read little-endian.
pub fn urandom32<R: RandomSource + ?Sized>(rng: &mut R) -> u32 {
    let mut c = [0u8; 4];
    rng.fill(&mut c);
    let w = u32::from(c[0])
        + (u32::from(c[1]) << 8)
        + (u32::from(c[2]) << 16)
        + (u32::from(c[3]) << 24);
    c[..].zeroize();
    w
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

/// Short_random, reference: p calls of [`urandom32`], then [`short_fromlist`].
pub fn short_random_per_coefficient<R: RandomSource + ?Sized>(out: &mut [Small; P], rng: &mut R) {
    let mut l = [0u32; P];
    for x in l.iter_mut() {
        *x = urandom32(rng);
    }
    short_fromlist(out, &l);
    l[..].zeroize();
}

/// Small_random, reference: p calls of [`urandom32`], each mapped by
/// [`small_from_word`].
pub fn small_random_per_coefficient<R: RandomSource + ?Sized>(out: &mut [Small; P], rng: &mut R) {
    for o in out.iter_mut() {
        *o = small_from_word(urandom32(rng));
    }
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test data on public values
mod tests {
    use super::*;
    use crate::rng::{Recorder, Shake256Source};

    #[test]
    fn draw_pattern_is_761_calls_of_4_bytes() {
        let mut r = Recorder::new(Shake256Source::new(b"x"));
        let mut f = [0; P];
        short_random_per_coefficient(&mut f, &mut r);
        small_random_per_coefficient(&mut f, &mut r);
        assert_eq!(r.calls(), &[4; 2 * P][..]);
    }

    #[test]
    fn short_has_weight_w() {
        let mut r = Shake256Source::new(b"w");
        for _ in 0..5 {
            let mut f = [0; P];
            short_random_per_coefficient(&mut f, &mut r);
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
