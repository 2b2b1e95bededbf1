//! Encodings: the radix scheme `Encode`/`Decode` (NTRU Prime spec, "Encoding"), and
//! its three uses `Rq` (public keys), `Rounded` (ciphertexts) and `Small` (secret
//! keys and the hashed input r).
//!
//! `Decode` is total: every byte string of the right length decodes, and each output
//! is reduced mod its radix (the `uint32_mod_uint14` steps), so a public key or
//! ciphertext that was not produced by `Encode` still decodes to canonical values.
//! That is the behaviour the specification prescribes for out-of-range inputs.

use super::arith::{Fq, Small, uint32_divmod_uint14, uint32_mod_uint14};
use super::{P, Q, Q12, ROUNDED_BYTES, RQ_BYTES, SMALL_BYTES};

/// Half of the longest list `Encode`/`Decode` see (p = 761), rounded up: the size of
/// the per-level stack buffers, so the recursion allocates nothing on the heap.
const HALF_MAX: usize = P.div_ceil(2);

/// Where [`encode`] writes: a fixed buffer and a position.
struct Bytes<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn push(&mut self, b: u8) {
        // The callers size the buffer for exactly the encoding length of their radix
        // list (public), so this index is in bounds.
        self.buf[self.pos] = b;
        self.pos += 1;
    }
}

/// Encode(R, M): the radix encoding of `r` (each r\[i\] < m\[i\] <= 16384) written to
/// the start of `out`; returns the number of bytes written.
///
/// Crate-internal: its callers are the fixed-radix encoders below ([`rq_encode`],
/// [`rounded_encode`]; [`small_encode`] packs 2-bit fields), the public surface; a
/// caller-chosen radix list outside the domain would give wrong bytes.
///
/// # Panics
/// If `out` is shorter than the encoding length for `m`, or `r` is longer than p.
pub(crate) fn encode(out: &mut [u8], r: &[u16], m: &[u16]) -> usize {
    let mut w = Bytes { buf: out, pos: 0 };
    encode_into(&mut w, r, m);
    w.pos
}

fn encode_into(out: &mut Bytes<'_>, r: &[u16], m: &[u16]) {
    let len = r.len();
    debug_assert_eq!(len, m.len());
    if len == 1 {
        let mut r0 = u32::from(r[0]);
        let mut m0 = u32::from(m[0]);
        while m0 > 1 {
            out.push(r0 as u8);
            r0 >>= 8;
            m0 = (m0 + 255) >> 8;
        }
        return;
    }
    if len == 0 {
        return;
    }
    let half = len.div_ceil(2);
    let mut r2 = [0u16; HALF_MAX];
    let mut m2 = [0u16; HALF_MAX];
    let mut i = 0;
    while i + 1 < len {
        let m0 = u32::from(m[i]);
        let mut rr = u32::from(r[i]) + u32::from(r[i + 1]) * m0;
        let mut mm = u32::from(m[i + 1]) * m0;
        while mm >= 16384 {
            out.push(rr as u8);
            rr >>= 8;
            mm = (mm + 255) >> 8;
        }
        r2[i >> 1] = rr as u16;
        m2[i >> 1] = mm as u16;
        i += 2;
    }
    if i < len {
        r2[i >> 1] = r[i];
        m2[i >> 1] = m[i];
    }
    encode_into(out, &r2[..half], &m2[..half]);
    // The merged values (secret when r is: the re-encryption in Decaps).
    zeroize::Zeroize::zeroize(&mut r2[..]);
}

/// Decode(S, M): the inverse of [`encode`] on its image, total on all of its domain.
/// Reads a prefix of `s` (exactly as many bytes as [`encode`] writes for `m`) and
/// writes `m.len()` values with out\[i\] < m\[i\].
///
/// Crate-internal: its callers are the fixed-radix decoders below ([`rq_decode`],
/// [`rounded_decode`]; [`small_decode`] unpacks 2-bit fields), the public surface,
/// whose radices (q = 4591, (q + 2)/3 = 1531) and the merged ones lie in
/// 0 < m < 16384, the domain of `uint32_divmod_uint14`; a radix of 0 would divide by
/// zero and one of 16384 or more decode wrongly.
///
/// # Panics
/// If `s` is shorter than the encoding length for `m`, or `m` is longer than p;
/// callers check lengths first.
pub(crate) fn decode(out: &mut [u16], s: &[u8], m: &[u16]) {
    let len = m.len();
    debug_assert_eq!(out.len(), len);
    if len == 1 {
        out[0] = if m[0] == 1 {
            0
        } else if m[0] <= 256 {
            uint32_mod_uint14(u32::from(s[0]), m[0])
        } else {
            uint32_mod_uint14(u32::from(s[0]) + (u32::from(s[1]) << 8), m[0])
        };
        return;
    }
    if len == 0 {
        return;
    }
    let half = len.div_ceil(2);
    let mut m2 = [0u16; HALF_MAX];
    let mut bottomr = [0u32; HALF_MAX];
    let mut bottomt = [0u32; HALF_MAX];
    let mut pos = 0;
    let mut i = 0;
    while i + 1 < len {
        let k = i >> 1;
        let mm = u32::from(m[i]) * u32::from(m[i + 1]);
        if mm > 256 * 16383 {
            bottomt[k] = 256 * 256;
            bottomr[k] = u32::from(s[pos]) + 256 * u32::from(s[pos + 1]);
            pos += 2;
            m2[k] = ((((mm + 255) >> 8) + 255) >> 8) as u16;
        } else if mm >= 16384 {
            bottomt[k] = 256;
            bottomr[k] = u32::from(s[pos]);
            pos += 1;
            m2[k] = ((mm + 255) >> 8) as u16;
        } else {
            bottomt[k] = 1;
            bottomr[k] = 0;
            m2[k] = mm as u16;
        }
        i += 2;
    }
    if i < len {
        m2[i >> 1] = m[i];
    }
    let mut r2 = [0u16; HALF_MAX];
    decode(&mut r2[..half], &s[pos..], &m2[..half]);
    let mut i = 0;
    while i + 1 < len {
        let k = i >> 1;
        let rr = bottomr[k] + bottomt[k] * u32::from(r2[k]);
        let (r1, r0) = uint32_divmod_uint14(rr, m[i]);
        // Reducing r1 is needed only for inputs that Encode never produces.
        out[i] = r0;
        out[i + 1] = if crate::plant::active("sntrup761-decode-skips-the-r1-reduction") {
            // Planted: r1 kept unreduced (for every string Encode produces the
            // reduction changes nothing, so only other strings see the difference).
            r1 as u16
        } else {
            uint32_mod_uint14(r1, m[i + 1])
        };
        i += 2;
    }
    if i < len {
        out[i] = r2[half - 1];
    }
}

/// Small_encode: four coefficients in {-1,0,1} per byte as x+1 in 2-bit fields, the
/// last byte holding the single remaining coefficient.
///
/// # Panics
/// Debug builds only, on a coefficient outside {-1, 0, 1} (an `i8` or `u8` overflow
/// for some); release builds then write bytes that decode to other coefficients. Every
/// caller in the crate passes a small polynomial.
pub fn small_encode(s: &mut [u8; SMALL_BYTES], f: &[Small; P]) {
    for (i, byte) in s.iter_mut().enumerate().take(P >> 2) {
        let c = &f[4 * i..4 * i + 4];
        let mut x = (c[0] + 1) as u8;
        x += ((c[1] + 1) as u8) << 2;
        x += ((c[2] + 1) as u8) << 4;
        x += ((c[3] + 1) as u8) << 6;
        *byte = x;
    }
    s[P >> 2] = if crate::plant::active("sntrup761-small-encode-last-byte-without-the-offset") {
        // Planted: the tail coefficient written as f instead of f + 1.
        f[P - 1] as u8
    } else {
        (f[P - 1] + 1) as u8
    };
}

/// Small_decode: each 2-bit field x gives x − 1. A field value of 3 (never written by
/// [`small_encode`]) decodes to 2, and the high bits of the last byte are ignored.
pub fn small_decode(f: &mut [Small; P], s: &[u8; SMALL_BYTES]) {
    for i in 0..P >> 2 {
        let mut x = s[i];
        for j in 0..4 {
            f[4 * i + j] = (x & 3) as Small - 1;
            x >>= 2;
        }
    }
    f[P - 1] = (s[P >> 2] & 3) as Small - 1;
    if crate::plant::active("sntrup761-small-decode-last-coefficient-unbiased") {
        // Planted: the tail coefficient written without the −1 (0..3, not −1..2).
        f[P - 1] += 1;
    }
}

/// Rq_encode: coefficients r + q12 in radix q.
pub fn rq_encode(s: &mut [u8; RQ_BYTES], r: &[Fq; P]) {
    let planted = crate::plant::active("sntrup761-rq-encode-offsets-only-the-first");
    let rr: [u16; P] = core::array::from_fn(|i| {
        // Planted: the offset q12 added to the first coefficient only.
        let offset = if planted && i > 0 { 0 } else { Q12 };
        (i32::from(r[i]) + offset) as u16
    });
    let written = encode(s, &rr, &[Q as u16; P]);
    debug_assert_eq!(written, RQ_BYTES);
}

/// Rq_decode: R − q12 with 0 <= R < q, for every input.
pub fn rq_decode(r: &mut [Fq; P], s: &[u8; RQ_BYTES]) {
    let mut rr = [0u16; P];
    decode(&mut rr, s, &[Q as u16; P]);
    for (o, &x) in r.iter_mut().zip(&rr) {
        *o = (i32::from(x) - Q12) as Fq;
    }
}

/// The radix of a rounded coefficient: (q + 2) / 3 = 1531.
pub const ROUNDED_RADIX: u16 = 1531;
const _: () = assert!(ROUNDED_RADIX as i32 * 3 == Q + 2);

/// Rounded_encode: a multiple of 3 in [-q12, q12] as ((r + q12)·10923) >> 15, which
/// is (r + q12)/3 for those values, in radix 1531.
pub fn rounded_encode(s: &mut [u8; ROUNDED_BYTES], r: &[Fq; P]) {
    // Planted: the reciprocal of 3 rounded down (2^15 / 3 = 10922.7), too small.
    let third = if crate::plant::active("sntrup761-rounded-encode-third-rounded-down") {
        10922
    } else {
        10923
    };
    let mut rr: [u16; P] =
        core::array::from_fn(|i| (((i32::from(r[i]) + Q12) * third) >> 15) as u16);
    let written = encode(s, &rr, &[ROUNDED_RADIX; P]);
    debug_assert_eq!(written, ROUNDED_BYTES);
    // Secret in Decaps: the re-encryption of a ciphertext that does not decrypt.
    zeroize::Zeroize::zeroize(&mut rr[..]);
}

/// Rounded_decode: 3R − q12 with 0 <= R < 1531, so in [-q12, q12], for every input.
pub fn rounded_decode(r: &mut [Fq; P], s: &[u8; ROUNDED_BYTES]) {
    let mut rr = [0u16; P];
    decode(&mut rr, s, &[ROUNDED_RADIX; P]);
    for (o, &x) in r.iter_mut().zip(&rr) {
        *o = (3 * i32::from(x) - Q12) as Fq;
    }
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test data generation on public values
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    #[test]
    fn encoded_lengths() {
        // A buffer longer than needed: the written length is the spec's.
        let mut out = [0u8; 2 * RQ_BYTES];
        assert_eq!(encode(&mut out, &[0; P], &[Q as u16; P]), RQ_BYTES);
        assert_eq!(
            encode(&mut out, &[0; P], &[ROUNDED_RADIX; P]),
            ROUNDED_BYTES
        );
    }

    #[test]
    fn rq_and_rounded_roundtrip() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20 {
            let r: [Fq; P] = core::array::from_fn(|_| (rng.next_u32() % Q as u32) as i16 - 2295);
            let mut b = [0u8; RQ_BYTES];
            rq_encode(&mut b, &r);
            let mut back = [0; P];
            rq_decode(&mut back, &b);
            assert_eq!(back, r);

            let c: [Fq; P] = core::array::from_fn(|_| 3 * (rng.next_u32() % 1531) as i16 - 2295);
            let mut b = [0u8; ROUNDED_BYTES];
            rounded_encode(&mut b, &c);
            let mut back = [0; P];
            rounded_decode(&mut back, &b);
            assert_eq!(back, c);
        }
    }

    #[test]
    fn decode_is_total_and_in_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for fill in [0x00u8, 0xff, 0x80, 0x55] {
            let b = [fill; RQ_BYTES];
            let mut r = [0; P];
            rq_decode(&mut r, &b);
            assert!(r.iter().all(|&x| (-2295..=2295).contains(&x)));
            let b = [fill; ROUNDED_BYTES];
            rounded_decode(&mut r, &b);
            assert!(
                r.iter()
                    .all(|&x| (-2295..=2295).contains(&x) && (x + 2295) % 3 == 0)
            );
        }
        for _ in 0..20 {
            let b: [u8; RQ_BYTES] = core::array::from_fn(|_| rng.next_u32() as u8);
            let mut r = [0; P];
            rq_decode(&mut r, &b);
            assert!(r.iter().all(|&x| (-2295..=2295).contains(&x)));
        }
    }

    #[test]
    fn small_roundtrip_and_field_three() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let f: [Small; P] = core::array::from_fn(|_| (rng.next_u32() % 3) as i8 - 1);
        let mut b = [0u8; SMALL_BYTES];
        small_encode(&mut b, &f);
        let mut back = [0; P];
        small_decode(&mut back, &b);
        assert_eq!(back, f);
        small_decode(&mut back, &[0xff; SMALL_BYTES]);
        assert!(back.iter().all(|&x| x == 2));
    }
}
