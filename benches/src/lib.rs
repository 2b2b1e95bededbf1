//! Shared helpers for the refopt benchmarks.
