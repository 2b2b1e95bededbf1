//! Instruction counts and heap use for ntruhps2048509 (gungraun: Callgrind and DHAT).
//!
//! Kernels on the keygen input 3g·f of a fixed seed: `poly_R2_inv` (reference =
//! constant-time divstep, the state PR #5 replaced; optimized = the addition chain on
//! PCLMULQDQ; optimized_portable = the chain with the portable carry-less multiply),
//! `poly_Rq_mul` (reference schoolbook; karatsuba = the dispatched AVX2
//! Toom-4/Karatsuba; karatsuba_portable), `poly_Rq_inv` (reference; before = divstep
//! R2 inverse with the fast `poly_Rq_mul`; optimized; optimized_portable). Operations:
//! keygen / enc / dec for the tiers, `ntrust-native` and PQClean clean
//! (`pqcrypto-ntru`, no AVX2). Our operations are the derandomized ones (the seed
//! bytes are drawn in setup); ntrust-native draws from a cheap fixed generator and
//! PQClean from the OS (`getrandom`, whose kernel time callgrind does not see).
//!
//! Run: `cargo bench -p benches --bench ntruhps2048509_instructions` (needs
//! `gungraun-runner` 0.20.0; gungraun is iai-callgrind renamed at 0.17). The gate:
//! `bash benches/scripts/gate.sh`.

// gungraun's macros expand to fully qualified paths and undocumented items.
#![allow(unused_qualifications, missing_docs)]

use std::hint::black_box;

use benches::ntruhps2048509::keygen_input;
use gungraun::prelude::*;
use optimized::ntruhps2048509::{Before, Optimized, OptimizedPortable, rq_mul};
use pqcrypto_traits::kem::SharedSecret as _;
use reference::SharedSecret;
use reference::ntruhps2048509::params::{
    CIPHERTEXT_BYTES, PRFKEYBYTES, SAMPLE_FG_BYTES, SAMPLE_RM_BYTES,
};
use reference::ntruhps2048509::{self as ntru, Kernels, KeyPair, Poly, Reference};

const SEED: [u8; SAMPLE_FG_BYTES] = {
    let mut s = [0u8; SAMPLE_FG_BYTES];
    let mut i = 0;
    while i < SAMPLE_FG_BYTES {
        s[i] = (i * 13 + 1) as u8;
        i += 1;
    }
    s
};
const PRF: [u8; PRFKEYBYTES] = [9; PRFKEYBYTES];
const RM: [u8; SAMPLE_RM_BYTES] = {
    let mut s = [0u8; SAMPLE_RM_BYTES];
    let mut i = 0;
    while i < SAMPLE_RM_BYTES {
        s[i] = (i * 11 + 5) as u8;
        i += 1;
    }
    s
};

fn input() -> Poly {
    keygen_input()
}

#[library_benchmark]
#[bench::reference(setup = input)]
fn poly_r2_inv_reference(a: Poly) -> Poly {
    black_box(Reference::poly_r2_inv(black_box(&a)))
}

#[library_benchmark]
#[bench::pclmul(setup = input)]
fn poly_r2_inv_optimized(a: Poly) -> Poly {
    black_box(Optimized::poly_r2_inv(black_box(&a)))
}

#[library_benchmark]
#[bench::portable(setup = input)]
fn poly_r2_inv_optimized_portable(a: Poly) -> Poly {
    black_box(OptimizedPortable::poly_r2_inv(black_box(&a)))
}

#[library_benchmark]
#[bench::reference(setup = input)]
fn poly_rq_mul_reference(a: Poly) -> Poly {
    black_box(Reference::poly_rq_mul(black_box(&a), &a))
}

#[library_benchmark]
#[bench::avx2(setup = input)]
fn poly_rq_mul_karatsuba(a: Poly) -> Poly {
    black_box(rq_mul::poly_rq_mul_karatsuba(black_box(&a), &a))
}

#[library_benchmark]
#[bench::portable(setup = input)]
fn poly_rq_mul_karatsuba_portable(a: Poly) -> Poly {
    black_box(rq_mul::poly_rq_mul_portable(black_box(&a), &a))
}

#[library_benchmark]
#[bench::reference(setup = input)]
fn poly_rq_inv_reference(a: Poly) -> Poly {
    black_box(Reference::poly_rq_inv(black_box(&a)))
}

#[library_benchmark]
#[bench::before(setup = input)]
fn poly_rq_inv_before(a: Poly) -> Poly {
    black_box(Before::poly_rq_inv(black_box(&a)))
}

#[library_benchmark]
#[bench::optimized(setup = input)]
fn poly_rq_inv_optimized(a: Poly) -> Poly {
    black_box(Optimized::poly_rq_inv(black_box(&a)))
}

#[library_benchmark]
#[bench::portable(setup = input)]
fn poly_rq_inv_optimized_portable(a: Poly) -> Poly {
    black_box(OptimizedPortable::poly_rq_inv(black_box(&a)))
}

fn keypair<K: Kernels>() -> KeyPair {
    ntru::keypair_derand::<K>(black_box(&SEED), black_box(&PRF)).expect("f ≠ 0")
}

#[library_benchmark]
fn keygen_reference() -> KeyPair {
    black_box(keypair::<Reference>())
}

#[library_benchmark]
fn keygen_before() -> KeyPair {
    black_box(keypair::<Before>())
}

#[library_benchmark]
fn keygen_optimized() -> KeyPair {
    black_box(keypair::<Optimized>())
}

#[library_benchmark]
fn keygen_optimized_portable() -> KeyPair {
    black_box(keypair::<OptimizedPortable>())
}

fn setup_enc() -> KeyPair {
    keypair::<Reference>()
}

type Enc = ([u8; CIPHERTEXT_BYTES], SharedSecret);

fn enc<K: Kernels>(kp: &KeyPair) -> Enc {
    ntru::encaps_derand::<K>(black_box(kp.pk()), black_box(&RM)).expect("valid key")
}

#[library_benchmark]
#[bench::fixed_seed(setup = setup_enc)]
fn enc_reference(kp: KeyPair) -> Enc {
    black_box(enc::<Reference>(&kp))
}

#[library_benchmark]
#[bench::fixed_seed(setup = setup_enc)]
fn enc_optimized(kp: KeyPair) -> Enc {
    black_box(enc::<Optimized>(&kp))
}

#[library_benchmark]
#[bench::fixed_seed(setup = setup_enc)]
fn enc_optimized_portable(kp: KeyPair) -> Enc {
    black_box(enc::<OptimizedPortable>(&kp))
}

fn setup_dec() -> (KeyPair, [u8; CIPHERTEXT_BYTES]) {
    let kp = keypair::<Reference>();
    let (ct, _) = enc::<Reference>(&kp);
    (kp, ct)
}

#[library_benchmark]
#[bench::fixed_seed(setup = setup_dec)]
fn dec_reference(input: (KeyPair, [u8; CIPHERTEXT_BYTES])) -> SharedSecret {
    black_box(ntru::decaps::<Reference>(black_box(input.0.sk()), black_box(&input.1)).expect("ok"))
}

#[library_benchmark]
#[bench::fixed_seed(setup = setup_dec)]
fn dec_optimized(input: (KeyPair, [u8; CIPHERTEXT_BYTES])) -> SharedSecret {
    black_box(ntru::decaps::<Optimized>(black_box(input.0.sk()), black_box(&input.1)).expect("ok"))
}

#[library_benchmark]
#[bench::fixed_seed(setup = setup_dec)]
fn dec_optimized_portable(input: (KeyPair, [u8; CIPHERTEXT_BYTES])) -> SharedSecret {
    black_box(
        ntru::decaps::<OptimizedPortable>(black_box(input.0.sk()), black_box(&input.1))
            .expect("ok"),
    )
}

/// A cheap deterministic generator for ntrust-native (its own interface).
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

type NtrustKeys = (
    [u8; ntrust_native::CRYPTO_PUBLICKEYBYTES],
    [u8; ntrust_native::CRYPTO_SECRETKEYBYTES],
);

fn ntrust_keys() -> NtrustKeys {
    let mut pk = [0u8; ntrust_native::CRYPTO_PUBLICKEYBYTES];
    let mut sk = [0u8; ntrust_native::CRYPTO_SECRETKEYBYTES];
    ntrust_native::crypto_kem_keypair(&mut pk, &mut sk, &mut Fixed(1)).expect("keypair");
    (pk, sk)
}

fn ntrust_dec_setup() -> (NtrustKeys, [u8; ntrust_native::CRYPTO_CIPHERTEXTBYTES]) {
    let keys = ntrust_keys();
    let mut c = [0u8; ntrust_native::CRYPTO_CIPHERTEXTBYTES];
    let mut k = [0u8; ntrust_native::CRYPTO_BYTES];
    ntrust_native::crypto_kem_enc(&mut c, &mut k, &keys.0, &mut Fixed(3)).expect("enc");
    (keys, c)
}

#[library_benchmark]
fn ntrust_native_keygen() -> NtrustKeys {
    black_box(ntrust_keys())
}

#[library_benchmark]
#[bench::fixed_rng(setup = ntrust_keys)]
fn ntrust_native_enc(keys: NtrustKeys) -> [u8; ntrust_native::CRYPTO_CIPHERTEXTBYTES] {
    let mut c = [0u8; ntrust_native::CRYPTO_CIPHERTEXTBYTES];
    let mut k = [0u8; ntrust_native::CRYPTO_BYTES];
    ntrust_native::crypto_kem_enc(&mut c, &mut k, black_box(&keys.0), &mut Fixed(3)).expect("enc");
    black_box(c)
}

#[library_benchmark]
#[bench::fixed_rng(setup = ntrust_dec_setup)]
fn ntrust_native_dec(
    input: (NtrustKeys, [u8; ntrust_native::CRYPTO_CIPHERTEXTBYTES]),
) -> [u8; ntrust_native::CRYPTO_BYTES] {
    let mut k = [0u8; ntrust_native::CRYPTO_BYTES];
    ntrust_native::crypto_kem_dec(&mut k, black_box(&input.1), &(input.0).1).expect("dec");
    black_box(k)
}

mod pqclean {
    //! PQClean clean through `pqcrypto-ntru` (no `avx2` feature): no SIMD.
    use super::*;
    use pqcrypto_ntru::ntruhps2048509 as pq;

    fn setup_dec() -> (pq::Ciphertext, pq::SecretKey) {
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
    pub fn pqclean_clean_enc(keys: (pq::PublicKey, pq::SecretKey)) -> usize {
        black_box(pq::encapsulate(black_box(&keys.0)).0.as_bytes().len())
    }

    #[library_benchmark]
    #[bench::none(setup = setup_dec)]
    pub fn pqclean_clean_dec(input: (pq::Ciphertext, pq::SecretKey)) -> usize {
        black_box(
            pq::decapsulate(black_box(&input.0), &input.1)
                .as_bytes()
                .len(),
        )
    }

    library_benchmark_group!(
        name = peers_ntru_pqclean,
        benchmarks = [pqclean_clean_keygen, pqclean_clean_enc, pqclean_clean_dec]
    );
}
use pqclean::peers_ntru_pqclean;

library_benchmark_group!(
    name = refopt_ntru_kernels,
    benchmarks = [
        poly_r2_inv_reference,
        poly_r2_inv_optimized,
        poly_r2_inv_optimized_portable,
        poly_rq_mul_reference,
        poly_rq_mul_karatsuba,
        poly_rq_mul_karatsuba_portable,
        poly_rq_inv_reference,
        poly_rq_inv_before,
        poly_rq_inv_optimized,
        poly_rq_inv_optimized_portable
    ]
);
library_benchmark_group!(
    name = refopt_ntru,
    benchmarks = [
        keygen_reference,
        keygen_before,
        keygen_optimized,
        keygen_optimized_portable,
        enc_reference,
        enc_optimized,
        enc_optimized_portable,
        dec_reference,
        dec_optimized,
        dec_optimized_portable
    ]
);
library_benchmark_group!(
    name = peers_ntru,
    benchmarks = [ntrust_native_keygen, ntrust_native_enc, ntrust_native_dec]
);

main!(
    config = LibraryBenchmarkConfig::default().tool(gungraun::Dhat::default());
    library_benchmark_groups = refopt_ntru_kernels,
    refopt_ntru,
    peers_ntru,
    peers_ntru_pqclean
);
