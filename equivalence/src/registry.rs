//! The registry: every pair of the five optimizations, and the loop that checks one.
//!
//! The pair API itself (the [`Pair`] trait, inputs, outcomes) lives in
//! [`crate::pair`]; scheme modules depend on it, and this module depends on them, so
//! there is no import cycle.
//!
//! A run of a pair is *evidence* only if it compared something: [`Tally::verdict`]
//! is [`Verdict::NoEvidence`] when every case was skipped by a precondition (for
//! example a SIMD pair on a CPU without the instructions), and `refopt check` fails on
//! it unless told otherwise.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::pair::{Exposure, Level, Mismatch, Outcome, Pair, Sides};

/// Every built-in pair, kernel pairs first, then by name.
pub fn builtin() -> Vec<&'static dyn Pair> {
    let mut all: Vec<&'static dyn Pair> = Vec::new();
    all.extend_from_slice(crate::mlkem::PAIRS);
    all.extend_from_slice(crate::sntrup761::PAIRS);
    all.extend_from_slice(crate::ntruhps2048509::PAIRS);
    all.extend_from_slice(crate::ed25519::PAIRS);
    sort(&mut all);
    all
}

/// Every registered pair: [`builtin`], plus [`BrokenPair`] when
/// [`BROKEN_PAIR_ENV`] is set.
pub fn pairs() -> Vec<&'static dyn Pair> {
    let mut all = builtin();
    if std::env::var_os(BROKEN_PAIR_ENV).is_some() {
        all.push(&BrokenPair);
        sort(&mut all);
    }
    all
}

/// Kernel pairs first, then by name.
pub fn sort(pairs: &mut [&'static dyn Pair]) {
    pairs.sort_by_key(|p| (p.level() == Level::Api, p.name()));
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
    fn sides(&self) -> Sides {
        Sides::new(
            "x.wrapping_mul(3)",
            "(x << 1) + x with the carry of x << 1 dropped",
        )
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

/// The input of case `index` of a run seeded by `seed`: `pair.input_len()` bytes of
/// SHAKE-256 whose first byte walks through every selector value, so every extreme
/// pattern comes up within the first 256 cases of every run.
pub fn case_input(seed: u64, pair: &dyn Pair, index: u64) -> Vec<u8> {
    use shake::{ExtendableOutput, Update, XofReader};
    let mut h = shake::Shake256::default();
    h.update(b"refopt case");
    h.update(&seed.to_le_bytes());
    h.update(pair.name().as_bytes());
    h.update(&index.to_le_bytes());
    let mut out = vec![0u8; pair.input_len().max(1)];
    h.finalize_xof().read(&mut out);
    out[0] = index as u8;
    out
}

/// Counts of one pair's run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases run.
    pub cases: usize,
    /// Cases whose outputs were identical and whose contracts held.
    pub equal: usize,
    /// Cases skipped, per [`crate::pair::Precondition::name`] that did not hold.
    pub not_met: BTreeMap<&'static str, usize>,
    /// Number of mismatching cases.
    pub mismatches: usize,
    /// The first mismatch: case index, the input that produced it, and where the
    /// outputs differ.
    pub first_mismatch: Option<(u64, Vec<u8>, Mismatch)>,
}

/// What a run shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every compared case agreed, and at least one case was compared.
    Agree,
    /// At least one case differed.
    Mismatch,
    /// No case was compared (every one was skipped by a precondition, or none ran).
    NoEvidence,
}

impl Tally {
    /// Cases actually compared (equal or mismatching).
    pub fn compared(&self) -> usize {
        self.equal + self.mismatches
    }

    /// Cases skipped by a precondition.
    pub fn skipped(&self) -> usize {
        self.not_met.values().sum()
    }

    /// The verdict of the run.
    pub fn verdict(&self) -> Verdict {
        if self.mismatches > 0 {
            Verdict::Mismatch
        } else if self.equal == 0 {
            Verdict::NoEvidence
        } else {
            Verdict::Agree
        }
    }

    fn add(&mut self, index: u64, input: &[u8], outcome: Outcome) {
        self.cases += 1;
        match outcome {
            Outcome::Equal => self.equal += 1,
            Outcome::PreconditionNotMet { which, .. } => {
                *self.not_met.entry(which).or_default() += 1;
            }
            Outcome::Mismatch(m) => {
                self.mismatches += 1;
                if self.first_mismatch.is_none() {
                    self.first_mismatch = Some((index, input.to_vec(), m));
                }
            }
        }
    }
}

/// The message of a caught panic (`&str` or `String` payload; "panic" otherwise).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

/// Runs one case, turning a panic on either side into a [`Mismatch`] on the field
/// `panic` (the panic message is the optimized side's bytes), so a crashing kernel is
/// reported with its input like any other difference.
pub fn run_caught(pair: &dyn Pair, input: &[u8]) -> Outcome {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pair.run(input))) {
        // A precondition the pair never declared is the harness's bug, not a skip.
        Ok(Outcome::PreconditionNotMet { which, detail }) if !pair.declares(which) => {
            Outcome::Mismatch(Mismatch {
                field: format!("undeclared precondition `{which}`"),
                offset: 0,
                reference: Vec::new(),
                optimized: detail.into_bytes(),
                exposure: Exposure::Public,
            })
        }
        Ok(outcome) => outcome,
        Err(payload) => {
            let msg = panic_message(payload.as_ref());
            Outcome::Mismatch(Mismatch {
                field: "panic".to_owned(),
                offset: 0,
                reference: Vec::new(),
                optimized: msg.into_bytes(),
                exposure: Exposure::Public,
            })
        }
    }
}

/// Runs up to `cases` cases of `pair` with inputs from [`case_input`], stopping early
/// at `deadline`; `progress` is called with the number of cases done after each case.
pub fn check(
    pair: &dyn Pair,
    seed: u64,
    cases: usize,
    deadline: Option<Instant>,
    mut progress: impl FnMut(usize),
) -> Tally {
    let mut t = Tally::default();
    for i in 0..cases {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let input = case_input(seed, pair, i as u64);
        let outcome = run_caught(pair, &input);
        t.add(i as u64, &input, outcome);
        progress(i + 1);
    }
    t
}

/// Runs `pair` on saved inputs (regression cases), in order.
pub fn replay<'a>(pair: &dyn Pair, inputs: impl IntoIterator<Item = &'a [u8]>) -> Tally {
    let mut t = Tally::default();
    for (i, input) in inputs.into_iter().enumerate() {
        t.add(i as u64, input, run_caught(pair, input));
    }
    t
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn check_reports_the_first_mismatch_with_its_input() {
        let t = check(&BrokenPair, 7, 300, None, |_| {});
        assert!(t.mismatches > 0);
        assert_eq!(t.verdict(), Verdict::Mismatch);
        let (index, input, m) = t.first_mismatch.expect("a mismatch");
        assert_eq!(input, case_input(7, &BrokenPair, index));
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
        fn sides(&self) -> Sides {
            Sides::new("-", "-")
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
        let t = check(&Panics, 1, 200, None, |_| {});
        let (_, input, m) = t.first_mismatch.expect("a panic was caught");
        assert_eq!(m.field, "panic");
        assert!(String::from_utf8_lossy(&m.optimized).contains("index out of range"));
        assert!(input[1] >= 0xf0);
        assert_eq!(t.equal + t.mismatches, 200);
    }

    /// A pair whose every input misses its declared precondition: nothing is ever
    /// compared.
    pub(crate) struct NeverApplies;
    impl Pair for NeverApplies {
        fn name(&self) -> &'static str {
            "selftest/never-applies"
        }
        fn level(&self) -> Level {
            Level::Kernel
        }
        fn sides(&self) -> Sides {
            Sides::new("-", "-")
        }
        fn preconditions(&self) -> &'static [crate::pair::Precondition] {
            &[crate::pair::Precondition {
                name: "cpu-feature",
                description: "the CPU has the feature",
            }]
        }
        fn run(&self, _: &[u8]) -> Outcome {
            Outcome::PreconditionNotMet {
                which: "cpu-feature",
                detail: "absent".into(),
            }
        }
    }

    /// The same pair without the declaration: its every input is a finding, in the
    /// default run as in fuzzing (`fuzz::check_pair`).
    pub(crate) struct Undeclared;
    impl Pair for Undeclared {
        fn name(&self) -> &'static str {
            "selftest/undeclared"
        }
        fn level(&self) -> Level {
            Level::Kernel
        }
        fn sides(&self) -> Sides {
            Sides::new("-", "-")
        }
        fn run(&self, input: &[u8]) -> Outcome {
            NeverApplies.run(input)
        }
    }

    #[test]
    fn an_undeclared_precondition_is_a_mismatch() {
        let t = check(&Undeclared, 0, 5, None, |_| {});
        assert_eq!((t.verdict(), t.mismatches), (Verdict::Mismatch, 5));
        let (_, _, m) = t.first_mismatch.expect("reported");
        assert_eq!(m.field, "undeclared precondition `cpu-feature`");
    }

    /// A run that compared nothing is no evidence, not agreement.
    #[test]
    fn zero_compared_cases_is_no_evidence() {
        let t = check(&NeverApplies, 0, 20, None, |_| {});
        assert_eq!(t.verdict(), Verdict::NoEvidence);
        assert_eq!(t.not_met.get("cpu-feature"), Some(&20));
        assert_eq!(t.compared(), 0);
        assert_eq!(
            check(&BrokenPair, 0, 0, None, |_| {}).verdict(),
            Verdict::NoEvidence
        );
    }

    #[test]
    fn a_past_deadline_stops_the_run() {
        let t = check(&BrokenPair, 0, 1000, Some(Instant::now()), |_| {});
        assert_eq!(t.cases, 0);
    }

    #[test]
    fn every_pair_has_a_unique_name_and_names_its_sides() {
        let all = builtin();
        let mut names: Vec<_> = all.iter().map(|p| p.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "duplicate pair names");
        for p in all {
            let s = p.sides();
            assert!(
                !s.reference.is_empty() && !s.optimized.is_empty() && s.reference != s.optimized,
                "{}: sides {s:?}",
                p.name()
            );
        }
    }
}
