//! SHAKE128 and SHAKE256 (FIPS 202) as sponges over RustCrypto's Keccak-f\[1600\]
//! (the `keccak` crate, the permutation the `sha3` crate runs).
//!
//! Why not `sha3`'s own XOF reader: `sha3` 0.10 permutes *eagerly* after every block it
//! squeezes, so reading n blocks costs n + 1 permutations. ML-KEM reads many short XOF
//! outputs (one or three blocks each), so 16 of the 47 permutations in an ML-KEM-768
//! encapsulation were wasted (measured with callgrind; docs/DEVIATIONS.md). This sponge
//! permutes only when more output is asked for. Its output is checked byte for byte
//! against `sha3` for every length pattern in the tests.

use zeroize::Zeroize;

/// A SHAKE sponge with rate `RATE` bytes (168 for SHAKE128, 136 for SHAKE256).
#[derive(Clone)]
pub struct Shake<const RATE: usize> {
    state: [u64; 25],
    /// Absorbing: bytes of the current block absorbed. Squeezing: bytes of the current
    /// block already read.
    pos: usize,
    squeezing: bool,
}

/// SHAKE128.
pub type Shake128 = Shake<168>;
/// SHAKE256.
pub type Shake256 = Shake<136>;

impl<const RATE: usize> core::fmt::Debug for Shake<RATE> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Shake<{RATE}> {{ .. }}")
    }
}

impl<const RATE: usize> Default for Shake<RATE> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize> Shake<RATE> {
    const RATE_IS_WHOLE_LANES: () = assert!(RATE & 7 == 0 && RATE < 200);

    /// An empty sponge.
    pub const fn new() -> Self {
        let () = Self::RATE_IS_WHOLE_LANES;
        Self {
            state: [0; 25],
            pos: 0,
            squeezing: false,
        }
    }

    #[inline(always)]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i >> 3] ^= u64::from(b) << ((i & 7) << 3);
    }

    /// Absorbs `data`. Must not be called after [`Self::squeeze`] started.
    pub fn absorb(&mut self, data: &[u8]) {
        debug_assert!(!self.squeezing, "absorb after squeeze");
        let mut data = data;
        // Finish a partial block byte by byte, then whole lanes.
        while !data.is_empty() {
            if self.pos == 0 && data.len() >= RATE {
                let (block, rest) = data.split_at(RATE);
                for (lane, chunk) in self.state.iter_mut().zip(block.chunks_exact(8)) {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(chunk);
                    *lane ^= u64::from_le_bytes(b);
                }
                keccak::f1600(&mut self.state);
                data = rest;
                continue;
            }
            let take = (RATE - self.pos).min(data.len());
            for (i, &b) in data[..take].iter().enumerate() {
                self.xor_byte(self.pos + i, b);
            }
            self.pos += take;
            data = &data[take..];
            if self.pos == RATE {
                keccak::f1600(&mut self.state);
                self.pos = 0;
            }
        }
    }

    fn finalize(&mut self) {
        // SHAKE domain separation 1111 then pad10*1.
        self.xor_byte(self.pos, 0x1f);
        self.xor_byte(RATE - 1, 0x80);
        keccak::f1600(&mut self.state);
        self.pos = 0;
        self.squeezing = true;
    }

    /// Squeezes `out.len()` bytes, continuing where the previous call stopped.
    pub fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
            self.finalize();
        }
        let mut i = 0;
        while i < out.len() {
            if self.pos == RATE {
                keccak::f1600(&mut self.state);
                self.pos = 0;
            }
            let lane = self.state[self.pos >> 3].to_le_bytes();
            let off = self.pos & 7;
            if off == 0 && out.len() - i >= 8 {
                // Whole lanes: RATE is a multiple of 8, so a lane never straddles it.
                out[i..i + 8].copy_from_slice(&lane);
                i += 8;
                self.pos += 8;
            } else {
                out[i] = lane[off];
                i += 1;
                self.pos += 1;
            }
        }
    }

    /// SHAKE of the concatenation of `parts`, `out.len()` bytes. The sponge is wiped
    /// before returning: ML-KEM's J and PRF hash secrets with it.
    pub fn digest(parts: &[&[u8]], out: &mut [u8]) {
        let mut s = Self::new();
        for p in parts {
            s.absorb(p);
        }
        s.squeeze(out);
        s.zeroize();
    }
}

impl<const RATE: usize> Zeroize for Shake<RATE> {
    /// Back to the empty sponge, the state overwritten with zeros.
    fn zeroize(&mut self) {
        self.state[..].zeroize();
        self.pos = 0;
        self.squeezing = false;
    }
}

impl<const RATE: usize> Zeroize for ShakeX4<RATE> {
    /// Overwrites the four states with zeros (the value is then only fit to drop).
    fn zeroize(&mut self) {
        self.state.as_flattened_mut().zeroize();
    }
}

/// Four SHAKE instances run side by side over [`crate::keccak_x4`], for many short
/// independent inputs (ML-KEM's matrix expansion and PRF calls).
///
/// Instance j absorbs `prefix ‖ suffixes[j]`, which must be shorter than one block;
/// output is read a whole block at a time. Each instance's output equals [`Shake`] on
/// the same input, which the tests check byte for byte.
#[derive(Clone)]
pub(crate) struct ShakeX4<const RATE: usize> {
    state: crate::keccak_x4::StateX4,
}

/// Four SHAKE128 instances.
pub(crate) type Shake128X4 = ShakeX4<168>;
/// Four SHAKE256 instances.
pub(crate) type Shake256X4 = ShakeX4<136>;

impl<const RATE: usize> core::fmt::Debug for ShakeX4<RATE> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ShakeX4<{RATE}> {{ .. }}")
    }
}

impl<const RATE: usize> ShakeX4<RATE> {
    const RATE_IS_WHOLE_LANES: () = assert!(RATE & 7 == 0 && RATE < 200);

    /// Absorbs `prefix ‖ suffixes[j]` into instance j and pads it (SHAKE's `1111`
    /// then pad10*1); the final permutation runs with the first
    /// [`Self::squeeze_block`].
    ///
    /// # Panics
    ///
    /// If the suffixes differ in length or `prefix ‖ suffix` is not shorter than one
    /// block (a programming error: callers pass fixed-size seeds).
    pub(crate) fn absorb_short(prefix: &[u8], suffixes: [&[u8]; 4]) -> Self {
        let () = Self::RATE_IS_WHOLE_LANES;
        let len = prefix.len() + suffixes[0].len();
        assert!(
            len < RATE && suffixes.iter().all(|s| s.len() == suffixes[0].len()),
            "ShakeX4::absorb_short: inputs of one block or more, or of unequal length"
        );
        let mut state = [[0u64; 4]; 25];
        for (j, suffix) in suffixes.iter().enumerate() {
            let mut block = [0u8; 200];
            block[..prefix.len()].copy_from_slice(prefix);
            block[prefix.len()..len].copy_from_slice(suffix);
            block[len] ^= 0x1f;
            block[RATE - 1] ^= 0x80;
            for (lane, chunk) in state.iter_mut().zip(block[..RATE].chunks_exact(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(chunk);
                lane[j] = u64::from_le_bytes(b);
            }
        }
        Self { state }
    }

    /// Permutes the four states and reads the next `RATE` output bytes of each.
    pub(crate) fn squeeze_block(&mut self, out: &mut [[u8; RATE]; 4]) {
        crate::keccak_x4::f1600_x4(&mut self.state);
        for (j, block) in out.iter_mut().enumerate() {
            for (chunk, lane) in block.chunks_exact_mut(8).zip(&self.state) {
                chunk.copy_from_slice(&lane[j].to_le_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha3::digest::{ExtendableOutput, Update, XofReader};

    fn theirs128(parts: &[&[u8]], out: &mut [u8]) {
        let mut h = sha3::Shake128::default();
        for p in parts {
            h.update(p);
        }
        h.finalize_xof().read(out);
    }

    fn theirs256(parts: &[&[u8]], out: &mut [u8]) {
        let mut h = sha3::Shake256::default();
        for p in parts {
            h.update(p);
        }
        h.finalize_xof().read(out);
    }

    /// Every input length across block boundaries, split in two absorb calls at every
    /// offset class, squeezed in uneven pieces across block boundaries.
    #[test]
    fn matches_sha3_crate() {
        let data: Vec<u8> = (0..600u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in (0..=400).chain([503, 504, 505, 599]) {
            for split in [0, 1, len / 2, len] {
                let (a, b) = data[..len].split_at(split.min(len));
                let mut want = [0u8; 700];
                theirs128(&[a, b], &mut want);
                let mut s = Shake128::new();
                s.absorb(a);
                s.absorb(b);
                let mut got = [0u8; 700];
                let (x, rest) = got.split_at_mut(3);
                s.squeeze(x);
                let (y, z) = rest.split_at_mut(165);
                s.squeeze(y);
                s.squeeze(z);
                assert_eq!(got, want, "SHAKE128 len {len} split {split}");

                let mut want = [0u8; 300];
                theirs256(&[a, b], &mut want);
                let mut got = [0u8; 300];
                Shake256::digest(&[a, b], &mut got);
                assert_eq!(got, want, "SHAKE256 len {len} split {split}");
            }
        }
    }

    /// FIPS 202 example values: SHAKE128("") and SHAKE256("") (first 16 bytes).
    #[test]
    fn empty_input() {
        let mut o = [0u8; 16];
        Shake128::digest(&[], &mut o);
        assert_eq!(
            o,
            [
                0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d, 0x61, 0x60, 0x45, 0x50, 0x76, 0x05,
                0x85, 0x3e
            ]
        );
        Shake256::digest(&[], &mut o);
        assert_eq!(
            o,
            [
                0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13, 0x23, 0x3b, 0x3f, 0xeb, 0x74, 0x3e,
                0xeb, 0x24
            ]
        );
    }

    /// Three blocks of each of the four instances equal the one-at-a-time sponge.
    fn check_x4<const RATE: usize>(prefix: &[u8], suffixes: &[Vec<u8>; 4]) {
        let suffix_refs: [&[u8]; 4] = core::array::from_fn(|j| suffixes[j].as_slice());
        let mut x4 = ShakeX4::<RATE>::absorb_short(prefix, suffix_refs);
        let mut blocks = [[[0u8; RATE]; 4]; 3];
        for b in &mut blocks {
            x4.squeeze_block(b);
        }
        for (j, suffix) in suffixes.iter().enumerate() {
            let mut want = vec![0u8; 3 * RATE];
            Shake::<RATE>::digest(&[prefix, suffix], &mut want);
            let got: Vec<u8> = blocks.iter().flat_map(|b| b[j]).collect();
            let len = prefix.len() + suffix.len();
            assert_eq!(got, want, "rate {RATE} x4 len {len} instance {j}");
        }
    }

    /// Each of the four instances equals the one-at-a-time sponge, for every short
    /// input length (prefix and suffix split as the callers do) and several blocks.
    #[test]
    fn x4_matches_one_at_a_time() {
        let data: Vec<u8> = (0..200u32).map(|i| (i * 13 + 5) as u8).collect();
        for len in 0..168 {
            let split = len.min(32);
            let (prefix, rest) = data[..len].split_at(split);
            let suffixes: [Vec<u8>; 4] =
                core::array::from_fn(|j| rest.iter().map(|&b| b.wrapping_add(j as u8)).collect());
            check_x4::<168>(prefix, &suffixes);
            if len < 136 {
                check_x4::<136>(prefix, &suffixes);
            }
        }
    }
}
