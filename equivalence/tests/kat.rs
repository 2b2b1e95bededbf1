//! NIST `PQCgenKAT_kem` known answers for every scheme and every variant.
//!
//! Plain-clone layer (no file needed): each variant's count-0 entry and all 100
//! entries against the published SHA-256 values in [`equivalence::kat::PUBLISHED`]
//! (liboqs `kats.json`, PQClean `META.yml`). sntrup761's per-coefficient convention
//! (`reference`) has no published 100-entry hash: its 100 entries are compared with
//! the independent `sntrup761` crate run through the same NIST driver.
//!
//! Fetched-file layer (suite `kat0-files`): the count-0 entries line by line against
//! the published files, so a failure names the first differing line.

use equivalence::kat::{self, KatKem, PUBLISHED};
use equivalence::schemes;
use equivalence::sntrup761::SameStream;
use equivalence::vectors::{self, note};
use reference::RandomSource;

fn kem(scheme: &str, variant: &str) -> Box<dyn KatKem> {
    schemes::kat_kem(scheme, Some(variant)).expect("known scheme and variant")
}

/// Every published variant reproduces entry 0 and all 100 entries.
#[test]
fn every_variant_reproduces_the_published_kat_hashes() {
    let mut checked = 0;
    for p in PUBLISHED {
        for v in p.variants {
            let kem = kem(p.scheme, v);
            assert_eq!(
                kat::kat0_sha256(kem.as_ref()).as_deref(),
                Ok(p.count0_sha256),
                "{} {v}: entry count = 0 (source: {})",
                p.scheme,
                p.source
            );
            if let Some(all) = p.all_sha256 {
                assert_eq!(
                    kat::kat_all_sha256(kem.as_ref()).as_deref(),
                    Ok(all),
                    "{} {v}: the 100 entries (source: {})",
                    p.scheme,
                    p.source
                );
                checked += 100;
            } else {
                checked += 1;
            }
        }
    }
    note(&format!(
        "published KAT hashes: {checked} entries checked over {} scheme/variant pairs",
        PUBLISHED.iter().map(|p| p.variants.len()).sum::<usize>()
    ));
}

/// Every scheme and variant `refopt kat` knows is covered by a published hash.
#[test]
fn every_kat_variant_has_a_published_hash() {
    for s in schemes::kat_schemes() {
        for v in s.variants {
            assert!(
                PUBLISHED
                    .iter()
                    .any(|p| p.scheme == s.name && p.variants.contains(v)),
                "{} {v} has no published KAT hash to be checked against",
                s.name
            );
        }
    }
}

/// The driver's schemes refuse a wrong-length key or ciphertext with the scheme's
/// typed error, never a panic, in every variant; ML-KEM's encapsulation also refuses a
/// key that fails the modulus check.
#[test]
fn kat_kems_refuse_bad_input_with_a_typed_error() {
    use reference::Error;
    let mut rng = reference::rng::ChaCha20Source::new([1; 32]);
    let mut n = 0;
    for s in schemes::kat_schemes() {
        for v in s.variants {
            let kem = kem(s.name, v);
            for got in [
                kem.enc(&[], &mut rng).map(|_| ()),
                kem.dec(&[], &[]).map(|_| ()),
            ] {
                assert!(
                    matches!(got, Err(Error::InvalidLength { got: 0, .. })),
                    "{} {v}: {got:?}",
                    s.name
                );
            }
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} variants");
    let mlkem = kem("ml-kem-768", "reference");
    assert_eq!(
        mlkem.enc(&[0xff; 1184], &mut rng).map(|_| ()),
        Err(Error::ModulusCheck)
    );
}

/// The `sntrup761` crate run through the NIST driver. It draws each coefficient word
/// with `next_u32` (one 4-byte call, [`SameStream`]), the per-coefficient convention.
struct Sntrup761Crate;

impl KatKem for Sntrup761Crate {
    fn algname(&self) -> &'static str {
        "sntrup761"
    }
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
        let (pk, sk) = sntrup761::generate_key(SameStream(rng));
        (pk.as_ref().to_vec(), sk.as_ref().to_vec())
    }
    fn enc(
        &self,
        pk: &[u8],
        rng: &mut dyn RandomSource,
    ) -> Result<(Vec<u8>, Vec<u8>), reference::Error> {
        let pk = sntrup761::EncapsulationKey::try_from(pk)
            .map_err(|_| wrong_length("public key", 1158, pk.len()))?;
        let (ct, ss) = pk.encapsulate(SameStream(rng));
        Ok((ct.as_ref().to_vec(), ss.as_ref().to_vec()))
    }
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, reference::Error> {
        let sk = sntrup761::DecapsulationKey::try_from(sk)
            .map_err(|_| wrong_length("secret key", 1763, sk.len()))?;
        let ct = sntrup761::Ciphertext::try_from(ct)
            .map_err(|_| wrong_length("ciphertext", 1039, ct.len()))?;
        Ok(sk.decapsulate(&ct).as_ref().to_vec())
    }
}

/// The peer refuses only wrong lengths; reported as ours would be.
fn wrong_length(what: &'static str, expected: usize, got: usize) -> reference::Error {
    reference::Error::InvalidLength {
        what,
        expected,
        got,
    }
}

/// The per-coefficient convention has no published 100-entry hash: the reference's
/// 100 entries equal the independent `sntrup761` crate's, entry by entry, and its
/// count-0 entry is the published one (checked above, and by the crate here).
#[test]
fn sntrup761_reference_equals_the_sntrup761_crate_on_100_entries() {
    let ours = kem("sntrup761", "reference");
    let mut n = 0;
    for (i, (a, b)) in kat::entries(ours.as_ref(), 100)
        .zip(kat::entries(&Sntrup761Crate, 100))
        .enumerate()
    {
        let (a, b) = (a.expect("decapsulation agrees"), b.expect("crate agrees"));
        if let Some((line, x, y)) = first_differing_line(&a.to_text(), &b.to_text()) {
            panic!("count {i}, line {line}:\n ours:  {x:.100}\n crate: {y:.100}");
        }
        n += 1;
    }
    assert_eq!(n, 100);
    assert_eq!(
        kat::kat0_sha256(&Sntrup761Crate).as_deref(),
        Ok("2eba10673b9077530ba9c063d22f2534e415a6da42985c333c6baee133cc0ff1")
    );
}

/// The first line where `a` and `b` differ, as (index, a's line, b's line).
fn first_differing_line(a: &str, b: &str) -> Option<(usize, String, String)> {
    let (la, lb): (Vec<_>, Vec<_>) = (a.lines().collect(), b.lines().collect());
    (0..la.len().max(lb.len())).find_map(|i| {
        let (x, y) = (la.get(i).copied(), lb.get(i).copied());
        (x != y).then(|| (i, x.unwrap_or("").to_owned(), y.unwrap_or("").to_owned()))
    })
}

/// The draw convention is visible in the output: the per-coefficient variant does
/// not reproduce the bulk entry, nor the bulk variants the per-coefficient one, and
/// the first difference is the `pk` line (count and seed come from the outer DRBG).
#[test]
fn sntrup761_conventions_differ_from_the_pk_line() {
    let text = |v: &str| {
        kat::first_entry(kem("sntrup761", v).as_ref())
            .expect("decapsulation agrees")
            .to_text()
    };
    let (reference, bulk) = (text("reference"), text("optimized"));
    let (line, _, _) = first_differing_line(&reference, &bulk).expect("they differ");
    assert_eq!(line, 2, "the first difference is the pk line");
    assert_eq!(bulk, text("batched-rng"));
}

/// Why the conventions differ: the draw pattern, under a DRBG whose bytes depend on
/// call boundaries.
#[test]
fn sntrup761_draw_patterns_under_the_nist_drbg() {
    use equivalence::sntrup761::Variant;
    use reference::drbg::NistDrbg;
    use reference::rng::Recorder;

    // The cause: the draw pattern. Record it for one keypair + enc.
    let pattern = |v: Variant| {
        let mut rec = Recorder::new(NistDrbg::new(&[0u8; 48], None));
        let kp = v.keypair(&mut rec);
        v.encapsulate(kp.pk(), &mut rec).expect("valid pk");
        rec.calls().to_vec()
    };
    let per_coefficient = pattern(Variant::Reference);
    let bulk_calls = pattern(Variant::BatchedRng);
    assert_eq!(bulk_calls, pattern(Variant::Optimized));
    // Bulk: 3044 per g attempt, 3044 for f, 191 for rho, 3044 for r.
    let g_tries = bulk_calls.len() - 3;
    assert!(g_tries >= 1);
    let mut want = vec![3044; g_tries + 1];
    want.extend([191, 3044]);
    assert_eq!(bulk_calls, want);
    // Per coefficient: the same bytes in the same order, as 4-byte calls.
    assert_eq!(
        per_coefficient.iter().sum::<usize>(),
        bulk_calls.iter().sum::<usize>()
    );
    assert!(per_coefficient.iter().filter(|&&n| n == 4).count() >= 761 * 3);
    assert!(per_coefficient.contains(&191));

    // And the DRBG is what makes the difference: its bytes depend on call boundaries.
    let mut one = NistDrbg::new(&[0u8; 48], None);
    let mut a = [0u8; 3044];
    one.randombytes(&mut a);
    let mut many = NistDrbg::new(&[0u8; 48], None);
    let mut b = [0u8; 3044];
    for chunk in b.chunks_mut(4) {
        many.randombytes(chunk);
    }
    assert_eq!(
        a[..4],
        b[..4],
        "the first 4 bytes come from the same AES block"
    );
    assert_ne!(a[4..], b[4..], "after the first call the DRBG has re-keyed");
}

/// With the fetched files: each count-0 entry line by line against its file.
#[test]
fn count0_entries_match_the_published_files() {
    let Some(files) = vectors::suite("kat0-files") else {
        return;
    };
    let mut n = 0;
    for p in PUBLISHED {
        let file = if p.scheme == "sntrup761" {
            equivalence::sntrup761::kat0_file(p.variants[0]).expect("known variant")
        } else {
            match p.scheme {
                "ml-kem-512" => "kat0/kat0-ml-kem-512.txt",
                "ml-kem-768" => "kat0/kat0-ml-kem-768.txt",
                "ml-kem-1024" => "kat0/kat0-ml-kem-1024.txt",
                "ntruhps2048509" => "kat0/kat0-ntruhps2048509.txt",
                other => panic!("no kat0 file for {other}"),
            }
        };
        let want = files.read_to_string(file);
        // Read with the library's response-file reader (fuzzed by the kat_response
        // target): the file's entry, field by field, then the text line by line.
        let parsed = kat::parse_response(&want)
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .entries;
        assert_eq!(parsed.len(), 1, "{file}: one entry (count = 0)");
        for v in p.variants {
            let entry = kat::first_entry(kem(p.scheme, v).as_ref()).expect("decapsulation agrees");
            for (field, a, b) in [
                ("seed", &entry.seed[..], &parsed[0].seed[..]),
                ("pk", &entry.pk, &parsed[0].pk),
                ("sk", &entry.sk, &parsed[0].sk),
                ("ct", &entry.ct, &parsed[0].ct),
                ("ss", &entry.ss, &parsed[0].ss),
            ] {
                assert!(
                    a == b,
                    "{} {v}: field {field} differs from {file}",
                    p.scheme
                );
            }
            let ours = entry.to_text();
            if let Some((i, a, b)) = first_differing_line(&ours, &want) {
                panic!(
                    "{} {v}: line {i} differs from {file}:\n ours: {a:.120}\n file: {b:.120}",
                    p.scheme
                );
            }
            n += 1;
        }
    }
    files.checked(n, "count-0 entries (scheme x variant)");
}
