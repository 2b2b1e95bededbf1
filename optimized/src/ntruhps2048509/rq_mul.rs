//! A fast `poly_Rq_mul`: Karatsuba over Z_{2^16}, for the Newton lift and the
//! protocol's other products.
//!
//! The operands are padded to 512 coefficients; four Karatsuba levels reduce the
//! 512×512 product to 81 schoolbook 32×32 products on fixed-size arrays, which the
//! compiler unrolls and vectorizes; the 1023-coefficient product is folded mod
//! x^509 − 1. Karatsuba's identity (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0
//! holds in any commutative ring, so the result equals the schoolbook product mod 2^16
//! exactly (not only mod q), for all inputs: no bound is needed.

use reference::ntruhps2048509::Poly;
use reference::ntruhps2048509::params::N;

/// Padded length: the next power of two above n.
const PAD: usize = 512;
/// Size at which Karatsuba hands over to the schoolbook product.
const BASE: usize = 32;

/// r[..2·BASE−1] = a·b (linear convolution), r[2·BASE−1] = 0.
#[inline(always)]
fn schoolbook(r: &mut [u16], a: &[u16], b: &[u16]) {
    let a: &[u16; BASE] = a.try_into().expect("BASE coefficients");
    let b: &[u16; BASE] = b.try_into().expect("BASE coefficients");
    let r: &mut [u16; 2 * BASE] = r.try_into().expect("2·BASE coefficients");
    *r = [0; 2 * BASE];
    for i in 0..BASE {
        let ai = a[i];
        let row: &mut [u16; BASE] = (&mut r[i..i + BASE]).try_into().expect("BASE");
        for j in 0..BASE {
            row[j] = row[j].wrapping_add(ai.wrapping_mul(b[j]));
        }
    }
}

/// r[..2n] = a·b (linear convolution, r[2n−1] = 0) for n = a.len() = b.len() a power
/// of two ≥ BASE; `scratch` holds at least 4n values.
fn karatsuba(r: &mut [u16], a: &[u16], b: &[u16], scratch: &mut [u16]) {
    let n = a.len();
    if n <= BASE {
        schoolbook(r, a, b);
        return;
    }
    let h = n >> 1;
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    {
        let (lo, hi) = r.split_at_mut(n);
        karatsuba(lo, a0, b0, scratch);
        karatsuba(hi, a1, b1, scratch);
    }
    let (sa, rest) = scratch.split_at_mut(h);
    let (sb, rest) = rest.split_at_mut(h);
    let (m, rest) = rest.split_at_mut(n);
    for i in 0..h {
        sa[i] = a0[i].wrapping_add(a1[i]);
        sb[i] = b0[i].wrapping_add(b1[i]);
    }
    karatsuba(m, sa, sb, rest);
    for i in 0..n {
        m[i] = m[i].wrapping_sub(r[i].wrapping_add(r[n + i]));
    }
    for i in 0..n {
        r[h + i] = r[h + i].wrapping_add(m[i]);
    }
}

/// `poly_Rq_mul` by Karatsuba: the product in Z_{2^16}[x]/(x^509 − 1), identical to
/// the reference schoolbook product for every input.
pub fn poly_rq_mul_karatsuba(a: &Poly, b: &Poly) -> Poly {
    let mut pa = [0u16; PAD];
    let mut pb = [0u16; PAD];
    pa[..N].copy_from_slice(&a.0);
    pb[..N].copy_from_slice(&b.0);
    let mut prod = [0u16; 2 * PAD];
    let mut scratch = [0u16; 4 * PAD];
    karatsuba(&mut prod, &pa, &pb, &mut scratch);
    let mut r = Poly::ZERO;
    for i in 0..N {
        // x^(509+i) = x^i mod x^509 − 1; the product has degree ≤ 1016.
        r.0[i] = prod[i].wrapping_add(prod[i + N]);
    }
    r
}
