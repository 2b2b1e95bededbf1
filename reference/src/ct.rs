//! Constant-time helpers.
//!
//! Masks are `0` or all ones and are derived arithmetically, never through a branch.
//! [`core::hint::black_box`] keeps the optimizer from turning a mask back into a
//! branch on the secret bit it came from.

use core::hint::black_box;

/// All ones when `bit == 1`, zero when `bit == 0`. `bit` must be 0 or 1.
#[inline(always)]
pub fn mask_u8(bit: u8) -> u8 {
    debug_assert!(bit <= 1);
    black_box(0u8.wrapping_sub(bit))
}

/// All ones when `bit == 1`, zero when `bit == 0`. `bit` must be 0 or 1.
#[inline(always)]
pub fn mask_u64(bit: u64) -> u64 {
    debug_assert!(bit <= 1);
    black_box(0u64.wrapping_sub(bit))
}

/// All ones when `a == b`, zero otherwise, in time independent of the contents.
///
/// Slices of different lengths compare unequal; lengths are public.
#[must_use = "the mask is the comparison's only result"]
pub fn eq_mask(a: &[u8], b: &[u8]) -> u8 {
    if a.len() != b.len() {
        return 0;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    // diff == 0  <=>  (diff - 1) has bit 8 set when widened.
    let is_zero = ((u16::from(black_box(diff))).wrapping_sub(1) >> 8) as u8 & 1;
    mask_u8(is_zero)
}

/// `dst = if mask == 0xff { src } else { dst }`, byte by byte, with no branch, for a
/// mask of 0 or 0xff (as [`mask_u8`] and [`eq_mask`] give); any other mask blends the
/// two bitwise.
///
/// # Panics
/// If the slices differ in length (lengths are public).
pub fn select_into(dst: &mut [u8], src: &[u8], mask: u8) {
    assert_eq!(dst.len(), src.len(), "select_into: length mismatch");
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= mask & (*d ^ *s);
    }
}

/// Copies a secret byte array returned by value into `dst` and wipes the array (for
/// example a packed secret polynomial or a hash of secrets written into part of a
/// larger buffer). Best effort, as all wiping here: copies the compiler makes while
/// moving the array are not reached.
///
/// # Panics
/// When `dst.len() != N` (a bug in the caller: every call site passes a slice of a
/// fixed-size buffer whose length the types fix).
pub fn copy_then_wipe<const N: usize>(dst: &mut [u8], mut src: [u8; N]) {
    use zeroize::Zeroize;
    dst.copy_from_slice(&src);
    src.zeroize();
}

/// A heap copy of the secret bytes `bytes`, written into a zeroed box in place, so
/// that the copy leaves no other copy on the stack (a `Box::new(*bytes)` may build the
/// array on the stack first). For secret keys that a key type holds in a box.
pub(crate) fn boxed_copy<const N: usize>(bytes: &[u8; N]) -> Box<[u8; N]> {
    let mut b = Box::new([0u8; N]);
    b.copy_from_slice(bytes);
    b
}

/// Overwrites every byte of `v`'s allocation (its elements and its spare capacity)
/// with zeros and empties it: `zeroize`'s slice path (one bulk write and an
/// optimization barrier) instead of its `Vec` impl, which stores one element at a
/// time. For secret byte strings held in a `Vec` (encoded secret keys).
pub fn wipe_vec(v: &mut Vec<u8>) {
    use zeroize::Zeroize;
    v.spare_capacity_mut().zeroize();
    v[..].zeroize();
    v.clear();
}

/// Declares `bytes` public although they were computed from secrets, because the
/// scheme publishes them (for example ML-KEM's ρ, which is part of the encapsulation
/// key, or the verdict of a key check). A no-op in normal builds; with the `ctgrind`
/// feature it tells valgrind memcheck the bytes are defined, so the constant-time
/// harness does not report branches on them. Every call site says why the value is
/// public.
#[inline(always)]
pub fn declassify(bytes: &[u8]) {
    #[cfg(feature = "ctgrind")]
    crate::valgrind::mark_public(bytes);
    #[cfg(not(feature = "ctgrind"))]
    let _ = bytes;
}

/// [`declassify`] for one value: returns `x`, read back from memory after it was
/// declared public, so a branch on the result is a branch on a public value. (Read
/// through an escaped reference: given the value itself, the compiler may return an
/// earlier copy that memcheck still sees as secret.)
#[inline(always)]
pub fn declassify_u32(x: u32) -> u32 {
    let mut bytes = x.to_ne_bytes();
    declassify(&bytes);
    u32::from_ne_bytes(*black_box(&mut bytes))
}

/// The hygiene every secret-holding type of this crate shares, for types that
/// implement [`zeroize::Zeroize`] (wiping their secret parts) and
/// [`subtle::ConstantTimeEq`]: `Drop` wipes, [`zeroize::ZeroizeOnDrop`] says so, and
/// `==` is the constant-time comparison (`PartialEq`, `Eq`). Each type writes its own
/// `Zeroize`, `ConstantTimeEq` and secret-free `Debug`.
macro_rules! secret_hygiene {
    ($($t:ty),+ $(,)?) => {$(
        impl Drop for $t {
            fn drop(&mut self) {
                zeroize::Zeroize::zeroize(self);
            }
        }

        impl zeroize::ZeroizeOnDrop for $t {}

        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                let equal: bool = subtle::ConstantTimeEq::ct_eq(self, other).into();
                if $crate::plant::active("secret-eq-branches-on-the-verdict")
                    && core::hint::black_box(equal)
                {
                    // Planted: a branch on the secret comparison.
                    core::hint::black_box(0u8);
                }
                equal
            }
        }

        impl Eq for $t {}
    )+};
}
pub(crate) use secret_hygiene;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq_mask_all_single_byte_pairs() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(eq_mask(&[a], &[b]), if a == b { 0xff } else { 0 });
            }
        }
        assert_eq!(eq_mask(&[1, 2], &[1]), 0);
    }

    #[test]
    fn select_into_picks_by_mask() {
        let mut d = [1u8, 2, 3];
        select_into(&mut d, &[9, 9, 9], 0);
        assert_eq!(d, [1, 2, 3]);
        select_into(&mut d, &[9, 8, 7], 0xff);
        assert_eq!(d, [9, 8, 7]);
    }
}
