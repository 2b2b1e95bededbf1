//! Wall-clock benchmarks for ML-KEM (criterion): keygen, encaps and decaps for every
//! parameter set, reference and optimized side by side with `libcrux-ml-kem`
//! (portable) and RustCrypto `ml-kem`.
//!
//! Benchmark IDs: `ML-KEM-<set>/<op>/<implementation>`. As in Go's benchmarks (the
//! seed's numbers), `encaps` parses the encoded encapsulation key on every call
//! (modulus check, Â, H(ek)) and `decaps` uses a parsed decapsulation key;
//! `decaps-encoded-dk` parses the key on every call too. The peers take encoded keys.
//! `cargo bench -p benches --bench mlkem`, then `cargo run -p benches --bin report -- --criterion target/criterion --filter ML-KEM`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use equivalence::mlkem::Variant;
use ml_kem::Decapsulate;
use reference::mlkem::{ALL, Params};

const D: [u8; 32] = [1; 32];
const Z: [u8; 32] = [2; 32];
const M: [u8; 32] = [3; 32];

fn ours(c: &mut Criterion, p: &Params) {
    let kp = reference::mlkem::keygen_internal(p, &D, &Z);
    let (ct, _) = Variant::Reference
        .encaps_internal(p, kp.ek(), &M)
        .expect("valid");
    for v in Variant::ALL {
        c.bench_function(&format!("{}/keygen/{}", p.name(), v.name()), |b| {
            b.iter(|| v.keygen_internal(p, black_box(&D), black_box(&Z)))
        });
        c.bench_function(&format!("{}/encaps/{}", p.name(), v.name()), |b| {
            b.iter(|| v.encaps_internal(p, black_box(kp.ek()), black_box(&M)))
        });
        // Go's BenchmarkDecaps decapsulates with a parsed key; the encoded-key row
        // adds the hash check and parsing to every call.
        let dk = reference::mlkem::DecapsulationKey::from_bytes(p, kp.dk()).expect("valid");
        c.bench_function(&format!("{}/decaps/{}", p.name(), v.name()), |b| {
            b.iter(|| v.decapsulate(black_box(&dk), black_box(&ct)))
        });
        c.bench_function(
            &format!("{}/decaps-encoded-dk/{}", p.name(), v.name()),
            |b| b.iter(|| v.decaps(p, black_box(kp.dk()), black_box(&ct))),
        );
    }
}

/// RustCrypto `ml-kem` 0.3 key generation from d and z (its seed is d || z).
macro_rules! rustcrypto_keygen {
    ($rc:ty, $d:expr, $z:expr) => {{
        let mut seed = [0u8; 64];
        seed[..32].copy_from_slice($d);
        seed[32..].copy_from_slice($z);
        let dk = ml_kem::DecapsulationKey::<$rc>::from_seed(seed.into());
        let ek = dk.encapsulation_key().clone();
        (dk, ek)
    }};
}

macro_rules! peers {
    ($fn:ident, $name:literal, $rc:ty, $lc:ident) => {
        fn $fn(c: &mut Criterion) {
            let (dk, ek) = rustcrypto_keygen!($rc, &D, &Z);
            let (ct, _) = ek.encapsulate_deterministic(&M.into());
            c.bench_function(concat!($name, "/keygen/ml-kem"), |b| {
                b.iter(|| rustcrypto_keygen!($rc, black_box(&D), black_box(&Z)))
            });
            c.bench_function(concat!($name, "/encaps/ml-kem"), |b| {
                b.iter(|| ek.encapsulate_deterministic(black_box(&M.into())))
            });
            c.bench_function(concat!($name, "/decaps/ml-kem"), |b| {
                b.iter(|| dk.decapsulate(black_box(&ct)))
            });

            use libcrux_ml_kem::$lc::portable;
            let mut seed = [0u8; 64];
            seed[..32].copy_from_slice(&D);
            seed[32..].copy_from_slice(&Z);
            let kp = portable::generate_key_pair(seed);
            let (lct, _) = portable::encapsulate(kp.public_key(), M);
            c.bench_function(concat!($name, "/keygen/libcrux-portable"), |b| {
                b.iter(|| portable::generate_key_pair(black_box(seed)))
            });
            c.bench_function(concat!($name, "/encaps/libcrux-portable"), |b| {
                b.iter(|| portable::encapsulate(black_box(kp.public_key()), black_box(M)))
            });
            c.bench_function(concat!($name, "/decaps/libcrux-portable"), |b| {
                b.iter(|| portable::decapsulate(black_box(kp.private_key()), black_box(&lct)))
            });

            // libcrux's AVX2 instantiation (enabled by its build script on x86-64).
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                use libcrux_ml_kem::$lc::avx2;
                let kp = avx2::generate_key_pair(seed);
                let (lct, _) = avx2::encapsulate(kp.public_key(), M);
                c.bench_function(concat!($name, "/encaps/libcrux-avx2"), |b| {
                    b.iter(|| avx2::encapsulate(black_box(kp.public_key()), black_box(M)))
                });
                c.bench_function(concat!($name, "/decaps/libcrux-avx2"), |b| {
                    b.iter(|| avx2::decapsulate(black_box(kp.private_key()), black_box(&lct)))
                });
            }
        }
    };
}
peers!(peers_512, "ML-KEM-512", ml_kem::MlKem512, mlkem512);
peers!(peers_768, "ML-KEM-768", ml_kem::MlKem768, mlkem768);
peers!(peers_1024, "ML-KEM-1024", ml_kem::MlKem1024, mlkem1024);

fn all(c: &mut Criterion) {
    for p in ALL {
        ours(c, p);
    }
    peers_512(c);
    peers_768(c);
    peers_1024(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30);
    targets = all
}
criterion_main!(benches);
