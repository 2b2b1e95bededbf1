//! Arithmetic mod 3 and mod q, and constant-time division by a public 14-bit modulus.
//!
//! The freeze helpers are libgcrypt's as of patch 05/10 ("reduce freeze helpers without
//! division", commit 317c661b): a biased multiply-shift, exact on a documented domain
//! (checked exhaustively in this module's tests and in the lab's obligations):
//!
//! | helper | claimed exact domain | widest caller |
//! |---|---|---|
//! | [`fq_freeze`] | \|x\| <= 2·q12² = 10,534,050 | `Rq_recip3`: f0·g\[i\] − g0·f\[i\] |
//! | [`f3_freeze`] | every `i16` | `R3_fromRq`, `Round` (\|x\| <= 2295) |

use super::{P, Q, Q12};

/// An element of F3, represented in {-1, 0, 1} (`small` in the C code). A decoded
/// secret key can hold 2 (`small_decode` of a field value 3); the kernels that take
/// one say which values they accept.
pub type Small = i8;
/// An element of Fq, always represented in [-q12, q12] (`Fq` in the C code).
pub type Fq = i16;

/// Bias of [`fq_freeze`]: B = ⌈2·q12²/q⌉·q, a multiple of q that makes x + q12 + B
/// non-negative on the whole domain.
pub const FQ_FREEZE_BIAS: i32 = 10_536_345;
/// Multiplier of [`fq_freeze`]: M = ⌊2^36/q⌋ + 1.
pub const FQ_FREEZE_M: u64 = 14_968_303;
/// The largest |x| [`fq_freeze`] is claimed exact on: 2·q12².
pub const FQ_FREEZE_DOMAIN: i32 = 2 * Q12 * Q12;

// The constants are what their definitions say (checked at compile time, on public
// constants: no division happens at run time).
#[allow(clippy::integer_division_remainder_used)]
const _: () = assert!(FQ_FREEZE_BIAS == (FQ_FREEZE_DOMAIN + Q - 1) / Q * Q);
#[allow(clippy::integer_division_remainder_used)]
const _: () = assert!(FQ_FREEZE_M == (1u64 << 36) / Q as u64 + 1);
const _: () = assert!(FQ_FREEZE_DOMAIN == 10_534_050);
// x + q12 + B stays inside i32 on the domain.
const _: () =
    assert!(FQ_FREEZE_DOMAIN as i64 + Q12 as i64 + FQ_FREEZE_BIAS as i64 <= i32::MAX as i64);
// p fits in i16 (libgcrypt's loop indices and weight counters are int).
const _: () = assert!(P as i64 <= i16::MAX as i64);

/// Fq_freeze: the representative in [-q12, q12] of x mod q.
///
/// Precondition: |x| <= 10,534,050 ([`FQ_FREEZE_DOMAIN`]). Branch-free: bias into
/// the non-negative range by a multiple of q, quotient by a 64-bit multiply and shift
/// (no division instruction, whose timing may depend on the operand).
///
/// # Panics
/// Debug builds only, when the bias overflows `i32` (x above about 2.1·10⁹); outside
/// the precondition the result is not checked (obligation S-3 covers the domain).
#[inline(always)]
pub fn fq_freeze(x: i32) -> Fq {
    let b = (x + Q12 + FQ_FREEZE_BIAS) as u32;
    if crate::plant::active("sntrup761-fq-freeze-off-by-one-multiplier") {
        return fq_freeze_planted(b);
    }
    let quot = ((u64::from(b) * FQ_FREEZE_M) >> 36) as u32;
    (b.wrapping_sub(quot.wrapping_mul(Q as u32)) as i32 - Q12) as Fq
}

/// The planted bug `sntrup761-fq-freeze-off-by-one-multiplier` on the biased `b`
/// (dead unless the bug zoo's switch names it).
#[mutants::skip]
#[inline(never)]
fn fq_freeze_planted(b: u32) -> Fq {
    let quot = ((u64::from(b) * (FQ_FREEZE_M - 1)) >> 36) as u32;
    (b.wrapping_sub(quot.wrapping_mul(Q as u32)) as i32 - Q12) as Fq
}

/// F3_freeze: the representative in {-1, 0, 1} of x mod 3, for every `i16` x.
///
/// Bias b = x + 1 + 32769 (32769 = 3·10923, so b ≡ x + 1 mod 3 and b >= 1), quotient
/// (b·43691) >> 17 with 43691 = ⌈2^17/3⌉.
#[inline(always)]
pub fn f3_freeze(x: i16) -> Small {
    // b in [2, 65537]; b·43691 < 2^32, so the product is done in u32.
    let b = (i32::from(x) + 1 + 32769) as u32;
    if crate::plant::active("sntrup761-f3-freeze-rounds-wrong") {
        return f3_freeze_planted(b);
    }
    let quot = (b * 43691) >> 17;
    (b - 3 * quot) as i32 as Small - 1
}

/// F3_freeze of a sum of two elements of {-1, 0, 1}: for x in [-2, 2], the same value
/// as [`f3_freeze`] (the unit tests check all five), computed in `i8` lanes. With
/// t = ⌊(x + 2)/4⌋ − ⌊(2 − x)/4⌋, which is −1 at x = −2, 1 at x = 2 and 0 between, the
/// result is x − 3t. Both shifted operands lie in [0, 4], so the shifts are exact
/// floors and nothing overflows. `R3_recip`'s updates use it: their 32-bit
/// multiply-shift is what kept that loop in 32-bit lanes.
///
/// # Panics
/// Debug builds only, on an `i8` overflow for |x| >= 126; outside [-2, 2] the result
/// is not x mod 3.
#[inline(always)]
pub fn f3_freeze_sum(x: Small) -> Small {
    let t = ((x + 2) as u8 >> 2) as Small - ((2 - x) as u8 >> 2) as Small;
    x - 3 * t
}

/// The planted bug `sntrup761-f3-freeze-rounds-wrong` on the biased `b` (dead unless
/// the bug zoo's switch names it).
#[mutants::skip]
#[inline(never)]
fn f3_freeze_planted(b: u32) -> Small {
    (b - 3 * ((b * 43690) >> 17)) as i32 as Small - 1
}

/// Fq_recip: a1^(q-2) mod q by q-3 multiplications, the C code's plain loop (public
/// loop count; a1 may be secret).
pub fn fq_recip(a1: Fq) -> Fq {
    super::poly::fq_recip_over::<super::poly::Int>(a1)
}

/// -1 when x != 0, else 0 (`int16_nonzero_mask`).
#[inline(always)]
pub fn int16_nonzero_mask(x: i16) -> i32 {
    let u = u32::from(x as u16);
    -((u.wrapping_neg() >> 31) as i32)
}

/// -1 when x < 0, else 0 (`int16_negative_mask`).
#[inline(always)]
pub fn int16_negative_mask(x: i16) -> i32 {
    -i32::from((x as u16) >> 15)
}

/// `uint32_divmod_uint14`: (x / m, x mod m) for a **public** modulus 0 < m < 16384,
/// in time independent of x (two multiply-shift estimates and one masked correction,
/// DJB's construction from the NTRU Prime reference code).
///
/// Used by the radix decoder, where x holds ciphertext or key bytes and m is a public
/// radix.
///
/// # Panics
/// If m = 0 (the division ⌊2^31/m⌋ of the public modulus), and in debug builds if
/// m >= 16384 (outside the domain; a release build then returns a wrong quotient).
/// The decoder's radixes are constants of the encoding, in the domain.
#[inline(always)]
pub fn uint32_divmod_uint14(x: u32, m: u16) -> (u32, u16) {
    debug_assert!(
        m > 0 && m < 16384,
        "uint32_divmod_uint14: m outside 0 < m < 16384"
    );
    // v = ⌊2^31/m⌋; m is a public parameter, so this division leaks nothing.
    #[allow(clippy::integer_division_remainder_used)]
    let v = 0x8000_0000u32 / u32::from(m);
    let m32 = u32::from(m);
    let mut x = x;
    let mut q = 0u32;
    let qpart = ((u64::from(x) * u64::from(v)) >> 31) as u32;
    x = x.wrapping_sub(qpart.wrapping_mul(m32));
    q = q.wrapping_add(qpart);
    let qpart = ((u64::from(x) * u64::from(v)) >> 31) as u32;
    x = x.wrapping_sub(qpart.wrapping_mul(m32));
    q = q.wrapping_add(qpart);
    // Now 0 <= x <= m: subtract once more and add m back when that went negative.
    x = x.wrapping_sub(m32);
    q = q.wrapping_add(1);
    let mask = (x >> 31).wrapping_neg();
    x = x.wrapping_add(mask & m32);
    q = q.wrapping_add(mask);
    (q, x as u16)
}

/// `uint32_mod_uint14`: x mod m for a public 0 < m < 16384.
///
/// # Panics
/// If m = 0, as [`uint32_divmod_uint14`].
#[inline(always)]
pub fn uint32_mod_uint14(x: u32, m: u16) -> u16 {
    uint32_divmod_uint14(x, m).1
}

#[cfg(test)]
#[allow(clippy::integer_division_remainder_used)] // test oracles on public values
mod tests {
    use super::*;

    /// Spot checks at the ends of the domains; the exhaustive checks are obligations
    /// S-3 and S-4 of `refopt prove` (equivalence::prove::sntrup761).
    #[test]
    fn freezes_at_the_domain_ends() {
        for x in [
            -FQ_FREEZE_DOMAIN,
            -FQ_FREEZE_DOMAIN + 1,
            -Q12 - 1,
            -Q12,
            -1,
            0,
            1,
            Q12,
            Q12 + 1,
            Q,
            FQ_FREEZE_DOMAIN - 1,
            FQ_FREEZE_DOMAIN,
        ] {
            let want = (x + Q12).rem_euclid(Q) - Q12;
            assert_eq!(i32::from(fq_freeze(x)), want, "x = {x}");
        }
        for x in [
            i16::MIN,
            i16::MIN + 1,
            -2,
            -1,
            0,
            1,
            2,
            i16::MAX - 1,
            i16::MAX,
        ] {
            let want = (i32::from(x) + 1).rem_euclid(3) - 1;
            assert_eq!(i32::from(f3_freeze(x)), want, "x = {x}");
        }
    }

    #[test]
    fn divmod_matches_division_for_sampled_moduli() {
        for m in [1u16, 2, 3, 256, 1531, 4591, 9157, 16383] {
            for x in (0..=u32::MAX).step_by(65_521).chain([u32::MAX, 0, 1]) {
                assert_eq!(
                    uint32_divmod_uint14(x, m),
                    (x / u32::from(m), (x % u32::from(m)) as u16)
                );
            }
        }
    }

    #[test]
    fn fq_recip_inverts_every_nonzero_element() {
        for a in -Q12..=Q12 {
            if a == 0 {
                continue;
            }
            let inv = fq_recip(a as Fq);
            assert_eq!(fq_freeze(a * i32::from(inv)), 1, "a = {a}");
        }
    }

    #[test]
    fn f3_freeze_sum_is_f3_freeze_on_its_domain() {
        for x in -2..=2 {
            assert_eq!(f3_freeze_sum(x), f3_freeze(i16::from(x)), "x = {x}");
        }
    }

    #[test]
    fn masks() {
        assert_eq!(int16_nonzero_mask(0), 0);
        assert_eq!(int16_nonzero_mask(5), -1);
        assert_eq!(int16_nonzero_mask(i16::MIN), -1);
        assert_eq!(int16_negative_mask(-1), -1);
        assert_eq!(int16_negative_mask(0), 0);
        assert_eq!(int16_negative_mask(i16::MAX), 0);
    }
}
