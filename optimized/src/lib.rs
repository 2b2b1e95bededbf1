//! # refopt optimized tier
//!
//! The "after" kernels of each optimization, implementing the reference crate's
//! `Kernels` traits, so the protocol code that runs them is the very code that runs
//! the reference kernels.

pub mod mlkem;
