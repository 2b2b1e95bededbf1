//! ed25519: not yet implemented in this tree.
