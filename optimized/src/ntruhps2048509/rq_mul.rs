//! A fast `poly_Rq_mul`: Karatsuba over Z_{2^16}, for the Newton lift and the
//! protocol's other products.
//!
//! The operands are padded to 512 coefficients; four Karatsuba levels reduce the
//! 512×512 product to 81 schoolbook 32×32 products on fixed-size arrays, computed by
//! columns with the accumulators in vector registers; the 1023-coefficient product
//! is folded mod x^509 − 1. Karatsuba's identity (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0
//! holds in any commutative ring, so the result equals the schoolbook product mod 2^16
//! exactly (not only mod q), for all inputs: no bound is needed.
//!
//! The same source is compiled twice (`karatsuba_impl!`): for the baseline target
//! (SSE2 on x86-64, [`poly_rq_mul_portable`]) and, in [`super::arch`], with AVX2
//! enabled, chosen at run time by [`poly_rq_mul_karatsuba`]. Both are checked against
//! the schoolbook product.

use reference::ntruhps2048509::Poly;

/// The rows of the 32×32 schoolbook product, with literal row numbers i: block k
/// of the result gains a[i]·bp[32 + 16k − i ..][..16] (b sits at bp[32..64]), for the
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
            let mut sa = [0u16; $h];
            let mut sb = [0u16; $h];
            for i in 0..$h {
                sa[i] = a0[i].wrapping_add(a1[i]);
                sb[i] = b0[i].wrapping_add(b1[i]);
            }
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
        }
    };
}
pub(crate) use karatsuba_level;

/// Defines the Karatsuba family (`schoolbook32`, `karatsuba64` .. `karatsuba512`,
/// `rq_mul_padded`) with the given attributes (for example a `target_feature`), so one
/// source serves every instruction set.
macro_rules! karatsuba_impl {
    ($(#[$attr:meta])*) => {
        /// r = a·b for 32-coefficient operands, r[63] = 0, by columns: the four
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
            let bp = core::hint::black_box(bp);
            let mut acc = [[0u16; 16]; 4];
            $crate::ntruhps2048509::rq_mul::schoolbook_rows!(a, bp, acc, 0..4;
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
                16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
            for (k, blk) in acc.iter().enumerate() {
                r[16 * k..16 * k + 16].copy_from_slice(blk);
            }
        }
        $crate::ntruhps2048509::rq_mul::karatsuba_level!([$(#[$attr])*] karatsuba64, 64, 32, schoolbook32);
        $crate::ntruhps2048509::rq_mul::karatsuba_level!([$(#[$attr])*] karatsuba128, 128, 64, karatsuba64);
        $crate::ntruhps2048509::rq_mul::karatsuba_level!([$(#[$attr])*] karatsuba256, 256, 128, karatsuba128);
        $crate::ntruhps2048509::rq_mul::karatsuba_level!([$(#[$attr])*] karatsuba512, 512, 256, karatsuba256);

        /// The product in Z_{2^16}[x]/(x^509 − 1) by Karatsuba.
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
            karatsuba512(&mut prod, &pa, &pb);
            let mut r = reference::ntruhps2048509::Poly::ZERO;
            for i in 0..N {
                // x^(509+i) = x^i mod x^509 − 1; the product has degree ≤ 1016.
                r.0[i] = prod[i].wrapping_add(prod[i + N]);
            }
            r
        }
    };
}
pub(crate) use karatsuba_impl;

mod baseline {
    karatsuba_impl!();
}

/// `poly_Rq_mul` by Karatsuba compiled for the baseline target: identical to the
/// reference schoolbook product for every input.
pub fn poly_rq_mul_portable(a: &Poly, b: &Poly) -> Poly {
    baseline::rq_mul_padded(a, b)
}

/// `poly_Rq_mul` by Karatsuba, with AVX2 when the CPU has it
/// ([`super::arch::Avx2::detect`]), else [`poly_rq_mul_portable`].
pub fn poly_rq_mul_karatsuba(a: &Poly, b: &Poly) -> Poly {
    match super::arch::Avx2::detect() {
        Some(t) => t.rq_mul(a, b),
        None => poly_rq_mul_portable(a, b),
    }
}
