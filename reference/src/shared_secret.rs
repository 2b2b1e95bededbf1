//! The 32-byte shared secret that the three KEMs' encapsulation and decapsulation
//! return.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

/// A KEM shared secret (session key): 32 bytes, the same length in ML-KEM, sntrup761
/// and NTRU-HPS-2048-509.
///
/// Wiped when dropped ([`zeroize::ZeroizeOnDrop`]); `Debug` prints its length, never
/// its bytes; `==` compares in constant time ([`ConstantTimeEq`]). Read the bytes with
/// [`SharedSecret::as_bytes`]. Wiping is best effort, as everywhere in this crate:
/// copies the compiler makes when the value is moved are not reached.
#[derive(Clone)]
pub struct SharedSecret([u8; SharedSecret::LEN]);

impl SharedSecret {
    /// Length in bytes.
    pub const LEN: usize = 32;

    /// The secret's bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8; Self::LEN] {
        &self.0
    }

    /// Copies `bytes` and wipes them: for the scheme code, whose hash outputs arrive
    /// as arrays.
    pub(crate) fn take(bytes: &mut [u8; Self::LEN]) -> Self {
        let out = Self(*bytes);
        bytes[..].zeroize();
        out
    }
}

impl From<[u8; SharedSecret::LEN]> for SharedSecret {
    /// Takes the bytes as they are (moving the array may leave a copy behind: wipe the
    /// caller's own copy if it has one).
    fn from(bytes: [u8; SharedSecret::LEN]) -> Self {
        Self(bytes)
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Zeroize for SharedSecret {
    fn zeroize(&mut self) {
        self.0[..].zeroize();
    }
}

crate::ct::secret_hygiene!(SharedSecret);

impl ConstantTimeEq for SharedSecret {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SharedSecret(<{} secret bytes>)", Self::LEN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_bytes() {
        let ss = SharedSecret::from([0xab; 32]);
        let shown = format!("{ss:?}");
        assert_eq!(shown, "SharedSecret(<32 secret bytes>)");
    }

    #[test]
    fn eq_compares_every_byte_and_zeroize_clears() {
        let a = SharedSecret::from([7; 32]);
        for i in 0..32 {
            let mut bytes = [7; 32];
            bytes[i] ^= 1;
            assert_ne!(a, SharedSecret::from(bytes));
        }
        let mut b = a.clone();
        assert_eq!(a, b);
        b.zeroize();
        assert_eq!(b.as_bytes(), &[0; 32]);
        assert_eq!(a.as_ref(), &[7; 32][..]);
    }

    #[test]
    fn take_wipes_the_source() {
        let mut bytes = [9; 32];
        let ss = SharedSecret::take(&mut bytes);
        assert_eq!(bytes, [0; 32]);
        assert_eq!(ss.as_bytes(), &[9; 32]);
    }
}
