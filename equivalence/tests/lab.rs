//! The default lab run, in-process: every pair of the default run with its default
//! number of cases and seed 0 — what `cargo run --release` checks — must agree with
//! evidence. cargo-mutants runs this test for every mutant (.cargo/mutants.toml), so it
//! stops at the first mismatch instead of finishing the run.

use equivalence::pair::Outcome;
use equivalence::registry;
use equivalence::vectors::note;

#[test]
fn default_run_agrees_with_evidence() {
    let mut pairs = 0;
    for pair in registry::pairs().into_iter().filter(|p| p.in_default_run()) {
        let mut equal = 0;
        for i in 0..pair.default_cases() {
            let input = registry::case_input(0, pair, i as u64);
            match registry::run_caught(pair, &input) {
                Outcome::Equal => equal += 1,
                Outcome::PreconditionNotMet { .. } => {}
                Outcome::Mismatch(m) => panic!(
                    "{}: case {i}: {m}\n  refopt replay {} {}",
                    pair.name(),
                    pair.name(),
                    hex::encode(&input)
                ),
            }
        }
        assert!(equal > 0, "{}: no evidence", pair.name());
        pairs += 1;
    }
    note(&format!("lab: the default run's {pairs} pairs agree"));
}
