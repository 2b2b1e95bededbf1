//! The two forms of ML-KEM's compression (FIPS 203, Compress_d): the kernels under
//! study, and a planted wrong optimization to show the checks catch one.

/// q of ML-KEM.
pub const Q: u32 = 3329;

/// Compress_d(x) = ⌈(2^d / q)·x⌋ mod 2^d with a division by q, as reference code has
/// written it. The divisor is opaque to the compiler (as it is whenever it does not
/// see a constant, at `-Os`, or on a target without the multiply-high rewrite): a
/// `div` instruction whose time depends on the secret x (KyberSlash, 2023–24).
#[inline(never)]
pub fn compress_div(x: u16, d: u32) -> u16 {
    let q = core::hint::black_box(Q);
    ((((u32::from(x) << d) + q / 2) / q) & ((1 << d) - 1)) as u16
}

/// Compress_d(x) by a multiplication and a shift: ⌊n/q⌋ = ⌊n·M / 2^35⌋ with
/// M = ⌈2^35/q⌉ for every n < 2^23 (the numerators 2^d·x + 1664, d <= 11), the fix
/// the KyberSlash disclosure led to.
#[inline(never)]
pub fn compress_mul(x: u16, d: u32) -> u16 {
    const M: u64 = (1u64 << 35).div_ceil(Q as u64);
    let n = (u64::from(x) << d) + u64::from(Q / 2);
    (((n * M) >> 35) as u32 & ((1 << d) - 1)) as u16
}

/// A planted wrong optimization: Compress_4's 28-bit constant (M = ⌈2^28/q⌉, shift 28)
/// reused for every d. Exact for d <= 5; for d = 10 and 11 (ML-KEM's u) the precision
/// runs out and 34 of the 6 658 inputs round wrong.
pub fn compress_mul_28(x: u16, d: u32) -> u16 {
    const M: u64 = (1u64 << 28).div_ceil(Q as u64);
    let n = (u64::from(x) << d) + u64::from(Q / 2);
    (((n * M) >> 28) as u32 & ((1 << d) - 1)) as u16
}
