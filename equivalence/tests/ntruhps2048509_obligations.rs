//! The ntruhps2048509 chain inverse and fast `poly_Rq_mul` in the test suite.
//!
//! The proofs for all inputs of the chain (its exponent, ord_509(2), the
//! multi-squarings, the carry-less products, Karatsuba and the fold, the packing)
//! are obligations N3-* of `refopt prove` (equivalence::prove::ntruhps2048509), run
//! on the shipped code over symbolic GF(2) words. What stays here: the executed
//! chain on a = x, a sanity check on dense inputs, and the tests of the fast
//! `poly_Rq_mul` (N3-RQMUL in docs/ntruhps2048509.md, sampled).

// Divisions here act on public test indices and constants, never on secrets.
#![allow(clippy::integer_division_remainder_used)]

use optimized::ntruhps2048509::Pclmul;
use optimized::ntruhps2048509::r2_inv::{r2_from_poly, r2_inv_chain, r2_mul_portable};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use reference::ntruhps2048509::Poly;
use reference::ntruhps2048509::params::N;

#[test]
fn n3_chain_runs_the_table_on_x() {
    // x^e in F2[x]/(x^509 − 1) is x^(e mod 509); (2^508 − 2) mod 509 = 508 because
    // 2^508 ≡ 1. This ties the executed code (multi-squarings and products together)
    // to the exponent checked above.
    let mut x = [0u64; 8];
    x[0] = 2;
    let r = r2_inv_chain(&x, r2_mul_portable);
    let mut want = [0u64; 8];
    want[508 / 64] = 1 << (508 % 64);
    assert_eq!(r, want);
    if let Some(p) = simd(Pclmul::detect(), "PCLMULQDQ") {
        assert_eq!(p.r2_inv_chain(&x), want);
    }
}

fn basis(i: usize) -> [u64; 8] {
    let mut r = [0u64; 8];
    r[i / 64] = 1 << (i % 64);
    r
}

#[test]
fn chain_inverse_times_input_is_one_mod_phi() {
    // Not an obligation (follows from the ones above), a sanity check on dense inputs.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..50 {
        let mut a = Poly::ZERO;
        for c in a.0.iter_mut() {
            *c = (rng.next_u64() & 1) as u16;
        }
        let ar = r2_from_poly(&a);
        let inv = r2_inv_chain(&ar, r2_mul_portable);
        let prod = r2_mul_portable(&ar, &inv);
        // prod ≡ 1 mod Φ: prod ∈ {1, 1 + Φ} = {x^0, all ones but bit 0}.
        let one = basis(0);
        let mut ones_but_0 = [u64::MAX; 8];
        ones_but_0[7] = (1 << (N - 448)) - 1;
        ones_but_0[0] &= !1;
        let invertible = !(ar == [0; 8]
            || ar == {
                let mut f = [u64::MAX; 8];
                f[7] = (1 << (N - 448)) - 1;
                f
            });
        if invertible {
            assert!(prod == one || prod == ones_but_0, "a·a⁻¹ ≢ 1 mod Φ");
        }
    }
}

#[test]
fn toom_karatsuba_product_is_exact_mod_2_pow_13() {
    // The documented precision of the fast poly_Rq_mul (Toom-4 interpolation loses at
    // most three top bits): equal to the schoolbook product mod 2^13, on extreme
    // patterns (all 0xffff, all q − 1, high bits set, single terms) and random ones.
    use equivalence::ntruhps2048509::{Variant, poly_for};
    use equivalence::pair::Input;
    for seed in 0..64u8 {
        let bytes: Vec<u8> = (0..8192u32)
            .map(|j| (j.wrapping_mul(2_654_435_761) >> 13) as u8 ^ seed)
            .collect();
        let mut g = Input::new(&bytes);
        let a = poly_for(&mut g, usize::from(seed & 7));
        let b = poly_for(&mut g, usize::from((seed >> 3) & 7));
        let want = Variant::Reference.poly_rq_mul(&a, &b);
        for v in [Variant::Optimized, Variant::OptimizedPortable] {
            let got = v.poly_rq_mul(&a, &b);
            for (x, y) in got.0.iter().zip(&want.0) {
                assert_eq!(x & 0x1fff, y & 0x1fff, "{} seed {seed}", v.name());
            }
        }
    }
    let mut ones = Poly::ZERO;
    ones.0.fill(0xffff);
    let want = Variant::Reference.poly_rq_mul(&ones, &ones);
    for v in [Variant::Optimized, Variant::OptimizedPortable] {
        let got = v.poly_rq_mul(&ones, &ones);
        for (x, y) in got.0.iter().zip(&want.0) {
            assert_eq!(x & 0x1fff, y & 0x1fff, "{} all ones", v.name());
        }
    }
}

#[test]
fn avx2_intrinsics_and_portable_rq_mul_equal_schoolbook_mod_2_pow_13() {
    // [N3-RQMUL] The explicit-AVX2 product (`arch::Avx2::rq_mul`: `asm!` 32×32 rows,
    // intrinsic Karatsuba/Toom-4) and the portable Toom-4/Karatsuba product, each
    // called directly (no dispatch), against the reference schoolbook, mod 2^13:
    // extreme constant patterns, single terms on every limb boundary (where Toom-4
    // splits at 128, 256, 384 and Karatsuba at 32 and 64 inside a limb), random
    // polynomials with and without the top bits set.
    use optimized::ntruhps2048509::{Avx2, rq_mul::poly_rq_mul_portable};
    use reference::ntruhps2048509::{Kernels, Reference};
    let avx2 = simd(Avx2::detect(), "AVX2");
    let check = |a: &Poly, b: &Poly, what: &str| {
        let want = Reference::poly_rq_mul(a, b);
        let mut got = vec![("portable", poly_rq_mul_portable(a, b))];
        if let Some(t) = avx2 {
            got.push(("avx2", t.rq_mul(a, b)));
        }
        for (name, g) in got {
            for (i, (x, y)) in g.0.iter().zip(&want.0).enumerate() {
                assert_eq!(x & 0x1fff, y & 0x1fff, "{name}, {what}, coefficient {i}");
            }
        }
    };
    let constant = |c: u16| Poly([c; N]);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut next = move || rng.next_u64();
    let mut random = |mask_or: u16| {
        let mut p = Poly::ZERO;
        for c in &mut p.0 {
            *c = (next() >> 16) as u16 | mask_or;
        }
        p
    };
    let patterns: Vec<(String, Poly)> = vec![
        ("all 0xffff".into(), constant(0xffff)),
        ("all 0x8000".into(), constant(0x8000)),
        ("all 0xe000".into(), constant(0xe000)),
        ("all q - 1".into(), constant(2047)),
        ("all 0x1fff".into(), constant(0x1fff)),
        ("zero".into(), Poly::ZERO),
        ("alternating 0xffff/0".into(), {
            let mut p = Poly::ZERO;
            for (i, c) in p.0.iter_mut().enumerate() {
                *c = if i % 2 == 0 { 0xffff } else { 0 };
            }
            p
        }),
        ("random".into(), random(0)),
        ("random, top bits set".into(), random(0xe000)),
    ];
    for (na, a) in &patterns {
        for (nb, b) in &patterns {
            check(a, b, &format!("{na} × {nb}"));
        }
    }
    let edges = [
        0usize, 1, 15, 16, 31, 32, 63, 64, 127, 128, 129, 255, 256, 383, 384, 447, 448, 500, 507,
        508,
    ];
    for &i in &edges {
        for &j in &edges {
            let mut a = Poly::ZERO;
            let mut b = Poly::ZERO;
            a.0[i] = 0xffff;
            b.0[j] = 0xfffd;
            check(&a, &b, &format!("x^{i} × x^{j}"));
        }
    }
    for round in 0..200 {
        let (a, b) = (random(0), random(if round % 2 == 0 { 0 } else { 0xc000 }));
        check(&a, &b, &format!("random round {round}"));
    }
}

/// A CPU-feature path: on a CPU that has the feature its checks always run; `None`
/// skips them on a CPU without it, with a visible note, unless `REFOPT_REQUIRE_SIMD`
/// is on (CI sets it), in which case a missing feature fails the test instead of
/// letting the obligation pass without running.
fn simd<T>(detected: Option<T>, feature: &str) -> Option<T> {
    let require = equivalence::simd::required();
    let paths = [(feature, detected.is_some())];
    assert!(
        equivalence::simd::report(&paths, require, "ntruhps2048509_obligations"),
        "REFOPT_REQUIRE_SIMD is on but this CPU lacks {feature}: its path would not be checked"
    );
    detected
}
