//! ntruhps2048509 wall-clock benchmarks (criterion): `poly_R2_inv` and `poly_Rq_inv`
//! for reference / before / optimized, and keygen, enc, dec beside `ntrust-native`
//! and PQClean clean (`pqcrypto-ntru`, avx2 disabled).
//!
//! IDs are machine-parseable: `scheme=ntruhps2048509,op=<op>,impl=<impl>`.
//! Run: `cargo bench -p benches --bench ntruhps2048509`.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use benches::ntruhps2048509::keygen_input;
use optimized::ntruhps2048509::{Before, Optimized, OptimizedPortable, Pclmul, r2_inv, rq_mul};
use reference::ntruhps2048509::params::{PRFKEYBYTES, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES};
use reference::ntruhps2048509::{self as ntru, Kernels, Reference};
use reference::rng::ChaCha20Source;

fn id(op: &str, imp: &str) -> String {
    format!("scheme=ntruhps2048509,op={op},impl={imp}")
}

struct Chacha(ChaCha20Source);
impl ntrust_native::RNGState for Chacha {
    fn randombytes(&mut self, x: &mut [u8]) -> Result<(), Box<dyn std::error::Error>> {
        reference::RandomSource::fill(&mut self.0, x);
        Ok(())
    }
    fn randombytes_init(&mut self, _: [u8; 48]) {}
}

fn kernels(c: &mut Criterion) {
    let a = keygen_input();
    let ar2 = r2_inv::r2_from_poly(&a);
    c.bench_function(&id("poly_R2_inv", "reference"), |b| {
        b.iter(|| Reference::poly_r2_inv(black_box(&a)))
    });
    c.bench_function(&id("poly_R2_inv", "optimized-portable"), |b| {
        b.iter(|| r2_inv::r2_inv_chain(black_box(&ar2), r2_inv::r2_mul_portable))
    });
    if let Some(p) = Pclmul::detect() {
        c.bench_function(&id("poly_R2_inv", "optimized-pclmul"), |b| {
            b.iter(|| p.r2_inv_chain(black_box(&ar2)))
        });
    }
    c.bench_function(&id("poly_Rq_mul", "reference"), |b| {
        b.iter(|| Reference::poly_rq_mul(black_box(&a), &a))
    });
    c.bench_function(&id("poly_Rq_mul", "karatsuba"), |b| {
        b.iter(|| rq_mul::poly_rq_mul_karatsuba(black_box(&a), &a))
    });
    c.bench_function(&id("poly_Rq_inv", "reference"), |b| {
        b.iter(|| Reference::poly_rq_inv(black_box(&a)))
    });
    c.bench_function(&id("poly_Rq_inv", "before"), |b| {
        b.iter(|| Before::poly_rq_inv(black_box(&a)))
    });
    c.bench_function(&id("poly_Rq_inv", "optimized"), |b| {
        b.iter(|| Optimized::poly_rq_inv(black_box(&a)))
    });
    c.bench_function(&id("poly_Rq_inv", "optimized-portable"), |b| {
        b.iter(|| OptimizedPortable::poly_rq_inv(black_box(&a)))
    });
}

fn kem(c: &mut Criterion) {
    let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|i| (i * 13 + 1) as u8);
    let prf = [9u8; PRFKEYBYTES];
    let rm: [u8; SAMPLE_RM_BYTES] = core::array::from_fn(|i| (i * 11 + 5) as u8);
    let kp = ntru::keypair_derand::<Optimized>(&seed, &prf).expect("f ≠ 0");
    let (ct, _) = ntru::encaps_derand::<Optimized>(kp.pk(), &rm).expect("pk");

    c.bench_function(&id("keygen", "reference"), |b| {
        b.iter(|| ntru::keypair_derand::<Reference>(black_box(&seed), &prf))
    });
    c.bench_function(&id("keygen", "before"), |b| {
        b.iter(|| ntru::keypair_derand::<Before>(black_box(&seed), &prf))
    });
    c.bench_function(&id("keygen", "optimized"), |b| {
        b.iter(|| ntru::keypair_derand::<Optimized>(black_box(&seed), &prf))
    });
    c.bench_function(&id("enc", "reference"), |b| {
        b.iter(|| ntru::encaps_derand::<Reference>(black_box(kp.pk()), &rm))
    });
    c.bench_function(&id("enc", "optimized"), |b| {
        b.iter(|| ntru::encaps_derand::<Optimized>(black_box(kp.pk()), &rm))
    });
    c.bench_function(&id("dec", "reference"), |b| {
        b.iter(|| ntru::decaps::<Reference>(black_box(kp.sk()), &ct))
    });
    c.bench_function(&id("dec", "optimized"), |b| {
        b.iter(|| ntru::decaps::<Optimized>(black_box(kp.sk()), &ct))
    });

    let mut rng = Chacha(ChaCha20Source::new([5; 32]));
    let (mut npk, mut nsk) = ([0u8; 699], [0u8; 935]);
    ntrust_native::crypto_kem_keypair(&mut npk, &mut nsk, &mut rng).expect("kp");
    c.bench_function(&id("keygen", "ntrust-native"), |b| {
        b.iter(|| {
            let (mut pk, mut sk) = ([0u8; 699], [0u8; 935]);
            ntrust_native::crypto_kem_keypair(&mut pk, &mut sk, &mut rng).expect("kp");
            (pk, sk)
        })
    });
    c.bench_function(&id("enc", "ntrust-native"), |b| {
        b.iter(|| {
            let (mut ct, mut k) = ([0u8; 699], [0u8; 32]);
            ntrust_native::crypto_kem_enc(&mut ct, &mut k, &npk, &mut rng).expect("enc");
            (ct, k)
        })
    });
    let nct: [u8; 699] = ct;
    c.bench_function(&id("dec", "ntrust-native"), |b| {
        b.iter(|| {
            let mut k = [0u8; 32];
            ntrust_native::crypto_kem_dec(&mut k, black_box(&nct), &nsk).expect("dec");
            k
        })
    });

    use pqcrypto_ntru::ntruhps2048509 as pq;
    let (ppk, psk) = pq::keypair();
    let (_, pct) = pq::encapsulate(&ppk);
    c.bench_function(&id("keygen", "pqclean-clean"), |b| b.iter(pq::keypair));
    c.bench_function(&id("enc", "pqclean-clean"), |b| {
        b.iter(|| pq::encapsulate(black_box(&ppk)))
    });
    c.bench_function(&id("dec", "pqclean-clean"), |b| {
        b.iter(|| pq::decapsulate(black_box(&pct), &psk))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = kernels, kem
}
criterion_main!(benches);
