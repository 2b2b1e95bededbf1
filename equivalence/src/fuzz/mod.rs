//! Fuzzing with cargo-fuzz (libFuzzer): the bodies of the fuzz targets, in the library,
//! so that a target is two lines and a crate with its own pair gets a target the same
//! way.
//!
//! ```text
//! // fuzz/fuzz_targets/my_pair.rs, in a cargo-fuzz package depending on
//! // `equivalence` and `libfuzzer-sys`:
//! #![no_main]
//! equivalence::fuzz_pair!(&my_crate::MY_PAIR);
//! ```
//!
//! [`run_pair`] hands the fuzzer's bytes to the pair's own structure-aware decoder
//! ([`crate::pair::Input`]: every coefficient, limb or seed is read straight from the
//! bytes, so coverage and comparison feedback steer each value); a mismatch or a
//! broken contract panics with the pair, the difference and the input in hex, which
//! libFuzzer reports as a crash. An input that violates a declared precondition is
//! dropped from the corpus (it compared nothing).
//!
//! The built-in targets ([`TARGETS`], the `fuzz/` package of this repository) are
//! *pair* targets — one per kernel family of each optimization and one per scheme at
//! the API level, each driving registry pairs — and *parser* targets ([`parsers`]):
//! every decode, encapsulate, decapsulate and verify entry point and the text
//! parsers, on arbitrary bytes. A target over several pairs spends the first byte on
//! choosing the pair ([`split`]); the rest is that pair's input, exactly as the pair
//! decodes it.
//!
//! [`seeds`] makes the seed corpora (edge cases by construction, and seeds from the
//! official vectors at run time); `refopt fuzz keep` turns a crash into a regression
//! line that `cargo test` replays.

pub mod parsers;
pub mod seeds;

use std::sync::OnceLock;

use crate::pair::{Level, Mismatch, Outcome, Pair, pattern};
use crate::registry;

/// What a built-in target measures, for the speed floors of fuzz/README.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A kernel family of one optimization (registry kernel pairs).
    Kernel,
    /// One scheme's public API (registry API pairs).
    Api,
    /// A decoder, an entry point on arbitrary bytes, or a text parser.
    Parser,
}

impl Class {
    /// Lower-case name, as `refopt fuzz list` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Kernel => "kernel",
            Class::Api => "api",
            Class::Parser => "parser",
        }
    }
}

/// What a built-in target drives.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Registry pairs, by name (see [`split`] for several).
    Pairs(&'static [&'static str]),
    /// A parser check ([`parsers::Parser`]).
    Parser(&'static parsers::Parser),
}

/// One built-in cargo-fuzz target.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The target's name (`fuzz/fuzz_targets/<name>.rs`).
    pub name: &'static str,
    /// Kernel, API or parser.
    pub class: Class,
    /// What it drives.
    pub kind: Kind,
    /// Its dictionary, `fuzz/dict/<dict>.dict`.
    pub dict: &'static str,
}

/// Every built-in target, in `cargo fuzz list` order.
pub const TARGETS: &[Target] = &[
    // --- kernel families -------------------------------------------------------------
    pairs("ed25519_addm", Class::Kernel, "ed25519", &["ed25519/addm"]),
    pairs("ed25519_mulm", Class::Kernel, "ed25519", &["ed25519/mulm"]),
    pairs("ed25519_subm", Class::Kernel, "ed25519", &["ed25519/subm"]),
    pairs("keccak_x4", Class::Kernel, "keccak", &["keccak-f1600-x4"]),
    pairs(
        "mlkem_encrypt_u",
        Class::Kernel,
        "mlkem",
        &["ml-kem/encrypt-u"],
    ),
    pairs(
        "ntru_r2_inv",
        Class::Kernel,
        "ntru",
        &[
            "ntruhps2048509/r2-inv/portable",
            "ntruhps2048509/r2-inv/pclmul",
        ],
    ),
    pairs(
        "ntru_r2_mul",
        Class::Kernel,
        "ntru",
        &[
            "ntruhps2048509/r2-mul/portable",
            "ntruhps2048509/r2-mul/pclmul",
        ],
    ),
    pairs(
        "ntru_rq_inv",
        Class::Kernel,
        "ntru",
        // `rq-inv/before` (the divstep R2 inverse of before the optimization, 0.8 ms
        // a case) stays in the default run only.
        &[
            "ntruhps2048509/rq-inv/optimized",
            "ntruhps2048509/rq-inv/optimized-portable",
        ],
    ),
    pairs(
        "ntru_rq_mul",
        Class::Kernel,
        "ntru",
        &[
            "ntruhps2048509/rq-mul/avx2",
            "ntruhps2048509/rq-mul/portable",
        ],
    ),
    pairs(
        "sntrup761_draws",
        Class::Kernel,
        "sntrup761",
        &["sntrup761/short-random", "sntrup761/small-random"],
    ),
    pairs(
        "sntrup761_mult",
        Class::Kernel,
        "sntrup761",
        &["sntrup761/rq-mult-small", "sntrup761/r3-mult"],
    ),
    // --- one per scheme at the API level ---------------------------------------------
    pairs(
        "ed25519_api",
        Class::Api,
        "ed25519",
        &["ed25519", "ed25519/verify-garbage"],
    ),
    pairs(
        "mlkem_api",
        Class::Api,
        "mlkem",
        &["ml-kem-512", "ml-kem-768", "ml-kem-1024"],
    ),
    pairs(
        "ntru_api",
        Class::Api,
        "ntru",
        &[
            "ntruhps2048509/api/before",
            "ntruhps2048509/api/optimized",
            "ntruhps2048509/api/optimized-portable",
        ],
    ),
    pairs(
        "sntrup761_api",
        Class::Api,
        "sntrup761",
        &[
            "sntrup761/reference-vs-optimized/chacha20",
            "sntrup761/reference-vs-optimized/shake256",
            "sntrup761/reference-vs-batched-rng/chacha20",
            "sntrup761/reference-vs-batched-rng/shake256",
            "sntrup761/batched-rng-vs-optimized/chacha20",
            "sntrup761/batched-rng-vs-optimized/nist-drbg",
        ],
    ),
    // --- parsers ---------------------------------------------------------------------
    parser(&parsers::ED25519_VERIFY, "ed25519"),
    parser(&parsers::KAT_RESPONSE, "text"),
    parser(&parsers::MLKEM_DECAPS, "mlkem"),
    parser(&parsers::MLKEM_EK, "mlkem"),
    parser(&parsers::NTRU_DECAPS, "ntru"),
    parser(&parsers::NTRU_DECODE, "ntru"),
    parser(&parsers::NTRU_ENCAPS, "ntru"),
    parser(&parsers::SIGN_INPUT, "text"),
    parser(&parsers::SNTRUP761_DECAPS, "sntrup761"),
    parser(&parsers::SNTRUP761_DECODE, "sntrup761"),
    parser(&parsers::SNTRUP761_ENCAPS, "sntrup761"),
];

const fn pairs(
    name: &'static str,
    class: Class,
    dict: &'static str,
    names: &'static [&'static str],
) -> Target {
    Target {
        name,
        class,
        kind: Kind::Pairs(names),
        dict,
    }
}

const fn parser(p: &'static parsers::Parser, dict: &'static str) -> Target {
    Target {
        name: p.name,
        class: Class::Parser,
        kind: Kind::Parser(p),
        dict,
    }
}

/// The built-in target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// The registry pairs a pair target drives, in its order (empty for a parser target).
///
/// # Panics
/// If a name in [`TARGETS`] is not a registered pair (a test checks they all are).
pub fn pairs_of(t: &Target) -> Vec<&'static dyn Pair> {
    let Kind::Pairs(names) = t.kind else {
        return Vec::new();
    };
    let all = registry::builtin();
    names
        .iter()
        .map(|n| {
            *all.iter()
                .find(|p| p.name() == *n)
                .unwrap_or_else(|| panic!("fuzz target {}: no pair named {n}", t.name))
        })
        .collect()
}

/// What a target found on one input. `Display` gives the report libFuzzer prints and
/// `refopt fuzz run` shows: the pair or target, what went wrong, a pair's input in hex
/// (a parser target's, which may be a key, not at all or by length and fingerprint);
/// key material only by fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Finding {
    /// A pair's two sides differ, or a kernel broke its contract.
    Mismatch {
        /// The pair.
        pair: &'static str,
        /// Where the two sides differ.
        mismatch: Box<Mismatch>,
        /// The pair's input.
        input: Vec<u8>,
    },
    /// A pair reported a precondition it does not declare.
    UndeclaredPrecondition {
        /// The pair.
        pair: &'static str,
        /// The precondition reported.
        which: &'static str,
        /// What the pair said about it.
        detail: String,
        /// The pair's input.
        input: Vec<u8>,
    },
    /// A parser target's property does not hold (a wrong verdict or error, or the
    /// tiers differ).
    Property {
        /// The target.
        target: &'static str,
        /// The violation.
        violation: parsers::Violation,
        /// The target's input (not in the report: it may hold a secret key).
        input: Vec<u8>,
    },
    /// The check panicked ([`Target::check_caught`]).
    Panic {
        /// The target.
        target: &'static str,
        /// The target's class: a parser target's input is shown in the report only
        /// by length and fingerprint, as [`Finding::Property`] leaves it out (it may
        /// hold a secret key; the crash file has it).
        class: Class,
        /// The panic's message.
        message: String,
        /// The target's input.
        input: Vec<u8>,
    },
}

impl core::fmt::Display for Finding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Finding::Mismatch {
                pair,
                mismatch,
                input,
            } => write!(
                f,
                "{pair}: {mismatch}\ninput: {}\nkeep it: refopt fuzz keep <target> <crash file>",
                hex::encode(input)
            ),
            Finding::UndeclaredPrecondition {
                pair,
                which,
                detail,
                input,
            } => write!(
                f,
                "{pair}: reported the undeclared precondition {which} ({detail})\ninput: {}",
                hex::encode(input)
            ),
            // Not the input: a parser's input may hold a secret key (the crash file has it).
            Finding::Property {
                target, violation, ..
            } => write!(f, "{target}: {violation}"),
            Finding::Panic {
                target,
                class,
                message,
                input,
            } => {
                let shown = if *class == Class::Parser {
                    format!(
                        "{} bytes #{} (not shown: it may hold a secret key; the crash file has it)",
                        input.len(),
                        crate::pair::fingerprint(input)
                    )
                } else {
                    hex::encode(input)
                };
                write!(f, "{target}: panicked: {message}\ninput: {shown}")
            }
        }
    }
}

impl std::error::Error for Finding {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Finding::Property { violation, .. } => Some(violation),
            _ => None,
        }
    }
}

impl Target {
    /// The longest input worth generating (libFuzzer's `-max_len`): every value read
    /// from the input, plus the pair-choosing byte of a target over several pairs.
    pub fn max_len(&self) -> usize {
        match self.kind {
            Kind::Pairs(names) => {
                let extra = usize::from(names.len() > 1);
                extra
                    + pairs_of(self)
                        .iter()
                        .map(|p| p.input_len())
                        .max()
                        .unwrap_or(1)
            }
            Kind::Parser(p) => p.max_len,
        }
    }

    /// Runs the target on one input: `Ok(true)` when something was compared,
    /// `Ok(false)` when the input only violated a declared precondition, `Err` with a
    /// report on a finding (a mismatch, a broken contract or a parser property).
    ///
    /// # Errors
    /// The finding: as [`check_pair`] gives it, or [`Finding::Property`] with the
    /// parser's violation.
    pub fn check(&self, data: &[u8]) -> Result<bool, Finding> {
        match self.kind {
            Kind::Pairs(_) => {
                let pairs = cached_pairs(self);
                let (pair, input) = split(pairs, data);
                check_pair(pair, input)
            }
            Kind::Parser(p) => match (p.check)(data) {
                Ok(()) => Ok(true),
                Err(violation) => Err(Finding::Property {
                    target: self.name,
                    violation,
                    input: data.to_vec(),
                }),
            },
        }
    }

    /// [`Target::check`] with a panic turned into a finding whose report is the
    /// panic's message: what `refopt fuzz run` and [`keep`] use, where a crash file
    /// whose crash was a panic must be reported and kept, not take the tool down. The
    /// cargo-fuzz targets call [`Target::check`] itself: there a panic is libFuzzer's
    /// crash.
    ///
    /// # Errors
    /// The finding, [`Finding::Panic`] included.
    pub fn check_caught(&self, data: &[u8]) -> Result<bool, Finding> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.check(data))).unwrap_or_else(
            |payload| {
                Err(Finding::Panic {
                    target: self.name,
                    class: self.class,
                    message: registry::panic_message(payload.as_ref()),
                    input: data.to_vec(),
                })
            },
        )
    }
}

fn cached_pairs(t: &Target) -> &'static [&'static dyn Pair] {
    static CACHE: OnceLock<Vec<Vec<&'static dyn Pair>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| TARGETS.iter().map(pairs_of).collect());
    // By address first: no string comparison per execution (libFuzzer's comparison
    // tracing would take target names for input tokens).
    let i = TARGETS
        .iter()
        .position(|x| core::ptr::eq(x, t))
        .or_else(|| TARGETS.iter().position(|x| x.name == t.name))
        .unwrap_or_else(|| panic!("{} is not a built-in target", t.name));
    &all[i]
}

/// The pair a multi-pair target runs on `data`, and that pair's input: with one pair,
/// all of `data`; with n pairs, the first byte picks pair `pattern(byte, n)` (each
/// gets a contiguous run of about 256/n values) and the rest is its input.
///
/// # Panics
/// If `pairs` is empty.
pub fn split<'p, 'd>(pairs: &[&'p dyn Pair], data: &'d [u8]) -> (&'p dyn Pair, &'d [u8]) {
    assert!(!pairs.is_empty(), "a target drives at least one pair");
    if pairs.len() == 1 {
        return (pairs[0], data);
    }
    match data.split_first() {
        Some((&b, rest)) => (pairs[pattern(b, pairs.len())], rest),
        None => (pairs[0], data),
    }
}

/// The first byte that makes [`split`] pick pair `index` of `n`.
pub fn selector_for(index: usize, n: usize) -> u8 {
    (0..=255u8).find(|&b| pattern(b, n) == index).unwrap_or(0)
}

/// One input of one pair: `Ok(true)` when both sides were compared and agree,
/// `Ok(false)` when a declared precondition does not hold, `Err` on a mismatch, a
/// broken contract, or a precondition the pair never declared.
///
/// # Errors
/// [`Finding::Mismatch`] or [`Finding::UndeclaredPrecondition`], with the input.
pub fn check_pair(pair: &dyn Pair, input: &[u8]) -> Result<bool, Finding> {
    match pair.run_fuzz(input) {
        Outcome::Equal => Ok(true),
        Outcome::PreconditionNotMet { which, detail } => {
            if pair.declares(which) {
                Ok(false)
            } else {
                Err(Finding::UndeclaredPrecondition {
                    pair: pair.name(),
                    which,
                    detail,
                    input: input.to_vec(),
                })
            }
        }
        Outcome::Mismatch(mismatch) => Err(Finding::Mismatch {
            pair: pair.name(),
            mismatch: Box::new(mismatch),
            input: input.to_vec(),
        }),
    }
}

/// The body of a fuzz target for one pair: runs it on the fuzzer's bytes and panics
/// on a finding (libFuzzer reports the panic as a crash and saves the input). Returns
/// whether the input compared anything, so the target can drop inputs that only
/// violate a precondition from the corpus.
///
/// # Panics
/// On a mismatch, a broken contract or an undeclared precondition, with the report.
pub fn run_pair(pair: &dyn Pair, data: &[u8]) -> bool {
    check_pair(pair, data).unwrap_or_else(|report| panic!("{report}"))
}

/// Default-run pairs that no fuzz target drives, each with the reason.
pub const NOT_FUZZED: &[(&str, &str)] = &[(
    "ntruhps2048509/rq-inv/before",
    "the code before the optimization (the divstep R2 inverse, 0.8 ms a case, with the \
     Toom/Karatsuba Newton iteration); the default run and the KATs check it",
)];

/// The body of a built-in target ([`TARGETS`]); see [`crate::fuzz_builtin!`].
///
/// # Panics
/// On a finding, with its report.
pub fn run_target(t: &Target, data: &[u8]) -> bool {
    t.check(data)
        .unwrap_or_else(|report| panic!("fuzz target {}: {report}", t.name))
}

/// The built-in target `name`, for [`crate::fuzz_builtin!`] (looked up once per process).
///
/// # Panics
/// When `name` is not a built-in target.
pub fn builtin(name: &str) -> &'static Target {
    target(name).unwrap_or_else(|| panic!("{name} is not a built-in fuzz target"))
}

/// Whether a pair target's level matches its class (every pair of a kernel target is
/// a kernel pair, of an API target an API pair).
pub fn level_matches(t: &Target) -> bool {
    let want = match t.class {
        Class::Kernel => Level::Kernel,
        Class::Api => Level::Api,
        Class::Parser => return pairs_of(t).is_empty(),
    };
    pairs_of(t).iter().all(|p| p.level() == want)
}

/// A cargo-fuzz target for one pair, in one line of a `#![no_main]` target file:
/// `equivalence::fuzz_pair!(&MY_PAIR);`. The crate needs `libfuzzer-sys` (0.4) as a
/// dependency; inputs that only violate a declared precondition are rejected from the
/// corpus.
#[macro_export]
macro_rules! fuzz_pair {
    ($pair:expr) => {
        ::libfuzzer_sys::fuzz_target!(|data: &[u8]| -> ::libfuzzer_sys::Corpus {
            if $crate::fuzz::run_pair($pair, data) {
                ::libfuzzer_sys::Corpus::Keep
            } else {
                ::libfuzzer_sys::Corpus::Reject
            }
        });
    };
}

/// The built-in target `name` ([`TARGETS`]) as a cargo-fuzz target:
/// `equivalence::fuzz_builtin!("ed25519_mulm");`.
#[macro_export]
macro_rules! fuzz_builtin {
    ($name:literal) => {
        ::libfuzzer_sys::fuzz_target!(|data: &[u8]| -> ::libfuzzer_sys::Corpus {
            static TARGET: ::std::sync::OnceLock<&'static $crate::fuzz::Target> =
                ::std::sync::OnceLock::new();
            let target = TARGET.get_or_init(|| $crate::fuzz::builtin($name));
            if $crate::fuzz::run_target(target, data) {
                ::libfuzzer_sys::Corpus::Keep
            } else {
                ::libfuzzer_sys::Corpus::Reject
            }
        });
    };
}

/// What `refopt fuzz keep` did with one crash file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The regression file the line went to.
    pub file: std::path::PathBuf,
    /// The pair or parser it replays through.
    pub replays_through: String,
    /// What the input gives on this build: `None` when it passes, else the finding.
    pub finding: Option<Finding>,
}

/// Turns a fuzzer input of target `t` into a regression line: for a pair target, the
/// pair's input (without the pair-choosing byte) appended to that pair's file in
/// `dir` (replayed by `cargo test` like every regression case); for a parser target,
/// the input appended to `dir/parsers/<target>.txt` (replayed by the parser test).
///
/// # Errors
/// An I/O error writing the file.
pub fn keep(dir: &std::path::Path, t: &Target, data: &[u8]) -> std::io::Result<Kept> {
    let finding = t.check_caught(data).err();
    match t.kind {
        Kind::Pairs(_) => {
            let (pair, input) = split(cached_pairs(t), data);
            let file = crate::regressions::keep(dir, pair.name(), input)?;
            Ok(Kept {
                file,
                replays_through: pair.name().to_owned(),
                finding,
            })
        }
        Kind::Parser(p) => {
            let file =
                crate::regressions::keep(&dir.join(parsers::REGRESSIONS_SUBDIR), p.name, data)?;
            Ok(Kept {
                file,
                replays_through: format!("parser {}", p.name),
                finding,
            })
        }
    }
}

/// The target table as `refopt fuzz list` prints it and `fuzz/targets.txt` holds it:
/// one line per target, `name class max_len dict`, after a comment line.
pub fn table() -> String {
    let mut s = String::from(
        "# name class max_len dict (generated by `refopt fuzz list`; checked by cargo test)\n",
    );
    for t in TARGETS {
        s.push_str(&format!(
            "{} {} {} {}\n",
            t.name,
            t.class.name(),
            t.max_len(),
            t.dict
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A precondition the pair never declared is a finding, not a dropped input; a
    /// declared one drops the input.
    #[test]
    fn an_undeclared_precondition_is_a_finding() {
        use crate::registry::tests::{NeverApplies, Undeclared};
        match check_pair(&Undeclared, b"x") {
            Err(Finding::UndeclaredPrecondition { which, input, .. }) => {
                assert_eq!((which, input.as_slice()), ("cpu-feature", &b"x"[..]));
            }
            other => panic!("not reported as undeclared: {other:?}"),
        }
        assert_eq!(check_pair(&NeverApplies, b"x"), Ok(false));
    }

    /// A crash file whose crash was a panic is reported by `fuzz run` and kept by
    /// `fuzz keep` (before, the panic took refopt down and nothing was kept).
    #[test]
    fn a_panicking_input_is_a_finding_and_is_kept() {
        static PANICS: parsers::Parser = parsers::Parser {
            name: "panics_on_a",
            what: "a parser that panics on the byte 'a'",
            max_len: 16,
            check: |data| {
                assert!(data.first() != Some(&b'a'), "index out of bounds (planted)");
                Ok(())
            },
            extra_seeds: &[],
        };
        let t = Target {
            name: "panics_on_a",
            class: Class::Parser,
            kind: Kind::Parser(&PANICS),
            dict: "none",
        };
        assert_eq!(t.check_caught(b"b"), Ok(true));
        // A parser's input may be a key: the report shows it by length and
        // fingerprint, never its bytes; the kept regression file holds them.
        let input = b"a secret key";
        let finding = t.check_caught(input).expect_err("a panic is a finding");
        assert!(
            matches!(&finding, Finding::Panic { target: "panics_on_a", class: Class::Parser, message, input: i }
                if message == "index out of bounds (planted)" && i == input),
            "{finding:?}"
        );
        let report = finding.to_string();
        let shown = format!("12 bytes #{}", crate::pair::fingerprint(input));
        assert!(
            report.contains("panicked: index out of bounds (planted)")
                && report.contains(&shown)
                && !report.contains(&hex::encode(input)),
            "{report}"
        );
        let dir = std::env::temp_dir().join(format!("refopt-keep-{}", std::process::id()));
        let kept = keep(&dir, &t, input).expect("kept");
        assert!(
            kept.finding
                .is_some_and(|f| matches!(f, Finding::Panic { .. }))
        );
        assert!(std::fs::read_to_string(&kept.file).is_ok_and(|s| s.contains(&hex::encode(input))));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn split_reaches_every_pair_and_keeps_single_pair_inputs_whole() {
        let pairs = pairs_of(target("ntru_rq_inv").expect("listed"));
        assert_eq!(pairs.len(), 2);
        for (i, p) in pairs.iter().enumerate() {
            let b = selector_for(i, 2);
            let input = [b, 7, 8];
            let (q, rest) = split(&pairs, &input);
            assert_eq!(q.name(), p.name());
            assert_eq!(rest, &[7, 8]);
        }
        let one = pairs_of(target("ed25519_mulm").expect("listed"));
        assert_eq!(split(&one, &[1, 2]).1, &[1, 2]);
    }

    #[test]
    fn every_target_resolves_and_has_the_right_level() {
        let mut names: Vec<_> = TARGETS.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TARGETS.len(), "duplicate target names");
        for t in TARGETS {
            assert!(level_matches(t), "{}: a pair of the wrong level", t.name);
            assert!(t.max_len() >= 1);
            if let Kind::Pairs(names) = t.kind {
                assert_eq!(pairs_of(t).len(), names.len());
            }
        }
    }

    /// Every pair of the default run is driven by some target, except those of
    /// [`NOT_FUZZED`].
    #[test]
    fn every_default_run_pair_is_fuzzed() {
        let fuzzed: Vec<&str> = TARGETS
            .iter()
            .flat_map(|t| match t.kind {
                Kind::Pairs(n) => n.to_vec(),
                Kind::Parser(_) => Vec::new(),
            })
            .collect();
        for &(name, _) in NOT_FUZZED {
            assert!(!fuzzed.contains(&name), "{name} is fuzzed after all");
        }
        for p in registry::builtin() {
            if p.in_default_run() && !NOT_FUZZED.iter().any(|&(n, _)| n == p.name()) {
                assert!(
                    fuzzed.contains(&p.name()),
                    "{} has no fuzz target",
                    p.name()
                );
            }
        }
    }

    /// A pair target reports a mismatch: the broken self-test pair fails through
    /// `check_pair` with its input in the report.
    #[test]
    fn a_mismatch_is_a_finding() {
        let r = check_pair(&registry::BrokenPair, &[0x80]);
        let finding = r.expect_err("x = 0x80 drops the carry");
        assert!(
            matches!(&finding, Finding::Mismatch { pair: "selftest/broken", input, .. }
                if input == &[0x80]),
            "{finding:?}"
        );
        let report = finding.to_string();
        assert!(
            report.contains("selftest/broken") && report.contains("input: 80"),
            "{report}"
        );
        assert_eq!(check_pair(&registry::BrokenPair, &[0x01]), Ok(true));
    }
}
