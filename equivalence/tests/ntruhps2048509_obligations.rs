//! Proof obligations of the ntruhps2048509 chain inverse, discharged for **all
//! inputs** (docs/ntruhps2048509.md, ledger IDs in brackets):
//!
//! * [N3-CHAIN] the exponent of the addition chain the code executes
//!   (`r2_inv::CHAIN`, `FINAL_SQUARINGS`) is exactly 2^508 − 2 (exact big-integer
//!   arithmetic over the table), with 12 multiplications and 13 multi-squarings;
//! * [N3-ORD] 2 has order 508 mod 509 (so Φ_509 is irreducible over F2 and the chain
//!   inverts every invertible input); 3 too (Φ_509 irreducible over F3);
//! * [N3-SQ] each multi-squaring permutation — the executed Beneš network and the
//!   table it was routed from — equals k repeated squarings, on all 509 basis
//!   vectors (both maps are GF(2)-linear: the network is masked XOR swaps with
//!   constant masks, the table copies bits; the table is a bijection);
//! * [N3-CLMUL] the 64×64 carry-less products (portable, PCLMULQDQ) equal the
//!   schoolbook product on all 64×64 basis pairs, and the Karatsuba 512×512 product
//!   equals the schoolbook product on all 512×512 basis pairs, for both paths; the
//!   fold mod x^509 − 1 is right on all 1017 basis positions (bilinear/linear, hence
//!   all inputs).

// Divisions here act on public test indices and constants, never on secrets.
#![allow(clippy::integer_division_remainder_used)]

use optimized::ntruhps2048509::Pclmul;
use optimized::ntruhps2048509::r2_inv::{
    CHAIN, FINAL_SQUARINGS, R2, SQUARINGS, benes_for, clmul64_portable, fold509, mul512,
    multisquare, multisquare_by_table, r2_from_poly, r2_inv_chain, r2_mul_portable, table_for,
};
use reference::ntruhps2048509::Poly;
use reference::ntruhps2048509::params::N;

/// Little-endian multi-word unsigned integers, just enough for 2^508.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u64>);

impl Big {
    fn from_u64(x: u64) -> Self {
        Big(vec![x; 1]).trimmed()
    }
    fn trimmed(mut self) -> Self {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }
    fn shl(&self, k: u32) -> Self {
        let words = (k / 64) as usize;
        let bits = k % 64;
        let mut out = vec![0u64; self.0.len() + words + 1];
        for (i, &w) in self.0.iter().enumerate() {
            out[i + words] |= w << bits;
            if bits > 0 {
                out[i + words + 1] |= w >> (64 - bits);
            }
        }
        Big(out).trimmed()
    }
    fn add(&self, o: &Big) -> Self {
        let n = self.0.len().max(o.0.len()) + 1;
        let mut out = vec![0u64; n];
        let mut carry = 0u128;
        for (i, slot) in out.iter_mut().enumerate() {
            let s = u128::from(*self.0.get(i).unwrap_or(&0))
                + u128::from(*o.0.get(i).unwrap_or(&0))
                + carry;
            *slot = s as u64;
            carry = s >> 64;
        }
        Big(out).trimmed()
    }
    fn sub(&self, o: &Big) -> Self {
        let mut out = self.0.clone();
        let mut borrow = 0i128;
        for (i, slot) in out.iter_mut().enumerate() {
            let d = i128::from(*slot) - i128::from(*o.0.get(i).unwrap_or(&0)) - borrow;
            *slot = d as u64;
            borrow = i128::from(d < 0);
        }
        assert_eq!(borrow, 0, "negative result");
        Big(out).trimmed()
    }
}

#[test]
fn n3_chain_exponent_is_2_pow_508_minus_2() {
    // Element t has exponent e[t]: e[0] = 1 (a itself), e[t+1] = e[t]·2^k + e[mul].
    let mut e = vec![Big::from_u64(1)];
    let mut multiplications = 0;
    let mut multi_squarings = 0;
    for step in CHAIN {
        assert!(step.mul < e.len(), "a step may only use earlier elements");
        let next = e.last().expect("nonempty").shl(step.k).add(&e[step.mul]);
        e.push(next);
        multiplications += 1;
        multi_squarings += 1;
    }
    let result = e.last().expect("nonempty").shl(FINAL_SQUARINGS);
    multi_squarings += 1;
    let want = Big::from_u64(1).shl(508).sub(&Big::from_u64(2));
    assert_eq!(result, want, "the chain's exponent");
    assert_eq!((multiplications, multi_squarings), (12, 13));
    // The intermediate elements are s_m = a^(2^m − 1) for the documented m.
    let ms = [1u32, 2, 3, 6, 12, 15, 30, 60, 63, 126, 252, 504, 507];
    for (t, &m) in ms.iter().enumerate() {
        assert_eq!(
            e[t],
            Big::from_u64(1).shl(m).sub(&Big::from_u64(1)),
            "s_{m}"
        );
    }
}

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

fn order_mod(g: u32, p: u32) -> u32 {
    let mut x = g % p;
    let mut k = 1;
    while x != 1 {
        x = x * g % p;
        k += 1;
    }
    k
}

#[test]
fn n3_ord_2_and_3_mod_509_is_508() {
    // Exhaustive: 2^d mod 509 for d = 1, 2, ...; the first d with 2^d = 1 is 508.
    assert_eq!(order_mod(2, N as u32), 508);
    assert_eq!(order_mod(3, N as u32), 508);
}

fn basis(i: usize) -> R2 {
    let mut r = [0u64; 8];
    r[i / 64] = 1 << (i % 64);
    r
}

#[test]
fn n3_multisquare_tables_equal_repeated_squaring_on_all_basis_vectors() {
    let pclmul = simd(Pclmul::detect(), "PCLMULQDQ");
    for &k in &SQUARINGS {
        let t = table_for(k);
        // A bijection on 0..509: every output bit copies a distinct input bit, so the
        // map is GF(2)-linear and fixed by its basis images.
        let mut seen = [false; N];
        for &s in t.iter() {
            assert!(!seen[usize::from(s)], "k = {k}: not a permutation");
            seen[usize::from(s)] = true;
        }
        for i in 0..N {
            let e = basis(i);
            let mut sq = e;
            for _ in 0..k {
                sq = r2_mul_portable(&sq, &sq);
            }
            assert_eq!(
                multisquare(&e, benes_for(k)),
                sq,
                "k = {k}, basis x^{i} (Beneš)"
            );
            assert_eq!(
                multisquare_by_table(&e, &t),
                sq,
                "k = {k}, basis x^{i} (table)"
            );
            if let Some(p) = pclmul {
                let mut sq = e;
                for _ in 0..k {
                    sq = p.r2_mul(&sq, &sq);
                }
                assert_eq!(
                    multisquare(&e, benes_for(k)),
                    sq,
                    "k = {k}, basis x^{i} (pclmul)"
                );
            }
        }
    }
}

fn clmul_schoolbook(a: u64, b: u64) -> u128 {
    let mut r = 0u128;
    for i in 0..64 {
        if (a >> i) & 1 == 1 {
            r ^= u128::from(b) << i;
        }
    }
    r
}

#[test]
fn n3_clmul64_on_all_basis_pairs_and_random() {
    let pclmul = simd(Pclmul::detect(), "PCLMULQDQ");
    for i in 0..64 {
        for j in 0..64 {
            let want = 1u128 << (i + j);
            assert_eq!(clmul64_portable(1 << i, 1 << j), want, "portable {i},{j}");
            if let Some(p) = pclmul {
                assert_eq!(p.clmul64(1 << i, 1 << j), want, "pclmul {i},{j}");
            }
        }
    }
    // The portable multiply is bilinear by the hole-counting lemma (const-asserted in
    // r2_inv.rs), not by construction: also check dense operands.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (a, b) = (x, x.rotate_left(29) ^ 0xffff_0000_ffff_0000);
        assert_eq!(clmul64_portable(a, b), clmul_schoolbook(a, b));
        if let Some(p) = pclmul {
            assert_eq!(p.clmul64(a, b), clmul_schoolbook(a, b));
        }
    }
    for a in [u64::MAX, 0, 1 << 63, 0x8000_0000_0000_0001] {
        for b in [u64::MAX, 0, 1 << 63, 0x5555_5555_5555_5555] {
            assert_eq!(clmul64_portable(a, b), clmul_schoolbook(a, b));
        }
    }
}

#[test]
fn n3_karatsuba_512_on_all_basis_pairs_both_paths() {
    let pclmul = simd(Pclmul::detect(), "PCLMULQDQ");
    let mut failures = 0usize;
    for i in 0..512 {
        let a = basis(i);
        for j in 0..512 {
            let b = basis(j);
            let p = mul512(&clmul64_portable, &a, &b);
            let mut want = [0u64; 16];
            want[(i + j) / 64] = 1 << ((i + j) % 64);
            failures += usize::from(p != want);
            if let Some(pc) = pclmul {
                let q = mul512(&|x, y| pc.clmul64(x, y), &a, &b);
                failures += usize::from(q != want);
                // And the whole-product entry point, folded.
                if i < N && j < N {
                    let f = pc.r2_mul(&a, &b);
                    failures += usize::from(f != basis((i + j) % N));
                }
            }
            if i < N && j < N {
                failures += usize::from(r2_mul_portable(&a, &b) != basis((i + j) % N));
            }
        }
    }
    assert_eq!(failures, 0);
}

#[test]
fn n3_fold_on_all_basis_positions() {
    // fold509 is XOR/shift only, hence GF(2)-linear; products have degree ≤ 1016.
    for d in 0..=1016 {
        let mut p = [0u64; 16];
        p[d / 64] = 1 << (d % 64);
        assert_eq!(fold509(&p), basis(d % N), "x^{d}");
    }
}

#[test]
fn chain_inverse_times_input_is_one_mod_phi() {
    // Not an obligation (follows from the ones above), a sanity check on dense inputs.
    let mut x = 0x0123_4567_89ab_cdefu64;
    for _ in 0..50 {
        let mut a = Poly::ZERO;
        for c in a.0.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *c = (x & 1) as u16;
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
fn bit_packing_round_trips_on_all_basis_vectors_and_ignores_high_bits() {
    use optimized::ntruhps2048509::r2_inv::r2_to_poly;
    // Packing reads bit 0 of each coefficient (linear in those bits): check every
    // basis vector, with junk in the upper bits.
    for i in 0..N {
        let mut a = Poly::ZERO;
        for (j, c) in a.0.iter_mut().enumerate() {
            *c = if j == i { 0xfff1 } else { 0xfffe };
        }
        let packed = r2_from_poly(&a);
        assert_eq!(packed, basis(i), "x^{i}");
        let back = r2_to_poly(&packed);
        for (j, &c) in back.0.iter().enumerate() {
            assert_eq!(c, u16::from(j == i), "x^{i}, coefficient {j}");
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
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
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
/// is set (CI sets it), in which case a missing feature fails the test instead of
/// letting the obligation pass without running.
fn simd<T>(detected: Option<T>, feature: &str) -> Option<T> {
    if detected.is_none() && std::env::var_os("REFOPT_REQUIRE_SIMD").is_some() {
        panic!(
            "REFOPT_REQUIRE_SIMD is set but this CPU lacks {feature}: its path would not be checked"
        );
    }
    if detected.is_none() {
        equivalence::vectors::note(&format!(
            "note: this CPU lacks {feature}: its path is not checked here (REFOPT_REQUIRE_SIMD=1 makes this a failure)"
        ));
    }
    detected
}
