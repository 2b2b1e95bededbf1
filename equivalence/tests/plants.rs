//! Every planted bug listed in `reference::plant::ALL` is planted somewhere in the
//! workspace's code (`plant::active("<name>")`: the shipped crates, or for a fault in
//! a proof's own model the proof in `equivalence`), exactly once per name.

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).expect("readable source directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().and_then(|e| e.to_str()) == Some("rs") {
            let text = std::fs::read_to_string(&p).expect("readable source");
            // Without whitespace, so a call rustfmt split over lines still matches.
            let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            out.push((p.display().to_string(), text));
        }
    }
}

#[test]
fn every_listed_plant_is_planted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for d in ["reference/src", "optimized/src", "equivalence/src"] {
        sources(&root.join(d), &mut files);
    }
    let all = reference::plant::ALL;
    assert!(all.iter().filter(|p| p.caught_by == "zoo").count() >= 15);
    for p in all {
        let site = format!("active(\"{}\"", p.name);
        let hits: Vec<&str> = files
            .iter()
            .filter(|(name, text)| !name.ends_with("plant.rs") && text.contains(&site))
            .map(|(name, _)| name.as_str())
            .collect();
        assert!(!hits.is_empty(), "{} is listed but planted nowhere", p.name);
        assert_eq!(
            all.iter().filter(|q| q.name == p.name).count(),
            1,
            "{} is listed twice",
            p.name
        );
    }
}

/// Every plant of a mechanism that a CI script runs by name (the constant-time
/// checks, the fuzzing and the benchmark gate) is named in that script: a plant added
/// to the list but to no script would be a self-test that never runs. (The bug zoo
/// and the proof ledger iterate `plant::ALL` themselves.)
#[test]
fn every_script_run_plant_is_in_its_script() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The script's commands: comment lines do not run anything.
    let script = |name: &str| {
        std::fs::read_to_string(root.join(".ci").join(name))
            .expect("readable CI script")
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (ct, fuzz, bench) = (script("ct.sh"), script("fuzz.sh"), script("bench.sh"));
    let mut checked = 0;
    for p in reference::plant::ALL {
        let text = match p.caught_by.split_whitespace().next() {
            Some("ctgrind" | "divscan") => &ct,
            Some("fuzz") => &fuzz,
            Some("bench") => &bench,
            _ => continue,
        };
        // As a whole word: `sntrup761-x` must not pass because `sntrup761-x-y` is named.
        let named = text.match_indices(p.name).any(|(i, _)| {
            let after = text[i + p.name.len()..].chars().next();
            !matches!(after, Some(c) if c.is_ascii_alphanumeric() || c == '-')
        });
        assert!(named, "{} ({}) is run by no CI script", p.name, p.caught_by);
        checked += 1;
    }
    // Eight memcheck plants (two since 2026-12-05), one of refopt-ctgrind's own
    // asserts, one division, twenty-six fuzzing (four, one per parser target that
    // had none since 2026-12-04; mlkem_decaps' rejection-key check since 2026-12-05;
    // and since 2026-12-05 also the ML-KEM key checks and Ed25519's changed-signature
    // check, five; the sntrup761 and NTRU rejection-key checks, two; the decoder
    // targets' range, sum and round-trip checks, seven), two benchmark.
    assert_eq!(checked, 38, "plants run by CI scripts");
}
