//! Constant-time harness: runs both tiers of every scheme with their secrets marked
//! *undefined* for valgrind memcheck, which then reports any conditional jump, memory
//! index or division that depends on a secret.
//!
//! ```text
//! cargo build --release -p equivalence --features ctgrind --bin refopt-ctgrind
//! valgrind --error-exitcode=1 --track-origins=yes target/release/refopt-ctgrind
//! ```
//!
//! Outside valgrind the client requests are no-ops and the run only exercises the code.
//! Values the schemes publish although they derive from secrets (ML-KEM's ρ) are
//! declassified at their source with `reference::ct::declassify`, which says why.

use std::hint::black_box;

use equivalence::mlkem::Variant;
use reference::RandomSource;
use reference::mlkem::ALL;
use reference::rng::ChaCha20Source;
use reference::valgrind::{mark_public, mark_secret};

fn mlkem() {
    for p in ALL {
        for v in Variant::ALL {
            // Key generation: d and z are secret.
            let mut d = [0x11u8; 32];
            let mut z = [0x22u8; 32];
            mark_secret(&d);
            mark_secret(&z);
            let kp = v.keygen_internal(p, &d, &z);
            mark_public(&kp.ek);
            // Encapsulation: m is secret; ek is public.
            let m = [0x33u8; 32];
            mark_secret(&m);
            let (ct, k) = v.encaps_internal(p, &kp.ek, &m).expect("valid key");
            mark_public(&ct);
            // Decapsulation: ŝ (dk[..384k]) and z are secret; the embedded ek and
            // H(ek) are public. Both the accepting and the implicit-rejection path.
            let mut dk = kp.dk.clone();
            let secret_s = 384 * p.k();
            let z_at = 768 * p.k() + 64;
            mark_public(&dk);
            mark_secret(&dk[..secret_s]);
            mark_secret(&dk[z_at..]);
            let k2 = v.decaps(p, &dk, &ct).expect("valid lengths");
            let mut bad = ct.clone();
            bad[0] ^= 1;
            let k3 = v.decaps(p, &dk, &bad).expect("valid lengths");
            black_box((&k, &k2, &k3));
            // Compare outside the measured region: declassify the results first.
            mark_public(&k);
            mark_public(&k2);
            assert_eq!(k, k2, "{} {}: decapsulation", p.name(), v.name());
            d.fill(0);
            z.fill(0);
            dk.fill(0);
            black_box((&d, &z, &dk));
        }
    }
    eprintln!("ml-kem: keygen, encaps, decaps (accept and reject) for 3 sets x 2 variants");
}

/// A random source whose every byte is secret.
struct SecretSource(ChaCha20Source);

impl RandomSource for SecretSource {
    fn fill(&mut self, dst: &mut [u8]) {
        self.0.fill(dst);
        mark_secret(dst);
    }
    fn is_call_boundary_invariant(&self) -> bool {
        true
    }
}

fn sntrup761() {
    use equivalence::sntrup761::Variant;
    use reference::sntrup761::{PUBLIC_KEY_BYTES, SMALL_BYTES};
    for v in Variant::ALL {
        // Key generation: every random byte (g, f, ρ) is secret.
        let kp = v.keypair(&mut SecretSource(ChaCha20Source::new([5; 32])));
        mark_public(&kp.pk);
        mark_public(&kp.sk);
        // Encapsulation: r is secret.
        let (ct, ss) = v
            .encapsulate(&kp.pk, &mut SecretSource(ChaCha20Source::new([6; 32])))
            .expect("valid key");
        mark_public(&ct);
        // Decapsulation: f, 1/g and ρ are secret; pk and its hash are public.
        // Both the honest and a tampered ciphertext.
        let mut bad = ct.clone();
        bad[17] ^= 1;
        for c in [&ct, &bad] {
            let sk = kp.sk.clone();
            mark_secret(&sk[..2 * SMALL_BYTES]);
            let rho = 2 * SMALL_BYTES + PUBLIC_KEY_BYTES;
            mark_secret(&sk[rho..rho + SMALL_BYTES]);
            let k = v.decapsulate(&sk, c).expect("valid lengths");
            black_box(&k);
        }
        black_box(&ss);
    }
    eprintln!("sntrup761: keygen, encap, decap (accept and reject) for 3 variants");
}

fn ed25519() {
    use equivalence::ed25519::Variant;
    for v in Variant::ALL {
        // Key generation and signing: the seed (hence a, the prefix and the nonce r)
        // is secret; the message is public.
        let seed = [0x44u8; 32];
        mark_secret(&seed);
        let key = v.keygen(&seed).expect("32-byte seed");
        let sig = v.sign(&key, b"refopt constant-time harness");
        mark_public(&sig);
        black_box(&sig);
    }
    eprintln!("ed25519: keygen and sign for 2 variants (verify handles public data only)");
}

fn ntruhps2048509() {
    use equivalence::ntruhps2048509::Variant;
    use reference::ntruhps2048509::params::SAMPLE_RM_BYTES;
    for v in Variant::ALL.into_iter().filter(|v| v.available()) {
        // Key generation: every random byte (f, g, the PRF key) is secret.
        let kp = v.keypair(&mut SecretSource(ChaCha20Source::new([7; 32])));
        mark_public(&kp.pk);
        // Encapsulation: r and m are secret.
        let mut seed = [0x55u8; SAMPLE_RM_BYTES];
        ChaCha20Source::new([8; 32]).fill(&mut seed);
        mark_secret(&seed);
        let (ct, ss) = v.encaps_derand(&kp.pk, &seed).expect("valid key");
        mark_public(&ct);
        // Decapsulation: the whole secret key (f, f⁻¹ mod 3, h⁻¹ and the PRF key) is
        // secret. Honest and tampered ciphertext.
        let mut bad = ct;
        bad[3] ^= 4;
        for c in [&ct[..], &bad[..]] {
            let sk = kp.sk;
            mark_secret(&sk);
            let k = v.decaps(&sk, c).expect("valid lengths");
            black_box(&k);
        }
        black_box(&ss);
    }
    eprintln!(
        "ntruhps2048509: keygen, encaps, decaps (accept and reject) for every available variant"
    );
}

fn main() {
    mlkem();
    sntrup761();
    ntruhps2048509();
    ed25519();
}
