//! Helpers shared by the ML-KEM vector tests (`tests/mlkem_*.rs`).

#![allow(
    dead_code,
    reason = "each test binary uses a different subset of these helpers"
)]

use equivalence::vectors;
use reference::mlkem::{ML_KEM_512, ML_KEM_768, ML_KEM_1024, Params};
use serde_json::Value;

/// The parameter set named `ML-KEM-512`, `ML-KEM-768` or `ML-KEM-1024`.
pub(crate) fn params(name: &str) -> &'static Params {
    match name {
        "ML-KEM-512" => &ML_KEM_512,
        "ML-KEM-768" => &ML_KEM_768,
        "ML-KEM-1024" => &ML_KEM_1024,
        other => panic!("unknown ML-KEM parameter set {other:?}"),
    }
}

/// Parses the JSON file `rel` of a fetched vector suite.
pub(crate) fn json(files: &vectors::Vectors, rel: &str) -> Value {
    let text = files.read_to_string(rel);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel}: invalid JSON: {e}"))
}

/// `v[key]` as an array, naming `ctx` if it is not one.
pub(crate) fn array<'a>(v: &'a Value, key: &str, ctx: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{ctx}: field {key:?} is missing or not an array"))
}

/// `v[key]` as a string, naming `ctx` if it is not one.
pub(crate) fn string<'a>(v: &'a Value, key: &str, ctx: &str) -> &'a str {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{ctx}: field {key:?} is missing or not a string"))
}

/// `v[key]` as an unsigned integer, naming `ctx` if it is not one.
pub(crate) fn uint(v: &Value, key: &str, ctx: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("{ctx}: field {key:?} is missing or not an integer"))
}

/// `v[key]` decoded from hex, naming `ctx` if it is missing.
pub(crate) fn hex(v: &Value, key: &str, ctx: &str) -> Vec<u8> {
    vectors::unhex(string(v, key, ctx))
}

/// A 32-byte field, naming `ctx` if it has another length.
pub(crate) fn arr32(bytes: &[u8], what: &str, ctx: &str) -> [u8; 32] {
    bytes
        .try_into()
        .unwrap_or_else(|_| panic!("{ctx}: {what} has {} bytes, not 32", bytes.len()))
}

/// Asserts `ours == want`, reporting the field, the case and the first differing byte.
pub(crate) fn same(ours: &[u8], want: &[u8], field: &str, ctx: &str) {
    if ours == want {
        return;
    }
    let first = ours
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(want.len()));
    panic!(
        "{ctx}: {field} differs: ours {} bytes, expected {} bytes, first difference at byte {first}\n  ours:     {}\n  expected: {}",
        ours.len(),
        want.len(),
        short_hex(ours, first),
        short_hex(want, first),
    );
}

/// Up to 32 bytes of `b` in hex, starting a little before `at`.
fn short_hex(b: &[u8], at: usize) -> String {
    let start = at.saturating_sub(4).min(b.len());
    let end = (start + 32).min(b.len());
    format!("[{start}..{end}] {}", ::hex::encode(&b[start..end]))
}
