//! ntruhps2048509: not yet implemented in this tree.
