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

// The implicit-rejection key of round 3's `crypto_kem_dec`: SHA3-256 of the secret
// key's last `PRFKEYBYTES` bytes (the PRF key) followed by the ciphertext, computed
// by the harness.
use equivalence::ntruhps2048509::rejection_key;

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
            let kp = v.keypair(&mut src).expect("a ChaCha20 stream gives f ≠ 0");
            let mut rm = [0u8; reference::ntruhps2048509::params::SAMPLE_RM_BYTES];
            src.fill(&mut rm);
            let (ct, ss) = v.encaps_derand(kp.pk(), &rm).expect("pk length");
            prop_assert_eq!(&kp.pk()[..], &p.pk[..], "pk, variant {}", v.name());
            prop_assert_eq!(&kp.sk()[..], &p.sk[..], "sk, variant {}", v.name());
            prop_assert_eq!(&ct[..], &p.ct[..], "ct, variant {}", v.name());
            prop_assert_eq!(&ss.as_bytes()[..], &p.ss[..], "ss, variant {}", v.name());
            let ss_dec = v.decaps(kp.sk(), &ct).expect("lengths");
            prop_assert_eq!(&ss_dec.as_bytes()[..], &p.ss_dec[..]);
            prop_assert_eq!(&ss_dec, &ss, "decapsulation recovers the key");
            // One flipped ciphertext bit: implicit rejection, the peer's key.
            let mut bad = ct;
            bad[flip / 8] ^= 1 << (flip % 8);
            let ours = v.decaps(kp.sk(), &bad).expect("lengths");
            let want = peer_dec(&p.sk, &bad);
            prop_assert_eq!(*ours.as_bytes(), want, "tampered ct, variant {}", v.name());
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
            let got = v.decaps(&p.sk, &ct).expect("lengths");
            prop_assert_eq!(*got.as_bytes(), want, "variant {}", v.name());
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
            assert_eq!(*got.as_bytes(), want, "variant {}", v.name());
            assert_ne!(got.as_bytes().to_vec(), p.ss, "must not be the real key");
        }
    }
    // Secret keys of every byte value decode too (S3 bytes above 242, any invh).
    for b in [0u8, 0xf2, 0xf3, 0xff] {
        let sk = vec![b; SECRETKEY_BYTES];
        let want = peer_dec(&sk, &p.ct);
        for v in variants() {
            assert_eq!(*v.decaps(&sk, &p.ct).expect("lengths").as_bytes(), want);
        }
    }
}

/// Ciphertexts that decrypt exactly to an m or an r just outside the message space,
/// so that only `owcpa_check_r` or `owcpa_check_m` can reject them (a tampered
/// ciphertext trips several checks at once, so the tests above never decide on one
/// check, or on one term of one). Both tiers share these checks, so no pair can see a
/// bug in them; the peer can. Each bad case breaks one term of one check:
///
/// * r with one coefficient 2 (`(c + 2) & 4`), or 6 or q − 2 (`(c + 1) & (q − 4)`);
/// * m with 127 coefficients +1 and 126 −1 (the counts differ and only the −1 count
///   is not W/2), 128 and 127 (the counts differ, the −1 count is W/2), 126 and 126
///   (the counts agree, both are wrong).
///
/// An m whose +1 and −1 counts differ by d has Lift(m)(1) = d ≠ 0, so r·h + Lift(m)
/// (h(1) = 0) does not survive the sum-zero packing of a ciphertext. It does after
/// adding k to every coefficient, k = −d/n mod q: the sum becomes 0, and decryption,
/// c·f mod (q, x^n − 1), gains k·f(1)·Φ_n, which vanishes for a key with f(1) = 0
/// (searched for below, about one key in 46), while b/h mod (q, Φ_n) loses k·Φ_n.
/// The test checks that `owcpa_dec` returns exactly the m encrypted (and, for a
/// ternary r, the r), then that the peer's key is the implicit-rejection key for every
/// bad case and not for the control (a ternary r, 127 of each in m), and that every
/// variant gives the peer's key.
#[test]
fn ciphertexts_that_decrypt_outside_the_message_space_get_implicit_rejection() {
    use reference::ntruhps2048509::pack::{
        poly_rq_sum_zero_frombytes, poly_rq_sum_zero_tobytes, poly_s3_frombytes, poly_s3_tobytes,
    };
    use reference::ntruhps2048509::params::{
        N, OWCPA_SECRETKEYBYTES, PACK_TRINARY_BYTES, Q, WEIGHT,
    };
    use reference::ntruhps2048509::poly::{poly_lift, poly_trinary_zq_to_z3};
    use reference::ntruhps2048509::{Poly, Reference, owcpa};

    // A key pair of the peer whose f has as many coefficients +1 as −1.
    let (pk, sk) = (0..1000u32)
        .find_map(|i| {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&i.to_le_bytes());
            let mut src = ChaCha20Source::new(seed);
            let mut pk = [0u8; peer::CRYPTO_PUBLICKEYBYTES];
            let mut sk = [0u8; peer::CRYPTO_SECRETKEYBYTES];
            peer::crypto_kem_keypair(&mut pk, &mut sk, &mut Feed(&mut src)).expect("keypair");
            let f = poly_s3_frombytes(sk[..PACK_TRINARY_BYTES].try_into().expect("f"));
            let count = |v| f.0.iter().filter(|&&c| c == v).count();
            (count(1) == count(2)).then_some((pk, sk))
        })
        .expect("a key with f(1) = 0 among 1000");
    let sk_owcpa: &[u8; OWCPA_SECRETKEYBYTES] = sk[..OWCPA_SECRETKEYBYTES].try_into().expect("sk");

    // `plus` coefficients +1 (1) then `minus` coefficients −1 (2), the rest 0.
    let message = |plus: usize, minus: usize| {
        let mut m = Poly::default();
        for (i, c) in m.0.iter_mut().take(plus + minus).enumerate() {
            *c = if i < plus { 1 } else { 2 };
        }
        m
    };
    // r lifted to Z_q (−1 is q − 1) with r[n − 1] = 0, and r[0] replaced by `r0`.
    let randomness = |r0: u16| {
        let mut r = Poly::default();
        for (i, c) in r.0.iter_mut().take(N - 1).enumerate() {
            *c = [0, 1, Q - 1][i % 3];
        }
        r.0[0] = r0;
        r
    };
    // r·h + Lift(m) + k·(1 + x + … + x^(n−1)) mod q, packed.
    let encrypt = |r: &Poly, m: &Poly| {
        let rh =
            poly_rq_sum_zero_frombytes(&owcpa::owcpa_enc::<Reference>(r, &Poly::default(), &pk));
        let lift = poly_lift(m);
        let d = lift.0.iter().fold(0u16, |s, &x| s.wrapping_add(x)) % Q;
        let k = (0..Q)
            .find(|&k| (usize::from(k) * N + usize::from(d)).is_multiple_of(usize::from(Q)))
            .expect("n is odd");
        let mut c = Poly::default();
        for ((o, &x), &y) in c.0.iter_mut().zip(&rh.0).zip(&lift.0) {
            *o = x.wrapping_add(y).wrapping_add(k) % Q;
        }
        let ct = poly_rq_sum_zero_tobytes(&c);
        // The decoder leaves its last coefficient (minus the others' sum) unreduced.
        let decoded = poly_rq_sum_zero_frombytes(&ct).0.map(|x| x % Q);
        assert_eq!(decoded, c.0, "the sum-zero packing kept c");
        ct
    };
    let half = WEIGHT / 2;
    let case = |what: &str, r: &Poly, m: &Poly, rejected: bool| {
        let ct = encrypt(r, m);
        let (rm, _) = owcpa::owcpa_dec::<Reference>(&ct, sk_owcpa);
        assert_eq!(
            rm[PACK_TRINARY_BYTES..],
            poly_s3_tobytes(m),
            "{what}: m decrypted"
        );
        if r.0.iter().all(|&c| c <= 1 || c == Q - 1) {
            let mut r3 = *r;
            poly_trinary_zq_to_z3(&mut r3);
            assert_eq!(
                rm[..PACK_TRINARY_BYTES],
                poly_s3_tobytes(&r3),
                "{what}: r decrypted"
            );
        }
        let want = peer_dec(&sk, &ct);
        let verdict = want == rejection_key(&sk, &ct);
        assert_eq!(verdict, rejected, "{what}: the peer's verdict");
        for v in variants() {
            let got = v.decaps(&sk, &ct).expect("lengths");
            assert_eq!(*got.as_bytes(), want, "{what}: variant {}", v.name());
        }
    };
    case("control", &randomness(0), &message(half, half), false);
    for r0 in [2, 6, Q - 2] {
        case(
            &format!("r[0] = {r0}"),
            &randomness(r0),
            &message(half, half),
            true,
        );
    }
    for (plus, minus) in [(half, half - 1), (half + 1, half), (half - 1, half - 1)] {
        let what = format!("m with {plus} +1 and {minus} -1");
        case(&what, &randomness(0), &message(plus, minus), true);
    }
}

/// A seed whose first 508 bytes are all multiples of 3 gives f = 0: every tier
/// refuses it with a typed error (the C code returns a key pair that cannot
/// decapsulate); one byte that is not a multiple of 3 is enough for a key pair.
#[test]
fn a_seed_giving_f_zero_is_refused() {
    use reference::ntruhps2048509::params::{PRFKEYBYTES, SAMPLE_FG_BYTES};
    let prf = [7u8; PRFKEYBYTES];
    for v in variants() {
        for fill in [0x00u8, 0xff, 0x03] {
            let seed = [fill; SAMPLE_FG_BYTES];
            assert!(
                matches!(
                    v.keypair_derand(&seed, &prf),
                    Err(Error::InvalidEncoding { .. })
                ),
                "{v:?}: a seed of 0x{fill:02x} bytes gave a key pair"
            );
        }
        let mut seed = [0u8; SAMPLE_FG_BYTES];
        seed[507] = 1; // f_507 = 1
        let kp = v.keypair_derand(&seed, &prf).expect("f = x^507 is not 0");
        let rm = [5u8; reference::ntruhps2048509::params::SAMPLE_RM_BYTES];
        let (ct, ss) = v.encaps_derand(kp.pk(), &rm).expect("a generated pk");
        assert_eq!(v.decaps(kp.sk(), &ct).expect("lengths"), ss, "{v:?}");
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    let kp = Variant::Reference
        .keypair(&mut ChaCha20Source::new([1; 32]))
        .expect("a ChaCha20 stream gives f ≠ 0");
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
                v.decaps(kp.sk(), &vec![0u8; len]),
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
