//! One sntrup761 operation per process, for instruction counts under callgrind.
//!
//! `sntrup761_ops <impl> <op> [source]` where impl is `reference`, `batched-rng`,
//! `optimized`, `sntrup761-crate` or `pqclean-clean`, op is `keygen`, `encap` or
//! `decap`, and source is `chacha20` (default), `nist-drbg` or `os`.
//! Setup (a key pair, a ciphertext) runs first; the measured operation runs inside
//! `measured`, so
//!
//! ```text
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured*' \
//!     target/release/examples/sntrup761_ops optimized encap
//! ```
//!
//! counts exactly that operation. Randomness: the named source (our variants and the
//! `sntrup761` crate); PQClean always reads the OS source through
//! `pqcrypto-internals`.

use benches::sntrup761::SameStream;
use equivalence::sntrup761::Variant;
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _};
use reference::RandomSource;
use reference::drbg::NistDrbg;
use reference::rng::{ChaCha20Source, OsSource};
use std::hint::black_box;

#[inline(never)]
fn measured<T>(f: impl FnOnce() -> T) -> T {
    black_box(f())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (imp, op, src) = match args.as_slice() {
        [_, imp, op] => (imp.as_str(), op.as_str(), "chacha20"),
        [_, imp, op, src] => (imp.as_str(), op.as_str(), src.as_str()),
        _ => {
            eprintln!("usage: sntrup761_ops <impl> <keygen|encap|decap> [chacha20|nist-drbg|os]");
            std::process::exit(2);
        }
    };
    let mut rng: Box<dyn RandomSource> = match src {
        "chacha20" => Box::new(ChaCha20Source::new([42; 32])),
        "nist-drbg" => Box::new(NistDrbg::new(&[42; 48], None)),
        "os" => Box::new(OsSource),
        _ => {
            eprintln!("unknown source {src}");
            std::process::exit(2);
        }
    };
    let rng = rng.as_mut();
    let out: Vec<u8> = match imp {
        "sntrup761-crate" => {
            let (pk, sk) = if op == "keygen" {
                measured(|| sntrup761::generate_key(SameStream(&mut *rng)))
            } else {
                sntrup761::generate_key(SameStream(&mut *rng))
            };
            let (ct, ss) = if op == "encap" {
                measured(|| pk.encapsulate(SameStream(&mut *rng)))
            } else {
                pk.encapsulate(SameStream(&mut *rng))
            };
            if op == "decap" {
                measured(|| sk.decapsulate(&ct)).as_ref().to_vec()
            } else {
                ss.as_ref().to_vec()
            }
        }
        "pqclean-clean" => {
            use pqcrypto_ntruprime::sntrup761 as pq;
            let (pk, sk) = if op == "keygen" {
                measured(pq::keypair)
            } else {
                pq::keypair()
            };
            let (ss, ct) = if op == "encap" {
                measured(|| pq::encapsulate(&pk))
            } else {
                pq::encapsulate(&pk)
            };
            let _ = (pk.as_bytes(), sk.as_bytes(), ct.as_bytes());
            if op == "decap" {
                measured(|| pq::decapsulate(&ct, &sk)).as_bytes().to_vec()
            } else {
                ss.as_bytes().to_vec()
            }
        }
        name => {
            let Some(v) = Variant::from_name(name) else {
                eprintln!("unknown implementation {name}");
                std::process::exit(2);
            };
            let kp = if op == "keygen" {
                measured(|| v.keypair(&mut *rng))
            } else {
                v.keypair(&mut *rng)
            };
            let encap =
                |rng: &mut dyn RandomSource| v.encapsulate(kp.pk(), rng).expect("valid key");
            let (ct, ss) = if op == "encap" {
                measured(|| encap(&mut *rng))
            } else {
                encap(&mut *rng)
            };
            if op == "decap" {
                measured(|| v.decapsulate(kp.sk(), &ct).expect("right lengths"))
                    .as_bytes()
                    .to_vec()
            } else {
                ss.as_bytes().to_vec()
            }
        }
    };
    println!(
        "{}",
        out.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
}
