//! Byte encodings (`packq.c`, `pack3.c` of NTRU round 3).
//!
//! Only the first n − 1 = 508 coefficients are packed (`NTRU_PACK_DEG`): a key or
//! ciphertext polynomial is reduced mod Φ_n (trinary) or has coefficient sum zero
//! (`Rq_sum_zero`), so coefficient n − 1 is implied.

use super::params::{LOGQ, N, PACK_DEG, PACK_TRINARY_BYTES, POLYBYTES};
use super::poly::{Poly, modq, poly_mod_3_phi_n};

/// `poly_Sq_tobytes`: the first 508 coefficients, each reduced mod q, as 11-bit
/// little-endian fields (5588 bits; the last 4 bits of byte 698 are zero).
pub fn poly_sq_tobytes(a: &Poly) -> [u8; POLYBYTES] {
    let mut r = [0u8; POLYBYTES];
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut pos = 0;
    for &c in &a.0[..PACK_DEG] {
        acc |= u32::from(modq(c)) << bits;
        bits += LOGQ;
        while bits >= 8 {
            r[pos] = acc as u8;
            pos += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
    // Planted: 5 588 bits taken as 698 whole bytes, the last half byte dropped.
    if bits > 0 && !crate::plant::active("ntruhps2048509-sq-tobytes-drops-the-last-half-byte") {
        r[pos] = acc as u8;
    }
    r
}

/// `poly_Sq_frombytes`: 508 11-bit fields; coefficient n − 1 set to 0. Unused bits of
/// the last byte are ignored (the KEM checks them separately).
pub fn poly_sq_frombytes(bytes: &[u8; POLYBYTES]) -> Poly {
    let mut r = Poly::ZERO;
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut it = bytes.iter();
    for c in r.0[..PACK_DEG].iter_mut() {
        while bits < LOGQ {
            // 5588 bits fit in 699 bytes: the iterator cannot run dry.
            acc |= u32::from(*it.next().unwrap_or(&0)) << bits;
            bits += 8;
        }
        *c = (acc & ((1 << LOGQ) - 1)) as u16;
        acc >>= LOGQ;
        bits -= LOGQ;
    }
    r
}

/// `poly_Rq_sum_zero_tobytes`: the same encoding as [`poly_sq_tobytes`]; coefficient
/// n − 1 is dropped because the coefficients sum to zero.
pub fn poly_rq_sum_zero_tobytes(a: &Poly) -> [u8; POLYBYTES] {
    poly_sq_tobytes(a)
}

/// `poly_Rq_sum_zero_frombytes`: decodes 508 coefficients and sets coefficient n − 1 to
/// minus their sum (mod 2^16), so the coefficients sum to zero.
pub fn poly_rq_sum_zero_frombytes(bytes: &[u8; POLYBYTES]) -> Poly {
    let mut r = poly_sq_frombytes(bytes);
    let mut last = 0u16;
    // Planted: the sum starts at coefficient 1.
    let first = usize::from(crate::plant::active(
        "ntruhps2048509-rq-sum-zero-skips-the-first-coefficient",
    ));
    for &c in &r.0[first..PACK_DEG] {
        last = last.wrapping_sub(c);
    }
    r.0[N - 1] = last;
    r
}

/// `poly_S3_tobytes`: five trits per byte, base 3, coefficient 5i in the least
/// significant digit; the last byte holds the remaining three. Computed mod 256 as the
/// reference does, so unreduced inputs give the reference's bytes.
pub fn poly_s3_tobytes(a: &Poly) -> [u8; PACK_TRINARY_BYTES] {
    let mut msg = [0u8; PACK_TRINARY_BYTES];
    let reversed = crate::plant::active("ntruhps2048509-s3-tobytes-digits-reversed");
    for (i, m) in msg.iter_mut().enumerate() {
        let lo = 5 * i;
        let hi = (lo + 5).min(PACK_DEG);
        let mut c: u32 = 0;
        if reversed {
            // Planted: the loop runs upwards, so coefficient 5i lands in the most
            // significant digit.
            for j in lo..hi {
                c = (3 * c + u32::from(a.0[j])) & 255;
            }
        } else {
            for j in (lo..hi).rev() {
                c = (3 * c + u32::from(a.0[j])) & 255;
            }
        }
        *m = c as u8;
    }
    msg
}

/// `poly_S3_frombytes`: the inverse of [`poly_s3_tobytes`] on canonical bytes; any byte
/// decodes (the digits come from fixed multiply-shift divisions), followed by a
/// reduction mod (3, Φ_n), as in the reference.
pub fn poly_s3_frombytes(msg: &[u8; PACK_TRINARY_BYTES]) -> Poly {
    let mut r = Poly::ZERO;
    for (i, &byte) in msg.iter().enumerate() {
        let mut c = u16::from(byte);
        for j in 5 * i..(5 * i + 5).min(PACK_DEG) {
            r.0[j] = c;
            // ⌊c/3⌋ for c < 256.
            c = (c * 171) >> 9;
        }
    }
    r.0[N - 1] = 0;
    if crate::plant::active("ntruhps2048509-s3-frombytes-skips-the-reduction") {
        // Planted: the digits are left unreduced (each byte's base-3 tail, up to 255).
        return r;
    }
    poly_mod_3_phi_n(&mut r);
    r
}
