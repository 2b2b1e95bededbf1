//! Caller-supplied randomness.
//!
//! Every scheme draws its randomness from a [`RandomSource`]. The number and the sizes
//! of the draws are observable behaviour: NIST's CTR-DRBG gives different bytes for one
//! 3044-byte call than for 761 four-byte calls, so an optimization that batches draws
//! (sntrup761, libgcrypt patch 06/10) changes results under it. [`Recorder`] logs the
//! call pattern so tests and the lab can state it.
//!
//! | source | call-boundary invariant | use |
//! |---|---|---|
//! | [`ChaCha20Source`] | yes (keystream read in order) | property tests, benches |
//! | [`Shake256Source`] | yes (XOF read in order) | property tests, the CLI |
//! | [`NistDrbg`](crate::drbg::NistDrbg) | no (re-keys after every call) | KAT files |
//! | [`OsSource`] | not deterministic | benches only |

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// A source of random bytes supplied by the caller.
pub trait RandomSource {
    /// Fills `dst` with random bytes. One call is one draw.
    fn fill(&mut self, dst: &mut [u8]);

    /// Whether the bytes delivered depend only on the total number of bytes drawn so
    /// far, not on how the draws were split into calls.
    fn is_call_boundary_invariant(&self) -> bool;
}

impl<T: RandomSource + ?Sized> RandomSource for &mut T {
    fn fill(&mut self, dst: &mut [u8]) {
        (**self).fill(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        (**self).is_call_boundary_invariant()
    }
}

/// The ChaCha20 keystream of a 32-byte seed, read in order.
#[derive(Clone, Debug)]
pub struct ChaCha20Source(ChaCha20Rng);

impl ChaCha20Source {
    /// A stream keyed by `seed`.
    pub fn new(seed: [u8; 32]) -> Self {
        Self(ChaCha20Rng::from_seed(seed))
    }
}

impl RandomSource for ChaCha20Source {
    fn fill(&mut self, dst: &mut [u8]) {
        self.0.fill_bytes(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
    }
}

/// SHAKE-256 of a seed, read in order.
pub struct Shake256Source(sha3::Shake256Reader);

impl Shake256Source {
    /// A stream that is SHAKE-256(`seed`).
    pub fn new(seed: &[u8]) -> Self {
        let mut h = sha3::Shake256::default();
        h.update(seed);
        Self(h.finalize_xof())
    }
}

impl core::fmt::Debug for Shake256Source {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Shake256Source")
    }
}

impl RandomSource for Shake256Source {
    fn fill(&mut self, dst: &mut [u8]) {
        self.0.read(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
    }
}

/// The operating system's generator (`getrandom`). Not reproducible: benches only.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsSource;

impl RandomSource for OsSource {
    /// # Panics
    /// If the operating system cannot supply randomness, which no caller can recover
    /// from safely.
    fn fill(&mut self, dst: &mut [u8]) {
        getrandom::getrandom(dst).expect("the operating system random source failed");
    }
    fn is_call_boundary_invariant(&self) -> bool {
        false
    }
}

/// Wraps a source and records the size of every draw.
#[derive(Clone, Debug)]
pub struct Recorder<S> {
    inner: S,
    calls: Vec<usize>,
}

impl<S: RandomSource> Recorder<S> {
    /// Records draws made from `inner`.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            calls: Vec::new(),
        }
    }

    /// The sizes of the draws so far, in order.
    pub fn calls(&self) -> &[usize] {
        &self.calls
    }

    /// The wrapped source.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: RandomSource> RandomSource for Recorder<S> {
    fn fill(&mut self, dst: &mut [u8]) {
        self.calls.push(dst.len());
        self.inner.fill(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        self.inner.is_call_boundary_invariant()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_draw(src: &mut impl RandomSource, sizes: &[usize]) -> Vec<u8> {
        let mut out = Vec::new();
        for &n in sizes {
            let mut b = vec![0u8; n];
            src.fill(&mut b);
            out.extend_from_slice(&b);
        }
        out
    }

    #[test]
    fn streams_are_call_boundary_invariant() {
        let one = split_draw(&mut ChaCha20Source::new([7; 32]), &[3044]);
        let many = split_draw(&mut ChaCha20Source::new([7; 32]), &[4; 761]);
        assert_eq!(one, many);
        let one = split_draw(&mut Shake256Source::new(b"s"), &[3044]);
        let many = split_draw(&mut Shake256Source::new(b"s"), &[4; 761]);
        assert_eq!(one, many);
    }

    #[test]
    fn recorder_logs_sizes() {
        let mut r = Recorder::new(Shake256Source::new(b""));
        split_draw(&mut r, &[64, 32, 1]);
        assert_eq!(r.calls(), &[64, 32, 1]);
    }
}
