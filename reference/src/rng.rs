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

use chacha20::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use shake::{ExtendableOutput, Update, XofReader};

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

impl<T: RandomSource + ?Sized> RandomSource for Box<T> {
    fn fill(&mut self, dst: &mut [u8]) {
        (**self).fill(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        (**self).is_call_boundary_invariant()
    }
}

/// The ChaCha20 keystream of a 32-byte seed, read in order.
///
/// The generator's `fill_bytes` (`chacha20`'s, as `rand_chacha`'s before it) drops the
/// rest of a partly used 32-bit word, so a draw of 3 bytes then 5 would not equal one
/// of 8. This source reads the keystream a 64-byte block at a time into its own
/// buffer, which makes it call-boundary invariant for every split.
pub struct ChaCha20Source {
    rng: ChaCha20Rng,
    block: [u8; 64],
    used: usize,
}

/// The name only: the buffered keystream block is the next bytes this source gives
/// out (key material when it seeds a key generation).
impl core::fmt::Debug for ChaCha20Source {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ChaCha20Source")
    }
}

/// Wipes the buffered keystream block (the next bytes given out); the generator wipes
/// its own key and buffer (`chacha20`'s `zeroize` feature).
impl Drop for ChaCha20Source {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.block[..]);
    }
}

/// The same stream from the same position (the generator is not `Clone`: its copy
/// is made from its seed, stream and word position).
impl Clone for ChaCha20Source {
    fn clone(&self) -> Self {
        let mut seed = self.rng.get_seed();
        let mut rng = ChaCha20Rng::from_seed(seed);
        zeroize::Zeroize::zeroize(&mut seed[..]);
        rng.set_stream(self.rng.get_stream());
        rng.set_word_pos(self.rng.get_word_pos());
        Self {
            rng,
            block: self.block,
            used: self.used,
        }
    }
}

impl ChaCha20Source {
    /// A stream keyed by `seed`.
    pub fn new(seed: [u8; 32]) -> Self {
        Self {
            rng: ChaCha20Rng::from_seed(seed),
            block: [0; 64],
            used: 64,
        }
    }
}

impl RandomSource for ChaCha20Source {
    fn fill(&mut self, dst: &mut [u8]) {
        let mut dst = dst;
        while !dst.is_empty() {
            if self.used == 64 {
                // Whole words only, so the generator never drops keystream bytes.
                self.rng.fill_bytes(&mut self.block);
                self.used = 0;
            }
            let n = (64 - self.used).min(dst.len());
            let (head, tail) = dst.split_at_mut(n);
            head.copy_from_slice(&self.block[self.used..self.used + n]);
            self.used += n;
            dst = tail;
        }
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
    }
}

/// SHAKE-256 of a seed, read in order.
pub struct Shake256Source(shake::Shake256Reader);

impl Shake256Source {
    /// A stream that is SHAKE-256(`seed`).
    pub fn new(seed: &[u8]) -> Self {
        let mut h = shake::Shake256::default();
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
        getrandom::fill(dst).expect("the operating system random source failed");
    }
    fn is_call_boundary_invariant(&self) -> bool {
        false
    }
}

/// Wraps a source and keeps every byte it delivers, in order, so another run can be
/// fed the very same bytes as a stream ([`Replay`]). `Debug` shows the wrapped source
/// and how many bytes were taped, not the bytes.
#[derive(Clone)]
pub struct Tape<S> {
    inner: S,
    bytes: Vec<u8>,
}

impl<S: core::fmt::Debug> core::fmt::Debug for Tape<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Tape")
            .field("inner", &self.inner)
            .field("taped", &self.bytes.len())
            .finish()
    }
}

/// Wipes the taped bytes (key seeds, when a key generation drew them).
impl<S> Drop for Tape<S> {
    fn drop(&mut self) {
        crate::ct::wipe_vec(&mut self.bytes);
    }
}

impl<S: RandomSource> Tape<S> {
    /// Tapes the draws made from `inner`.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            bytes: Vec::new(),
        }
    }

    /// Every byte delivered so far, in order.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl<S: RandomSource> RandomSource for Tape<S> {
    fn fill(&mut self, dst: &mut [u8]) {
        self.inner.fill(dst);
        if self.bytes.capacity() - self.bytes.len() < dst.len() {
            // Grow by hand, so the buffer given up is wiped, not just freed.
            let mut grown =
                Vec::with_capacity((self.bytes.len() + dst.len()).max(2 * self.bytes.capacity()));
            grown.extend_from_slice(&self.bytes);
            crate::ct::wipe_vec(&mut self.bytes);
            self.bytes = grown;
        }
        self.bytes.extend_from_slice(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        self.inner.is_call_boundary_invariant()
    }
}

/// Replays a fixed byte string as a stream (call-boundary invariant). Past the end it
/// delivers zeros and remembers that it ran dry, so a caller that draws more than was
/// taped is caught instead of panicking. `Debug` shows the length and position, not
/// the bytes.
#[derive(Clone)]
pub struct Replay {
    bytes: Vec<u8>,
    pos: usize,
    overrun: bool,
}

impl core::fmt::Debug for Replay {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Replay")
            .field("len", &self.bytes.len())
            .field("pos", &self.pos)
            .field("overrun", &self.overrun)
            .finish()
    }
}

/// Wipes the replayed bytes (key seeds, when they came from a [`Tape`]).
impl Drop for Replay {
    fn drop(&mut self) {
        crate::ct::wipe_vec(&mut self.bytes);
    }
}

impl Replay {
    /// A stream that is `bytes`.
    pub fn new(bytes: Vec<u8>) -> Self {
        Self {
            bytes,
            pos: 0,
            overrun: false,
        }
    }

    /// Bytes not drawn yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Whether a draw went past the end.
    pub fn overrun(&self) -> bool {
        self.overrun
    }
}

impl RandomSource for Replay {
    fn fill(&mut self, dst: &mut [u8]) {
        let n = dst.len().min(self.remaining());
        dst[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
        dst[n..].fill(0);
        self.pos += n;
        self.overrun |= n < dst.len();
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
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

    /// Splits at every alignment, not only multiples of the generator's word size.
    #[test]
    fn streams_are_call_boundary_invariant() {
        let splits: [&[usize]; 5] = [
            &[4; 761],
            &[3, 5, 1, 3035],
            &[1; 3044],
            &[63, 65, 2916],
            &[7; 434],
        ];
        for split in splits {
            let total: usize = split.iter().sum();
            let one = split_draw(&mut ChaCha20Source::new([7; 32]), &[total]);
            assert_eq!(split_draw(&mut ChaCha20Source::new([7; 32]), split), one);
            let one = split_draw(&mut Shake256Source::new(b"s"), &[total]);
            assert_eq!(split_draw(&mut Shake256Source::new(b"s"), split), one);
        }
    }

    /// The buffered source delivers the ChaCha20 keystream itself: the same bytes as
    /// rand_chacha's independent ChaCha20 (the generator this source used before),
    /// and for the zero key the keystream of RFC 8439 A.1, test vector 1 (block 0).
    #[test]
    fn chacha20_source_is_the_keystream() {
        for seed in [[9u8; 32], [0; 32], core::array::from_fn(|i| i as u8)] {
            let mut raw = ChaCha20Rng::from_seed(seed);
            let mut want = [0u8; 1000];
            raw.fill_bytes(&mut want);
            let mut other = rand_chacha::ChaCha20Rng::from_seed(seed);
            let mut independent = [0u8; 1000];
            other.fill_bytes(&mut independent);
            assert_eq!(want, independent);
            assert_eq!(
                split_draw(&mut ChaCha20Source::new(seed), &[13, 187, 1, 799]),
                want
            );
        }
        let mut zero = [0u8; 64];
        ChaCha20Source::new([0; 32]).fill(&mut zero);
        assert_eq!(
            hex::encode(zero),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
             da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
        );
    }

    /// A clone continues the stream where the original is, also mid-block.
    #[test]
    fn chacha20_source_clone_continues_the_stream() {
        let mut a = ChaCha20Source::new([3; 32]);
        let mut skip = [0u8; 70];
        a.fill(&mut skip);
        let mut b = a.clone();
        let (mut x, mut y) = ([0u8; 300], [0u8; 300]);
        a.fill(&mut x);
        b.fill(&mut y);
        assert_eq!(x, y);
    }

    #[test]
    fn tape_and_replay() {
        let mut t = Tape::new(crate::drbg::NistDrbg::new(&[1; 48], None));
        let a = split_draw(&mut t, &[4, 4, 12]);
        let mut r = Replay::new(t.bytes().to_vec());
        assert_eq!(split_draw(&mut r, &[20]), a);
        assert!(!r.overrun());
        split_draw(&mut r, &[1]);
        assert!(r.overrun());
    }

    #[test]
    fn recorder_logs_sizes() {
        let mut r = Recorder::new(Shake256Source::new(b""));
        split_draw(&mut r, &[64, 32, 1]);
        assert_eq!(r.calls(), &[64, 32, 1]);
    }
}
