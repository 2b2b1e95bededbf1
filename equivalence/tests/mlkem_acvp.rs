//! NIST ACVP-Server FIPS 203 vectors (vsId 42) for both ML-KEM variants.
//!
//! Facts from outside the project: ../shared/vectors/mlkem/acvp/{keygen,encap-decap}/
//! `prompt.json` (inputs) and `expectedResults.json` (answers), matched by `tcId`; the
//! parameter set is a property of each prompt test group.

mod mlkem_common;

use std::collections::HashMap;

use equivalence::mlkem::Variant;
use mlkem_common::{arr32, array, hex, json, params, same, string, uint};
use reference::Error;
use reference::mlkem::{self as r, Params};
use serde_json::Value;

/// One prompt case with its group's parameter set and function, and its answer.
struct Case<'a> {
    tc_id: u64,
    params: &'static Params,
    function: &'a str,
    prompt: &'a Value,
    expected: &'a Value,
}

/// Pairs every prompt case with its expected result by `tcId`. Panics if a case has no
/// answer, an answer has no case, or a `tcId` repeats.
fn cases<'a>(prompt: &'a Value, expected: &'a Value, what: &str) -> Vec<Case<'a>> {
    let mut answers: HashMap<u64, &Value> = HashMap::new();
    for g in array(expected, "testGroups", what) {
        for t in array(g, "tests", what) {
            let id = uint(t, "tcId", what);
            assert!(
                answers.insert(id, t).is_none(),
                "{what}: tcId {id} appears twice in expectedResults.json"
            );
        }
    }
    let mut out = Vec::new();
    for g in array(prompt, "testGroups", what) {
        let tg = uint(g, "tgId", what);
        let ctx = format!("{what} tgId {tg}");
        let p = params(string(g, "parameterSet", &ctx));
        let function = g
            .get("function")
            .and_then(Value::as_str)
            .unwrap_or("keyGen");
        for t in array(g, "tests", &ctx) {
            let id = uint(t, "tcId", &ctx);
            let expected = answers
                .remove(&id)
                .unwrap_or_else(|| panic!("{ctx}: tcId {id} has no expected result"));
            out.push(Case {
                tc_id: id,
                params: p,
                function,
                prompt: t,
                expected,
            });
        }
    }
    assert!(
        answers.is_empty(),
        "{what}: expected results without a prompt: tcIds {:?}",
        answers.keys().collect::<Vec<_>>()
    );
    out
}

#[test]
fn acvp_keygen() {
    let Some(files) = equivalence::vectors::suite("mlkem-acvp") else {
        return;
    };
    let prompt = json(&files, "mlkem/acvp/keygen/prompt.json");
    let expected = json(&files, "mlkem/acvp/keygen/expectedResults.json");
    let cases = cases(&prompt, &expected, "ACVP keyGen");
    assert_eq!(cases.len(), 75, "ACVP keyGen: number of cases");
    for v in Variant::ALL {
        for c in &cases {
            let ctx = format!(
                "ACVP keyGen tcId {} ({}, {})",
                c.tc_id,
                c.params.name(),
                v.name()
            );
            let d = arr32(&hex(c.prompt, "d", &ctx), "d", &ctx);
            let z = arr32(&hex(c.prompt, "z", &ctx), "z", &ctx);
            let kp = v.keygen_internal(c.params, &d, &z);
            same(kp.ek(), &hex(c.expected, "ek", &ctx), "ek", &ctx);
            same(kp.dk(), &hex(c.expected, "dk", &ctx), "dk", &ctx);
        }
    }
    files.checked(cases.len(), "ACVP keyGen cases (x 2 variants)");
}

/// Runs every encapDecap case for one variant; returns the count per function.
fn encap_decap(v: Variant, cases: &[Case<'_>]) -> HashMap<String, (usize, usize)> {
    // function -> (cases, of which expected to fail)
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for c in cases {
        let p = c.params;
        let ctx = format!(
            "ACVP encapDecap tcId {} ({}, {}, {})",
            c.tc_id,
            c.function,
            p.name(),
            v.name()
        );
        let entry = counts.entry(c.function.to_owned()).or_default();
        entry.0 += 1;
        match c.function {
            "encapsulation" => {
                let ek = hex(c.prompt, "ek", &ctx);
                let m = arr32(&hex(c.prompt, "m", &ctx), "m", &ctx);
                let (ct, k) = v
                    .encaps_internal(p, &ek, &m)
                    .unwrap_or_else(|e| panic!("{ctx}: encaps_internal failed: {e}"));
                same(&ct, &hex(c.expected, "c", &ctx), "c", &ctx);
                same(k.as_bytes(), &hex(c.expected, "k", &ctx), "k", &ctx);
            }
            "decapsulation" => {
                let dk = hex(c.prompt, "dk", &ctx);
                let ct = hex(c.prompt, "c", &ctx);
                let k = v
                    .decaps(p, &dk, &ct)
                    .unwrap_or_else(|e| panic!("{ctx}: decaps failed: {e}"));
                same(k.as_bytes(), &hex(c.expected, "k", &ctx), "k", &ctx);
            }
            "encapsulationKeyCheck" | "decapsulationKeyCheck" => {
                let pass = c
                    .expected
                    .get("testPassed")
                    .and_then(Value::as_bool)
                    .unwrap_or_else(|| panic!("{ctx}: testPassed missing or not a bool"));
                if !pass {
                    entry.1 += 1;
                }
                key_check(v, c, pass, &ctx);
            }
            other => panic!("{ctx}: unknown function {other:?}"),
        }
    }
    counts
}

/// The error FIPS 203 input checking must give for a key that fails: the length
/// ("type") check first, then `content_error` (the modulus or hash check).
fn expected_error(what: &'static str, key: &[u8], len: usize, content_error: Error) -> Error {
    if key.len() == len {
        content_error
    } else {
        Error::InvalidLength {
            what,
            expected: len,
            got: key.len(),
        }
    }
}

/// A key check case: the check function, and the operation that uses the key, must
/// accept exactly the keys ACVP says pass, and reject the others with the FIPS 203
/// error for that check. (The failing encapsulation keys of this vector set are all
/// 416 bytes too long, so they are refused by the length check of section 7.2 before
/// the modulus check; the modulus check proper is covered by mlkem_cctv and
/// mlkem_wycheproof.)
fn key_check(v: Variant, c: &Case<'_>, pass: bool, ctx: &str) {
    let p = c.params;
    let (key, want, results) = if c.function == "encapsulationKeyCheck" {
        let ek = hex(c.prompt, "ek", ctx);
        let want = expected_error("encapsulation key", &ek, p.ek_len(), Error::ModulusCheck);
        let check = r::check_encapsulation_key(p, &ek);
        let enc = v.encaps_internal(p, &ek, &[0x5a; 32]).map(|_| ());
        (
            ek,
            want,
            [("check_encapsulation_key", check), ("encaps_internal", enc)],
        )
    } else {
        let dk = hex(c.prompt, "dk", ctx);
        let want = expected_error("decapsulation key", &dk, p.dk_len(), Error::HashCheck);
        let check = r::check_decapsulation_key(p, &dk);
        let ct = vec![0u8; p.ct_len()];
        let dec = v.decaps(p, &dk, &ct).map(|_| ());
        (
            dk,
            want,
            [("check_decapsulation_key", check), ("decaps", dec)],
        )
    };
    for (what, got) in results {
        if pass {
            assert_eq!(got, Ok(()), "{ctx}: {what} rejected a valid key");
        } else {
            assert_eq!(
                got,
                Err(want),
                "{ctx}: {what} must reject this {}-byte key",
                key.len()
            );
        }
    }
}

#[test]
fn acvp_encap_decap() {
    let Some(files) = equivalence::vectors::suite("mlkem-acvp") else {
        return;
    };
    let prompt = json(&files, "mlkem/acvp/encap-decap/prompt.json");
    let expected = json(&files, "mlkem/acvp/encap-decap/expectedResults.json");
    let cases = cases(&prompt, &expected, "ACVP encapDecap");
    for v in Variant::ALL {
        let counts = encap_decap(v, &cases);
        let get = |f: &str| counts.get(f).copied().unwrap_or_default();
        // The numbers PROVENANCE.md gives for this vector set.
        assert_eq!(
            get("encapsulation").0,
            75,
            "{}: encapsulation cases",
            v.name()
        );
        assert_eq!(
            get("decapsulation").0,
            30,
            "{}: decapsulation cases",
            v.name()
        );
        let ekc = get("encapsulationKeyCheck");
        let dkc = get("decapsulationKeyCheck");
        assert_eq!(ekc.0, 30, "{}: encapsulation-key checks", v.name());
        assert_eq!(dkc.0, 30, "{}: decapsulation-key checks", v.name());
        // Both outcomes must occur, or the check tests prove nothing.
        assert!(
            ekc.1 > 0 && ekc.1 < ekc.0 && dkc.1 > 0 && dkc.1 < dkc.0,
            "{}: key checks should include passing and failing keys: ek {ekc:?}, dk {dkc:?}",
            v.name()
        );
        assert_eq!(counts.len(), 4, "{}: functions seen: {counts:?}", v.name());
    }
    files.checked(cases.len(), "ACVP encapDecap cases (x 2 variants)");
}
