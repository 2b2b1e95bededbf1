//! sntrup761: not yet implemented in this tree.
