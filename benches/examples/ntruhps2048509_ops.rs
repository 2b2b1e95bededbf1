//! One ntruhps2048509 operation, `iters` times, for instruction counting with
//! callgrind: per-operation count = (count(op, n) − count(op, 0)) / n.
//!
//! `cargo build --release -p benches --example ntruhps2048509_ops`, then
//! `valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/ntruhps2048509_ops <op> <iters>`.
//! Ops: `r2_inv/{reference,optimized-portable,optimized-pclmul}`,
//! `rq_inv/{reference,before,optimized,optimized-portable}`,
//! `rq_mul/{reference,karatsuba}`, `{keygen,enc,dec}/{reference,before,optimized,ntrust-native,pqclean-clean}`.

use std::hint::black_box;

use benches::ntruhps2048509::keygen_input;
use optimized::ntruhps2048509::{Before, Optimized, OptimizedPortable, Pclmul, r2_inv, rq_mul};
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _};
use reference::ntruhps2048509::params::{PRFKEYBYTES, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES};
use reference::ntruhps2048509::{self as ntru, Kernels, Reference};

struct Fixed(u8);
impl ntrust_native::RNGState for Fixed {
    fn randombytes(&mut self, x: &mut [u8]) -> Result<(), Box<dyn std::error::Error>> {
        for b in x.iter_mut() {
            self.0 = self.0.wrapping_mul(5).wrapping_add(1);
            *b = self.0;
        }
        Ok(())
    }
    fn randombytes_init(&mut self, _: [u8; 48]) {}
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let op = args.get(1).map_or("none", String::as_str);
    let iters: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let a = keygen_input();
    let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|i| (i * 13 + 1) as u8);
    let prf = [9u8; PRFKEYBYTES];
    let rm: [u8; SAMPLE_RM_BYTES] = core::array::from_fn(|i| (i * 11 + 5) as u8);
    // Setup common to every op (subtracted by running with iters = 0).
    let kp = ntru::keypair_derand::<Optimized>(&seed, &prf).expect("f ≠ 0");
    let (ct, _) = ntru::encaps_derand::<Optimized>(kp.pk(), &rm).expect("pk");
    let mut npk = [0u8; ntrust_native::CRYPTO_PUBLICKEYBYTES];
    let mut nsk = [0u8; ntrust_native::CRYPTO_SECRETKEYBYTES];
    ntrust_native::crypto_kem_keypair(&mut npk, &mut nsk, &mut Fixed(1)).expect("kp");
    let (ppk, psk) = pqcrypto_ntru::ntruhps2048509::keypair();
    let (_, pct) = pqcrypto_ntru::ntruhps2048509::encapsulate(&ppk);
    let pclmul = Pclmul::detect();
    let ar2 = r2_inv::r2_from_poly(&a);
    for _ in 0..iters {
        match op {
            "r2_inv/reference" => sink(Reference::poly_r2_inv(black_box(&a))),
            "r2_inv/optimized-portable" => sink(r2_inv::r2_inv_chain(
                black_box(&ar2),
                r2_inv::r2_mul_portable,
            )),
            "r2_inv/optimized-pclmul" => {
                sink((pclmul.expect("pclmulqdq").r2_inv_chain(black_box(&ar2)),))
            }
            "rq_inv/reference" => sink(Reference::poly_rq_inv(black_box(&a))),
            "rq_inv/before" => sink(Before::poly_rq_inv(black_box(&a))),
            "rq_inv/optimized" => sink(Optimized::poly_rq_inv(black_box(&a))),
            "rq_inv/optimized-portable" => sink(OptimizedPortable::poly_rq_inv(black_box(&a))),
            "rq_mul/reference" => sink(Reference::poly_rq_mul(black_box(&a), &a)),
            "rq_mul/karatsuba-portable" => sink(rq_mul::poly_rq_mul_portable(black_box(&a), &a)),
            "rq_mul/karatsuba" => sink(rq_mul::poly_rq_mul_karatsuba(black_box(&a), &a)),
            "keygen/reference" => sink(ntru::keypair_derand::<Reference>(black_box(&seed), &prf)),
            "keygen/before" => sink(ntru::keypair_derand::<Before>(black_box(&seed), &prf)),
            "keygen/optimized" => sink(ntru::keypair_derand::<Optimized>(black_box(&seed), &prf)),
            "enc/reference" => sink(ntru::encaps_derand::<Reference>(black_box(kp.pk()), &rm)),
            "enc/optimized" => sink(ntru::encaps_derand::<Optimized>(black_box(kp.pk()), &rm)),
            "dec/reference" => sink(ntru::decaps::<Reference>(black_box(kp.sk()), &ct)),
            "dec/optimized" => sink(ntru::decaps::<Optimized>(black_box(kp.sk()), &ct)),
            "keygen/ntrust-native" => {
                let (mut pk, mut sk) = ([0u8; 699], [0u8; 935]);
                ntrust_native::crypto_kem_keypair(&mut pk, &mut sk, &mut Fixed(2)).expect("kp");
                black_box((pk, sk));
            }
            "enc/ntrust-native" => {
                let (mut c, mut k) = ([0u8; 699], [0u8; 32]);
                ntrust_native::crypto_kem_enc(&mut c, &mut k, &npk, &mut Fixed(3)).expect("enc");
                black_box((c, k));
            }
            "dec/ntrust-native" => {
                let mut k = [0u8; 32];
                let c: [u8; 699] = core::array::from_fn(|i| ct[i]);
                ntrust_native::crypto_kem_dec(&mut k, &c, &nsk).expect("dec");
                black_box(k);
            }
            "keygen/pqclean-clean" => sink(pqcrypto_ntru::ntruhps2048509::keypair()),
            "enc/pqclean-clean" => {
                sink(pqcrypto_ntru::ntruhps2048509::encapsulate(black_box(&ppk)))
            }
            "dec/pqclean-clean" => sink(pqcrypto_ntru::ntruhps2048509::decapsulate(
                black_box(&pct),
                &psk,
            )),
            "none" => {}
            other => panic!("unknown op {other}"),
        }
    }
    black_box((
        ppk.as_bytes().len(),
        psk.as_bytes().len(),
        pct.as_bytes().len(),
    ));
}

/// Keeps a result alive for the optimizer.
fn sink<T>(x: T) {
    black_box(x);
}
