//! Parser targets: every decode, encapsulate, decapsulate and verify entry point, and
//! the text parsers, on arbitrary bytes.
//!
//! Each check decodes its input with [`Input`] (a few leading bytes choose the
//! parameter set, whether lengths are right, whether a hash is made to match; every
//! other byte is key, ciphertext, signature, an encapsulation's draw or text,
//! straight from the input) and asserts
//! * **no panic** (a panic is libFuzzer's crash),
//! * **a typed error or the scheme's implicit rejection**: the harness computes,
//!   independently of the code under test, which [`reference::Error`] the input
//!   must get (a wrong length, the ML-KEM modulus or hash check) or that it must
//!   succeed; where the harness can compute the implicit-rejection key (ML-KEM's
//!   J(z ‖ c), sntrup761's Hash0(Hash3(ρ) ‖ c), NTRU's SHA3-256(PRF key ‖ c)) it
//!   checks that value;
//! * **the same verdict from both tiers**: the reference and the optimized tier give
//!   identical results (bytes or error) on the same input.
//!
//! The decoder targets (`sntrup761_decode`, `ntru_decode`) drive code that both tiers
//! share, so their "both tiers" is vacuous: they check ranges (and NTRU's sum) and
//! round trips: decode(encode(decode(x))) = decode(x) (mod q for NTRU's sum-zero
//! packing), or for sntrup761's Small encode(decode(s)) = s on strings without a
//! field 3 (the last byte's spare bits masked). The text parsers have no tiers
//! for the KAT reader; `sign_input` runs the whole line check on both tiers.

use reference::Error;
use reference::mlkem::{self as r, Params};
use reference::rng::Replay;

use super::seeds::{KemScheme, generated_key};
use crate::ed25519::{self as ed, Variant as EdVariant};
use crate::mlkem::Variant as MlkemVariant;
use crate::ntruhps2048509::Variant as NtruVariant;
use crate::pair::{Input, fingerprint, pattern};
use crate::sntrup761::{ExactProducts, Variant as SntrupVariant};

/// A property violation found by a parser check: its report (what was expected, what
/// each tier gave; key material only by fingerprint). `Display` prints the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(String);

impl Violation {
    /// A violation with its report.
    pub fn new(report: impl Into<String>) -> Self {
        Violation(report.into())
    }

    /// The report.
    pub fn report(&self) -> &str {
        &self.0
    }
}

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

/// The checks below report a violation as text; [`Parser::check`] wraps it.
type Report = String;

/// One parser target.
#[derive(Clone, Copy, Debug)]
pub struct Parser {
    /// Target name.
    pub name: &'static str,
    /// What it drives.
    pub what: &'static str,
    /// `-max_len`: enough for every structured field of the largest parameter set.
    pub max_len: usize,
    /// The check: `Err` on a property violation (a panic is a finding too).
    pub check: fn(&[u8]) -> Result<(), Violation>,
    /// Edge seeds beyond the twelve combinations of extreme first and second bytes
    /// that every binary-input parser gets (`fuzz::seeds`): the (first, second) byte
    /// pairs, each followed by `0x11 0x11`, that reach what those twelve miss, such as
    /// the other tier on a selector's spare bit. Empty for the text parsers
    /// (`sign_input`, `kat_response`), whose edge seeds are texts.
    pub extra_seeds: &'static [[u8; 2]],
}

/// Where parser regression inputs live, inside the regressions directory.
pub const REGRESSIONS_SUBDIR: &str = "parsers";

/// How a finding shows a result. A shared key is a secret even on fuzzer-chosen
/// inputs (findings end up in logs and CI output), so it is shown only by a
/// fingerprint: the first four bytes of its SHA3-256, enough to tell two keys apart.
/// Public bytes (a ciphertext) are shown by length and fingerprint, errors and
/// verdicts as they are.
trait Shown {
    /// The finding's text for `self`.
    fn shown(&self) -> String;
}

impl Shown for () {
    fn shown(&self) -> String {
        "()".into()
    }
}

impl Shown for [u8; 32] {
    fn shown(&self) -> String {
        format!("key #{}", fingerprint(self))
    }
}

impl Shown for reference::SharedSecret {
    fn shown(&self) -> String {
        self.as_bytes().shown()
    }
}

impl Shown for Vec<u8> {
    fn shown(&self) -> String {
        format!("{} bytes #{}", self.len(), fingerprint(self))
    }
}

impl<A: Shown, B: Shown> Shown for (A, B) {
    fn shown(&self) -> String {
        format!("({}, {})", self.0.shown(), self.1.shown())
    }
}

impl<T: Shown> Shown for Result<T, Error> {
    fn shown(&self) -> String {
        match self {
            Ok(v) => format!("Ok({})", v.shown()),
            Err(e) => format!("Err({e:?})"),
        }
    }
}

/// Compares the two tiers' results; a difference shows both as [`Shown`] gives them.
fn same<T: PartialEq + Shown + ?Sized>(
    what: &str,
    reference: &T,
    optimized: &T,
) -> Result<(), Report> {
    same_shown_by(what, reference, optimized, T::shown)
}

/// [`same`] for public values (`sign.input` line-check results), shown in full.
fn same_public<T: PartialEq + core::fmt::Debug + ?Sized>(
    what: &str,
    reference: &T,
    optimized: &T,
) -> Result<(), Report> {
    same_shown_by(what, reference, optimized, |v| format!("{v:?}"))
}

/// Compares the two tiers' results; a difference shows both by `show`.
fn same_shown_by<T: PartialEq + ?Sized>(
    what: &str,
    reference: &T,
    optimized: &T,
    show: impl Fn(&T) -> String,
) -> Result<(), Report> {
    if reference == optimized {
        Ok(())
    } else {
        Err(format!(
            "{what}: the tiers differ: reference {}, optimized {}",
            show(reference),
            show(optimized)
        ))
    }
}

/// A decoder target's round trip: `got` (a value taken through the encoder and the
/// decoder, or the bytes of an encoding decoded and encoded again) must be `want`. A
/// difference names the first index that differs, both values there, and how many
/// differ (counted only then: the equal case is one slice comparison); slices of
/// different lengths are reported as such.
fn round_trip<T: PartialEq + core::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
) -> Result<(), Report> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} values, expected {}",
            got.len(),
            want.len()
        ));
    }
    if got == want {
        return Ok(());
    }
    let differ = got.iter().zip(want).filter(|(g, w)| g != w).count();
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(i) => Err(format!(
            "{what}: index {i} is {:?}, expected {:?} ({differ} of {} differ)",
            got[i],
            want[i],
            want.len()
        )),
        None => Ok(()),
    }
}

fn expect_error<T: Shown>(
    what: impl core::fmt::Display,
    got: &Result<T, Error>,
    want: &Error,
) -> Result<(), Report> {
    match got {
        Err(e) if e == want => Ok(()),
        other => Err(format!(
            "{what}: expected Err({want:?}), got {}",
            other.shown()
        )),
    }
}

/// A length: right (`right`) unless the mode byte is 0, then any value in
/// 0..=2·right read from the input.
fn length(g: &mut Input<'_>, mode: u8, right: usize) -> usize {
    if mode == 0 {
        g.below(2 * right as u64 + 1) as usize
    } else {
        right
    }
}

// --- ML-KEM ------------------------------------------------------------------------

/// ByteEncode_12 of two coefficients (FIPS 203 Algorithm 5), written here so the
/// harness does not use the code under test.
fn pack12(out: &mut [u8], a: u16, b: u16) {
    out[0] = a as u8;
    out[1] = ((a >> 8) as u8) | ((b << 4) as u8);
    out[2] = (b >> 4) as u8;
}

/// Whether every 12-bit value of the first `384·k` bytes is below q (the modulus
/// check of FIPS 203 section 7.2, computed independently).
fn all_below_q(t: &[u8]) -> bool {
    t.chunks_exact(3).all(|c| {
        let a = u16::from(c[0]) | (u16::from(c[1] & 0x0f) << 8);
        let b = u16::from(c[1] >> 4) | (u16::from(c[2]) << 4);
        a < r::field::Q && b < r::field::Q
    })
}

fn mlkem_params(g: &Input<'_>) -> &'static Params {
    r::ALL[pattern(g.selector(), 3)]
}

/// An encapsulation key from the input: raw bytes (mode byte odd), or canonical
/// coefficients read two bytes each with, by one more byte, one coefficient set to a
/// value in q..4096 at a position read from the input (the modulus check's edge).
fn mlkem_ek_bytes(g: &mut Input<'_>, p: &Params, len: usize, raw: bool) -> Vec<u8> {
    let mut ek = vec![0u8; len];
    if raw || len != p.ek_len() {
        g.fill(&mut ek);
        return ek;
    }
    let n = 256 * p.k();
    let mut coeffs: Vec<u16> = (0..n)
        .map(|_| g.below(u64::from(r::field::Q)) as u16)
        .collect();
    if g.bit() {
        let at = g.below(n as u64) as usize;
        coeffs[at] = r::field::Q + g.below(u64::from(4096 - r::field::Q)) as u16;
    }
    for (i, pair) in coeffs.chunks_exact(2).enumerate() {
        pack12(&mut ek[3 * i..3 * i + 3], pair[0], pair[1]);
    }
    g.fill(&mut ek[384 * p.k()..]);
    ek
}

/// `mlkem_ek`: ML-KEM.Encaps_internal on an arbitrary encapsulation key, both tiers,
/// and the stand-alone input check `check_encapsulation_key` (FIPS 203 section 7.2).
/// Expected: a wrong length is `InvalidLength`, a 12-bit value >= q is
/// `ModulusCheck`, anything else encapsulates, with identical (c, K) from both tiers;
/// the check gives the same verdict as encapsulation.
fn mlkem_ek(data: &[u8]) -> Result<(), Report> {
    let mut g = Input::new(data);
    let p = mlkem_params(&g);
    let mode = g.u8();
    let len = length(&mut g, mode >> 4, p.ek_len());
    let ek = mlkem_ek_bytes(&mut g, p, len, mode & 1 == 1);
    let m = g.array::<32>();
    let a = MlkemVariant::Reference.encaps_internal(p, &ek, &m);
    let b = MlkemVariant::Optimized.encaps_internal(p, &ek, &m);
    same("encaps_internal", &a, &b)?;
    let checked = r::check_encapsulation_key(p, &ek);
    if checked != a.as_ref().map(|_| ()).map_err(|e| *e) {
        return Err(format!(
            "check_encapsulation_key gives {checked:?}, encapsulation {}",
            a.shown()
        ));
    }
    if len != p.ek_len() {
        return expect_error(
            "wrong-length ek",
            &a,
            &Error::InvalidLength {
                what: "encapsulation key",
                expected: p.ek_len(),
                got: len,
            },
        );
    }
    if !all_below_q(&ek[..384 * p.k()]) {
        return expect_error("ek with a value >= q", &a, &Error::ModulusCheck);
    }
    let (c, _) = a.map_err(|e| format!("a valid ek was refused: {e:?}"))?;
    if c.len() != p.ct_len() {
        return Err(format!(
            "ciphertext of {} bytes, expected {}",
            c.len(),
            p.ct_len()
        ));
    }
    Ok(())
}

/// SHA3-256, for the harness's own hash check.
fn sha3_256(b: &[u8]) -> [u8; 32] {
    use sha3::Digest;
    sha3::Sha3_256::digest(b).into()
}

/// J(s) = SHAKE256(s, 32) (FIPS 203 section 4.1), for the implicit-rejection key.
fn mlkem_j(z: &[u8], c: &[u8]) -> [u8; 32] {
    use shake::{ExtendableOutput, Update, XofReader};
    let mut h = shake::Shake256::default();
    h.update(z);
    h.update(c);
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

/// Whether a dk of the right length for rank `k` stores H(ek) of its ek (the hash
/// check of FIPS 203 section 7.3, computed independently).
fn mlkem_dk_hash_holds(dk: &[u8], k: usize) -> bool {
    sha3_256(&dk[384 * k..768 * k + 32])[..] == dk[768 * k + 32..768 * k + 64]
}

/// `mlkem_decaps`: ML-KEM.Decaps on an arbitrary decapsulation key and ciphertext,
/// one tier through the encoded-key API (`decaps`) against the other through the
/// parsed-key API (`DecapsulationKey::from_bytes`, then `decapsulate`), so that each
/// input compares two decapsulations that differ in both tier and API; the kind byte
/// picks which tier takes which API, as well as the kind: raw dk (the stored H(ek)
/// as given), raw dk with a matching H(ek), or a generated key pair with a
/// ciphertext encapsulated to it, optionally with one byte changed. Expected: wrong
/// lengths are `InvalidLength` (in `decaps`, ciphertext first), a wrong H(ek) is
/// `HashCheck`; for a generated key the encapsulated K, or after a change the
/// implicit-rejection key J(z ‖ c); identical results from both, except that with a
/// ciphertext of the wrong length and a bad dk (wrong length or H(ek)) each API may
/// name its own check first. Code both APIs share (`decaps` is the ciphertext length
/// check, then the same `from_bytes` and `decapsulate`) is checked by these
/// expectations, not by the comparison. The stand-alone input check
/// `check_decapsulation_key` must give the harness's own verdict (length, then H(ek)).
fn mlkem_decaps(data: &[u8]) -> Result<(), Report> {
    let mut g = Input::new(data);
    let p = mlkem_params(&g);
    // One byte: kind = its value in 0..3 (as `below(3)` reads it), and which tier
    // takes the encoded-key API. Each (tier, API) combination meets a different one.
    let kind_and_api = g.below(6);
    let kind = kind_and_api >> 1;
    let (encoded, parsed) = if kind_and_api & 1 == 0 {
        (MlkemVariant::Reference, MlkemVariant::Optimized)
    } else {
        (MlkemVariant::Optimized, MlkemVariant::Reference)
    };
    let lens = g.u8();
    let dk_len = length(&mut g, lens & 0x0f, p.dk_len());
    let ct_len = length(&mut g, lens >> 4, p.ct_len());
    let k = p.k();
    let (dk, c, expect_k) = if kind == 2 && dk_len == p.dk_len() && ct_len == p.ct_len() {
        let d = g.array::<32>();
        let z = g.array::<32>();
        let m = g.array::<32>();
        let kp = r::keygen_internal(p, &d, &z);
        let (mut c, k_enc) = MlkemVariant::Reference
            .encaps_internal(p, kp.ek(), &m)
            .map_err(|e| format!("a generated ek was refused: {e:?}"))?;
        // Position 0 (also what a short input reads): no change; i: byte i − 1.
        let at = g.below(c.len() as u64 + 1) as usize;
        let flip = g.u8() | 1;
        let expect = if at > 0 {
            c[at - 1] ^= flip;
            mlkem_j(&z, &c)
        } else {
            *k_enc.as_bytes()
        };
        (kp.dk().to_vec(), c, Some(expect))
    } else {
        let mut dk = vec![0u8; dk_len];
        g.fill(&mut dk);
        if kind == 1 && dk_len == p.dk_len() {
            let h = sha3_256(&dk[384 * k..768 * k + 32]);
            dk[768 * k + 32..768 * k + 64].copy_from_slice(&h);
        }
        let mut c = vec![0u8; ct_len];
        g.fill(&mut c);
        (dk, c, None)
    };
    let a = encoded.decaps(p, &dk, &c);
    let b = r::DecapsulationKey::from_bytes(p, &dk).and_then(|key| parsed.decapsulate(&key, &c));
    // The harness's own checks of dk (length, H(ek)), hashed once.
    let hash_holds = dk_len == p.dk_len() && mlkem_dk_hash_holds(&dk, k);
    // The stand-alone input check (FIPS 203 section 7.3) against the same checks.
    let checked = r::check_decapsulation_key(p, &dk);
    let want = if dk_len != p.dk_len() {
        Err(Error::InvalidLength {
            what: "decapsulation key",
            expected: p.dk_len(),
            got: dk_len,
        })
    } else if hash_holds {
        Ok(())
    } else {
        Err(Error::HashCheck)
    };
    if checked != want {
        return Err(format!(
            "check_decapsulation_key gives {checked:?}, expected {want:?}"
        ));
    }
    let consistent = match (&b, &a) {
        (Ok(x), Ok(y)) => x == y,
        // Both inputs bad: each API may name the one it checks first, the parsed-key
        // API the dk's (it parses dk before it sees c), which must be the harness's.
        (Err(x), Err(y)) => {
            x == y || (ct_len != p.ct_len() && !hash_holds && want.as_ref().err() == Some(x))
        }
        _ => false,
    };
    if !consistent {
        return Err(format!(
            "{} parsed-key decapsulate {} differs from {} decaps {}",
            parsed.name(),
            b.shown(),
            encoded.name(),
            a.shown()
        ));
    }
    if ct_len != p.ct_len() {
        return expect_error(
            "wrong-length ciphertext",
            &a,
            &Error::InvalidLength {
                what: "ciphertext",
                expected: p.ct_len(),
                got: ct_len,
            },
        );
    }
    if dk_len != p.dk_len() {
        return expect_error(
            "wrong-length dk",
            &a,
            &Error::InvalidLength {
                what: "decapsulation key",
                expected: p.dk_len(),
                got: dk_len,
            },
        );
    }
    if !hash_holds {
        return expect_error("dk with a wrong H(ek)", &a, &Error::HashCheck);
    }
    let key = a.map_err(|e| format!("a well-formed dk and ciphertext were refused: {e:?}"))?;
    match expect_k {
        Some(want) if *key.as_bytes() != want => Err(format!(
            "generated key: K = {}, expected {} (the encapsulated key, or J(z || c) after a change)",
            key.shown(),
            want.shown()
        )),
        _ => Ok(()),
    }
}

/// ML-KEM encapsulation keys.
pub static MLKEM_EK: Parser = Parser {
    name: "mlkem_ek",
    what: "ML-KEM ek decoder (length, modulus check) and Encaps_internal, both tiers",
    max_len: 1 + 1 + 2 + 2 * 1024 + 1 + 2 + 1 + 32 + 32,
    check: |data| mlkem_ek(data).map_err(Violation),
    extra_seeds: &[],
};

/// ML-KEM decapsulation keys and ciphertexts.
pub static MLKEM_DECAPS: Parser = Parser {
    name: "mlkem_decaps",
    what: "ML-KEM dk and ciphertext decoders (lengths, hash check) and Decaps, one tier per API",
    max_len: 1 + 1 + 1 + 2 + 2 + 2 * (3168 + 1568),
    check: |data| mlkem_decaps(data).map_err(Violation),
    // The kind byte also picks the tier on the encoded-key API: 0x80 and 0xff give
    // the optimized one for kinds 1 and 2, 0xc0 the reference for kind 2 (a
    // generated key pair).
    extra_seeds: &[[0x00, 0xc0], [0x80, 0xc0], [0xff, 0xc0]],
};

// --- sntrup761 ---------------------------------------------------------------------

/// `sntrup761_decaps`: KEM_Decap on an arbitrary secret key and ciphertext, reference
/// against optimized (the kernels of patch 07 run inside). The reference tier runs
/// with [`ExactProducts`]: its products computed exactly rather than frozen after every
/// multiply-add: the same unique values, cheaper (the tiers' decaps
/// differ only in those kernels). Expected: wrong lengths
/// are `InvalidLength` (ciphertext first); every right-length pair gets a key,
/// identical from both tiers; with the secret key of the `generated-key` seed
/// ([`generated_key`]), the encapsulated key for its ciphertext and the
/// implicit-rejection key for every other (see [`generated_key_expectation`]).
fn sntrup761_decaps(data: &[u8]) -> Result<(), Report> {
    use reference::sntrup761::{CIPHERTEXT_BYTES, SECRET_KEY_BYTES};
    let mut g = Input::new(data);
    let lens = g.selector();
    let sk_len = length(&mut g, lens & 0x0f, SECRET_KEY_BYTES);
    let ct_len = length(&mut g, lens >> 4, CIPHERTEXT_BYTES);
    let mut sk = vec![0u8; sk_len];
    g.fill(&mut sk);
    let mut ct = vec![0u8; ct_len];
    g.fill(&mut ct);
    let a = reference::sntrup761::decapsulate::<ExactProducts>(&sk, &ct);
    let b = SntrupVariant::Optimized.decapsulate(&sk, &ct);
    same("decapsulate", &a, &b)?;
    if ct_len != CIPHERTEXT_BYTES {
        return expect_error(
            "wrong-length ciphertext",
            &a,
            &Error::InvalidLength {
                what: "ciphertext",
                expected: CIPHERTEXT_BYTES,
                got: ct_len,
            },
        );
    }
    if sk_len != SECRET_KEY_BYTES {
        return expect_error(
            "wrong-length secret key",
            &a,
            &Error::InvalidLength {
                what: "secret key",
                expected: SECRET_KEY_BYTES,
                got: sk_len,
            },
        );
    }
    let key = a.map_err(|e| format!("right-length inputs were refused: {e:?}"))?;
    generated_key_expectation(
        KemScheme::Sntrup761,
        &sk,
        &ct,
        key.as_bytes(),
        Some(crate::sntrup761::rejection_key),
    )
}

/// A scheme's implicit-rejection key of (secret key, ciphertext), computed by the
/// harness.
type RejectionKey = fn(&[u8], &[u8]) -> [u8; 32];

/// What a right-length decapsulation must give when the secret key is that of
/// `scheme`'s `generated-key` seed ([`generated_key`]); for other secret keys nothing
/// is expected here. Both tiers share the code this checks (the rejection, the final
/// hash), so a bug there is invisible to the tier comparison.
///
/// * The seed's ciphertext: the encapsulated key (made by the optimized tier, as the
///   committed seed is).
/// * Any other ciphertext: not that key. Exact up to a collision of the key hash: a
///   real key hashes the ciphertext (sntrup761) or the (r, m) that determine it
///   (NTRU: they determine the polynomial and so every bit but the 4 unused top bits
///   of the last byte, and a ciphertext with one of those set is rejected by
///   `owcpa_check_ciphertext`), a rejection key hashes a secret with the ciphertext.
/// * With `rejection` (sntrup761), any other ciphertext: the implicit-rejection key
///   the harness computes. Decapsulation accepts a ciphertext only when it equals the
///   re-encryption of the r it decrypts to, whose confirmation is HashConfirm(r).
///   Exact when only the confirmation changed (the same r, whose re-encryption is the
///   unchanged ciphertext); exact up to a collision of HashConfirm (the first 32
///   bytes of a SHA-512) when only the Rounded part changed; argued when both did:
///   acceptance needs a confirmation equal to HashConfirm of the new r, a hash that
///   byte mutation does not compute. NTRU passes no `rejection`: its ciphertexts are
///   malleable (moving a ±1 of m to a coefficient where m is 0, in c, gives another
///   valid ciphertext, as few as two bit flips away), so another ciphertext may get a
///   real key;
///   `ntru_decaps` checks the rejection key where it is certain.
fn generated_key_expectation(
    scheme: KemScheme,
    sk: &[u8],
    ct: &[u8],
    key: &[u8; 32],
    rejection: Option<RejectionKey>,
) -> Result<(), Report> {
    let generated = generated_key(scheme);
    if sk != generated.sk {
        return Ok(());
    }
    if ct == generated.ct {
        return if *key == generated.key {
            Ok(())
        } else {
            Err(format!(
                "generated key pair and ciphertext: K = {}, expected the encapsulated key {}",
                key.shown(),
                generated.key.shown()
            ))
        };
    }
    if *key == generated.key {
        return Err(format!(
            "generated key pair, changed ciphertext: K = {}, the encapsulated key",
            key.shown()
        ));
    }
    match rejection.map(|f| f(sk, ct)) {
        Some(want) if *key != want => Err(format!(
            "generated key pair, changed ciphertext: K = {}, expected {} (the implicit-rejection key)",
            key.shown(),
            want.shown()
        )),
        _ => Ok(()),
    }
}

/// An encapsulation target's input: a length mode byte (low nibble 0: any length up
/// to twice `right`, read from the input), the public key, then the `draw` bytes the
/// encapsulation draws (zeros past the input's end), as one [`Replay`] per tier.
fn encaps_input(data: &[u8], right: usize, draw: usize) -> (Vec<u8>, [Replay; 2]) {
    let mut g = Input::new(data);
    let lens = g.selector();
    let mut pk = vec![0u8; length(&mut g, lens & 0x0f, right)];
    g.fill(&mut pk);
    let mut coins = vec![0u8; draw];
    g.fill(&mut coins);
    (pk, [Replay::new(coins.clone()), Replay::new(coins)])
}

/// What an encapsulation target expects once the tiers agree: a public key of the
/// wrong length (`key`: its name in the error, the right length, its length) is
/// `InvalidLength` and draws nothing; one of the right length encapsulates, and each
/// tier (`rngs`: the reference's replay, the optimized tier's) drew exactly its
/// `total` bytes.
fn encaps_expected<T: Shown>(
    key: (&'static str, usize, usize),
    got: &Result<T, Error>,
    rngs: [&Replay; 2],
    total: usize,
) -> Result<(), Report> {
    let (what, right, len) = key;
    let want = if len == right { total } else { 0 };
    for (tier, rng) in ["reference", "optimized"].into_iter().zip(rngs) {
        if rng.overrun() || total - rng.remaining() != want {
            return Err(format!(
                "a {len}-byte public key: the {tier} tier drew {} bytes{}, expected {want}",
                total - rng.remaining(),
                if rng.overrun() { " and more" } else { "" }
            ));
        }
    }
    if len != right {
        return expect_error(
            "wrong-length public key",
            got,
            &Error::InvalidLength {
                what,
                expected: right,
                got: len,
            },
        );
    }
    match got {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("a right-length public key was refused: {e:?}")),
    }
}

/// `sntrup761_encaps`: KEM_Encap on an arbitrary public key, reference (exact
/// products, as in `sntrup761_decaps`) against optimized, each drawing r from its own
/// replay of the same 3044 input bytes (the reference as 761 draws of 4 bytes, the
/// optimized tier as one draw: a replay is call-boundary invariant, so both get the
/// same r). Expected: a wrong length is `InvalidLength` and nothing is drawn; every
/// right-length key encapsulates (`Rq_decode` accepts every string), to a 1039-byte
/// ciphertext, after exactly one polynomial draw; identical (c, K) from both tiers.
fn sntrup761_encaps(data: &[u8]) -> Result<(), Report> {
    use reference::sntrup761::{CIPHERTEXT_BYTES, P, PUBLIC_KEY_BYTES};
    let draw = 4 * P;
    let (pk, [mut ra, mut rb]) = encaps_input(data, PUBLIC_KEY_BYTES, draw);
    let a = reference::sntrup761::encapsulate::<ExactProducts, _>(&pk, &mut ra);
    let b = SntrupVariant::Optimized.encapsulate(&pk, &mut rb);
    same("encapsulate", &a, &b)?;
    let key = ("public key", PUBLIC_KEY_BYTES, pk.len());
    encaps_expected(key, &a, [&ra, &rb], draw)?;
    match a {
        Ok((c, _)) if c.len() != CIPHERTEXT_BYTES => Err(format!(
            "a {}-byte ciphertext, expected {CIPHERTEXT_BYTES}",
            c.len()
        )),
        _ => Ok(()),
    }
}

/// `sntrup761_decode`: the shared decoders on arbitrary bytes. `Rq_decode` gives
/// values in [−q12, q12], `Rounded_decode` multiples of 3 in that range,
/// `Small_decode` values in {−1, 0, 1, 2}; encoding a decoded Rq or Rounded value
/// and decoding it again gives it back, and `Small_encode` of a decoded string
/// without the field value 3 gives the string back (the last byte's unused bits
/// cleared).
fn sntrup761_decode(data: &[u8]) -> Result<(), Report> {
    // The order of the arms below is `decoder_lengths`'.
    use reference::sntrup761::encode::{
        rounded_decode, rounded_encode, rq_decode, rq_encode, small_decode, small_encode,
    };
    use reference::sntrup761::{Fq, P, Q12, ROUNDED_BYTES, RQ_BYTES, SMALL_BYTES, Small};
    let mut g = Input::new(data);
    match pattern(g.selector(), 3) {
        0 => {
            let s = g.array::<RQ_BYTES>();
            let mut r = [0 as Fq; P];
            rq_decode(&mut r, &s);
            if let Some(x) = r.iter().find(|x| i32::from(**x).abs() > Q12) {
                return Err(format!("Rq_decode gave {x}, outside [-q12, q12]"));
            }
            let mut s2 = [0u8; RQ_BYTES];
            rq_encode(&mut s2, &r);
            let mut r2 = [0 as Fq; P];
            rq_decode(&mut r2, &s2);
            round_trip("Rq_decode(Rq_encode(r)) against r", &r2, &r)
        }
        1 => {
            let s = g.array::<ROUNDED_BYTES>();
            let mut r = [0 as Fq; P];
            rounded_decode(&mut r, &s);
            if let Some(x) = r
                .iter()
                .find(|x| i32::from(**x).abs() > Q12 || (i32::from(**x) + Q12) % 3 != 0)
            {
                return Err(format!(
                    "Rounded_decode gave {x}: not a multiple of 3 in [-q12, q12] (offset by q12)"
                ));
            }
            let mut s2 = [0u8; ROUNDED_BYTES];
            rounded_encode(&mut s2, &r);
            let mut r2 = [0 as Fq; P];
            rounded_decode(&mut r2, &s2);
            round_trip("Rounded_decode(Rounded_encode(r)) against r", &r2, &r)
        }
        _ => {
            let s = g.array::<SMALL_BYTES>();
            let mut f = [0 as Small; P];
            small_decode(&mut f, &s);
            if let Some(x) = f.iter().find(|x| !(-1..=2).contains(*x)) {
                return Err(format!("Small_decode gave {x}, outside [-1, 2]"));
            }
            if f.iter().all(|x| *x <= 1) {
                let mut s2 = [0u8; SMALL_BYTES];
                small_encode(&mut s2, &f);
                let mut want = s;
                want[SMALL_BYTES - 1] &= 3;
                round_trip("Small_encode(Small_decode(s)) against s", &s2, &want)?;
            }
            Ok(())
        }
    }
}

/// sntrup761 decapsulation.
pub static SNTRUP761_DECAPS: Parser = Parser {
    name: "sntrup761_decaps",
    what: "sntrup761 secret-key and ciphertext decoders and KEM_Decap, reference (exact products) against optimized",
    max_len: 1 + 2 + 2 + 2 * (1763 + 1039),
    check: |data| sntrup761_decaps(data).map_err(Violation),
    extra_seeds: &[],
};

/// sntrup761 encapsulation.
pub static SNTRUP761_ENCAPS: Parser = Parser {
    name: "sntrup761_encaps",
    what: "sntrup761 public-key decoder and KEM_Encap, r drawn from the input, reference (exact products) against optimized",
    max_len: 1 + 2 + 2 * 1158 + 3044,
    check: |data| sntrup761_encaps(data).map_err(Violation),
    extra_seeds: &[],
};

/// sntrup761 decoders.
pub static SNTRUP761_DECODE: Parser = Parser {
    name: "sntrup761_decode",
    what: "sntrup761 Rq_decode (public key), Rounded_decode (ciphertext), Small_decode (secret key)",
    max_len: 1 + 1158,
    check: |data| sntrup761_decode(data).map_err(Violation),
    extra_seeds: &[],
};

// --- NTRU-HPS-2048-509 -------------------------------------------------------------

/// `ntru_decaps`: `crypto_kem_dec` on an arbitrary secret key and ciphertext, the
/// reference tier against the optimized one. The reference tier runs as
/// [`ExactRqMul`](crate::ntruhps2048509::ExactRqMul): the reference's decapsulation
/// with its products computed as column sums: the same unique values, in a loop that
/// vectorizes. Decapsulation's only kernel is `poly_Rq_mul`, which the
/// `before` tier shares with the optimized one, so `before` decapsulates with the
/// optimized tier's code and is not run again. Expected: wrong lengths are
/// `InvalidLength` (secret key first); every right-length pair gets a key (the real
/// one or the implicit-rejection key), identical from both tiers; the
/// implicit-rejection key, computed by the harness, whenever an unused top bit of the
/// ciphertext's last byte is set (`owcpa_check_ciphertext` then fails, whatever the
/// key: exact), and with the `generated-key` seed's secret key the encapsulated key
/// for its ciphertext and another key for any other, as in
/// [`generated_key_expectation`].
fn ntru_decaps(data: &[u8]) -> Result<(), Report> {
    use reference::ntruhps2048509::params::{CIPHERTEXT_BYTES, SECRETKEY_BYTES};
    let mut g = Input::new(data);
    let lens = g.selector();
    let sk_len = length(&mut g, lens & 0x0f, SECRETKEY_BYTES);
    let ct_len = length(&mut g, lens >> 4, CIPHERTEXT_BYTES);
    let mut sk = vec![0u8; sk_len];
    g.fill(&mut sk);
    let mut ct = vec![0u8; ct_len];
    g.fill(&mut ct);
    let a = reference::ntruhps2048509::decaps::<crate::ntruhps2048509::ExactRqMul>(&sk, &ct);
    let b = NtruVariant::Optimized.decaps(&sk, &ct);
    same(NtruVariant::Optimized.name(), &a, &b)?;
    if sk_len != SECRETKEY_BYTES {
        return expect_error(
            "wrong-length secret key",
            &a,
            &Error::InvalidLength {
                what: "secret key",
                expected: SECRETKEY_BYTES,
                got: sk_len,
            },
        );
    }
    if ct_len != CIPHERTEXT_BYTES {
        return expect_error(
            "wrong-length ciphertext",
            &a,
            &Error::InvalidLength {
                what: "ciphertext",
                expected: CIPHERTEXT_BYTES,
                got: ct_len,
            },
        );
    }
    let key = a.map_err(|e| format!("right-length inputs were refused: {e:?}"))?;
    // 508 packed coefficients of 11 bits fill 5 588 of the 5 592 bits of 699 bytes:
    // the top 4 bits of the last byte are unused.
    if ct[CIPHERTEXT_BYTES - 1] & 0xf0 != 0 {
        let want = crate::ntruhps2048509::rejection_key(&sk, &ct);
        if *key.as_bytes() != want {
            return Err(format!(
                "unused ciphertext bits set: K = {}, expected {} (the implicit-rejection key)",
                key.shown(),
                want.shown()
            ));
        }
    }
    generated_key_expectation(KemScheme::Ntru, &sk, &ct, key.as_bytes(), None)
}

/// `ntru_encaps`: `crypto_kem_enc` on an arbitrary public key, the reference tier
/// (as [`ExactRqMul`](crate::ntruhps2048509::ExactRqMul), as in `ntru_decaps`)
/// against the optimized one, each drawing the 2413-byte seed of r and m from its own
/// replay of the same input bytes (structure-aware: the fuzzer's bytes are the
/// sampler's input). Expected: a wrong length is `InvalidLength` and nothing is
/// drawn; every right-length key encapsulates (`poly_Rq_sum_zero_frombytes`
/// accepts every string) after exactly one draw; identical (c, K) from both tiers.
fn ntru_encaps(data: &[u8]) -> Result<(), Report> {
    use reference::ntruhps2048509::params::{PUBLICKEY_BYTES, SAMPLE_RM_BYTES};
    let (pk, [mut ra, mut rb]) = encaps_input(data, PUBLICKEY_BYTES, SAMPLE_RM_BYTES);
    let public =
        |r: Result<([u8; _], reference::SharedSecret), Error>| r.map(|(c, k)| (c.to_vec(), k));
    let a = public(reference::ntruhps2048509::encaps::<
        crate::ntruhps2048509::ExactRqMul,
    >(&pk, &mut ra));
    let b = public(NtruVariant::Optimized.encaps(&pk, &mut rb));
    same(NtruVariant::Optimized.name(), &a, &b)?;
    let key = ("public key", PUBLICKEY_BYTES, pk.len());
    encaps_expected(key, &a, [&ra, &rb], SAMPLE_RM_BYTES)
}

/// The input lengths of a decoder target's three decoders, in the order its selector
/// picks them (`pattern(selector, 3)` in [`sntrup761_decode`] and [`ntru_decode`]),
/// if `name` is one: the all-ones seeds (`super::seeds`) are built from it.
pub(super) fn decoder_lengths(name: &str) -> Option<[usize; 3]> {
    use reference::ntruhps2048509::params::{PACK_TRINARY_BYTES, POLYBYTES};
    use reference::sntrup761::{ROUNDED_BYTES, RQ_BYTES, SMALL_BYTES};
    match name {
        "sntrup761_decode" => Some([RQ_BYTES, ROUNDED_BYTES, SMALL_BYTES]),
        "ntru_decode" => Some([POLYBYTES, POLYBYTES, PACK_TRINARY_BYTES]),
        _ => None,
    }
}

/// `ntru_decode`: the shared packers on arbitrary bytes. `poly_Sq_frombytes` gives
/// 11-bit values; `poly_Rq_sum_zero_frombytes` makes the coefficients sum to 0 mod q;
/// `poly_S3_frombytes` gives values in {0, 1, 2}; packing a decoded value and
/// decoding it again gives it back.
fn ntru_decode(data: &[u8]) -> Result<(), Report> {
    // The order of the arms below is `decoder_lengths`'.
    use reference::ntruhps2048509::pack::{
        poly_rq_sum_zero_frombytes, poly_rq_sum_zero_tobytes, poly_s3_frombytes, poly_s3_tobytes,
        poly_sq_frombytes, poly_sq_tobytes,
    };
    use reference::ntruhps2048509::params::{N, PACK_TRINARY_BYTES, POLYBYTES, Q};
    let mut g = Input::new(data);
    match pattern(g.selector(), 3) {
        0 => {
            let b = g.array::<POLYBYTES>();
            let a = poly_sq_frombytes(&b);
            if let Some(x) = a.0[..N - 1].iter().find(|x| **x >= Q) {
                return Err(format!("poly_Sq_frombytes gave {x} >= q"));
            }
            round_trip(
                "poly_Sq_frombytes(poly_Sq_tobytes(a)) against a",
                &poly_sq_frombytes(&poly_sq_tobytes(&a)).0[..N - 1],
                &a.0[..N - 1],
            )
        }
        1 => {
            let b = g.array::<POLYBYTES>();
            let a = poly_rq_sum_zero_frombytes(&b);
            let sum = a.0.iter().fold(0u16, |s, x| s.wrapping_add(*x)) & (Q - 1);
            if sum != 0 {
                return Err(format!(
                    "poly_Rq_sum_zero_frombytes: coefficients sum to {sum} mod q"
                ));
            }
            let mask = |p: &reference::ntruhps2048509::Poly| p.0.map(|x| x & (Q - 1));
            round_trip(
                "poly_Rq_sum_zero_frombytes(poly_Rq_sum_zero_tobytes(a)) against a, mod q",
                &mask(&poly_rq_sum_zero_frombytes(&poly_rq_sum_zero_tobytes(&a)))[..],
                &mask(&a)[..],
            )
        }
        _ => {
            let b = g.array::<PACK_TRINARY_BYTES>();
            let a = poly_s3_frombytes(&b);
            if let Some(x) = a.0.iter().find(|x| **x > 2) {
                return Err(format!("poly_S3_frombytes gave {x} > 2"));
            }
            round_trip(
                "poly_S3_frombytes(poly_S3_tobytes(a)) against a",
                &poly_s3_frombytes(&poly_s3_tobytes(&a)).0[..],
                &a.0[..],
            )
        }
    }
}

/// NTRU decapsulation.
pub static NTRU_DECAPS: Parser = Parser {
    name: "ntru_decaps",
    what: "NTRU-HPS-2048-509 secret-key and ciphertext decoders and crypto_kem_dec, reference (exact products) against optimized",
    max_len: 1 + 2 + 2 + 2 * (935 + 699),
    check: |data| ntru_decaps(data).map_err(Violation),
    extra_seeds: &[],
};

/// NTRU encapsulation.
pub static NTRU_ENCAPS: Parser = Parser {
    name: "ntru_encaps",
    what: "NTRU-HPS-2048-509 public-key decoder and crypto_kem_enc, r and m sampled from the input, reference (exact products) against optimized",
    max_len: 1 + 2 + 2 * 699 + 2413,
    check: |data| ntru_encaps(data).map_err(Violation),
    extra_seeds: &[],
};

/// NTRU decoders.
pub static NTRU_DECODE: Parser = Parser {
    name: "ntru_decode",
    what: "NTRU-HPS-2048-509 poly_Sq_frombytes, poly_Rq_sum_zero_frombytes (public key, ciphertext), poly_S3_frombytes (secret key)",
    max_len: 1 + 699,
    check: |data| ntru_decode(data).map_err(Violation),
    extra_seeds: &[],
};

// --- Ed25519 -----------------------------------------------------------------------

/// A tier's entry point as a report names it ("optimized verify_strict"), formatted
/// only when a report is written.
#[derive(Clone, Copy)]
struct Called(EdVariant, &'static str);

impl core::fmt::Display for Called {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} {}", self.0.name(), self.1)
    }
}

/// `ed25519_verify`: `verify` and `verify_strict` on an arbitrary public key,
/// signature and message, one tier per mode. The kind byte picks (`pattern(b, 6)`:
/// its half is the kind `pattern(b, 3)` reads, its low bit which tier runs which
/// mode) raw bytes; A and R among the small-order encodings with S raw or zero; or a
/// real signature (key from a seed in the input) with, by one or two more bytes (the
/// position; 0, or one beyond the end of a short key or signature, changes nothing)
/// and one more (the change), one byte of key, signature or message changed, and by
/// the low bit of one byte more S replaced by S + L (mod 2^256). Each (tier, mode)
/// combination meets the other tier in the other mode, so a tier difference in
/// either mode shows.
///
/// Expected: wrong lengths are the same `InvalidLength` naming the input from both;
/// otherwise `Ok` or `InvalidSignature`; `verify_strict`'s verdict is `verify`'s
/// except that it refuses every A or R among the 14 small-order encodings (the
/// harness's own list, [`ed::SMALL_ORDER_ENCODINGS`]), and for such an input the
/// strict tier also runs `verify`, so the plain verdicts are still compared; an
/// unchanged real signature is accepted in both modes, and a changed one is refused
/// in both (argued, below). The tier comparison cannot see a bug both tiers share that
/// accepts too much (a challenge without M, no S < L check); in this target only the
/// refusal check can (the cargo tests' RFC 8032 and S + L cases also do).
///
/// Why a changed signature must be refused. With R, A and M unchanged, a new S′ is
/// refused exactly: S′ >= L is non-canonical (RFC 8032 5.1.7), and S′ < L, S′ ≠ S
/// breaks [S′]B = R + [k]A, as B has prime order L. That covers S + L, and a change
/// of byte j of S (0 <= j < 32) followed by S + L, whose sum mod 2^256 is
/// S + d·2^(8j) + L − 2^256·c for a carry c of 0 or 1 and 0 < |d| <= 255: never ≡ S
/// mod L, so refused either way. (c = 0: the prime L divides neither d nor 2^(8j).
/// c = 1: d ≡ 2^(256−8j) mod L; for j >= 1 that is a power of two in [256, 2^248],
/// at least 256 and below L − 255, and for j = 0 it is −16(L − 2^252), about
/// −2^128.4: no d with |d| <= 255 is either.) A change of R, A or M followed by
/// S + L is refused exactly too: the signer's S < L is unchanged, so S + L is in
/// [L, 2L), non-canonical. A change of R, A or M alone changes
/// k′ = H(R′ ‖ A′ ‖ M′) mod L, and the signature verifies only if
/// R′ = [S′]B − [k′]A′, an equation a hash output no one can steer satisfies with
/// chance about 2^-252 per input: accepting it would be a forgery (and accepting
/// S + L, malleability).
///
/// Two verifications per input instead of four: `verify_strict` is `verify` plus the
/// small-order test, and the verifications were nearly all of this target's time
/// (fuzz/README.md, Speed).
fn ed25519_verify(data: &[u8]) -> Result<(), Report> {
    let mut g = Input::new(data);
    let kind_and_mode = pattern(g.selector(), 6);
    let kind = kind_and_mode >> 1;
    let (plain_tier, strict_tier) = if kind_and_mode & 1 == 0 {
        (EdVariant::Reference, EdVariant::Optimized)
    } else {
        (EdVariant::Optimized, EdVariant::Reference)
    };
    let lens = g.u8();
    let pk_len = length(&mut g, lens & 0x0f, 32);
    let sig_len = length(&mut g, lens >> 4, 64);
    let msg_len = g.below(257) as usize;
    let mut pk = vec![0u8; pk_len];
    let mut sig = vec![0u8; sig_len];
    let mut msg = vec![0u8; msg_len];
    let mut genuine = false;
    // For a real signature made invalid: the byte of A ‖ R ‖ S ‖ M changed, and
    // whether S was then replaced by S + L (formatted only in a report).
    let mut changed_at: Option<usize> = None;
    let mut plus_l = false;
    match kind {
        0 => {
            g.fill(&mut pk);
            g.fill(&mut sig);
        }
        1 => {
            let enc = &ed::SMALL_ORDER_ENCODINGS;
            let a = enc[g.below(14) as usize];
            let r = enc[g.below(14) as usize];
            let n = pk_len.min(32);
            pk[..n].copy_from_slice(&a[..n]);
            let n = sig_len.min(32);
            sig[..n].copy_from_slice(&r[..n]);
            if g.bit() && sig_len > 32 {
                g.fill(&mut sig[32..]);
            }
        }
        _ => {
            let seed = g.array::<32>();
            g.fill(&mut msg);
            let key = EdVariant::Reference
                .keygen(&seed)
                .map_err(|e| format!("keygen from 32 bytes: {e:?}"))?;
            let s = EdVariant::Reference.sign(&key, &msg);
            let kpk = key.public_key();
            let n = pk_len.min(32);
            pk[..n].copy_from_slice(&kpk[..n]);
            let n = sig_len.min(64);
            sig[..n].copy_from_slice(&s[..n]);
            // Position 0 (also what a short input reads): no change; else byte
            // at − 1 of pk ‖ sig ‖ msg.
            let at = g.below(32 + 64 + msg_len as u64 + 1) as usize;
            let flip = g.u8() | 1;
            genuine = true;
            if let Some(i) = at.checked_sub(1) {
                let byte = if i < 32 {
                    pk.get_mut(i)
                } else if i < 96 {
                    sig.get_mut(i - 32)
                } else {
                    msg.get_mut(i - 96)
                };
                if let Some(b) = byte {
                    *b ^= flip;
                    changed_at = Some(i);
                    genuine = false;
                }
            }
            // S is the last 32 bytes of a 64-byte signature; any other length has
            // none (and gets InvalidLength).
            if g.bit()
                && let Some(s) = sig
                    .get_mut(32..)
                    .and_then(|t| <&mut [u8; 32]>::try_from(t).ok())
            {
                add_l(s);
                plus_l = true;
                genuine = false;
            }
        }
    }
    if kind != 2 {
        g.fill(&mut msg);
    }
    let plain = plain_tier.verify(&pk, &msg, &sig);
    let strict = strict_tier.verify_strict(&pk, &msg, &sig);
    // Labels for a report, formatted only when there is one.
    let plain_what = Called(plain_tier, "verify");
    let strict_what = Called(strict_tier, "verify_strict");
    let length_error = if pk_len != 32 {
        Some(Error::InvalidLength {
            what: "public key",
            expected: 32,
            got: pk_len,
        })
    } else if sig_len != 64 {
        Some(Error::InvalidLength {
            what: "signature",
            expected: 64,
            got: sig_len,
        })
    } else {
        None
    };
    if let Some(e) = length_error {
        expect_error(plain_what, &plain, &e)?;
        return expect_error(strict_what, &strict, &e);
    }
    for (what, r) in [(plain_what, &plain), (strict_what, &strict)] {
        if !matches!(r, Ok(()) | Err(Error::InvalidSignature)) {
            return Err(format!("{what}: {r:?} is neither Ok nor InvalidSignature"));
        }
    }
    let a_or_r_small = ed::SMALL_ORDER_ENCODINGS
        .iter()
        .any(|e| pk[..] == e[..] || sig[..32] == e[..]);
    if a_or_r_small {
        if strict.is_ok() {
            return Err(format!("{strict_what} accepted a small-order A or R"));
        }
        let again = strict_tier.verify(&pk, &msg, &sig);
        if again != plain {
            return Err(format!(
                "verify: the tiers differ: {plain_what} {plain:?}, {} {again:?}",
                Called(strict_tier, "verify")
            ));
        }
    } else if strict != plain {
        return Err(format!(
            "{strict_what} {strict:?} differs from {plain_what} {plain:?}, and neither A nor R has small order"
        ));
    }
    if genuine && (plain.is_err() || strict.is_err()) {
        return Err(format!(
            "a genuine signature was refused: {plain_what} {plain:?}, {strict_what} {strict:?}"
        ));
    }
    if (changed_at.is_some() || plus_l) && (plain.is_ok() || strict.is_ok()) {
        let what = match (changed_at, plus_l) {
            (Some(i), false) => format!("byte {i} of A ‖ R ‖ S ‖ M changed"),
            (Some(i), true) => format!("byte {i} of A ‖ R ‖ S ‖ M changed, then S + L"),
            _ => "S replaced by S + L".into(),
        };
        return Err(format!(
            "a real signature, {what}, was accepted: {plain_what} {plain:?}, {strict_what} {strict:?}"
        ));
    }
    Ok(())
}

/// The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian
/// (RFC 8032 5.1), written here so the harness does not use the code under test.
const ED25519_L: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

/// `s += L` on a 32-byte little-endian integer, mod 2^256 (no carry out for any
/// S < 2^256 − L, every S a signer produces among them: S < L).
fn add_l(s: &mut [u8; 32]) {
    let mut carry = 0u16;
    for (b, l) in s.iter_mut().zip(ED25519_L) {
        let t = u16::from(*b) + u16::from(l) + carry;
        *b = t as u8;
        carry = t >> 8;
    }
}

/// Ed25519 verification.
pub static ED25519_VERIFY: Parser = Parser {
    name: "ed25519_verify",
    what: "Ed25519 verify and verify_strict on arbitrary public key, signature and message, one tier per mode",
    max_len: 1 + 1 + 1 + 1 + 2 + 32 + 64 + 256 + 3,
    check: |data| ed25519_verify(data).map_err(Violation),
    // The selector also picks the tier in plain mode: 0x00 gives the reference for
    // kind 0, 0x80 and 0xff the optimized one for kinds 1 and 2; 0x40, 0x60 and 0xc0
    // the other tier for each.
    extra_seeds: &[[0x40, 0x11], [0x60, 0x11], [0xc0, 0x11]],
};

/// `sign_input`: [`ed::check_sign_input_lines`] on arbitrary text, both tiers:
/// identical results (lines checked, or the failing line and its reason), and a
/// failure names a line that exists.
fn sign_input(data: &[u8]) -> Result<(), Report> {
    let a = ed::check_sign_input_lines(data, EdVariant::Reference, |_| {});
    let b = ed::check_sign_input_lines(data, EdVariant::Optimized, |_| {});
    same_public("check_sign_input_lines", &a, &b)?;
    let lines = data.split(|&c| c == b'\n').count();
    match a {
        Err(f) if f.line > lines => Err(format!("failure on line {} of {lines}", f.line)),
        Ok(n) if n == 0 || n > lines => Err(format!("{n} lines checked of {lines}")),
        _ => Ok(()),
    }
}

/// The sign.input line parser.
pub static SIGN_INPUT: Parser = Parser {
    name: "sign_input",
    what: "the ed25519 sign.input line parser and checker (equivalence::ed25519::check_sign_input_lines), both tiers",
    max_len: 4096,
    check: |data| sign_input(data).map_err(Violation),
    extra_seeds: &[],
};

/// `kat_response`: [`crate::kat::parse_response`] on arbitrary text: a typed error
/// naming a line that exists, or entries that print back ([`crate::kat::Entry::to_text`])
/// to text that parses to the same entries.
fn kat_response(data: &[u8]) -> Result<(), Report> {
    let text = String::from_utf8_lossy(data);
    match crate::kat::parse_response(&text) {
        Err(e) => {
            let lines = text.lines().count();
            if e.line > lines {
                return Err(format!("error on line {} of {lines}: {e}", e.line));
            }
            Ok(())
        }
        Ok(resp) => {
            let printed: String = resp.entries.iter().map(|e| e.to_text() + "\n").collect();
            let again = crate::kat::parse_response(&printed)
                .map_err(|e| format!("printed entries do not parse: {e}"))?;
            // Entries hold sk and ss: a difference is named by entry and count, not
            // shown.
            match again
                .entries
                .iter()
                .zip(&resp.entries)
                .position(|(a, b)| a != b)
            {
                _ if again.entries.len() != resp.entries.len() => Err(format!(
                    "printing and parsing gave {} entries, not {}",
                    again.entries.len(),
                    resp.entries.len()
                )),
                Some(i) => Err(format!(
                    "entry {i} (count = {}) differs after printing and parsing",
                    resp.entries[i].count
                )),
                None => Ok(()),
            }
        }
    }
}

/// The KAT response-file reader.
pub static KAT_RESPONSE: Parser = Parser {
    name: "kat_response",
    what: "the NIST KAT response-file reader (equivalence::kat::parse_response)",
    max_len: 16384,
    check: |data| kat_response(data).map_err(Violation),
    extra_seeds: &[],
};

/// Every parser target.
pub static ALL: &[&Parser] = &[
    &ED25519_VERIFY,
    &KAT_RESPONSE,
    &MLKEM_DECAPS,
    &MLKEM_EK,
    &NTRU_DECAPS,
    &NTRU_DECODE,
    &NTRU_ENCAPS,
    &SIGN_INPUT,
    &SNTRUP761_DECAPS,
    &SNTRUP761_DECODE,
    &SNTRUP761_ENCAPS,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Each check passes on short inputs of every kind byte (zeros past the end), so
    /// every branch of every harness runs in the unit tests.
    #[test]
    fn every_parser_passes_on_every_kind() {
        for p in ALL {
            for sel in [0u8, 1, 0x55, 0x80, 0xaa, 0xff] {
                for second in [0u8, 1, 2, 0x11, 0xff] {
                    for third in [0u8, 0xff] {
                        let input = [sel, second, third, 0xff, 7];
                        if let Err(e) = (p.check)(&input) {
                            panic!("{} on {input:02x?}: {e}", p.name);
                        }
                    }
                }
            }
        }
    }

    /// Each check passes on random inputs of every length up to its `max_len` (random
    /// bytes reach what short zero-padded ones do not: an ML-KEM key with a 12-bit
    /// value >= q, a wrong H(ek), a ciphertext that decodes to anything).
    #[test]
    fn every_parser_passes_on_random_inputs() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{Rng, SeedableRng};
        let mut g = ChaCha8Rng::seed_from_u64(0x9a);
        for p in ALL {
            for _ in 0..100 {
                let len = (g.next_u64() % (p.max_len as u64 + 1)) as usize;
                let mut input = vec![0u8; len];
                g.fill_bytes(&mut input);
                if let Err(e) = (p.check)(&input) {
                    panic!("{} on {}: {e}", p.name, hex::encode(&input));
                }
            }
        }
    }

    /// A finding names a differing shared key by fingerprint only, never its bytes;
    /// errors and the lengths of public bytes are shown as they are.
    #[test]
    fn findings_show_keys_only_by_fingerprint() {
        let (k1, k2) = ([0x5au8; 32], [0xa5u8; 32]);
        let found = same("decaps", &Ok::<_, Error>(k1), &Ok(k2)).unwrap_err();
        assert!(
            found.contains("key #") && found.contains("decaps"),
            "{found}"
        );
        for k in [k1, k2] {
            assert!(!found.contains(&hex::encode(k)[..8]), "{found}");
            assert!(!found.contains(&format!("{k:?}")[..12]), "{found}");
        }
        let encaps = (vec![0x5au8; 768], k1);
        let found = expect_error("ek", &Ok(encaps), &Error::ModulusCheck).unwrap_err();
        assert!(
            found.contains("768 bytes #") && !found.contains("5a5a5a5a"),
            "{found}"
        );
        let found = same("decaps", &Ok(k1), &Err(Error::HashCheck)).unwrap_err();
        assert!(found.contains("Err(HashCheck)"), "{found}");
    }

    /// `ed25519_verify` lets `verify_strict` differ from the other tier's `verify` only
    /// for a small-order A or R: A = R = the identity with S = 0 verifies for every
    /// message and is refused in strict mode, under both assignments of the modes.
    #[test]
    fn ed25519_verify_allows_strict_refusal_only_for_small_order() {
        let identity = ed::SMALL_ORDER_ENCODINGS[2];
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&identity);
        for v in EdVariant::ALL {
            assert_eq!(v.verify(&identity, b"", &sig), Ok(()));
            assert_eq!(
                v.verify_strict(&identity, b"", &sig),
                Err(Error::InvalidSignature)
            );
        }
        // pattern(b, 6) of 0x60 is 2, of 0x80 3: kind 1, the reference then the
        // optimized tier in plain mode. Right lengths, an empty message, A and R at
        // index 2 of the list (below(14) of 0x30), S zero.
        for sel in [0x60u8, 0x80] {
            let input = [sel, 0x11, 0, 0, 0x30, 0x30, 0];
            assert_eq!(ed25519_verify(&input), Ok(()), "{sel:#x}");
        }
    }

    /// `add_l` adds the group order mod 2^256: checked against two-limb `u128`
    /// arithmetic on 0, L − 1, 0xaa.. (carries through part of the low half) and
    /// 2^256 − 1 (carries through every byte, and out); L itself against its decimal
    /// value.
    #[test]
    fn add_l_adds_the_group_order() {
        let halves = |b: &[u8; 32]| {
            (
                u128::from_le_bytes(b[..16].try_into().expect("16 bytes")),
                u128::from_le_bytes(b[16..].try_into().expect("16 bytes")),
            )
        };
        let (l_lo, l_hi) = halves(&ED25519_L);
        assert_eq!(l_hi, 1 << 124, "L = 2^252 + a 125-bit value");
        assert_eq!(l_lo, 27_742_317_777_372_353_535_851_937_790_883_648_493);
        let mut l_minus_1 = ED25519_L;
        l_minus_1[0] -= 1;
        for s in [[0u8; 32], l_minus_1, [0xaa; 32], [0xff; 32]] {
            let (lo, hi) = halves(&s);
            let (want_lo, carry) = lo.overflowing_add(l_lo);
            let want_hi = hi.wrapping_add(l_hi).wrapping_add(u128::from(carry));
            let mut got = s;
            add_l(&mut got);
            assert_eq!(halves(&got), (want_lo, want_hi), "{s:02x?}");
        }
    }

    /// The encapsulation targets' expectations report a tier that draws for a key it
    /// refuses, one that draws too little or too much for a key it takes, and a
    /// right-length key that is refused.
    #[test]
    fn encaps_expectations_report_wrong_draws() {
        use reference::RandomSource;
        let fresh = || Replay::new(vec![7; 16]);
        let drawn = |n: usize| {
            let mut r = fresh();
            r.fill(&mut vec![0u8; n]);
            r
        };
        let refused: Result<(), Error> = Err(Error::InvalidLength {
            what: "public key",
            expected: 699,
            got: 3,
        });
        let (short, right) = (("public key", 699, 3), ("public key", 699, 699));
        let report = |key, got: &Result<(), Error>, rngs: [&Replay; 2]| {
            encaps_expected(key, got, rngs, 16).expect_err("a report")
        };
        assert_eq!(
            encaps_expected(short, &refused, [&fresh(), &fresh()], 16),
            Ok(())
        );
        let found = report(short, &refused, [&fresh(), &drawn(16)]);
        assert!(
            found.contains("optimized tier drew 16 bytes, expected 0"),
            "{found}"
        );
        assert_eq!(
            encaps_expected(right, &Ok(()), [&drawn(16), &drawn(16)], 16),
            Ok(())
        );
        let found = report(right, &Ok(()), [&drawn(4), &drawn(16)]);
        assert!(
            found.contains("reference tier drew 4 bytes, expected 16"),
            "{found}"
        );
        let found = report(right, &Ok(()), [&drawn(16), &drawn(17)]);
        assert!(found.contains("and more"), "{found}");
        let found = report(right, &refused, [&drawn(16), &drawn(16)]);
        assert!(found.contains("was refused"), "{found}");
    }

    /// The ML-KEM decapsulation check sees a generated key's K and, after a change of
    /// one ciphertext byte, J(z ‖ c).
    #[test]
    fn mlkem_decaps_checks_the_real_and_the_rejection_key() {
        // Kind 2 (below(6) of 0xc0 is 4, of 0xff 5: the reference, then the optimized
        // tier through the encoded-key API), right lengths, seeds 1, 2, 3.
        for kind_and_api in [0xc0u8, 0xff] {
            let mut input = vec![0u8, kind_and_api, 0x11];
            input.extend([1u8; 32]);
            input.extend([2u8; 32]);
            input.extend([3u8; 32]);
            // Past the end the position reads 0: c unchanged, K is the encapsulated key.
            assert_eq!(mlkem_decaps(&input), Ok(()));
            // Position 0xffff maps to ct_len: the last byte of c changed, K = J(z || c).
            input.extend([0xffu8, 0xff]);
            assert_eq!(mlkem_decaps(&input), Ok(()));
        }
    }

    /// The sntrup761 and NTRU decapsulation checks with the generated key pair: its
    /// ciphertext must give the encapsulated key, a changed one another key, and for
    /// sntrup761 the harness's own implicit-rejection key; for NTRU another valid
    /// ciphertext (one of the malleated kind, or simply a second encapsulation) may
    /// give a real key, and a ciphertext with an unused bit set must give the
    /// rejection key.
    #[test]
    fn kem_decaps_checks_the_real_and_the_rejection_key() {
        type Decaps = fn(&[u8], &[u8]) -> Result<[u8; 32], Error>;
        let cases: [(KemScheme, RejectionKey, Decaps); 2] = [
            (
                KemScheme::Sntrup761,
                crate::sntrup761::rejection_key,
                |sk, ct| {
                    SntrupVariant::Optimized
                        .decapsulate(sk, ct)
                        .map(|k| *k.as_bytes())
                },
            ),
            (
                KemScheme::Ntru,
                crate::ntruhps2048509::rejection_key,
                |sk, ct| NtruVariant::Optimized.decaps(sk, ct).map(|k| *k.as_bytes()),
            ),
        ];
        for (scheme, rejection, decaps) in cases {
            let g = generated_key(scheme);
            let real = decaps(&g.sk, &g.ct).expect("right lengths");
            assert_eq!(real, g.key);
            let expected = (scheme == KemScheme::Sntrup761).then_some(rejection);
            let check = |ct: &[u8], key: &[u8; 32]| {
                generated_key_expectation(scheme, &g.sk, ct, key, expected)
            };
            assert_eq!(check(&g.ct, &real), Ok(()));
            let mut changed = g.ct.clone();
            changed[0] ^= 1;
            let rejected = decaps(&g.sk, &changed).expect("right lengths");
            // The harness's rejection key is the one the code under test computes.
            assert_eq!(rejected, rejection(&g.sk, &changed), "{scheme:?}");
            assert_ne!(rejected, real);
            assert_eq!(check(&changed, &rejected), Ok(()));
            // Each expectation refuses the other key.
            assert!(check(&g.ct, &rejected).is_err());
            assert!(check(&changed, &real).is_err());
            // Any third key: sntrup761 expects the rejection key, NTRU only another.
            assert_eq!(check(&changed, &[7; 32]).is_err(), expected.is_some());
            // Another secret key: nothing is expected here.
            let mut other = g.sk.clone();
            other[0] ^= 1;
            assert_eq!(
                generated_key_expectation(scheme, &other, &changed, &real, expected),
                Ok(())
            );
        }
        // NTRU: a second encapsulation to the generated key is another ciphertext with
        // a real key, which the check must allow.
        use reference::ntruhps2048509::params::{CIPHERTEXT_BYTES, SAMPLE_RM_BYTES};
        let g = generated_key(KemScheme::Ntru);
        let (c2, k2) = NtruVariant::Optimized
            .encaps_derand(&g.pk, &[9; SAMPLE_RM_BYTES])
            .expect("a generated public key");
        assert_eq!(NtruVariant::Optimized.decaps(&g.sk, &c2), Ok(k2.clone()));
        assert_ne!(
            k2.as_bytes(),
            &crate::ntruhps2048509::rejection_key(&g.sk, &c2)
        );
        assert_eq!(
            generated_key_expectation(KemScheme::Ntru, &g.sk, &c2, k2.as_bytes(), None),
            Ok(())
        );
        // ntru_decaps itself: the generated ciphertext with an unused bit set (only
        // that flip is certain to be rejected: the polynomial is unchanged).
        let mut input = vec![0x11];
        input.extend(&g.sk);
        input.extend(&g.ct);
        input[1 + g.sk.len() + CIPHERTEXT_BYTES - 1] |= 0x10;
        assert_eq!(ntru_decaps(&input), Ok(()));
    }

    /// A wrong-length ciphertext with a dk that fails its hash check: `decaps` names
    /// the ciphertext, the parsed-key API the dk; either tier on either API.
    #[test]
    fn mlkem_decaps_allows_each_api_its_own_first_error() {
        // ML-KEM-512 (selector 0), kind 0 with each API assignment, dk of the right
        // length (low nibble 1) and a ciphertext of the wrong one (high nibble 0).
        for kind_and_api in [0x00u8, 0x30] {
            let mut input = vec![0u8, kind_and_api, 0x01];
            input.extend(vec![0x5a; 4000]);
            assert_eq!(mlkem_decaps(&input), Ok(()));
        }
    }
}
