//! The `refopt` binary end to end: the lab run, its failure path, and KAT files.

use std::process::Command;

use equivalence::kat::{PUBLISHED, PublishedKat};
use equivalence::vectors;

fn sha256_hex(s: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(s.as_bytes()))
}

fn published(scheme: &str, variant: &str) -> &'static PublishedKat {
    PUBLISHED
        .iter()
        .find(|p| p.scheme == scheme && p.variants.contains(&variant))
        .expect("a published hash")
}

/// Checks a `refopt kat` response file against the published hashes: entry 0 and,
/// where published, all 100 entries (the body without the header and last blank line).
fn check_published(scheme: &str, variant: &str, text: &str, header: &str) {
    let p = published(scheme, variant);
    let body = &text[header.len()..];
    let first = body.split_terminator("\n\n").next().expect("an entry");
    assert_eq!(
        sha256_hex(&format!("{first}\n")),
        p.count0_sha256,
        "{scheme} {variant}: count 0"
    );
    if let Some(all) = p.all_sha256 {
        let all_entries = body.strip_suffix('\n').expect("ends with a blank line");
        assert_eq!(
            sha256_hex(all_entries),
            all,
            "{scheme} {variant}: 100 entries"
        );
    }
}

fn refopt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_refopt"))
}

#[test]
fn lab_run_prints_a_table_and_succeeds() {
    let out = refopt()
        .args(["check", "--cases", "20", "--no-keep", "--pair", "ml-kem"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in [
        "ml-kem/encrypt-u",
        "ml-kem-512",
        "ml-kem-768",
        "ml-kem-1024",
    ] {
        assert!(
            stdout.contains(&format!("| {name} ")),
            "{name} missing from\n{stdout}"
        );
    }
    assert!(stdout.contains("all 4 pairs agree"), "{stdout}");
}

#[test]
fn a_mismatch_fails_with_a_reproducer_and_is_kept() {
    let dir = std::env::temp_dir().join(format!("refopt-regr-{}", std::process::id()));
    let out = refopt()
        .env(equivalence::registry::BROKEN_PAIR_ENV, "1")
        .args([
            "check",
            "--cases",
            "64",
            "--pair",
            "selftest/",
            "--regressions",
        ])
        .arg(&dir)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success(),
        "a mismatch must fail the run:\n{stdout}"
    );
    assert!(stdout.contains("MISMATCH in selftest/broken"), "{stdout}");
    assert!(stdout.contains("differs first at byte"), "{stdout}");
    let repro = stdout
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("reproduce: refopt replay selftest/broken ")
        })
        .expect("a reproducer line");
    let kept = std::fs::read_to_string(dir.join("selftest__broken.txt")).expect("kept");
    assert_eq!(kept.trim(), repro.trim());
    let replay = refopt()
        .env(equivalence::registry::BROKEN_PAIR_ENV, "1")
        .args(["replay", "selftest/broken", repro.trim()])
        .output()
        .expect("runs");
    assert!(!replay.status.success(), "the reproducer reproduces");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The full response file: header, 100 entries each followed by a blank line, and
/// the published hashes of entry 0 and of all entries.
#[test]
fn kat_file_has_the_nist_driver_format() {
    for variant in ["reference", "optimized"] {
        let out = refopt()
            .args(["kat", "ml-kem-768", "--variant", variant])
            .output()
            .expect("runs");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(text.starts_with("# ML-KEM-768\n\ncount = 0\n"));
        let entries: Vec<&str> = text["# ML-KEM-768\n\n".len()..]
            .split_terminator("\n\n")
            .collect();
        assert_eq!(entries.len(), 100);
        assert!(text.ends_with("\n\n"));
        for (i, e) in entries.iter().enumerate() {
            let keys: Vec<&str> = e
                .lines()
                .map(|l| l.split(" = ").next().unwrap_or(""))
                .collect();
            assert_eq!(keys, ["count", "seed", "pk", "sk", "ct", "ss"], "entry {i}");
            assert!(e.starts_with(&format!("count = {i}\n")));
        }
        check_published("ml-kem-768", variant, &text, "# ML-KEM-768\n\n");
    }
}

#[test]
fn unknown_scheme_or_variant_is_a_usage_error() {
    let out = refopt().args(["kat", "ml-kem-999"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown scheme"));
    let out = refopt()
        .args(["kat", "ml-kem-512", "--variant", "fast"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
}

/// `refopt kat sntrup761`: the reference reproduces the per-coefficient (urandom32)
/// entry, the batched variants the bulk file.
#[test]
fn sntrup761_kat_variants_follow_their_conventions() {
    for variant in ["reference", "batched-rng", "optimized"] {
        let out = refopt()
            .args(["kat", "sntrup761", "--variant", variant])
            .output()
            .expect("runs");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(text.starts_with("# sntrup761\n\ncount = 0\n"), "{variant}");
        check_published("sntrup761", variant, &text, "# sntrup761\n\n");
    }
}

/// Under NIST's DRBG a per-coefficient and a batched variant differ on every input by
/// construction: the pair compares nothing, so `check` reports no evidence, names the
/// precondition with its count, and fails unless told to accept it.
#[test]
fn a_pair_that_compared_nothing_is_no_evidence() {
    let pair = "sntrup761/reference-vs-optimized/nist-drbg";
    let out = refopt()
        .args(["check", "--cases", "2", "--no-keep", "--pair", pair])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("no evidence"), "{stdout}");
    assert!(
        stdout.contains("precondition not met: call-boundary-invariant-rng in 2 of 2 cases"),
        "{stdout}"
    );
    assert!(!stdout.contains("all 1 pairs agree"), "{stdout}");
    let out = refopt()
        .args([
            "check",
            "--cases",
            "2",
            "--no-keep",
            "--allow-no-evidence",
            "--pair",
            pair,
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    // Not in the default run: it can never be evidence.
    let list = refopt().arg("list").output().expect("runs");
    let list = String::from_utf8_lossy(&list.stdout);
    let line = list.lines().find(|l| l.contains(pair)).expect("listed");
    assert!(line.contains("not in the default run"), "{line}");
}

/// `check --json` prints one JSON document with per-pair counts and verdicts.
#[test]
fn check_json_parses_and_carries_the_counts() {
    let out = refopt()
        .args([
            "check",
            "--json",
            "--no-keep",
            "--cases",
            "3",
            "--pair",
            "ed25519/addm",
            "--pair",
            "sntrup761/reference-vs-optimized/nist-drbg",
        ])
        .output()
        .expect("runs");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(doc["failed"], true);
    let pairs = doc["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 2);
    let addm = pairs
        .iter()
        .find(|p| p["name"] == "ed25519/addm")
        .expect("addm");
    assert_eq!(addm["verdict"], "agree");
    assert_eq!(addm["compared"], 3);
    assert!(
        addm["reference"]
            .as_str()
            .is_some_and(|s| s.contains("reference::ed25519"))
    );
    let drbg = pairs
        .iter()
        .find(|p| p["verdict"] == "no-evidence")
        .expect("no-evidence pair");
    assert_eq!(
        drbg["preconditions_not_met"]["call-boundary-invariant-rng"],
        3
    );
    assert_eq!(drbg["compared"], 0);
}

/// `refopt list` names the two functions each pair compares.
#[test]
fn list_names_both_sides_of_every_pair() {
    let out = refopt().arg("list").output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for p in equivalence::registry::pairs() {
        let at = text.find(&format!("  {} ", p.name())).expect("listed");
        let block = &text[at..];
        assert!(block.contains(p.sides().reference), "{}", p.name());
        assert!(block.contains(p.sides().optimized), "{}", p.name());
    }
}

/// Reading ends early: `head` closes the pipe. No panic, no message, exit status 141.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    for args in [
        vec!["list"],
        vec![
            "check",
            "--cases",
            "2",
            "--no-keep",
            "--pair",
            "ed25519/addm",
        ],
        vec!["kat", "ml-kem-512"],
    ] {
        // A pipe whose read end is closed before the child starts: every write fails
        // with EPIPE, however fast the child is.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = refopt()
            .args(&args)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
    }
}

/// A full disk is an error message and exit status 1, not a panic.
#[test]
fn a_write_error_is_a_message_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        panic!("/dev/full is needed to simulate a full disk");
    };
    let out = refopt().arg("list").stdout(full).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("refopt:") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

/// `--cases` is bounded and `--time-budget` stops the run.
#[test]
fn cases_are_bounded_and_a_time_budget_stops_the_run() {
    let out = refopt()
        .args(["check", "--cases", "18446744073709551615"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time-budget"));
    let started = std::time::Instant::now();
    let out = refopt()
        .args([
            "check",
            "--json",
            "--no-keep",
            "--cases",
            "100000000",
            "--time-budget",
            "2s",
            "--pair",
            "sntrup761/rq-mult-small",
        ])
        .output()
        .expect("runs");
    assert!(
        started.elapsed().as_secs() < 30,
        "the budget was not honoured"
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cases = doc["pairs"][0]["cases"].as_u64().expect("cases");
    assert!(cases > 0 && cases < 100_000_000, "{cases}");
    assert!(out.status.success());
}

/// `replay` reads its input from the argument, a file (one input a line) or stdin,
/// and names what is wrong with bad hex.
#[test]
fn replay_reads_argument_file_and_stdin() {
    use std::io::Write;
    use std::process::Stdio;
    let input = hex::encode(equivalence::registry::case_input(
        0,
        equivalence::registry::pairs()
            .into_iter()
            .find(|p| p.name() == "ed25519/mulm")
            .expect("registered"),
        3,
    ));
    let out = refopt()
        .args(["replay", "ed25519/mulm", &input])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let file = std::env::temp_dir().join(format!("refopt-replay-{}.txt", std::process::id()));
    std::fs::write(&file, format!("# two inputs\n{input}\n\n{input}\n")).expect("writable");
    let out = refopt()
        .args(["replay", "ed25519/mulm", "--file"])
        .arg(&file)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(stdout.matches(": equal").count(), 2, "{stdout}");
    let _ = std::fs::remove_file(&file);
    let mut child = refopt()
        .args(["replay", "ed25519/mulm", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawns");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("writable");
    assert!(child.wait_with_output().expect("runs").status.success());
    let out = refopt()
        .args(["replay", "ed25519/mulm", "abc"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("odd number of hex digits"));
    let out = refopt()
        .args(["replay", "ed25519/mulm", "0g"])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a hex digit"));
}

/// The default regressions directory is found at run time: outside a refopt
/// workspace it is ./regressions of the current directory, never a path of the build
/// machine.
#[test]
fn the_regressions_directory_is_found_at_run_time() {
    let dir = std::env::temp_dir().join(format!("refopt-cwd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("writable");
    let out = refopt()
        .current_dir(&dir)
        .env(equivalence::registry::BROKEN_PAIR_ENV, "1")
        .env_remove("REFOPT_REGRESSIONS")
        .args(["check", "--cases", "300", "--pair", "selftest/broken"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(dir.join("regressions/selftest__broken.txt").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `refopt vectors ed25519 FILE`: the 128 sign.input lines pass for both variants; a
/// corrupted line stops the run there, named.
#[test]
fn ed25519_vectors_command() {
    let Some(files) = vectors::suite("ed25519-sign-input") else {
        return;
    };
    let path = files.path("ed25519/dalek_TESTVECTORS_sign.input.txt");
    for variant in ["reference", "optimized"] {
        let out = refopt()
            .args(["vectors", "ed25519"])
            .arg(&path)
            .args(["--variant", variant])
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("128 lines ok"), "{stdout}");
    }
    // Flip one signature byte on line 5.
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let fields: Vec<&str> = lines[4].split(':').collect();
    let mut sig = fields[3].to_owned();
    let flipped = if sig.starts_with('0') { "1" } else { "0" };
    sig.replace_range(0..1, flipped);
    lines[4] = [fields[0], fields[1], fields[2], &sig, ""].join(":");
    let bad = std::env::temp_dir().join(format!("refopt-sign-{}.input", std::process::id()));
    std::fs::write(&bad, lines.join("\n") + "\n").expect("writable");
    let out = refopt()
        .args(["vectors", "ed25519"])
        .arg(&bad)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("line 5"), "{stderr}");
    assert!(out.stdout.is_empty(), "errors go to stderr");
    let _ = std::fs::remove_file(&bad);
}

/// `refopt kat ntruhps2048509`: every variant writes the NIST driver's format and
/// reproduces the published hashes.
#[test]
fn ntruhps2048509_kat_every_variant() {
    for variant in ["reference", "before", "optimized", "optimized-portable"] {
        let out = refopt()
            .args(["kat", "ntruhps2048509", "--variant", variant])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{variant}");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(
            text.starts_with("# ntruhps2048509\n\ncount = 0\n"),
            "{variant}"
        );
        let entries: Vec<&str> = text["# ntruhps2048509\n\n".len()..]
            .split_terminator("\n\n")
            .collect();
        assert_eq!(entries.len(), 100, "{variant}");
        check_published("ntruhps2048509", variant, &text, "# ntruhps2048509\n\n");
    }
}

/// A sign.input file with RFC 8032's vectors (made here from the repository's facts),
/// for tests that do not need the fetched file.
fn rfc8032_sign_input() -> String {
    let mut text = String::new();
    for v in &equivalence::ed25519::RFC8032 {
        text.push_str(&format!(
            "{}{}:{}:{}:{}{}:\n",
            v.secret_key, v.public_key, v.public_key, v.message, v.signature, v.message
        ));
    }
    text
}

/// `vectors` rejects extra fields and names the line of every error, I/O errors
/// included.
#[test]
fn vectors_names_the_line_of_every_error() {
    let dir = std::env::temp_dir().join(format!("refopt-vec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("writable");
    let good = dir.join("good.input");
    std::fs::write(&good, rfc8032_sign_input()).expect("writable");
    let out = refopt()
        .args(["vectors", "ed25519"])
        .arg(&good)
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("5 lines ok"));
    // An extra field on line 3.
    let mut lines: Vec<String> = rfc8032_sign_input().lines().map(str::to_owned).collect();
    lines[2].push_str("00:");
    let bad = dir.join("extra.input");
    std::fs::write(&bad, lines.join("\n")).expect("writable");
    let out = refopt()
        .args(["vectors", "ed25519"])
        .arg(&bad)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("line 3") && stderr.contains("fields"),
        "{stderr}"
    );
    // A read error (a directory) is named at the line being read, not "line 0".
    let out = refopt()
        .args(["vectors", "ed25519"])
        .arg(&dir)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("line 1: read error"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Peak resident memory of `refopt` on a 200 MB `sign.input` file: the file is
/// streamed, so the peak stays far below the file (limit 50 MB). The file holds long
/// messages (about 250 KB each) signed here with the reference signer.
#[test]
fn vectors_streams_a_200_mb_file_in_constant_memory() {
    use equivalence::ed25519::Variant;
    use std::io::Write;
    let path = std::env::temp_dir().join(format!("refopt-200mb-{}.input", std::process::id()));
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("writable"));
    let mut written = 0usize;
    let mut i = 0u32;
    while written < 200_000_000 {
        let seed: [u8; 32] = core::array::from_fn(|j| (j as u32 ^ i) as u8);
        let key = Variant::Reference.keygen(&seed).expect("32 bytes");
        let msg: Vec<u8> = (0..250_000u32)
            .map(|j| (j.wrapping_mul(31) ^ i) as u8)
            .collect();
        let sig = Variant::Reference.sign(&key, &msg);
        let pk = hex::encode(key.public_key());
        let m = hex::encode(&msg);
        let line = format!(
            "{}{pk}:{pk}:{m}:{}{m}:\n",
            hex::encode(seed),
            hex::encode(sig)
        );
        f.write_all(line.as_bytes()).expect("writable");
        written += line.len();
        i += 1;
    }
    f.flush().expect("writable");
    drop(f);
    let out = refopt()
        .env("REFOPT_REPORT_PEAK_RSS", "1")
        .args(["vectors", "ed25519"])
        .arg(&path)
        .output()
        .expect("runs");
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains(&format!("{i} lines ok")), "{stdout}");
    let kib: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak RSS: "))
        .and_then(|v| v.trim_end_matches(" kB").trim().parse().ok())
        .expect("the peak RSS line");
    vectors::note(&format!(
        "vectors: a {written}-byte sign.input file ({i} lines) checked with a peak RSS of {kib} kB"
    ));
    assert!(kib < 50 * 1024, "peak RSS {kib} kB");
}

mod parsers {
    use super::refopt;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Random arguments: an error message and a non-zero exit, or success — never
        /// a panic.
        #[test]
        fn random_arguments_never_panic(args in proptest::collection::vec(
            prop_oneof![
                Just("check".to_owned()), Just("replay".to_owned()), Just("vectors".to_owned()),
                Just("kat".to_owned()), Just("list".to_owned()), Just("--cases".to_owned()),
                Just("--pair".to_owned()), Just("--time-budget".to_owned()), Just("--json".to_owned()),
                Just("--file".to_owned()), Just("ed25519".to_owned()), Just("-".to_owned()),
                "[ -~]{0,12}",
            ], 0..5)) {
            // No arguments is the full default run; any `check` gets a 1 s budget.
            prop_assume!(!args.is_empty());
            let out = refopt()
                .args(&args)
                .env("REFOPT_REGRESSIONS", std::env::temp_dir().join("refopt-prop-regr"))
                .args(["--time-budget", "1s"].iter().filter(|_| args.first().is_some_and(|a| a == "check")))
                .stdin(std::process::Stdio::null())
                .output()
                .expect("runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            prop_assert!(out.status.code().is_some(), "{args:?}: killed by a signal");
            if !out.status.success() {
                prop_assert!(!stderr.trim().is_empty() || !out.stdout.is_empty(), "{args:?}: failed silently");
            }
        }

        /// Random sign.input files and replay inputs: a message naming the line and a
        /// non-zero exit, never a panic.
        #[test]
        fn random_files_never_panic(text in "([0-9a-f:]{0,200}\n?){0,6}", bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let path = std::env::temp_dir().join(format!("refopt-prop-{}-{}.txt", std::process::id(), text.len()));
            std::fs::write(&path, &text).expect("writable");
            let out = refopt().args(["vectors", "ed25519"]).arg(&path).output().expect("runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert!(!stderr.contains("panicked"), "{stderr}");
            prop_assert!(!out.status.success() && stderr.contains("line"), "{text:?}: {stderr}");
            std::fs::write(&path, &bytes).expect("writable");
            for pair in ["ed25519/mulm", "ml-kem/encrypt-u"] {
                let out = refopt().args(["replay", pair, "--file"]).arg(&path).output().expect("runs");
                let stderr = String::from_utf8_lossy(&out.stderr);
                prop_assert!(!stderr.contains("panicked"), "{stderr}");
            }
            let _ = std::fs::remove_file(&path);
        }
    }
}
