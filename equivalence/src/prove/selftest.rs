//! `refopt prove --self-test`: every obligation's check fails on its mutant.
//!
//! For a planted bug the test runs the plant build (`.ci/plant-build.sh`, cargo
//! feature `plant`) as a subprocess, `REFOPT_PLANT=<mutant> refopt prove --only <ID>
//! --json`, and requires that build to report the obligation `failed` (not `not run`:
//! a check that could not run has shown nothing) with a failure that names the piece
//! of the check the plant is there to reach ([`Planted::reports`]; for an SMT piece,
//! with the solver's counterexample, [`Planted::sat`]). For a compile-time lemma it
//! builds the crate with `--cfg refopt_mutant="<name>"` and requires the build to
//! fail with an error naming the obligation.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Failure, Mutant, Obligation, Planted};
use crate::tool;

/// The workspace root (where `.ci/` is).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Builds the plant binaries with `.ci/plant-build.sh` and returns their directory.
///
/// # Errors
/// [`tool::Error`] when the script cannot be run or fails.
pub fn plant_build() -> Result<PathBuf, tool::Error> {
    let script = root().join(".ci/plant-build.sh");
    let what = || format!("bash {}", script.display());
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .map_err(|source| tool::Error::Spawn {
            what: what(),
            source,
        })?;
    if !out.status.success() {
        return Err(tool::Error::Failed {
            what: what(),
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    let dir = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_owned();
    Ok(PathBuf::from(dir))
}

/// What happened to one mutant.
#[derive(Debug)]
pub struct Outcome {
    /// The obligation.
    pub id: &'static str,
    /// The mutant, as printed.
    pub mutant: String,
    /// Whether the check failed on it, as required.
    pub caught: bool,
    /// What was observed.
    pub detail: String,
    /// Seconds it took.
    pub seconds: f64,
}

fn run_plant(bin: &Path, o: &Obligation, plant: &Planted) -> (bool, String) {
    let refopt = bin.join("refopt");
    let out = Command::new(&refopt)
        .args(["prove", "--only", o.id, "--json"])
        .env(reference::plant::ENV, plant.name)
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return (false, format!("cannot run {}: {e}", refopt.display())),
    };
    let json: serde_json::Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => {
            return (
                false,
                format!(
                    "no JSON from the plant build ({e}); stderr: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
            );
        }
    };
    if json["plant_build"] != serde_json::Value::Bool(true) {
        return (false, "the binary is not a plant build".into());
    }
    let row = &json["obligations"][0];
    let status = row["status"].as_str().unwrap_or("?");
    let detail = row["detail"].as_str().unwrap_or("").to_owned();
    verdict(
        plant,
        status,
        !out.status.success(),
        &out.status.to_string(),
        detail,
    )
}

/// Whether the plant build's report catches `plant`: status `failed`, a failing exit
/// and the piece's words in the detail.
fn verdict(
    plant: &Planted,
    status: &str,
    exit_failed: bool,
    exit: &str,
    detail: String,
) -> (bool, String) {
    match (status == "failed" && exit_failed, plant.reached(&detail)) {
        (true, true) => (true, detail),
        (true, false) => (
            false,
            format!(
                "failed, but not at the piece it must reach (no \"{}\"{} in the report): {detail}",
                plant.reports,
                if plant.needs_sat {
                    " with a counterexample"
                } else {
                    ""
                }
            ),
        ),
        (false, _) => (false, format!("status `{status}` ({exit}): {detail}")),
    }
}

fn run_compile(name: &str, krate: &str, id: &str) -> (bool, String) {
    let target = root().join("target").join("mutant");
    let out = Command::new("cargo")
        .args(["check", "-q", "-p", krate])
        .current_dir(root())
        .env("RUSTFLAGS", format!("--cfg refopt_mutant=\"{name}\""))
        .env("CARGO_TARGET_DIR", &target)
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return (false, format!("cannot run cargo: {e}")),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        (false, format!("{krate} built with the mutant"))
    } else if stderr.contains(id) {
        (
            true,
            format!("{krate} does not build: the lemma {id} fails"),
        )
    } else {
        (
            false,
            format!(
                "{krate} does not build, but not because of {id}: {}",
                stderr.lines().take(3).collect::<Vec<_>>().join(" / ")
            ),
        )
    }
}

/// Runs every obligation's mutant (the plant binaries in `plant_bin`, built when
/// `None` and a planted bug is needed).
///
/// # Errors
/// [`tool::Error`] when the plant build cannot be made.
pub fn run(
    list: &[&'static Obligation],
    plant_bin: Option<PathBuf>,
) -> Result<Vec<Outcome>, tool::Error> {
    let needs_plants = list.iter().any(|o| !o.mutant.plants().is_empty());
    let bin = match (plant_bin, needs_plants) {
        (Some(b), _) => Some(b),
        (None, true) => Some(plant_build()?),
        (None, false) => None,
    };
    let mut out = Vec::new();
    for o in list {
        let start = std::time::Instant::now();
        let (mutant, (caught, detail)) = match (o.mutant, &bin) {
            (Mutant::Plant(_) | Mutant::Plants(_), Some(b)) => {
                let ps = o.mutant.plants();
                // Caught only when every plant is: each one's report, in order.
                let runs: Vec<(bool, String)> = ps.iter().map(|p| run_plant(b, o, p)).collect();
                let caught = !runs.is_empty() && runs.iter().all(|(c, _)| *c);
                let detail = if let [(_, d)] = &runs[..] {
                    d.clone()
                } else {
                    ps.iter()
                        .zip(&runs)
                        .map(|(p, (c, d))| {
                            format!("{}: {}{d}", p.name, if *c { "" } else { "MISSED: " })
                        })
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                (
                    format!("plant {}", o.mutant.plant_names().join(", ")),
                    (caught, detail),
                )
            }
            (Mutant::Plant(_) | Mutant::Plants(_), None) => (
                format!("plant {}", o.mutant.plant_names().join(", ")),
                (false, "no plant build".into()),
            ),
            (Mutant::Compile { name, krate }, _) => (
                format!("--cfg refopt_mutant=\"{name}\""),
                run_compile(name, krate, o.id),
            ),
            (Mutant::InProcess { what, check }, _) => (
                format!("in-process: {what}"),
                match check() {
                    Ok(e) => (
                        false,
                        format!("the check passed on the mutant: {}", e.detail),
                    ),
                    Err(Failure::Failed(m)) => (true, m),
                    Err(Failure::NotRun(m)) => (false, format!("not run: {m}")),
                },
            ),
        };
        let row = Outcome {
            id: o.id,
            mutant,
            caught,
            detail,
            seconds: start.elapsed().as_secs_f64(),
        };
        eprintln!(
            "self-test {:<10} {:<8} {:>6.1} s  {}",
            row.id,
            if row.caught { "caught" } else { "MISSED" },
            row.seconds,
            row.mutant
        );
        out.push(row);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{Planted, verdict};

    const P: Planted = Planted::sat("p", "second halves");

    #[test]
    fn a_plant_is_caught_only_at_its_piece() {
        let at_piece = "second halves (fold) equal: the solver answered `sat`, expected `unsat`";
        assert!(verdict(&P, "failed", true, "exit status: 1", at_piece.into()).0);
        // The right piece, but the solver gave up: no counterexample, not caught.
        let timed_out =
            "second halves (fold) equal: the solver answered `unknown`, expected `unsat`";
        assert!(!verdict(&P, "failed", true, "exit status: 1", timed_out.into()).0);
        // The check failed, but in another piece: the piece named may be gone.
        let (caught, why) = verdict(&P, "failed", true, "exit status: 1", "lemma 3".into());
        assert!(!caught);
        assert!(why.contains("not at the piece"), "{why}");
        // Passing, not run, or a report with a successful exit: never caught.
        for (status, exit_failed) in [("proved", false), ("not run", true), ("failed", false)] {
            assert!(!verdict(&P, status, exit_failed, "-", at_piece.into()).0);
        }
    }
}
