//! Four SHAKE128 or SHAKE256 instances side by side over the four-way Keccak-f\[1600\]
//! of [`crate::keccak_x4`] (FIPS 202), for ML-KEM's many short independent XOF inputs.
//!
//! One SHAKE at a time comes from RustCrypto's `shake` crate. Until `sha3` 0.10 this
//! module also held its own one-at-a-time sponge, because that `sha3` permuted eagerly
//! after every squeezed block; `shake` 0.1 permutes only when more output is read,
//! and measured with callgrind it is as cheap as the own sponge was (ML-KEM-768
//! encapsulation 415,745 instructions with `shake` against 417,724 with the own sponge:
//! docs/DEVIATIONS.md), so the own sponge is gone.

/// Four SHAKE instances run side by side over [`crate::keccak_x4`], for many short
/// independent inputs (ML-KEM's matrix expansion and PRF calls).
///
/// Instance j absorbs `prefix ‖ suffixes[j]`, which must be shorter than one block;
/// output is read a whole block at a time. Each instance's output equals the `shake`
/// crate's on the same input, which the tests check byte for byte.
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
                zeroize::Zeroize::zeroize(&mut b);
            }
            // prefix ‖ suffix: a secret seed in the PRF calls.
            zeroize::Zeroize::zeroize(&mut block[..]);
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

impl<const RATE: usize> zeroize::Zeroize for ShakeX4<RATE> {
    /// The four states absorbed secret seeds (PRF calls): wiped by the callers.
    fn zeroize(&mut self) {
        zeroize::Zeroize::zeroize(self.state.as_flattened_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::shake::{ExtendableOutput, Update, XofReader};

    fn theirs128(parts: &[&[u8]], out: &mut [u8]) {
        let mut h = ::shake::Shake128::default();
        for p in parts {
            h.update(p);
        }
        h.finalize_xof().read(out);
    }

    fn theirs256(parts: &[&[u8]], out: &mut [u8]) {
        let mut h = ::shake::Shake256::default();
        for p in parts {
            h.update(p);
        }
        h.finalize_xof().read(out);
    }

    /// Three blocks of each of the four instances equal the `shake` crate's output.
    fn check_x4<const RATE: usize>(prefix: &[u8], suffixes: &[Vec<u8>; 4]) {
        let suffix_refs: [&[u8]; 4] = core::array::from_fn(|j| suffixes[j].as_slice());
        let mut x4 = ShakeX4::<RATE>::absorb_short(prefix, suffix_refs);
        let mut blocks = [[[0u8; RATE]; 4]; 3];
        for b in &mut blocks {
            x4.squeeze_block(b);
        }
        for (j, suffix) in suffixes.iter().enumerate() {
            let mut want = vec![0u8; 3 * RATE];
            if RATE == 168 {
                theirs128(&[prefix, suffix], &mut want);
            } else {
                theirs256(&[prefix, suffix], &mut want);
            }
            let got: Vec<u8> = blocks.iter().flat_map(|b| b[j]).collect();
            let len = prefix.len() + suffix.len();
            assert_eq!(got, want, "rate {RATE} x4 len {len} instance {j}");
        }
    }

    /// Each of the four instances equals the `shake` crate, for every short
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
