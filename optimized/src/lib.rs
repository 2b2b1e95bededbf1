//! # refopt optimized tier
//!
//! The "after" kernels of each optimization, implementing the reference crate's
//! `Kernels` traits, so the protocol code that runs them is the very code that runs
//! the reference kernels.

pub mod ed25519;
pub mod mlkem;
pub mod ntruhps2048509;
pub mod sntrup761;
