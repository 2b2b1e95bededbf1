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
        .args(["check", "--cases", "20", "--pair", "ml-kem"])
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

/// Under NIST's DRBG the lab reports the call-boundary precondition by name instead of
/// a bare mismatch, and the run still succeeds.
#[test]
fn precondition_not_met_is_reported_by_name() {
    let out = refopt()
        .args([
            "check",
            "--cases",
            "2",
            "--pair",
            "sntrup761/reference-vs-optimized/nist-drbg",
        ])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("precondition not met: call-boundary-invariant-rng"),
        "{stdout}"
    );
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
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("line 5"), "{stdout}");
    let _ = std::fs::remove_file(&bad);
}

/// `refopt kat ntruhps2048509`: every variant writes the NIST driver's format and
/// reproduces the published hashes.
#[test]
fn ntruhps2048509_kat_every_variant() {
    for variant in [
        "reference",
        "before",
        "optimized",
        "optimized-portable",
        "optimized-pclmul",
    ] {
        let out = refopt()
            .args(["kat", "ntruhps2048509", "--variant", variant])
            .output()
            .expect("runs");
        if !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("unknown variant")
        {
            // optimized-pclmul is offered only where the CPU has PCLMULQDQ.
            assert_eq!(variant, "optimized-pclmul");
            continue;
        }
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
