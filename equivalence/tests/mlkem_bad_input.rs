//! Bad input to every public ML-KEM function: wrong lengths give typed errors, keys
//! failing the FIPS 203 section 7 checks give errors, and nothing panics whatever the
//! bytes.

use equivalence::mlkem::Variant;
use proptest::prelude::*;
use reference::Error;
use reference::mlkem::{self as r, ALL, ML_KEM_768, Params};
use reference::rng::ChaCha20Source;

fn lengths(p: &Params) -> [usize; 3] {
    [p.ek_len(), p.dk_len(), p.ct_len()]
}

#[test]
fn wrong_lengths_are_typed_errors() {
    for p in ALL {
        let kp = r::keygen_internal(p, &[1; 32], &[2; 32]);
        let (c, _) = r::encaps_internal::<r::Reference>(p, kp.ek(), &[3; 32]).expect("valid");
        for v in Variant::ALL {
            for delta in [-1isize, 1, -(p.ek_len() as isize)] {
                let ek_len = (p.ek_len() as isize + delta) as usize;
                let ek = vec![0u8; ek_len];
                assert_eq!(
                    v.encaps_internal(p, &ek, &[0; 32]),
                    Err(Error::InvalidLength {
                        what: "encapsulation key",
                        expected: p.ek_len(),
                        got: ek_len
                    })
                );
                let dk_len = (p.dk_len() as isize + delta).max(0) as usize;
                assert_eq!(
                    v.decaps(p, &vec![0u8; dk_len], &c),
                    Err(Error::InvalidLength {
                        what: "decapsulation key",
                        expected: p.dk_len(),
                        got: dk_len
                    })
                );
                let ct_len = (p.ct_len() as isize + delta).max(0) as usize;
                assert_eq!(
                    v.decaps(p, kp.dk(), &vec![0u8; ct_len]),
                    Err(Error::InvalidLength {
                        what: "ciphertext",
                        expected: p.ct_len(),
                        got: ct_len
                    })
                );
            }
        }
    }
}

#[test]
fn modulus_and_hash_checks_reject() {
    for p in ALL {
        let kp = r::keygen_internal(p, &[4; 32], &[5; 32]);
        // Coefficient 0 of t̂[0] := 0xfff (>= q).
        let mut ek = kp.ek().to_vec();
        ek[0] = 0xff;
        ek[1] |= 0x0f;
        assert_eq!(r::check_encapsulation_key(p, &ek), Err(Error::ModulusCheck));
        let mut dk = kp.dk().to_vec();
        let h_at = 768 * p.k() + 32;
        dk[h_at] ^= 1;
        assert_eq!(r::check_decapsulation_key(p, &dk), Err(Error::HashCheck));
        for v in Variant::ALL {
            assert_eq!(
                v.encaps_internal(p, &ek, &[0; 32]),
                Err(Error::ModulusCheck)
            );
            let c = vec![0u8; p.ct_len()];
            assert_eq!(v.decaps(p, &dk, &c), Err(Error::HashCheck));
        }
        // Encaps with a random source draws nothing for a rejected key.
        let mut rng = reference::rng::Recorder::new(ChaCha20Source::new([0; 32]));
        assert!(r::encaps::<r::Reference>(p, &ek, &mut rng).is_err());
        assert!(rng.calls().is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random lengths (biased to the right ones) and random bytes: every public
    /// function returns, with Ok or a typed error, and never panics.
    #[test]
    fn nothing_panics(set in 0usize..3, which in 0usize..3, exact in any::<bool>(), len in 0usize..4000, bytes in proptest::collection::vec(any::<u8>(), 4000), m: [u8; 32]) {
        let p = ALL[set];
        let len = if exact { lengths(p)[which] } else { len };
        let input = &bytes[..len];
        for v in Variant::ALL {
            let _ = v.encaps_internal(p, input, &m);
            let _ = r::check_encapsulation_key(p, input);
            let _ = r::check_decapsulation_key(p, input);
            let kp = r::keygen_internal(p, &m, &m);
            let _ = v.decaps(p, input, &bytes[..p.ct_len()]);
            // Any right-length ciphertext decapsulates (implicit rejection).
            if len == p.ct_len() {
                prop_assert!(v.decaps(p, kp.dk(), input).is_ok());
            } else {
                prop_assert!(v.decaps(p, kp.dk(), input).is_err());
            }
        }
    }

    /// Random valid-length decapsulation keys whose hash check happens to pass (we
    /// repair the hash) still decapsulate without panicking: ŝ and t̂ values >= q are
    /// reduced as ByteDecode_12 says.
    #[test]
    fn arbitrary_hash_consistent_dk_decapsulates(bytes in proptest::collection::vec(any::<u8>(), 768 * 3 + 96), c in proptest::collection::vec(any::<u8>(), 1088)) {
        let p = &ML_KEM_768;
        let mut dk = bytes;
        let k = p.k();
        let h: [u8; 32] = <sha3::Sha3_256 as sha3::Digest>::digest(&dk[384 * k..768 * k + 32]).into();
        dk[768 * k + 32..768 * k + 64].copy_from_slice(&h);
        let a = Variant::Reference.decaps(p, &dk, &c);
        let b = Variant::Optimized.decaps(p, &dk, &c);
        prop_assert!(a.is_ok());
        prop_assert_eq!(a, b);
    }
}
