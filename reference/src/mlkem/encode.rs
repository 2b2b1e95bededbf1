//! Encoding and compression (FIPS 203 sections 4.2.1 and 4.2.2).

use super::field::{self, Fe, Q};
use super::ntt::N;
use zeroize::Zeroize;

/// Compress_d(x) = ⌈(2^d/q)·x⌋ mod 2^d, for canonical x and 1 <= d <= 11.
///
/// Computed as ⌊(x·2^(d+1) + q) / 2q⌋ with the division replaced by a multiply and
/// shift (no data-dependent division); a test checks every x < q for every d used.
#[inline(always)]
pub(crate) fn compress(x: Fe, d: u32) -> u16 {
    debug_assert!(x < Q && (1..=11).contains(&d));
    // ⌊2^37 / 2q⌋ + 1: exact for numerators below 2^24 (x·2^12 + q < 2^24).
    // Evaluated at compile time: no runtime division.
    #[allow(clippy::integer_division_remainder_used)]
    const M: u64 = (1u64 << 37) / (2 * Q as u64) + 1;
    let num = (u64::from(x) << (d + 1)) + u64::from(Q);
    if crate::plant::active("mlkem-compress-divides-by-q") {
        // Planted (KyberSlash): the hardware division the multiply-shift replaces; its
        // time depends on the secret numerator on many CPUs. Same result.
        #[allow(clippy::integer_division_remainder_used)]
        let quot = num / (2 * u64::from(core::hint::black_box(Q)));
        return (quot as u16) & ((1u16 << d) - 1);
    }
    let quot = (num * M) >> 37;
    (quot as u16) & ((1u16 << d) - 1)
}

/// Decompress_d(y) = ⌈(q/2^d)·y⌋, for y < 2^d.
#[inline(always)]
pub(crate) fn decompress(y: u16, d: u32) -> Fe {
    debug_assert!(u32::from(y) < (1 << d));
    ((u32::from(y) * u32::from(Q) + (1 << (d - 1))) >> d) as u16
}

/// Algorithm 5: ByteEncode_d, for d in 1..=12. Writes 32·d bytes.
///
/// Eight d-bit values fill exactly d bytes, so the bit string is built eight values
/// at a time in a 128-bit word (8·12 = 96 bits at most) and written out d bytes at a
/// time: the same bit order as the algorithm's bit-by-bit loop.
pub(crate) fn byte_encode(f: &[u16; N], d: u32, out: &mut [u8]) {
    debug_assert!((1..=12).contains(&d));
    debug_assert_eq!(out.len(), 32 * d as usize);
    let db = d as usize;
    for (group, bytes) in f.chunks_exact(8).zip(out.chunks_exact_mut(db)) {
        let mut acc = 0u128;
        for (j, &c) in group.iter().enumerate() {
            debug_assert!(u32::from(c) < (1 << d));
            acc |= u128::from(c) << (d as usize * j);
        }
        bytes.copy_from_slice(&acc.to_le_bytes()[..db]);
    }
}

/// Algorithm 6: ByteDecode_d without the final reduction: 256 values of d bits each.
pub(crate) fn byte_decode_raw(b: &[u8], d: u32) -> [u16; N] {
    let mut f = [0u16; N];
    byte_decode_raw_into(b, d, &mut f);
    f
}

/// [`byte_decode_raw`] written into `f` (for a secret polynomial: no copy is returned
/// by value).
fn byte_decode_raw_into(b: &[u8], d: u32, f: &mut [u16; N]) {
    debug_assert!((1..=12).contains(&d));
    debug_assert_eq!(b.len(), 32 * d as usize);
    let db = d as usize;
    let mask = (1u128 << d) - 1;
    // The bytes of one group of 8 values (db bytes; the rest stays 0). Wiped at the
    // end: for ŝ it holds key bytes.
    let mut word = [0u8; 16];
    for (group, bytes) in f.chunks_exact_mut(8).zip(b.chunks_exact(db)) {
        word[..db].copy_from_slice(bytes);
        let acc = u128::from_le_bytes(word);
        for (j, c) in group.iter_mut().enumerate() {
            *c = ((acc >> (db * j)) & mask) as u16;
        }
    }
    word[..].zeroize();
}

/// Algorithm 6: ByteDecode_12, reducing each 12-bit value mod q as the standard says
/// (used for keys that have no modulus check: the dk's ŝ and its embedded ek).
pub(crate) fn byte_decode_12_mod_q(b: &[u8]) -> [Fe; N] {
    let mut f = [0; N];
    byte_decode_12_mod_q_into(b, &mut f);
    f
}

/// [`byte_decode_12_mod_q`] written into `f` (for ŝ: no copy is returned by value).
pub(crate) fn byte_decode_12_mod_q_into(b: &[u8], f: &mut [Fe; N]) {
    byte_decode_raw_into(b, 12, f);
    for c in f.iter_mut() {
        // A 12-bit value is below 4096 < 2q.
        *c = field::reduce_once(*c);
    }
}

/// The modulus check of FIPS 203 section 7.2 for one 384-byte block: every 12-bit
/// value is below q. Returns 1 when it passes, 0 otherwise; no early exit (the key is
/// public, but the check costs the same either way).
pub(crate) fn byte_decode_12_checked(b: &[u8]) -> ([Fe; N], u8) {
    let f = byte_decode_raw(b, 12);
    let mut ok = 1u8;
    for &c in &f {
        if crate::plant::active("mlkem-modulus-check-relies-on-wrapping") {
            // A plain `-`: release builds wrap to the same bits, debug builds panic.
            ok &= ((c - Q) >> 15) as u8;
            continue;
        }
        if crate::plant::active("mlkem-modulus-check-accepts-q") {
            // Planted: an off-by-one bound, c <= q passes.
            ok &= (c.wrapping_sub(Q + 1) >> 15) as u8;
            continue;
        }
        // (c - q) borrows exactly when c < q.
        ok &= (c.wrapping_sub(Q) >> 15) as u8;
    }
    (f, ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exhaustive oracle: every x < q, every d used by ML-KEM, against exact rational
    /// rounding (ties round up, as ⌈·⌋ does).
    #[test]
    fn compress_matches_rational_rounding() {
        for d in [1u32, 4, 5, 10, 11, 12 - 1] {
            for x in 0..Q {
                let num = u64::from(x) << d;
                let q = u64::from(Q);
                let want = ((2 * num + q) / (2 * q)) % (1 << d);
                assert_eq!(u64::from(compress(x, d)), want, "x = {x}, d = {d}");
            }
        }
    }

    #[test]
    fn decompress_matches_rational_rounding() {
        for d in [1u32, 4, 5, 10, 11] {
            for y in 0..(1u16 << d) {
                let q = u64::from(Q);
                let want = (2 * u64::from(y) * q + (1 << d)) / (2 << d);
                assert_eq!(u64::from(decompress(y, d)), want);
            }
        }
    }

    /// The grouped encoder equals Algorithm 5 read literally (bit i of value j is bit
    /// d·j + i of the output, least significant bit of each byte first).
    #[test]
    fn encode_matches_bitwise_definition() {
        for d in 1..=12u32 {
            let f: [u16; N] =
                core::array::from_fn(|i| ((i * 2654435761) >> 7) as u16 & ((1 << d) - 1));
            let mut got = vec![0u8; 32 * d as usize];
            byte_encode(&f, d, &mut got);
            let mut want = vec![0u8; 32 * d as usize];
            for (j, &c) in f.iter().enumerate() {
                for i in 0..d as usize {
                    let bit = d as usize * j + i;
                    want[bit >> 3] |= (((c >> i) & 1) as u8) << (bit & 7);
                }
            }
            assert_eq!(got, want, "d = {d}");
        }
    }

    #[test]
    fn encode_decode_roundtrip() {
        for d in 1..=12u32 {
            let f: [u16; N] = core::array::from_fn(|i| ((i * 37 + 11) as u16) & ((1 << d) - 1));
            let mut b = vec![0u8; 32 * d as usize];
            byte_encode(&f, d, &mut b);
            assert_eq!(byte_decode_raw(&b, d), f);
        }
    }
}
