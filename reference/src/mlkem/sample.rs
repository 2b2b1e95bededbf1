//! Sampling (FIPS 203 section 4.2.2) and the hash functions of section 4.1.

use sha3::Digest;
use zeroize::Zeroize;

use ::shake::{ExtendableOutput, Update, XofReader};

use crate::shake::{Shake128X4, Shake256X4};

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
        Digest::update(&mut hasher, p);
    }
    // (K, r), (K′, r′) or (ρ, σ): the caller wipes its halves, this wipes the digest.
    let mut out: [u8; 64] = hasher.finalize().into();
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    a.copy_from_slice(&out[..32]);
    b.copy_from_slice(&out[32..]);
    out.zeroize();
    (a, b)
}

/// J(s) = SHAKE256(s, 32 bytes); `s` is given in parts.
pub(crate) fn j(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = ::shake::Shake256::default();
    for p in parts {
        h.update(p);
    }
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

/// PRF_η(s, b) = SHAKE256(s ‖ b, 64·η bytes), written to `out`.
pub(crate) fn prf(s: &[u8; 32], b: u8, out: &mut [u8]) {
    let mut h = ::shake::Shake256::default();
    h.update(s);
    h.update(&[b]);
    h.finalize_xof().read(out);
}

/// SHAKE128 rate in bytes: the XOF is read a block at a time.
const SHAKE128_RATE: usize = 168;
/// SHAKE256 rate in bytes.
const SHAKE256_RATE: usize = 136;

/// Algorithm 7 lines 5-15 on one block of XOF output: turns each 3 bytes into two
/// 12-bit candidates and keeps those below q until `a` holds N coefficients.
fn rejection_parse(block: &[u8], a: &mut [u16; N], count: &mut usize) {
    for c in block.chunks_exact(3) {
        let d1 = u16::from(c[0]) | (u16::from(c[1] & 0x0f) << 8);
        let d2 = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
        // Rejection depends only on public XOF output (ρ is public).
        if d1 < Q && *count < N {
            a[*count] = d1;
            *count += 1;
        }
        if d2 < Q && *count < N {
            a[*count] = d2;
            *count += 1;
        }
    }
}

/// Algorithm 7: SampleNTT(ρ ‖ j ‖ i), rejection sampling from SHAKE128.
pub(crate) fn sample_ntt(rho: &[u8; 32], j: u8, i: u8) -> NttPoly {
    let mut h = ::shake::Shake128::default();
    h.update(rho);
    h.update(&[j, i]);
    let mut xof = h.finalize_xof();
    let mut a = [0u16; N];
    let mut count = 0;
    let mut buf = [0u8; SHAKE128_RATE];
    while count < N {
        xof.read(&mut buf);
        rejection_parse(&buf, &mut a, &mut count);
    }
    NttPoly(a)
}

/// Algorithm 7 for four inputs ρ ‖ jᵢ ‖ iᵢ at once: the four SHAKE128 streams run
/// side by side ([`crate::shake::Shake128X4`]) and each is read until its polynomial
/// is full. Equal to four calls of [`sample_ntt`].
pub(crate) fn sample_ntt_x4(rho: &[u8; 32], ji: [[u8; 2]; 4]) -> [NttPoly; 4] {
    let mut xof = Shake128X4::absorb_short(rho, ji.each_ref().map(|x| x.as_slice()));
    let mut a = [[0u16; N]; 4];
    let mut count = [0usize; 4];
    let mut blocks = [[0u8; SHAKE128_RATE]; 4];
    while count.iter().any(|&c| c < N) {
        xof.squeeze_block(&mut blocks);
        for ((a, count), block) in a.iter_mut().zip(&mut count).zip(&blocks) {
            rejection_parse(block, a, count);
        }
    }
    a.map(NttPoly)
}

/// The longest PRF output ML-KEM asks for: 64·η bytes with η = 3.
pub(crate) const PRF_MAX: usize = 64 * 3;

/// PRF_η(s, N) for N = `first`, `first` + 1, … : `out[t][..lens[t]]` receives
/// SHAKE256(s ‖ (first + t)) of that length (64·η bytes for the η of that draw). The
/// calls run four at a time ([`crate::shake::Shake256X4`]); a draw shorter than the
/// others of its group takes the prefix of its stream, which is what the XOF gives
/// for that length. Equal to one [`prf`] call per entry.
pub(crate) fn prf_many(s: &[u8; 32], first: u8, lens: &[usize], out: &mut [[u8; PRF_MAX]]) {
    debug_assert!(lens.len() == out.len() && lens.iter().all(|&l| l <= PRF_MAX));
    let mut n = first;
    for (lens, group) in lens.chunks(4).zip(out.chunks_mut(4)) {
        if let ([len], [one]) = (lens, &mut *group) {
            prf(s, n, &mut one[..*len]);
            n = n.wrapping_add(1);
            continue;
        }
        // Unused instances of a short group repeat the first input; their output is
        // dropped.
        let ns: [[u8; 1]; 4] = core::array::from_fn(|t| {
            let t = if t < group.len() { t } else { 0 };
            [n.wrapping_add(t as u8)]
        });
        let mut xof = Shake256X4::absorb_short(s, ns.each_ref().map(|x| x.as_slice()));
        let longest = lens.iter().copied().max().unwrap_or(0);
        let mut blocks = [[0u8; SHAKE256_RATE]; 4];
        let mut offset = 0;
        while offset < longest {
            xof.squeeze_block(&mut blocks);
            for ((o, &len), block) in group.iter_mut().zip(lens).zip(&blocks) {
                if offset < len {
                    let take = (len - offset).min(SHAKE256_RATE);
                    o[offset..offset + take].copy_from_slice(&block[..take]);
                }
            }
            offset += SHAKE256_RATE;
        }
        // PRF output of a secret seed: wipe the sponges and the last blocks.
        xof.zeroize();
        blocks.as_flattened_mut().zeroize();
        n = n.wrapping_add(group.len() as u8);
    }
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

    /// The four-way forms equal the one-at-a-time Algorithm 7 and PRF on random seeds,
    /// every group size and both η.
    #[test]
    fn x4_sampling_equals_one_at_a_time() {
        for seed in 0..40u8 {
            let mut rho = [0u8; 32];
            prf(&[seed; 32], 200, &mut rho);
            let ji = [[0, 0], [1, 0], [seed, 2], [3, seed]];
            let got = sample_ntt_x4(&rho, ji);
            for (g, [j, i]) in got.iter().zip(ji) {
                assert_eq!(*g, sample_ntt(&rho, j, i), "seed {seed} j {j} i {i}");
            }
            for count in 1..=9usize {
                let lens: Vec<usize> = (0..count)
                    .map(|t| if t % 3 == 0 { 192 } else { 128 })
                    .collect();
                let mut bufs = vec![[0u8; PRF_MAX]; count];
                prf_many(&rho, seed, &lens, &mut bufs);
                for (t, b) in bufs.iter().enumerate() {
                    let mut want = vec![0u8; lens[t]];
                    prf(&rho, seed.wrapping_add(t as u8), &mut want);
                    assert_eq!(b[..lens[t]], want, "prf_many count {count} entry {t}");
                }
            }
        }
    }
}
