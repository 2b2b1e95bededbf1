//! # refopt lab
//!
//! The pair [`registry`], the input generator ([`input`]), NIST KAT generation
//! ([`kat`]), the official-vector locator ([`vectors`]) and one module per scheme with
//! its pairs and variants. The `refopt` binary drives all of it.

pub mod ed25519;
pub mod input;
pub mod kat;
pub mod mlkem;
pub mod ntruhps2048509;
pub mod registry;
pub mod schemes;
pub mod sntrup761;
pub mod vectors;
