//! sntrup761 optimized kernels: not yet implemented in this tree.
