//! ed25519 optimized kernels: not yet implemented in this tree.
