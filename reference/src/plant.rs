//! Planted bugs: deliberately wrong code behind a run-time switch, so every checking
//! mechanism of the lab can be shown to fail.
//!
//! A plant site is an ordinary branch in shipped code:
//!
//! ```text
//! if reference::plant::active("ed25519-mulm-no-final-subtraction") {
//!     return wrong;
//! }
//! ```
//!
//! Without the cargo feature `plant`, [`active`] is a `const fn` returning `false`:
//! the branch is removed at compile time and a normal build carries no trace of it.
//! With the feature (one extra build that CI shares between the bug zoo, the proof
//! self-test, the fuzzing and constant-time self-tests), [`active`] is true for the
//! names listed, comma-separated, in the environment variable [`ENV`]
//! (`REFOPT_PLANT`). The variable is read once per process; the branch tests a public
//! value, never a secret.
//!
//! [`ALL`] lists every plant site with what it breaks, so tools can run them one at a
//! time and a test can check that each name in it is actually planted somewhere.

/// The environment variable naming the active plants (comma-separated).
pub const ENV: &str = "REFOPT_PLANT";

/// One planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plant {
    /// Name used in [`ENV`], `<scheme>-<what>`.
    pub name: &'static str,
    /// The realistic wrong optimization it stands for, and where it is planted.
    pub description: &'static str,
    /// Which mechanism is expected to report it (`zoo`, `prove`, `ct`, `fuzz`, ...).
    pub caught_by: &'static str,
}

/// Every plant site in the workspace, grouped by the mechanism that must catch it.
pub const ALL: &[Plant] = &[
    // --- bug zoo (docs/bug-zoo.md): caught by the default `refopt` run ---

    // --- proof self-test: each `refopt prove` obligation fails on its mutant ---

    // --- constant-time checks (ctgrind, the division scan) ---

    // --- fuzzing ---

    // --- benchmark gate (.ci/bench.sh: gungraun instructions and DHAT heap, 5 %) ---
    Plant {
        name: "bench-ed25519-sign-allocates",
        description: "Ed25519 sign (shared by both tiers, reference/src/ed25519/mod.rs) copies \
                      the signature into a heap Vec it drops",
        caught_by: "bench",
    },
    Plant {
        name: "bench-ed25519-sign-extra-cost",
        description: "Ed25519 sign (reference/src/ed25519/mod.rs) hashes the signature 40 \
                      more times: about 20 % more instructions",
        caught_by: "bench",
    },
];

/// Whether the planted bug `name` is switched on (always `false` without the `plant`
/// feature).
#[cfg(not(feature = "plant"))]
#[inline(always)]
#[must_use]
pub const fn active(name: &str) -> bool {
    let _ = name;
    false
}

/// Whether the planted bug `name` is switched on: listed in [`ENV`].
#[cfg(feature = "plant")]
#[must_use]
pub fn active(name: &str) -> bool {
    use std::sync::OnceLock;
    static ON: OnceLock<Vec<String>> = OnceLock::new();
    ON.get_or_init(|| {
        std::env::var(ENV)
            .unwrap_or_default()
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    })
    .iter()
    .any(|n| n == name)
}

/// Whether this build carries the plant sites (the `plant` feature).
#[must_use]
pub const fn compiled_in() -> bool {
    cfg!(feature = "plant")
}
