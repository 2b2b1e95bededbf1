//! ntruhps2048509 against an independent implementation, and bad input.
//!
//! * Differential: `ntrust-native` 1.0.1 (a Rust port of the round-3 reference,
//!   feature `ntruhps2048509`) fed the same random bytes (a ChaCha20 stream, drawn in
//!   the same pattern) gives the same pk, sk, ct and shared secrets as every variant,
//!   including implicit-rejection keys for random and tampered ciphertexts.
//! * Bad input: wrong lengths give `Error::InvalidLength`; 699-byte ciphertexts of
//!   every shape decapsulate (implicit rejection) without a panic.

// Divisions here act on public test indices and constants, never on secrets.
#![allow(clippy::integer_division_remainder_used)]

use equivalence::ntruhps2048509::Variant;
use ntrust_native as peer;
use proptest::prelude::*;
use reference::RandomSource;
use reference::error::Error;
use reference::ntruhps2048509::params::{CIPHERTEXT_BYTES, PUBLICKEY_BYTES, SECRETKEY_BYTES};
use reference::rng::ChaCha20Source;

/// Our random source seen through ntrust-native's RNG trait.
struct Feed<'a>(&'a mut dyn RandomSource);

impl peer::RNGState for Feed<'_> {
    fn randombytes(&mut self, x: &mut [u8]) -> Result<(), Box<dyn std::error::Error>> {
        self.0.fill(x);
        Ok(())
    }
    fn randombytes_init(&mut self, _entropy_input: [u8; 48]) {
        unreachable!("the KEM never re-initializes its source")
    }
}

struct PeerOut {
    pk: Vec<u8>,
    sk: Vec<u8>,
    ct: Vec<u8>,
    ss: Vec<u8>,
    ss_dec: Vec<u8>,
}

fn run_peer(seed: [u8; 32]) -> PeerOut {
    let mut src = ChaCha20Source::new(seed);
    let mut rng = Feed(&mut src);
    let mut pk = [0u8; peer::CRYPTO_PUBLICKEYBYTES];
    let mut sk = [0u8; peer::CRYPTO_SECRETKEYBYTES];
    peer::crypto_kem_keypair(&mut pk, &mut sk, &mut rng).expect("keypair");
    let mut ct = [0u8; peer::CRYPTO_CIPHERTEXTBYTES];
    let mut ss = [0u8; peer::CRYPTO_BYTES];
    peer::crypto_kem_enc(&mut ct, &mut ss, &pk, &mut rng).expect("enc");
    let mut ss_dec = [0u8; peer::CRYPTO_BYTES];
    peer::crypto_kem_dec(&mut ss_dec, &ct, &sk).expect("dec");
    PeerOut {
        pk: pk.to_vec(),
        sk: sk.to_vec(),
        ct: ct.to_vec(),
        ss: ss.to_vec(),
        ss_dec: ss_dec.to_vec(),
    }
}

fn peer_dec(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    let mut ss = [0u8; 32];
    peer::crypto_kem_dec(
        &mut ss,
        ct.try_into().expect("699"),
        sk.try_into().expect("935"),
    )
    .expect("dec");
    ss
}

/// The implicit-rejection key of round 3's `crypto_kem_dec`: SHA3-256 of the secret
/// key's last 32 bytes (the PRF key) followed by the ciphertext.
fn rejection_key(sk: &[u8], ct: &[u8]) -> [u8; 32] {
    use sha3::{Digest, Sha3_256};
    let mut h = Sha3_256::new();
    h.update(&sk[SECRETKEY_BYTES - 32..]);
    h.update(ct);
    h.finalize().into()
}

fn variants() -> impl Iterator<Item = Variant> {
    Variant::ALL.into_iter()
}

#[test]
fn sizes_match_the_peer() {
    assert_eq!(peer::CRYPTO_PUBLICKEYBYTES, PUBLICKEY_BYTES);
    assert_eq!(peer::CRYPTO_SECRETKEYBYTES, SECRETKEY_BYTES);
    assert_eq!(peer::CRYPTO_CIPHERTEXTBYTES, CIPHERTEXT_BYTES);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn byte_exact_against_ntrust_native(seed in any::<[u8; 32]>(), flip in 0usize..CIPHERTEXT_BYTES * 8) {
        let p = run_peer(seed);
        for v in variants() {
            let mut src = ChaCha20Source::new(seed);
            let kp = v.keypair(&mut src);
            let mut rm = [0u8; reference::ntruhps2048509::params::SAMPLE_RM_BYTES];
            src.fill(&mut rm);
            let (ct, ss) = v.encaps_derand(&kp.pk, &rm).expect("pk length");
            prop_assert_eq!(&kp.pk[..], &p.pk[..], "pk, variant {}", v.name());
            prop_assert_eq!(&kp.sk[..], &p.sk[..], "sk, variant {}", v.name());
            prop_assert_eq!(&ct[..], &p.ct[..], "ct, variant {}", v.name());
            prop_assert_eq!(&ss[..], &p.ss[..], "ss, variant {}", v.name());
            let ss_dec = v.decaps(&kp.sk, &ct).expect("lengths");
            prop_assert_eq!(&ss_dec[..], &p.ss_dec[..]);
            prop_assert_eq!(&ss_dec[..], &ss[..], "decapsulation recovers the key");
            // One flipped ciphertext bit: implicit rejection, the peer's key.
            let mut bad = ct;
            bad[flip / 8] ^= 1 << (flip % 8);
            let ours = v.decaps(&kp.sk, &bad).expect("lengths");
            prop_assert_eq!(ours, peer_dec(&p.sk, &bad), "tampered ct, variant {}", v.name());
            prop_assert_ne!(ours, ss);
        }
    }

    #[test]
    fn any_699_byte_ciphertext_decapsulates_like_the_peer(
        seed in any::<[u8; 32]>(),
        ct in proptest::collection::vec(any::<u8>(), CIPHERTEXT_BYTES),
    ) {
        let p = run_peer(seed);
        let want = peer_dec(&p.sk, &ct);
        for v in variants() {
            prop_assert_eq!(v.decaps(&p.sk, &ct).expect("lengths"), want, "variant {}", v.name());
        }
    }
}

#[test]
fn structured_ciphertexts_get_implicit_rejection_without_panic() {
    let p = run_peer([7; 32]);
    let mut cts: Vec<Vec<u8>> = vec![
        vec![0u8; CIPHERTEXT_BYTES],
        vec![0xff; CIPHERTEXT_BYTES],
        vec![0x55; CIPHERTEXT_BYTES],
        vec![0xaa; CIPHERTEXT_BYTES],
    ];
    // The honest ciphertext with only the unused top bits of the last byte set: the
    // polynomial is unchanged, so only `owcpa_check_ciphertext` rejects it.
    for bits in 1..16u8 {
        let mut c = p.ct.clone();
        c[CIPHERTEXT_BYTES - 1] |= bits << 4;
        cts.push(c);
    }
    for c in &cts {
        let want = peer_dec(&p.sk, c);
        for v in variants() {
            let got = v.decaps(&p.sk, c).expect("lengths");
            assert_eq!(got, want, "variant {}", v.name());
            assert_ne!(got.to_vec(), p.ss, "must not be the real key");
        }
    }
    // Secret keys of every byte value decode too (S3 bytes above 242, any invh).
    for b in [0u8, 0xf2, 0xf3, 0xff] {
        let sk = vec![b; SECRETKEY_BYTES];
        let want = peer_dec(&sk, &p.ct);
        for v in variants() {
            assert_eq!(v.decaps(&sk, &p.ct).expect("lengths"), want);
        }
    }
}

/// A ciphertext made with a well-formed m but an r that is not ternary: decryption
/// recovers both, and only `owcpa_check_r` rejects it (a tampered ciphertext also
/// trips `owcpa_check_m`, so the tests above never decide on r alone). Both tiers
/// share that check, so no pair can see a bug in it; the peer can. The control, the
/// same m with a ternary r, is accepted: the peer's key for it is not the implicit
/// rejection key, while its key for the bad ciphertext is.
#[test]
fn ciphertext_with_a_non_ternary_r_gets_implicit_rejection() {
    use reference::ntruhps2048509::params::{N, Q, WEIGHT};
    use reference::ntruhps2048509::{Poly, Reference, owcpa};
    let p = run_peer([9; 32]);
    let pk: [u8; PUBLICKEY_BYTES] = p.pk.as_slice().try_into().expect("pk length");
    // WEIGHT/2 coefficients +1 (1) and WEIGHT/2 coefficients −1 (2): what check_m wants.
    let mut m = Poly::default();
    for (i, c) in m.0.iter_mut().take(WEIGHT).enumerate() {
        *c = if i < WEIGHT / 2 { 1 } else { 2 };
    }
    // r lifted to Z_q: −1 is q − 1, and r[n − 1] = 0.
    let mut r = Poly::default();
    for (i, c) in r.0.iter_mut().take(N - 1).enumerate() {
        *c = [0, 1, Q - 1][i % 3];
    }
    let honest = owcpa::owcpa_enc::<Reference>(&r, &m, &pk);
    r.0[0] = 2;
    let bad = owcpa::owcpa_enc::<Reference>(&r, &m, &pk);
    let (want_honest, want_bad) = (peer_dec(&p.sk, &honest), peer_dec(&p.sk, &bad));
    assert_ne!(want_honest, rejection_key(&p.sk, &honest), "control rejected");
    assert_eq!(want_bad, rejection_key(&p.sk, &bad), "bad r accepted");
    for v in variants() {
        assert_eq!(
            v.decaps(&p.sk, &honest).expect("lengths"),
            want_honest,
            "variant {}",
            v.name()
        );
        assert_eq!(
            v.decaps(&p.sk, &bad).expect("lengths"),
            want_bad,
            "variant {}",
            v.name()
        );
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    let kp = Variant::Reference.keypair(&mut ChaCha20Source::new([1; 32]));
    let rm = [0u8; reference::ntruhps2048509::params::SAMPLE_RM_BYTES];
    for v in variants() {
        for len in [0, 1, PUBLICKEY_BYTES - 1, PUBLICKEY_BYTES + 1, 4096] {
            let pk = vec![0u8; len];
            assert_eq!(
                v.encaps_derand(&pk, &rm),
                Err(Error::InvalidLength {
                    what: "public key",
                    expected: PUBLICKEY_BYTES,
                    got: len
                })
            );
            let mut src = ChaCha20Source::new([2; 32]);
            assert!(matches!(
                reference::ntruhps2048509::encaps::<reference::ntruhps2048509::Reference>(
                    &pk, &mut src
                ),
                Err(Error::InvalidLength {
                    what: "public key",
                    ..
                })
            ));
        }
        for len in [0, CIPHERTEXT_BYTES - 1, CIPHERTEXT_BYTES + 1] {
            assert_eq!(
                v.decaps(&kp.sk, &vec![0u8; len]),
                Err(Error::InvalidLength {
                    what: "ciphertext",
                    expected: CIPHERTEXT_BYTES,
                    got: len
                })
            );
        }
        for len in [0, SECRETKEY_BYTES - 1, SECRETKEY_BYTES + 1] {
            assert_eq!(
                v.decaps(&vec![0u8; len], &[0u8; CIPHERTEXT_BYTES]),
                Err(Error::InvalidLength {
                    what: "secret key",
                    expected: SECRETKEY_BYTES,
                    got: len
                })
            );
        }
    }
}
