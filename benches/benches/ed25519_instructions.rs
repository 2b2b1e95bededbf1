//! Instruction counts and heap use for Ed25519 (gungraun: Callgrind and DHAT): keygen,
//! sign and verify for both tiers and ed25519-dalek, and the three field kernels
//! libgcrypt's patch changes (`mulm`, `addm`, `subm`, one call each).
//!
//! The benchmarks are built twice, and the group name says which build measured them:
//! `ed25519_default` (the fixed-width `mpih` primitives out of line, libgcrypt's call
//! structure: the build the seed's 1.23× belongs to) and, with
//! `--features inline-mpih`, `ed25519_inline_mpih` (every primitive inlined, where the
//! patch gains nothing). Setup (the key, a signature, the cached base-point table)
//! runs outside the measured function.
//!
//! Run: `cargo bench -p benches --bench ed25519_instructions [--features inline-mpih]`
//! (needs `gungraun-runner` 0.20.0; gungraun is iai-callgrind renamed at 0.17). The
//! gate: `bash benches/scripts/gate.sh`.

// gungraun's macros expand to fully qualified paths and undocumented items.
#![allow(unused_qualifications, missing_docs)]

use std::hint::black_box;

use gungraun::prelude::*;
use optimized::ed25519::Optimized;
use reference::ed25519::{self as r, Fe, Kernels, Reference, SigningKey};

const SEED: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"refopt ed25519 benchmark message, 64 bytes long ................";
/// Field operands: u in range, v = 2^255 - 33 (near p), as in the criterion benches.
const U: Fe = [
    0x1234_5678_9abc_def0,
    0x0fed_cba9_8765_4321,
    0xdead_beef_cafe_f00d,
    0x7fff_ffff_ffff_fff0,
];
const V: Fe = [
    0xffff_ffff_ffff_ffe0,
    u64::MAX,
    u64::MAX,
    0x7fff_ffff_ffff_ffff,
];

/// A key, its public key and a signature; computing them fills the tier's cached
/// base-point table, so no measured call pays for it.
fn setup<K: Kernels>() -> (SigningKey, [u8; 32], [u8; 64]) {
    let key = SigningKey::from_seed::<K>(&SEED).expect("32-byte seed");
    let pk = key.public_key();
    let sig = r::sign::<K>(&key, MSG);
    (key, pk, sig)
}

#[library_benchmark]
#[bench::reference(setup = setup::<Reference>)]
fn keygen_reference(_warm: (SigningKey, [u8; 32], [u8; 64])) -> SigningKey {
    black_box(SigningKey::from_seed::<Reference>(black_box(&SEED)).expect("seed"))
}

#[library_benchmark]
#[bench::optimized(setup = setup::<Optimized>)]
fn keygen_optimized(_warm: (SigningKey, [u8; 32], [u8; 64])) -> SigningKey {
    black_box(SigningKey::from_seed::<Optimized>(black_box(&SEED)).expect("seed"))
}

#[library_benchmark]
#[bench::reference(setup = setup::<Reference>)]
fn sign_reference(input: (SigningKey, [u8; 32], [u8; 64])) -> [u8; 64] {
    black_box(r::sign::<Reference>(black_box(&input.0), black_box(MSG)))
}

#[library_benchmark]
#[bench::optimized(setup = setup::<Optimized>)]
fn sign_optimized(input: (SigningKey, [u8; 32], [u8; 64])) -> [u8; 64] {
    black_box(r::sign::<Optimized>(black_box(&input.0), black_box(MSG)))
}

#[library_benchmark]
#[bench::reference(setup = setup::<Reference>)]
fn verify_reference(input: (SigningKey, [u8; 32], [u8; 64])) {
    // The verdict is passed through unread: its type changes with the verifier's API,
    // and the signature from setup is valid.
    let _ = black_box(r::verify::<Reference>(
        black_box(&input.1),
        black_box(MSG),
        black_box(&input.2),
    ));
}

#[library_benchmark]
#[bench::optimized(setup = setup::<Optimized>)]
fn verify_optimized(input: (SigningKey, [u8; 32], [u8; 64])) {
    // The verdict is passed through unread: its type changes with the verifier's API,
    // and the signature from setup is valid.
    let _ = black_box(r::verify::<Optimized>(
        black_box(&input.1),
        black_box(MSG),
        black_box(&input.2),
    ));
}

#[library_benchmark]
#[bench::reference(args = (U, V))]
fn mulm_reference(u: Fe, v: Fe) -> Fe {
    black_box(Reference::mulm(black_box(&u), black_box(&v)))
}

#[library_benchmark]
#[bench::optimized(args = (U, V))]
fn mulm_optimized(u: Fe, v: Fe) -> Fe {
    black_box(Optimized::mulm(black_box(&u), black_box(&v)))
}

#[library_benchmark]
#[bench::reference(args = (U, V))]
fn addm_reference(u: Fe, v: Fe) -> Fe {
    black_box(Reference::addm(black_box(&u), black_box(&v)))
}

#[library_benchmark]
#[bench::optimized(args = (U, V))]
fn addm_optimized(u: Fe, v: Fe) -> Fe {
    black_box(Optimized::addm(black_box(&u), black_box(&v)))
}

#[library_benchmark]
#[bench::reference(args = (U, V))]
fn subm_reference(u: Fe, v: Fe) -> Fe {
    black_box(Reference::subm(black_box(&u), black_box(&v)))
}

#[library_benchmark]
#[bench::optimized(args = (U, V))]
fn subm_optimized(u: Fe, v: Fe) -> Fe {
    black_box(Optimized::subm(black_box(&u), black_box(&v)))
}

// ed25519-dalek (its default backend for this target: the portable 64-bit serial
// backend unless built with a SIMD `target-cpu`). It does not depend on refopt's
// limb layer, so it is measured in the default build only.
#[cfg(not(feature = "inline-mpih"))]
mod dalek {
    use super::*;
    use ed25519_dalek::{Signer as _, Verifier as _};

    fn dalek_setup() -> (
        ed25519_dalek::SigningKey,
        ed25519_dalek::VerifyingKey,
        ed25519_dalek::Signature,
    ) {
        let key = ed25519_dalek::SigningKey::from_bytes(&SEED);
        let vk = key.verifying_key();
        let sig = key.sign(MSG);
        (key, vk, sig)
    }

    type DalekInput = (
        ed25519_dalek::SigningKey,
        ed25519_dalek::VerifyingKey,
        ed25519_dalek::Signature,
    );

    #[library_benchmark]
    pub fn dalek_keygen() -> ed25519_dalek::VerifyingKey {
        black_box(ed25519_dalek::SigningKey::from_bytes(black_box(&SEED)).verifying_key())
    }

    #[library_benchmark]
    #[bench::dalek(setup = dalek_setup)]
    pub fn dalek_sign(input: DalekInput) -> ed25519_dalek::Signature {
        black_box(input.0.sign(black_box(MSG)))
    }

    #[library_benchmark]
    #[bench::dalek(setup = dalek_setup)]
    pub fn dalek_verify(input: DalekInput) -> bool {
        black_box(input.1.verify(black_box(MSG), black_box(&input.2)).is_ok())
    }
}
#[cfg(not(feature = "inline-mpih"))]
use dalek::{dalek_keygen, dalek_sign, dalek_verify};

#[cfg(not(feature = "inline-mpih"))]
library_benchmark_group!(
    name = ed25519_default,
    benchmarks = [
        keygen_reference,
        keygen_optimized,
        sign_reference,
        sign_optimized,
        verify_reference,
        verify_optimized,
        mulm_reference,
        mulm_optimized,
        addm_reference,
        addm_optimized,
        subm_reference,
        subm_optimized,
        dalek_keygen,
        dalek_sign,
        dalek_verify
    ]
);
#[cfg(not(feature = "inline-mpih"))]
main!(
    config = LibraryBenchmarkConfig::default()
        .tool(gungraun::Dhat::default())
        .pass_through_env("REFOPT_PLANT");
    library_benchmark_groups = ed25519_default
);

// dalek does not depend on the build of refopt's limb layer: measured once, in the
// default build.
#[cfg(feature = "inline-mpih")]
library_benchmark_group!(
    name = ed25519_inline_mpih,
    benchmarks = [
        keygen_reference,
        keygen_optimized,
        sign_reference,
        sign_optimized,
        verify_reference,
        verify_optimized,
        mulm_reference,
        mulm_optimized,
        addm_reference,
        addm_optimized,
        subm_reference,
        subm_optimized
    ]
);
#[cfg(feature = "inline-mpih")]
main!(
    config = LibraryBenchmarkConfig::default().tool(gungraun::Dhat::default());
    library_benchmark_groups = ed25519_inline_mpih
);
