//! # refopt reference tier
//!
//! Each scheme's protocol layer is written once here, generic over that scheme's
//! `Kernels` trait, together with the reference kernels: the code as it was *before*
//! the optimization under study. The `optimized` crate implements the same traits with
//! the code *after* it, and the `equivalence` crate compares the two.
//!
//! Common parts: [`error`], [`SharedSecret`] (what the three KEMs' encapsulation and
//! decapsulation return), [`ct`] (constant-time helpers), [`rng`] (caller-supplied
//! randomness), [`drbg`] (NIST's KAT generator), [`shake`] (the SHAKE wrappers),
//! [`keccak_x4`] (four Keccak-f\[1600\] permutations at once, for ML-KEM's sampling)
//! and [`plant`] (the lab's planted bugs, compiled out without the `plant` feature).
//!
//! | module | scheme | optimization |
//! |---|---|---|
//! | [`mlkem`] | ML-KEM-512/768/1024 (FIPS 203) | k instead of k² inverse NTTs in K-PKE.Encrypt |
//! | [`sntrup761`] | Streamlined NTRU Prime sntrup761 (the `sntrup761` C code libgcrypt carries) | one 3044-byte draw per random polynomial (libgcrypt patch 06); deferred reduction in `Rq_mult_small`, `R3_mult` (patch 07) |
//! | [`ntruhps2048509`] | NTRU-HPS-2048-509 (the NIST round-3 submission) | `poly_R2_inv` by an addition chain with carry-less Karatsuba (jschanck/ntru #5) |
//! | [`ed25519`] | Ed25519 (RFC 8032), libgcrypt's `mpi/ec.c` field layer | `ec_mulm_25519` by one multiply-accumulate by 19 |

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
mod shared_secret;
pub mod sntrup761;
#[cfg(feature = "ctgrind")]
pub mod valgrind;

pub use error::Error;
pub use shared_secret::SharedSecret;

/// CI's proof that the contract type-check can fail: this contract compares a `bool`
/// result with an integer, so `--cfg hax --cfg refopt_contract_selftest` must not
/// compile (`.ci/run`); without `--cfg hax` the contract is erased and it does.
#[cfg(refopt_contract_selftest)]
#[hax_lib::ensures(|r| r == 1u8)]
pub fn contract_selftest() -> bool {
    true
}
pub use rng::RandomSource;
