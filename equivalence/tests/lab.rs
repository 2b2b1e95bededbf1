//! The default lab run, in-process: every pair of the default run with its default
//! number of cases and seed 0 — what `cargo run --release` checks — must agree with
//! evidence (`equivalence::testing::default_run`, which stops at the first mismatch).
//! cargo-mutants runs this test for every mutant (.cargo/mutants.toml).

use equivalence::registry;
use equivalence::testing::default_run;
use equivalence::vectors::note;

#[test]
fn default_run_agrees_with_evidence() {
    let mut pairs = 0;
    for pair in registry::pairs().into_iter().filter(|p| p.in_default_run()) {
        default_run(pair).unwrap_or_else(|e| panic!("{e}"));
        pairs += 1;
    }
    assert!(
        pairs > 0,
        "the default run has no pair: nothing was checked"
    );
    note(&format!("lab: the default run's {pairs} pairs agree"));
}
