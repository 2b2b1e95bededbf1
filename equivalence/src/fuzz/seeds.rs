//! Seed corpora for the built-in targets.
//!
//! * [`edge_seeds`]: made by construction, committed in `fuzz/seeds/<target>/` (a few
//!   KB in all): for a pair target, selector bytes
//!   spread over every pair's extreme patterns (every sixteenth selector of a kernel
//!   pair; the rest of the input reads as zeros);
//!   for a parser target, short inputs over its mode and length bytes (and, for the
//!   sntrup761 and NTRU decapsulation targets, one key pair with a valid ciphertext,
//!   made by the optimized tier from a fixed seed, and again with that ciphertext
//!   changed; for the ML-KEM and Ed25519 ones, genuine inputs changed; for the
//!   decoder targets, each decoder's input all ones), and for the
//!   text parsers small well-formed and broken texts (one `sign.input` line built
//!   from RFC 8032 TEST 1, which the repository quotes).
//! * [`vector_seeds`]: made at run time from the official vectors (`../shared/vectors`
//!   or `REFOPT_VECTORS`) into the gitignored `fuzz/corpus/`, never committed: the
//!   count-0 KAT files and their keys and ciphertexts in each parser's input format,
//!   `sign.input` lines, the NTRU kernel vectors as polynomial inputs; plus the
//!   default run's own inputs of every pair ([`crate::registry::case_input`]).

use std::path::Path;
use std::sync::OnceLock;

use super::{Class, Kind, TARGETS, Target, pairs_of, selector_for};
use crate::registry;

/// A named seed.
pub type Seed = (String, Vec<u8>);

/// The byte `b` for which `pattern(b, n) == i`.
fn sel(i: usize, n: usize) -> u8 {
    selector_for(i, n)
}

/// The smallest u16 (little-endian bytes) that [`crate::pair::Input::below`] maps to
/// `value` for a `bound` in 257..=65 536. Panics when `value >= bound` (no such u16).
fn below16(value: usize, bound: usize) -> [u8; 2] {
    let v = (0..=u16::MAX)
        .find(|&x| (usize::from(x) * bound) >> 16 == value)
        .expect("value < bound <= 65 536");
    v.to_le_bytes()
}

/// The scheme of a decapsulation target whose inputs are a bare secret key and
/// ciphertext (`0x11`, then sk ‖ ct), or of an encapsulation target (`0x11`, then
/// pk ‖ the draw): the targets that get a generated seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KemScheme {
    /// sntrup761 (`sntrup761_decaps`, `sntrup761_encaps`).
    Sntrup761,
    /// NTRU-HPS-2048-509 (`ntru_decaps`, `ntru_encaps`).
    Ntru,
}

impl KemScheme {
    /// The scheme of decapsulation target `name`, if it is one.
    fn of(name: &str) -> Option<Self> {
        match name {
            "sntrup761_decaps" => Some(Self::Sntrup761),
            "ntru_decaps" => Some(Self::Ntru),
            _ => None,
        }
    }

    /// The scheme of encapsulation target `name` (`0x11`, then pk ‖ the draw), if it
    /// is one.
    fn of_encaps(name: &str) -> Option<Self> {
        match name {
            "sntrup761_encaps" => Some(Self::Sntrup761),
            "ntru_encaps" => Some(Self::Ntru),
            _ => None,
        }
    }

    /// The scheme's name in `../shared/vectors` (see `kat0`).
    fn vectors(self) -> &'static str {
        match self {
            Self::Sntrup761 => "sntrup761",
            Self::Ntru => "ntruhps2048509",
        }
    }
}

/// The key pair of a decapsulation target's `generated-key` seeds, a ciphertext
/// encapsulated to it and the key that encapsulation gave. A fixed test key, public
/// by construction (its secret key is committed as a seed).
#[derive(Debug)]
pub(super) struct GeneratedKey {
    /// The public key (tests encapsulate to it again; the targets need only sk).
    #[cfg(test)]
    pub pk: Vec<u8>,
    /// The secret key.
    pub sk: Vec<u8>,
    /// A ciphertext encapsulated to the secret key's public key.
    pub ct: Vec<u8>,
    /// The shared secret that encapsulation gave.
    pub key: [u8; 32],
}

/// The [`GeneratedKey`] of `scheme`, made once per process by the optimized tier from
/// a fixed ChaCha20 seed.
pub(super) fn generated_key(scheme: KemScheme) -> &'static GeneratedKey {
    static SNTRUP761: OnceLock<GeneratedKey> = OnceLock::new();
    static NTRU: OnceLock<GeneratedKey> = OnceLock::new();
    let cell = match scheme {
        KemScheme::Sntrup761 => &SNTRUP761,
        KemScheme::Ntru => &NTRU,
    };
    cell.get_or_init(|| {
        let mut rng = reference::rng::ChaCha20Source::new([0x5e; 32]);
        match scheme {
            KemScheme::Ntru => {
                use crate::ntruhps2048509::Variant;
                let kp = Variant::Optimized
                    .keypair(&mut rng)
                    .expect("a ChaCha20 stream gives f ≠ 0");
                let mut coins = [0u8; reference::ntruhps2048509::params::SAMPLE_RM_BYTES];
                reference::RandomSource::fill(&mut rng, &mut coins);
                let (ct, key) = Variant::Optimized
                    .encaps_derand(kp.pk(), &coins)
                    .expect("a generated public key is valid");
                GeneratedKey {
                    #[cfg(test)]
                    pk: kp.pk().to_vec(),
                    sk: kp.sk().to_vec(),
                    ct: ct.to_vec(),
                    key: *key.as_bytes(),
                }
            }
            KemScheme::Sntrup761 => {
                use crate::sntrup761::Variant;
                let kp = Variant::Optimized.keypair(&mut rng);
                let (ct, key) = Variant::Optimized
                    .encapsulate(kp.pk(), &mut rng)
                    .expect("a generated public key is valid");
                GeneratedKey {
                    #[cfg(test)]
                    pk: kp.pk().to_vec(),
                    sk: kp.sk().to_vec(),
                    ct,
                    key: *key.as_bytes(),
                }
            }
        }
    })
}

/// `0x11` (both lengths right), then the secret key and `ct` of `scheme`'s
/// [`GeneratedKey`].
fn generated_key_seed(scheme: KemScheme, ct: &[u8]) -> Vec<u8> {
    let mut seed = vec![0x11];
    seed.extend(&generated_key(scheme).sk);
    seed.extend(ct);
    seed
}

/// `0x11` (the right length), a public key and the encapsulation's draw: the
/// optimized tier of `scheme` from a fixed ChaCha20 seed. Arbitrary bytes reach the
/// same code (every key of the right length encapsulates), but an input that ends
/// after its length byte draws all zeros: r = 0 for NTRU, which multiplies nothing.
fn generated_public_key_seed(scheme: KemScheme) -> Vec<u8> {
    let mut rng = reference::rng::ChaCha20Source::new([0xe5; 32]);
    let (pk, draw) = match scheme {
        KemScheme::Ntru => (
            crate::ntruhps2048509::Variant::Optimized
                .keypair(&mut rng)
                .expect("a ChaCha20 stream gives f ≠ 0")
                .pk()
                .to_vec(),
            reference::ntruhps2048509::params::SAMPLE_RM_BYTES,
        ),
        KemScheme::Sntrup761 => (
            crate::sntrup761::Variant::Optimized
                .keypair(&mut rng)
                .pk()
                .to_vec(),
            4 * reference::sntrup761::P,
        ),
    };
    let mut seed = vec![0x11];
    seed.extend(pk);
    let at = seed.len();
    seed.resize(at + draw, 0);
    reference::RandomSource::fill(&mut rng, &mut seed[at..]);
    seed
}

/// Edge seeds of target `t` (see the module documentation).
pub fn edge_seeds(t: &Target) -> Vec<Seed> {
    let mut out = Vec::new();
    match t.kind {
        Kind::Pairs(names) => {
            let n = names.len();
            // A kernel pair: selectors 0, 16, .., 240, so that every extreme pattern of
            // a decoder with up to 16 of them is a seed (the sntrup761 products have
            // 14); an API pair: eight seeds per target, spread over the pairs.
            let kernel = t.class == Class::Kernel;
            let per = if kernel { 16 } else { (8 / n).max(2) };
            for i in 0..n {
                for j in 0..per {
                    let s = if kernel {
                        (16 * j) as u8
                    } else {
                        ((j * 255) / (per - 1)) as u8
                    };
                    let mut seed = Vec::new();
                    if n > 1 {
                        seed.push(sel(i, n));
                    }
                    seed.push(s);
                    out.push((format!("edge-{i}-{s:02x}"), seed));
                }
            }
        }
        Kind::Parser(p) => {
            match p.name {
                "sign_input" => {
                    let v = &crate::ed25519::RFC8032[0];
                    let line = format!(
                        "{}{}:{}:{}:{}{}:\n",
                        v.secret_key, v.public_key, v.public_key, v.message, v.signature, v.message
                    );
                    out.push(("rfc8032-test1".into(), line.clone().into_bytes()));
                    let mut bad = line.clone().into_bytes();
                    bad[130] ^= 1; // one hex digit of pk
                    out.push(("rfc8032-test1-bad-pk".into(), bad));
                    out.push(("fields".into(), b"00:00:00:00:\n".to_vec()));
                    out.push(("empty-line".into(), b"\n\n".to_vec()));
                }
                "kat_response" => {
                    let seed = "00".repeat(48);
                    out.push((
                    "one-entry".into(),
                    format!("# x\n\ncount = 0\nseed = {seed}\npk = 01\nsk = 02\nct = 03\nss = 04\n\n")
                        .into_bytes(),
                ));
                    out.push(("count-only".into(), b"count = 0\nseed = \n".to_vec()));
                    out.push(("two-headers".into(), b"# a\n# b\n".to_vec()));
                }
                _ => {
                    // The first bytes of a parser input choose the parameter set, the
                    // kind and the lengths (a zero length nibble: any length; 0x11:
                    // the right lengths): every combination of their extremes.
                    for a in [0x00u8, 0x80, 0xff] {
                        for b in [0x00u8, 0x11, 0x80, 0xff] {
                            out.push((format!("edge-{a:02x}-{b:02x}"), vec![a, b, 0x11, 0x11]));
                        }
                    }
                    for &[a, b] in p.extra_seeds {
                        out.push((format!("edge-{a:02x}-{b:02x}"), vec![a, b, 0x11, 0x11]));
                    }
                    if p.name == "mlkem_decaps" {
                        // ML-KEM-512, a generated key pair (kind 2, the reference
                        // tier on the encoded-key API; d, z, m all 1s, 2s, 3s) with the
                        // last ciphertext byte changed (position 0xffff): the one input
                        // class whose K the harness computes as J(z ‖ c) itself.
                        let mut s = vec![0x00, 0xc0, 0x11];
                        for fill in [1u8, 2, 3] {
                            s.extend([fill; 32]);
                        }
                        s.extend([0xff, 0xff]);
                        out.push(("generated-key-changed".into(), s));
                    }
                    if p.name == "ed25519_verify" {
                        // A real signature (kind 2, the optimized tier in plain mode;
                        // seed all 7s) on a 100-byte message (0x5a each), with the
                        // message's last byte changed, or unchanged and S replaced by
                        // S + L: each must be refused, and the tier comparison cannot
                        // see a bug both tiers share that accepts them.
                        let mut s = vec![0xff, 0x11];
                        s.extend(below16(100, 257));
                        s.extend([0x07; 32]);
                        s.extend([0x5a; 100]);
                        let mut changed = s.clone();
                        // at = 196 of 0..=196: byte 195 of A ‖ R ‖ S ‖ M, M's last.
                        changed.extend([0xff, 0x01, 0x00]);
                        out.push(("genuine-message-changed".into(), changed));
                        s.extend([0x00, 0x00, 0x01]);
                        out.push(("genuine-s-plus-l".into(), s));
                    }
                    if let Some(lens) = super::parsers::decoder_lengths(p.name) {
                        // Each decoder's input all ones: the largest value every field
                        // can hold, for sntrup761 more than Encode writes (so Decode must
                        // reduce it), for NTRU's 11-bit fields q − 1, and every spare
                        // bit of a last byte set.
                        for (i, len) in lens.into_iter().enumerate() {
                            let mut s = vec![sel(i, 3)];
                            s.resize(1 + len, 0xff);
                            out.push((format!("ones-{i}"), s));
                        }
                    }
                    if let Some(scheme) = KemScheme::of(p.name) {
                        // A key pair and a ciphertext that decapsulates to the
                        // encapsulated key: arbitrary bytes are always implicitly
                        // rejected, by both tiers alike, so only a valid ciphertext
                        // exposes a kernel that differs.
                        let g = generated_key(scheme);
                        out.push(("generated-key".into(), generated_key_seed(scheme, &g.ct)));
                        // The same ciphertext changed, so that it must get the
                        // implicit-rejection key, which the harness computes itself: a
                        // bug both tiers share in the rejection is invisible to the tier
                        // comparison. sntrup761: the last byte of the confirmation hash;
                        // NTRU: only an unused top bit of the last byte (the polynomial
                        // is unchanged, so only `owcpa_check_ciphertext` rejects it).
                        let mut changed = g.ct.clone();
                        let (name, last) = match scheme {
                            KemScheme::Sntrup761 => ("generated-key-changed", 0x01),
                            KemScheme::Ntru => ("generated-key-unused-bits", 0x10),
                        };
                        if let Some(b) = changed.last_mut() {
                            *b ^= last;
                        }
                        out.push((name.into(), generated_key_seed(scheme, &changed)));
                    }
                    if let Some(scheme) = KemScheme::of_encaps(p.name) {
                        out.push(("generated-key".into(), generated_public_key_seed(scheme)));
                    }
                }
            }
        }
    }
    out
}

/// The default run's own inputs of every pair of target `t` (selectors 0, 16, ..,
/// 240 of each kernel pair, 0, 64, 128, 192 of each API pair): every extreme pattern
/// class of the pair's decoder, with random values elsewhere.
pub fn run_seeds(t: &Target) -> Vec<Seed> {
    let mut out = Vec::new();
    if let Kind::Pairs(names) = t.kind {
        for (i, p) in pairs_of(t).iter().enumerate() {
            let cases = if t.class == Class::Api { 4 } else { 16 };
            for j in 0..cases {
                let mut seed = Vec::new();
                if names.len() > 1 {
                    seed.push(sel(i, names.len()));
                }
                seed.extend(registry::case_input(0, *p, (j * (256 / cases)) as u64));
                out.push((format!("run-{i}-{j}"), seed));
            }
        }
    }
    out
}

/// Seeds from the official vectors in `dir` for target `t` (the files a target needs
/// and does not find are skipped).
pub fn vector_seeds(t: &Target, dir: &Path) -> Vec<Seed> {
    let mut out = Vec::new();
    let read = |rel: &str| std::fs::read_to_string(dir.join(rel)).ok();
    let kat0 = |scheme: &str| -> Option<crate::kat::Entry> {
        let text = read(&format!("kat0/kat0-{scheme}.txt"))?;
        crate::kat::parse_response(&text)
            .ok()?
            .entries
            .into_iter()
            .next()
    };
    if let Some(scheme) = KemScheme::of_encaps(t.name) {
        // The KAT's public key, right length; the draws read zeros past the end.
        if let Some(e) = kat0(scheme.vectors()) {
            let mut seed = vec![0x11];
            seed.extend(&e.pk);
            out.push((format!("kat0-{}", scheme.vectors()), seed));
        }
        return out;
    }
    if let Some(scheme) = KemScheme::of(t.name) {
        let s = scheme.vectors();
        if let Some(e) = kat0(s) {
            let mut seed = vec![0x11];
            seed.extend(&e.sk);
            seed.extend(&e.ct);
            out.push((format!("kat0-{s}"), seed));
        }
        return out;
    }
    match t.name {
        "kat_response" => {
            for s in [
                "ml-kem-512",
                "ml-kem-768",
                "ml-kem-1024",
                "ntruhps2048509",
                "sntrup761",
            ] {
                if let Some(text) = read(&format!("kat0/kat0-{s}.txt")) {
                    out.push((format!("kat0-{s}"), text.into_bytes()));
                }
            }
        }
        "sign_input" | "ed25519_verify" => {
            if let Some(text) = read("ed25519/dalek_TESTVECTORS_sign.input.txt") {
                for (i, line) in text.lines().take(8).enumerate() {
                    if t.name == "sign_input" {
                        out.push((format!("sign-input-{i}"), format!("{line}\n").into_bytes()));
                        continue;
                    }
                    let f: Vec<&str> = line.split(':').collect();
                    let (Some(pk), Some(msg), Some(sm)) = (
                        f.get(1).and_then(|h| hex::decode(h).ok()),
                        f.get(2).and_then(|h| hex::decode(h).ok()),
                        f.get(3).and_then(|h| hex::decode(h).ok()),
                    ) else {
                        continue;
                    };
                    if msg.len() > 256 || pk.len() != 32 || sm.len() < 64 {
                        continue;
                    }
                    // kind 0 (raw), right lengths, the message length, pk, sig, msg.
                    let mut seed = vec![0x00, 0x11];
                    seed.extend(below16(msg.len(), 257));
                    seed.extend(&pk);
                    seed.extend(&sm[..64]);
                    seed.extend(&msg);
                    out.push((format!("sign-input-{i}"), seed));
                }
            }
        }
        "mlkem_ek" | "mlkem_decaps" => {
            for (i, s) in ["ml-kem-512", "ml-kem-768", "ml-kem-1024"]
                .iter()
                .enumerate()
            {
                let Some(e) = kat0(s) else { continue };
                let mut seed = vec![sel(i, 3)];
                if t.name == "mlkem_ek" {
                    // Raw key, right length.
                    seed.push(0x11);
                    seed.extend(&e.pk);
                } else {
                    // Kind 0 (the dk as given), right lengths.
                    seed.extend([0x00, 0x11]);
                    seed.extend(&e.sk);
                    seed.extend(&e.ct);
                }
                out.push((format!("kat0-{s}"), seed));
            }
        }
        "sntrup761_decode" => {
            if let Some(e) = kat0("sntrup761") {
                for (i, bytes) in [&e.pk[..], &e.ct[..], &e.sk[..]].into_iter().enumerate() {
                    let mut seed = vec![sel(i, 3)];
                    seed.extend(bytes);
                    out.push((format!("kat0-{i}"), seed));
                }
            }
        }
        "ntru_decode" => {
            if let Some(e) = kat0("ntruhps2048509") {
                for (i, bytes) in [&e.pk[..], &e.ct[..], &e.sk[..]].into_iter().enumerate() {
                    let mut seed = vec![sel(i, 3)];
                    seed.extend(bytes);
                    out.push((format!("kat0-{i}"), seed));
                }
            }
        }
        "ntru_r2_inv" | "ntru_rq_inv" => {
            let file = if t.name == "ntru_r2_inv" {
                "poly_R2_inv"
            } else {
                "poly_Rq_inv"
            };
            let n = if t.name == "ntru_r2_inv" { 2 } else { 3 };
            for (j, a) in ntru_polys(&read(&format!("ntruhps2048509-poly/{file}.txt")), "a", 4)
                .into_iter()
                .enumerate()
            {
                for i in 0..n {
                    // The pair, then pattern 0 (coefficients read from the input).
                    let mut seed = vec![sel(i, n), 0];
                    seed.extend(a.iter().flat_map(|c| c.to_le_bytes()));
                    out.push((format!("vector-{j}-{i}"), seed));
                }
            }
        }
        "ntru_rq_mul" => {
            let text = read("ntruhps2048509-poly/poly_Rq_mul.txt");
            let a = ntru_polys(&text, "a", 4);
            let b = ntru_polys(&text, "b", 4);
            for (j, (a, b)) in a.iter().zip(&b).enumerate() {
                for i in 0..2 {
                    let mut seed = vec![sel(i, 2), 0];
                    seed.extend(a.iter().flat_map(|c| c.to_le_bytes()));
                    seed.push(0);
                    seed.extend(b.iter().flat_map(|c| c.to_le_bytes()));
                    out.push((format!("vector-{j}-{i}"), seed));
                }
            }
        }
        _ => {}
    }
    out
}

/// The first `max` polynomials named `name` (`name = c0 c1 ..`) of an NTRU kernel
/// vector file, as 16-bit coefficients.
fn ntru_polys(text: &Option<String>, name: &str, max: usize) -> Vec<Vec<u16>> {
    let Some(text) = text else {
        return Vec::new();
    };
    let prefix = format!("{name} = ");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .take(max)
        .map(|l| {
            l.split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .collect()
}

/// Writes the seeds of every target into `out/<target>/`: the edge seeds; unless
/// `edge_only`, the default run's inputs; with `vectors`, the vector seeds. Returns
/// the number of files per target.
///
/// # Errors
/// An I/O error creating a directory or writing a file.
pub fn write_all(
    out: &Path,
    edge_only: bool,
    vectors: Option<&Path>,
) -> std::io::Result<Vec<(&'static str, usize)>> {
    let mut counts = Vec::new();
    for t in TARGETS {
        let dir = out.join(t.name);
        std::fs::create_dir_all(&dir)?;
        let mut seeds = edge_seeds(t);
        if !edge_only {
            seeds.extend(run_seeds(t));
        }
        if let Some(v) = vectors {
            seeds.extend(vector_seeds(t, v));
        }
        for (name, bytes) in &seeds {
            std::fs::write(dir.join(name), bytes)?;
        }
        counts.push((t.name, seeds.len()));
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn below16_inverts_below() {
        for (v, bound) in [(0usize, 257usize), (64, 257), (256, 257), (3000, 3329)] {
            let b = below16(v, bound);
            let got = crate::pair::Input::new(&[0, b[0], b[1]]).below(bound as u64);
            assert_eq!(got as usize, v);
        }
    }

    #[test]
    fn edge_seeds_are_small_and_pass() {
        let mut total = 0;
        for t in TARGETS {
            let seeds = edge_seeds(t);
            // At most 16 per kernel pair (every sixteenth selector), 12 otherwise, and
            // one generated key pair (or public key and draw) for the sntrup761 and NTRU
            // decapsulation (encapsulation) targets, the inputs `more` counts below,
            // and the extra seeds a parser declares (at most three).
            const EXTRA_MOST: usize = 3;
            let most = match t.kind {
                Kind::Pairs(names) if t.class == Class::Kernel => 16 * names.len(),
                Kind::Pairs(_) => 12,
                Kind::Parser(p) => {
                    assert!(
                        p.extra_seeds.len() <= EXTRA_MOST,
                        "{}: {} extra seeds",
                        t.name,
                        p.extra_seeds.len()
                    );
                    let generated = KemScheme::of(t.name)
                        .or(KemScheme::of_encaps(t.name))
                        .is_some();
                    // mlkem_decaps, sntrup761_decaps, ntru_decaps: also the generated
                    // key with a changed ciphertext; ed25519_verify: a real signature
                    // changed in two ways; the decoder targets: three all-ones inputs.
                    let more = match t.name {
                        "mlkem_decaps" | "sntrup761_decaps" | "ntru_decaps" => 1,
                        "ed25519_verify" => 2,
                        "sntrup761_decode" | "ntru_decode" => 3,
                        _ => 0,
                    };
                    12 + usize::from(generated) + more + p.extra_seeds.len()
                }
            };
            assert!(
                !seeds.is_empty() && seeds.len() <= most,
                "{}: {} seeds",
                t.name,
                seeds.len()
            );
            // No seed repeats another's name (its file) or bytes: an extra seed that
            // is one of the twelve reaches nothing new.
            let names: BTreeSet<&String> = seeds.iter().map(|(name, _)| name).collect();
            let bytes: BTreeSet<&Vec<u8>> = seeds.iter().map(|(_, s)| s).collect();
            assert_eq!(
                names.len(),
                seeds.len(),
                "{}: two seeds share a name",
                t.name
            );
            assert_eq!(bytes.len(), seeds.len(), "{}: two seeds are equal", t.name);
            for (name, s) in &seeds {
                total += s.len();
                assert!(t.check(s).is_ok(), "{} seed {name} fails", t.name);
            }
        }
        // The two generated key pairs, each with its ciphertext and once more with it
        // changed, are 8 876 bytes of it, the two generated public keys with their
        // draws 7 316, the decoders' all-ones inputs 3 862.
        assert!(total < 24576, "edge seeds total {total} bytes");
    }
}
