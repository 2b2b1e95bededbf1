//! The pair registry.
//!
//! A *pair* is a function of bytes: it turns an input byte string into a structured
//! input (a leading selector byte may pick an extreme pattern instead of random
//! values), runs the reference and the optimized side, canonicalizes where the
//! optimization's brief says raw outputs may legitimately differ, and compares.
//! Property tests, fuzz targets, benches and the `refopt` tool all drive the same
//! pairs, and a failing case is just bytes to save and replay.

use core::fmt;

/// Where in the stack a pair compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A condition under which the two sides of a pair are claimed to agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Precondition {
    /// Short identifier, for example `call-boundary-invariant-rng`.
    pub name: &'static str,
    /// What it requires and why.
    pub description: &'static str,
}

/// Where the two sides first differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Which output field differs (for example `ct` or `u[1]`).
    pub field: String,
    /// Index of the first differing byte (or element) within the field.
    pub offset: usize,
    /// The reference side's field.
    pub reference: Vec<u8>,
    /// The optimized side's field.
    pub optimized: Vec<u8>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &[u8]| {
            let end = (self.offset + 8).min(v.len());
            let start = self.offset.min(end);
            hex::encode(&v[start..end])
        };
        write!(
            f,
            "{} differs first at byte {} (reference {} bytes, optimized {} bytes): reference ..{}.., optimized ..{}..",
            self.field,
            self.offset,
            self.reference.len(),
            self.optimized.len(),
            show(&self.reference),
            show(&self.optimized)
        )
    }
}

/// The result of running one pair on one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every compared field is identical.
    Equal,
    /// A field differs.
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
    /// Compares named fields in order and reports the first difference.
    pub fn compare<'a>(fields: impl IntoIterator<Item = (&'a str, &'a [u8], &'a [u8])>) -> Self {
        for (name, r, o) in fields {
            if let Some(m) = first_difference(name, r, o) {
                return Outcome::Mismatch(m);
            }
        }
        Outcome::Equal
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
    /// Conditions under which the sides are claimed to agree.
    fn preconditions(&self) -> &'static [Precondition] {
        &[]
    }
    /// Cases `refopt` runs by default (API pairs are slower than kernels).
    fn default_cases(&self) -> usize {
        match self.level() {
            Level::Kernel => 5000,
            Level::Api => 500,
        }
    }
    /// Runs both sides on one input and compares.
    fn run(&self, input: &[u8]) -> Outcome;
}

/// Every registered pair, kernel pairs first.
pub fn pairs() -> Vec<&'static dyn Pair> {
    let mut all: Vec<&'static dyn Pair> = Vec::new();
    all.extend_from_slice(crate::mlkem::PAIRS);
    all.extend_from_slice(crate::sntrup761::PAIRS);
    all.extend_from_slice(crate::ntruhps2048509::PAIRS);
    all.extend_from_slice(crate::ed25519::PAIRS);
    if std::env::var_os(BROKEN_PAIR_ENV).is_some() {
        all.push(&BrokenPair);
    }
    all.sort_by_key(|p| (p.level() == Level::Api, p.name()));
    all
}

/// Setting this environment variable adds [`BrokenPair`] to the registry, so the
/// failure path of the lab (exit status, reproducer, regression file) can be tested
/// end to end.
pub const BROKEN_PAIR_ENV: &str = "REFOPT_SELFTEST_BROKEN_PAIR";

/// A deliberately wrong "optimization": the optimized side of `x -> x·3 mod 256`
/// computes `x + x + x` but drops the carry of the first addition when `x >= 128`.
/// Registered only when [`BROKEN_PAIR_ENV`] is set.
pub struct BrokenPair;

impl Pair for BrokenPair {
    fn name(&self) -> &'static str {
        "selftest/broken"
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let reference: Vec<u8> = input.iter().map(|x| x.wrapping_mul(3)).collect();
        let optimized: Vec<u8> = input
            .iter()
            .map(|&x| (x << 1).wrapping_add(x) ^ (x & 0x80))
            .collect();
        Outcome::compare([("x*3", reference.as_slice(), optimized.as_slice())])
    }
}

/// The input of case `index` of a run seeded by `seed`: 64 bytes whose first byte
/// walks through every selector value, so extreme patterns come up within the first
/// 256 cases of every run.
pub fn case_input(seed: u64, pair: &str, index: u64) -> Vec<u8> {
    use shake::{ExtendableOutput, Update, XofReader};
    let mut h = shake::Shake256::default();
    h.update(b"refopt case");
    h.update(&seed.to_le_bytes());
    h.update(pair.as_bytes());
    h.update(&index.to_le_bytes());
    let mut out = vec![0u8; 64];
    h.finalize_xof().read(&mut out);
    out[0] = index as u8;
    out
}

/// Counts of one pair's run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases whose outputs were identical.
    pub equal: usize,
    /// Cases skipped because an input violated a declared precondition.
    pub precondition_not_met: usize,
    /// The first mismatch: case index, the input that produced it, and where the
    /// outputs differ.
    pub first_mismatch: Option<(u64, Vec<u8>, Mismatch)>,
    /// Number of mismatching cases.
    pub mismatches: usize,
}

/// Runs one case, turning a panic on either side into a [`Mismatch`] on the field
/// `panic` (the panic message is the optimized side's bytes), so a crashing kernel is
/// reported with its input like any other difference.
pub fn run_caught(pair: &dyn Pair, input: &[u8]) -> Outcome {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pair.run(input))) {
        Ok(outcome) => outcome,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned());
            Outcome::Mismatch(Mismatch {
                field: "panic".to_owned(),
                offset: 0,
                reference: Vec::new(),
                optimized: msg.into_bytes(),
            })
        }
    }
}

/// Runs `cases` cases of `pair` with inputs from [`case_input`]; `progress` is called
/// with the number of cases done after each case.
pub fn check(pair: &dyn Pair, seed: u64, cases: usize, mut progress: impl FnMut(usize)) -> Tally {
    let mut t = Tally::default();
    for i in 0..cases {
        let input = case_input(seed, pair.name(), i as u64);
        match run_caught(pair, &input) {
            Outcome::Equal => t.equal += 1,
            Outcome::PreconditionNotMet { .. } => t.precondition_not_met += 1,
            Outcome::Mismatch(m) => {
                t.mismatches += 1;
                if t.first_mismatch.is_none() {
                    t.first_mismatch = Some((i as u64, input, m));
                }
            }
        }
        progress(i + 1);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_reports_the_first_mismatch_with_its_input() {
        let t = check(&BrokenPair, 7, 300, |_| {});
        assert!(t.mismatches > 0);
        let (index, input, m) = t.first_mismatch.expect("a mismatch");
        assert_eq!(input, case_input(7, "selftest/broken", index));
        assert_eq!(BrokenPair.run(&input), Outcome::Mismatch(m.clone()));
        assert!(
            input[m.offset] >= 0x80,
            "differs where the carry was dropped"
        );
        assert_eq!(t.equal + t.mismatches, 300);
    }

    struct Panics;
    impl Pair for Panics {
        fn name(&self) -> &'static str {
            "selftest/panics"
        }
        fn level(&self) -> Level {
            Level::Kernel
        }
        fn run(&self, input: &[u8]) -> Outcome {
            assert!(
                input[1] < 0xf0,
                "index out of range in the optimized kernel"
            );
            Outcome::Equal
        }
    }

    /// A kernel that panics is a reported mismatch with its input, not a crash.
    #[test]
    fn a_panicking_pair_is_a_mismatch() {
        let t = check(&Panics, 1, 200, |_| {});
        let (_, input, m) = t.first_mismatch.expect("a panic was caught");
        assert_eq!(m.field, "panic");
        assert!(String::from_utf8_lossy(&m.optimized).contains("index out of range"));
        assert!(input[1] >= 0xf0);
        assert_eq!(t.equal + t.mismatches, 200);
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
