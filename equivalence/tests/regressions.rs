//! Replays every saved regression input (equivalence/regressions/*.txt).

use equivalence::registry::{self, Outcome};

#[test]
fn saved_regressions_agree() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let pairs = registry::pairs();
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).expect("regressions directory exists") {
        let path = entry.expect("readable directory").path();
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let name = stem.replace("__", "/");
        let pair = pairs
            .iter()
            .find(|p| p.name() == name)
            .unwrap_or_else(|| panic!("{}: no pair named {name}", path.display()));
        let text = std::fs::read_to_string(&path).expect("readable file");
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let input = hex::decode(line.trim()).expect("hex input");
            match pair.run(&input) {
                Outcome::Mismatch(m) => panic!("{}:{}: {m}", path.display(), i + 1),
                Outcome::Equal | Outcome::PreconditionNotMet { .. } => replayed += 1,
            }
        }
    }
    eprintln!("replayed {replayed} saved regression inputs");
}

/// The registry's names are unique, so a saved file maps to exactly one pair.
#[test]
fn pair_names_are_unique() {
    let mut names: Vec<_> = registry::pairs().iter().map(|p| p.name()).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n);
    assert!(n >= 4, "the registry lists the ML-KEM pairs at least");
}
