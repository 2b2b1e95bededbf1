//! Instruction counts for ML-KEM (gungraun, i.e. Callgrind): one keygen, encaps or
//! decaps per benchmark, for each parameter set and implementation. Setup (key
//! generation for encaps/decaps) runs outside the measured region.
//!
//! Each benchmark also runs under DHAT (heap bytes and blocks).
//!
//! Run: `cargo bench -p benches --bench mlkem_instructions` (needs `gungraun-runner`
//! 0.20.0 on PATH; gungraun is iai-callgrind renamed at 0.17). The gate against the
//! committed baseline: `bash benches/scripts/gate.sh`.

// gungraun's macros expand to fully qualified paths and undocumented items.
#![allow(unused_qualifications, missing_docs)]

use std::hint::black_box;

use equivalence::mlkem::Variant;
use gungraun::prelude::*;
use ml_kem::Decapsulate;
use reference::SharedSecret;
use reference::mlkem::{ML_KEM_512, ML_KEM_768, ML_KEM_1024, Params};

const D: [u8; 32] = [1; 32];
const Z: [u8; 32] = [2; 32];
const M: [u8; 32] = [3; 32];

fn params(k: usize) -> &'static Params {
    match k {
        2 => &ML_KEM_512,
        3 => &ML_KEM_768,
        _ => &ML_KEM_1024,
    }
}

fn variant(optimized: bool) -> Variant {
    if optimized {
        Variant::Optimized
    } else {
        Variant::Reference
    }
}

fn setup_encaps(k: usize, optimized: bool) -> (&'static Params, Variant, Vec<u8>) {
    let p = params(k);
    (
        p,
        variant(optimized),
        reference::mlkem::keygen_internal(p, &D, &Z).ek().to_vec(),
    )
}

fn setup_decaps(k: usize, optimized: bool) -> (&'static Params, Variant, Vec<u8>, Vec<u8>) {
    let p = params(k);
    let kp = reference::mlkem::keygen_internal(p, &D, &Z);
    let (ct, _) = Variant::Reference
        .encaps_internal(p, kp.ek(), &M)
        .expect("valid");
    (p, variant(optimized), kp.dk().to_vec(), ct)
}

#[library_benchmark]
#[bench::ml_kem_512(2)]
#[bench::ml_kem_768(3)]
#[bench::ml_kem_1024(4)]
fn keygen(k: usize) -> reference::mlkem::KeyPair {
    black_box(reference::mlkem::keygen_internal(
        params(k),
        black_box(&D),
        black_box(&Z),
    ))
}

#[library_benchmark]
#[bench::ml_kem_512_reference(args = (2, false), setup = setup_encaps)]
#[bench::ml_kem_512_optimized(args = (2, true), setup = setup_encaps)]
#[bench::ml_kem_768_reference(args = (3, false), setup = setup_encaps)]
#[bench::ml_kem_768_optimized(args = (3, true), setup = setup_encaps)]
#[bench::ml_kem_1024_reference(args = (4, false), setup = setup_encaps)]
#[bench::ml_kem_1024_optimized(args = (4, true), setup = setup_encaps)]
fn encaps(input: (&'static Params, Variant, Vec<u8>)) -> SharedSecret {
    let (p, v, ek) = input;
    black_box(
        v.encaps_internal(p, black_box(&ek), black_box(&M))
            .expect("valid")
            .1,
    )
}

#[library_benchmark]
#[bench::ml_kem_512_reference(args = (2, false), setup = setup_decaps)]
#[bench::ml_kem_512_optimized(args = (2, true), setup = setup_decaps)]
#[bench::ml_kem_768_reference(args = (3, false), setup = setup_decaps)]
#[bench::ml_kem_768_optimized(args = (3, true), setup = setup_decaps)]
#[bench::ml_kem_1024_reference(args = (4, false), setup = setup_decaps)]
#[bench::ml_kem_1024_optimized(args = (4, true), setup = setup_decaps)]
fn decaps(input: (&'static Params, Variant, Vec<u8>, Vec<u8>)) -> SharedSecret {
    let (p, v, dk, ct) = input;
    black_box(v.decaps(p, black_box(&dk), black_box(&ct)).expect("valid"))
}

fn setup_decaps_parsed(
    k: usize,
    optimized: bool,
) -> (Variant, reference::mlkem::DecapsulationKey, Vec<u8>) {
    let (p, v, dk, ct) = setup_decaps(k, optimized);
    let dk = reference::mlkem::DecapsulationKey::from_bytes(p, &dk).expect("valid");
    (v, dk, ct)
}

// Decapsulation with a parsed key, as Go's BenchmarkDecaps measures it.
#[library_benchmark]
#[bench::ml_kem_512_reference(args = (2, false), setup = setup_decaps_parsed)]
#[bench::ml_kem_512_optimized(args = (2, true), setup = setup_decaps_parsed)]
#[bench::ml_kem_768_reference(args = (3, false), setup = setup_decaps_parsed)]
#[bench::ml_kem_768_optimized(args = (3, true), setup = setup_decaps_parsed)]
#[bench::ml_kem_1024_reference(args = (4, false), setup = setup_decaps_parsed)]
#[bench::ml_kem_1024_optimized(args = (4, true), setup = setup_decaps_parsed)]
fn decaps_parsed_key(
    input: (Variant, reference::mlkem::DecapsulationKey, Vec<u8>),
) -> SharedSecret {
    let (v, dk, ct) = input;
    black_box(
        v.decapsulate(black_box(&dk), black_box(&ct))
            .expect("valid"),
    )
}

fn libcrux_768_setup() -> libcrux_ml_kem::mlkem768::MlKem768KeyPair {
    let mut seed = [0u8; 64];
    seed[..32].copy_from_slice(&D);
    seed[32..].copy_from_slice(&Z);
    libcrux_ml_kem::mlkem768::portable::generate_key_pair(seed)
}

fn libcrux_768_decaps_setup() -> (
    libcrux_ml_kem::mlkem768::MlKem768KeyPair,
    libcrux_ml_kem::mlkem768::MlKem768Ciphertext,
) {
    let kp = libcrux_768_setup();
    let (ct, _) = libcrux_ml_kem::mlkem768::portable::encapsulate(kp.public_key(), M);
    (kp, ct)
}

#[library_benchmark]
fn libcrux_portable_768_keygen() -> libcrux_ml_kem::mlkem768::MlKem768KeyPair {
    black_box(libcrux_768_setup())
}

#[library_benchmark]
#[bench::ml_kem_768(setup = libcrux_768_setup)]
fn libcrux_portable_768_encaps(kp: libcrux_ml_kem::mlkem768::MlKem768KeyPair) -> [u8; 32] {
    black_box(
        libcrux_ml_kem::mlkem768::portable::encapsulate(black_box(kp.public_key()), black_box(M)).1,
    )
}

#[library_benchmark]
#[bench::ml_kem_768(setup = libcrux_768_decaps_setup)]
fn libcrux_portable_768_decaps(
    input: (
        libcrux_ml_kem::mlkem768::MlKem768KeyPair,
        libcrux_ml_kem::mlkem768::MlKem768Ciphertext,
    ),
) -> [u8; 32] {
    black_box(libcrux_ml_kem::mlkem768::portable::decapsulate(
        black_box(input.0.private_key()),
        black_box(&input.1),
    ))
}

/// libcrux's AVX2 instantiation (its build script enables it on every x86-64 build):
/// the peer that, like refopt's shared Keccak, uses AVX2.
#[cfg(target_arch = "x86_64")]
mod libcrux_avx2 {
    use super::*;
    use libcrux_ml_kem::mlkem768::{MlKem768Ciphertext, MlKem768KeyPair, avx2};

    fn require_avx2() {
        assert!(
            std::is_x86_feature_detected!("avx2"),
            "libcrux's avx2 functions need AVX2"
        );
    }

    fn setup() -> MlKem768KeyPair {
        require_avx2();
        let mut seed = [0u8; 64];
        seed[..32].copy_from_slice(&D);
        seed[32..].copy_from_slice(&Z);
        avx2::generate_key_pair(seed)
    }

    fn decaps_setup() -> (MlKem768KeyPair, MlKem768Ciphertext) {
        let kp = setup();
        let (ct, _) = avx2::encapsulate(kp.public_key(), M);
        (kp, ct)
    }

    #[library_benchmark]
    #[bench::ml_kem_768(setup = setup)]
    pub fn libcrux_avx2_768_encaps(kp: MlKem768KeyPair) -> [u8; 32] {
        black_box(avx2::encapsulate(black_box(kp.public_key()), black_box(M)).1)
    }

    #[library_benchmark]
    #[bench::ml_kem_768(setup = decaps_setup)]
    pub fn libcrux_avx2_768_decaps(input: (MlKem768KeyPair, MlKem768Ciphertext)) -> [u8; 32] {
        black_box(avx2::decapsulate(
            black_box(input.0.private_key()),
            black_box(&input.1),
        ))
    }

    library_benchmark_group!(
        name = peers_mlkem_avx2,
        benchmarks = [libcrux_avx2_768_encaps, libcrux_avx2_768_decaps]
    );
}
#[cfg(target_arch = "x86_64")]
use libcrux_avx2::peers_mlkem_avx2;

type RcDk = ml_kem::DecapsulationKey<ml_kem::MlKem768>;
type RcEk = ml_kem::EncapsulationKey<ml_kem::MlKem768>;
type RcCt = ml_kem::Ciphertext<ml_kem::MlKem768>;

/// RustCrypto `ml-kem` 0.3 key generation from d and z (its seed is d || z).
fn rustcrypto_768_keygen(d: &[u8; 32], z: &[u8; 32]) -> (RcDk, RcEk) {
    let mut seed = [0u8; 64];
    seed[..32].copy_from_slice(d);
    seed[32..].copy_from_slice(z);
    let dk = RcDk::from_seed(seed.into());
    let ek = dk.encapsulation_key().clone();
    (dk, ek)
}

fn rustcrypto_768_setup() -> (RcDk, RcEk) {
    rustcrypto_768_keygen(&D, &Z)
}

fn rustcrypto_768_decaps_setup() -> (RcDk, RcCt) {
    let (dk, ek) = rustcrypto_768_setup();
    let (ct, _) = ek.encapsulate_deterministic(&M.into());
    (dk, ct)
}

#[library_benchmark]
fn ml_kem_crate_768_keygen() -> (RcDk, RcEk) {
    black_box(rustcrypto_768_keygen(black_box(&D), black_box(&Z)))
}

#[library_benchmark]
#[bench::ml_kem_768(setup = rustcrypto_768_setup)]
fn ml_kem_crate_768_encaps(keys: (RcDk, RcEk)) -> RcCt {
    black_box(keys.1.encapsulate_deterministic(black_box(&M.into())).0)
}

#[library_benchmark]
#[bench::ml_kem_768(setup = rustcrypto_768_decaps_setup)]
fn ml_kem_crate_768_decaps(input: (RcDk, RcCt)) -> ml_kem::SharedKey {
    black_box(input.0.decapsulate(black_box(&input.1)))
}

library_benchmark_group!(
    name = refopt_mlkem,
    benchmarks = [keygen, encaps, decaps, decaps_parsed_key]
);
library_benchmark_group!(
    name = peers_mlkem,
    benchmarks = [
        libcrux_portable_768_keygen,
        libcrux_portable_768_encaps,
        libcrux_portable_768_decaps,
        ml_kem_crate_768_keygen,
        ml_kem_crate_768_encaps,
        ml_kem_crate_768_decaps
    ]
);

#[cfg(target_arch = "x86_64")]
main!(
    config = LibraryBenchmarkConfig::default().tool(gungraun::Dhat::default());
    library_benchmark_groups = refopt_mlkem,
    peers_mlkem,
    peers_mlkem_avx2
);
#[cfg(not(target_arch = "x86_64"))]
main!(
    config = LibraryBenchmarkConfig::default().tool(gungraun::Dhat::default());
    library_benchmark_groups = refopt_mlkem, peers_mlkem
);
