//! sntrup761 pairs and variants.

use crate::registry::Pair;
use crate::schemes::KatScheme;

/// Every sntrup761 pair.
pub static PAIRS: &[&dyn Pair] = &[];

/// The sntrup761 schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[];
