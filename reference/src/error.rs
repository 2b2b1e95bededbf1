//! Typed errors shared by every scheme.

use core::fmt;

/// What went wrong with an input handed to a public function.
///
/// Inputs that the scheme itself defines an answer for (an ML-KEM ciphertext that does
/// not decrypt, an sntrup761 ciphertext that fails re-encryption) are *not* errors:
/// they get the scheme's implicit rejection. Errors are for inputs that the
/// specification says must be refused before any secret is touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A byte string had the wrong length.
    InvalidLength {
        /// Which input, by its role and without the scheme's name, which the caller
        /// knows: `"encapsulation key"` (ML-KEM), `"secret key"` (sntrup761, NTRU),
        /// `"seed"` (Ed25519's 32-byte private key), `"signature"` (Ed25519).
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length that was supplied.
        got: usize,
    },
    /// An ML-KEM encapsulation key holds a coefficient that is not reduced mod q
    /// (FIPS 203, section 7.2, "modulus check").
    ModulusCheck,
    /// An ML-KEM decapsulation key's stored H(ek) does not match SHA3-256 of its
    /// embedded encapsulation key (FIPS 203, section 7.3, "hash check").
    HashCheck,
    /// An encoding is not canonical or decodes outside the scheme's domain.
    InvalidEncoding {
        /// Which input, named as for [`Error::InvalidLength`].
        what: &'static str,
    },
    /// A signature does not verify under the rules of the verification function
    /// called (Ed25519 `verify` or `verify_strict`): S not canonical, a public key or
    /// R that does not decode (or, in strict mode, has small order), or the
    /// verification equation fails. One variant for all of them, as ed25519-dalek's
    /// `SignatureError`, so that `verify(..)?` rejects every bad signature.
    InvalidSignature,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLength {
                what,
                expected,
                got,
            } => write!(f, "{what}: expected {expected} bytes, got {got}"),
            Error::ModulusCheck => {
                f.write_str("encapsulation key fails the modulus check (a coefficient is >= q)")
            }
            Error::HashCheck => {
                f.write_str("decapsulation key fails the hash check (stored H(ek) is wrong)")
            }
            Error::InvalidEncoding { what } => write!(f, "{what}: invalid encoding"),
            Error::InvalidSignature => f.write_str("signature does not verify"),
        }
    }
}

impl std::error::Error for Error {}

/// Returns `Ok(())` when `bytes` has exactly `expected` bytes.
///
/// # Errors
/// [`Error::InvalidLength`] naming `what` otherwise.
pub fn check_length(what: &'static str, bytes: &[u8], expected: usize) -> Result<(), Error> {
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(Error::InvalidLength {
            what,
            expected,
            got: bytes.len(),
        })
    }
}
