//! Which SIMD paths of the two tiers run on this CPU.
//!
//! The AVX2 and PCLMULQDQ code is chosen at run time, so a check run on a CPU without
//! them covers only the portable paths. A check says so ([`report`]), and with
//! `REFOPT_REQUIRE_SIMD` on (CI, on a CPU that reports both) fails instead.

/// The switch that makes a SIMD path that would not run a failure.
pub const REQUIRE_ENV: &str = "REFOPT_REQUIRE_SIMD";

/// Whether [`REQUIRE_ENV`] is on: set to anything but "" or "0", as the other
/// `REFOPT_REQUIRE_*` switches ([`crate::vectors::switched_on`]).
pub fn required() -> bool {
    crate::vectors::switched_on(REQUIRE_ENV)
}

/// The runtime-dispatched SIMD paths, each with whether it runs on this CPU.
pub fn paths() -> [(&'static str, bool); 2] {
    [
        (
            "AVX2 (ML-KEM four-way Keccak, NTRU optimized poly_Rq_mul)",
            reference::keccak_x4::simd_available()
                && optimized::ntruhps2048509::arch::Avx2::detect().is_some(),
        ),
        (
            "PCLMULQDQ (NTRU optimized poly_R2_inv)",
            optimized::ntruhps2048509::arch::Pclmul::detect().is_some(),
        ),
    ]
}

/// Prints one line per path to standard error, `who` naming the check, and returns
/// whether the check may go on: `false` when a path does not run and `require` is set.
pub fn report(paths: &[(&str, bool)], require: bool, who: &str) -> bool {
    let mut missing = false;
    for &(path, runs) in paths {
        if runs {
            eprintln!("{who}: SIMD path checked: {path}");
        } else {
            missing = true;
            let level = if require { "error" } else { "note" };
            eprintln!("{who}: {level}: this CPU lacks it, the path is NOT checked: {path}");
        }
    }
    if missing && require {
        eprintln!("{who}: REFOPT_REQUIRE_SIMD is on and a SIMD path would not run");
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::report;

    /// A missing SIMD path stops the check only when `REFOPT_REQUIRE_SIMD` asks.
    #[test]
    fn a_missing_simd_path_fails_when_required() {
        let all = [("a", true), ("b", true)];
        let one_missing = [("a", true), ("b", false)];
        assert!(report(&all, true, "test"));
        assert!(report(&one_missing, false, "test"));
        assert!(!report(&one_missing, true, "test"));
    }
}
