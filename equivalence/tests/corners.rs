//! Corner coverage by construction: the default run's case stream (the inputs
//! `refopt` checks with seed 0 and each pair's default number of cases) reaches the
//! minimum, the maximum and every declared corner point of each [`Bound`] that a pair
//! declares, for every kernel pair (`equivalence::testing::corners`).

use equivalence::pair::{Bound, Input, Level, Outcome, Pair, Sides};
use equivalence::registry;
use equivalence::testing::{Corner, corners, coverage};
use equivalence::vectors::note;

#[test]
fn default_run_reaches_every_declared_bound() {
    // Kernel pairs without numeric bounds, and why.
    const UNBOUNDED: [(&str, &str); 3] = [
        (
            "keccak-f1600-x4",
            "a permutation of any 1600-bit state: no range, no accumulator",
        ),
        (
            "sntrup761/short-random",
            "the input is a random source's seed",
        ),
        (
            "sntrup761/small-random",
            "the input is a random source's seed",
        ),
    ];
    let mut checked = 0;
    let mut missing = Vec::new();
    for pair in registry::pairs() {
        if pair.level() == Level::Kernel && !UNBOUNDED.iter().any(|(n, _)| *n == pair.name()) {
            assert!(
                !pair.bounds().is_empty(),
                "{}: a kernel pair declares no bounds",
                pair.name()
            );
        }
        match corners(pair) {
            Ok(n) => checked += n,
            Err(e) => missing.push(e.to_string()),
        }
    }
    assert!(
        missing.is_empty(),
        "corners not reached:\n{}",
        missing.join("\n")
    );
    note(&format!(
        "corners: {checked} declared bounds reached at both ends and at every declared point by the default run"
    ));
}

/// The check can fail: a bound wider than the generator reaches is reported.
#[test]
fn an_unreached_bound_is_reported() {
    struct Narrow;
    impl Pair for Narrow {
        fn name(&self) -> &'static str {
            "selftest/narrow"
        }
        fn level(&self) -> Level {
            Level::Kernel
        }
        fn sides(&self) -> Sides {
            Sides::new("a", "b")
        }
        fn bounds(&self) -> &'static [Bound] {
            const B: &[Bound] = &[Bound::with_points("x", 0, 300, &[7])];
            B
        }
        fn default_cases(&self) -> usize {
            100
        }
        fn run(&self, _: &[u8]) -> Outcome {
            Outcome::Equal
        }
        fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
            // Only ever 0..=255: the declared maximum 300 is out of reach.
            seen("x", i128::from(Input::new(input).u8()));
        }
    }
    let c = coverage(&Narrow);
    assert!(c[0].1.is_some_and(|(_, hi)| hi < 300));
    let missing = match corners(&Narrow) {
        Err(equivalence::testing::Error::CornersNotReached { pair, missing }) => {
            assert_eq!(pair, "selftest/narrow");
            missing
        }
        other => panic!("the maximum is not reached, yet corners gave {other:?}"),
    };
    assert!(
        missing.iter().any(|m| matches!(
            m,
            Corner::Range {
                bound: "x",
                min: 0,
                max: 300,
                reached: Some((_, hi)),
            } if *hi < 300
        )),
        "{missing:?}"
    );
    assert!(
        missing
            .iter()
            .any(|m| m.to_string().contains("declared [0, 300]")),
        "{missing:?}"
    );
}
