//! K-PKE (FIPS 203 section 5), written once over [`Kernels`].

use super::encode::{
    byte_decode_12_checked, byte_decode_12_mod_q, byte_decode_12_mod_q_into, byte_decode_raw,
    byte_encode, compress, decompress,
};
use super::ntt::{self, N, NttPoly, Poly, inverse_ntt, multiply_ntts, ntt, ntt_add, poly_add};
use super::sample::{PRF_MAX, prf_many, sample_ntt, sample_ntt_x4, sample_poly_cbd};
use super::{Kernels, MAX_K, Matrix, Params};
use zeroize::Zeroize;

/// Â with Â[i][j] = SampleNTT(ρ ‖ j ‖ i) (Algorithm 13 lines 3-7, Algorithm 14 lines
/// 4-8).
pub(crate) fn sample_matrix(p: &Params, rho: &[u8; 32]) -> Matrix {
    let mut a = [[NttPoly::ZERO; MAX_K]; MAX_K];
    sample_matrix_into(p, rho, &mut a);
    a
}

/// [`sample_matrix`] written in place (Â is 8 KiB: parsed keys keep it on the heap so
/// moving a key does not copy it). The k² independent SampleNTT calls run four at a
/// time ([`sample_ntt_x4`]), a short last group one at a time.
pub(crate) fn sample_matrix_into(p: &Params, rho: &[u8; 32], a: &mut Matrix) {
    let mut entries = [(0u8, 0u8); MAX_K * MAX_K];
    let mut t = 0;
    for i in 0..p.k {
        for j in 0..p.k {
            entries[t] = (i as u8, j as u8);
            t += 1;
        }
    }
    // k² is 4, 9 or 16: groups of four and, for k = 3, one entry left over.
    for group in entries[..t].chunks(4) {
        match <&[(u8, u8); 4]>::try_from(group) {
            Ok(four) => {
                let ji = four.map(|(i, j)| [j, i]);
                for (&(i, j), poly) in four.iter().zip(sample_ntt_x4(rho, ji)) {
                    a[usize::from(i)][usize::from(j)] = poly;
                }
            }
            Err(_) => {
                for &(i, j) in group {
                    a[usize::from(i)][usize::from(j)] = sample_ntt(rho, j, i);
                }
            }
        }
    }
}

/// Samples one CBD polynomial per entry of `etas` from PRF_η(σ, N), N = 0, 1, …
/// (Algorithm 13 lines 8-15, Algorithm 14 lines 9-17). The PRF calls are independent
/// and run four at a time ([`prf_many`]).
fn sample_cbd_polys(sigma: &[u8; 32], etas: &[usize], out: &mut [Poly]) {
    let mut lens = [0usize; 2 * MAX_K + 1];
    for (l, &eta) in lens.iter_mut().zip(etas) {
        *l = 64 * eta;
    }
    let mut bufs = [[0u8; PRF_MAX]; 2 * MAX_K + 1];
    let n = etas.len();
    prf_many(sigma, 0, &lens[..n], &mut bufs[..n]);
    for ((o, buf), &eta) in out.iter_mut().zip(&bufs).zip(etas) {
        *o = sample_poly_cbd(&buf[..64 * eta], eta);
    }
    // The PRF output determines the secret polynomials.
    bufs[..n].as_flattened_mut().zeroize();
}

/// NTT of the first k polynomials; the unused entries stay zero.
fn ntt_vector(k: usize, v: &[Poly]) -> [NttPoly; MAX_K] {
    core::array::from_fn(|i| if i < k { ntt(&v[i]) } else { NttPoly::ZERO })
}

/// Σ_j a[j] ∘ b[j] in T_q. Each product and partial sum is wiped: with a[j] public
/// (Â, t̂) a product a[j] ∘ b[j] reveals the secret b[j].
fn dot(k: usize, a: &[NttPoly], b: &[NttPoly]) -> NttPoly {
    let mut acc = NttPoly::ZERO;
    for j in 0..k {
        let mut term = multiply_ntts(&a[j], &b[j]);
        let mut sum = ntt_add(&acc, &term);
        core::mem::swap(&mut acc, &mut sum);
        term.zeroize();
        sum.zeroize();
    }
    acc
}

/// Algorithm 13: K-PKE.KeyGen(d). Writes ek_PKE (384k + 32 bytes) and dk_PKE (384k).
pub(crate) fn keygen(p: &Params, d: &[u8; 32], ek: &mut [u8], dk: &mut [u8]) {
    let (rho, mut sigma) = super::sample::g(&[d, &[p.k as u8]]);
    // ρ is published as the last 32 bytes of ek; SampleNTT may branch on it.
    crate::ct::declassify(&rho);
    let a = sample_matrix(p, &rho);
    // s (N = 0..k) and e (N = k..2k), all CBD_η1.
    let etas = [p.eta1; 2 * MAX_K];
    let mut se = [Poly::ZERO; 2 * MAX_K];
    sample_cbd_polys(&sigma, &etas[..2 * p.k], &mut se);
    sigma[..].zeroize();
    let mut s_hat = ntt_vector(p.k, &se[..p.k]);
    let mut e_hat = ntt_vector(p.k, &se[p.k..2 * p.k]);
    se.zeroize();
    for i in 0..p.k {
        // Â∘ŝ = t̂ − ê: with the public t̂ it gives ê.
        let mut as_hat = dot(p.k, &a[i], &s_hat);
        let t_hat = ntt_add(&as_hat, &e_hat[i]);
        as_hat.zeroize();
        byte_encode(&t_hat.0, 12, &mut ek[384 * i..384 * (i + 1)]);
        byte_encode(&s_hat[i].0, 12, &mut dk[384 * i..384 * (i + 1)]);
    }
    ek[384 * p.k..].copy_from_slice(&rho);
    s_hat.zeroize();
    e_hat.zeroize();
}

/// A parsed K-PKE encryption key: t̂ (k canonical NTT-domain polynomials), ρ, and Â
/// expanded from ρ once (Algorithm 14 lines 2-8 hoisted out of encryption, as Go's
/// parsed key types do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EncryptionKey {
    /// t̂, the first k entries used.
    pub(crate) t_hat: [NttPoly; MAX_K],
    /// ρ, the seed of Â.
    pub(crate) rho: [u8; 32],
    /// Â[i][j] = SampleNTT(ρ ‖ j ‖ i), boxed so that moving the key is cheap.
    pub(crate) a_hat: Box<Matrix>,
}

impl EncryptionKey {
    /// Parses ek_PKE (384k + 32 bytes) with the modulus check of FIPS 203 section 7.2.
    /// Returns `None` when a 12-bit value is >= q. The length must already be checked.
    pub(crate) fn parse_checked(p: &Params, ek: &[u8]) -> Option<Self> {
        let mut t_hat = [NttPoly::ZERO; MAX_K];
        let mut ok = 1u8;
        for (i, t) in t_hat.iter_mut().enumerate().take(p.k) {
            let (coeffs, ok_i) = byte_decode_12_checked(&ek[384 * i..384 * (i + 1)]);
            *t = NttPoly(coeffs);
            ok &= ok_i;
        }
        (ok == 1).then(|| Self::with_matrix(p, t_hat, &ek[384 * p.k..384 * p.k + 32]))
    }

    /// Parses ek_PKE reducing every 12-bit value mod q (ByteDecode_12 as defined), for
    /// the copy embedded in a decapsulation key, which has no modulus check.
    pub(crate) fn parse_mod_q(p: &Params, ek: &[u8]) -> Self {
        let mut t_hat = [NttPoly::ZERO; MAX_K];
        for (i, t) in t_hat.iter_mut().enumerate().take(p.k) {
            *t = NttPoly(byte_decode_12_mod_q(&ek[384 * i..384 * (i + 1)]));
        }
        Self::with_matrix(p, t_hat, &ek[384 * p.k..384 * p.k + 32])
    }

    fn with_matrix(p: &Params, t_hat: [NttPoly; MAX_K], rho_bytes: &[u8]) -> Self {
        let mut rho = [0u8; 32];
        rho.copy_from_slice(rho_bytes);
        let mut a_hat = Box::new([[NttPoly::ZERO; MAX_K]; MAX_K]);
        sample_matrix_into(p, &rho, &mut a_hat);
        Self { t_hat, rho, a_hat }
    }
}

/// Algorithm 14: K-PKE.Encrypt(ek_PKE, m, r), with ek_PKE already parsed and Â expanded
/// (lines 2-8).
/// Writes c (32·(du·k + dv) bytes).
pub(crate) fn encrypt<K: Kernels>(
    p: &Params,
    ek: &EncryptionKey,
    m: &[u8; 32],
    r: &[u8; 32],
    c: &mut [u8],
) {
    let k = p.k;
    let t_hat = &ek.t_hat;
    let a = &ek.a_hat;
    // Lines 9-17: y (N = 0..k, CBD_η1), e1 (N = k..2k, CBD_η2), e2 (N = 2k, CBD_η2).
    let mut etas = [p.eta2; 2 * MAX_K + 1];
    etas[..k].fill(p.eta1);
    let mut ye = [Poly::ZERO; 2 * MAX_K + 1];
    sample_cbd_polys(r, &etas[..2 * k + 1], &mut ye);
    // y = ye[..k], e1 = ye[k..2k], e2 = ye[2k]: all secret, wiped below.
    let (y, rest) = ye.split_at(k);
    let (e1, e2) = (&rest[..k], &rest[k]);
    let mut y_hat = ntt_vector(k, y);

    // Line 19: u = NTT⁻¹(Âᵀ ∘ ŷ) + e1 — the step the optimization changes.
    let mut u = [Poly::ZERO; MAX_K];
    debug_assert!(super::encrypt_u_requires(k, a, &y_hat, e1) && u.len() >= k);
    K::encrypt_u(k, a, &y_hat, e1, &mut u);
    debug_assert!(K::IS_REFERENCE || super::encrypt_u_ensures(k, a, &y_hat, e1, &u));

    // Lines 20-21: μ = Decompress_1(ByteDecode_1(m)); v = NTT⁻¹(t̂ᵀ ∘ ŷ) + e2 + μ.
    let mut m_bits = byte_decode_raw(m, 1);
    let mut mu = Poly(core::array::from_fn(|i| decompress(m_bits[i], 1)));
    let mut ty_hat = dot(k, t_hat, &y_hat);
    let mut ty = inverse_ntt(&ty_hat);
    let mut ty_e2 = poly_add(&ty, e2);
    let mut v = poly_add(&ty_e2, &mu);
    // NTT⁻¹(t̂ᵀ∘ŷ) with the public v gives μ.
    ty_hat.zeroize();
    ty.zeroize();
    ty_e2.zeroize();
    ye.zeroize();
    y_hat.zeroize();
    m_bits[..].zeroize();
    mu.zeroize();

    // Lines 22-23.
    let c1_len = 32 * p.du as usize;
    let mut tmp = [0u16; N];
    for i in 0..k {
        for (t, &x) in tmp.iter_mut().zip(&u[i].0) {
            *t = compress(x, p.du);
        }
        byte_encode(&tmp, p.du, &mut c[c1_len * i..c1_len * (i + 1)]);
    }
    for (t, &x) in tmp.iter_mut().zip(&v.0) {
        *t = compress(x, p.dv);
    }
    byte_encode(&tmp, p.dv, &mut c[c1_len * k..]);
    // u and v before compression carry e1, e2 and μ exactly; tmp holds Compress(v),
    // as secret as c itself when decapsulation re-encrypts.
    u.zeroize();
    v.zeroize();
    tmp.zeroize();
}

/// ŝ from dk_PKE (ByteDecode_12, reducing mod q as the standard defines), decoded
/// straight into `s_hat` (the caller's key), so that no copy of ŝ is returned by value.
pub(crate) fn decode_s_hat_into(p: &Params, dk_pke: &[u8], s_hat: &mut [NttPoly; MAX_K]) {
    for (i, s) in s_hat.iter_mut().enumerate().take(p.k) {
        byte_decode_12_mod_q_into(&dk_pke[384 * i..384 * (i + 1)], &mut s.0);
    }
}

/// Algorithm 15: K-PKE.Decrypt(dk_PKE, c), with ŝ already decoded.
pub(crate) fn decrypt(p: &Params, s_hat: &[NttPoly; MAX_K], c: &[u8]) -> [u8; 32] {
    let k = p.k;
    let c1_len = 32 * p.du as usize;
    let mut acc = NttPoly::ZERO;
    for i in 0..k {
        let raw = byte_decode_raw(&c[c1_len * i..c1_len * (i + 1)], p.du);
        let u = Poly(core::array::from_fn(|t| decompress(raw[t], p.du)));
        let mut su_hat = multiply_ntts(&s_hat[i], &ntt(&u));
        acc = ntt_add(&acc, &su_hat);
        su_hat.zeroize();
    }
    let raw = byte_decode_raw(&c[c1_len * k..], p.dv);
    let v = Poly(core::array::from_fn(|t| decompress(raw[t], p.dv)));
    let mut su = inverse_ntt(&acc);
    let mut w = ntt::poly_sub(&v, &su);
    su.zeroize();
    let mut bits: [u16; N] = core::array::from_fn(|t| compress(w.0[t], 1));
    let mut m = [0u8; 32];
    byte_encode(&bits, 1, &mut m);
    // ŝᵀ ∘ NTT(u) and w = v − NTT⁻¹(…) determine m' and the noise.
    acc.zeroize();
    w.zeroize();
    bits[..].zeroize();
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlkem::{ML_KEM_512, ML_KEM_768, ML_KEM_1024};

    /// The four-at-a-time matrix expansion gives Â[i][j] = SampleNTT(ρ ‖ j ‖ i), one
    /// call at a time, for every k (groups of 4, and 4 + 4 + 1 for k = 3), and leaves
    /// the unused entries zero.
    #[test]
    fn sample_matrix_equals_algorithm_7_per_entry() {
        for p in [&ML_KEM_512, &ML_KEM_768, &ML_KEM_1024] {
            for seed in 0..3u8 {
                let rho = [seed.wrapping_mul(77).wrapping_add(p.k as u8); 32];
                let a = sample_matrix(p, &rho);
                for (i, row) in a.iter().enumerate() {
                    for (j, e) in row.iter().enumerate() {
                        let want = if i < p.k && j < p.k {
                            sample_ntt(&rho, j as u8, i as u8)
                        } else {
                            NttPoly::ZERO
                        };
                        assert_eq!(*e, want, "k {} entry ({i}, {j})", p.k);
                    }
                }
            }
        }
    }
}
