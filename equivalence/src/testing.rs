//! The lab's checks of a pair as test functions: the default run, arbitrary inputs
//! (proptest, with the `testing` feature), corner coverage and saved regression
//! inputs. [`crate::lab_tests!`] turns a list of pairs into `#[test]` functions, so a
//! crate that defines its own pairs gets the lab's tests in one line:
//!
//! ```text
//! equivalence::lab_tests!(my_crate::MY_PAIR);
//! ```

use std::collections::BTreeMap;

use crate::pair::{Bound, Outcome, Pair};
use crate::registry::{case_input, run_caught};

/// The default run of `pair` (seed 0, its default number of cases — what `refopt`
/// checks), stopping at the first mismatch. Returns the number of cases compared.
///
/// # Errors
/// The first mismatch with a reproducer, or "no evidence" when no case was compared.
pub fn default_run(pair: &dyn Pair) -> Result<usize, String> {
    let mut compared = 0;
    for i in 0..pair.default_cases() {
        let input = case_input(0, pair, i as u64);
        match run_caught(pair, &input) {
            Outcome::Equal => compared += 1,
            Outcome::PreconditionNotMet { .. } => {}
            Outcome::Mismatch(m) => {
                return Err(format!(
                    "{}: case {i}: {m}\n  refopt replay {} {}",
                    pair.name(),
                    pair.name(),
                    hex::encode(&input)
                ));
            }
        }
    }
    if compared == 0 {
        return Err(format!("{}: no evidence (no case compared)", pair.name()));
    }
    Ok(compared)
}

/// A declared bound, the extremes the default run reached (if any) and the declared
/// points it hit.
pub type Reached = (Bound, Option<(i128, i128)>, Vec<i128>);

/// What the default run's inputs reach of each bound `pair` declares (through
/// [`Pair::observe`]).
///
/// # Panics
/// If `observe` reports a quantity that is not declared, or a value outside its
/// declared range (the declaration is then wrong).
pub fn coverage(pair: &dyn Pair) -> Vec<Reached> {
    let bounds = pair.bounds();
    let mut seen: BTreeMap<&'static str, (i128, i128, Vec<i128>)> = BTreeMap::new();
    for i in 0..pair.default_cases() {
        let input = case_input(0, pair, i as u64);
        pair.observe(&input, &mut |name, v| {
            let b = bounds.iter().find(|b| b.name == name).unwrap_or_else(|| {
                panic!("{}: observed an undeclared quantity {name}", pair.name())
            });
            assert!(
                (b.min..=b.max).contains(&v),
                "{}: {name} = {v} is outside its declared range [{}, {}] (case {i})",
                pair.name(),
                b.min,
                b.max
            );
            let e = seen.entry(name).or_insert((v, v, Vec::new()));
            e.0 = e.0.min(v);
            e.1 = e.1.max(v);
            if b.points.contains(&v) && !e.2.contains(&v) {
                e.2.push(v);
            }
        });
    }
    bounds
        .iter()
        .map(|b| {
            let s = seen.get(b.name);
            (
                *b,
                s.map(|s| (s.0, s.1)),
                s.map(|s| s.2.clone()).unwrap_or_default(),
            )
        })
        .collect()
}

/// Whether the default run reaches the minimum, the maximum and every declared point
/// of each bound. Returns the number of bounds checked.
///
/// # Errors
/// Every bound end or point that is not reached.
pub fn corners(pair: &dyn Pair) -> Result<usize, Vec<String>> {
    let mut missing = Vec::new();
    let reached = coverage(pair);
    for (b, range, points) in &reached {
        match range {
            Some((lo, hi)) if *lo == b.min && *hi == b.max => {}
            other => missing.push(format!(
                "{}: {} reached {other:?}, declared [{}, {}]",
                pair.name(),
                b.name,
                b.min,
                b.max
            )),
        }
        for p in b.points {
            if !points.contains(p) {
                missing.push(format!("{}: {} never equals {p}", pair.name(), b.name));
            }
        }
    }
    if missing.is_empty() {
        Ok(reached.len())
    } else {
        Err(missing)
    }
}

/// Replays every saved input of `pair` in the regression files of `dir` (see
/// [`crate::regressions`]); a missing directory or file is no case. Returns the
/// number of inputs replayed.
///
/// # Errors
/// The first input that does not agree, or a file that cannot be read.
pub fn regressions(pair: &dyn Pair, dir: &std::path::Path) -> Result<usize, String> {
    let path = crate::regressions::file_for(dir, pair.name());
    if !path.exists() {
        return Ok(0);
    }
    let (_, cases) = crate::regressions::read_file(&path).map_err(|e| e.to_string())?;
    for (line, input) in &cases {
        if let Outcome::Mismatch(m) = run_caught(pair, input) {
            return Err(format!("{}:{line}: {m}", path.display()));
        }
    }
    Ok(cases.len())
}

/// Arbitrary input bytes (proptest, which shrinks a failure to a minimal input), of
/// every length up to the pair's `input_len`: every case agrees or reports a declared
/// precondition.
///
/// # Errors
/// The (shrunk) failing input and its mismatch.
#[cfg(feature = "testing")]
pub fn arbitrary_inputs(pair: &dyn Pair, cases: u32) -> Result<(), String> {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &proptest::collection::vec(any::<u8>(), 0..pair.input_len().min(4096) + 1),
            |input| match run_caught(pair, &input) {
                Outcome::Equal => Ok(()),
                Outcome::PreconditionNotMet { which, .. } => {
                    prop_assert!(
                        pair.preconditions().iter().any(|p| p.name == which),
                        "{} reported an undeclared precondition {which}",
                        pair.name()
                    );
                    Ok(())
                }
                Outcome::Mismatch(m) => Err(TestCaseError::fail(format!("{}: {m}", pair.name()))),
            },
        )
        .map_err(|e| format!("{}: {e}", pair.name()))
}

/// Runs an obligation and its mutant: the check must prove, the mutant's check must
/// fail (see [`crate::prove::Mutant`]; plant and compile-time mutants need the lab's own
/// self-test, `refopt prove --self-test`).
///
/// # Errors
/// What went wrong.
pub fn obligation(o: &'static crate::prove::Obligation) -> Result<(), String> {
    use crate::prove::{Failure, Mutant, run_one};
    let row = run_one(o);
    if row.status() != "proved" {
        return Err(format!("{}: {} ({})", o.id, row.status(), row.detail()));
    }
    if let Mutant::InProcess { what, check } = o.mutant {
        match check() {
            Err(Failure::Failed(_)) => {}
            other => {
                return Err(format!(
                    "{}: the mutant ({what}) was not caught: {other:?}",
                    o.id
                ));
            }
        }
    }
    Ok(())
}

/// `#[test]` functions running the lab's checks: for each pair, the default run agrees
/// with evidence ([`default_run`]), arbitrary inputs agree ([`arbitrary_inputs`], 256
/// cases; needs the `testing` feature), the default run reaches every declared corner
/// ([`corners`]) and the inputs saved in the crate's `regressions/` directory agree
/// ([`regressions`]); each obligation is proved and its mutant caught
/// ([`obligation`]); the default run of each mutant pair (a planted wrong optimization)
/// fails.
///
/// ```text
/// equivalence::lab_tests!(pairs: [kyberslash::COMPRESS], obligations: [kyberslash::KS_1],
///     mutants: [kyberslash::SHORT_M]);
/// ```
#[macro_export]
macro_rules! lab_tests {
    (pairs: [$($pair:expr),* $(,)?] $(, obligations: [$($ob:expr),* $(,)?])? $(, mutants: [$($mutant:expr),* $(,)?])? $(,)?) => {
        fn refopt_lab_pairs() -> ::std::vec::Vec<&'static dyn $crate::pair::Pair> {
            ::std::vec![$(&$pair as &'static dyn $crate::pair::Pair),*]
        }
        #[test]
        fn refopt_default_run_agrees() {
            for p in refopt_lab_pairs() {
                $crate::testing::default_run(p).unwrap_or_else(|e| panic!("{e}"));
            }
        }
        #[test]
        fn refopt_arbitrary_inputs_agree() {
            for p in refopt_lab_pairs() {
                $crate::testing::arbitrary_inputs(p, 256).unwrap_or_else(|e| panic!("{e}"));
            }
        }
        #[test]
        fn refopt_corners_reached() {
            for p in refopt_lab_pairs() {
                $crate::testing::corners(p).unwrap_or_else(|e| panic!("{}", e.join("\n")));
            }
        }
        #[test]
        fn refopt_regressions_agree() {
            let dir = ::std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
            for p in refopt_lab_pairs() {
                $crate::testing::regressions(p, &dir).unwrap_or_else(|e| panic!("{e}"));
            }
        }
        #[test]
        fn refopt_obligations_proved_and_their_mutants_caught() {
            $($($crate::testing::obligation(&$ob).unwrap_or_else(|e| panic!("{e}"));)*)?
        }
        #[test]
        fn refopt_planted_bugs_caught() {
            $($(
                assert!(
                    $crate::testing::default_run(&$mutant).is_err(),
                    "the default run did not catch the planted bug {}",
                    stringify!($mutant)
                );
            )*)?
        }
    };
}

/// A gungraun benchmark (instruction counts under Callgrind; gungraun is iai-callgrind
/// under its new name) of a [`crate::pair::FnPair`]'s two sides on one input, in a
/// `harness = false` bench target of a crate with `gungraun` as a dev-dependency:
///
/// ```text
/// equivalence::pair_bench!(kyberslash::COMPRESS, (1234, 10));
/// ```
///
/// `cargo bench --bench <name>` prints the instructions of each side (the gungraun
/// runner, `cargo install gungraun-runner --version 0.20.0`, must be on PATH).
#[macro_export]
macro_rules! pair_bench {
    ($pair:expr, $input:expr $(,)?) => {
        use gungraun::{library_benchmark, library_benchmark_group, main};
        #[library_benchmark]
        fn reference() {
            let pair = &$pair;
            ::std::hint::black_box((pair.reference)(::std::hint::black_box(&$input)));
        }
        #[library_benchmark]
        fn optimized() {
            let pair = &$pair;
            ::std::hint::black_box((pair.optimized)(::std::hint::black_box(&$input)));
        }
        library_benchmark_group!(name = pair, benchmarks = [reference, optimized]);
        main!(library_benchmark_groups = pair);
    };
}
