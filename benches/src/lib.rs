//! Shared helpers for the refopt benchmarks.

pub mod sntrup761;
