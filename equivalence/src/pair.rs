//! The pair API: what an optimization under study must provide to the lab.
//!
//! A *pair* is a function of bytes. It decodes an input byte string into a
//! structured input with an [`Input`] (the first byte is a *selector* that may pick an
//! extreme pattern instead of random values; every other value is read straight from
//! the following bytes, so a coverage-guided fuzzer steers each coefficient or limb),
//! runs the reference and the optimized side, checks the kernels' contracts,
//! canonicalizes where the optimization's brief says raw outputs may legitimately
//! differ, and compares. The lab drives every pair the same way: the `refopt` tool from
//! a seeded stream, property tests, cargo-fuzz targets and benches; a failing case is
//! just bytes to keep and replay.
//!
//! A pair also declares
//! * the two functions it compares ([`Pair::sides`]), so a reader sees that they share
//!   none of the changed code;
//! * its [`Precondition`]s, under which the sides are claimed to agree (an input that
//!   violates one is reported as such, never as agreement);
//! * the [`Bound`]s of its inputs and accumulators, with [`Pair::observe`] reporting the
//!   values one input reaches, so a test can show that the default case stream reaches
//!   the minimum, the maximum and every declared corner point of each.
//!
//! ```
//! use equivalence::pair::{Input, Level, Outcome, Pair, Sides};
//!
//! /// x·3 mod 256, as x + x + x (the "optimization") against a multiplication.
//! struct Times3;
//!
//! impl Pair for Times3 {
//!     fn name(&self) -> &'static str {
//!         "example/times3"
//!     }
//!     fn level(&self) -> Level {
//!         Level::Kernel
//!     }
//!     fn sides(&self) -> Sides {
//!         Sides::new("x.wrapping_mul(3)", "x + x + x")
//!     }
//!     fn run(&self, input: &[u8]) -> Outcome {
//!         let x = Input::new(input).u8();
//!         let (r, o) = (x.wrapping_mul(3), x.wrapping_add(x).wrapping_add(x));
//!         Outcome::compare([("x*3", &[r][..], &[o][..])])
//!     }
//! }
//!
//! assert!(Times3.run(&[0, 200]).is_equal());
//! ```

use core::fmt;

/// Where in the stack a pair compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// One kernel against its optimized twin.
    Kernel,
    /// The scheme's public API (keys, ciphertexts, shared secrets, signatures).
    Api,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Kernel => "kernel",
            Level::Api => "api",
        })
    }
}

/// The two functions a pair compares, as a reader would look them up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    /// The reference side (for example `reference::mlkem::Reference::encrypt_u`).
    pub reference: &'static str,
    /// The optimized side.
    pub optimized: &'static str,
}

impl Sides {
    /// The two sides, reference first.
    pub const fn new(reference: &'static str, optimized: &'static str) -> Self {
        Self {
            reference,
            optimized,
        }
    }
}

/// A condition under which the two sides of a pair are claimed to agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Precondition {
    /// Short identifier, for example `call-boundary-invariant-rng`.
    pub name: &'static str,
    /// What it requires and why.
    pub description: &'static str,
}

/// A declared range of one input quantity or accumulator: the generator must reach
/// its minimum, its maximum and each of `points`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The quantity, for example `f[i]` or `Σ f[j]·g[i−j]`.
    pub name: &'static str,
    /// Smallest value allowed by the kernel's contract.
    pub min: i128,
    /// Largest value allowed by the kernel's contract.
    pub max: i128,
    /// Values inside the range that must be hit too (a boundary where the code changes
    /// behaviour, such as u + v = p).
    pub points: &'static [i128],
}

impl Bound {
    /// A range with no extra points.
    pub const fn range(name: &'static str, min: i128, max: i128) -> Self {
        Self {
            name,
            min,
            max,
            points: &[],
        }
    }

    /// A range with corner points inside it.
    pub const fn with_points(
        name: &'static str,
        min: i128,
        max: i128,
        points: &'static [i128],
    ) -> Self {
        Self {
            name,
            min,
            max,
            points,
        }
    }
}

/// Whether a report may show a compared field's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exposure {
    /// Public data or a kernel's intermediate: shown, from the first difference.
    Public,
    /// Key material (a secret key, a shared key): never shown, even though every input
    /// here is a test input; reports give its length and a SHA3-256 fingerprint (four
    /// bytes, enough to tell two values apart).
    Secret,
}

/// Where the two sides first differ.
#[derive(Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Which output field differs (for example `ct` or `u[1]`), or `contract: …` when a
    /// kernel broke its contract.
    pub field: String,
    /// Index of the first differing byte (or element) within the field.
    pub offset: usize,
    /// The reference side's field.
    pub reference: Vec<u8>,
    /// The optimized side's field.
    pub optimized: Vec<u8>,
    /// Whether [`Display`](fmt::Display) and [`Debug`](fmt::Debug) may show the bytes.
    pub exposure: Exposure,
}

impl Mismatch {
    /// The bytes of `v` a report shows: eight from the first difference, or, for a
    /// secret field, a fingerprint.
    fn show(&self, v: &[u8]) -> String {
        match self.exposure {
            Exposure::Public => {
                let end = (self.offset + 8).min(v.len());
                let start = self.offset.min(end);
                format!("..{}..", hex::encode(&v[start..end]))
            }
            Exposure::Secret => format!("(secret, SHA3-256 #{})", fingerprint(v)),
        }
    }
}

/// How a report names secret bytes: the first four bytes of their SHA3-256, in hex
/// (enough to tell two values apart, nothing of the value itself).
pub(crate) fn fingerprint(v: &[u8]) -> String {
    use sha3::Digest;
    hex::encode(&sha3::Sha3_256::digest(v)[..4])
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} differs first at byte {} (reference {} bytes, optimized {} bytes): reference {}, optimized {}",
            self.field,
            self.offset,
            self.reference.len(),
            self.optimized.len(),
            self.show(&self.reference),
            self.show(&self.optimized)
        )
    }
}

impl fmt::Debug for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mismatch")
            .field("field", &self.field)
            .field("offset", &self.offset)
            .field("reference_len", &self.reference.len())
            .field("optimized_len", &self.optimized.len())
            .field("reference", &self.show(&self.reference))
            .field("optimized", &self.show(&self.optimized))
            .field("exposure", &self.exposure)
            .finish()
    }
}

/// The result of running one pair on one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every compared field is identical and every contract holds.
    Equal,
    /// A field differs, or a contract does not hold.
    Mismatch(Mismatch),
    /// The input violates a declared precondition, so a difference proves nothing.
    PreconditionNotMet {
        /// The [`Precondition::name`] that does not hold.
        which: &'static str,
        /// What happened (for example: the outputs differ, as expected).
        detail: String,
    },
}

impl Outcome {
    /// Compares named public fields in order and reports the first difference.
    pub fn compare<'a>(fields: impl IntoIterator<Item = (&'a str, &'a [u8], &'a [u8])>) -> Self {
        Self::compare_exposed(
            fields
                .into_iter()
                .map(|(name, r, o)| (name, Exposure::Public, r, o)),
        )
    }

    /// As [`Outcome::compare`], each field with its [`Exposure`]: a difference in a
    /// secret field is reported without its bytes.
    pub fn compare_exposed<'a>(
        fields: impl IntoIterator<Item = (&'a str, Exposure, &'a [u8], &'a [u8])>,
    ) -> Self {
        for (name, exposure, r, o) in fields {
            if let Some(m) = first_difference(name, r, o) {
                return Outcome::Mismatch(Mismatch { exposure, ..m });
            }
        }
        Outcome::Equal
    }

    /// A contract check: [`Outcome::Equal`] when `holds`, else a mismatch on the field
    /// `contract: <what>` (which side broke it is in `what`).
    pub fn contract(what: &str, holds: bool) -> Self {
        if holds {
            Outcome::Equal
        } else {
            Outcome::Mismatch(Mismatch {
                field: format!("contract: {what}"),
                offset: 0,
                reference: Vec::new(),
                optimized: b"violated".to_vec(),
                exposure: Exposure::Public,
            })
        }
    }

    /// `self` if it is not [`Outcome::Equal`], else `next()`: chains comparisons and
    /// contract checks, reporting the first failure.
    #[must_use]
    pub fn and(self, next: impl FnOnce() -> Outcome) -> Outcome {
        match self {
            Outcome::Equal => next(),
            other => other,
        }
    }

    /// Whether the outcome is [`Outcome::Equal`].
    pub fn is_equal(&self) -> bool {
        matches!(self, Outcome::Equal)
    }
}

/// The first difference between two byte strings, if any.
pub fn first_difference(field: &str, reference: &[u8], optimized: &[u8]) -> Option<Mismatch> {
    if reference == optimized {
        return None;
    }
    let offset = reference
        .iter()
        .zip(optimized)
        .position(|(a, b)| a != b)
        .unwrap_or(reference.len().min(optimized.len()));
    Some(Mismatch {
        field: field.to_owned(),
        offset,
        reference: reference.to_vec(),
        optimized: optimized.to_vec(),
        exposure: Exposure::Public,
    })
}

/// Little-endian bytes of a slice of 16-bit values, for comparing polynomials.
pub fn u16_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of a slice of signed 16-bit values.
pub fn i16_bytes(v: &[i16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of a slice of 64-bit limbs.
pub fn u64_bytes(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// One optimization pair: a reference and an optimized side compared on bytes.
pub trait Pair: Sync {
    /// Unique name, `scheme/what` (for example `ml-kem/encrypt-u`).
    fn name(&self) -> &'static str;
    /// Kernel or API level.
    fn level(&self) -> Level;
    /// The two functions compared.
    fn sides(&self) -> Sides;
    /// Conditions under which the sides are claimed to agree.
    fn preconditions(&self) -> &'static [Precondition] {
        &[]
    }
    /// Declared ranges of the inputs and accumulators (see [`Pair::observe`]).
    fn bounds(&self) -> &'static [Bound] {
        &[]
    }
    /// Whether the default `refopt` run checks this pair. A pair that exists to show
    /// a precondition failing (every case violates it by construction, so it can
    /// never be evidence of agreement) returns `false` and runs by name only.
    fn in_default_run(&self) -> bool {
        true
    }
    /// Cases `refopt` runs by default (API pairs are slower than kernels).
    fn default_cases(&self) -> usize {
        match self.level() {
            Level::Kernel => 5000,
            Level::Api => 500,
        }
    }
    /// How many input bytes a case needs for every value to come from the input
    /// (the default run draws this many; shorter inputs read zeros past the end).
    fn input_len(&self) -> usize {
        64
    }
    /// Runs both sides on one input, checks the contracts, and compares.
    fn run(&self, input: &[u8]) -> Outcome;
    /// What a fuzz target checks on one input (`equivalence::fuzz`): by default
    /// [`Pair::run`].
    ///
    /// A pair whose reference result is the unique value with a property that is
    /// cheap to check (an inverse in a ring where inverses are unique) may check that
    /// property of the optimized result instead of running the reference, when the
    /// reference alone costs more than a fuzzing campaign can afford. The verdict is
    /// the same as [`Pair::run`]'s for a correct reference; the default run, the
    /// regression replay and `cargo test` still run [`Pair::run`], which compares
    /// with the reference itself.
    fn run_fuzz(&self, input: &[u8]) -> Outcome {
        self.run(input)
    }
    /// Reports, for the input `run` would decode from `input`, the value each declared
    /// [`Bound`] quantity takes (its extremes, for a quantity with many instances such
    /// as a coefficient or a column sum): `seen(name, value)`.
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let _ = (input, seen);
    }
}

impl dyn Pair + '_ {
    /// Whether [`Pair::preconditions`] declares `which`. Every runner (the default
    /// run, the fuzz targets, the property tests) treats an
    /// [`Outcome::PreconditionNotMet`] naming anything else as the harness's bug, a
    /// finding, never as a skipped case. (Not a trait method, so that no pair can
    /// override the rule.)
    pub fn declares(&self, which: &str) -> bool {
        self.preconditions().iter().any(|p| p.name == which)
    }
}

impl fmt::Debug for dyn Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pair({})", self.name())
    }
}

/// A pair made of plain functions, for an optimization that maps one decoded input to
/// an output: the common case needs no `impl Pair` at all.
///
/// `decode` turns the input bytes into the kernel's input (read the selector with
/// [`Input::selector`], or [`Input::edge_or_below`], to bring extreme values up);
/// `reference` and `optimized` compute the two sides' outputs as bytes (`O`: a byte
/// array or vector; canonicalize there if raw outputs may legitimately differ);
/// `contract` checks the optimized output on its own (`Err` names what is violated);
/// `observe` lists the values of the declared `bounds` for one input.
///
/// ```
/// use equivalence::pair::{Bound, FnPair, Pair, Sides};
///
/// const TIMES3: FnPair<u8, [u8; 1]> = FnPair::new(
///     "example/times3",
///     Sides::new("x.wrapping_mul(3)", "x + x + x"),
///     |g| g.edge_or_below(&[0, 255], 256) as u8,
///     |x| [x.wrapping_mul(3)],
///     |x| [x.wrapping_add(*x).wrapping_add(*x)],
/// )
/// .bounds(&[Bound::range("x", 0, 255)], |x| vec![("x", i128::from(*x))]);
///
/// assert!(TIMES3.run(&[0, 0, 200]).is_equal());
/// ```
pub struct FnPair<I: 'static, O: 'static = Vec<u8>> {
    /// Unique name, `crate/what`.
    pub name: &'static str,
    /// Kernel or API level.
    pub level: Level,
    /// The two functions compared.
    pub sides: Sides,
    /// Declared ranges the default run must reach.
    pub bounds: &'static [Bound],
    /// Bytes a fully random case needs.
    pub input_len: usize,
    /// Input bytes to the kernel's input.
    pub decode: fn(&mut Input<'_>) -> I,
    /// The reference side's output.
    pub reference: fn(&I) -> O,
    /// The optimized side's output.
    pub optimized: fn(&I) -> O,
    /// The optimized side's contract on (input, output): `Err(what is violated)`.
    pub contract: fn(&I, &O) -> Result<(), &'static str>,
    /// The value of each bound's quantity for one input.
    pub observe: fn(&I) -> Vec<(&'static str, i128)>,
}

impl<I: 'static, O: 'static> FnPair<I, O> {
    /// A kernel pair with no declared bounds, no contract beyond the comparison and a
    /// 64-byte input; add them with [`Self::bounds`], [`Self::contract`] and
    /// [`Self::input_len`].
    pub const fn new(
        name: &'static str,
        sides: Sides,
        decode: fn(&mut Input<'_>) -> I,
        reference: fn(&I) -> O,
        optimized: fn(&I) -> O,
    ) -> Self {
        Self {
            name,
            level: Level::Kernel,
            sides,
            bounds: &[],
            input_len: 64,
            decode,
            reference,
            optimized,
            contract: |_, _| Ok(()),
            observe: |_| Vec::new(),
        }
    }

    /// Declares the bounds the default run must reach and how to observe them.
    pub const fn bounds(
        self,
        bounds: &'static [Bound],
        observe: fn(&I) -> Vec<(&'static str, i128)>,
    ) -> Self {
        Self {
            bounds,
            observe,
            ..self
        }
    }

    /// The optimized side's contract on (input, output).
    pub const fn contract(self, contract: fn(&I, &O) -> Result<(), &'static str>) -> Self {
        Self { contract, ..self }
    }

    /// Bytes a fully random case needs.
    pub const fn input_len(self, input_len: usize) -> Self {
        Self { input_len, ..self }
    }

    /// The same pair with another optimized side (a planted wrong optimization, to
    /// show the checks catch it).
    pub const fn with_optimized(self, optimized: fn(&I) -> O) -> Self {
        Self { optimized, ..self }
    }

    /// The decoded input of `input` bytes.
    pub fn decode_bytes(&self, input: &[u8]) -> I {
        (self.decode)(&mut Input::new(input))
    }
}

impl<I: 'static, O: AsRef<[u8]> + 'static> Pair for FnPair<I, O> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn level(&self) -> Level {
        self.level
    }
    fn sides(&self) -> Sides {
        self.sides
    }
    fn bounds(&self) -> &'static [Bound] {
        self.bounds
    }
    fn input_len(&self) -> usize {
        self.input_len
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let x = self.decode_bytes(input);
        let r = (self.reference)(&x);
        let o = (self.optimized)(&x);
        match (self.contract)(&x, &o) {
            Err(what) => Outcome::contract(what, false),
            Ok(()) => Outcome::compare([("output", r.as_ref(), o.as_ref())]),
        }
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        for (name, v) in (self.observe)(&self.decode_bytes(input)) {
            seen(name, v);
        }
    }
}

/// Reads a pair's structured input straight from its bytes, first to last: a
/// coverage-guided fuzzer's mutation of byte *i* changes exactly the value decoded
/// from it. Past the end of the input every read returns zeros (as `arbitrary` does),
/// so every byte string is a valid input. No division: bounded values are scaled by a
/// widening multiplication.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    /// A reader over `bytes`; the first byte is the selector.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 1 }
    }

    /// The selector byte (0 for an empty input).
    pub fn selector(&self) -> u8 {
        self.bytes.first().copied().unwrap_or(0)
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Fills `dst` with the next bytes (zeros past the end).
    pub fn fill(&mut self, dst: &mut [u8]) {
        let start = self.pos.min(self.bytes.len());
        let end = (self.pos + dst.len()).min(self.bytes.len());
        let n = end - start;
        dst[..n].copy_from_slice(&self.bytes[start..end]);
        dst[n..].fill(0);
        self.pos += dst.len();
    }

    /// One of `edges` (when the next byte is below `edges.len()`) or a value in
    /// `0..bound`: the extreme values of a small domain come up in every run.
    pub fn edge_or_below(&mut self, edges: &[u64], bound: u64) -> u64 {
        match edges.get(usize::from(self.u8())) {
            Some(&e) => e,
            None => self.below(bound),
        }
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }

    /// The next byte.
    pub fn u8(&mut self) -> u8 {
        self.array::<1>()[0]
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.array())
    }

    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }

    /// A value in `0..bound` (`bound` > 0) from one byte when `bound` <= 256, two
    /// when <= 65 536, else eight: `(x · bound) >> bits`, so the extremes 0 and
    /// `bound − 1` come from the all-zero and all-one bytes.
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        if bound <= 1 << 8 {
            (u64::from(self.u8()) * bound) >> 8
        } else if bound <= 1 << 16 {
            (u64::from(self.u16()) * bound) >> 16
        } else {
            ((u128::from(self.u64()) * u128::from(bound)) >> 64) as u64
        }
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        debug_assert!(lo <= hi);
        lo + self.below((hi - lo) as u64 + 1) as i64
    }

    /// One bit.
    pub fn bit(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// `n` bytes expanded by SHAKE-256 from the next 32 bytes: for an input too large
    /// to fuzz byte for byte (an API pair's random ciphertext); the fuzzer still
    /// controls the seed.
    pub fn expand(&mut self, dst: &mut [u8]) {
        use shake::{ExtendableOutput, Update, XofReader};
        let seed = self.array::<32>();
        let mut h = shake::Shake256::default();
        h.update(b"refopt expand");
        h.update(&seed);
        h.finalize_xof().read(dst);
    }
}

/// Maps a selector byte onto `0..n` patterns by multiply-shift (no division): each
/// pattern gets a contiguous run of about 256/n selector values.
pub fn pattern(selector: u8, n: usize) -> usize {
    (usize::from(selector) * n) >> 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_reads_bytes_in_order_and_zeros_past_the_end() {
        let mut i = Input::new(&[9, 1, 2, 3]);
        assert_eq!(i.selector(), 9);
        assert_eq!(i.u16(), 0x0201);
        assert_eq!(i.u8(), 3);
        assert_eq!(i.u64(), 0);
        assert_eq!(Input::new(&[]).selector(), 0);
    }

    #[test]
    fn below_reaches_both_ends() {
        for bound in [1u64, 2, 3, 255, 256, 257, 3329, 65_536, 65_537, 1 << 40] {
            let lo = Input::new(&[0; 10]).below(bound);
            let hi = Input::new(&[0xff; 10]).below(bound);
            assert_eq!((lo, hi), (0, bound - 1), "bound {bound}");
        }
        assert_eq!(Input::new(&[0, 0xff]).range(-2, 2), 2);
        assert_eq!(Input::new(&[0, 0]).range(-2, 2), -2);
    }

    #[test]
    fn pattern_covers_every_value_evenly() {
        for n in [1usize, 3, 7, 10, 57, 256] {
            let mut seen = vec![0usize; n];
            for s in 0..=255u8 {
                seen[pattern(s, n)] += 1;
            }
            assert!(seen.iter().all(|&c| c >= 256 / n), "n = {n}: {seen:?}");
        }
    }

    #[test]
    fn contract_and_and_chain() {
        assert!(Outcome::contract("x", true).is_equal());
        let m = Outcome::Equal.and(|| Outcome::contract("w < p", false));
        let Outcome::Mismatch(m) = m else {
            panic!("a contract violation is a mismatch")
        };
        assert_eq!(m.field, "contract: w < p");
        let first = Outcome::compare([("a", &[1u8][..], &[2u8][..])])
            .and(|| panic!("not evaluated after a mismatch"));
        assert!(!first.is_equal());
    }

    /// A secret field's difference is reported by length and fingerprint, never its
    /// bytes (neither by `Display` nor by `Debug`); a public one from the first
    /// differing byte.
    #[test]
    fn secret_fields_are_reported_without_their_bytes() {
        let (k1, k2) = ([0x5au8; 32], [0x5au8; 31]);
        let mut k2 = k2.to_vec();
        k2.push(0xa5);
        let Outcome::Mismatch(m) = Outcome::compare_exposed([
            ("ct", Exposure::Public, &b"same"[..], &b"same"[..]),
            ("ss", Exposure::Secret, &k1[..], &k2[..]),
        ]) else {
            panic!("the keys differ");
        };
        assert_eq!((m.field.as_str(), m.offset), ("ss", 31));
        for shown in [m.to_string(), format!("{m:?}")] {
            assert!(shown.contains("secret, SHA3-256 #"), "{shown}");
            assert!(!shown.contains("5a") && !shown.contains("a5"), "{shown}");
        }
        let Outcome::Mismatch(m) = Outcome::compare([("h", &k1[..], &k2[..])]) else {
            panic!("the polynomials differ");
        };
        assert!(m.to_string().contains("reference ..5a.., optimized ..a5.."));
    }

    #[test]
    fn first_difference_reports_offset_and_length_changes() {
        assert_eq!(first_difference("f", b"abc", b"abc"), None);
        assert_eq!(
            first_difference("f", b"abc", b"abd").map(|m| m.offset),
            Some(2)
        );
        assert_eq!(
            first_difference("f", b"abc", b"ab").map(|m| m.offset),
            Some(2)
        );
    }
}
