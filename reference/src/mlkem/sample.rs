//! Sampling (FIPS 203 section 4.2.2) and the hash functions of section 4.1.

use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

use super::field::{self, Q};
use super::ntt::{N, NttPoly, Poly};

/// H(s) = SHA3-256(s).
pub fn h(s: &[u8]) -> [u8; 32] {
    sha3::Sha3_256::digest(s).into()
}

/// G(c) = SHA3-512(c), split into two 32-byte halves; `c` is given in parts.
pub fn g(parts: &[&[u8]]) -> ([u8; 32], [u8; 32]) {
    let mut hasher = sha3::Sha3_512::new();
    for p in parts {
        Digest::update(&mut hasher, p);
    }
    let out = hasher.finalize();
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&out[..32]);
    b.copy_from_slice(&out[32..]);
    (a, b)
}

/// J(s) = SHAKE256(s, 32 bytes); `s` is given in parts.
pub fn j(parts: &[&[u8]]) -> [u8; 32] {
    let mut x = sha3::Shake256::default();
    for p in parts {
        x.update(p);
    }
    let mut out = [0u8; 32];
    x.finalize_xof().read(&mut out);
    out
}

/// PRF_η(s, b) = SHAKE256(s ‖ b, 64·η bytes), written to `out`.
pub fn prf(s: &[u8; 32], b: u8, out: &mut [u8]) {
    let mut x = sha3::Shake256::default();
    x.update(s);
    x.update(&[b]);
    x.finalize_xof().read(out);
}

/// SHAKE128 rate in bytes: the XOF is read a block at a time.
const SHAKE128_RATE: usize = 168;

/// Algorithm 7: SampleNTT(ρ ‖ j ‖ i), rejection sampling from SHAKE128.
pub fn sample_ntt(rho: &[u8; 32], j: u8, i: u8) -> NttPoly {
    let mut x = sha3::Shake128::default();
    x.update(rho);
    x.update(&[j, i]);
    let mut reader = x.finalize_xof();
    let mut a = [0u16; N];
    let mut count = 0;
    let mut buf = [0u8; SHAKE128_RATE];
    while count < N {
        reader.read(&mut buf);
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
pub fn sample_poly_cbd(b: &[u8], eta: usize) -> Poly {
    debug_assert_eq!(b.len(), 64 * eta);
    let bit = |k: usize| u16::from((b[k >> 3] >> (k & 7)) & 1);
    let mut f = [0u16; N];
    for (i, c) in f.iter_mut().enumerate() {
        let mut x = 0u16;
        let mut y = 0u16;
        for jj in 0..eta {
            x += bit(2 * i * eta + jj);
            y += bit(2 * i * eta + eta + jj);
        }
        *c = field::sub(x, y);
    }
    Poly(f)
}
