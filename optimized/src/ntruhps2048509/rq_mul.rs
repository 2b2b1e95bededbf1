//! A fast `poly_Rq_mul`: Toom-Cook 4 over Karatsuba, in Z_{2^16}, for the Newton
//! lift and the protocol's other products.
//!
//! The operands are padded to 512 coefficients and split into four 128-coefficient
//! limbs; Toom-4 (points 0, ±1, ±2, 1/2, ∞) makes seven 128×128 products, each by two
//! Karatsuba levels down to 32×32 schoolbook products computed by columns with the
//! accumulators in vector registers (63 of them, against 81 for four Karatsuba
//! levels); the 1023-coefficient product is folded mod x^509 − 1.
//!
//! Precision: Karatsuba is exact in any commutative ring; Toom-4's interpolation
//! divides by 2, 4 and 8 — exact over Z, done as shifts mod 2^16, which loses up to
//! three top bits — and by 3 and 5 (inverses mod 2^16). The product is therefore exact
//! **mod 2^13**, hence mod q = 2^11, for every input (what `Kernels::poly_rq_mul`
//! promises; every consumer reduces mod q). The reference schoolbook is exact mod
//! 2^16, so raw outputs may differ in the top three bits: compare mod q.
//!
//! This source is compiled for the baseline target (SSE2 on x86-64,
//! [`poly_rq_mul_portable`]); [`super::arch`] holds the same algorithm written with
//! AVX2 intrinsics, chosen at run time by [`poly_rq_mul_karatsuba`]. Both are checked
//! against the schoolbook product.

use reference::ntruhps2048509::{Poly, rq_mul_is_exact};

/// 3⁻¹ mod 2^16 (3·43691 = 2·65536 + 1): Toom-4's exact division by 3.
pub const INV3: u16 = 43691;
/// 5⁻¹ mod 2^16 (5·52429 = 4·65536 + 1): Toom-4's exact division by 5.
pub const INV5: u16 = 52429;

/// The rows of the 32×32 schoolbook product, with literal row numbers i: block k
/// of the result gains `a[i]·bp[32 + 16k − i ..][..16]` (b sits at `bp[32..64]`), for the
/// blocks that window can reach (k = 0 needs i ≤ 15, k = 2 needs i ≥ 1, k = 3 needs
/// i ≥ 17; the conditions are constants).
macro_rules! schoolbook_rows {
    ($a:ident, $bp:ident, $acc:ident, $k0:literal..$k1:literal; $($i:literal)*) => {$(
        // An opaque row value: keeps LLVM from hoisting all 32 broadcasts (which
        // would spill them to the stack).
        let ai = core::hint::black_box($a[$i]);
        for k in $k0..$k1 {
            let reach = match k as usize {
                0 => $i <= 15,
                1 => true,
                2 => $i >= 1,
                _ => $i >= 17,
            };
            if reach {
                for l in 0..16 {
                    $acc[k][l] = $acc[k][l]
                        .wrapping_add(ai.wrapping_mul($bp[32 + 16 * k + l - $i]));
                }
            }
        }
    )*};
}
pub(crate) use schoolbook_rows;

/// One Karatsuba level on fixed-size arrays: r = a·b for n-coefficient operands
/// (r[2n−1] = 0), three calls of the level below on the halves.
macro_rules! karatsuba_level {
    ([$(#[$attr:meta])*] $name:ident, $n:expr, $h:expr, $sub:ident) => {
        $(#[$attr])*
        #[inline]
        fn $name(r: &mut [u16; 2 * $n], a: &[u16; $n], b: &[u16; $n]) {
            let (a0, a1) = a.split_at($h);
            let (b0, b1) = b.split_at($h);
            let a0: &[u16; $h] = a0.try_into().expect("half");
            let a1: &[u16; $h] = a1.try_into().expect("half");
            let b0: &[u16; $h] = b0.try_into().expect("half");
            let b1: &[u16; $h] = b1.try_into().expect("half");
            let mut sa: [u16; $h] = core::array::from_fn(|i| a0[i].wrapping_add(a1[i]));
            let mut sb: [u16; $h] = core::array::from_fn(|i| b0[i].wrapping_add(b1[i]));
            let mut m = [0u16; $n];
            $sub(&mut m, &sa, &sb);
            let (lo, hi) = r.split_at_mut($n);
            let lo: &mut [u16; $n] = lo.try_into().expect("half");
            let hi: &mut [u16; $n] = hi.try_into().expect("half");
            $sub(lo, a0, b0);
            $sub(hi, a1, b1);
            // m − a0b0 − a1b1 = a0b1 + a1b0, added at x^h.
            for i in 0..$n {
                m[i] = m[i].wrapping_sub(lo[i].wrapping_add(hi[i]));
            }
            for i in 0..$h {
                lo[$h + i] = lo[$h + i].wrapping_add(m[i]);
                hi[i] = hi[i].wrapping_add(m[$h + i]);
            }
            // The operand sums and the middle product (secret when an operand is).
            zeroize::Zeroize::zeroize(&mut sa[..]);
            zeroize::Zeroize::zeroize(&mut sb[..]);
            zeroize::Zeroize::zeroize(&mut m[..]);
        }
    };
}
pub(crate) use karatsuba_level;

/// Defines the Karatsuba family (`schoolbook32`, `karatsuba64` .. `karatsuba512`,
/// `rq_mul_padded`) with the given attributes (for example a `target_feature`), so one
/// source serves every instruction set.
macro_rules! karatsuba_impl {
    ($(#[$attr:meta])*) => {
        /// r = a·b for 32-coefficient operands, `r[63] = 0`, by columns: the four
        /// 16-coefficient blocks of r are accumulated in registers as
        /// Σ_i a_i·(b shifted by i), the shifted b read from a zero-padded copy, and
        /// only the blocks a row can reach are touched. No store/reload of r between
        /// rows (which would stall on store forwarding).
        $(#[$attr])*
        #[inline]
        fn schoolbook32(r: &mut [u16; 64], a: &[u16; 32], b: &[u16; 32]) {
            let mut bp = [0u16; 96];
            bp[32..64].copy_from_slice(b);
            // Hide the zero padding from the optimizer: knowing it, LLVM drops the
            // products with zeros and scalarizes what remains.
            // (Through a reference, so that the one copy is the one wiped below.)
            core::hint::black_box(&mut bp);
            let mut acc = [[0u16; 16]; 4];
            $crate::ntruhps2048509::rq_mul::schoolbook_rows!(a, bp, acc, 0..4;
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
            for (k, blk) in acc.iter().enumerate() {
                r[16 * k..16 * k + 16].copy_from_slice(blk);
            }
            // The copy of b (the blocks of acc live in registers).
            zeroize::Zeroize::zeroize(&mut bp[..]);
        }
        $crate::ntruhps2048509::rq_mul::karatsuba_level!([$(#[$attr])*] karatsuba64, 64, 32, schoolbook32);
        $crate::ntruhps2048509::rq_mul::karatsuba_level!([$(#[$attr])*] karatsuba128, 128, 64, karatsuba64);

        /// The seven Toom-4 evaluations of a 512-coefficient operand split into four
        /// 128-coefficient limbs x0..x3 at y = 0, 1, −1, 2, −2, 1/2 (scaled by 8) and ∞.
        $(#[$attr])*
        #[inline]
        fn toom4_eval(x: &[u16; 512]) -> [[u16; 128]; 7] {
            let mut e = [[0u16; 128]; 7];
            for k in 0..128 {
                let (x0, x1, x2, x3) = (x[k], x[128 + k], x[256 + k], x[384 + k]);
                let even = x0.wrapping_add(x2);
                let odd = x1.wrapping_add(x3);
                let even2 = x0.wrapping_add(x2.wrapping_mul(4));
                let odd2 = x1.wrapping_mul(2).wrapping_add(x3.wrapping_mul(8));
                e[0][k] = x0;
                e[1][k] = even.wrapping_add(odd);
                e[2][k] = even.wrapping_sub(odd);
                e[3][k] = even2.wrapping_add(odd2);
                e[4][k] = even2.wrapping_sub(odd2);
                e[5][k] = x0
                    .wrapping_mul(8)
                    .wrapping_add(x1.wrapping_mul(4))
                    .wrapping_add(x2.wrapping_mul(2))
                    .wrapping_add(x3);
                e[6][k] = x3;
            }
            e
        }

        /// r += a·b (r is zero on entry) for 512-coefficient operands by Toom-Cook 4 (seven 128×128
        /// Karatsuba products). Interpolation divides by 2, 4 and 8 (shifts, each
        /// exact over Z, losing top bits mod 2^16) and by 3 and 5 (multiplication by
        /// their inverses mod 2^16): the result is exact **mod 2^13**, hence mod q.
        $(#[$attr])*
        #[inline]
        fn toom4_512(r: &mut [u16; 1024], a: &[u16; 512], b: &[u16; 512]) {
            use $crate::ntruhps2048509::rq_mul::{INV3, INV5};
            let mut ea = toom4_eval(a);
            let mut eb = toom4_eval(b);
            let mut w = [[0u16; 256]; 7];
            for p in 0..7 {
                karatsuba128(&mut w[p], &ea[p], &eb[p]);
            }
            // Evaluations of (secret) operands.
            zeroize::Zeroize::zeroize(ea.as_flattened_mut());
            zeroize::Zeroize::zeroize(eb.as_flattened_mut());
            // `r` arrives zeroed (the caller's fresh array).
            for k in 0..256 {
                let (w0, w1, w2, w3, w4, w5, w6) =
                    (w[0][k], w[1][k], w[2][k], w[3][k], w[4][k], w[5][k], w[6][k]);
                let c0 = w0;
                let c6 = w6;
                // (w1 ± w2)/2: c0 + c2 + c4 + c6 and c1 + c3 + c5 (mod 2^15).
                let e1 = w1.wrapping_add(w2) >> 1;
                let o1 = w1.wrapping_sub(w2) >> 1;
                let s1 = e1.wrapping_sub(c0).wrapping_sub(c6); // c2 + c4
                // (w3 + w4)/2 = c0 + 4c2 + 16c4 + 64c6; then c2 + 4c4 (mod 2^13).
                let e2 = w3.wrapping_add(w4) >> 1;
                let s2 = e2.wrapping_sub(c0).wrapping_sub(c6.wrapping_mul(64)) >> 2;
                let c4 = s2.wrapping_sub(s1).wrapping_mul(INV3);
                let c2 = s1.wrapping_sub(c4);
                // (w3 − w4)/4 = c1 + 4c3 + 16c5 (mod 2^14).
                let o2 = w3.wrapping_sub(w4) >> 2;
                // (w5 − 64c0 − 16c2 − 4c4 − c6)/2 = 16c1 + 4c3 + c5 (mod 2^14).
                let t = w5
                    .wrapping_sub(c0.wrapping_mul(64))
                    .wrapping_sub(c2.wrapping_mul(16))
                    .wrapping_sub(c4.wrapping_mul(4))
                    .wrapping_sub(c6)
                    >> 1;
                let u = o2.wrapping_sub(o1).wrapping_mul(INV3); // c3 + 5c5
                let v = t.wrapping_sub(o1).wrapping_mul(INV3); // 5c1 + c3
                let c1_minus_c5 = v.wrapping_sub(u).wrapping_mul(INV5);
                let c5 = c1_minus_c5.wrapping_add(u).wrapping_sub(o1).wrapping_mul(INV3);
                let c3 = u.wrapping_sub(c5.wrapping_mul(5));
                let c1 = c1_minus_c5.wrapping_add(c5);
                let c = [c0, c1, c2, c3, c4, c5, c6];
                for (i, ci) in c.iter().enumerate() {
                    r[128 * i + k] = r[128 * i + k].wrapping_add(*ci);
                }
            }
            zeroize::Zeroize::zeroize(w.as_flattened_mut());
        }

        /// The product in Z_{2^16}\[x\]/(x^509 − 1) by Toom-4/Karatsuba, exact mod 2^13.
        $(#[$attr])*
        pub(crate) fn rq_mul_padded(
            a: &reference::ntruhps2048509::Poly,
            b: &reference::ntruhps2048509::Poly,
        ) -> reference::ntruhps2048509::Poly {
            use reference::ntruhps2048509::params::N;
            let mut pa = [0u16; 512];
            let mut pb = [0u16; 512];
            pa[..N].copy_from_slice(&a.0);
            pb[..N].copy_from_slice(&b.0);
            let mut prod = [0u16; 1024];
            toom4_512(&mut prod, &pa, &pb);
            let mut r = reference::ntruhps2048509::Poly::ZERO;
            for i in 0..N {
                // x^(509+i) = x^i mod x^509 − 1; the product has degree ≤ 1016.
                r.0[i] = prod[i].wrapping_add(prod[i + N]);
            }
            if reference::plant::active("ntruhps2048509-rq-mul-fold-skips-x509") {
                // Planted (the fuzzing self-test of `ntru_encaps`): x^509 left out.
                r.0[0] = prod[0];
            }
            // Copies of the (secret) operands and their unreduced product.
            zeroize::Zeroize::zeroize(&mut pa[..]);
            zeroize::Zeroize::zeroize(&mut pb[..]);
            zeroize::Zeroize::zeroize(&mut prod[..]);
            r
        }
    };
}

mod baseline {
    karatsuba_impl!();
}

/// `poly_Rq_mul` by Toom-4/Karatsuba compiled for the baseline target: equal to the
/// reference schoolbook product mod 2^13 for every input.
pub fn poly_rq_mul_portable(a: &Poly, b: &Poly) -> Poly {
    let r = baseline::rq_mul_padded(a, b);
    debug_assert!(rq_mul_is_exact(a, b, &r), "Kernels::poly_rq_mul ensures");
    r
}

/// `poly_Rq_mul` by Toom-4/Karatsuba, with AVX2 when the CPU has it
/// ([`super::arch::Avx2::detect`]), else [`poly_rq_mul_portable`].
pub fn poly_rq_mul_karatsuba(a: &Poly, b: &Poly) -> Poly {
    match super::arch::Avx2::detect() {
        Some(t) => {
            let r = t.rq_mul(a, b);
            debug_assert!(rq_mul_is_exact(a, b, &r), "Kernels::poly_rq_mul ensures");
            r
        }
        None => poly_rq_mul_portable(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::{INV3, INV5};

    /// The interpolation's reductions, exhaustively over all of Z_{2^16}: multiplying by
    /// INV3 and INV5 undoes multiplication by 3 and 5, and a shift by k after a
    /// multiplication by 2^k keeps the low 16 − k bits (so three shifts keep 13 bits:
    /// the product is exact mod 2^13).
    #[test]
    fn toom4_divisions_exact_on_every_u16() {
        for x in 0..=u16::MAX {
            assert_eq!(x.wrapping_mul(3).wrapping_mul(INV3), x, "x = {x}");
            assert_eq!(x.wrapping_mul(5).wrapping_mul(INV5), x, "x = {x}");
            for k in 1..=3u32 {
                let mask = (1u16 << (16 - k)) - 1;
                assert_eq!((x << k) >> k, x & mask, "x = {x}, k = {k}");
            }
        }
    }
}
