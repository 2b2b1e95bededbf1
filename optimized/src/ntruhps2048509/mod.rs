//! ntruhps2048509 optimized kernels: not yet implemented in this tree.
