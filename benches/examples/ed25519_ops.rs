//! One Ed25519 operation per run, for instruction counts with callgrind:
//! `ed25519_ops <impl> <op> [reps]` with impl `reference|optimized|dalek` (and
//! `aws-lc` with `--features aws-lc`) and op
//! `setup|keygen|sign|verify|mulm|addm|subm`. Instructions per op =
//! (count(op, reps) − count(setup)) / reps; `setup` does the same preparation and
//! no operation.

use ed25519_dalek::{Signer as _, Verifier as _};
use optimized::ed25519::Optimized;
use reference::ed25519::{self as r, Fe, Kernels, Reference, SigningKey};
use std::hint::black_box;

const SEED: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"refopt ed25519 benchmark message, 64 bytes long ................";

fn run<K: Kernels>(op: &str, reps: usize) {
    let key = SigningKey::from_seed::<K>(&SEED).unwrap();
    let pk = key.public_key();
    let sig = r::sign::<K>(&key, MSG);
    let u: Fe = [1, 2, 3, 0x7fff_ffff_ffff_fff0];
    let v: Fe = [
        0xffff_ffff_ffff_ffe0,
        u64::MAX,
        u64::MAX,
        0x7fff_ffff_ffff_ffff,
    ];
    for _ in 0..reps {
        match op {
            "setup" => {}
            "keygen" => {
                black_box(SigningKey::from_seed::<K>(black_box(&SEED)).unwrap());
            }
            "sign" => {
                black_box(r::sign::<K>(black_box(&key), black_box(MSG)));
            }
            "verify" => {
                r::verify::<K>(black_box(&pk), black_box(MSG), black_box(&sig))
                    .expect("the signature verifies");
            }
            "mulm" => {
                black_box(K::mulm(black_box(&u), black_box(&v)));
            }
            "addm" => {
                black_box(K::addm(black_box(&u), black_box(&v)));
            }
            "subm" => {
                black_box(K::subm(black_box(&u), black_box(&v)));
            }
            _ => panic!("unknown op {op}"),
        }
    }
}

fn dalek(op: &str, reps: usize) {
    let key = ed25519_dalek::SigningKey::from_bytes(&SEED);
    let vk = key.verifying_key();
    let sig = key.sign(MSG);
    for _ in 0..reps {
        match op {
            "setup" => {}
            "keygen" => {
                black_box(ed25519_dalek::SigningKey::from_bytes(black_box(&SEED)).verifying_key());
            }
            "sign" => {
                black_box(key.sign(black_box(MSG)));
            }
            "verify" => vk.verify(black_box(MSG), black_box(&sig)).unwrap(),
            _ => panic!("unknown op {op} for dalek"),
        }
    }
}

/// AWS-LC through aws-lc-rs (`--features aws-lc`).
#[cfg(feature = "aws-lc")]
fn aws_lc(op: &str, reps: usize) {
    use aws_lc_rs::signature::{ED25519, Ed25519KeyPair, KeyPair as _, UnparsedPublicKey};
    let key = Ed25519KeyPair::from_seed_unchecked(&SEED).expect("32-byte seed");
    let sig = key.sign(MSG);
    let pk = UnparsedPublicKey::new(&ED25519, key.public_key().as_ref().to_vec());
    for _ in 0..reps {
        match op {
            "setup" => {}
            "keygen" => {
                black_box(Ed25519KeyPair::from_seed_unchecked(black_box(&SEED)).expect("seed"));
            }
            "sign" => {
                black_box(key.sign(black_box(MSG)));
            }
            "verify" => pk.verify(black_box(MSG), black_box(sig.as_ref())).unwrap(),
            _ => panic!("unknown op {op} for aws-lc"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let imp = args.get(1).map_or("optimized", String::as_str);
    let op = args.get(2).map_or("setup", String::as_str);
    let reps = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    match imp {
        "reference" => run::<Reference>(op, reps),
        "optimized" => run::<Optimized>(op, reps),
        "dalek" => dalek(op, reps),
        #[cfg(feature = "aws-lc")]
        "aws-lc" => aws_lc(op, reps),
        _ => panic!("unknown impl {imp}"),
    }
}
