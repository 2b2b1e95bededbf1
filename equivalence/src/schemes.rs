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

/// A scheme or variant name `refopt kat` does not know. `Display` lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnknownName {
    /// No scheme has this name.
    Scheme {
        /// The name asked for.
        scheme: String,
        /// Every scheme's name.
        known: Vec<&'static str>,
    },
    /// The scheme has no variant of this name.
    Variant {
        /// The scheme.
        scheme: &'static str,
        /// The variant asked for.
        variant: String,
        /// The scheme's variants.
        known: &'static [&'static str],
    },
}

impl core::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UnknownName::Scheme { scheme, known } => {
                write!(f, "unknown scheme `{scheme}` (known: {})", known.join(", "))
            }
            UnknownName::Variant {
                scheme,
                variant,
                known,
            } => write!(
                f,
                "unknown variant `{variant}` for {scheme} (known: {})",
                known.join(", ")
            ),
        }
    }
}

impl std::error::Error for UnknownName {}

/// Looks up a scheme and variant (`None`: the scheme's default variant).
///
/// # Errors
/// [`UnknownName`] when the scheme or the variant is not known.
pub fn kat_kem(scheme: &str, variant: Option<&str>) -> Result<Box<dyn KatKem>, UnknownName> {
    let all = kat_schemes();
    let s = all
        .iter()
        .find(|s| s.name == scheme)
        .ok_or_else(|| UnknownName::Scheme {
            scheme: scheme.to_owned(),
            known: all.iter().map(|s| s.name).collect(),
        })?;
    let v = variant.unwrap_or(s.variants[0]);
    (s.make)(v).ok_or_else(|| UnknownName::Variant {
        scheme: s.name,
        variant: v.to_owned(),
        known: s.variants,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unknown scheme or variant is a typed error listing the known names; a known
    /// one (or the default variant) is found.
    #[test]
    fn unknown_names_are_typed_and_list_the_known_ones() {
        assert!(kat_kem("ml-kem-768", None).is_ok());
        match kat_kem("ml-kem-769", None) {
            Err(e @ UnknownName::Scheme { .. }) => {
                assert!(e.to_string().contains("ml-kem-768"), "{e}");
            }
            other => panic!("{:?}", other.err()),
        }
        let first = kat_schemes()[0];
        match kat_kem(first.name, Some("no-such-variant")) {
            Err(UnknownName::Variant {
                scheme,
                variant,
                known,
            }) => {
                assert_eq!(scheme, first.name);
                assert_eq!(variant, "no-such-variant");
                assert_eq!(known, first.variants);
            }
            other => panic!("{:?}", other.err()),
        }
    }
}
