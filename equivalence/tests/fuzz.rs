//! The cargo-fuzz layout cannot rot: `fuzz/` lists exactly the library's targets
//! (`equivalence::fuzz::TARGETS`), `fuzz/targets.txt` (read by the campaign script,
//! `.ci/fuzz.sh` and `.clusterfuzzlite/build.sh`) is what `refopt fuzz list` prints,
//! every dictionary parses, the committed seeds are the edge seeds the library makes
//! and every one of them passes its target; parser regression inputs replay.

use std::path::{Path, PathBuf};

use equivalence::fuzz::{self, Kind, TARGETS, parsers, seeds};
use equivalence::regressions;
use equivalence::vectors::note;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn targets_txt_is_the_library_table() {
    let committed =
        std::fs::read_to_string(root().join("fuzz/targets.txt")).expect("fuzz/targets.txt");
    assert_eq!(
        committed,
        fuzz::table(),
        "fuzz/targets.txt is stale: regenerate it with `cargo run -p equivalence -- fuzz list > fuzz/targets.txt`"
    );
}

#[test]
fn the_fuzz_package_holds_exactly_the_targets() {
    let manifest =
        std::fs::read_to_string(root().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut bins: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|n| *n != "refopt-fuzz")
        .collect();
    bins.sort_unstable();
    let mut names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    names.sort_unstable();
    assert_eq!(
        bins, names,
        "fuzz/Cargo.toml [[bin]]s against equivalence::fuzz::TARGETS"
    );
    for t in TARGETS {
        let src = std::fs::read_to_string(root().join(format!("fuzz/fuzz_targets/{}.rs", t.name)))
            .unwrap_or_else(|e| panic!("fuzz/fuzz_targets/{}.rs: {e}", t.name));
        assert!(
            src.contains(&format!("equivalence::fuzz_builtin!(\"{}\");", t.name)),
            "{}: the target file does not drive its own name",
            t.name
        );
    }
}

#[test]
fn every_dictionary_parses() {
    for t in TARGETS {
        let path = root().join(format!("fuzz/dict/{}.dict", t.dict));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut entries = 0;
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let value = line.split_once('=').map_or(line, |(_, v)| v);
            assert!(
                value.len() >= 2 && value.starts_with('"') && value.ends_with('"'),
                "{} line {}: not a libFuzzer dictionary entry",
                path.display(),
                i + 1
            );
            entries += 1;
        }
        assert!(entries >= 4, "{}: {entries} entries", path.display());
    }
}

/// The committed seeds are exactly the library's edge seeds (a few KB), and each
/// passes its target on the code that ships.
#[test]
fn committed_seeds_are_the_edge_seeds_and_pass() {
    let mut files = 0;
    let mut bytes = 0;
    for t in TARGETS {
        let dir = root().join("fuzz/seeds").join(t.name);
        let mut committed: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| {
                let p = e.expect("entry").path();
                let name = p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .expect("name")
                    .to_owned();
                (name, std::fs::read(&p).expect("readable"))
            })
            .collect();
        committed.sort();
        let mut made = seeds::edge_seeds(t);
        made.sort();
        assert_eq!(
            committed, made,
            "fuzz/seeds/{} differs from the edge seeds: regenerate with `refopt fuzz seeds --edge-only fuzz/seeds`",
            t.name
        );
        for (name, s) in &committed {
            if let Err(report) = t.check(s) {
                panic!("seed {}/{name}: {report}", t.name);
            }
            files += 1;
            bytes += s.len();
        }
    }
    // 16 192 bytes of it are the six generated seeds (two key pairs with a
    // ciphertext, and again with it changed; two public keys with an
    // encapsulation's draw), 3 862 the decoder targets' all-ones inputs.
    assert!(
        bytes < 24576,
        "committed seeds are {bytes} bytes: keep them small"
    );
    note(&format!(
        "fuzz: {} targets, {files} committed seeds ({bytes} bytes), all pass",
        TARGETS.len()
    ));
}

/// Parser regression inputs (`equivalence/regressions/parsers/<target>.txt`, made by
/// `refopt fuzz keep`) replay clean; pair targets' crashes go to the pair files that
/// tests/regressions.rs replays.
#[test]
fn parser_regressions_replay() {
    let dir = root()
        .join("equivalence/regressions")
        .join(parsers::REGRESSIONS_SUBDIR);
    let files = if dir.is_dir() {
        regressions::read_dir(&dir).expect("readable hex")
    } else {
        Vec::new()
    };
    let mut n = 0;
    for (path, name, cases) in &files {
        let p = parsers::ALL
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("{}: no parser target {name}", path.display()));
        for (line, input) in cases {
            if let Err(e) = (p.check)(input) {
                panic!("{}:{line}: {e}", path.display());
            }
            n += 1;
        }
    }
    // The committed inputs (one per planted parser bug of 2026-12-04, and one harness
    // panic the smoke run found, regressions/parsers/): a replay of none would pass
    // whatever the parsers do.
    assert!(
        n >= 9,
        "only {n} parser regression inputs in {}",
        dir.display()
    );
    note(&format!("fuzz: {n} parser regression inputs replayed"));
}

/// `keep` routes a crash to the file the replay tests read: a multi-pair target's
/// input loses its pair-choosing byte and lands in its pair's file; a parser input in
/// parsers/<target>.txt. And a mismatching input is reported as still failing.
#[test]
fn keep_writes_replayable_regression_lines() {
    let dir = std::env::temp_dir().join(format!("refopt-fuzz-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let t = fuzz::target("ntru_rq_inv").expect("listed");
    let b = fuzz::selector_for(2, 3);
    let kept = fuzz::keep(&dir, t, &[b, 0x00, 0x01]).expect("writable");
    assert_eq!(
        kept.replays_through,
        "ntruhps2048509/rq-inv/optimized-portable"
    );
    assert_eq!(kept.finding, None);
    let (name, cases) = regressions::read_file(&kept.file).expect("readable");
    assert_eq!(name, "ntruhps2048509/rq-inv/optimized-portable");
    assert_eq!(cases, vec![(1, vec![0x00, 0x01])]);

    let p = fuzz::target("kat_response").expect("listed");
    let kept = fuzz::keep(&dir, p, b"count = 0\n").expect("writable");
    assert!(
        kept.file.ends_with("parsers/kat_response.txt"),
        "{}",
        kept.file.display()
    );
    let files = regressions::read_dir(&dir.join(parsers::REGRESSIONS_SUBDIR)).expect("readable");
    assert_eq!(files[0].1, "kat_response");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(matches!(p.kind, Kind::Parser(_)));
}

/// A fuzz target's check ([`equivalence::pair::Pair::run_fuzz`]: for the NTRU inverses,
/// the sntrup761 products, ML-KEM `encrypt_u` and sntrup761 `Short_random`, a cheaper
/// route to the same verdict) gives the verdict of
/// the full comparison ([`equivalence::pair::Pair::run`]) on the default run's inputs of
/// every kernel pair, one case per fourth selector value (every extreme pattern). The
/// planted-bug checks of `.ci/fuzz.sh` show the cheaper routes failing.
#[test]
fn fuzz_checks_give_the_run_verdict() {
    use equivalence::pair::{Level, Outcome};
    use equivalence::registry::{builtin, case_input};
    let verdict = |o: Outcome| match o {
        Outcome::Equal => Ok(None),
        Outcome::PreconditionNotMet { which, .. } => Ok(Some(which)),
        Outcome::Mismatch(m) => Err(m.to_string()),
    };
    let mut compared = 0;
    for pair in builtin().into_iter().filter(|p| p.level() == Level::Kernel) {
        for i in 0..64 {
            let input = case_input(0, pair, 4 * i);
            let run = verdict(pair.run(&input));
            let fuzz = verdict(pair.run_fuzz(&input));
            assert!(run.is_ok(), "{}: case {}: {run:?}", pair.name(), 4 * i);
            assert_eq!(fuzz, run, "{}: case {}", pair.name(), 4 * i);
            compared += usize::from(run == Ok(None));
        }
    }
    assert!(compared > 1000, "only {compared} cases compared");
}
