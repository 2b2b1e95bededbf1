//! The only `unsafe` of the ntruhps2048509 optimized kernels: PCLMULQDQ through
//! `core::arch`, behind runtime detection.
//!
//! A [`Pclmul`] value can only be obtained from [`Pclmul::detect`], which returns one
//! only when the running CPU has PCLMULQDQ (and SSE2); every method takes it, so the
//! `unsafe` calls to the `#[target_feature]` functions below are sound.
#![allow(unsafe_code)]

use super::r2_inv::{R2, fold509, mul512, r2_inv_chain};

/// Proof that the CPU supports PCLMULQDQ.
#[derive(Clone, Copy, Debug)]
pub struct Pclmul(());

impl Pclmul {
    /// `Some` when the running CPU supports PCLMULQDQ (checked with
    /// `is_x86_feature_detected!`), `None` otherwise or on other architectures.
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("pclmulqdq")
                && std::arch::is_x86_feature_detected!("sse2")
            {
                return Some(Pclmul(()));
            }
        }
        None
    }

    /// One 64×64 → 128-bit carry-less product (`pclmulqdq`).
    pub fn clmul64(self, a: u64, b: u64) -> u128 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `self` exists only when the CPU has PCLMULQDQ and SSE2.
            unsafe { x86::clmul64(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            unreachable!("Pclmul::detect returns None off x86_64")
        }
    }

    /// The 512×512 carry-less product folded mod x^509 − 1 (36 `pclmulqdq`).
    pub fn r2_mul(self, a: &R2, b: &R2) -> R2 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: as in `clmul64`.
            unsafe { x86::r2_mul(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            unreachable!("Pclmul::detect returns None off x86_64")
        }
    }

    /// a^(2^508 − 2) by the addition chain, every multiplication on PCLMULQDQ, the
    /// whole chain compiled with the feature enabled.
    pub fn r2_inv_chain(self, a: &R2) -> R2 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: as in `clmul64`.
            unsafe { x86::r2_inv_chain_pclmul(a) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = a;
            unreachable!("Pclmul::detect returns None off x86_64")
        }
    }
}

/// Proof that the CPU supports AVX2.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

impl Avx2 {
    /// `Some` when the running CPU supports AVX2, `None` otherwise or off x86-64.
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Some(Avx2(()));
            }
        }
        None
    }

    /// `poly_Rq_mul` by the Toom-4/Karatsuba code of [`super::rq_mul`] compiled with AVX2.
    pub fn rq_mul(
        self,
        a: &reference::ntruhps2048509::Poly,
        b: &reference::ntruhps2048509::Poly,
    ) -> reference::ntruhps2048509::Poly {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `self` exists only when the CPU has AVX2.
            unsafe { avx2::rq_mul_padded(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            unreachable!("Avx2::detect returns None off x86_64")
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    super::super::rq_mul::karatsuba_impl!(#[target_feature(enable = "avx2")]);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{R2, fold509, mul512, r2_inv_chain};
    use core::arch::x86_64::{__m128i, _mm_clmulepi64_si128, _mm_set_epi64x, _mm_storeu_si128};

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(super) unsafe fn clmul64(a: u64, b: u64) -> u128 {
        let x: __m128i = _mm_set_epi64x(0, a as i64);
        let y: __m128i = _mm_set_epi64x(0, b as i64);
        let p = _mm_clmulepi64_si128::<0x00>(x, y);
        let mut out = [0u8; 16];
        // SAFETY: `out` is 16 writable bytes; unaligned store.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), p) };
        u128::from_le_bytes(out)
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn r2_mul(a: &R2, b: &R2) -> R2 {
        // SAFETY: this function has the features `clmul64` needs.
        fold509(&mul512(&|x, y| unsafe { clmul64(x, y) }, a, b))
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn r2_inv_chain_pclmul(a: &R2) -> R2 {
        // SAFETY: this function has the features `r2_mul` needs.
        r2_inv_chain(a, |x, y| unsafe { r2_mul(x, y) })
    }
}
