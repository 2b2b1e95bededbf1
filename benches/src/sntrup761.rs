//! sntrup761 benchmark helpers: the adapter that lets the `sntrup761` crate read one of
//! our random sources. The variants themselves are `equivalence::sntrup761::Variant`.

pub use equivalence::sntrup761::SameStream;
