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
    Plant {
        name: "mlkem-transposed-a",
        description: "encrypt_u multiplies by Â instead of Âᵀ (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-lazy-sum-two-terms",
        description: "encrypt_u sums the third product without reducing: a lazy sum sized for k = 2, wrong for k >= 3 (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-k4-unreduced-last-sum",
        description: "edge-only: for k = 4 (ML-KEM-1024 only) the last row adds e1 without the conditional subtraction of q (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-e1-in-ntt-domain",
        description: "encrypt_u adds e1 before the inverse NTT instead of after (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-acc-22bit",
        description: "edge-only: Rq_mult_small's accumulator sign-extended from 22 bits, a bound sized for |g| <= 1; wrong only for |g| = 2 with large sums (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-acc-22bit-negative",
        description: "edge-only: Rq_mult_small's sum kept biased in 22 unsigned bits: only sums below -2^21 wrap (f = ±q12 with g = ∓2) (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-r3-acc-12bit",
        description: "edge-only: R3_mult's accumulator in 12 bits, enough for |f|, |g| <= 1 but not the |f|, |g| <= 2 the kernel accepts (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-rq-skip-last-column",
        description: "Rq_mult_small's high-half loop stops one column short (f[p-1]·g[p-1] lost) (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-batched-last-word",
        description: "the batched draw decodes its last word from the previous word's bytes (optimized/src/sntrup761/random.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ntru-clmul-four-classes",
        description: "edge-only: the portable carry-less multiply with four bit classes and 4-bit holes (16 multiplies instead of 25): a dense word overflows a hole (optimized/src/ntruhps2048509/r2_inv.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ntru-chain-wrong-step",
        description: "the addition chain's fifth step multiplies by s2 instead of s3 (optimized/src/ntruhps2048509/r2_inv.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ntru-r2-pack-drops-508",
        description: "the R2 packing drops coefficient 508, the top bit (optimized/src/ntruhps2048509/r2_inv.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-addm-top-limb-only",
        description: "addm decides the subtraction of p on the top limb alone; wrong when w[3] = p[3] and w < p (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-subm-equal-returns-p",
        description: "edge-only: subm adds p back unless u > v, so u = v gives p instead of 0 (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-subm-no-clear-255",
        description: "edge-only: subm skips clearing bit 255 (\"the inputs are canonical\"): wrong only for u >= 2^255 + v (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-mulm-lost-carry",
        description: "edge-only: mulm's final fold adds the 19·(2cy + b255) word to limb 0 only, losing the carry out of one limb (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-mulm-no-final-subtraction",
        description: "edge-only: mulm's final conditional subtraction of p dropped: wrong only when the folded value lies in [p, 2^255) (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    // --- proof self-test: each `refopt prove` obligation fails on its mutant ---

    // --- constant-time checks (ctgrind, the division scan) ---
    Plant {
        name: "mlkem-decaps-variable-time-compare",
        description: "ML-KEM Decaps compares the ciphertext with its re-encryption c' by slice \
            equality (memcmp, early exit at the first difference) instead of ct::eq_mask: \
            a branch on the secret c' (reference::mlkem::decapsulate, both tiers)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "mlkem-compress-divides-by-q",
        description: "Compress_d divides x·2^(d+1) + q by 2q with a hardware division by a \
            run-time q instead of the multiply-shift (KyberSlash): a division of a secret \
            (reference::mlkem::encode::compress, both tiers); the result is unchanged, so \
            only a constant-time check can see it",
        caught_by: "divscan (refopt-ctgrind scan-divisions)",
    },
    // --- fuzzing (fuzz/README.md, .ci/fuzz.sh) ---
    Plant {
        name: "mlkem-decaps-no-length-check",
        description: "ML-KEM Decaps drops the ciphertext length check (\"the caller checked it\"): \
            a short ciphertext indexes out of range, a long one gets a key instead of \
            Error::InvalidLength (reference::mlkem::decaps and decapsulate, both tiers)",
        caught_by: "fuzz (the mlkem_decaps parser target)",
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

/// The plants of one mechanism (`caught_by`), in order.
pub fn caught_by(mechanism: &str) -> impl Iterator<Item = &'static Plant> + '_ {
    ALL.iter().filter(move |p| p.caught_by == mechanism)
}

/// Whether this build carries the plant sites (the `plant` feature).
#[must_use]
pub const fn compiled_in() -> bool {
    cfg!(feature = "plant")
}
