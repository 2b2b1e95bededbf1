//! A fixed-width limb layer in the style of libgcrypt's `mpi/mpih-*.c`.
//!
//! Values are little-endian limb vectors of a fixed length: they are never
//! normalised (leading zero limbs are kept) and every carry or borrow is returned to
//! the caller, which decides whether to keep or drop it, exactly as libgcrypt's
//! `_gcry_mpih_*` functions do.
//!
//! The layer is generic over the limb type [`Limb`]. The field code of both tiers
//! (`ec_addm_25519`, `ec_subm_25519`, `ec_mulm_25519`) is written once over it, so the
//! very same code runs on `u64` limbs in the library and on symbolic bit-vectors in the
//! SMT proof (`refopt prove`, `equivalence::prove::ed25519`). Nothing in this layer branches on a
//! limb value, which is what makes that symbolic run a single straight-line term.
//!
//! Differences from libgcrypt: Rust forbids a `&mut` output that aliases an input,
//! so where libgcrypt calls a primitive in place (`add_n (wp, wp, n)`,
//! `sub_n (wp, wp, p)`, `rshift (n, n+3, 5, 63)`) this layer has an in-place form
//! ([`add_n_in_place`], [`sub_n_in_place`], [`rshift_within`]) that does the same
//! with one pointer fewer. Shift counts and `rshift_within`'s offsets are constant
//! parameters, as they are constants at every call site in libgcrypt's field code.
//!
//! Every primitive works on fixed-width arrays `[L; N]`: each instantiation
//! (N = 4, 5, 8) has its length at compile time, so its loop is straight-line code
//! without bounds checks, as libgcrypt's fixed-size assembly would be.
//!
//! By default each primitive is an out-of-line function (`#[inline(never)]`), the
//! call structure of libgcrypt, whose `_gcry_mpih_*` are separately compiled (often
//! assembly) functions that the field routines call. The `inline-mpih` feature of
//! this crate inlines every primitive instead, so the compiler sees through the whole
//! field routine: the benchmarks measure both (docs/ed25519.md).

/// One machine limb, concrete (`u64`) or symbolic.
///
/// Every operation is total and branch-free; `bit` arguments and carry results are
/// the limb values 0 or 1.
pub trait Limb: Clone {
    /// Bits per limb (`BITS_PER_MPI_LIMB`).
    const BITS: u32;
    /// A public constant.
    fn constant(x: u64) -> Self;
    /// `(a + b + c) mod 2^BITS` and the carry out (`c` is 0 or 1).
    fn adc(&self, b: &Self, c: &Self) -> (Self, Self);
    /// `(a - b - c) mod 2^BITS` and the borrow out (`c` is 0 or 1).
    fn sbb(&self, b: &Self, c: &Self) -> (Self, Self);
    /// The double-width product `a * b` as (low, high).
    fn mul_wide(&self, b: &Self) -> (Self, Self);
    /// `a << s` for a public `0 < s < BITS`.
    fn shl(&self, s: u32) -> Self;
    /// `a >> s` for a public `0 < s < BITS`.
    fn shr(&self, s: u32) -> Self;
    /// Bitwise and.
    fn and(&self, b: &Self) -> Self;
    /// Bitwise or.
    fn or(&self, b: &Self) -> Self;
    /// Bitwise not.
    fn not(&self) -> Self;
    /// `(a + b) mod 2^BITS`.
    fn wrapping_add(&self, b: &Self) -> Self;
    /// `(a * b) mod 2^BITS`.
    fn wrapping_mul(&self, b: &Self) -> Self;
    /// 1 when the limb is zero, else 0 (libgcrypt's `mpih_limb_is_zero`), branch-free.
    fn is_zero(&self) -> Self;
    /// All ones when `bit == 1`, zero when `bit == 0` (`0 - bit`).
    fn mask(bit: &Self) -> Self;
    /// `self·v + w + cy` as (low, high): one limb of `addmul_1`. The value is at most
    /// (2^B−1)² + 2(2^B−1) = 2^2B − 1, so it always fits two limbs. The provided
    /// body composes it from [`Limb::mul_wide`] and [`Limb::adc`]; both instances in
    /// the tree override it: `u64` computes the number in `u128` arithmetic, and the
    /// proof's symbolic limbs encode that same `u128` computation as 128-bit
    /// bit-vector terms (so the SMT proofs are about `u64`'s body, not this one).
    fn mac(&self, v: &Self, w: &Self, cy: &Self) -> (Self, Self) {
        let zero = Self::constant(0);
        let (lo, hi) = self.mul_wide(v);
        let (s, c1) = lo.adc(w, &zero);
        let (s, c2) = s.adc(cy, &zero);
        (s, hi.wrapping_add(&c1).wrapping_add(&c2))
    }
    /// A bound lemma at this point of the code: `self <= bound`.
    ///
    /// On `u64` it is a `debug_assert!` (checked in every test run); the SMT
    /// limb type records it as a proof obligation instead.
    fn lemma_le(&self, bound: u64, what: &'static str);
}

impl Limb for u64 {
    const BITS: u32 = 64;
    #[inline(always)]
    fn constant(x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn adc(&self, b: &Self, c: &Self) -> (Self, Self) {
        let (s, o1) = self.overflowing_add(*b);
        let (s, o2) = s.overflowing_add(*c);
        (s, u64::from(o1 | o2))
    }
    #[inline(always)]
    fn sbb(&self, b: &Self, c: &Self) -> (Self, Self) {
        let (d, o1) = self.overflowing_sub(*b);
        let (d, o2) = d.overflowing_sub(*c);
        (d, u64::from(o1 | o2))
    }
    #[inline(always)]
    fn mul_wide(&self, b: &Self) -> (Self, Self) {
        let t = u128::from(*self) * u128::from(*b);
        (t as u64, (t >> 64) as u64)
    }
    #[inline(always)]
    fn mac(&self, v: &Self, w: &Self, cy: &Self) -> (Self, Self) {
        // Cannot overflow: (2^64−1)² + 2(2^64−1) = 2^128 − 1.
        let t = u128::from(*self) * u128::from(*v) + u128::from(*w) + u128::from(*cy);
        (t as u64, (t >> 64) as u64)
    }
    #[inline(always)]
    fn shl(&self, s: u32) -> Self {
        *self << s
    }
    #[inline(always)]
    fn shr(&self, s: u32) -> Self {
        *self >> s
    }
    #[inline(always)]
    fn and(&self, b: &Self) -> Self {
        *self & *b
    }
    #[inline(always)]
    fn or(&self, b: &Self) -> Self {
        *self | *b
    }
    #[inline(always)]
    fn not(&self) -> Self {
        !*self
    }
    #[inline(always)]
    fn wrapping_add(&self, b: &Self) -> Self {
        u64::wrapping_add(*self, *b)
    }
    #[inline(always)]
    fn wrapping_mul(&self, b: &Self) -> Self {
        u64::wrapping_mul(*self, *b)
    }
    #[inline(always)]
    fn is_zero(&self) -> Self {
        // x == 0 <=> neither x nor -x has the top bit set.
        ((*self | self.wrapping_neg()) >> 63) ^ 1
    }
    #[inline(always)]
    fn mask(bit: &Self) -> Self {
        crate::ct::mask_u64(*bit)
    }
    #[inline(always)]
    fn lemma_le(&self, bound: u64, what: &'static str) {
        // The message names the lemma, not the limb: it may derive from a secret.
        debug_assert!(*self <= bound, "lemma {what}: the limb > {bound}");
    }
}

/// `w = u + v` over `N` limbs; returns the carry (`_gcry_mpih_add_n`).
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn add_n<L: Limb, const N: usize>(w: &mut [L; N], u: &[L; N], v: &[L; N]) -> L {
    let mut c = L::constant(0);
    for ((wi, ui), vi) in w.iter_mut().zip(u).zip(v) {
        let (s, c2) = ui.adc(vi, &c);
        *wi = s;
        c = c2;
    }
    c
}

/// `w = u - v` over `N` limbs; returns the borrow (`_gcry_mpih_sub_n`).
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn sub_n<L: Limb, const N: usize>(w: &mut [L; N], u: &[L; N], v: &[L; N]) -> L {
    let mut b = L::constant(0);
    for ((wi, ui), vi) in w.iter_mut().zip(u).zip(v) {
        let (d, b2) = ui.sbb(vi, &b);
        *wi = d;
        b = b2;
    }
    b
}

/// `w += v` over `N` limbs; returns the carry: `_gcry_mpih_add_n (wp, wp, vp, n)`,
/// the in-place call libgcrypt makes (Rust forbids the aliased [`add_n`]).
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn add_n_in_place<L: Limb, const N: usize>(w: &mut [L; N], v: &[L; N]) -> L {
    let mut c = L::constant(0);
    for (wi, vi) in w.iter_mut().zip(v) {
        let (s, c2) = wi.adc(vi, &c);
        *wi = s;
        c = c2;
    }
    c
}

/// `w -= v` over `N` limbs; returns the borrow: `_gcry_mpih_sub_n (wp, wp, vp, n)`.
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn sub_n_in_place<L: Limb, const N: usize>(w: &mut [L; N], v: &[L; N]) -> L {
    let mut b = L::constant(0);
    for (wi, vi) in w.iter_mut().zip(v) {
        let (d, b2) = wi.sbb(vi, &b);
        *wi = d;
        b = b2;
    }
    b
}

/// `w += u * v` over `N` limbs for one limb `v`; returns the carry limb
/// (`_gcry_mpih_addmul_1`).
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn addmul_1<L: Limb, const N: usize>(w: &mut [L; N], u: &[L; N], v: &L) -> L {
    let mut cy = L::constant(0);
    for (wi, ui) in w.iter_mut().zip(u) {
        let (s, c) = addmul_1_step(wi, ui, v, &cy);
        *wi = s;
        cy = c;
    }
    cy
}

/// One limb of [`addmul_1`]: `(s, cy_out)` with `s + 2^B·cy_out = w + u·v + cy`.
/// The right side is at most (2^B−1)² + 2(2^B−1) = 2^2B − 1, so it always fits
/// (the "limb identity" the SMT proof checks for v = 19).
#[inline(always)]
pub fn addmul_1_step<L: Limb>(w: &L, u: &L, v: &L, cy: &L) -> (L, L) {
    if crate::plant::active("ed25519-addmul-1-step-drops-the-carry-in") {
        return u.mac(v, w, &L::constant(0));
    }
    u.mac(v, w, cy)
}

/// `w = u * v`, the schoolbook product of two `N`-limb numbers into `W = 2N` limbs
/// (`_gcry_mpih_mul_n` on its basecase path): one [`addmul_1`] row per limb of `v`,
/// the rows written out inside this function (as a fixed-size `mul_4` routine would
/// have them) rather than called; the first row adds into zeros where libgcrypt uses
/// `mul_1`, which gives the same limbs.
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn mul_n<L: Limb, const N: usize, const W: usize>(w: &mut [L; W], u: &[L; N], v: &[L; N]) {
    const { assert!(W == 2 * N, "mul_n: the product has twice the limbs") };
    for x in w.iter_mut() {
        *x = L::constant(0);
    }
    for (i, vi) in v.iter().enumerate() {
        let mut cy = L::constant(0);
        for (j, uj) in u.iter().enumerate() {
            let (s, c) = addmul_1_step(&w[i + j], uj, vi, &cy);
            w[i + j] = s;
            cy = c;
        }
        w[i + N] = cy;
    }
}

/// `w = u << CNT` over `N` limbs, `0 < CNT < BITS`; returns the bits shifted out of
/// the top limb, in the low bits of the result (`_gcry_mpih_lshift`; the shift
/// count, a constant at every call site in libgcrypt's field code, is a constant
/// parameter here too).
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn lshift<L: Limb, const N: usize, const CNT: u32>(w: &mut [L; N], u: &[L; N]) -> L {
    const { assert!(N > 0 && CNT > 0 && CNT < L::BITS) };
    let cnt = CNT;
    let out = u[N - 1].shr(L::BITS - cnt);
    for i in (1..N).rev() {
        w[i] = u[i].shl(cnt).or(&u[i - 1].shr(L::BITS - cnt));
    }
    w[0] = u[0].shl(cnt);
    out
}

/// `w = u >> CNT` over `N` limbs, `0 < CNT < BITS`; returns the bits shifted out of
/// the bottom limb, in the high bits of the result (`_gcry_mpih_rshift`).
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn rshift<L: Limb, const N: usize, const CNT: u32>(w: &mut [L; N], u: &[L; N]) -> L {
    const { assert!(N > 0 && CNT > 0 && CNT < L::BITS) };
    let cnt = CNT;
    let out = u[0].shl(L::BITS - cnt);
    for i in 0..N - 1 {
        w[i] = u[i].shr(cnt).or(&u[i + 1].shl(L::BITS - cnt));
    }
    w[N - 1] = u[N - 1].shr(cnt);
    out
}

/// In-place `rshift` of `N` limbs inside one `M`-limb buffer, at the constant
/// offsets `DST <= SRC`: `buf[DST..DST+N] = buf[SRC..SRC+N] >> CNT`, the overlap
/// libgcrypt's `_gcry_mpih_rshift` allows (`rshift (n, n+3, 5, 63)` is
/// `rshift_within::<_, 8, 5, 0, 3, 63>(n)`). Each limb is read before any write can
/// reach it, because writes go to lower or equal indices in increasing order.
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn rshift_within<
    L: Limb,
    const M: usize,
    const N: usize,
    const DST: usize,
    const SRC: usize,
    const CNT: u32,
>(
    buf: &mut [L; M],
) -> L {
    const { assert!(N > 0 && DST <= SRC && SRC + N <= M && CNT > 0 && CNT < L::BITS) };
    let cnt = CNT;
    let out = buf[SRC].shl(L::BITS - cnt);
    for i in 0..N - 1 {
        buf[DST + i] = buf[SRC + i]
            .shr(cnt)
            .or(&buf[SRC + i + 1].shl(L::BITS - cnt));
    }
    buf[DST + N - 1] = buf[SRC + N - 1].shr(cnt);
    out
}

/// `w = flag ? u : w` over `N` limbs, branch-free (`mpih_set_cond`); `flag` is the
/// limb 0 or 1.
#[cfg_attr(feature = "inline-mpih", inline(always))]
#[cfg_attr(not(feature = "inline-mpih"), inline(never))]
pub fn set_cond<L: Limb, const N: usize>(w: &mut [L; N], u: &[L; N], flag: &L) {
    let mask = L::mask(flag);
    let keep = mask.not();
    for (wi, ui) in w.iter_mut().zip(u) {
        *wi = wi.and(&keep).or(&ui.and(&mask));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_u128(x: &[u64]) -> u128 {
        u128::from(x[0]) | (u128::from(x[1]) << 64)
    }

    #[test]
    fn two_limb_ops_match_u128() {
        let vals = [
            0u128,
            1,
            u64::MAX as u128,
            1 << 64,
            u128::MAX,
            u128::MAX - 5,
            0x1234_5678_9abc_def0_1122_3344_5566_7788,
        ];
        for &a in &vals {
            for &b in &vals {
                let u = [a as u64, (a >> 64) as u64];
                let v = [b as u64, (b >> 64) as u64];
                let mut w = [0u64; 2];
                let c = add_n(&mut w, &u, &v);
                let (s, o) = a.overflowing_add(b);
                assert_eq!((to_u128(&w), c), (s, u64::from(o)));
                let c = sub_n(&mut w, &u, &v);
                let (s, o) = a.overflowing_sub(b);
                assert_eq!((to_u128(&w), c), (s, u64::from(o)));
                let mut x = u;
                let c = add_n_in_place(&mut x, &v);
                let (s, o) = a.overflowing_add(b);
                assert_eq!((to_u128(&x), c), (s, u64::from(o)));
                let mut x = u;
                let c = sub_n_in_place(&mut x, &v);
                let (s, o) = a.overflowing_sub(b);
                assert_eq!((to_u128(&x), c), (s, u64::from(o)));
                let mut p = [0u64; 4];
                mul_n(&mut p, &u, &v);
                // Check the low half and one limb of the high half against u128.
                assert_eq!(to_u128(&p), a.wrapping_mul(b));
                let mut l = [0u64; 2];
                let out = lshift::<_, 2, 4>(&mut l, &u);
                assert_eq!(to_u128(&l), a << 4);
                assert_eq!(out, (a >> 124) as u64);
                let out = rshift::<_, 2, 63>(&mut l, &u);
                assert_eq!(to_u128(&l), a >> 63);
                assert_eq!(out, (a as u64) << 1);
                // Counts other than the field's 63, so that the shift arithmetic is
                // checked in general (64 - 63 = 64 / 63 would hide a wrong operator).
                let out = rshift::<_, 2, 13>(&mut l, &u);
                assert_eq!(to_u128(&l), a >> 13);
                assert_eq!(out, (a as u64) << 51);
                let mut b = [u[0], u[1], 0];
                let out = rshift_within::<_, 3, 2, 0, 0, 1>(&mut b);
                assert_eq!((to_u128(&b), b[2]), (a >> 1, 0));
                assert_eq!(out, (a as u64) << 63);
                let mut f = u;
                set_cond(&mut f, &v, &0);
                assert_eq!(f, u);
                set_cond(&mut f, &v, &1);
                assert_eq!(f, v);
            }
        }
        assert_eq!(0u64.is_zero(), 1);
        assert_eq!(u64::MAX.is_zero(), 0);
        assert_eq!((1u64 << 63).is_zero(), 0);
    }

    /// `u64::mac` (u128 arithmetic) equals the trait's provided composition of
    /// `mul_wide` and two `adc` (the body the symbolic limbs run) on edge values.
    #[test]
    fn u64_mac_matches_the_composition() {
        let vals = [
            0u64,
            1,
            2,
            19,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            0x8000_0000_0000_0001,
        ];
        for &u in &vals {
            for &v in &vals {
                for &w in &vals {
                    for &cy in &vals {
                        let (lo, hi) = u.mul_wide(&v);
                        let (s, c1) = lo.adc(&w, &0);
                        let (s, c2) = s.adc(&cy, &0);
                        let expect = (s, hi.wrapping_add(c1).wrapping_add(c2));
                        assert_eq!(u.mac(&v, &w, &cy), expect, "{u:x} {v:x} {w:x} {cy:x}");
                    }
                }
            }
        }
    }

    #[test]
    fn rshift_within_matches_rshift() {
        let buf = [
            1u64,
            2,
            3,
            0x8000_0000_0000_0001,
            u64::MAX,
            7,
            0xdead_beef,
            1 << 63,
        ];
        let mut expect = [0u64; 5];
        let src: [u64; 5] = core::array::from_fn(|i| buf[3 + i]);
        let out = rshift::<_, 5, 63>(&mut expect, &src);
        let mut b = buf;
        assert_eq!(rshift_within::<_, 8, 5, 0, 3, 63>(&mut b), out);
        assert_eq!(b[..5], expect);
        assert_eq!(b[5..], buf[5..]);
    }
}
