//! ed25519 pairs and variants.

use crate::registry::Pair;
use crate::schemes::KatScheme;

/// Every ed25519 pair.
pub static PAIRS: &[&dyn Pair] = &[];

/// The ed25519 schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[];
