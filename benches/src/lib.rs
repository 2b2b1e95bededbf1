//! Shared helpers for the refopt benchmarks.

pub mod ntruhps2048509;
pub mod sntrup761;
