//! # refopt reference tier
//!
//! Each scheme's protocol layer is written once here, generic over that scheme's
//! `Kernels` trait, together with the reference kernels: the code as it was *before*
//! the optimization under study. The `optimized` crate implements the same traits with
//! the code *after* it, and the `equivalence` crate compares the two.
//!
//! Common parts used by every scheme: [`error`], [`ct`] (constant-time helpers),
//! [`rng`] (caller-supplied randomness) and [`drbg`] (NIST's KAT generator).
//!
//! | module | scheme | optimization |
//! |---|---|---|
//! | [`mlkem`] | ML-KEM-512/768/1024 (FIPS 203) | k instead of k² inverse NTTs in K-PKE.Encrypt |

// Test oracles may divide; the library build still checks production code.
#![cfg_attr(test, allow(clippy::integer_division_remainder_used))]

pub mod ct;
pub mod drbg;
pub mod ed25519;
pub mod error;
pub mod keccak_x4;
pub mod mlkem;
pub mod ntruhps2048509;
pub mod plant;
pub mod rng;
pub mod shake;
pub mod sntrup761;
#[cfg(feature = "ctgrind")]
pub mod valgrind;

pub use error::Error;

/// CI's proof that the contract type-check can fail: this contract compares a `bool`
/// result with an integer, so `--cfg hax --cfg refopt_contract_selftest` must not
/// compile (`.ci/run`); without `--cfg hax` the contract is erased and it does.
#[cfg(refopt_contract_selftest)]
#[hax_lib::ensures(|r| r == 1u8)]
pub fn contract_selftest() -> bool {
    true
}
pub use rng::RandomSource;
