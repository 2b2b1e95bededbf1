//! Property tests over the whole pair registry: for arbitrary input bytes (proptest
//! shrinks a failure to a minimal input), every pair's two sides agree, or the pair
//! says which declared precondition the input violates.

use equivalence::pair::{Level, Outcome, Pair};
use equivalence::registry;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn run_pair(pair: &dyn Pair, cases: u32) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(
        &proptest::collection::vec(any::<u8>(), 0..pair.input_len().min(4096) + 1),
        |input| match pair.run(&input) {
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
    );
    if let Err(e) = result {
        panic!("{}: {e}", pair.name());
    }
}

#[test]
fn kernel_pairs_agree_on_arbitrary_inputs() {
    let pairs: Vec<_> = registry::pairs()
        .into_iter()
        .filter(|p| p.level() == Level::Kernel)
        .collect();
    assert!(!pairs.is_empty());
    for p in pairs {
        run_pair(p, 512);
    }
}

#[test]
fn api_pairs_agree_on_arbitrary_inputs() {
    let pairs: Vec<_> = registry::pairs()
        .into_iter()
        .filter(|p| p.level() == Level::Api)
        .collect();
    assert!(!pairs.is_empty());
    for p in pairs {
        run_pair(p, p.default_cases().min(48) as u32);
    }
}

/// The ML-KEM kernel pair must see every rank and every extreme pattern: the
/// selector byte enumerates (k, pattern), and all of them agree (inputs shorter than
/// a case read zeros past their end).
#[test]
fn mlkem_encrypt_u_every_rank_and_pattern() {
    let pair = registry::pairs()
        .into_iter()
        .find(|p| p.name() == "ml-kem/encrypt-u")
        .expect("registered");
    for selector in 0..=255u8 {
        for salt in 0..4u8 {
            let out = pair.run(&[selector, salt]);
            assert!(out.is_equal(), "selector {selector} salt {salt}: {out:?}");
        }
    }
}
