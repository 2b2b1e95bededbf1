//! Replays every committed regression input (equivalence/regressions/*.txt): the
//! inputs with which the lab caught the bug zoo (docs/bug-zoo.md). On the code that
//! ships each must agree; the bug-zoo CI step shows that each fails with its bug
//! planted.

use equivalence::pair::Outcome;
use equivalence::registry;
use equivalence::{regressions, vectors::note};

#[test]
fn saved_regressions_agree() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let pairs = registry::pairs();
    let mut replayed = 0;
    let files = regressions::read_dir(&dir).expect("the regression files are readable hex");
    for (path, name, cases) in &files {
        let pair = pairs
            .iter()
            .find(|p| p.name() == name)
            .unwrap_or_else(|| panic!("{}: no pair named {name}", path.display()));
        assert!(!cases.is_empty(), "{}: no input", path.display());
        for (line, input) in cases {
            match registry::run_caught(*pair, input) {
                Outcome::Equal => replayed += 1,
                other => panic!("{}:{line}: {other:?}", path.display()),
            }
        }
    }
    // The 17 committed when this line was written: a deleted file or line fails here,
    // not only in the bug-zoo step (each plant must fail some committed input).
    assert!(
        replayed >= 17,
        "expected the committed catching inputs (at least 17), found {replayed}"
    );
    note(&format!(
        "regressions: {replayed} saved inputs in {} files replayed, all equal",
        files.len()
    ));
}
