//! Arithmetic in Z_q, q = 3329, always canonical in [0, q) (FIPS 203 section 2.3).
//!
//! Like Go's `crypto/internal/fips140/mlkem/field.go`, every function returns the
//! canonical representative, so raw polynomials are comparable byte for byte and
//! every polynomial map built from these functions is computed exactly mod q.

/// The ML-KEM modulus.
pub const Q: u16 = 3329;

/// A canonical element of Z_q: a `u16` in [0, q).
pub type Fe = u16;

/// Reduces `a < 2q` to [0, q) with a mask, no branch.
#[inline(always)]
pub fn reduce_once(a: u16) -> Fe {
    debug_assert!(a < 2 * Q);
    let x = a.wrapping_sub(Q);
    // The top bit of x is set exactly when a < q; add q back then.
    x.wrapping_add((x >> 15).wrapping_mul(Q))
}

/// a + b mod q.
#[inline(always)]
pub fn add(a: Fe, b: Fe) -> Fe {
    reduce_once(a + b)
}

/// a - b mod q.
#[inline(always)]
pub fn sub(a: Fe, b: Fe) -> Fe {
    reduce_once(a + Q - b)
}

// Bound lemmas (checked at compile time): canonical values and their sums fit u16;
// the largest argument of `reduce` (a·b + c·d with canonical a..d, or a·(b − c + q))
// is below 2q², its proved domain, and below 2^32.
const _: () = assert!(2 * (Q as u32) < (1 << 16));
const _: () = assert!(2 * (Q as u32 - 1) * (Q as u32 - 1) < 2 * (Q as u32) * (Q as u32));
const _: () = assert!((Q as u32 - 1) * (2 * Q as u32 - 1) < 2 * (Q as u32) * (Q as u32));
const _: () = assert!((2 * (Q as u64) * (Q as u64)) < (1 << 32));

/// Barrett multiplier ⌊2^24 / q⌋.
const BARRETT_M: u64 = 5039;
/// Barrett shift.
const BARRETT_SHIFT: u32 = 24;

/// Reduces `a < 2q²` to [0, q).
///
/// The quotient estimate (a·5039) >> 24 is at most one short, so the remainder lies
/// in [0, 2q) before the final [`reduce_once`]; an exhaustive test covers the whole
/// domain.
#[inline(always)]
pub fn reduce(a: u32) -> Fe {
    debug_assert!(a < 2 * u32::from(Q) * u32::from(Q));
    let quotient = ((u64::from(a) * BARRETT_M) >> BARRETT_SHIFT) as u32;
    reduce_once((a - quotient * u32::from(Q)) as u16)
}

/// a · b mod q.
#[inline(always)]
pub fn mul(a: Fe, b: Fe) -> Fe {
    reduce(u32::from(a) * u32::from(b))
}

/// a · (b − c) mod q.
#[inline(always)]
pub fn mul_sub(a: Fe, b: Fe, c: Fe) -> Fe {
    reduce(u32::from(a) * u32::from(b + Q - c))
}

/// a·b + c·d mod q.
#[inline(always)]
pub fn add_mul(a: Fe, b: Fe, c: Fe, d: Fe) -> Fe {
    reduce(u32::from(a) * u32::from(b) + u32::from(c) * u32::from(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exhaustive over the whole claimed domain [0, 2q²): every caller (`mul`,
    /// `mul_sub`, `add_mul`) stays inside it by the bound lemmas above.
    #[test]
    fn reduce_is_exact_on_its_domain() {
        let q = u32::from(Q);
        for a in 0..2 * q * q {
            assert_eq!(u32::from(reduce(a)), a % q, "a = {a}");
        }
    }

    /// Exhaustive over all canonical pairs (q² ≈ 11M of them).
    #[test]
    fn add_sub_exhaustive() {
        let q = u32::from(Q);
        for a in 0..Q {
            for b in 0..Q {
                assert_eq!(u32::from(add(a, b)), (u32::from(a) + u32::from(b)) % q);
                assert_eq!(u32::from(sub(a, b)), (u32::from(a) + q - u32::from(b)) % q);
            }
        }
    }
}
