//! The OW-CPA public-key encryption scheme (`owcpa.c` of NTRU round 3, HPS branch).

use super::pack::{
    poly_rq_sum_zero_frombytes, poly_rq_sum_zero_tobytes, poly_s3_frombytes, poly_s3_tobytes,
    poly_sq_frombytes, poly_sq_tobytes,
};
use super::params::{
    CIPHERTEXT_BYTES, LOGQ, N, OWCPA_MSGBYTES, OWCPA_SECRETKEYBYTES, PACK_DEG, PACK_TRINARY_BYTES,
    POLYBYTES, PUBLICKEY_BYTES, Q, SAMPLE_FG_BYTES, SECRETKEY_BYTES, WEIGHT,
};
use super::poly::{
    Poly, poly_lift, poly_rq_to_s3, poly_s3_inv, poly_s3_mul, poly_sq_mul, poly_trinary_zq_to_z3,
    poly_z3_to_zq,
};
use super::sample::sample_fg;
use super::{Kernels, copy_array};
use crate::Error;
use crate::ct::copy_then_wipe;
use zeroize::Zeroize;

/// `owcpa_keypair`: pk from 2413 uniform bytes, and the first 903 bytes of sk written
/// into `sk` (the key pair's own buffer, so the assembled secret key is not returned
/// by value; its three packed parts still are, each wiped once copied). The rest of
/// `sk` is the caller's; on an error nothing is written to it.
///
/// sk = S3(f) ‖ S3(f⁻¹ mod 3) ‖ Sq(h⁻¹); pk = Rq_sum_zero(h) with h = 3g·(3g·f)⁻¹·3g.
/// The single inversion (3g·f)⁻¹ mod (q, Φ_n) is [`Kernels::poly_rq_inv`], the
/// kernel under study.
///
/// # Errors
/// [`Error::InvalidEncoding`] when the seed gives f = 0 (each of its first 508 bytes
/// a multiple of 3, for example all-zero or all-0xff: 86 of the 256 byte values are,
/// so a uniform seed does so with probability (86/256)⁵⁰⁸ ≈ 2⁻⁸⁰⁰). Such an f is not invertible, and the key pair the C code
/// returns for it never decapsulates its own ciphertexts. Any other f is a nonzero
/// ternary polynomial of degree < 508, invertible mod (2, Φ_509) and mod (3, Φ_509)
/// (Φ_509 is irreducible mod 2 and mod 3); g, of fixed type, is never 0. Only this
/// verdict is declassified, not f.
pub(crate) fn owcpa_keypair<K: Kernels>(
    seed: &[u8; SAMPLE_FG_BYTES],
    sk: &mut [u8; SECRETKEY_BYTES],
) -> Result<[u8; PUBLICKEY_BYTES], Error> {
    let (mut f, mut g) = sample_fg(seed);
    // f = 0: one OR over every coefficient (no early exit), then the public verdict.
    let any = if crate::plant::active("ntruhps2048509-keygen-checks-f0-only") {
        // Planted: the zero test reads one coefficient.
        f.0[0]
    } else {
        f.0.iter().fold(0u16, |acc, &c| acc | c)
    };
    if crate::ct::declassify_u32(u32::from(any)) == 0 {
        f.zeroize();
        g.zeroize();
        return Err(Error::InvalidEncoding {
            what: "key generation seed (it gives f = 0)",
        });
    }
    let mut invf_mod3 = poly_s3_inv(&f);
    copy_then_wipe(&mut sk[..PACK_TRINARY_BYTES], poly_s3_tobytes(&f));
    copy_then_wipe(
        &mut sk[PACK_TRINARY_BYTES..2 * PACK_TRINARY_BYTES],
        poly_s3_tobytes(&invf_mod3),
    );

    poly_z3_to_zq(&mut f);
    poly_z3_to_zq(&mut g);
    // HPS: G = 3g.
    let mut big_g = Poly::ZERO;
    for (o, &c) in big_g.0.iter_mut().zip(&g.0) {
        *o = c.wrapping_mul(3);
    }
    let mut gf = K::poly_rq_mul(&big_g, &f);
    let mut inv_gf = K::poly_rq_inv(&gf);

    let mut tmp = K::poly_rq_mul(&inv_gf, &f);
    let mut invh = poly_sq_mul(&tmp, &f, K::poly_rq_mul);
    copy_then_wipe(
        &mut sk[2 * PACK_TRINARY_BYTES..OWCPA_SECRETKEYBYTES],
        poly_sq_tobytes(&invh),
    );

    tmp = K::poly_rq_mul(&inv_gf, &big_g);
    let h = K::poly_rq_mul(&tmp, &big_g);
    // f, g, f⁻¹ mod 3, h⁻¹ mod q and the products on the way are secret; h is public.
    for t in [
        &mut f,
        &mut g,
        &mut invf_mod3,
        &mut big_g,
        &mut gf,
        &mut inv_gf,
        &mut tmp,
        &mut invh,
    ] {
        t.zeroize();
    }
    Ok(poly_rq_sum_zero_tobytes(&h))
}

/// `owcpa_enc`: c = r·h + Lift(m) mod (q, x^n − 1), packed. `r` must already be lifted
/// to Z_q ([`poly_z3_to_zq`]); `m` is in {0, 1, 2}.
pub fn owcpa_enc<K: Kernels>(
    r: &Poly,
    m: &Poly,
    pk: &[u8; PUBLICKEY_BYTES],
) -> [u8; CIPHERTEXT_BYTES] {
    let h = poly_rq_sum_zero_frombytes(pk);
    let mut ct = K::poly_rq_mul(r, &h);
    let mut liftm = poly_lift(m);
    for (c, &l) in ct.0.iter_mut().zip(&liftm.0) {
        *c = c.wrapping_add(l);
    }
    liftm.zeroize();
    let packed = poly_rq_sum_zero_tobytes(&ct);
    // Bits 11-15 of r·h + Lift(m), which the packing drops, depend on the secret r.
    ct.zeroize();
    packed
}

/// 1 when `t` (below 2^31) is nonzero, else 0: the reference's `1 & ((~t + 1) >> 31)`.
#[inline(always)]
fn nonzero(t: u32) -> u32 {
    1 & (t.wrapping_neg() >> 31)
}

/// `owcpa_check_ciphertext`: the unused bits of the last ciphertext byte are zero.
fn check_ciphertext(ct: &[u8; CIPHERTEXT_BYTES]) -> u32 {
    let unused = 7 & (LOGQ * PACK_DEG);
    let t = u32::from(ct[CIPHERTEXT_BYTES - 1]) & (0xff << (8 - unused));
    nonzero(t)
}

/// `owcpa_check_r`: coefficients in {q−1, 0, 1} (checked mod q) and r[n−1] = 0.
fn check_r(r: &Poly) -> u32 {
    let mut t: u32 = 0;
    for &c in &r.0[..N - 1] {
        let c = u32::from(c);
        t |= (c + 1) & u32::from(Q - 4);
        t |= (c + 2) & 4;
    }
    t |= u32::from(r.0[N - 1]);
    nonzero(t)
}

/// `owcpa_check_m` (HPS): as many +1 as −1 coefficients, WEIGHT nonzero in all.
fn check_m(m: &Poly) -> u32 {
    let mut ps: u32 = 0;
    let mut ms: u32 = 0;
    for &c in &m.0 {
        ps += u32::from(c & 1);
        ms += u32::from((c >> 1) & 1);
    }
    let t = (ps ^ ms) | (ms ^ (WEIGHT as u32 >> 1));
    nonzero(t)
}

/// `owcpa_dec`: recovers rm = S3(r) ‖ S3(m) and a failure flag (0 or 1), without a
/// branch on secret data. Any 699-byte ciphertext and any 903-byte key decode.
///
/// r is computed as b/h mod (q, Φ_n); checking that r and m lie in the message space
/// replaces re-encryption (the comments of the reference `owcpa_dec`).
#[must_use = "the failure flag decides implicit rejection"]
pub fn owcpa_dec<K: Kernels>(
    ct: &[u8; CIPHERTEXT_BYTES],
    sk: &[u8; OWCPA_SECRETKEYBYTES],
) -> ([u8; OWCPA_MSGBYTES], u32) {
    let mut rm = [0u8; OWCPA_MSGBYTES];
    let c = poly_rq_sum_zero_frombytes(ct);
    let mut sk_f: [u8; PACK_TRINARY_BYTES] = copy_array(sk);
    let mut sk_finv: [u8; PACK_TRINARY_BYTES] = copy_array(&sk[PACK_TRINARY_BYTES..]);
    let mut sk_invh: [u8; POLYBYTES] = copy_array(&sk[2 * PACK_TRINARY_BYTES..]);

    let mut f = poly_s3_frombytes(&sk_f);
    poly_z3_to_zq(&mut f);
    let mut cf = K::poly_rq_mul(&c, &f);
    let mut mf = poly_rq_to_s3(&cf);
    let mut finv3 = poly_s3_frombytes(&sk_finv);
    let mut m = poly_s3_mul(&mf, &finv3, K::poly_rq_mul);
    copy_then_wipe(&mut rm[PACK_TRINARY_BYTES..], poly_s3_tobytes(&m));

    let mut fail = if crate::plant::active("ntruhps2048509-decaps-skips-the-ciphertext-check") {
        0
    } else {
        check_ciphertext(ct)
    };
    fail |= check_m(&m);

    // b = c − Lift(m) mod (q, x^n − 1).
    let mut liftm = poly_lift(&m);
    let mut b = Poly::ZERO;
    for ((o, &x), &y) in b.0.iter_mut().zip(&c.0).zip(&liftm.0) {
        *o = x.wrapping_sub(y);
    }
    // r = b / h mod (q, Φ_n).
    let mut invh = poly_sq_frombytes(&sk_invh);
    let mut r = poly_sq_mul(&b, &invh, K::poly_rq_mul);
    fail |= check_r(&r);
    poly_trinary_zq_to_z3(&mut r);
    copy_then_wipe(&mut rm[..PACK_TRINARY_BYTES], poly_s3_tobytes(&r));
    // The key parts (f, f⁻¹ mod 3 = fp, h⁻¹ mod q = hq) and everything decrypted.
    sk_f[..].zeroize();
    sk_finv[..].zeroize();
    sk_invh[..].zeroize();
    for t in [
        &mut f, &mut cf, &mut mf, &mut finv3, &mut m, &mut liftm, &mut b, &mut invh, &mut r,
    ] {
        t.zeroize();
    }
    (rm, fail)
}
