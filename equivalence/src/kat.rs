//! NIST `PQCgenKAT_kem` response files.
//!
//! The driver initialises an outer AES-256-CTR-DRBG with entropy `00 01 .. 2f`; for
//! each count it draws a 48-byte seed, re-initialises the DRBG with it, and runs
//! keypair, enc and dec, all drawing from that DRBG. The file is a `# <name>` line, a
//! blank line, then for counts 0..99 the lines `count`, `seed`, `pk`, `sk`, `ct`, `ss`
//! (uppercase hex) and a blank line.

use std::fmt::Write as _;
use std::io::{self, Write};

use reference::RandomSource;
use reference::drbg::NistDrbg;

/// A KEM as the NIST driver sees it: `crypto_kem_keypair`, `_enc`, `_dec`.
pub trait KatKem {
    /// `CRYPTO_ALGNAME`, printed on the first line.
    fn algname(&self) -> &'static str;
    /// `crypto_kem_keypair`: (pk, sk).
    fn keypair(&self, rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>);
    /// `crypto_kem_enc`: (ct, ss).
    fn enc(&self, pk: &[u8], rng: &mut dyn RandomSource) -> (Vec<u8>, Vec<u8>);
    /// `crypto_kem_dec`: ss.
    fn dec(&self, sk: &[u8], ct: &[u8]) -> Vec<u8>;
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

/// The NIST driver's entries, in order, as an iterator (count 0 first).
pub fn entries(kem: &dyn KatKem, n: usize) -> impl Iterator<Item = Entry> + '_ {
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    let mut outer = NistDrbg::new(&entropy, None);
    (0..n).map(move |count| {
        let mut seed = [0u8; 48];
        outer.randombytes(&mut seed);
        let mut drbg = NistDrbg::new(&seed, None);
        let (pk, sk) = kem.keypair(&mut drbg);
        let (ct, ss) = kem.enc(&pk, &mut drbg);
        let ss_dec = kem.dec(&sk, &ct);
        // PQCgenKAT_kem aborts when the two secrets differ; a KAT file never holds such
        // an entry, so the lab reports it instead of printing it.
        let ss = if ss_dec == ss {
            ss
        } else {
            let mut bad = b"DECAPSULATION MISMATCH".to_vec();
            bad.extend_from_slice(&ss_dec);
            bad
        };
        Entry {
            count,
            seed,
            pk,
            sk,
            ct,
            ss,
        }
    })
}

/// Writes the full response file (counts 0..99).
///
/// # Errors
/// I/O errors from `out`.
pub fn write_response_file(kem: &dyn KatKem, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# {}\n", kem.algname())?;
    for e in entries(kem, 100) {
        writeln!(out, "{}", e.to_text())?;
    }
    out.flush()
}

/// SHA-256 of entry `count = 0` as printed (the six lines), in lowercase hex: the value
/// PQClean publishes as `nistkat-sha256`.
///
/// # Panics
/// Never: [`entries`] yields as many entries as asked for.
pub fn kat0_sha256(kem: &dyn KatKem) -> String {
    use sha2::Digest;
    let e = entries(kem, 1).next().expect("one entry");
    hex::encode(sha2::Sha256::digest(e.to_text().as_bytes()))
}
