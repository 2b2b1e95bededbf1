//! The default lab run, in-process: every pair of the default run with its default
//! number of cases and seed 0 — what `cargo run --release` checks — must agree with
//! evidence. cargo-mutants runs this test (with the unit tests of the mutated crate)
//! for every mutant (.cargo/mutants.toml).

use equivalence::registry::{self, Verdict};
use equivalence::vectors::note;

#[test]
fn default_run_agrees_with_evidence() {
    let mut failures = Vec::new();
    let mut pairs = 0;
    for pair in registry::pairs().into_iter().filter(|p| p.in_default_run()) {
        let t = registry::check(pair, 0, pair.default_cases(), None, |_| {});
        match t.verdict() {
            Verdict::Agree => {}
            Verdict::NoEvidence => failures.push(format!("{}: no evidence", pair.name())),
            Verdict::Mismatch => {
                let (case, input, m) = t.first_mismatch.expect("a mismatch");
                failures.push(format!(
                    "{}: case {case}: {m}\n  refopt replay {} {}",
                    pair.name(),
                    pair.name(),
                    hex::encode(input)
                ));
            }
        }
        pairs += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    note(&format!("lab: the default run's {pairs} pairs agree"));
}
