//! sntrup761 benchmark helpers: the variants behind one interface, and an adapter
//! that lets the `sntrup761` crate read one of our random sources.

use reference::RandomSource;
use reference::sntrup761::{self as r, KeyPair, Reference};

use optimized::sntrup761::{BatchedRng, Optimized};

/// The variants, in patch order, with their benchmark names.
pub const VARIANTS: [&str; 3] = ["reference", "batched-rng", "optimized"];

/// KEM_KeyGen of the named variant.
///
/// # Panics
/// On an unknown variant name.
pub fn keypair(variant: &str, rng: &mut dyn RandomSource) -> KeyPair {
    match variant {
        "reference" => r::keypair::<Reference, _>(rng),
        "batched-rng" => r::keypair::<BatchedRng, _>(rng),
        "optimized" => r::keypair::<Optimized, _>(rng),
        _ => panic!("unknown variant {variant}"),
    }
}

/// KEM_Encap of the named variant.
///
/// # Panics
/// On an unknown variant name or a public key of the wrong length.
pub fn encapsulate(variant: &str, pk: &[u8], rng: &mut dyn RandomSource) -> (Vec<u8>, [u8; 32]) {
    match variant {
        "reference" => r::encapsulate::<Reference, _>(pk, rng),
        "batched-rng" => r::encapsulate::<BatchedRng, _>(pk, rng),
        "optimized" => r::encapsulate::<Optimized, _>(pk, rng),
        _ => panic!("unknown variant {variant}"),
    }
    .expect("a 1158-byte public key")
}

/// KEM_Decap of the named variant.
///
/// # Panics
/// On an unknown variant name or inputs of the wrong length.
pub fn decapsulate(variant: &str, sk: &[u8], ct: &[u8]) -> [u8; 32] {
    match variant {
        "reference" => r::decapsulate::<Reference>(sk, ct),
        "batched-rng" => r::decapsulate::<BatchedRng>(sk, ct),
        "optimized" => r::decapsulate::<Optimized>(sk, ct),
        _ => panic!("unknown variant {variant}"),
    }
    .expect("right lengths")
}

pub use equivalence::sntrup761::SameStream;
