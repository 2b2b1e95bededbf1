//! Ed25519 before/after (libgcrypt 9c12226c) with ed25519-dalek side by side.
//!
//! Benchmark IDs: `ed25519/op=<keygen|sign|verify>,impl=<reference|optimized|dalek|aws-lc>,build=<default|inline-mpih>`
//! (`aws-lc` with `--features aws-lc`)
//! and `ed25519-field/op=<mulm|addm|subm>,impl=<reference|optimized>,build=<...>`; the
//! build is refopt's limb layer (`--features inline-mpih` inlines it), which the peers do
//! not depend on.
//! The seed-format table is produced from these by `docs/ed25519.md`'s recipe.

// `criterion_group!` expands to an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use ed25519_dalek::{Signer as _, Verifier as _};
use optimized::ed25519::Optimized;
use reference::ed25519::{self as r, Fe, Kernels, Reference, SigningKey};
use std::hint::black_box;

/// refopt's limb-layer build, part of every benchmark id.
const BUILD: &str = if cfg!(feature = "inline-mpih") {
    "inline-mpih"
} else {
    "default"
};

const SEED: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"refopt ed25519 benchmark message, 64 bytes long ................";

fn api<K: Kernels>(c: &mut Criterion, name: &str) {
    let key = SigningKey::from_seed::<K>(&SEED).unwrap();
    let pk = key.public_key();
    let sig = r::sign::<K>(&key, MSG);
    c.bench_function(
        &format!("ed25519/op=keygen,impl={name},build={BUILD}"),
        |b| b.iter(|| SigningKey::from_seed::<K>(black_box(&SEED)).unwrap()),
    );
    c.bench_function(&format!("ed25519/op=sign,impl={name},build={BUILD}"), |b| {
        b.iter(|| r::sign::<K>(black_box(&key), black_box(MSG)))
    });
    c.bench_function(
        &format!("ed25519/op=verify,impl={name},build={BUILD}"),
        |b| b.iter(|| r::verify::<K>(black_box(&pk), black_box(MSG), black_box(&sig)).unwrap()),
    );
}

fn dalek(c: &mut Criterion) {
    let key = ed25519_dalek::SigningKey::from_bytes(&SEED);
    let vk = key.verifying_key();
    let sig = key.sign(MSG);
    c.bench_function(
        &format!("ed25519/op=keygen,impl=dalek,build={BUILD}"),
        |b| b.iter(|| ed25519_dalek::SigningKey::from_bytes(black_box(&SEED)).verifying_key()),
    );
    c.bench_function(&format!("ed25519/op=sign,impl=dalek,build={BUILD}"), |b| {
        b.iter(|| key.sign(black_box(MSG)))
    });
    c.bench_function(
        &format!("ed25519/op=verify,impl=dalek,build={BUILD}"),
        |b| b.iter(|| vk.verify(black_box(MSG), black_box(&sig)).unwrap()),
    );
}

/// AWS-LC through aws-lc-rs (`--features aws-lc`). Its signature must equal ours
/// (Ed25519 signing is deterministic), checked before measuring.
#[cfg(feature = "aws-lc")]
fn aws_lc(c: &mut Criterion) {
    use aws_lc_rs::signature::{ED25519, Ed25519KeyPair, KeyPair as _, UnparsedPublicKey};
    let key = Ed25519KeyPair::from_seed_unchecked(&SEED).expect("32-byte seed");
    let sig = key.sign(MSG);
    let ours = SigningKey::from_seed::<Reference>(&SEED).expect("seed");
    assert_eq!(
        sig.as_ref(),
        r::sign::<Reference>(&ours, MSG).as_slice(),
        "aws-lc-rs and refopt disagree"
    );
    let pk = UnparsedPublicKey::new(&ED25519, key.public_key().as_ref().to_vec());
    c.bench_function(
        &format!("ed25519/op=keygen,impl=aws-lc,build={BUILD}"),
        |b| b.iter(|| Ed25519KeyPair::from_seed_unchecked(black_box(&SEED))),
    );
    c.bench_function(&format!("ed25519/op=sign,impl=aws-lc,build={BUILD}"), |b| {
        b.iter(|| key.sign(black_box(MSG)))
    });
    c.bench_function(
        &format!("ed25519/op=verify,impl=aws-lc,build={BUILD}"),
        |b| b.iter(|| pk.verify(black_box(MSG), black_box(sig.as_ref())).unwrap()),
    );
}

fn field<K: Kernels>(c: &mut Criterion, name: &str) {
    let u: Fe = [
        0x1234_5678_9abc_def0,
        0x0fed_cba9_8765_4321,
        0xdead_beef_cafe_f00d,
        0x7fff_ffff_ffff_fff0,
    ];
    let v: Fe = [
        0xffff_ffff_ffff_ffe0,
        u64::MAX,
        u64::MAX,
        0x7fff_ffff_ffff_ffff,
    ];
    c.bench_function(
        &format!("ed25519-field/op=mulm,impl={name},build={BUILD}"),
        |b| b.iter(|| K::mulm(black_box(&u), black_box(&v))),
    );
    c.bench_function(
        &format!("ed25519-field/op=addm,impl={name},build={BUILD}"),
        |b| b.iter(|| K::addm(black_box(&u), black_box(&v))),
    );
    c.bench_function(
        &format!("ed25519-field/op=subm,impl={name},build={BUILD}"),
        |b| b.iter(|| K::subm(black_box(&u), black_box(&v))),
    );
}

fn all(c: &mut Criterion) {
    field::<Reference>(c, "reference");
    field::<Optimized>(c, "optimized");
    api::<Reference>(c, "reference");
    api::<Optimized>(c, "optimized");
    dalek(c);
    #[cfg(feature = "aws-lc")]
    aws_lc(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
