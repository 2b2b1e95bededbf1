//! Byte-exact differential tests against independent ML-KEM implementations: RustCrypto
//! `ml-kem` 0.3 (keys from the 64-byte seed, the `hazmat` deterministic encapsulation) and `libcrux-ml-kem` (portable), on random
//! seeds, for both refopt variants and all three parameter sets.

use equivalence::mlkem::Variant;
#[allow(deprecated)] // the expanded dk encoding: FIPS 203's dk, which we compare
use ml_kem::ExpandedKeyEncoding;
use ml_kem::{Decapsulate, KeyExport};
use proptest::prelude::*;
use reference::mlkem::{ML_KEM_512, ML_KEM_768, ML_KEM_1024, Params};

/// (ek, dk, c, K, K from decapsulating a tampered c) from one implementation.
type Transcript = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

fn ours(v: Variant, p: &Params, d: &[u8; 32], z: &[u8; 32], m: &[u8; 32]) -> Transcript {
    let kp = v.keygen_internal(p, d, z);
    let (c, k) = v.encaps_internal(p, kp.ek(), m).expect("valid ek");
    let mut bad = c.clone();
    bad[0] ^= 1;
    let k_rej = v.decaps(p, kp.dk(), &bad).expect("right lengths");
    (
        kp.ek().to_vec(),
        kp.dk().to_vec(),
        c,
        k.as_bytes().to_vec(),
        k_rej.as_bytes().to_vec(),
    )
}

macro_rules! rustcrypto {
    ($fn:ident, $kem:ty) => {
        fn $fn(d: &[u8; 32], z: &[u8; 32], m: &[u8; 32]) -> Transcript {
            let mut seed = [0u8; 64];
            seed[..32].copy_from_slice(d);
            seed[32..].copy_from_slice(z);
            let dk = ml_kem::DecapsulationKey::<$kem>::from_seed(seed.into());
            let ek = dk.encapsulation_key().clone();
            let (c, k) = ek.encapsulate_deterministic(&(*m).into());
            let mut bad = c.clone();
            bad[0] ^= 1;
            let k_rej = dk.decapsulate(&bad);
            #[allow(deprecated)]
            let dk_bytes = dk.to_expanded_bytes();
            (
                ek.to_bytes().to_vec(),
                dk_bytes.to_vec(),
                c.to_vec(),
                k.to_vec(),
                k_rej.to_vec(),
            )
        }
    };
}
rustcrypto!(rustcrypto_512, ml_kem::MlKem512);
rustcrypto!(rustcrypto_768, ml_kem::MlKem768);
rustcrypto!(rustcrypto_1024, ml_kem::MlKem1024);

macro_rules! libcrux {
    ($fn:ident, $m:ident, $ct:ident) => {
        fn $fn(d: &[u8; 32], z: &[u8; 32], m: &[u8; 32]) -> Transcript {
            use libcrux_ml_kem::$m::portable;
            let mut seed = [0u8; 64];
            seed[..32].copy_from_slice(d);
            seed[32..].copy_from_slice(z);
            let kp = portable::generate_key_pair(seed);
            let (c, k) = portable::encapsulate(kp.public_key(), *m);
            let mut bad = c.as_slice().to_vec();
            bad[0] ^= 1;
            let bad = libcrux_ml_kem::$m::$ct::try_from(bad.as_slice()).expect("length");
            let k_rej = portable::decapsulate(kp.private_key(), &bad);
            (
                kp.public_key().as_slice().to_vec(),
                kp.private_key().as_slice().to_vec(),
                c.as_slice().to_vec(),
                k.to_vec(),
                k_rej.to_vec(),
            )
        }
    };
}
libcrux!(libcrux_512, mlkem512, MlKem512Ciphertext);
libcrux!(libcrux_768, mlkem768, MlKem768Ciphertext);
libcrux!(libcrux_1024, mlkem1024, MlKem1024Ciphertext);

type Peer = fn(&[u8; 32], &[u8; 32], &[u8; 32]) -> Transcript;

fn check(p: &Params, peers: &[(&str, Peer)], d: [u8; 32], z: [u8; 32], m: [u8; 32]) {
    const FIELDS: [&str; 5] = ["ek", "dk", "c", "K", "K (implicit rejection)"];
    for v in Variant::ALL {
        let a = ours(v, p, &d, &z, &m);
        for (peer, f) in peers {
            let b = f(&d, &z, &m);
            let pairs = [
                (&a.0, &b.0),
                (&a.1, &b.1),
                (&a.2, &b.2),
                (&a.3, &b.3),
                (&a.4, &b.4),
            ];
            for (name, (x, y)) in FIELDS.iter().zip(pairs) {
                if let Some(diff) = equivalence::pair::first_difference(name, x, y) {
                    panic!(
                        "{} {} vs {peer}: {diff}\n d = {}\n z = {}\n m = {}",
                        p.name(),
                        v.name(),
                        hex::encode(d),
                        hex::encode(z),
                        hex::encode(m)
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ml_kem_512_matches_peers(d: [u8; 32], z: [u8; 32], m: [u8; 32]) {
        check(&ML_KEM_512, &[("ml-kem", rustcrypto_512), ("libcrux", libcrux_512)], d, z, m);
    }

    #[test]
    fn ml_kem_768_matches_peers(d: [u8; 32], z: [u8; 32], m: [u8; 32]) {
        check(&ML_KEM_768, &[("ml-kem", rustcrypto_768), ("libcrux", libcrux_768)], d, z, m);
    }

    #[test]
    fn ml_kem_1024_matches_peers(d: [u8; 32], z: [u8; 32], m: [u8; 32]) {
        check(&ML_KEM_1024, &[("ml-kem", rustcrypto_1024), ("libcrux", libcrux_1024)], d, z, m);
    }
}
