//! The C2SP CCTV "accumulated" ML-KEM test (FIPS 203 final, N = 10 000), for each
//! parameter set and both variants.
//!
//! Facts from outside the project: the procedure and the three published hashes in
//! ../shared/vectors/PROVENANCE.md (CCTV ML-KEM, FIPS 203 final, pull request 13).
//! One SHAKE-128 stream over the empty input supplies, per test, d (32 bytes), z (32),
//! m (32) and then a random ciphertext of the set's length; each test runs
//! KeyGen_internal(d, z) and Encaps_internal(ek, m), checks Decaps(dk, ct) = K, takes
//! K_rej = Decaps(dk, random ciphertext), and absorbs ek, dk, ct, K, K_rej into a
//! second SHAKE-128, from which 32 bytes are squeezed after the last test.

mod mlkem_common;

use equivalence::mlkem::Variant;
use mlkem_common::params;
use shake::Shake128;
use shake::{ExtendableOutput, Update, XofReader};

const N: usize = 10_000;

/// Runs the accumulated test and returns the squeezed hash in hex.
fn accumulated(set: &str, v: Variant, n: usize) -> String {
    let p = params(set);
    let mut stream = Shake128::default().finalize_xof();
    let mut acc = Shake128::default();
    let mut d = [0u8; 32];
    let mut z = [0u8; 32];
    let mut m = [0u8; 32];
    let mut ct_rand = vec![0u8; p.ct_len()];
    for i in 0..n {
        stream.read(&mut d);
        stream.read(&mut z);
        stream.read(&mut m);
        stream.read(&mut ct_rand);
        let kp = v.keygen_internal(p, &d, &z);
        let (ct, k) = v
            .encaps_internal(p, kp.ek(), &m)
            .unwrap_or_else(|e| panic!("{set} [{}] test {i}: encaps failed: {e}", v.name()));
        let k_dec = v
            .decaps(p, kp.dk(), &ct)
            .unwrap_or_else(|e| panic!("{set} [{}] test {i}: decaps failed: {e}", v.name()));
        assert_eq!(
            k_dec,
            k,
            "{set} [{}] test {i}: Decaps(dk, ct) differs from the encapsulated K",
            v.name()
        );
        let k_rej = v.decaps(p, kp.dk(), &ct_rand).unwrap_or_else(|e| {
            panic!(
                "{set} [{}] test {i}: decaps (random ct) failed: {e}",
                v.name()
            )
        });
        acc.update(kp.ek());
        acc.update(kp.dk());
        acc.update(&ct);
        acc.update(k.as_bytes());
        acc.update(k_rej.as_bytes());
    }
    let mut out = [0u8; 32];
    acc.finalize_xof().read(&mut out);
    hex::encode(out)
}

fn check(set: &str, v: Variant, published: &str) {
    let started = std::time::Instant::now();
    let got = accumulated(set, v, N);
    eprintln!(
        "{set} [{}]: {N} accumulated tests in {:.1?}",
        v.name(),
        started.elapsed()
    );
    assert_eq!(
        got,
        published,
        "{set} [{}]: accumulated hash over {N} tests differs from the CCTV value",
        v.name()
    );
}

const H512: &str = "705dcffc87f4e67e35a09dcaa31772e86f3341bd3ccf1e78a5fef99ae6a35a13";
const H768: &str = "f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1";
const H1024: &str = "e3bf82b013307b2e9d47dde791ff6dfc82e694e6382404abdb948b908b75bad5";

#[test]
fn accumulated_512_reference() {
    check("ML-KEM-512", Variant::Reference, H512);
}

#[test]
fn accumulated_512_optimized() {
    check("ML-KEM-512", Variant::Optimized, H512);
}

#[test]
fn accumulated_768_reference() {
    check("ML-KEM-768", Variant::Reference, H768);
}

#[test]
fn accumulated_768_optimized() {
    check("ML-KEM-768", Variant::Optimized, H768);
}

#[test]
fn accumulated_1024_reference() {
    check("ML-KEM-1024", Variant::Reference, H1024);
}

#[test]
fn accumulated_1024_optimized() {
    check("ML-KEM-1024", Variant::Optimized, H1024);
}
