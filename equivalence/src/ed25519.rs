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

use crate::kat::KatScheme;
use crate::pair::{Bound, Input, Level, Outcome, Pair, Sides, pattern, u64_bytes};

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

/// 32 bytes from 64 lowercase or uppercase hex digits, at compile time (a bad
/// string is a compile error where it is used in a constant).
const fn hex32(s: &str) -> [u8; 32] {
    const fn nibble(c: u8) -> u8 {
        match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => panic!("not a hex digit"),
        }
    }
    let s = s.as_bytes();
    assert!(s.len() == 64, "not 64 hex digits");
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (nibble(s[2 * i]) << 4) | nibble(s[2 * i + 1]);
        i += 1;
    }
    out
}

/// The 14 encodings of the eight small-order points of edwards25519 (C2SP/CCTV
/// `ed25519/README.md`): the 8 canonical ones, then the 6 non-canonical ones
/// (y >= p, or x = −0). Signatures under them are the classic forgeries: with A and R
/// of small order and S = 0 the cofactorless equation holds for a fraction of all
/// messages (all of them for A = R = identity). Decoded at compile time, so the
/// fuzz targets compare every input with them without decoding anything.
pub const SMALL_ORDER_ENCODINGS: [[u8; 32]; 14] = [
    // canonical
    hex32("0000000000000000000000000000000000000000000000000000000000000000"), // order 4
    hex32("0000000000000000000000000000000000000000000000000000000000000080"), // order 4
    hex32("0100000000000000000000000000000000000000000000000000000000000000"), // identity
    hex32("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"), // order 8
    hex32("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"), // order 8
    hex32("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"), // order 8
    hex32("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"), // order 8
    hex32("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), // order 2
    // non-canonical
    hex32("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), // y = p
    hex32("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), // y = p, x sign 1
    hex32("0100000000000000000000000000000000000000000000000000000000000080"), // identity, x = -0
    hex32("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), // y = p + 1
    hex32("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), // y = p + 1, x = -0
    hex32("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), // order 2, x = -0
];

/// Number of canonical encodings at the start of [`SMALL_ORDER_ENCODINGS`].
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

/// A 256-bit operand read from the input: 32 bytes as four limbs, below p when the
/// flag bit says so (bit 255 cleared, then one conditional subtraction).
fn random_operand(g: &mut Input<'_>) -> Fe {
    let canonical = g.bit();
    let x: Fe = core::array::from_fn(|_| g.u64());
    if canonical { canonical_random(x) } else { x }
}

/// Maps 256 random bits below p by clearing bit 255 (values p..2^255−1 get one
/// conditional subtraction): uniform enough for testing.
fn canonical_random(mut x: Fe) -> Fe {
    x[3] &= M63;
    old::canonical(&x)
}
const M63: u64 = u64::MAX >> 1;

/// Operand patterns beyond the edge values: (x, p − x) and (x, x) for random x.
const PAIR_PATTERNS: usize = 2;

/// The two operands of a kernel-pair case. The selector picks u: random, one of the
/// [`EDGE_VALUES`], or a pattern that ties v to u — (x, p − x), where addm's sum is
/// exactly p, and (x, x), where subm's difference is exactly 0. Otherwise v is an edge
/// value or random, by one input byte.
fn operands(input: &[u8]) -> (Fe, Fe) {
    let mut g = Input::new(input);
    let pa = pattern(g.selector(), EDGE_VALUES + 1 + PAIR_PATTERNS);
    let pb = pattern(g.u8(), 2 * (EDGE_VALUES + 1));
    let value = |g: &mut Input<'_>, p: usize| {
        if p == 0 || p > EDGE_VALUES {
            random_operand(g)
        } else {
            edge_value(p - 1)
        }
    };
    match pa {
        p if p == EDGE_VALUES + 1 => {
            let x = canonical_random(core::array::from_fn(|_| g.u64()));
            let mut v = [0u64; 4];
            let _ = reference::ed25519::mpih::sub_n(&mut v, &P_LIMBS, &x);
            (x, v)
        }
        p if p == EDGE_VALUES + 2 => {
            let x = random_operand(&mut g);
            (x, x)
        }
        p => {
            let u = value(&mut g, p);
            (u, value(&mut g, pb))
        }
    }
}

/// −1, 0 or 1 as a is below, equal to or above b (256-bit, little-endian limbs).
fn cmp256(a: &[u64], b: &[u64]) -> i128 {
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return if a[i] < b[i] { -1 } else { 1 };
        }
    }
    0
}

const FIELD_BOUNDS: &[Bound] = &[
    Bound::range("limb of u or v", 0, u64::MAX as i128),
    Bound::with_points("sign(u − p)", -1, 1, &[0]),
    Bound::with_points("sign(u + v − p)", -1, 1, &[0]),
    Bound::with_points("sign(u − v)", -1, 1, &[0]),
];

type FieldOp = fn(&Fe, &Fe) -> Fe;

struct FieldPair {
    name: &'static str,
    sides: Sides,
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
    fn sides(&self) -> Sides {
        self.sides
    }
    fn bounds(&self) -> &'static [Bound] {
        FIELD_BOUNDS
    }
    fn default_cases(&self) -> usize {
        // About 2 µs a case: cheap enough for many edge combinations.
        100_000
    }
    fn input_len(&self) -> usize {
        2 + 2 * 33
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let (u, v) = operands(input);
        compare_limbs(&(self.old)(&u, &v), &(self.new)(&u, &v))
    }
    fn observe(&self, input: &[u8], seen: &mut dyn FnMut(&'static str, i128)) {
        let (u, v) = operands(input);
        for &l in u.iter().chain(&v) {
            seen("limb of u or v", i128::from(l));
        }
        seen("sign(u − p)", cmp256(&u, &P_LIMBS));
        seen("sign(u − v)", cmp256(&u, &v));
        let mut sum = [0u64; 5];
        let mut carry = 0u128;
        for i in 0..4 {
            let t = u128::from(u[i]) + u128::from(v[i]) + carry;
            sum[i] = t as u64;
            carry = t >> 64;
        }
        sum[4] = carry as u64;
        let p5 = [P_LIMBS[0], P_LIMBS[1], P_LIMBS[2], P_LIMBS[3], 0];
        seen("sign(u + v − p)", cmp256(&sum, &p5));
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
    sides: Sides::new(
        "reference::ed25519::field::ec_addm_25519 (add, subtract p, add back on borrow)",
        "optimized::ed25519::field::ec_addm_25519 (add, subtract p, conditional copy)",
    ),
    old: old::ec_addm_25519::<u64>,
    new: new::ec_addm_25519::<u64>,
};
static SUBM: FieldPair = FieldPair {
    name: "ed25519/subm",
    sides: Sides::new(
        "reference::ed25519::field::ec_subm_25519 (subtract, add p, subtract back)",
        "optimized::ed25519::field::ec_subm_25519 (subtract, add p, conditional copy)",
    ),
    old: old::ec_subm_25519::<u64>,
    new: new::ec_subm_25519::<u64>,
};
static MULM: FieldPair = FieldPair {
    name: "ed25519/mulm",
    sides: Sides::new(
        "reference::ed25519::field::ec_mulm_25519 (19·H as shift by 4 plus three adds)",
        "optimized::ed25519::field::ec_mulm_25519 (one multiply-accumulate by 19)",
    ),
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
    fn sides(&self) -> Sides {
        Sides::new(
            "RFC 8032 keygen/sign/verify over reference::ed25519::Reference",
            "RFC 8032 keygen/sign/verify over optimized::ed25519::Optimized",
        )
    }
    fn default_cases(&self) -> usize {
        50
    }
    fn input_len(&self) -> usize {
        1 + 32 + 2 + 256 + 2
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Input::new(input);
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
    fn sides(&self) -> Sides {
        Sides::new(
            "RFC 8032 verify over reference::ed25519::Reference",
            "RFC 8032 verify over optimized::ed25519::Optimized",
        )
    }
    fn default_cases(&self) -> usize {
        100
    }
    fn input_len(&self) -> usize {
        1 + 32 + 64 + 16 + 3
    }
    fn run(&self, input: &[u8]) -> Outcome {
        let mut g = Input::new(input);
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
                pk[31] = u8::from(g.bit()) << 7;
            }
            1 => {
                let enc = &SMALL_ORDER_ENCODINGS;
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
pub static KAT_SCHEMES: &[&KatScheme] = &[];

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

/// The longest `sign.input` line accepted (a 1 MiB line holds a 512 KiB message; the
/// published files' longest line is under 5 KB). Longer lines are refused, so a
/// check runs in constant memory whatever the file.
pub const MAX_LINE: usize = 1 << 20;

/// Checks one `sign.input` line, `sk:pk:msg:sig:` with sk = seed ‖ pk (64 bytes) and
/// sig = R ‖ S ‖ msg: derives the public key from the seed and compares it, signs
/// and compares the signature byte for byte, and verifies it with `verify` and
/// `verify_strict`.
fn check_line(line: &str, n: usize, variant: Variant) -> Result<(), LineFailure> {
    let fail = |reason: String| LineFailure { line: n, reason };
    let f: Vec<&str> = line.split(':').collect();
    if f.len() != 5 || !f[4].is_empty() {
        return Err(fail(format!(
            "expected four ':'-terminated fields sk:pk:msg:sig:, found {} ':'-separated fields",
            f.len()
        )));
    }
    let sk = unhex_field(f[0], "sk", n)?;
    let pk = unhex_field(f[1], "pk", n)?;
    let msg = unhex_field(f[2], "msg", n)?;
    let sm = unhex_field(f[3], "sig", n)?;
    // Planted (`ed25519-sign-input-skips-the-field-lengths`): the length check left
    // out, so a short field is sliced out of range below.
    if !reference::plant::active("ed25519-sign-input-skips-the-field-lengths")
        && (sk.len() != 64 || pk.len() != 32 || sm.len() != 64 + msg.len())
    {
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
    Ok(())
}

/// Checks every non-empty line read from `reader` in the ed25519 `sign.input`
/// format, one line in memory at a time; `progress` is called with the number of
/// lines read after each line. Stops at the first failing line.
///
/// # Errors
/// The first failing line (1-based) and what failed: a read error, a line longer than
/// [`MAX_LINE`] or not UTF-8, the format, the public key, the signature or the
/// verification. A file with no lines fails too (line 0), so an empty file cannot
/// pass.
pub fn check_sign_input_lines(
    mut reader: impl std::io::BufRead,
    variant: Variant,
    mut progress: impl FnMut(usize),
) -> Result<usize, LineFailure> {
    use std::io::{BufRead as _, Read as _};
    let mut checked = 0;
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        n += 1;
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buf)
            .map_err(|e| LineFailure {
                line: n,
                reason: format!("read error: {e}"),
            })?;
        if read == 0 {
            break;
        }
        // The line ending (`\n` or `\r\n`), when the line has one, is not part of it.
        let ending = if buf.ends_with(b"\r\n") {
            2
        } else {
            usize::from(buf.ends_with(b"\n"))
        };
        if buf.len() - ending > MAX_LINE {
            return Err(LineFailure {
                line: n,
                reason: format!("longer than {MAX_LINE} bytes"),
            });
        }
        let line = std::str::from_utf8(&buf).map_err(|_| LineFailure {
            line: n,
            reason: "not UTF-8 text".into(),
        })?;
        let line = line.trim();
        if !line.is_empty() {
            check_line(line, n, variant)?;
            checked += 1;
        }
        progress(n);
    }
    if checked == 0 {
        return Err(LineFailure {
            line: 0,
            reason: "no lines to check".into(),
        });
    }
    Ok(checked)
}

/// [`check_sign_input_lines`] on a string.
///
/// # Errors
/// As [`check_sign_input_lines`].
pub fn check_sign_input(text: &str, variant: Variant) -> Result<usize, LineFailure> {
    check_sign_input_lines(text.as_bytes(), variant, |_| {})
}

/// [`check_sign_input_lines`] on a file, streamed.
///
/// # Errors
/// A [`LineFailure`] with line 0 when the file cannot be opened, else as
/// [`check_sign_input_lines`].
pub fn check_sign_input_file(
    path: &std::path::Path,
    variant: Variant,
    progress: impl FnMut(usize),
) -> Result<usize, LineFailure> {
    let file = std::fs::File::open(path).map_err(|e| LineFailure {
        line: 0,
        reason: format!("opening {}: {e}", path.display()),
    })?;
    check_sign_input_lines(std::io::BufReader::new(file), variant, progress)
}

/// One RFC 8032 test vector (section 7.1): the 32-byte seed, public key, message and
/// signature, in hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rfc8032Vector {
    /// The RFC's name for it.
    pub name: &'static str,
    /// SECRET KEY (the 32-byte seed).
    pub secret_key: &'static str,
    /// PUBLIC KEY.
    pub public_key: &'static str,
    /// MESSAGE.
    pub message: &'static str,
    /// SIGNATURE.
    pub signature: &'static str,
}

/// RFC 8032 section 7.1, TEST 1, 2, 3, 1024 and SHA(abc): facts quoted from the RFC,
/// run by the tests of a plain clone.
pub const RFC8032: [Rfc8032Vector; 5] = [
    Rfc8032Vector {
        name: "TEST 1",
        secret_key: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        public_key: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        message: "",
        signature: concat!(
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155",
            "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
    },
    Rfc8032Vector {
        name: "TEST 2",
        secret_key: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        public_key: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        message: "72",
        signature: concat!(
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da",
            "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
    },
    Rfc8032Vector {
        name: "TEST 3",
        secret_key: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        public_key: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        message: "af82",
        signature: concat!(
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac",
            "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    },
    Rfc8032Vector {
        name: "TEST 1024",
        secret_key: "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
        public_key: "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
        message: concat!(
            "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12",
            "ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe57",
            "38829adb26c81b37c93a1b270b20329d658675fc6ea534e0810a4432826bf58c941efb65d57a338b",
            "bd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe",
            "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e06203b33890cc9b8",
            "32f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10",
            "3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53",
            "f1d8ac70bdcb7ed185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2",
            "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6",
            "079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f27088d78b7e883c8759d2c4f5c65adb7553",
            "878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2",
            "cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba",
            "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae078",
            "4504df543af8969be3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8",
            "fcffead94f3c7ca495e056a9b47acdb751fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301",
            "651339e22904cc8c42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8",
            "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff7310fdc82aebfd9",
            "04b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7",
            "984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a",
            "3ca8e1b939ae49e488acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3",
            "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a4",
            "3dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb93246f6b1116398a346f1a641f3b041",
            "e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d9",
            "0d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d",
            "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef",
            "68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0",
        ),
        signature: concat!(
            "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350",
            "aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"
        ),
    },
    Rfc8032Vector {
        name: "TEST SHA(abc)",
        secret_key: "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
        public_key: "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
        message: concat!(
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a8",
            "36ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        ),
        signature: concat!(
            "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589",
            "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"
        ),
    },
];
