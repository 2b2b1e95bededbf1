//! Ed25519 pairs and variants (optimization 4, libgcrypt 9c12226c).
//!
//! * `ed25519/addm`, `ed25519/subm`, `ed25519/mulm` (kernel): the old and new
//!   `ec_*_25519` agree limb for limb on **every** 4-limb input, in range or not.
//!   The selector byte picks, per operand, one of the edge values ([`edge_value`]:
//!   0, 1, p−1, every value p..=2^255+18, 2^256−1, carry-maximising patterns) or a
//!   random value (below p, or any 256 bits).
//! * `ed25519` (API): the same seed and message give identical public keys and
//!   signatures, and both verifiers (`verify` and `verify_strict`) give the same
//!   verdict on the signature, a tampered signature and a wrong message.
//! * `ed25519/verify-garbage` (API): identical verdicts of both modes on random
//!   public keys and signatures (mostly invalid encodings, S >= L, off-curve points)
//!   and on small-order A and R with S = 0.
//!
//! [`check_sign_input`] runs a file in the ed25519 `sign.input` format (for
//! `refopt vectors ed25519 FILE`).

use core::fmt;

use optimized::ed25519::{Optimized, field as new};
use reference::ed25519::field::{self as old, Fe, P_LIMBS};
use reference::ed25519::{self as r, Reference, SigningKey};

use crate::input::Gen;
use crate::registry::{Level, Outcome, Pair, u64_bytes};

/// The Ed25519 variants, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// libgcrypt's field routines before 9c12226c.
    Reference,
    /// After 9c12226c.
    Optimized,
}

impl Variant {
    /// Every variant, reference first.
    pub const ALL: [Variant; 2] = [Variant::Reference, Variant::Optimized];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Reference => "reference",
            Variant::Optimized => "optimized",
        }
    }

    /// Looks a variant up by name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }

    /// RFC 8032 key generation from a 32-byte seed.
    ///
    /// # Errors
    /// [`reference::Error::InvalidLength`] when `seed` is not 32 bytes.
    pub fn keygen(self, seed: &[u8]) -> Result<SigningKey, reference::Error> {
        match self {
            Variant::Reference => SigningKey::from_seed::<Reference>(seed),
            Variant::Optimized => SigningKey::from_seed::<Optimized>(seed),
        }
    }

    /// RFC 8032 signing.
    pub fn sign(self, key: &SigningKey, msg: &[u8]) -> [u8; 64] {
        match self {
            Variant::Reference => r::sign::<Reference>(key, msg),
            Variant::Optimized => r::sign::<Optimized>(key, msg),
        }
    }

    /// RFC 8032 verification (`reference::ed25519::verify`: cofactorless, strict
    /// encodings, small-order A and R accepted).
    ///
    /// # Errors
    /// [`reference::Error::InvalidLength`] for a public key that is not 32 bytes or a
    /// signature that is not 64 bytes; [`reference::Error::InvalidSignature`] for a
    /// signature that does not verify.
    pub fn verify(self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<(), reference::Error> {
        match self {
            Variant::Reference => r::verify::<Reference>(pk, msg, sig),
            Variant::Optimized => r::verify::<Optimized>(pk, msg, sig),
        }
    }

    /// Strict verification (`reference::ed25519::verify_strict`: also rejects
    /// small-order A and R, as ed25519-dalek's `verify_strict`).
    ///
    /// # Errors
    /// As [`Variant::verify`].
    pub fn verify_strict(self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<(), reference::Error> {
        match self {
            Variant::Reference => r::verify_strict::<Reference>(pk, msg, sig),
            Variant::Optimized => r::verify_strict::<Optimized>(pk, msg, sig),
        }
    }

    /// Both verdicts, `verify` then `verify_strict`, as bytes for a comparison:
    /// 1 accepted, 0 [`reference::Error::InvalidSignature`], 2 any other error.
    pub fn verdicts(self, pk: &[u8], msg: &[u8], sig: &[u8]) -> [u8; 2] {
        [
            verdict_byte(self.verify(pk, msg, sig)),
            verdict_byte(self.verify_strict(pk, msg, sig)),
        ]
    }
}

/// A verification result as one byte: 1 accepted, 0 rejected as a bad signature, 2
/// any other error.
pub fn verdict_byte(r: Result<(), reference::Error>) -> u8 {
    match r {
        Ok(()) => 1,
        Err(reference::Error::InvalidSignature) => 0,
        Err(_) => 2,
    }
}

/// The 14 encodings of the eight small-order points of edwards25519 (C2SP/CCTV
/// `ed25519/README.md`): the 8 canonical ones, then the 6 non-canonical ones
/// (y >= p, or x = −0). Signatures under them are the classic forgeries: with A and R
/// of small order and S = 0 the cofactorless equation holds for a fraction of all
/// messages (all of them for A = R = identity).
///
/// # Panics
/// Never: the encodings are constant hex strings (the tests decode them).
pub fn small_order_encodings() -> [[u8; 32]; 14] {
    let mut out = [[0u8; 32]; 14];
    let hex = [
        // canonical
        "0000000000000000000000000000000000000000000000000000000000000000", // order 4
        "0000000000000000000000000000000000000000000000000000000000000080", // order 4
        "0100000000000000000000000000000000000000000000000000000000000000", // identity
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
        // non-canonical
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", // y = p, x sign 1
        "0100000000000000000000000000000000000000000000000000000000000080", // identity, x = -0
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p + 1
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", // y = p + 1, x = -0
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", // order 2, x = -0
    ];
    for (o, h) in out.iter_mut().zip(hex) {
        o.copy_from_slice(&hex::decode(h).expect("constant hex"));
    }
    out
}

/// Number of canonical encodings at the start of [`small_order_encodings`].
pub const SMALL_ORDER_CANONICAL: usize = 8;

/// Number of distinct edge values [`edge_value`] returns.
pub const EDGE_VALUES: usize = 56;

/// Edge value `i` (`i < EDGE_VALUES`): 0, 1, p−1, every value from p to
/// 2^255 + 18 = p + 37, then 2^256−1, 2^256−19 = 2p + 19, 2p, 2p − 1 and
/// carry-maximising limb patterns (all-ones limbs, single top bits, alternating
/// limbs, all-ones below bit 255).
pub fn edge_value(i: usize) -> Fe {
    const M: u64 = u64::MAX;
    let p = P_LIMBS;
    match i {
        0 => [0; 4],
        1 => [1, 0, 0, 0],
        2 => [p[0] - 1, p[1], p[2], p[3]],
        3..=40 => {
            // p + k for k = 0..=37, with the carry out of limb 0 when k >= 19.
            let mut w = [0u64; 4];
            let k = [i as u64 - 3, 0, 0, 0];
            let _ = reference::ed25519::mpih::add_n(&mut w, &p, &k);
            w
        }
        41 => [M; 4],
        42 => [M - 18, M, M, M],
        43 => [p[0] << 1, M, M, M],
        44 => [(p[0] << 1) - 1, M, M, M],
        45 => [M, M, M, 0],
        46 => [M, 0, M, 0],
        47 => [0, M, 0, M],
        48 => [1 << 63, 1 << 63, 1 << 63, 1 << 63],
        49 => [M, M, M, 1 << 63],
        50 => [0, 0, 0, M >> 1],
        51 => [19, 0, 0, 0],
        52 => [38, 0, 0, 0],
        53 => [0xffff_ffff_0000_0000, 0x0000_0000_ffff_ffff, M, 1 << 62],
        54 => [M - 37, M, M, M >> 1],
        _ => [121_666, 0, 0, 0],
    }
}

/// One operand for a kernel pair: an edge value, a random value below p, or 256
/// random bits, chosen by `pattern` in `0..=EDGE_VALUES` (0 means random).
fn operand(g: &mut Gen, pattern: u8) -> Fe {
    match pattern {
        0 => {
            let x: Fe = core::array::from_fn(|_| g.u64());
            if g.below(2) == 0 {
                canonical_random(x)
            } else {
                x
            }
        }
        k => edge_value(usize::from(k) - 1),
    }
}

/// Maps 256 random bits below p by clearing bit 255 (values p..2^255−1 get one
/// conditional subtraction): uniform enough for testing.
fn canonical_random(mut x: Fe) -> Fe {
    x[3] &= M63;
    old::canonical(&x)
}
const M63: u64 = u64::MAX >> 1;

/// The two operands of a kernel-pair case: the selector chooses the left edge
/// pattern (or random), and the right one is an edge value or random half the time.
fn operands(input: &[u8]) -> (Fe, Fe) {
    let mut g = Gen::new(input);
    let sel = g.selector();
    // Selector 0..=255 onto 0..=EDGE_VALUES by multiply-shift (no division).
    let pa = ((u16::from(sel) * (EDGE_VALUES as u16 + 1)) >> 8) as u8;
    let pb = if g.below(2) == 0 {
        g.below(EDGE_VALUES as u64 + 1) as u8
    } else {
        0
    };
    let u = operand(&mut g, pa);
    let v = operand(&mut g, pb);
    (u, v)
}

type FieldOp = fn(&Fe, &Fe) -> Fe;

struct FieldPair {
    name: &'static str,
    old: FieldOp,
    new: FieldOp,
}

impl Pair for FieldPair {
    fn name(&self) -> &'static str {
        self.name
    }
    fn level(&self) -> Level {
        Level::Kernel
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let (u, v) = operands(input);
        compare_limbs(&(self.old)(&u, &v), &(self.new)(&u, &v))
    }
}

/// Compares two limb vectors as bytes, naming the field `w`.
pub fn compare_limbs(reference: &Fe, optimized: &Fe) -> Outcome {
    Outcome::compare([(
        "w",
        u64_bytes(reference).as_slice(),
        u64_bytes(optimized).as_slice(),
    )])
}

static ADDM: FieldPair = FieldPair {
    name: "ed25519/addm",
    old: old::ec_addm_25519::<u64>,
    new: new::ec_addm_25519::<u64>,
};
static SUBM: FieldPair = FieldPair {
    name: "ed25519/subm",
    old: old::ec_subm_25519::<u64>,
    new: new::ec_subm_25519::<u64>,
};
static MULM: FieldPair = FieldPair {
    name: "ed25519/mulm",
    old: old::ec_mulm_25519::<u64>,
    new: new::ec_mulm_25519::<u64>,
};

struct Api;

impl Pair for Api {
    fn name(&self) -> &'static str {
        "ed25519"
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn default_cases(&self) -> usize {
        50
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let seed = g.array::<32>();
        let len = g.below(300) as usize;
        let mut msg = vec![0u8; len];
        g.fill(&mut msg);
        let flip = g.below(512) as usize;
        let run = |v: Variant| {
            let key = v.keygen(&seed).expect("32-byte seed");
            let pk = key.public_key();
            let sig = v.sign(&key, &msg);
            let mut bad = sig;
            bad[flip >> 3] ^= 1 << (flip & 7);
            let mut verdicts = [0u8; 6];
            verdicts[..2].copy_from_slice(&v.verdicts(&pk, &msg, &sig));
            verdicts[2..4].copy_from_slice(&v.verdicts(&pk, &msg, &bad));
            verdicts[4..].copy_from_slice(&v.verdicts(&pk, b"another message", &sig));
            (pk, sig, verdicts)
        };
        let a = run(Variant::Reference);
        let b = run(Variant::Optimized);
        Outcome::compare([
            ("public key", a.0.as_slice(), b.0.as_slice()),
            ("signature", &a.1, &b.1),
            (
                "verdicts (verify, verify_strict) x (valid, tampered, wrong message)",
                &a.2,
                &b.2,
            ),
        ])
    }
}

struct VerifyGarbage;

impl Pair for VerifyGarbage {
    fn name(&self) -> &'static str {
        "ed25519/verify-garbage"
    }
    fn level(&self) -> Level {
        Level::Api
    }
    fn default_cases(&self) -> usize {
        100
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Gen::new(input);
        let mut pk = g.array::<32>();
        let mut sig = g.array::<64>();
        let msg = g.array::<16>();
        // A third of the time make S canonical and A small-y, so decoding and the
        // equation are reached instead of stopping at S >= L; another third, A and R
        // of small order with S = 0 (the forgeries strict mode must refuse).
        match g.below(3) {
            0 => {
                sig[63] &= 0x0f;
                let y = g.below(40) as u8;
                pk = [0; 32];
                pk[0] = y;
                pk[31] = (g.below(2) as u8) << 7;
            }
            1 => {
                let enc = small_order_encodings();
                pk = enc[g.below(14) as usize];
                sig[..32].copy_from_slice(&enc[g.below(14) as usize]);
                sig[32..].fill(0);
            }
            _ => {}
        }
        let a = Variant::Reference.verdicts(&pk, &msg, &sig);
        let b = Variant::Optimized.verdicts(&pk, &msg, &sig);
        Outcome::compare([("verdicts (verify, verify_strict)", &a[..], &b[..])])
    }
}

/// Every Ed25519 pair.
pub static PAIRS: &[&dyn Pair] = &[&ADDM, &SUBM, &MULM, &Api, &VerifyGarbage];

/// The Ed25519 schemes `refopt kat` runs: none (Ed25519 is a signature scheme,
/// not a KEM; its vectors go through [`check_sign_input`]).
pub static KAT_SCHEMES: &[&crate::schemes::KatScheme] = &[];

/// Why a `sign.input` line failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineFailure {
    /// 1-based line number.
    pub line: usize,
    /// What went wrong.
    pub reason: String,
}

impl fmt::Display for LineFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for LineFailure {}

fn unhex_field(s: &str, what: &str, line: usize) -> Result<Vec<u8>, LineFailure> {
    hex::decode(s).map_err(|e| LineFailure {
        line,
        reason: format!("{what}: bad hex ({e})"),
    })
}

/// Checks every non-empty line of `text` in the ed25519 `sign.input` format,
/// `sk:pk:msg:sig:` with sk = seed ‖ pk (64 bytes) and sig = R ‖ S ‖ msg: derives the
/// public key from the seed and compares it, signs and compares the signature
/// byte for byte, and verifies it with `verify` and `verify_strict`. Stops at the
/// first failing line.
///
/// # Errors
/// The first failing line (1-based) and what failed (format, public key, signature
/// or verification). A file with no lines fails too, so an empty file cannot pass.
pub fn check_sign_input(text: &str, variant: Variant) -> Result<usize, LineFailure> {
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let fail = |reason: String| LineFailure { line: n, reason };
        let f: Vec<&str> = line.split(':').collect();
        if f.len() < 4 {
            return Err(fail(format!(
                "expected 4 ':'-separated fields, found {}",
                f.len()
            )));
        }
        let sk = unhex_field(f[0], "sk", n)?;
        let pk = unhex_field(f[1], "pk", n)?;
        let msg = unhex_field(f[2], "msg", n)?;
        let sm = unhex_field(f[3], "sig", n)?;
        if sk.len() != 64 || pk.len() != 32 || sm.len() != 64 + msg.len() {
            return Err(fail(format!(
                "field lengths sk {} pk {} sig {} (expected 64, 32, 64 + {})",
                sk.len(),
                pk.len(),
                sm.len(),
                msg.len()
            )));
        }
        if sk[32..] != pk[..] || sm[64..] != msg[..] {
            return Err(fail(
                "sk does not end in pk, or sig does not end in msg".into(),
            ));
        }
        let key = variant
            .keygen(&sk[..32])
            .map_err(|e| fail(format!("keygen: {e}")))?;
        if key.public_key()[..] != pk[..] {
            return Err(fail(format!(
                "derived public key {} differs from {}",
                hex::encode(key.public_key()),
                f[1]
            )));
        }
        let sig = variant.sign(&key, &msg);
        if sig[..] != sm[..64] {
            return Err(fail(format!(
                "signature {} differs from {}",
                hex::encode(sig),
                hex::encode(&sm[..64])
            )));
        }
        if let Err(e) = variant.verify(&pk, &msg, &sig) {
            return Err(fail(format!("verify: {e}")));
        }
        if let Err(e) = variant.verify_strict(&pk, &msg, &sig) {
            return Err(fail(format!("verify_strict: {e}")));
        }
        checked += 1;
    }
    if checked == 0 {
        return Err(LineFailure {
            line: 0,
            reason: "no lines to check".into(),
        });
    }
    Ok(checked)
}

/// [`check_sign_input`] on a file, for `refopt vectors ed25519 FILE`.
///
/// # Errors
/// A [`LineFailure`] with line 0 when the file cannot be read, else as
/// [`check_sign_input`].
pub fn check_sign_input_file(
    path: &std::path::Path,
    variant: Variant,
) -> Result<usize, LineFailure> {
    let text = std::fs::read_to_string(path).map_err(|e| LineFailure {
        line: 0,
        reason: format!("reading {}: {e}", path.display()),
    })?;
    check_sign_input(&text, variant)
}
