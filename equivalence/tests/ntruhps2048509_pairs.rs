//! Every ntruhps2048509 pair: the lab's seeded run (every selector pattern comes up),
//! then proptest-generated input bytes.

use equivalence::ntruhps2048509::PAIRS;
use equivalence::pair::{Level, Outcome};
use equivalence::registry::check;
use proptest::prelude::*;

#[test]
fn seeded_runs_have_no_mismatch() {
    for pair in PAIRS {
        // 256 kernel cases cover every selector value once; API pairs are slower.
        let cases = match pair.level() {
            Level::Kernel => 256,
            Level::Api => 24,
        };
        let t = check(*pair, 0x4e54_5255, cases, None, |_| {});
        if let Some((_, input, m)) = &t.first_mismatch {
            panic!(
                "{}: {} mismatches; first on input {}: {m}",
                pair.name(),
                t.mismatches,
                hex::encode(input)
            );
        }
        assert!(t.equal > 0, "{}: no case compared", pair.name());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn kernel_pairs_agree_on_arbitrary_bytes(input in proptest::collection::vec(any::<u8>(), 0..80)) {
        for pair in PAIRS.iter().filter(|p| p.level() == Level::Kernel) {
            let out = pair.run(&input);
            prop_assert!(
                !matches!(out, Outcome::Mismatch(_)),
                "{}: {:?}", pair.name(), out
            );
        }
    }
}

#[test]
fn raw_r2_inverses_do_differ_so_canonicalization_is_needed() {
    // The brief (C.3): the chain's output has value a(1) at x = 1, the divstep's is
    // the canonical representative (coefficient 508 = 0), so the raw vectors differ
    // for some inputs while agreeing mod Φ. Show that this happens.
    use equivalence::ntruhps2048509::{Variant, canonical_mod2, invertible_mod2, poly_for};
    use equivalence::pair::Input;
    let mut raw_differs = 0;
    for i in 0..32u8 {
        let bytes: Vec<u8> = (0..1018u32)
            .map(|j| (j * 37 + u32::from(i) * 101) as u8)
            .collect();
        let mut g = Input::new(&bytes);
        let a = poly_for(&mut g, 1);
        if !invertible_mod2(&a) {
            continue;
        }
        let r = Variant::Reference.poly_r2_inv(&a);
        let o = Variant::OptimizedPortable.poly_r2_inv(&a);
        assert_eq!(canonical_mod2(&r).0, canonical_mod2(&o).0);
        raw_differs += usize::from(r.0 != o.0);
    }
    assert!(raw_differs > 0, "expected some raw R2 inverses to differ");
}
