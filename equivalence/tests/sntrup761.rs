//! sntrup761: pairs, the call-boundary precondition, the differential test against the
//! `sntrup761` crate, bound obligations and bad input.

use equivalence::pair::{Level, Outcome, Pair};
use equivalence::registry;
use equivalence::sntrup761::{
    CALL_BOUNDARY_INVARIANT_RNG, PAIRS, Source, Variant, compare_transcripts, run_api, transcript,
};
use proptest::prelude::*;
use reference::Error;
use reference::RandomSource;
use reference::rng::{ChaCha20Source, Shake256Source};
use reference::sntrup761::kem::hash_prefix;
use reference::sntrup761::{
    self as r, CIPHERTEXT_BYTES, Kernels, P, PUBLIC_KEY_BYTES, Q12, ROUNDED_BYTES, SECRET_KEY_BYTES,
};

fn pair(name: &str) -> &'static dyn Pair {
    *PAIRS
        .iter()
        .find(|p| p.name() == name)
        .unwrap_or_else(|| panic!("no pair {name}"))
}

// ---------------------------------------------------------------------------
// Kernel pairs (optimization 2)

/// Every selector value (so every adversarial pattern, several times) for both
/// multiplication kernels.
#[test]
fn kernel_pairs_agree_on_every_pattern() {
    for name in ["sntrup761/rq-mult-small", "sntrup761/r3-mult"] {
        let p = pair(name);
        let t = registry::check(p, 0x5eed, 256, None, |_| {});
        assert_eq!(t.mismatches, 0, "{name}: {:?}", t.first_mismatch);
        assert_eq!(t.equal, 256, "{name}");
    }
}

/// The randomness kernels: equal under the stream sources, precondition not met under
/// the NIST DRBG (the selector walks through all three sources).
#[test]
fn draw_pairs_equal_on_streams_and_report_the_precondition_on_drbg() {
    for name in ["sntrup761/short-random", "sntrup761/small-random"] {
        let p = pair(name);
        assert_eq!(p.preconditions(), &[CALL_BOUNDARY_INVARIANT_RNG]);
        let t = registry::check(p, 11, 256, None, |_| {});
        assert_eq!(t.mismatches, 0, "{name}: {:?}", t.first_mismatch);
        // Selectors 0..85 pick ChaCha20, 86..170 SHAKE-256, 171..255 the DRBG.
        assert_eq!(t.skipped(), 85, "{name}");
        assert_eq!(t.equal, 171, "{name}");
    }
    assert_eq!(
        equivalence::sntrup761::kat0_file("reference"),
        Some("kat0/kat0-sntrup761-urandom32.txt")
    );
    assert_eq!(
        equivalence::sntrup761::kat0_file("optimized"),
        Some("kat0/kat0-sntrup761.txt")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn kernel_pairs_agree_on_random_inputs(input in proptest::collection::vec(any::<u8>(), 1..64)) {
        for name in ["sntrup761/rq-mult-small", "sntrup761/r3-mult"] {
            prop_assert_eq!(pair(name).run(&input), Outcome::Equal, "{}", name);
        }
    }
}

/// The accumulator bound is attained: with f = q12 and g = 1 everywhere, the
/// coefficient p−1 of the unreduced product is exactly 761·2295 = 1,746,495, and the
/// deferred kernel still agrees with the per-step one there.
#[test]
fn accumulator_bound_is_attained_and_exact() {
    let f = [Q12 as i16; P];
    let g = [1i8; P];
    let acc: i64 = (0..P)
        .map(|j| i64::from(f[j]) * i64::from(g[P - 1 - j]))
        .sum();
    assert_eq!(acc, 1_746_495);
    assert!(acc < 1 << 31);
    let mut a = [0; P];
    let mut b = [0; P];
    r::Reference::rq_mult_small(&mut a, &f, &g);
    optimized::sntrup761::Optimized::rq_mult_small(&mut b, &f, &g);
    assert_eq!(a, b);
    // |g| = 2 doubles it: 3,492,990, still inside Fq_freeze's exact domain.
    let g2 = [2i8; P];
    r::Reference::rq_mult_small(&mut a, &f, &g2);
    optimized::sntrup761::Optimized::rq_mult_small(&mut b, &f, &g2);
    assert_eq!(a, b);
    let e = [2i8; P];
    let mut x = [0; P];
    let mut y = [0; P];
    r::Reference::r3_mult(&mut x, &e, &e);
    optimized::sntrup761::Optimized::r3_mult(&mut y, &e, &e);
    assert_eq!(x, y);
}

/// The brief's pitfall, as a check that the kernel pair has teeth: deferring the
/// reduction is only correct because `Fq_freeze` is exact far beyond ±q12. With a
/// freeze that only corrects by one q (valid for |x| <= q12 + q, enough for the
/// per-step reference), the deferred product differs on the extreme patterns.
#[test]
fn deferred_reduction_needs_the_wide_freeze() {
    let q = reference::sntrup761::Q;
    let narrow = |x: i32| -> i16 {
        let mut y = x;
        y -= q & -i32::from(y > Q12);
        y += q & -i32::from(y < -Q12);
        y as i16
    };
    let f = [Q12 as i16; P];
    let g = [1i8; P];
    let mut fg = [0i16; 2 * P - 1];
    for (i, out) in fg.iter_mut().enumerate() {
        let lo = (i + 1).saturating_sub(P);
        let hi = i.min(P - 1);
        let acc: i32 = (lo..=hi)
            .map(|j| i32::from(f[j]) * i32::from(g[i - j]))
            .sum();
        *out = narrow(acc);
    }
    let mut h = [0i16; P];
    reference::sntrup761::poly::rq_wrap(&mut h, &mut fg);
    let mut want = [0i16; P];
    r::Reference::rq_mult_small(&mut want, &f, &g);
    assert_ne!(h, want, "a narrow freeze must break the deferred kernel");
}

// ---------------------------------------------------------------------------
// API pairs and the precondition (optimization 1)

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    /// Under both stream sources, all three variants give byte-identical pk, sk, ct,
    /// ss (and decapsulation and implicit-rejection keys) for the same seed.
    #[test]
    fn variants_identical_under_stream_sources(seed in any::<[u8; 32]>(), bad in any::<[u8; 32]>()) {
        let bad_ct: Vec<u8> = Shake256Source::new(&bad).take(CIPHERTEXT_BYTES);
        let run = |v: Variant, chacha: bool| {
            let mut src: Box<dyn RandomSource> = if chacha {
                Box::new(ChaCha20Source::new(seed))
            } else {
                Box::new(Shake256Source::new(&seed))
            };
            transcript(v, src.as_mut(), &bad_ct)
        };
        for chacha in [true, false] {
            let a = run(Variant::Reference, chacha);
            // Session keys are compared, not printed.
            prop_assert!(a.ss == a.ss_dec, "decap did not give the encapsulated key");
            prop_assert!(a.ss != a.ss_rej, "the random ciphertext decapsulated to ss");
            for v in [Variant::BatchedRng, Variant::Optimized] {
                let b = run(v, chacha);
                prop_assert_eq!(compare_transcripts(&a, &b), Outcome::Equal, "{:?} chacha={}", v, chacha);
            }
        }
    }
}

/// Helper: read n bytes from a source.
trait Take {
    fn take(self, n: usize) -> Vec<u8>;
}
impl<S: RandomSource> Take for S {
    fn take(mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.fill(&mut v);
        v
    }
}

#[test]
fn api_pairs_declare_the_precondition_and_report_it_under_nist_drbg() {
    for p in PAIRS.iter().filter(|p| p.level() == Level::Api) {
        let declares = p.preconditions().contains(&CALL_BOUNDARY_INVARIANT_RNG);
        let mixes = p.name().starts_with("sntrup761/reference-vs-");
        assert_eq!(declares, mixes, "{}", p.name());
        for i in 0..2u64 {
            let input = registry::case_input(7, *p, i);
            let out = p.run(&input);
            if mixes && p.name().ends_with("/nist-drbg") {
                match out {
                    Outcome::PreconditionNotMet { which, detail } => {
                        assert_eq!(which, "call-boundary-invariant-rng");
                        assert!(detail.contains("pk differs"), "{detail}");
                    }
                    o => panic!("{}: expected PreconditionNotMet, got {o:?}", p.name()),
                }
            } else {
                // Streams, and batched-rng vs optimized (same draws) under any source.
                assert_eq!(out, Outcome::Equal, "{}", p.name());
            }
        }
    }
}

#[test]
fn every_source_is_labelled_correctly() {
    for s in Source::ALL {
        let src = s.make(&[1; 48]);
        assert_eq!(
            src.is_call_boundary_invariant(),
            s != Source::NistDrbg,
            "{}",
            s.name()
        );
    }
    // A direct run outside the registry gives the same verdicts.
    let input = [3u8; 16];
    assert!(matches!(
        run_api(
            Variant::Optimized,
            Variant::Reference,
            Source::NistDrbg,
            &input
        ),
        Outcome::PreconditionNotMet { .. }
    ));
    assert_eq!(
        run_api(
            Variant::Optimized,
            Variant::Reference,
            Source::ChaCha20,
            &input
        ),
        Outcome::Equal
    );
}

// ---------------------------------------------------------------------------
// Differential: the `sntrup761` crate (crates.io) reading the same byte stream.
//
// That crate draws each coefficient word with `rng.random::<i32>()`, i.e. one
// `next_u32`, and ρ with one `fill_bytes(191)`. The adapter maps `next_u32` to a
// 4-byte little-endian draw, so it reads the same bytes as `urandom32`.

use equivalence::sntrup761::SameStream;

fn crate_transcript(src: &mut dyn RandomSource, bad_ct: &[u8]) -> [Vec<u8>; 6] {
    let (pk, sk) = sntrup761::generate_key(SameStream(&mut *src));
    let (ct, ss) = pk.encapsulate(SameStream(&mut *src));
    let ss_dec = sk.decapsulate(&ct);
    let bad = sntrup761::Ciphertext::try_from(bad_ct).expect("1039 bytes");
    let ss_rej = sk.decapsulate(&bad);
    [
        pk.as_ref().to_vec(),
        sk.as_ref().to_vec(),
        ct.as_ref().to_vec(),
        ss.as_ref().to_vec(),
        ss_dec.as_ref().to_vec(),
        ss_rej.as_ref().to_vec(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]
    #[test]
    fn byte_exact_against_sntrup761_crate(seed in any::<[u8; 32]>()) {
        let bad_ct = ChaCha20Source::new([9; 32]).take(CIPHERTEXT_BYTES);
        let theirs = crate_transcript(&mut ChaCha20Source::new(seed), &bad_ct);
        for v in Variant::ALL {
            let ours = transcript(v, &mut ChaCha20Source::new(seed), &bad_ct);
            let ours = [&ours.pk, &ours.sk, &ours.ct, &ours.ss, &ours.ss_dec, &ours.ss_rej];
            for (field, (a, b)) in ["pk", "sk", "ct", "ss", "ss_dec", "ss_rej"].iter().zip(ours.into_iter().zip(&theirs)) {
                prop_assert!(a == b, "{:?}: {} differs from the sntrup761 crate", v, field);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Bad input

/// A source repeating one 4-byte word gives the same g on every draw; for the word
/// 0x15555556, which the Small map takes to 0, that g is 0, never invertible: key
/// generation stops with a panic naming the source, in every tier, instead of
/// looping for ever (the C code's behaviour).
#[test]
fn a_source_stuck_on_g_zero_stops_key_generation() {
    struct Repeating(usize);
    impl RandomSource for Repeating {
        fn fill(&mut self, dst: &mut [u8]) {
            for b in dst {
                *b = 0x1555_5556u32.to_le_bytes()[self.0 & 3];
                self.0 += 1;
            }
        }
        fn is_call_boundary_invariant(&self) -> bool {
            true
        }
    }
    assert_eq!(
        reference::sntrup761::random::small_from_word(0x1555_5556),
        0
    );
    for v in Variant::ALL {
        let mut stuck = Repeating(0);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            v.keypair(&mut stuck);
        }));
        let payload = result.expect_err("a source stuck on g = 0 gave a key pair");
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or_default();
        assert!(msg.contains("broken random source"), "{v:?}: {msg}");
        // 64 draws of 3044 bytes, or 64·761 of 4 (the reference tier).
        assert_eq!(stuck.0, 64 * 3044, "{v:?}");
    }
}

#[test]
fn wrong_lengths_are_typed_errors() {
    let mut rng = ChaCha20Source::new([1; 32]);
    let kp = Variant::Optimized.keypair(&mut rng);
    let (ct, _) = Variant::Optimized
        .encapsulate(kp.pk(), &mut rng)
        .expect("valid");
    for v in Variant::ALL {
        for n in [0, 1, PUBLIC_KEY_BYTES - 1, PUBLIC_KEY_BYTES + 1] {
            assert_eq!(
                v.encapsulate(&vec![0; n], &mut rng),
                Err(Error::InvalidLength {
                    what: "public key",
                    expected: PUBLIC_KEY_BYTES,
                    got: n
                })
            );
        }
        for n in [0, CIPHERTEXT_BYTES - 1, CIPHERTEXT_BYTES + 1] {
            assert_eq!(
                v.decapsulate(kp.sk(), &vec![0; n]),
                Err(Error::InvalidLength {
                    what: "ciphertext",
                    expected: CIPHERTEXT_BYTES,
                    got: n
                })
            );
        }
        for n in [0, SECRET_KEY_BYTES - 1, SECRET_KEY_BYTES + 1] {
            assert_eq!(
                v.decapsulate(&vec![0; n], &ct),
                Err(Error::InvalidLength {
                    what: "secret key",
                    expected: SECRET_KEY_BYTES,
                    got: n
                })
            );
        }
    }
}

// The implicit-rejection key the specification prescribes: Hash0(Hash3(ρ) ‖ c),
// computed from the secret-key bytes by the harness, with SHA-512 itself rather than
// the decapsulation code's hashes.
use equivalence::sntrup761::rejection_key;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Any 1039 bytes decapsulate, to the implicit-rejection key unless they are the
    /// honest ciphertext; all variants agree.
    #[test]
    fn every_ciphertext_decapsulates(seed in any::<[u8; 32]>(), flip in 0..CIPHERTEXT_BYTES * 8, junk in any::<bool>()) {
        let mut rng = ChaCha20Source::new(seed);
        let kp = Variant::Optimized.keypair(&mut rng);
        let (ct, ss) = Variant::Optimized.encapsulate(kp.pk(), &mut rng).expect("valid");
        let bad = if junk {
            ChaCha20Source::new(seed).take(CIPHERTEXT_BYTES)
        } else {
            let mut b = ct.clone();
            b[flip >> 3] ^= 1 << (flip & 7);
            b
        };
        let want = rejection_key(kp.sk(), &bad);
        for v in Variant::ALL {
            prop_assert_eq!(&v.decapsulate(kp.sk(), &ct).expect("ok"), &ss);
            prop_assert_eq!(*v.decapsulate(kp.sk(), &bad).expect("ok").as_bytes(), want);
        }
    }

    /// Arbitrary secret-key bytes (Small fields may decode to 2) and arbitrary
    /// ciphertexts: a key, never a panic, the same from every variant.
    #[test]
    fn arbitrary_secret_keys_and_ciphertexts(seed in any::<[u8; 32]>()) {
        let mut rng = ChaCha20Source::new(seed);
        let sk = (&mut rng).take(SECRET_KEY_BYTES);
        let ct = (&mut rng).take(CIPHERTEXT_BYTES);
        let a = Variant::Reference.decapsulate(&sk, &ct).expect("ok");
        for v in [Variant::BatchedRng, Variant::Optimized] {
            prop_assert_eq!(&v.decapsulate(&sk, &ct).expect("ok"), &a);
        }
    }
}

#[test]
fn extreme_ciphertexts_decapsulate() {
    let mut rng = Shake256Source::new(b"extreme");
    let kp = Variant::Optimized.keypair(&mut rng);
    for fill in [0x00u8, 0xff, 0x55, 0xaa] {
        let ct = vec![fill; CIPHERTEXT_BYTES];
        let want = rejection_key(kp.sk(), &ct);
        for v in Variant::ALL {
            assert_eq!(*v.decapsulate(kp.sk(), &ct).expect("ok").as_bytes(), want);
        }
    }
}

/// A public key that does not decode in range is, per the specification, reduced mod
/// q by `Rq_decode` (no error): encapsulation proceeds with the reduced h, while the
/// hashes see the bytes as given. So against the canonical re-encoding pk' of the same
/// h the Rounded part of the ciphertext is equal and the confirmation differs; and an
/// independent implementation does the same.
#[test]
fn out_of_range_public_keys_behave_as_specified() {
    use reference::sntrup761::encode::{rq_decode, rq_encode};
    for fill in [0xffu8, 0xfe, 0x80] {
        let pk = [fill; PUBLIC_KEY_BYTES];
        let mut h = [0i16; P];
        rq_decode(&mut h, &pk);
        assert!(h.iter().all(|&x| (-2295..=2295).contains(&x)));
        let mut canon = [0u8; PUBLIC_KEY_BYTES];
        rq_encode(&mut canon, &h);
        assert_ne!(canon, pk, "0x{fill:02x}.. is not a canonical encoding");

        let seed = [fill; 32];
        let (ct, ss) = Variant::Reference
            .encapsulate(&pk, &mut ChaCha20Source::new(seed))
            .expect("any 1158 bytes are a public key");
        for v in [Variant::BatchedRng, Variant::Optimized] {
            assert_eq!(
                v.encapsulate(&pk, &mut ChaCha20Source::new(seed)),
                Ok((ct.clone(), ss.clone()))
            );
        }
        let (ct2, _) = Variant::Reference
            .encapsulate(&canon, &mut ChaCha20Source::new(seed))
            .expect("ok");
        assert_eq!(ct[..ROUNDED_BYTES], ct2[..ROUNDED_BYTES]);
        assert_ne!(ct[ROUNDED_BYTES..], ct2[ROUNDED_BYTES..]);
        assert_eq!(hash_prefix(4, &pk).len(), 32);

        // The sntrup761 crate, reading the same stream, agrees byte for byte.
        let theirs = sntrup761::EncapsulationKey::try_from(&pk[..]).expect("1158 bytes");
        let mut src = ChaCha20Source::new(seed);
        let (tct, tss) = theirs.encapsulate(SameStream(&mut src));
        assert_eq!(tct.as_ref(), &ct[..], "0x{fill:02x}");
        assert_eq!(tss.as_ref(), ss.as_bytes());
    }
}

/// The fuzz targets' reference tier ([`ExactProducts`]: the reference's draws, the
/// products computed exactly) decapsulates as [`r::Reference`] does: on a real key
/// and ciphertext, on that ciphertext changed (implicit rejection), and on
/// arbitrary right-length bytes; and its kernels equal the per-step ones on the
/// extreme operands (|f| = q12, |g| = 2, both signs).
#[test]
fn exact_products_decapsulate_as_the_reference() {
    use equivalence::sntrup761::ExactProducts;
    let mut rng = ChaCha20Source::new([7; 32]);
    let kp = r::keypair::<r::Reference, _>(&mut rng);
    let (ct, _) = r::encapsulate::<r::Reference, _>(kp.pk(), &mut rng).expect("own key");
    let mut bad = ct.clone();
    bad[517] ^= 0x10;
    let mut cases = vec![(kp.sk().to_vec(), ct), (kp.sk().to_vec(), bad)];
    for n in 0..3u8 {
        let mut sk = vec![0u8; SECRET_KEY_BYTES];
        let mut c = vec![0u8; CIPHERTEXT_BYTES];
        Shake256Source::new(&[n]).fill(&mut sk);
        Shake256Source::new(&[n, 1]).fill(&mut c);
        cases.push((sk, c));
    }
    for (i, (sk, c)) in cases.iter().enumerate() {
        assert_eq!(
            r::decapsulate::<ExactProducts>(sk, c),
            r::decapsulate::<r::Reference>(sk, c),
            "case {i}"
        );
    }
    let q12 = i16::try_from(Q12).expect("q12 fits");
    for (fs, gs) in [(1i16, 2i8), (1, -2), (-1, 2), (-1, -2)] {
        let f = [fs * q12; P];
        let g = [gs; P];
        let (mut want, mut got) = ([0; P], [0; P]);
        r::Reference::rq_mult_small(&mut want, &f, &g);
        <ExactProducts>::rq_mult_small(&mut got, &f, &g);
        assert_eq!(want, got, "Rq, f = {fs}·q12, g = {gs}");
        let f3 = [gs * fs as i8; P];
        let (mut want, mut got) = ([0; P], [0; P]);
        r::Reference::r3_mult(&mut want, &f3, &g);
        <ExactProducts>::r3_mult(&mut got, &f3, &g);
        assert_eq!(want, got, "R3, f = {}, g = {gs}", gs * fs as i8);
    }
}

/// The `sntrup761_encaps` fuzz target's reference tier ([`ExactProducts`])
/// encapsulates as [`r::Reference`] does, drawing from a replay of the same bytes: on
/// arbitrary right-length public keys with arbitrary draws, and on a generated key.
#[test]
fn exact_products_encapsulate_as_the_reference() {
    use equivalence::sntrup761::ExactProducts;
    use reference::rng::Replay;
    let mut keys = Vec::new();
    for n in 0..3u8 {
        let mut pk = vec![0u8; PUBLIC_KEY_BYTES];
        Shake256Source::new(&[n, 3]).fill(&mut pk);
        keys.push(pk);
    }
    keys.push(
        r::keypair::<r::Reference, _>(&mut ChaCha20Source::new([9; 32]))
            .pk()
            .to_vec(),
    );
    for (i, pk) in keys.iter().enumerate() {
        let mut draw = vec![0u8; 4 * P];
        Shake256Source::new(&[i as u8, 4]).fill(&mut draw);
        let got = r::encapsulate::<ExactProducts, _>(pk, &mut Replay::new(draw.clone()));
        let want = r::encapsulate::<r::Reference, _>(pk, &mut Replay::new(draw));
        assert!(want.is_ok(), "key {i}");
        assert_eq!(got, want, "key {i}");
    }
}

/// The `sntrup761_api` fuzz target's tiers ([`Products::Exact`]: the reference and
/// batched-rng tiers' products computed exactly) give every variant's whole
/// transcript (keys, ciphertext, the three session keys) byte for byte as shipped,
/// from ChaCha20 and SHAKE-256 seeds.
#[test]
fn api_pairs_agree_with_exact_products() {
    use equivalence::sntrup761::{Products, transcript_with};
    for v in Variant::ALL {
        for n in 0..2u8 {
            let mut bad_ct = vec![0u8; CIPHERTEXT_BYTES];
            Shake256Source::new(&[n, 2]).fill(&mut bad_ct);
            let sources: [fn(u8) -> Box<dyn RandomSource>; 2] = [
                |n| Box::new(ChaCha20Source::new([n; 32])),
                |n| Box::new(Shake256Source::new(&[n])),
            ];
            for (s, make) in sources.iter().enumerate() {
                let shipped = transcript_with(v, Products::PerStep, make(n).as_mut(), &bad_ct);
                let exact = transcript_with(v, Products::Exact, make(n).as_mut(), &bad_ct);
                assert_eq!(
                    compare_transcripts(&shipped, &exact),
                    Outcome::Equal,
                    "{} seed {n} source {s}",
                    v.name()
                );
            }
        }
    }
}
