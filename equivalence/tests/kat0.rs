//! The count-0 entry of each NIST `PQCgenKAT_kem` file, for every variant.
//!
//! Two facts from outside the project: the file ../shared/vectors/kat0/kat0-<scheme>.txt
//! and its SHA-256, which PQClean publishes as `nistkat-sha256` (embedded below).

use equivalence::{kat, schemes, vectors};

fn check(scheme: &str, variant: &str, published_sha256: &str) {
    let kem = schemes::kat_kem(scheme, Some(variant)).expect("known scheme");
    let entry = kat::first_entry(kem.as_ref()).expect("decapsulation agrees");
    let ours = entry.to_text();
    let file = vectors::read_to_string(&format!("kat0/kat0-{scheme}.txt"));
    // Report the first differing line rather than a bare hash mismatch.
    for (i, (a, b)) in ours.lines().zip(file.lines()).enumerate() {
        assert_eq!(
            a, b,
            "{scheme} {variant}: line {i} differs from the kat0 file"
        );
    }
    assert_eq!(ours.lines().count(), file.lines().count());
    assert_eq!(
        kat::kat0_sha256(kem.as_ref()).as_deref(),
        Ok(published_sha256),
        "{scheme} {variant}"
    );
}

#[test]
fn ml_kem_512() {
    for v in ["reference", "optimized"] {
        check(
            "ml-kem-512",
            v,
            "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782",
        );
    }
}

#[test]
fn ml_kem_768() {
    for v in ["reference", "optimized"] {
        check(
            "ml-kem-768",
            v,
            "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3",
        );
    }
}

#[test]
fn ml_kem_1024() {
    for v in ["reference", "optimized"] {
        check(
            "ml-kem-1024",
            v,
            "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6",
        );
    }
}

#[test]
fn ntruhps2048509() {
    // PQClean `crypto_kem/ntruhps2048509/META.yml` nistkat-sha256.
    for v in [
        "reference",
        "before",
        "optimized",
        "optimized-portable",
        "optimized-pclmul",
    ] {
        check(
            "ntruhps2048509",
            v,
            "fc314366fbe795e2db6d29abb9f5b2ff43f0f608d0bd66161f9450364f0d271b",
        );
    }
}
