//! The lab's checks of a pair as test functions: the default run, arbitrary inputs
//! (proptest, with the `testing` feature), corner coverage and saved regression
//! inputs. [`crate::lab_tests!`] turns a list of pairs into `#[test]` functions, so a
//! crate that defines its own pairs gets the lab's tests in one line:
//!
//! ```text
//! equivalence::lab_tests!(pairs: [my_crate::MY_PAIR]);
//! ```
//!
//! Each check returns a typed [`Error`] whose `Display` is the report the lab prints.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use crate::pair::{Bound, Mismatch, Outcome, Pair};
use crate::registry::{case_input, run_caught};

/// Why a check of this module failed. `Display` gives the report (for a default-run
/// mismatch, with the `refopt replay` command that reproduces it); key material in a
/// [`Mismatch`] is shown only by its fingerprint.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Case `case` of the default run gave a mismatch (a field differs or a contract
    /// broke).
    Mismatch {
        /// The pair.
        pair: &'static str,
        /// The index of the case in the default run (seed 0).
        case: usize,
        /// Where the two sides differ.
        mismatch: Box<Mismatch>,
        /// The case's input, for `refopt replay`.
        input: Vec<u8>,
    },
    /// No case of the default run met the pair's preconditions, so nothing was compared.
    NoEvidence {
        /// The pair.
        pair: &'static str,
    },
    /// A regression file could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O or format error.
        source: std::io::Error,
    },
    /// A saved regression input gave a mismatch.
    Regression {
        /// The regression file.
        path: PathBuf,
        /// The input's line in it.
        line: usize,
        /// Where the two sides differ.
        mismatch: Box<Mismatch>,
    },
    /// The default run does not reach some declared corners of the pair's bounds.
    CornersNotReached {
        /// The pair.
        pair: &'static str,
        /// Every corner not reached.
        missing: Vec<Corner>,
    },
    /// proptest found an arbitrary input on which the pair disagrees, breaks a contract
    /// or reports an undeclared precondition (shrunk to a minimal input).
    Arbitrary {
        /// The pair.
        pair: &'static str,
        /// proptest's report: the minimal failing input and what it gave.
        report: String,
    },
    /// An obligation's check did not prove its statement.
    NotProved {
        /// The obligation's id.
        id: &'static str,
        /// What the check gave instead (for example `failed` or `not run`).
        status: &'static str,
        /// The check's message.
        detail: String,
    },
    /// An obligation's in-process mutant passed its check.
    MutantNotCaught {
        /// The obligation's id.
        id: &'static str,
        /// What the mutant changes.
        mutant: &'static str,
        /// What the check on the mutant returned.
        outcome: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Mismatch {
                pair,
                case,
                mismatch,
                input,
            } => write!(
                f,
                "{pair}: case {case}: {mismatch}\n  refopt replay {pair} {}",
                hex::encode(input)
            ),
            Error::NoEvidence { pair } => write!(f, "{pair}: no evidence (no case compared)"),
            Error::Unreadable { path, source } => write!(f, "reading {}: {source}", path.display()),
            Error::Regression {
                path,
                line,
                mismatch,
            } => write!(f, "{}:{line}: {mismatch}", path.display()),
            Error::CornersNotReached { pair, missing } => {
                for (i, corner) in missing.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{pair}: {corner}")?;
                }
                Ok(())
            }
            Error::Arbitrary { pair, report } => write!(f, "{pair}: {report}"),
            Error::NotProved { id, status, detail } => write!(f, "{id}: {status} ({detail})"),
            Error::MutantNotCaught {
                id,
                mutant,
                outcome,
            } => write!(f, "{id}: the mutant ({mutant}) was not caught: {outcome}"),
        }
    }
}

/// A declared corner of a pair's bound that the default run does not reach
/// ([`corners`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Corner {
    /// The values observed do not span the declared range.
    Range {
        /// The bound's name.
        bound: &'static str,
        /// The declared minimum.
        min: i128,
        /// The declared maximum.
        max: i128,
        /// The least and greatest values observed, if any.
        reached: Option<(i128, i128)>,
    },
    /// A declared point is never observed.
    Point {
        /// The bound's name.
        bound: &'static str,
        /// The point.
        point: i128,
    },
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Corner::Range {
                bound,
                min,
                max,
                reached,
            } => write!(f, "{bound} reached {reached:?}, declared [{min}, {max}]"),
            Corner::Point { bound, point } => write!(f, "{bound} never equals {point}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Unreadable { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The default run of `pair` (seed 0, its default number of cases — what `refopt`
/// checks), stopping at the first mismatch. Returns the number of cases compared.
///
/// # Errors
/// [`Error::Mismatch`] for the first mismatch (with its input), or
/// [`Error::NoEvidence`] when no case was compared.
pub fn default_run(pair: &dyn Pair) -> Result<usize, Error> {
    let mut compared = 0;
    for i in 0..pair.default_cases() {
        let input = case_input(0, pair, i as u64);
        match run_caught(pair, &input) {
            Outcome::Equal => compared += 1,
            Outcome::PreconditionNotMet { .. } => {}
            Outcome::Mismatch(mismatch) => {
                return Err(Error::Mismatch {
                    pair: pair.name(),
                    case: i,
                    mismatch: Box::new(mismatch),
                    input,
                });
            }
        }
    }
    if compared == 0 {
        return Err(Error::NoEvidence { pair: pair.name() });
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
/// [`Error::CornersNotReached`] with every bound end or point that is not reached.
pub fn corners(pair: &dyn Pair) -> Result<usize, Error> {
    let mut missing = Vec::new();
    let reached = coverage(pair);
    for (b, range, points) in &reached {
        match range {
            Some((lo, hi)) if *lo == b.min && *hi == b.max => {}
            other => missing.push(Corner::Range {
                bound: b.name,
                min: b.min,
                max: b.max,
                reached: *other,
            }),
        }
        for p in b.points {
            if !points.contains(p) {
                missing.push(Corner::Point {
                    bound: b.name,
                    point: *p,
                });
            }
        }
    }
    if missing.is_empty() {
        Ok(reached.len())
    } else {
        Err(Error::CornersNotReached {
            pair: pair.name(),
            missing,
        })
    }
}

/// Replays every saved input of `pair` in the regression files of `dir` (see
/// [`crate::regressions`]); a missing directory or file is no case. Returns the
/// number of inputs compared (an input whose declared precondition does not hold on
/// this machine is replayed but not counted).
///
/// # Errors
/// [`Error::Regression`] for the first input that does not agree, or
/// [`Error::Unreadable`] for a file that cannot be read.
pub fn regressions(pair: &dyn Pair, dir: &std::path::Path) -> Result<usize, Error> {
    let path = crate::regressions::file_for(dir, pair.name());
    if !path.exists() {
        return Ok(0);
    }
    let cases = match crate::regressions::read_file(&path) {
        Ok((_, cases)) => cases,
        Err(source) => return Err(Error::Unreadable { path, source }),
    };
    let mut compared = 0;
    for (line, input) in &cases {
        match run_caught(pair, input) {
            Outcome::Mismatch(mismatch) => {
                return Err(Error::Regression {
                    path,
                    line: *line,
                    mismatch: Box::new(mismatch),
                });
            }
            Outcome::Equal => compared += 1,
            Outcome::PreconditionNotMet { .. } => {}
        }
    }
    Ok(compared)
}

/// Arbitrary input bytes (proptest, which shrinks a failure to a minimal input), of
/// every length up to the pair's `input_len`: every case agrees or reports a declared
/// precondition.
///
/// # Errors
/// [`Error::Arbitrary`]: the (shrunk) failing input and its mismatch.
#[cfg(feature = "testing")]
pub fn arbitrary_inputs(pair: &dyn Pair, cases: u32) -> Result<(), Error> {
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
                        pair.declares(which),
                        "{} reported an undeclared precondition {which}",
                        pair.name()
                    );
                    Ok(())
                }
                Outcome::Mismatch(m) => Err(TestCaseError::fail(format!("{}: {m}", pair.name()))),
            },
        )
        .map_err(|e| Error::Arbitrary {
            pair: pair.name(),
            report: e.to_string(),
        })
}

/// Runs an obligation and its mutant: the check must prove, the mutant's check must
/// fail (see [`crate::prove::Mutant`]; plant mutants need the lab's own
/// self-test, `refopt prove --self-test`).
///
/// # Errors
/// [`Error::NotProved`] when the check does not prove, [`Error::MutantNotCaught`] when
/// the in-process mutant's check does not fail.
pub fn obligation(o: &'static crate::prove::Obligation) -> Result<(), Error> {
    use crate::prove::{Failure, Mutant, run_one};
    let row = run_one(o);
    if row.status() != "proved" {
        return Err(Error::NotProved {
            id: o.id,
            status: row.status(),
            detail: row.detail().to_owned(),
        });
    }
    if let Mutant::InProcess { what, check } = o.mutant {
        match crate::prove::run_check(check) {
            Err(Failure::Failed(_)) => {}
            other => {
                return Err(Error::MutantNotCaught {
                    id: o.id,
                    mutant: what,
                    outcome: format!("{other:?}"),
                });
            }
        }
    }
    Ok(())
}

/// `#[test]` functions running the lab's checks: for each pair, the default run agrees
/// with evidence ([`default_run`]), arbitrary inputs agree (`arbitrary_inputs`, 256
/// cases; needs the `testing` feature), the default run reaches every declared corner
/// ([`corners`]) and the inputs saved in the crate's `regressions/` directory agree
/// ([`regressions`]); each obligation is proved and its mutant caught
/// ([`obligation`]); the default run of each mutant pair (a planted wrong optimization)
/// fails.
///
/// Every list given must name at least one item (an empty list is a compile error, not
/// a test that passes having checked nothing); `obligations` and `mutants` may be left
/// out, and then no test is generated for them.
///
/// ```text
/// equivalence::lab_tests!(pairs: [kyberslash::COMPRESS], obligations: [kyberslash::KS_1],
///     mutants: [kyberslash::SHORT_M]);
/// ```
#[macro_export]
macro_rules! lab_tests {
    (pairs: [$($pair:expr),+ $(,)?] $(, obligations: [$($ob:expr),+ $(,)?])? $(, mutants: [$($mutant:expr),+ $(,)?])? $(,)?) => {
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
                $crate::testing::corners(p).unwrap_or_else(|e| panic!("{e}"));
            }
        }
        #[test]
        fn refopt_regressions_agree() {
            let dir = ::std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
            let mut n = 0;
            for p in refopt_lab_pairs() {
                n += $crate::testing::regressions(p, &dir).unwrap_or_else(|e| panic!("{e}"));
            }
            // Zero is a crate with no failing input kept yet: say so, not silently pass.
            $crate::vectors::note(&format!(
                "refopt: {n} regression inputs compared from {}",
                dir.display()
            ));
        }
        $(
        #[test]
        fn refopt_obligations_proved_and_their_mutants_caught() {
            $($crate::testing::obligation(&$ob).unwrap_or_else(|e| panic!("{e}"));)+
        }
        )?
        $(
        #[test]
        fn refopt_planted_bugs_caught() {
            $(
                // A mismatch, not "no evidence": a planted bug whose every case is
                // skipped has not been caught.
                assert!(
                    matches!(
                        $crate::testing::default_run(&$mutant),
                        Err($crate::testing::Error::Mismatch { .. })
                    ),
                    "the default run did not catch the planted bug {} with a mismatch",
                    stringify!($mutant)
                );
            )+
        }
        )?
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::BrokenPair;
    use crate::registry::tests::NeverApplies;

    /// A default-run mismatch is typed, names its case, and its report's
    /// `refopt replay` line carries an input that reproduces it.
    #[test]
    fn a_default_run_mismatch_carries_a_reproducer() {
        let e = default_run(&BrokenPair).expect_err("x >= 0x80 drops the carry");
        let Error::Mismatch {
            pair,
            case,
            mismatch,
            input,
        } = &e
        else {
            panic!("not a mismatch: {e:?}");
        };
        assert_eq!(*pair, "selftest/broken");
        assert_eq!(*input, case_input(0, &BrokenPair, *case as u64));
        assert_eq!(
            run_caught(&BrokenPair, input),
            Outcome::Mismatch(mismatch.as_ref().clone())
        );
        let report = e.to_string();
        assert!(
            report.contains(&format!(
                "refopt replay selftest/broken {}",
                hex::encode(input)
            )),
            "{report}"
        );
    }

    /// A pair whose `observe` reports twice its first input byte (so never an odd
    /// value) under `name`, with the bounds `declared`.
    struct Observes {
        declared: &'static [Bound],
        name: &'static str,
    }
    impl Pair for Observes {
        fn name(&self) -> &'static str {
            "selftest/observes"
        }
        fn level(&self) -> crate::pair::Level {
            NeverApplies.level()
        }
        fn sides(&self) -> crate::pair::Sides {
            NeverApplies.sides()
        }
        fn bounds(&self) -> &'static [Bound] {
            self.declared
        }
        fn run(&self, _: &[u8]) -> Outcome {
            Outcome::Equal
        }
        fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
            seen(
                self.name,
                2 * i128::from(input.first().copied().unwrap_or(0)),
            );
        }
    }

    /// The coverage check fails on a wrong declaration: an undeclared quantity, a
    /// value outside its range, an end or a point the default run does not reach.
    #[test]
    fn corners_report_wrong_declarations() {
        static FULL: [Bound; 1] = [Bound::range("x", 0, 510)];
        static NARROW: [Bound; 1] = [Bound::range("x", 0, 100)];
        let caught = |p: &Observes| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| coverage(p))).is_err()
        };
        let undeclared = Observes {
            declared: &FULL,
            name: "y",
        };
        assert!(caught(&undeclared), "an undeclared quantity passed");
        let outside = Observes {
            declared: &NARROW,
            name: "x",
        };
        assert!(
            caught(&outside),
            "a value outside the declared range passed"
        );
        // Declared as exactly the range the default run reaches, the bound passes;
        // one more at either end, or an odd point inside (never observed), fails,
        // each as the one corner missing.
        let reached = coverage(&Observes {
            declared: &FULL,
            name: "x",
        });
        let (lo, hi) = reached[0].1.expect("the default run observes x");
        assert!(
            hi - lo >= 4,
            "the default run's first bytes span [{lo}, {hi}]"
        );
        let declare = |b: Bound| -> &'static [Bound] { Box::leak(Box::new([b])) };
        let run = |b: Bound| {
            corners(&Observes {
                declared: declare(b),
                name: "x",
            })
        };
        assert_eq!(run(Bound::range("x", lo, hi)).ok(), Some(1));
        let odd: &'static [i128] = Box::leak(Box::new([lo + 1]));
        for (b, point) in [
            (Bound::range("x", lo - 1, hi), false),
            (Bound::range("x", lo, hi + 1), false),
            (
                Bound {
                    name: "x",
                    min: lo,
                    max: hi,
                    points: odd,
                },
                true,
            ),
        ] {
            match run(b) {
                Err(Error::CornersNotReached { missing, .. }) => match missing.as_slice() {
                    [Corner::Point { .. }] if point => {}
                    [Corner::Range { .. }] if !point => {}
                    other => panic!("{b:?}: reported {other:?}"),
                },
                other => panic!("{b:?}: an unreached corner passed: {other:?}"),
            }
        }
    }

    /// A pair none of whose cases applies is no evidence, not agreement.
    #[test]
    fn nothing_compared_is_no_evidence() {
        let e = default_run(&NeverApplies).expect_err("no case compared");
        assert!(
            matches!(
                e,
                Error::NoEvidence {
                    pair: "selftest/never-applies"
                }
            ),
            "{e:?}"
        );
    }

    /// A saved input that disagrees is reported with its file and line; an unreadable
    /// file is an I/O error with its path, not a pass.
    #[test]
    fn regressions_report_the_line_and_unreadable_files() {
        let dir = std::env::temp_dir().join(format!("refopt-testing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        crate::regressions::keep(&dir, BrokenPair.name(), &[0x01]).expect("kept");
        assert_eq!(regressions(&BrokenPair, &dir).ok(), Some(1));
        crate::regressions::keep(&dir, BrokenPair.name(), &[0x80]).expect("kept");
        let path = crate::regressions::file_for(&dir, BrokenPair.name());
        match regressions(&BrokenPair, &dir) {
            Err(Error::Regression { path: p, line, .. }) => {
                assert_eq!(p, path);
                let text = std::fs::read_to_string(&path).expect("readable");
                assert!(text.lines().nth(line - 1).is_some_and(|l| l.contains("80")));
            }
            other => panic!("the 0x80 input was not reported: {other:?}"),
        }
        std::fs::write(&path, "not hex\n").expect("written");
        let e = regressions(&BrokenPair, &dir).expect_err("not hex");
        assert!(matches!(e, Error::Unreadable { .. }));
        let shown = e.to_string();
        assert_eq!(
            shown.matches(&*path.display().to_string()).count(),
            1,
            "{shown}"
        );
        assert!(shown.contains("line 1: "), "{shown}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
