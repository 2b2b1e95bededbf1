//! Instruction counts and heap use for sntrup761 (gungraun: Callgrind and DHAT): one
//! keygen, encap or decap per benchmark, for each variant of the patch series
//! (`reference` = before patch 06, `batched-rng` = after 06, `optimized` = after 07)
//! under each random source, with the `sntrup761` crate and PQClean clean beside them.
//! Setup (the source, a key pair, a ciphertext) runs outside the measured function.
//!
//! Bench ids are `<impl>_<source>`. Sources: `chacha20` (a stream), `nist_drbg`
//! (AES-256 CTR-DRBG, re-keyed after every call) and `os` (getrandom: callgrind does
//! not see the time in the kernel, only the user-space instructions around it).
//! Decapsulation draws nothing.
//!
//! Run: `cargo bench -p benches --bench sntrup761_instructions` (needs
//! `gungraun-runner` 0.20.0, the runner of gungraun, which is iai-callgrind renamed at
//! 0.17). The gate: `bash benches/scripts/gate.sh`.

// gungraun's macros expand to fully qualified paths and undocumented items.
#![allow(unused_qualifications, missing_docs)]

use std::hint::black_box;

use benches::sntrup761::SameStream;
use equivalence::sntrup761::Variant;
use gungraun::prelude::*;
use pqcrypto_traits::kem::SharedSecret as _;
use reference::RandomSource;
use reference::SharedSecret;
use reference::drbg::NistDrbg;
use reference::rng::{ChaCha20Source, OsSource};
use reference::sntrup761::KeyPair;

fn source(name: &str) -> Box<dyn RandomSource> {
    match name {
        "chacha20" => Box::new(ChaCha20Source::new([42; 32])),
        "nist-drbg" => Box::new(NistDrbg::new(&[42; 48], None)),
        "os" => Box::new(OsSource),
        _ => unreachable!("known sources only"),
    }
}

fn variant(name: &str) -> Variant {
    Variant::from_name(name).expect("a variant name")
}

fn setup_keygen(imp: &str, src: &str) -> (Variant, Box<dyn RandomSource>) {
    (variant(imp), source(src))
}

fn setup_encap(imp: &str, src: &str) -> (Variant, Vec<u8>, Box<dyn RandomSource>) {
    let v = variant(imp);
    let mut rng = source(src);
    let kp = v.keypair(rng.as_mut());
    (v, kp.pk().to_vec(), rng)
}

fn setup_decap(imp: &str) -> (Variant, Vec<u8>, Vec<u8>) {
    let v = variant(imp);
    let mut rng = source("chacha20");
    let kp = v.keypair(rng.as_mut());
    let (ct, _) = v.encapsulate(kp.pk(), rng.as_mut()).expect("valid key");
    (v, kp.sk().to_vec(), ct)
}

#[library_benchmark]
#[bench::reference_chacha20(args = ("reference", "chacha20"), setup = setup_keygen)]
#[bench::batched_rng_chacha20(args = ("batched-rng", "chacha20"), setup = setup_keygen)]
#[bench::optimized_chacha20(args = ("optimized", "chacha20"), setup = setup_keygen)]
#[bench::reference_nist_drbg(args = ("reference", "nist-drbg"), setup = setup_keygen)]
#[bench::batched_rng_nist_drbg(args = ("batched-rng", "nist-drbg"), setup = setup_keygen)]
#[bench::optimized_nist_drbg(args = ("optimized", "nist-drbg"), setup = setup_keygen)]
#[bench::reference_os(args = ("reference", "os"), setup = setup_keygen)]
#[bench::batched_rng_os(args = ("batched-rng", "os"), setup = setup_keygen)]
#[bench::optimized_os(args = ("optimized", "os"), setup = setup_keygen)]
fn keygen(input: (Variant, Box<dyn RandomSource>)) -> KeyPair {
    let (v, mut rng) = input;
    black_box(v.keypair(rng.as_mut()))
}

#[library_benchmark]
#[bench::reference_chacha20(args = ("reference", "chacha20"), setup = setup_encap)]
#[bench::batched_rng_chacha20(args = ("batched-rng", "chacha20"), setup = setup_encap)]
#[bench::optimized_chacha20(args = ("optimized", "chacha20"), setup = setup_encap)]
#[bench::reference_nist_drbg(args = ("reference", "nist-drbg"), setup = setup_encap)]
#[bench::batched_rng_nist_drbg(args = ("batched-rng", "nist-drbg"), setup = setup_encap)]
#[bench::optimized_nist_drbg(args = ("optimized", "nist-drbg"), setup = setup_encap)]
#[bench::reference_os(args = ("reference", "os"), setup = setup_encap)]
#[bench::batched_rng_os(args = ("batched-rng", "os"), setup = setup_encap)]
#[bench::optimized_os(args = ("optimized", "os"), setup = setup_encap)]
fn encap(input: (Variant, Vec<u8>, Box<dyn RandomSource>)) -> (Vec<u8>, SharedSecret) {
    let (v, pk, mut rng) = input;
    black_box(
        v.encapsulate(black_box(&pk), rng.as_mut())
            .expect("valid key"),
    )
}

#[library_benchmark]
#[bench::reference(setup = setup_decap, args = ("reference",))]
#[bench::batched_rng(setup = setup_decap, args = ("batched-rng",))]
#[bench::optimized(setup = setup_decap, args = ("optimized",))]
fn decap(input: (Variant, Vec<u8>, Vec<u8>)) -> SharedSecret {
    let (v, sk, ct) = input;
    black_box(
        v.decapsulate(black_box(&sk), black_box(&ct))
            .expect("right lengths"),
    )
}

type CrateKeys = (sntrup761::EncapsulationKey, sntrup761::DecapsulationKey);

fn crate_setup_keygen() -> ChaCha20Source {
    ChaCha20Source::new([42; 32])
}

fn crate_setup_encap() -> (sntrup761::EncapsulationKey, ChaCha20Source) {
    let mut rng = ChaCha20Source::new([42; 32]);
    let (pk, _) = sntrup761::generate_key(SameStream(&mut rng));
    (pk, rng)
}

fn crate_setup_decap() -> (sntrup761::DecapsulationKey, sntrup761::Ciphertext) {
    let mut rng = ChaCha20Source::new([42; 32]);
    let (pk, sk) = sntrup761::generate_key(SameStream(&mut rng));
    let (ct, _) = pk.encapsulate(SameStream(&mut rng));
    (sk, ct)
}

// The `sntrup761` crate reading a ChaCha20 stream (one 4-byte draw per coefficient
// word, as `urandom32`).
#[library_benchmark]
#[bench::chacha20(setup = crate_setup_keygen)]
fn sntrup761_crate_keygen(mut rng: ChaCha20Source) -> CrateKeys {
    black_box(sntrup761::generate_key(SameStream(&mut rng)))
}

#[library_benchmark]
#[bench::chacha20(setup = crate_setup_encap)]
fn sntrup761_crate_encap(
    input: (sntrup761::EncapsulationKey, ChaCha20Source),
) -> (sntrup761::Ciphertext, sntrup761::SharedSecret) {
    let (pk, mut rng) = input;
    black_box(pk.encapsulate(SameStream(&mut rng)))
}

#[library_benchmark]
#[bench::none(setup = crate_setup_decap)]
fn sntrup761_crate_decap(
    input: (sntrup761::DecapsulationKey, sntrup761::Ciphertext),
) -> sntrup761::SharedSecret {
    black_box(input.0.decapsulate(black_box(&input.1)))
}

mod pqclean {
    //! PQClean clean (`pqcrypto-ntruprime` without its `avx2` feature): no SIMD; its
    //! randomness is the OS source through `pqcrypto-internals`.
    use super::*;
    use pqcrypto_ntruprime::sntrup761 as pq;

    fn setup_decap() -> (pq::Ciphertext, pq::SecretKey) {
        let (pk, sk) = pq::keypair();
        let (_, ct) = pq::encapsulate(&pk);
        (ct, sk)
    }

    #[library_benchmark]
    #[bench::os()]
    pub fn pqclean_clean_keygen() -> (pq::PublicKey, pq::SecretKey) {
        black_box(pq::keypair())
    }

    #[library_benchmark]
    #[bench::os(setup = pq::keypair)]
    pub fn pqclean_clean_encap(keys: (pq::PublicKey, pq::SecretKey)) -> usize {
        black_box(pq::encapsulate(black_box(&keys.0)).0.as_bytes().len())
    }

    #[library_benchmark]
    #[bench::none(setup = setup_decap)]
    pub fn pqclean_clean_decap(input: (pq::Ciphertext, pq::SecretKey)) -> usize {
        black_box(
            pq::decapsulate(black_box(&input.0), &input.1)
                .as_bytes()
                .len(),
        )
    }

    library_benchmark_group!(
        name = peers_sntrup761_pqclean,
        benchmarks = [
            pqclean_clean_keygen,
            pqclean_clean_encap,
            pqclean_clean_decap
        ]
    );
}
use pqclean::peers_sntrup761_pqclean;

library_benchmark_group!(name = refopt_sntrup761, benchmarks = [keygen, encap, decap]);
library_benchmark_group!(
    name = peers_sntrup761,
    benchmarks = [
        sntrup761_crate_keygen,
        sntrup761_crate_encap,
        sntrup761_crate_decap
    ]
);

main!(
    config = LibraryBenchmarkConfig::default().tool(gungraun::Dhat::default());
    library_benchmark_groups = refopt_sntrup761,
    peers_sntrup761,
    peers_sntrup761_pqclean
);
