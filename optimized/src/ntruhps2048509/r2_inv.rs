//! `poly_R2_inv` by an addition chain (jschanck/ntru PR #5, avx2-hps2048509
//! `poly_r2_inv.c`, `square_*_509_*.s`, `poly_r2_mul.s`), portable Rust.
//!
//! F2\[x\]/(x^509 − 1) elements are bit-packed: coefficient i is bit i % 64 of word
//! i / 64 of a `[u64; 8]` (bit i % 8 of byte i / 8 in little-endian memory, as in the
//! seed); bits 509..511 are zero. Since ord_509(2) = 508, Φ_509 is irreducible over F2
//! and a^(2^508 − 2) = a^(−1) mod (2, Φ_509) for every invertible a.
//!
//! * Multi-squaring by 2^k is the fixed bit permutation i ↦ i·2^k mod 509, valid mod
//!   x^509 − 1 (never reduce mod Φ between steps). It runs as a Beneš network of 17
//!   masked delta-swap stages whose masks are routed at compile time from the
//!   permutation table (the seed uses generated pext/pdep and `vpshufb` code).
//! * The 64×64 carry-less multiply is `pclmulqdq` ([`super::arch::Pclmul`]) or a
//!   portable constant-time integer multiply with holes ([`clmul64_portable`]).
//! * Multiplication is a 512×512 carry-less product by two Karatsuba levels
//!   (256, then 128 bits) over 64×64 carry-less multiplies — 36 of them — folded
//!   mod x^509 − 1, as `poly_r2_mul.s`.
//!
//! The result is an inverse mod Φ_509 in an arbitrary representative mod x^509 − 1:
//! its value at x = 1 is a(1), where the reference divstep returns the canonical
//! representative. Compare mod (2, Φ_509).

use reference::ntruhps2048509::params::N;
use reference::ntruhps2048509::{Poly, r2_invertible, r2_is_inverse};

/// A bit-packed element of F2\[x\]/(x^509 − 1); bits 509..511 are zero.
pub type R2 = [u64; 8];

/// Mask of the valid bits of word 7 (positions 448..508).
const TOP_MASK: u64 = (1 << (N - 448)) - 1;

/// The word arithmetic the bit-level code of this module is written over.
///
/// The library instantiates it with [`Native`] (`u16`, `u64`, `u128`); `refopt
/// prove` instantiates it with words whose bits are Boolean polynomials of the
/// inputs, which shows each function computes the GF(2)-(bi)linear map it claims for
/// every input (obligations N3-PACK, N3-CLMUL, N3-MUL, N3-SQ). Each method is the
/// one Rust operation named in its doc.
pub trait Bits {
    /// A coefficient (`u16`).
    type W16: Clone;
    /// A 64-bit word.
    type W64: Clone;
    /// A 128-bit word.
    type W128: Clone;
    /// A `u16` constant.
    fn c16(x: u16) -> Self::W16;
    /// A `u64` constant.
    fn c64(x: u64) -> Self::W64;
    /// A `u128` constant.
    fn c128(x: u128) -> Self::W128;
    /// `u64::from(x)`.
    fn from16(x: &Self::W16) -> Self::W64;
    /// `x as u16`.
    fn to16(x: &Self::W64) -> Self::W16;
    /// `a ^ b`.
    fn xor(a: &Self::W64, b: &Self::W64) -> Self::W64;
    /// `a & b`.
    fn and(a: &Self::W64, b: &Self::W64) -> Self::W64;
    /// `a | b`.
    fn or(a: &Self::W64, b: &Self::W64) -> Self::W64;
    /// `a << s`.
    fn shl(a: &Self::W64, s: u32) -> Self::W64;
    /// `a >> s`.
    fn shr(a: &Self::W64, s: u32) -> Self::W64;
    /// `a.wrapping_mul(b)`.
    fn wrapping_mul(a: &Self::W64, b: &Self::W64) -> Self::W64;
    /// `u128::from(a)`.
    fn widen(a: &Self::W64) -> Self::W128;
    /// `a as u64`.
    fn lo(a: &Self::W128) -> Self::W64;
    /// `(a >> 64) as u64`.
    fn hi(a: &Self::W128) -> Self::W64;
    /// `a * b` (operands below 2^64: the product is exact).
    fn mul128(a: &Self::W128, b: &Self::W128) -> Self::W128;
    /// `a ^ b`.
    fn xor128(a: &Self::W128, b: &Self::W128) -> Self::W128;
    /// `a & b`.
    fn and128(a: &Self::W128, b: &Self::W128) -> Self::W128;
    /// `a | b`.
    fn or128(a: &Self::W128, b: &Self::W128) -> Self::W128;
    /// Overwrites secret coefficients with zeros (`zeroize`). No default: a symbolic
    /// instance must model the overwrite, so that a wipe before a value's last use
    /// fails the proofs as it would fail the machine.
    fn wipe16(x: &mut [Self::W16]);
    /// Overwrites secret words with zeros (`zeroize`); see [`Bits::wipe16`].
    fn wipe64(x: &mut [Self::W64]);
}

/// The library's [`Bits`]: machine integers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Native;

impl Bits for Native {
    type W16 = u16;
    type W64 = u64;
    type W128 = u128;
    #[inline(always)]
    fn c16(x: u16) -> u16 {
        x
    }
    #[inline(always)]
    fn c64(x: u64) -> u64 {
        x
    }
    #[inline(always)]
    fn c128(x: u128) -> u128 {
        x
    }
    #[inline(always)]
    fn from16(x: &u16) -> u64 {
        u64::from(*x)
    }
    #[inline(always)]
    fn to16(x: &u64) -> u16 {
        *x as u16
    }
    #[inline(always)]
    fn xor(a: &u64, b: &u64) -> u64 {
        a ^ b
    }
    #[inline(always)]
    fn and(a: &u64, b: &u64) -> u64 {
        a & b
    }
    #[inline(always)]
    fn or(a: &u64, b: &u64) -> u64 {
        a | b
    }
    #[inline(always)]
    fn shl(a: &u64, s: u32) -> u64 {
        a << s
    }
    #[inline(always)]
    fn shr(a: &u64, s: u32) -> u64 {
        a >> s
    }
    #[inline(always)]
    fn wrapping_mul(a: &u64, b: &u64) -> u64 {
        a.wrapping_mul(*b)
    }
    #[inline(always)]
    fn widen(a: &u64) -> u128 {
        u128::from(*a)
    }
    #[inline(always)]
    fn lo(a: &u128) -> u64 {
        *a as u64
    }
    #[inline(always)]
    fn hi(a: &u128) -> u64 {
        (*a >> 64) as u64
    }
    #[inline(always)]
    fn mul128(a: &u128, b: &u128) -> u128 {
        a * b
    }
    #[inline(always)]
    fn xor128(a: &u128, b: &u128) -> u128 {
        a ^ b
    }
    #[inline(always)]
    fn and128(a: &u128, b: &u128) -> u128 {
        a & b
    }
    #[inline(always)]
    fn or128(a: &u128, b: &u128) -> u128 {
        a | b
    }
    #[inline(always)]
    fn wipe16(x: &mut [u16]) {
        zeroize::Zeroize::zeroize(x);
    }
    #[inline(always)]
    fn wipe64(x: &mut [u64]) {
        zeroize::Zeroize::zeroize(x);
    }
}

/// `poly_R2_tobytes`-like packing: bit i = coefficient i & 1.
pub fn r2_from_poly(a: &Poly) -> R2 {
    let mut r = r2_from_poly_over::<Native>(&a.0);
    planted_pack(&mut r);
    r
}

/// [`r2_from_poly`] over any [`Bits`], on the 509 coefficients.
#[inline(always)]
pub fn r2_from_poly_over<B: Bits>(a: &[B::W16; N]) -> [B::W64; 8] {
    // Four coefficients at a time: with c_k at bits 16k of x, bit 0 of c_k lands at
    // bit 48 + k of (x & 0x0001_0001_0001_0001)·GATHER (partial products at
    // 16k + 48 − 15j, pairwise distinct for k, j < 4: no carries).
    const GATHER: u64 = 0x0001_0002_0004_0008; // bits 48, 33, 18, 3
    let gather = planted_gather(GATHER);
    let mut padded: [B::W16; 512] = core::array::from_fn(|_| B::c16(0));
    padded[..N].clone_from_slice(a);
    let mut r: [B::W64; 8] = core::array::from_fn(|_| B::c64(0));
    for (word, chunk) in r.iter_mut().zip(padded.as_chunks::<64>().0) {
        for (q, c) in chunk.as_chunks::<4>().0.iter().enumerate() {
            let x = B::or(
                &B::or(
                    &B::or(&B::from16(&c[0]), &B::shl(&B::from16(&c[1]), 16)),
                    &B::shl(&B::from16(&c[2]), 32),
                ),
                &B::shl(&B::from16(&c[3]), 48),
            );
            let spread = B::and(&x, &B::c64(0x0001_0001_0001_0001));
            let bits = B::and(
                &B::shr(&B::wrapping_mul(&spread, &B::c64(gather)), 48),
                &B::c64(0xf),
            );
            *word = B::or(word, &B::shl(&bits, 4 * q as u32));
        }
    }
    // A copy of the polynomial (3g·f, or the inverse's input).
    B::wipe16(&mut padded);
    r
}

/// Unpacks bits into a polynomial with coefficients in {0, 1}.
pub fn r2_to_poly(a: &R2) -> Poly {
    Poly(r2_to_poly_over::<Native>(a))
}

/// [`r2_to_poly`] over any [`Bits`].
#[inline(always)]
pub fn r2_to_poly_over<B: Bits>(a: &[B::W64; 8]) -> [B::W16; N] {
    // Four bits at a time: bit k of a nibble lands at bit 16k of nibble·SPREAD
    // (partial products at k + 15j, pairwise distinct for k, j < 4: no carries).
    const SPREAD: u64 = 0x0000_2000_4000_8001; // bits 0, 15, 30, 45
    let mut padded: [B::W16; 512] = core::array::from_fn(|_| B::c16(0));
    for (word, chunk) in a.iter().zip(padded.as_chunks_mut::<64>().0) {
        for (q, c) in chunk.as_chunks_mut::<4>().0.iter_mut().enumerate() {
            let nibble = B::and(&B::shr(word, 4 * q as u32), &B::c64(0xf));
            let x = B::and(
                &B::wrapping_mul(&nibble, &B::c64(SPREAD)),
                &B::c64(planted_unpack_mask(0x0001_0001_0001_0001)),
            );
            *c = [
                B::to16(&x),
                B::to16(&B::shr(&x, 16)),
                B::to16(&B::shr(&x, 32)),
                B::to16(&B::shr(&x, 48)),
            ];
        }
    }
    let mut r: [B::W16; N] = core::array::from_fn(|_| B::c16(0));
    r.clone_from_slice(&padded[..N]);
    B::wipe16(&mut padded);
    r
}

/// 2^e mod 509 for a public exponent.
#[allow(clippy::integer_division_remainder_used)] // compile-time tables, public values
const fn pow2_mod_n(e: u32) -> usize {
    let mut r = 1usize;
    let mut i = 0;
    while i < e {
        r = (r * 2) % N;
        i += 1;
    }
    r
}

/// The source table of the multi-squaring by 2^k, k ≤ 508: `out[j] = in[src[j]]` with
/// `src[j]` = j·2^(−k) mod 509 = j·2^(508 − k) mod 509 (2 has order 508).
///
/// # Panics
/// If k > 508: `508 − k` overflows in debug builds (a compile error in a `const`
/// context); release builds then compute a wrong table after about 4·10⁹ doublings.
#[allow(clippy::integer_division_remainder_used)] // compile-time tables, public values
pub const fn multisquare_table(k: u32) -> [u16; N] {
    let inv = pow2_mod_n(508 - k);
    let mut t = [0u16; N];
    let mut j = 0;
    while j < N {
        t[j] = ((j * inv) % N) as u16;
        j += 1;
    }
    t
}

/// The distinct multi-squaring amounts the chain uses.
pub const SQUARINGS: [u32; 8] = [1, 3, 6, 15, 30, 63, 126, 252];

/// Positions of the Beneš network (the 509 coefficients padded to 2^9).
const BN: usize = 512;
/// log2 of [`BN`].
const LOG_BN: usize = 9;
/// Stages of a Beneš network on 2^9 positions: 2·9 − 1.
pub const BENES_STAGES: usize = 2 * LOG_BN - 1;

/// The delta-swap distance of Beneš stage `s`: 256, 128, .., 2, 1, 2, .., 256.
///
/// # Panics
/// If s >= [`BENES_STAGES`] (17): the subtraction overflows in debug builds (a
/// compile error in a `const` context); release builds return a wrong distance.
pub const fn benes_distance(s: usize) -> usize {
    if s < LOG_BN {
        BN >> (s + 1)
    } else {
        BN >> (2 * LOG_BN - 1 - s)
    }
}

/// Routes the permutation "bit `table[j]` moves to bit j" (padded with fixed points
/// 509..511) through a Beneš network by the looping algorithm, at compile time.
/// Result: for each stage, the 512-bit mask of the lower positions i (i & d = 0) whose
/// pair (i, i + d) is swapped.
const fn benes_masks(table: &[u16; N]) -> [[u64; 8]; BENES_STAGES] {
    let mut masks = [[0u64; 8]; BENES_STAGES];
    // dst[p]: where the element now at position p must go, relative to its block.
    let mut dst = [0u16; BN];
    let mut j = 0;
    while j < BN {
        if j < N {
            dst[table[j] as usize] = j as u16;
        } else {
            dst[j] = j as u16;
        }
        j += 1;
    }
    // Levels 0..=7 route blocks of 512 down to 4 positions; level 8, blocks of two, is
    // the middle stage: its input and output masks are one stage, and for a block at
    // most one of the two sets the bit (the element at the even position is bound for
    // the odd one).
    let mut level = 0;
    while level < LOG_BN {
        let size = BN >> level;
        let h = size >> 1;
        let mut next = [0u16; BN];
        let mut base = 0;
        while base < BN {
            // inv[q]: local position of the element bound for local output q.
            let mut inv = [0u16; BN];
            let mut p = 0;
            while p < size {
                inv[dst[base + p] as usize] = p as u16;
                p += 1;
            }
            // Colour = which half-size subnetwork the element goes through. Input
            // partners (p, p ^ h) and output partners (bound for q, q ^ h) differ.
            let mut colour = [2u8; BN];
            let mut start = 0;
            while start < size {
                if colour[start] == 2 {
                    let mut p = start;
                    loop {
                        colour[p] = 0;
                        let pp = p ^ h;
                        colour[pp] = 1;
                        let q = inv[(dst[base + pp] as usize) ^ h] as usize;
                        if colour[q] != 2 {
                            break;
                        }
                        p = q;
                    }
                }
                start += 1;
            }
            let mut i = 0;
            while i < h {
                // Input stage: swap when the element at i goes to the upper half.
                if colour[i] == 1 {
                    let pos = base + i;
                    masks[level][pos >> 6] |= 1 << (pos & 63);
                }
                // Output stage: the element bound for i came through the upper half.
                if colour[inv[i] as usize] == 1 {
                    let pos = base + i;
                    masks[BENES_STAGES - 1 - level][pos >> 6] |= 1 << (pos & 63);
                }
                i += 1;
            }
            let mut p = 0;
            while p < size {
                let c = colour[p] as usize;
                let to = (p & (h - 1)) + c * h;
                next[base + to] = dst[base + p] & (h as u16 - 1);
                p += 1;
            }
            base += size;
        }
        dst = next;
        level += 1;
    }
    masks
}

/// The Beneš masks of the multi-squarings by 2^k, k in [`SQUARINGS`], computed at
/// compile time from [`multisquare_table`].
static BENES: [[[u64; 8]; BENES_STAGES]; 8] = [
    benes_masks(&multisquare_table(1)),
    benes_masks(&multisquare_table(3)),
    benes_masks(&multisquare_table(6)),
    benes_masks(&multisquare_table(15)),
    benes_masks(&multisquare_table(30)),
    benes_masks(&multisquare_table(63)),
    benes_masks(&multisquare_table(126)),
    benes_masks(&multisquare_table(252)),
];

/// The permutation table for a^(2^k), k one of [`SQUARINGS`] (the specification of
/// the permutation; [`benes_for`] is how it runs).
///
/// # Panics
/// If k is not in [`SQUARINGS`] (k is a constant of the chain, never data).
pub fn table_for(k: u32) -> [u16; N] {
    assert!(
        SQUARINGS.contains(&k),
        "k is one of the chain's multi-squaring amounts"
    );
    multisquare_table(k)
}

/// The Beneš network masks for a^(2^k), k one of [`SQUARINGS`].
///
/// # Panics
/// If k is not in [`SQUARINGS`] (k is a constant of the chain, never data).
pub fn benes_for(k: u32) -> &'static [[u64; 8]; BENES_STAGES] {
    let idx = SQUARINGS
        .iter()
        .position(|&s| s == k)
        .expect("k is one of the chain's multi-squaring amounts");
    &BENES[idx]
}

/// a^(2^k) mod x^509 − 1 by the table: bit j of the result is bit `table[j]` of a. The
/// straightforward form, 509 single-bit moves at constant indices; kept as the
/// specification that [`multisquare`] is tested against (test code only: an entry of
/// 512 or more would index out of the packed words).
#[cfg(test)]
fn multisquare_by_table(a: &R2, table: &[u16; N]) -> R2 {
    let mut r = [0u64; 8];
    for (j, &s) in table.iter().enumerate() {
        let s = usize::from(s);
        r[j >> 6] |= ((a[s >> 6] >> (s & 63)) & 1) << (j & 63);
    }
    r
}

/// a^(2^k) mod x^509 − 1 as the fixed bit permutation i ↦ i·2^k mod 509, run through
/// its Beneš network ([`benes_for`]): 17 stages of masked delta swaps on the 512-bit
/// value, a fixed sequence of XOR, AND and shifts (constant time).
#[inline(always)]
pub fn multisquare(a: &R2, masks: &[[u64; 8]; BENES_STAGES]) -> R2 {
    multisquare_over::<Native>(a, masks)
}

/// [`multisquare`] over any [`Bits`].
#[inline(always)]
pub fn multisquare_over<B: Bits>(a: &[B::W64; 8], masks: &[[u64; 8]; BENES_STAGES]) -> [B::W64; 8] {
    let flip = reference::plant::active("ntruhps2048509-benes-flips-a-mask-bit");
    let mut x = a.clone();
    for (s, m) in masks.iter().enumerate() {
        let d = benes_distance(s);
        let mask = |w: usize| B::c64(planted_mask(flip, s, w, m[w]));
        if d >= 64 {
            let dw = d >> 6;
            for w in 0..8 {
                if w & dw == 0 {
                    let t = B::and(&B::xor(&x[w], &x[w + dw]), &mask(w));
                    x[w] = B::xor(&x[w], &t);
                    x[w + dw] = B::xor(&x[w + dw], &t);
                }
            }
        } else {
            for (w, xw) in x.iter_mut().enumerate() {
                let t = B::and(&B::xor(xw, &B::shr(xw, d as u32)), &mask(w));
                *xw = B::xor(xw, &B::xor(&t, &B::shl(&t, d as u32)));
            }
        }
    }
    x
}

/// Bits at positions ≡ c (mod 5) among 0..128.
const fn class_mask(c: usize) -> u128 {
    class_mask_mod(c, 5)
}

/// Bits at positions ≡ c (mod m) among 0..128.
const fn class_mask_mod(c: usize, m: usize) -> u128 {
    let mut mask = 0u128;
    let mut p = c;
    while p < 128 {
        mask |= 1 << p;
        p += m;
    }
    mask
}

/// Planted (`ntru-clmul-four-classes`): four classes with 4-bit holes, "16 multiplies
/// instead of 25" — a hole then holds counts up to 15 only, and a position that
/// collects 16 partial products (dense operands only) carries into the next one.
#[mutants::skip]
fn clmul64_four_classes(a: u64, b: u64) -> u128 {
    let class: [u128; 4] = core::array::from_fn(|c| class_mask_mod(c, 4));
    let mut r: u128 = 0;
    for c in 0..4 {
        let mut z: u128 = 0;
        for i in 0..4 {
            let j = (c + 4 - i) & 3;
            z ^= u128::from(a & class[i] as u64) * u128::from(b & class[j] as u64);
        }
        r |= z & class[c];
    }
    r
}

/// The five bit classes mod 5, as 128-bit masks.
const CLASS: [u128; 5] = [
    class_mask(0),
    class_mask(1),
    class_mask(2),
    class_mask(3),
    class_mask(4),
];

/// At most this many bits of a 64-bit operand fall in one class mod 5.
pub const BITS_PER_CLASS: u32 = 64u32.div_ceil(5);
// The hole-counting lemma: a bit position of the integer product of two classes
// collects at most BITS_PER_CLASS partial products; that count must fit in the 5-bit
// gap before the next position of the same class.
const _: () = assert!(BITS_PER_CLASS < (1 << 5));

/// 64×64 → 128-bit carry-less product, portable and constant-time: integer products
/// of operands with "holes". Each operand is split into five classes of bits (bit
/// positions ≡ c mod 5, at most 13 bits each); in an integer product of two classes
/// every bit position receives at most 13 < 32 partial products, so the count fits in
/// the 5-bit gap up to the next position of the same class and never carries into it.
/// The parity of the count — the carry-less product's bit — is then exact at the
/// positions of class (c1 + c2) mod 5, which the masks keep. 25 integer multiplies, no
/// branch and no table lookup.
#[inline(always)]
pub fn clmul64_portable(a: u64, b: u64) -> u128 {
    if reference::plant::active("ntru-clmul-four-classes") {
        return clmul64_four_classes(a, b);
    }
    clmul64_portable_over::<Native>(a, b)
}

/// [`clmul64_portable`] over any [`Bits`].
#[inline(always)]
#[allow(clippy::needless_range_loop)] // c, i, j are bit-class numbers used together
pub fn clmul64_portable_over<B: Bits>(a: B::W64, b: B::W64) -> B::W128 {
    let keep_all = reference::plant::active("ntruhps2048509-clmul-keeps-every-class");
    let mut ai: [B::W64; 5] = core::array::from_fn(|_| B::c64(0));
    let mut bi: [B::W64; 5] = core::array::from_fn(|_| B::c64(0));
    for c in 0..5 {
        ai[c] = B::and(&a, &B::c64(CLASS[c] as u64));
        bi[c] = B::and(&b, &B::c64(CLASS[c] as u64));
    }
    let mut r = B::c128(0);
    for c in 0..5 {
        let mut z = B::c128(0);
        for i in 0..5 {
            // j ≡ c − i (mod 5): the class of b that lands in class c.
            let j = if c >= i { c - i } else { c + 5 - i };
            z = B::xor128(&z, &B::mul128(&B::widen(&ai[i]), &B::widen(&bi[j])));
        }
        if keep_all {
            r = B::or128(&r, &z);
        } else {
            r = B::or128(&r, &B::and128(&z, &B::c128(CLASS[c])));
        }
    }
    // The operands' bit classes.
    B::wipe64(&mut ai);
    B::wipe64(&mut bi);
    r
}

/// The SSE2 and PCLMULQDQ operations of the `pclmulqdq` multiply
/// ([`clmul64_sse_over`]), over any representation of a 128-bit register.
///
/// The CPU's instance is [`super::arch::Pclmul`] (it exists only when the CPU has
/// PCLMULQDQ): each method is the one intrinsic its documentation names. `refopt
/// prove` runs the same generic multiply over these operations' ISA definitions
/// (obligation N3-PCLMUL).
pub trait Sse: Copy {
    /// A 64-bit word (`u64`).
    type W64;
    /// A 128-bit word (`u128`).
    type W128;
    /// A 128-bit register (`__m128i`).
    type Xmm;
    /// `_mm_set_epi64x(0, a as i64)`: `a` in the low lane, the high lane zero.
    fn set_low(self, a: Self::W64) -> Self::Xmm;
    /// `_mm_clmulepi64_si128::<IMM>(x, y)`: the 64×64 carry-less product of x's lane
    /// `IMM & 1` and y's lane `(IMM >> 4) & 1`.
    fn clmulepi64<const IMM: i32>(self, x: &Self::Xmm, y: &Self::Xmm) -> Self::Xmm;
    /// `_mm_cvtsi128_si64(x) as u64`: the low lane.
    fn low_lane(self, x: &Self::Xmm) -> Self::W64;
    /// `_mm_unpackhi_epi64(x, y)`: x's high lane in the low lane, y's in the high one.
    fn unpackhi_epi64(self, x: &Self::Xmm, y: &Self::Xmm) -> Self::Xmm;
    /// `u128::from(lo) + (u128::from(hi) << 64)`.
    fn join(self, lo: Self::W64, hi: Self::W64) -> Self::W128;
}

/// 64×64 → 128-bit carry-less product by one `pclmulqdq`, over any [`Sse`]: a and b
/// in the low lanes, the product's two halves read straight from the register (no
/// copy in memory to wipe).
#[inline(always)]
pub fn clmul64_sse_over<S: Sse>(s: S, a: S::W64, b: S::W64) -> S::W128 {
    let x = s.set_low(a);
    let y = s.set_low(b);
    let p = if reference::plant::active("ntruhps2048509-pclmul-reads-the-high-lanes") {
        s.clmulepi64::<0x11>(&x, &y)
    } else {
        s.clmulepi64::<0x00>(&x, &y)
    };
    let lo = s.low_lane(&p);
    let hi = if reference::plant::active("ntruhps2048509-pclmul-high-half-from-the-low-lane") {
        s.low_lane(&p)
    } else {
        s.low_lane(&s.unpackhi_epi64(&p, &p))
    };
    s.join(lo, hi)
}

/// 128×128 → 256-bit carry-less product, schoolbook with four 64×64 products
/// (x0y0, x0y1, x1y0, x1y1), as in `poly_r2_mul.s`.
#[inline(always)]
fn mul128<B: Bits, C: Fn(B::W64, B::W64) -> B::W128>(
    clmul: &C,
    x: [B::W64; 2],
    y: [B::W64; 2],
) -> [B::W64; 4] {
    let lo = clmul(x[0].clone(), y[0].clone());
    let hi = clmul(x[1].clone(), y[1].clone());
    let mid = B::xor128(
        &clmul(x[0].clone(), y[1].clone()),
        &clmul(x[1].clone(), y[0].clone()),
    );
    [
        B::lo(&lo),
        B::xor(&B::hi(&lo), &B::lo(&mid)),
        B::xor(&B::lo(&hi), &B::hi(&mid)),
        B::hi(&hi),
    ]
}

/// 256×256 → 512-bit carry-less product, Karatsuba on 128-bit halves.
#[inline(always)]
fn mul256<B: Bits, C: Fn(B::W64, B::W64) -> B::W128>(
    clmul: &C,
    x: &[B::W64; 4],
    y: &[B::W64; 4],
) -> [B::W64; 8] {
    let (mut x0, mut x1) = ([x[0].clone(), x[1].clone()], [x[2].clone(), x[3].clone()]);
    let (mut y0, mut y1) = ([y[0].clone(), y[1].clone()], [y[2].clone(), y[3].clone()]);
    let mut lo = mul128::<B, C>(clmul, x0.clone(), y0.clone());
    let mut hi = mul128::<B, C>(clmul, x1.clone(), y1.clone());
    let mut mid = mul128::<B, C>(
        clmul,
        [B::xor(&x0[0], &x1[0]), B::xor(&x0[1], &x1[1])],
        [B::xor(&y0[0], &y1[0]), B::xor(&y0[1], &y1[1])],
    );
    let mut r: [B::W64; 8] = core::array::from_fn(|_| B::c64(0));
    r[..4].clone_from_slice(&lo);
    r[4..].clone_from_slice(&hi);
    for i in 0..4 {
        // mid − lo − hi = x0y1 + x1y0, added at 2^128.
        r[2 + i] = B::xor(&r[2 + i], &B::xor(&B::xor(&mid[i], &lo[i]), &hi[i]));
    }
    // The operands' halves and the three partial products (the operands themselves
    // are the caller's, by reference).
    for t in [&mut x0[..], &mut x1, &mut y0, &mut y1] {
        B::wipe64(t);
    }
    for t in [&mut lo[..], &mut hi, &mut mid] {
        B::wipe64(t);
    }
    r
}

/// 512×512 → 1024-bit carry-less product over any [`Bits`], Karatsuba on 256-bit
/// halves over `mul256`: 3·3·4 = 36 calls of `clmul`.
#[inline(always)]
pub fn mul512_over<B: Bits, C: Fn(B::W64, B::W64) -> B::W128>(
    clmul: &C,
    x: &[B::W64; 8],
    y: &[B::W64; 8],
) -> [B::W64; 16] {
    let mut x0 = [x[0].clone(), x[1].clone(), x[2].clone(), x[3].clone()];
    let mut x1 = [x[4].clone(), x[5].clone(), x[6].clone(), x[7].clone()];
    let mut y0 = [y[0].clone(), y[1].clone(), y[2].clone(), y[3].clone()];
    let mut y1 = [y[4].clone(), y[5].clone(), y[6].clone(), y[7].clone()];
    let mut lo = mul256::<B, C>(clmul, &x0, &y0);
    let mut hi = mul256::<B, C>(clmul, &x1, &y1);
    let mut xs = [
        B::xor(&x0[0], &x1[0]),
        B::xor(&x0[1], &x1[1]),
        B::xor(&x0[2], &x1[2]),
        B::xor(&x0[3], &x1[3]),
    ];
    let mut ys = [
        B::xor(&y0[0], &y1[0]),
        B::xor(&y0[1], &y1[1]),
        B::xor(&y0[2], &y1[2]),
        B::xor(&y0[3], &y1[3]),
    ];
    let mut mid = mul256::<B, C>(clmul, &xs, &ys);
    let mut r: [B::W64; 16] = core::array::from_fn(|_| B::c64(0));
    r[..8].clone_from_slice(&lo);
    r[8..].clone_from_slice(&hi);
    planted_wipe_hi_early::<B>(&mut hi);
    if !planted_middle_term_keeps_hi::<B>(&mut r, &mid, &lo) {
        for i in 0..8 {
            r[4 + i] = B::xor(&r[4 + i], &B::xor(&B::xor(&mid[i], &lo[i]), &hi[i]));
        }
    }
    // The halves, their sums and the three partial products.
    for t in [&mut x0[..], &mut x1, &mut y0, &mut y1, &mut xs, &mut ys] {
        B::wipe64(t);
    }
    for t in [&mut lo[..], &mut hi, &mut mid] {
        B::wipe64(t);
    }
    r
}

/// Folds a product of degree ≤ 1016 mod x^509 − 1, over any [`Bits`]: bit j ≥ 509 is
/// XORed into j − 509.
#[inline(always)]
pub fn fold509_over<B: Bits>(p: &[B::W64; 16]) -> [B::W64; 8] {
    let mut r: [B::W64; 8] = core::array::from_fn(|_| B::c64(0));
    for w in 0..8 {
        // Bits 509 + 64w .. 509 + 64w + 63 start at bit 61 of word 7 + w.
        let hi = B::or(&B::shr(&p[7 + w], 61), &B::shl(&p[8 + w], 3));
        r[w] = B::xor(&p[w], &hi);
    }
    // Bits 509..511 of word 7 were folded into 0..2 above (and p has no bit ≥ 1018).
    r[7] = B::and(&r[7], &B::c64(TOP_MASK));
    r
}

/// The R2 product mod x^509 − 1 with a given 64×64 carry-less multiply: `fold509`
/// of [`mul512_over`]. The portable and the PCLMULQDQ paths both run this function.
#[inline(always)]
pub fn r2_mul_with<B: Bits, C: Fn(B::W64, B::W64) -> B::W128>(
    clmul: &C,
    a: &[B::W64; 8],
    b: &[B::W64; 8],
) -> [B::W64; 8] {
    let mut product = mul512_over::<B, C>(clmul, a, b);
    let r = fold509_over::<B>(&product);
    B::wipe64(&mut product);
    r
}

/// One step of the addition chain: square the previous element k times, then
/// multiply by the element with index `mul` (element 0 is a = a^(2^1 − 1)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainStep {
    /// Number of squarings (the permutation i ↦ i·2^k mod 509).
    pub k: u32,
    /// Index of the earlier chain element to multiply by.
    pub mul: usize,
}

/// The addition chain the code executes (`poly_r2_inv.c`, "1, 2, 3, 6, 12, 15, 30,
/// 60, 63, 126, 252, 504, 507"). Element t + 1 = (element t)^(2^k) · element `mul`;
/// with s_m = a^(2^m − 1) the elements are s1, s2, s3, s6, s12, s15, s30, s60, s63,
/// s126, s252, s504, s507. The obligations test recomputes the exponent from this
/// table with exact integers.
pub const CHAIN: [ChainStep; 12] = [
    ChainStep { k: 1, mul: 0 },
    ChainStep { k: 1, mul: 0 },
    ChainStep { k: 3, mul: 2 },
    ChainStep { k: 6, mul: 3 },
    ChainStep { k: 3, mul: 2 },
    ChainStep { k: 15, mul: 5 },
    ChainStep { k: 30, mul: 6 },
    ChainStep { k: 3, mul: 2 },
    ChainStep { k: 63, mul: 8 },
    ChainStep { k: 126, mul: 9 },
    ChainStep { k: 252, mul: 10 },
    ChainStep { k: 3, mul: 2 },
];

/// Squarings after the last multiplication: s507^2 = a^(2^508 − 2).
pub const FINAL_SQUARINGS: u32 = 1;

/// a^(2^508 − 2) mod x^509 − 1 by [`CHAIN`], with `mul` the product mod x^509 − 1.
/// 12 multiplications and 13 multi-squarings, a fixed sequence of operations.
#[inline(always)]
pub fn r2_inv_chain<M: Fn(&R2, &R2) -> R2>(a: &R2, mul: M) -> R2 {
    r2_inv_chain_over::<Benes, M>(a, mul)
}

/// The element type of the chain and its multi-squaring.
pub trait ChainOps {
    /// An element (a polynomial, or in the proof its exponent).
    type Elem: Clone + Default;
    /// x^(2^k).
    fn sq(x: &Self::Elem, k: u32) -> Self::Elem;
    /// Overwrites secret elements (R2: zeroize). No default: over exponents a wiped
    /// element becomes unknown, so a wipe before an element's last use is seen.
    fn wipe(elems: &mut [Self::Elem]);
}

/// The library's [`ChainOps`]: R2 elements, multi-squaring by the Beneš networks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Benes;

impl ChainOps for Benes {
    type Elem = R2;
    #[inline(always)]
    fn sq(x: &R2, k: u32) -> R2 {
        multisquare(x, benes_for(k))
    }
    #[inline(always)]
    fn wipe(elems: &mut [R2]) {
        zeroize::Zeroize::zeroize(elems.as_flattened_mut());
    }
}

/// The chain of [`r2_inv_chain`] over any element type with its multi-squaring and
/// product `mul`. Being generic, it can only combine `a` through these two
/// operations: run over exponents (`refopt prove`, N3-CHAIN) it computes the exponent
/// of the power it returns.
#[inline(always)]
pub fn r2_inv_chain_over<O: ChainOps, M: Fn(&O::Elem, &O::Elem) -> O::Elem>(
    a: &O::Elem,
    mul: M,
) -> O::Elem {
    let mut s: [O::Elem; CHAIN.len() + 1] = core::array::from_fn(|_| O::Elem::default());
    s[0] = a.clone();
    for (t, step) in CHAIN.iter().enumerate() {
        let mut sq = O::sq(&s[t], step.k);
        planted_wipe_early::<O>(t, &mut sq);
        s[t + 1] = mul(&sq, &s[planted_mul_index(t, step.mul)]);
        O::wipe(core::slice::from_mut(&mut sq));
    }
    let r = if reference::plant::active("ntruhps2048509-chain-skips-the-final-squaring") {
        s[CHAIN.len()].clone()
    } else {
        O::sq(&s[CHAIN.len()], FINAL_SQUARINGS)
    };
    // Powers of the (secret) input.
    O::wipe(&mut s);
    r
}

/// Planted (`ntruhps2048509-chain-wipes-a-square-early`, proof self-test): the last
/// step's squaring is wiped before the multiplication uses it. No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_wipe_early<O: ChainOps>(t: usize, sq: &mut O::Elem) {
    if reference::plant::active("ntruhps2048509-chain-wipes-a-square-early") && t == CHAIN.len() - 1
    {
        O::wipe(core::slice::from_mut(sq));
    }
}

/// The chain element step t multiplies by; planted (`ntru-chain-wrong-step`): s15 =
/// s12^(2^3)·s3 written with s2 instead of s3. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_mul_index(t: usize, mul: usize) -> usize {
    if reference::plant::active("ntru-chain-wrong-step") && t == 4 {
        1
    } else {
        mul
    }
}

/// The packing's gather constant; planted (`ntruhps2048509-pack-gather-moves-a-term`):
/// one term moved a bit up. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_gather(gather: u64) -> u64 {
    if reference::plant::active("ntruhps2048509-pack-gather-moves-a-term") {
        gather ^ (1 << 33) ^ (1 << 34)
    } else {
        gather
    }
}

/// The unpacking's lane mask; planted (`ntruhps2048509-unpack-mask-keeps-two-bits`):
/// bit 1 of every lane kept too. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_unpack_mask(mask: u64) -> u64 {
    if reference::plant::active("ntruhps2048509-unpack-mask-keeps-two-bits") {
        mask | (mask << 1)
    } else {
        mask
    }
}

/// Beneš mask word `w` of stage `s`; planted (`ntruhps2048509-benes-flips-a-mask-bit`,
/// `flip`): bit 0 of the first word of stage 0 flipped. No mutants: plant scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_mask(flip: bool, s: usize, w: usize, mask: u64) -> u64 {
    if flip && s == 0 && w == 0 {
        mask ^ 1
    } else {
        mask
    }
}

/// Planted (`ntruhps2048509-karatsuba-middle-term-keeps-hi`): the Karatsuba middle
/// term added without subtracting `hi`; returns whether it did. No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_middle_term_keeps_hi<B: Bits>(
    r: &mut [B::W64; 16],
    mid: &[B::W64; 8],
    lo: &[B::W64; 8],
) -> bool {
    if !reference::plant::active("ntruhps2048509-karatsuba-middle-term-keeps-hi") {
        return false;
    }
    for i in 0..8 {
        r[4 + i] = B::xor(&r[4 + i], &B::xor(&mid[i], &lo[i]));
    }
    true
}

/// Planted (`ntruhps2048509-karatsuba-wipes-hi-early`, proof self-test): the high
/// half's product is wiped before the middle term subtracts it. No mutants: plant
/// scaffolding.
#[mutants::skip]
#[inline(always)]
fn planted_wipe_hi_early<B: Bits>(hi: &mut [B::W64; 8]) {
    if reference::plant::active("ntruhps2048509-karatsuba-wipes-hi-early") {
        B::wipe64(hi);
    }
}

/// Planted (`ntru-r2-pack-drops-508`): the packing stops at coefficient 507.
#[mutants::skip]
#[inline(always)]
fn planted_pack(r: &mut R2) {
    if reference::plant::active("ntru-r2-pack-drops-508") {
        r[7] &= !(1 << (N - 1 - 448));
    }
}

/// The R2 product mod x^509 − 1 with the portable carry-less multiply.
pub fn r2_mul_portable(a: &R2, b: &R2) -> R2 {
    r2_mul_with::<Native, _>(&clmul64_portable, a, b)
}

/// `chain` (the addition chain on one multiplier) on `a` packed, unpacked; the
/// packed input (3g·f mod 2 in key generation) and inverse are wiped.
pub(crate) fn r2_inv_packed(a: &Poly, chain: impl FnOnce(&R2) -> R2) -> Poly {
    let mut x = r2_from_poly(a);
    let mut y = chain(&x);
    let r = r2_to_poly(&y);
    zeroize::Zeroize::zeroize(&mut x[..]);
    zeroize::Zeroize::zeroize(&mut y[..]);
    r
}

/// `poly_R2_inv` by the chain on the portable path.
pub fn poly_r2_inv_portable(a: &Poly) -> Poly {
    let r = r2_inv_packed(a, |x| r2_inv_chain(x, r2_mul_portable));
    debug_assert!(
        !r2_invertible(a) || r2_is_inverse(a, &r),
        "Kernels::poly_r2_inv ensures"
    );
    r
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test code on public indices
mod tests {
    use super::{
        Benes, Bits, ChainOps, N, Native, R2, SQUARINGS, benes_for, multisquare,
        multisquare_by_table, table_for,
    };
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// The chain's wipe hook clears every intermediate power it is given.
    #[test]
    fn benes_wipe_clears_the_powers() {
        let mut powers = [[u64::MAX; 8], [0x5a5a_5a5a_5a5a_5a5a; 8]];
        Benes::wipe(&mut powers);
        assert_eq!(powers, [[0; 8]; 2]);
    }

    /// The word trait's wipe hooks clear every word they are given.
    #[test]
    fn native_wipes_clear_the_words() {
        let mut coefficients = [1u16, 0xffff, 0x5a5a];
        Native::wipe16(&mut coefficients);
        assert_eq!(coefficients, [0; 3]);
        let mut words = [u64::MAX, 0x5a5a_5a5a_5a5a_5a5a];
        Native::wipe64(&mut words);
        assert_eq!(words, [0; 2]);
    }

    /// One squaring in GF(2)\[x\]/(x^509 − 1), written independently of the tables:
    /// coefficient i moves to 2i mod 509 (the cross terms cancel in characteristic 2).
    fn square_by_bits(a: &R2) -> R2 {
        let mut r = [0u64; 8];
        for i in 0..N {
            if (a[i / 64] >> (i % 64)) & 1 == 1 {
                let j = (2 * i) % N;
                r[j / 64] ^= 1 << (j % 64);
            }
        }
        r
    }

    /// Each multi-squaring, both as the Beneš network that runs and as its table, is
    /// k successive squarings, on unit vectors and pseudorandom inputs (obligation
    /// N3-SQ of `refopt prove` checks every input). The table is not its own witness
    /// here: a table for 2^(−k) instead of 2^k gives the same inverse (the chain's
    /// product runs over every conjugate), so only this check tells them apart.
    #[test]
    fn multisquarings_are_repeated_squarings() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut next = || rng.next_u64();
        let mut inputs: Vec<R2> = [0, 1, 255, 508]
            .iter()
            .map(|&i: &usize| {
                let mut a = [0u64; 8];
                a[i / 64] = 1 << (i % 64);
                a
            })
            .collect();
        for _ in 0..8 {
            let mut a: R2 = core::array::from_fn(|_| next());
            a[7] &= (1 << (N - 448)) - 1;
            inputs.push(a);
        }
        for k in SQUARINGS {
            let table = table_for(k);
            for a in &inputs {
                let mut want = *a;
                for _ in 0..k {
                    want = square_by_bits(&want);
                }
                assert_eq!(multisquare(a, benes_for(k)), want, "Beneš network, k = {k}");
                assert_eq!(multisquare_by_table(a, &table), want, "table, k = {k}");
            }
        }
    }
}
