//! Which schemes and variants `refopt kat` knows (the aggregation; the types are in
//! [`crate::kat`]).

use crate::kat::{KatKem, KatScheme};

/// Every scheme `refopt kat` can run.
pub fn kat_schemes() -> Vec<&'static KatScheme> {
    let mut all: Vec<&'static KatScheme> = Vec::new();
    all.extend(crate::mlkem::KAT_SCHEMES);
    all.extend(crate::sntrup761::KAT_SCHEMES);
    all.extend(crate::ntruhps2048509::KAT_SCHEMES);
    all
}

/// Looks up a scheme and variant.
///
/// # Errors
/// A message listing what is known when the scheme or variant is not.
pub fn kat_kem(scheme: &str, variant: Option<&str>) -> Result<Box<dyn KatKem>, String> {
    let all = kat_schemes();
    let s = all.iter().find(|s| s.name == scheme).ok_or_else(|| {
        let names: Vec<_> = all.iter().map(|s| s.name).collect();
        format!("unknown scheme `{scheme}` (known: {})", names.join(", "))
    })?;
    let v = variant.unwrap_or(s.variants[0]);
    (s.make)(v).ok_or_else(|| {
        format!(
            "unknown variant `{v}` for {scheme} (known: {})",
            s.variants.join(", ")
        )
    })
}
