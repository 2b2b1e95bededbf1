//! Locating the official test vectors.
//!
//! Tests read vectors from `../shared/vectors` beside the checkout, or from the
//! directory named by `REFOPT_VECTORS`. A test that needs them and cannot find them
//! fails with a message that says where it looked: it never passes silently.

use std::path::{Path, PathBuf};

/// The vectors directory: `$REFOPT_VECTORS`, else `../shared/vectors` from the
/// workspace root.
///
/// # Panics
/// If neither exists, with a message naming both places.
pub fn dir() -> PathBuf {
    if let Some(p) = std::env::var_os("REFOPT_VECTORS") {
        let p = PathBuf::from(p);
        assert!(
            p.is_dir(),
            "REFOPT_VECTORS={} is not a directory: the official test vectors are missing",
            p.display()
        );
        return p;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let p = root.join("../shared/vectors");
    assert!(
        p.is_dir(),
        "official test vectors not found at {} (set REFOPT_VECTORS to their directory)",
        p.display()
    );
    p
}

/// The path of `rel` inside the vectors directory.
///
/// # Panics
/// If the file does not exist, naming it.
pub fn path(rel: &str) -> PathBuf {
    let p = dir().join(rel);
    assert!(p.exists(), "test vector file missing: {}", p.display());
    p
}

/// The contents of `rel` inside the vectors directory, as text.
///
/// # Panics
/// If the file is missing or unreadable, naming it.
pub fn read_to_string(rel: &str) -> String {
    let p = path(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

/// Decodes hex, upper or lower case.
///
/// # Panics
/// On invalid hex, naming the context: vector files are trusted data.
pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).unwrap_or_else(|e| panic!("bad hex in test vector ({e}): {s:.40}"))
}
