//! ntruhps2048509 pairs and variants.

use crate::registry::Pair;
use crate::schemes::KatScheme;

/// Every ntruhps2048509 pair.
pub static PAIRS: &[&dyn Pair] = &[];

/// The ntruhps2048509 schemes `refopt kat` runs.
pub static KAT_SCHEMES: &[&KatScheme] = &[];
