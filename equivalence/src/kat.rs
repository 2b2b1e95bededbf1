//! NIST `PQCgenKAT_kem` response files.
//!
//! The driver initialises an outer AES-256-CTR-DRBG with entropy `00 01 .. 2f`; for
//! each count it draws a 48-byte seed, re-initialises the DRBG with it, and runs
//! keypair, enc and dec, all drawing from that DRBG. The file is a `# <name>` line, a
//! blank line, then for counts 0..99 the lines `count`, `seed`, `pk`, `sk`, `ct`, `ss`
//! (uppercase hex) and a blank line.

use std::fmt::Write as _;
use std::io::{self, Write};

use reference::drbg::NistDrbg;
use reference::{Error, RandomSource};

/// A KEM as the NIST driver sees it: `crypto_kem_keypair`, `_enc`, `_dec`.
pub trait KatKem {
    /// `CRYPTO_ALGNAME`, printed on the first line.
    fn algname(&self) -> &'static str;
    /// `crypto_kem_keypair`: (pk, sk).
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>);
    /// `crypto_kem_enc`: (ct, ss).
    ///
    /// # Errors
    /// The scheme's error for a public key it refuses (a wrong length; for ML-KEM the
    /// modulus check).
    fn enc(&self, pk: &[u8], rng: &mut dyn RandomSource) -> Result<(Vec<u8>, Vec<u8>), Error>;
    /// `crypto_kem_dec`: ss. A ciphertext of the right length always gives a secret
    /// (implicit rejection).
    ///
    /// # Errors
    /// The scheme's error for a secret key or ciphertext it refuses (a wrong length;
    /// for ML-KEM the hash check).
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error>;
}

/// One entry of a response file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `count`.
    pub count: usize,
    /// `seed` (48 bytes).
    pub seed: [u8; 48],
    /// `pk`.
    pub pk: Vec<u8>,
    /// `sk`.
    pub sk: Vec<u8>,
    /// `ct`.
    pub ct: Vec<u8>,
    /// `ss`.
    pub ss: Vec<u8>,
}

impl Entry {
    /// The six lines of the entry, each ending in `\n`, without the blank line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "count = {}", self.count);
        let _ = writeln!(s, "seed = {}", hex::encode_upper(self.seed));
        let _ = writeln!(s, "pk = {}", hex::encode_upper(&self.pk));
        let _ = writeln!(s, "sk = {}", hex::encode_upper(&self.sk));
        let _ = writeln!(s, "ct = {}", hex::encode_upper(&self.ct));
        let _ = writeln!(s, "ss = {}", hex::encode_upper(&self.ss));
        s
    }
}

/// The NIST driver's entries, in order, as an iterator (count 0 first). An entry whose
/// decapsulated secret differs from the encapsulated one, or whose own key or
/// ciphertext the scheme refuses, is an `Err` naming its count ([`KatError`]):
/// `PQCgenKAT_kem` aborts there, and so must every caller.
pub fn entries(kem: &dyn KatKem, n: usize) -> impl Iterator<Item = Result<Entry, KatError>> + '_ {
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    let mut outer = NistDrbg::new(&entropy, None);
    (0..n).map(move |count| {
        let mut seed = [0u8; 48];
        outer.randombytes(&mut seed);
        let mut drbg = NistDrbg::new(&seed, None);
        let (pk, sk) = kem.keypair(&mut drbg);
        let refused = |step, error| KatError::Refused { count, step, error };
        let (ct, ss) = kem.enc(&pk, &mut drbg).map_err(|e| refused("enc", e))?;
        let ss_dec = kem.dec(&sk, &ct).map_err(|e| refused("dec", e))?;
        if ss_dec != ss {
            return Err(KatError::Mismatch { count });
        }
        Ok(Entry {
            count,
            seed,
            pk,
            sk,
            ct,
            ss,
        })
    })
}

/// Why the driver stopped at an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KatError {
    /// Decapsulation did not return the encapsulated secret.
    Mismatch {
        /// The entry's `count`.
        count: usize,
    },
    /// The scheme refused its own key or ciphertext.
    Refused {
        /// The entry's `count`.
        count: usize,
        /// `"enc"` or `"dec"`.
        step: &'static str,
        /// The scheme's error.
        error: Error,
    },
}

impl KatError {
    /// The `count` of the entry the driver stopped at.
    pub fn count(&self) -> usize {
        match *self {
            KatError::Mismatch { count } | KatError::Refused { count, .. } => count,
        }
    }
}

impl std::fmt::Display for KatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KatError::Mismatch { count } => write!(
                f,
                "count = {count}: crypto_kem_dec returned a different shared secret than crypto_kem_enc"
            ),
            KatError::Refused { count, step, error } => write!(
                f,
                "count = {count}: crypto_kem_{step} refused the entry's own input: {error}"
            ),
        }
    }
}

impl std::error::Error for KatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KatError::Mismatch { .. } => None,
            KatError::Refused { error, .. } => Some(error),
        }
    }
}

/// Writes the full response file (counts 0..99).
///
/// # Errors
/// I/O errors from `out`; an entry whose decapsulation disagrees or whose own input is
/// refused stops the file there with an error of kind [`io::ErrorKind::InvalidData`]
/// wrapping a [`KatError`].
pub fn write_response_file(kem: &dyn KatKem, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# {}\n", kem.algname())?;
    for e in entries(kem, 100) {
        let e = e.map_err(|k| io::Error::new(io::ErrorKind::InvalidData, k))?;
        writeln!(out, "{}", e.to_text())?;
    }
    out.flush()
}

/// SHA-256 of entry `count = 0` as printed (the six lines), in lowercase hex: the value
/// PQClean publishes as `nistkat-sha256`.
///
/// # Errors
/// [`KatError`] when the entry's decapsulation disagrees or its own input is refused.
pub fn kat0_sha256(kem: &dyn KatKem) -> Result<String, KatError> {
    use sha2::Digest;
    let e = first_entry(kem)?;
    Ok(hex::encode(sha2::Sha256::digest(e.to_text().as_bytes())))
}

/// SHA-256 of all 100 entries as the response file prints them, without the
/// `# name` header and its blank line and without the blank line after the last
/// entry, in lowercase hex: the value liboqs publishes as the `all` hash of
/// `tests/KATs/kem/kats.json`.
///
/// # Errors
/// [`KatError`] when an entry's decapsulation disagrees or its own input is refused.
pub fn kat_all_sha256(kem: &dyn KatKem) -> Result<String, KatError> {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for (i, e) in entries(kem, 100).enumerate() {
        if i > 0 {
            h.update(b"\n");
        }
        h.update(e?.to_text().as_bytes());
    }
    Ok(hex::encode(h.finalize()))
}

/// A scheme that `refopt kat` can run, with its variants.
pub struct KatScheme {
    /// Command-line name, for example `ml-kem-768`.
    pub name: &'static str,
    /// Variant names; the first is the default.
    pub variants: &'static [&'static str],
    /// Builds the KEM for a variant name (`None` when the variant is unknown).
    pub make: fn(variant: &str) -> Option<Box<dyn KatKem>>,
}

/// A published hash of a NIST KAT response file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedKat {
    /// The `refopt kat` scheme name.
    pub scheme: &'static str,
    /// The variants that must reproduce this file (their draw convention).
    pub variants: &'static [&'static str],
    /// SHA-256 of entry `count = 0` ([`kat0_sha256`]).
    pub count0_sha256: &'static str,
    /// SHA-256 of all 100 entries ([`kat_all_sha256`]), where one is published.
    pub all_sha256: Option<&'static str>,
    /// Where the hashes come from.
    pub source: &'static str,
}

/// The published KAT hashes every variant of every scheme is checked against (facts
/// from outside the project; no vector file is needed).
pub const PUBLISHED: &[PublishedKat] = &[
    PublishedKat {
        scheme: "ml-kem-512",
        variants: &["reference", "optimized"],
        count0_sha256: "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782",
        all_sha256: Some("74b470e797cbdbd589a31d387d36c72aad5033446ab5159bf4014c24652b1173"),
        source: LIBOQS,
    },
    PublishedKat {
        scheme: "ml-kem-768",
        variants: &["reference", "optimized"],
        count0_sha256: "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3",
        all_sha256: Some("e5d6911117c708d8342702db222f66bef5ac5b0314fb8bc36eb22a536c9b34fb"),
        source: LIBOQS,
    },
    PublishedKat {
        scheme: "ml-kem-1024",
        variants: &["reference", "optimized"],
        count0_sha256: "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6",
        all_sha256: Some("81d1ae0468f62154885b6f2a293c0eb48f9339645357a88bbbc186c57ab0ace0"),
        source: LIBOQS,
    },
    PublishedKat {
        scheme: "ntruhps2048509",
        variants: &["reference", "before", "optimized", "optimized-portable"],
        count0_sha256: "fc314366fbe795e2db6d29abb9f5b2ff43f0f608d0bd66161f9450364f0d271b",
        all_sha256: Some("d204a151fd8d10e0f6fe484d55362d779fbcb468ac5ae2cd18409b1fd76b4641"),
        source: LIBOQS,
    },
    PublishedKat {
        scheme: "sntrup761",
        variants: &["batched-rng", "optimized"],
        count0_sha256: "afc42c3a5b10f4ef69654250097ebda9b9564570f4086744b24a6daf2bd1f89a",
        all_sha256: Some("36e1e53d4e6e295e8fb804449958ad9a3719aa350e91933c65791b9117382d57"),
        source: "liboqs tests/KATs/kem/kats.json (bulk draws: one 3044-byte call per polynomial), PQClean META.yml nistkat-sha256",
    },
    PublishedKat {
        scheme: "sntrup761",
        variants: &["reference"],
        count0_sha256: "2eba10673b9077530ba9c063d22f2534e415a6da42985c333c6baee133cc0ff1",
        all_sha256: None,
        source: "entry count = 0 of the NTRU Prime reference KAT (urandom32 draws: 761 calls of 4 bytes), as in bcgit/bc-test-data e619a6e4; \
                 no hash of the 100 entries is published: they are checked against the `sntrup761` crate, which draws the same way",
    },
];

const LIBOQS: &str = "liboqs tests/KATs/kem/kats.json (`single` = count 0, `all` = 100 entries), PQClean META.yml nistkat-sha256";

/// A parsed NIST KAT response file: the `# name` header (absent in a count-0 extract)
/// and the entries in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The name after `# ` on the first line, if the file has one.
    pub algname: Option<String>,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
}

/// Why a response file was refused, and on which (1-based) line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number (0: the end of the text).
    pub line: usize,
    /// What is wrong there.
    pub kind: ParseErrorKind,
}

/// What is wrong with a response file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A line that is not `name = value` (nor blank, nor the `# name` header).
    NotAField,
    /// A field other than the one expected at this point (`count`, `seed`, `pk`,
    /// `sk`, `ct`, `ss`, in this order).
    UnexpectedField {
        /// The field the format requires here.
        expected: &'static str,
        /// The field found.
        found: String,
    },
    /// `count` is not a decimal number, or not one more than the previous entry's.
    BadCount,
    /// A value that is not an even number of hex digits.
    BadHex {
        /// The field.
        field: &'static str,
    },
    /// `seed` is not 48 bytes.
    SeedLength {
        /// Its length in bytes.
        got: usize,
    },
    /// The text ends inside an entry.
    Truncated {
        /// The field that is missing.
        expected: &'static str,
    },
    /// The text holds no entry.
    Empty,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            ParseErrorKind::NotAField => f.write_str("not a `name = value` line"),
            ParseErrorKind::UnexpectedField { expected, found } => {
                write!(f, "expected `{expected}`, found `{found}`")
            }
            ParseErrorKind::BadCount => {
                f.write_str("count is not the next decimal number (0, 1, 2, ...)")
            }
            ParseErrorKind::BadHex { field } => {
                write!(f, "{field}: not an even number of hex digits")
            }
            ParseErrorKind::SeedLength { got } => write!(f, "seed: expected 48 bytes, got {got}"),
            ParseErrorKind::Truncated { expected } => {
                write!(f, "the text ends before `{expected}`")
            }
            ParseErrorKind::Empty => f.write_str("no entry"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The fields of an entry, in the order the driver prints them.
const FIELDS: [&str; 6] = ["count", "seed", "pk", "sk", "ct", "ss"];

/// Parses a response file as [`write_response_file`] writes it (or a count-0 extract
/// without the header): entries of six `name = value` lines in the order count, seed,
/// pk, sk, ct, ss, hex values in either case, counts 0, 1, 2, ... in order, blank
/// lines anywhere. The tests read the published count-0 files with it.
///
/// # Errors
/// The first [`ParseError`]: a line that is not a field, a field out of order, a bad
/// count or hex value, a seed that is not 48 bytes, a text that ends inside an entry
/// or holds none.
pub fn parse_response(text: &str) -> Result<Response, ParseError> {
    let mut algname = None;
    let mut entries = Vec::new();
    let mut next = 0usize; // index into FIELDS
    let mut values: Vec<Vec<u8>> = Vec::new();
    let mut count = 0usize;
    let mut seen_field = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('#') {
            if seen_field || algname.is_some() {
                return Err(ParseError {
                    line: n,
                    kind: ParseErrorKind::NotAField,
                });
            }
            algname = Some(name.trim().to_owned());
            continue;
        }
        seen_field = true;
        let err = |kind| ParseError { line: n, kind };
        let (name, value) = line
            .split_once('=')
            .map(|(a, b)| (a.trim(), b.trim()))
            .ok_or(err(ParseErrorKind::NotAField))?;
        let expected = FIELDS[next];
        if name != expected {
            return Err(err(ParseErrorKind::UnexpectedField {
                expected,
                found: name.chars().take(32).collect(),
            }));
        }
        if next == 0 {
            let c: usize = value.parse().map_err(|_| err(ParseErrorKind::BadCount))?;
            if c != entries.len() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err(ParseErrorKind::BadCount));
            }
            count = c;
        } else {
            let bytes =
                hex::decode(value).map_err(|_| err(ParseErrorKind::BadHex { field: expected }))?;
            // Planted (`kat-response-skips-the-seed-length`): the check left out, so a
            // wrong-length seed reaches the copy into [u8; 48].
            if next == 1
                && bytes.len() != 48
                && !reference::plant::active("kat-response-skips-the-seed-length")
            {
                return Err(err(ParseErrorKind::SeedLength { got: bytes.len() }));
            }
            values.push(bytes);
        }
        next += 1;
        if next == FIELDS.len() {
            let mut v = core::mem::take(&mut values).into_iter();
            let mut take = || v.next().unwrap_or_default();
            let seed_bytes = take();
            let mut seed = [0u8; 48];
            seed.copy_from_slice(&seed_bytes);
            entries.push(Entry {
                count,
                seed,
                pk: take(),
                sk: take(),
                ct: take(),
                ss: take(),
            });
            next = 0;
        }
    }
    if next != 0 {
        return Err(ParseError {
            line: 0,
            kind: ParseErrorKind::Truncated {
                expected: FIELDS[next],
            },
        });
    }
    if entries.is_empty() {
        return Err(ParseError {
            line: 0,
            kind: ParseErrorKind::Empty,
        });
    }
    Ok(Response { algname, entries })
}

/// Entry `count = 0`.
///
/// # Errors
/// [`KatError`] when the entry's decapsulation disagrees or its own input is refused.
pub fn first_entry(kem: &dyn KatKem) -> Result<Entry, KatError> {
    entries(kem, 1)
        .next()
        .unwrap_or(Err(KatError::Mismatch { count: 0 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A KEM whose decapsulation is wrong from entry 3 on.
    struct BadDec(std::cell::Cell<usize>);
    impl KatKem for BadDec {
        fn algname(&self) -> &'static str {
            "bad"
        }
        fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
            let mut k = vec![0u8; 4];
            rng.fill(&mut k);
            (k.clone(), k)
        }
        fn enc(&self, pk: &[u8], _rng: &mut dyn RandomSource) -> Result<(Vec<u8>, Vec<u8>), Error> {
            Ok((pk.to_vec(), pk.to_vec()))
        }
        fn dec(&self, sk: &[u8], _ct: &[u8]) -> Result<Vec<u8>, Error> {
            self.0.set(self.0.get() + 1);
            let mut ss = sk.to_vec();
            if self.0.get() > 3 {
                ss[0] ^= 1;
            }
            Ok(ss)
        }
    }

    /// A scheme that refuses its own key stops the driver with a typed error naming
    /// the entry and the step (before, the KEMs panicked).
    #[test]
    fn a_refused_input_stops_the_driver_with_its_error() {
        struct Refuses;
        impl KatKem for Refuses {
            fn algname(&self) -> &'static str {
                "refuses"
            }
            fn keypair(&self, _rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
                (Vec::new(), Vec::new())
            }
            fn enc(
                &self,
                _pk: &[u8],
                _rng: &mut dyn RandomSource,
            ) -> Result<(Vec<u8>, Vec<u8>), Error> {
                Err(Error::ModulusCheck)
            }
            fn dec(&self, _sk: &[u8], _ct: &[u8]) -> Result<Vec<u8>, Error> {
                Ok(Vec::new())
            }
        }
        let err = first_entry(&Refuses).expect_err("refused");
        assert_eq!(
            err,
            KatError::Refused {
                count: 0,
                step: "enc",
                error: Error::ModulusCheck
            }
        );
        assert_eq!(err.count(), 0);
        assert!(err.to_string().contains("crypto_kem_enc refused"), "{err}");
    }

    #[test]
    fn a_written_file_parses_back() {
        struct Fixed;
        impl KatKem for Fixed {
            fn algname(&self) -> &'static str {
                "fixed"
            }
            fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>) {
                let mut k = vec![0u8; 3];
                rng.fill(&mut k);
                (k.clone(), k)
            }
            fn enc(
                &self,
                pk: &[u8],
                _rng: &mut dyn RandomSource,
            ) -> Result<(Vec<u8>, Vec<u8>), Error> {
                Ok((pk.to_vec(), pk.to_vec()))
            }
            fn dec(&self, sk: &[u8], _ct: &[u8]) -> Result<Vec<u8>, Error> {
                Ok(sk.to_vec())
            }
        }
        let mut out = Vec::new();
        write_response_file(&Fixed, &mut out).expect("writes");
        let text = String::from_utf8(out).expect("utf-8");
        let r = parse_response(&text).expect("parses");
        assert_eq!(r.algname.as_deref(), Some("fixed"));
        assert_eq!(r.entries.len(), 100);
        assert_eq!(
            r.entries,
            entries(&Fixed, 100)
                .map(|e| e.expect("ok"))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn parse_errors_name_the_line_and_the_problem() {
        let kind = |t: &str| parse_response(t).map(|_| ()).map_err(|e| (e.line, e.kind));
        assert_eq!(kind(""), Err((0, ParseErrorKind::Empty)));
        assert_eq!(kind("count = 1\n"), Err((1, ParseErrorKind::BadCount)));
        assert_eq!(kind("count = +0\n"), Err((1, ParseErrorKind::BadCount)));
        assert_eq!(
            kind("seed = 00\n"),
            Err((
                1,
                ParseErrorKind::UnexpectedField {
                    expected: "count",
                    found: "seed".into()
                }
            ))
        );
        assert_eq!(
            kind("count = 0\nseed = 0\n"),
            Err((2, ParseErrorKind::BadHex { field: "seed" }))
        );
        assert_eq!(
            kind("count = 0\nseed = 00\n"),
            Err((2, ParseErrorKind::SeedLength { got: 1 }))
        );
        assert_eq!(
            kind("count = 0\nnonsense\n"),
            Err((2, ParseErrorKind::NotAField))
        );
        let seed = "00".repeat(48);
        assert_eq!(
            kind(&format!("count = 0\nseed = {seed}\npk = 01\n")),
            Err((0, ParseErrorKind::Truncated { expected: "sk" }))
        );
    }

    #[test]
    fn a_decapsulation_mismatch_stops_the_file() {
        let mut out = Vec::new();
        let err = write_response_file(&BadDec(0.into()), &mut out).expect_err("must fail");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("count = 3"), "{err}");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text.matches("count = ").count(), 3, "entries 0..2 only");
    }
}
