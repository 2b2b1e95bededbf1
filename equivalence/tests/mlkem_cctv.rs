//! C2SP CCTV ML-KEM vectors (FIPS 203 final) and the libcrux invalid-dk keys, for
//! both variants.
//!
//! Fetched files (suites `mlkem-cctv` and `mlkem-invalid-dk`, docs/PROVENANCE.md):
//! mlkem/cctv/{unlucky-final,strcmp,modulus}/ and mlkem/invalid-dk/. Without them these
//! tests do not run (the `vector_suites` test names them).

mod mlkem_common;

use std::io::{BufRead, BufReader};

use equivalence::mlkem::Variant;
use equivalence::vectors::{self, Vectors};
use mlkem_common::{arr32, params, same};
use reference::Error;
use reference::mlkem::{self as r, Params};

const SETS: [&str; 3] = ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"];

/// A `name = hex` line file read as blocks of fields; a block ends at a blank line
/// or when a name repeats. Each field keeps its line number for messages.
fn blocks(files: &Vectors, rel: &str) -> Vec<Vec<(String, Vec<u8>, usize)>> {
    let text = files.read_to_string(rel);
    let mut out: Vec<Vec<(String, Vec<u8>, usize)>> = vec![Vec::new()];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            if out.last().is_some_and(|b| !b.is_empty()) {
                out.push(Vec::new());
            }
            continue;
        }
        let (name, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("{rel} line {}: not `name = hex`", i + 1));
        let name = name.trim().to_owned();
        let block = out.last_mut().expect("non-empty");
        if block.iter().any(|(n, _, _)| *n == name) {
            out.push(Vec::new());
        }
        let block = out.last_mut().expect("non-empty");
        block.push((name, vectors::unhex(value), i + 1));
    }
    out.retain(|b| !b.is_empty());
    assert!(!out.is_empty(), "{rel}: no vectors");
    out
}

/// The field `name` of a block and a context naming its line.
fn field<'a>(block: &'a [(String, Vec<u8>, usize)], name: &str, rel: &str) -> (&'a [u8], String) {
    let (_, v, line) = block
        .iter()
        .find(|(n, _, _)| n == name)
        .unwrap_or_else(|| panic!("{rel}: block has no field {name:?}"));
    (v, format!("{rel} line {line} ({name})"))
}

#[test]
fn cctv_unlucky() {
    let Some(files) = vectors::suite("mlkem-cctv") else {
        return;
    };
    let mut total = 0;
    for set in SETS {
        let p = params(set);
        let rel = format!("mlkem/cctv/unlucky-final/{set}.txt");
        let blocks = blocks(&files, &rel);
        for v in Variant::ALL {
            for b in &blocks {
                let f = |name: &str| {
                    let (bytes, ctx) = field(b, name, &rel);
                    (bytes, format!("{ctx} [{}]", v.name()))
                };
                let (d, ctx_d) = f("d");
                let (z, ctx_z) = f("z");
                let kp = v.keygen_internal(p, &arr32(d, "d", &ctx_d), &arr32(z, "z", &ctx_z));
                let (ek, ctx) = f("ek");
                same(kp.ek(), ek, "ek", &ctx);
                let (dk, ctx) = f("dk");
                same(kp.dk(), dk, "dk", &ctx);
                let (m, ctx_m) = f("m");
                let (c, k) = v
                    .encaps_internal(p, kp.ek(), &arr32(m, "m", &ctx_m))
                    .unwrap_or_else(|e| panic!("{ctx_m}: encaps failed: {e}"));
                let (want_c, ctx) = f("c");
                same(&c, want_c, "c", &ctx);
                let (want_k, ctx) = f("K");
                same(k.as_bytes(), want_k, "K", &ctx);
                let k2 = v
                    .decaps(p, kp.dk(), &c)
                    .unwrap_or_else(|e| panic!("{ctx}: decaps failed: {e}"));
                same(k2.as_bytes(), want_k, "K (decaps)", &ctx);
                total += 1;
            }
        }
    }
    assert_eq!(total, 6, "unlucky vectors run (3 sets x 2 variants)");
    files.checked(total, "CCTV unlucky vectors (set x variant)");
}

#[test]
fn cctv_strcmp() {
    let Some(files) = vectors::suite("mlkem-cctv") else {
        return;
    };
    let mut total = 0;
    for set in SETS {
        let p = params(set);
        let rel = format!("mlkem/cctv/strcmp/{set}.txt");
        let blocks = blocks(&files, &rel);
        for v in Variant::ALL {
            for b in &blocks {
                let (dk, _) = field(b, "dk", &rel);
                let (c, _) = field(b, "c", &rel);
                let (want_k, ctx) = field(b, "K", &rel);
                let ctx = format!("{ctx} [{}]", v.name());
                let k = v
                    .decaps(p, dk, c)
                    .unwrap_or_else(|e| panic!("{ctx}: decaps failed: {e}"));
                same(k.as_bytes(), want_k, "K", &ctx);
                total += 1;
            }
        }
    }
    assert_eq!(total, 6, "strcmp vectors run (3 sets x 2 variants)");
    files.checked(total, "CCTV strcmp vectors (set x variant)");
}

/// The keys of a gzip file with one hex key a line.
fn gz_lines(files: &Vectors, rel: &str) -> Vec<(usize, Vec<u8>)> {
    let path = files.path(rel);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    reader
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.unwrap_or_else(|e| panic!("{rel} line {}: {e}", i + 1));
            let line = line.trim();
            (!line.is_empty()).then(|| (i + 1, vectors::unhex(line)))
        })
        .collect()
}

fn modulus(set: &str, expected_keys: usize) {
    let Some(files) = vectors::suite("mlkem-cctv") else {
        return;
    };
    let p: &Params = params(set);
    let rel = format!("mlkem/cctv/modulus/{set}.txt.gz");
    let keys = gz_lines(&files, &rel);
    assert_eq!(keys.len(), expected_keys, "{rel}: number of keys");
    for (line, ek) in &keys {
        let ctx = format!("{rel} line {line}");
        assert_eq!(ek.len(), p.ek_len(), "{ctx}: key length");
        assert_eq!(
            r::check_encapsulation_key(p, ek),
            Err(Error::ModulusCheck),
            "{ctx}: check_encapsulation_key"
        );
        for v in Variant::ALL {
            assert_eq!(
                v.encaps_internal(p, ek, &[0xa5; 32]).map(|_| ()),
                Err(Error::ModulusCheck),
                "{ctx} [{}]: encaps_internal",
                v.name()
            );
        }
    }
    files.checked(keys.len(), &format!("CCTV {set} modulus keys"));
}

// The key counts are those of the files as published (PROVENANCE.md: CCTV modulus).
#[test]
fn cctv_modulus_512() {
    modulus("ML-KEM-512", 775);
}

#[test]
fn cctv_modulus_768() {
    modulus("ML-KEM-768", 780);
}

#[test]
fn cctv_modulus_1024() {
    modulus("ML-KEM-1024", 1040);
}

#[test]
fn invalid_dk() {
    let Some(files) = vectors::suite("mlkem-invalid-dk") else {
        return;
    };
    let mut total = 0;
    for set in SETS {
        let p = params(set);
        let rel = format!("mlkem/invalid-dk/{set}.txt");
        let text = files.read_to_string(&rel);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 2, "{rel}: expected two lines (dk, ciphertext)");
        let dk = vectors::unhex(lines[0]);
        let c = vectors::unhex(lines[1]);
        assert_eq!(dk.len(), p.dk_len(), "{rel} line 1: dk length");
        assert_eq!(c.len(), p.ct_len(), "{rel} line 2: ciphertext length");
        assert_eq!(
            r::check_decapsulation_key(p, &dk),
            Err(Error::HashCheck),
            "{rel} line 1: check_decapsulation_key"
        );
        for v in Variant::ALL {
            assert_eq!(
                v.decaps(p, &dk, &c),
                Err(Error::HashCheck),
                "{rel} [{}]: decaps",
                v.name()
            );
            total += 1;
        }
    }
    assert_eq!(total, 6, "invalid-dk cases run (3 sets x 2 variants)");
    files.checked(total, "invalid decapsulation keys (set x variant)");
}
