//! # refopt lab
//!
//! The pair API ([`pair`]: what an optimization provides), the [`registry`] of the
//! five optimizations' pairs and the loop that checks them, NIST KAT generation
//! ([`kat`]), the official vectors ([`vectors`]), the bodies of the cargo-fuzz targets
//! ([`fuzz`]), one module per scheme with its pairs and variants, and the proof
//! obligations ([`prove`]). The `refopt` binary drives all of it.

// The lab turns public test inputs into structured values; `/` and `%` here never
// touch secrets. The lint stays enforced in `reference` and `optimized`.
#![allow(clippy::integer_division_remainder_used)]

pub mod cli;
pub mod divscan;
pub mod ed25519;
pub mod fuzz;
pub mod kat;
pub mod mlkem;
pub mod ntruhps2048509;
pub mod pair;
pub mod prove;
pub mod registry;
pub mod regressions;
pub mod schemes;
pub mod simd;
pub mod sntrup761;
pub mod testing;
pub mod tool;
pub mod vectors;
