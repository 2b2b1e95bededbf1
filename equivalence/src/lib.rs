//! # refopt lab
//!
//! The pair [`registry`], the input generator ([`input`]), NIST KAT generation
//! ([`kat`]), the official-vector locator ([`vectors`]), one module per scheme with
//! its pairs and variants, and the proof obligations ([`prove`]). The `refopt` binary
//! drives all of it.

// The lab turns public test inputs into structured values; `/` and `%` here never
// touch secrets. The lint stays enforced in `reference` and `optimized`.
#![allow(clippy::integer_division_remainder_used)]

pub mod ed25519;
pub mod input;
pub mod kat;
pub mod mlkem;
pub mod ntruhps2048509;
pub mod prove;
pub mod registry;
pub mod schemes;
pub mod sntrup761;
pub mod vectors;
