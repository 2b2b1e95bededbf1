//! sntrup761 wall-clock benchmarks: keygen, encap, decap for the three variants
//! (reference, batched-rng = patch 06, optimized = patches 06+07) under three random
//! sources, with the `sntrup761` crate and PQClean clean (`pqcrypto-ntruprime`, no
//! AVX2) side by side.
//!
//! Benchmark IDs: `sntrup761/op=<op>,impl=<impl>,source=<source>`.
//! Sources: `chacha20` (a stream: one call costs little), `nist-drbg` (AES-256
//! CTR-DRBG, re-keys after every call: costly per call), `os` (getrandom, one system
//! call per draw). Decapsulation draws nothing, so it has `source=none`.
//!
//! `op=rq-mult-small` and `op=r3-mult` time patch 07's two kernels alone.
//!
//! Run: `cargo bench -p benches --bench sntrup761`.

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use std::time::Duration;

use benches::sntrup761::SameStream;
use criterion::{Criterion, criterion_main};
use equivalence::sntrup761::Variant;
use pqcrypto_traits::kem::SharedSecret as _;
use reference::RandomSource;
use reference::drbg::NistDrbg;
use reference::rng::{ChaCha20Source, OsSource};
use std::hint::black_box;

fn source(name: &str) -> Box<dyn RandomSource> {
    match name {
        "chacha20" => Box::new(ChaCha20Source::new([7; 32])),
        "nist-drbg" => Box::new(NistDrbg::new(&[7; 48], None)),
        "os" => Box::new(OsSource),
        _ => unreachable!("known sources only"),
    }
}

const SOURCES: [&str; 3] = ["chacha20", "nist-drbg", "os"];

fn ours(c: &mut Criterion) {
    let mut g = c.benchmark_group("sntrup761");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for v in Variant::ALL {
        let name = v.name();
        for s in SOURCES {
            let mut rng = source(s);
            g.bench_function(format!("op=keygen,impl={name},source={s}"), |b| {
                b.iter(|| black_box(v.keypair(rng.as_mut())));
            });
            let kp = v.keypair(rng.as_mut());
            g.bench_function(format!("op=encap,impl={name},source={s}"), |b| {
                b.iter(|| black_box(v.encapsulate(kp.pk(), rng.as_mut())));
            });
        }
        let mut rng = source("chacha20");
        let kp = v.keypair(rng.as_mut());
        let (ct, _) = v.encapsulate(kp.pk(), rng.as_mut()).expect("valid key");
        g.bench_function(format!("op=decap,impl={name},source=none"), |b| {
            b.iter(|| black_box(v.decapsulate(kp.sk(), &ct)));
        });
    }
    g.finish();
}

fn peers(c: &mut Criterion) {
    let mut g = c.benchmark_group("sntrup761");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));

    // The sntrup761 crate, reading a ChaCha20 stream through the same adapter the
    // differential test uses (one 4-byte draw per coefficient word).
    let mut rng = ChaCha20Source::new([7; 32]);
    g.bench_function("op=keygen,impl=sntrup761-crate,source=chacha20", |b| {
        b.iter(|| black_box(sntrup761::generate_key(SameStream(&mut rng))));
    });
    let (pk, sk) = sntrup761::generate_key(SameStream(&mut rng));
    g.bench_function("op=encap,impl=sntrup761-crate,source=chacha20", |b| {
        b.iter(|| black_box(pk.encapsulate(SameStream(&mut rng))));
    });
    let (ct, _) = pk.encapsulate(SameStream(&mut rng));
    g.bench_function("op=decap,impl=sntrup761-crate,source=none", |b| {
        b.iter(|| black_box(sk.decapsulate(&ct)));
    });

    // PQClean clean (no AVX2 feature), randomness from the OS via pqcrypto-internals.
    use pqcrypto_ntruprime::sntrup761 as pq;
    g.bench_function("op=keygen,impl=pqclean-clean,source=os", |b| {
        b.iter(|| black_box(pq::keypair()));
    });
    let (pk, sk) = pq::keypair();
    g.bench_function("op=encap,impl=pqclean-clean,source=os", |b| {
        b.iter(|| black_box(pq::encapsulate(&pk)));
    });
    let (_, ct) = pq::encapsulate(&pk);
    g.bench_function("op=decap,impl=pqclean-clean,source=none", |b| {
        b.iter(|| black_box(pq::decapsulate(&ct, &sk).as_bytes().len()));
    });
    g.finish();
}

/// The kernel patch 06 changes, alone: one Short polynomial drawn as 761 calls of 4
/// bytes (reference) or one call of 3044 bytes (batched), per source.
fn draws(c: &mut Criterion) {
    use optimized::sntrup761::BatchedRng;
    use reference::sntrup761::{Kernels, P, Reference};
    let mut g = c.benchmark_group("sntrup761");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for s in SOURCES {
        let mut rng = source(s);
        let mut out = [0i8; P];
        g.bench_function(format!("op=short-random,impl=reference,source={s}"), |b| {
            b.iter(|| Reference::short_random(black_box(&mut out), rng.as_mut()));
        });
        g.bench_function(
            format!("op=short-random,impl=batched-rng,source={s}"),
            |b| {
                b.iter(|| BatchedRng::short_random(black_box(&mut out), rng.as_mut()));
            },
        );
    }
    g.finish();
}

/// The kernels patch 07 changes, alone: `Rq_mult_small` and `R3_mult` with a
/// reduction after every multiply-add (reference) or one per output coefficient
/// (optimized), on fixed inputs of the kernels' domain (the cost does not depend on
/// the values: both are constant-time).
fn mults(c: &mut Criterion) {
    use reference::sntrup761::{Fq, Kernels, P, Reference, Small};
    let mut g = c.benchmark_group("sntrup761");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    // f in [-2047, 2048] (|f| <= q12), g and f3 in {-1, 0, 1}: spread by a
    // multiplicative hash.
    let spread = |i: usize, k: u32| (i as u32).wrapping_mul(0x9e37_79b1) >> k;
    let f: [Fq; P] = core::array::from_fn(|i| (spread(i, 20) & 0xfff) as Fq - 2047);
    let three = [-1, 0, 1, 0];
    let s: [Small; P] = core::array::from_fn(|i| three[(spread(i, 16) & 3) as usize]);
    let t: [Small; P] = core::array::from_fn(|i| three[(spread(i, 12) & 3) as usize]);
    let mut h = [0 as Fq; P];
    let mut h3 = [0 as Small; P];
    g.bench_function("op=rq-mult-small,impl=reference", |b| {
        b.iter(|| Reference::rq_mult_small(black_box(&mut h), black_box(&f), black_box(&s)));
    });
    g.bench_function("op=rq-mult-small,impl=optimized", |b| {
        b.iter(|| {
            optimized::sntrup761::Optimized::rq_mult_small(
                black_box(&mut h),
                black_box(&f),
                black_box(&s),
            )
        });
    });
    g.bench_function("op=r3-mult,impl=reference", |b| {
        b.iter(|| Reference::r3_mult(black_box(&mut h3), black_box(&s), black_box(&t)));
    });
    g.bench_function("op=r3-mult,impl=optimized", |b| {
        b.iter(|| {
            optimized::sntrup761::Optimized::r3_mult(
                black_box(&mut h3),
                black_box(&s),
                black_box(&t),
            )
        });
    });
    g.finish();
}

/// Every sntrup761 benchmark group, in one module so the function the macro
/// generates is documented by the module.
mod group {
    #![allow(missing_docs)] // criterion_group! generates an undocumented `pub fn`
    use super::{draws, mults, ours, peers};
    criterion::criterion_group!(benches, ours, peers, draws, mults);
}
criterion_main!(group::benches);
