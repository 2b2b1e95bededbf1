//! Corner coverage by construction: the default run's case stream (the inputs
//! `refopt` checks with seed 0 and each pair's default number of cases) reaches the
//! minimum, the maximum and every declared corner point of each [`Bound`] that a pair
//! declares, for every kernel pair.

use std::collections::BTreeMap;

use equivalence::pair::{Bound, Level};
use equivalence::registry::{self, case_input};
use equivalence::vectors::note;

/// A declared bound, the extremes the default run reached (if any) and the declared
/// points it hit.
type Reached = (Bound, Option<(i128, i128)>, Vec<i128>);

/// Observed extremes and hit points of each bound of `pair` over its default run.
fn coverage(pair: &dyn equivalence::pair::Pair) -> Vec<Reached> {
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

#[test]
fn default_run_reaches_every_declared_bound() {
    let mut checked = 0;
    let mut missing = Vec::new();
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
    for pair in registry::pairs() {
        if pair.level() == Level::Kernel && !UNBOUNDED.iter().any(|(n, _)| *n == pair.name()) {
            assert!(
                !pair.bounds().is_empty(),
                "{}: a kernel pair declares no bounds",
                pair.name()
            );
        }
        for (b, range, points) in coverage(pair) {
            checked += 1;
            match range {
                Some((lo, hi)) if lo == b.min && hi == b.max => {}
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
    use equivalence::pair::{Input, Outcome, Pair, Sides};
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
    let (_, range, points) = &c[0];
    assert!(range.is_some_and(|(_, hi)| hi < 300));
    assert!(points.len() <= 1);
}
