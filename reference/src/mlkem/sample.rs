//! Sampling (FIPS 203 section 4.2.2) and the hash functions of section 4.1.

use sha3::Digest;

use crate::shake::{Shake128, Shake256};

use super::field::{self, Q};
use super::ntt::{N, NttPoly, Poly};

/// H(s) = SHA3-256(s).
pub(crate) fn h(s: &[u8]) -> [u8; 32] {
    sha3::Sha3_256::digest(s).into()
}

/// G(c) = SHA3-512(c), split into two 32-byte halves; `c` is given in parts.
pub(crate) fn g(parts: &[&[u8]]) -> ([u8; 32], [u8; 32]) {
    let mut hasher = sha3::Sha3_512::new();
    for p in parts {
        hasher.update(p);
    }
    let out = hasher.finalize();
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&out[..32]);
    b.copy_from_slice(&out[32..]);
    (a, b)
}

/// J(s) = SHAKE256(s, 32 bytes); `s` is given in parts.
pub(crate) fn j(parts: &[&[u8]]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Shake256::digest(parts, &mut out);
    out
}

/// PRF_η(s, b) = SHAKE256(s ‖ b, 64·η bytes), written to `out`.
pub(crate) fn prf(s: &[u8; 32], b: u8, out: &mut [u8]) {
    Shake256::digest(&[s, &[b]], out);
}

/// SHAKE128 rate in bytes: the XOF is read a block at a time.
const SHAKE128_RATE: usize = 168;

/// Algorithm 7: SampleNTT(ρ ‖ j ‖ i), rejection sampling from SHAKE128.
pub(crate) fn sample_ntt(rho: &[u8; 32], j: u8, i: u8) -> NttPoly {
    let mut xof = Shake128::new();
    xof.absorb(rho);
    xof.absorb(&[j, i]);
    let mut a = [0u16; N];
    let mut count = 0;
    let mut buf = [0u8; SHAKE128_RATE];
    while count < N {
        xof.squeeze(&mut buf);
        for c in buf.chunks_exact(3) {
            let d1 = u16::from(c[0]) | (u16::from(c[1] & 0x0f) << 8);
            let d2 = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
            // Rejection depends only on public XOF output (ρ is public).
            if d1 < Q && count < N {
                a[count] = d1;
                count += 1;
            }
            if d2 < Q && count < N {
                a[count] = d2;
                count += 1;
            }
        }
    }
    NttPoly(a)
}

/// Algorithm 8: SamplePolyCBD_η(B) for η in {2, 3}, `b` of 64·η bytes.
///
/// Coefficient i is x − y with x the sum of bits 2iη .. 2iη+η−1 of B and y the sum of
/// the next η bits. The bit sums are taken for a whole byte (η = 2) or three bytes
/// (η = 3) at once: adding the word to itself shifted by one (and by two) with a mask
/// that keeps every η-th bit leaves each η-bit field holding its own bit count.
pub(crate) fn sample_poly_cbd(b: &[u8], eta: usize) -> Poly {
    debug_assert_eq!(b.len(), 64 * eta);
    let mut f = [0u16; N];
    if eta == 2 {
        for (byte, c) in b.iter().zip(f.chunks_exact_mut(2)) {
            let t = (byte & 0x55) + ((byte >> 1) & 0x55);
            c[0] = field::sub(u16::from(t & 3), u16::from((t >> 2) & 3));
            c[1] = field::sub(u16::from((t >> 4) & 3), u16::from(t >> 6));
        }
    } else {
        debug_assert_eq!(eta, 3);
        for (bytes, c) in b.chunks_exact(3).zip(f.chunks_exact_mut(4)) {
            let w = u32::from(bytes[0]) | (u32::from(bytes[1]) << 8) | (u32::from(bytes[2]) << 16);
            let t = (w & 0x0024_9249) + ((w >> 1) & 0x0024_9249) + ((w >> 2) & 0x0024_9249);
            for (j, cj) in c.iter_mut().enumerate() {
                let x = (t >> (6 * j)) & 7;
                let y = (t >> (6 * j + 3)) & 7;
                *cj = field::sub(x as u16, y as u16);
            }
        }
    }
    Poly(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time bit sums equal Algorithm 8 read literally, bit by bit.
    #[test]
    fn cbd_matches_bitwise_definition() {
        for eta in [2usize, 3] {
            for seed in 0..64u8 {
                let mut b = vec![0u8; 64 * eta];
                prf(&[seed; 32], seed, &mut b);
                if seed == 0 {
                    b.fill(0xff);
                }
                let bit = |k: usize| i32::from((b[k >> 3] >> (k & 7)) & 1);
                let got = sample_poly_cbd(&b, eta);
                for i in 0..N {
                    let x: i32 = (0..eta).map(|j| bit(2 * i * eta + j)).sum();
                    let y: i32 = (0..eta).map(|j| bit(2 * i * eta + eta + j)).sum();
                    assert_eq!(i32::from(got.0[i]), (x - y).rem_euclid(i32::from(Q)));
                }
            }
        }
    }
}
