//! `refopt prove --self-test`: every obligation's check fails on its mutant.
//!
//! For a planted bug the test runs the plant build (`.ci/plant-build.sh`, cargo
//! feature `plant`) as a subprocess, `REFOPT_PLANT=<mutant> refopt prove --only <ID>
//! --json`, and requires that build to report the obligation `failed` (not `not run`:
//! a check that could not run has shown nothing) with a failure that names the piece
//! of the check the plant is there to reach ([`Planted::reports`]; for an SMT piece,
//! with the solver's counterexample, [`Planted::sat`]). Before an obligation's plants, a control
//! run of the same plant build with no plant on must report it `proved`.

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

/// What the plant build reported for one obligation.
struct Report {
    status: String,
    exit_failed: bool,
    exit: String,
    detail: String,
}

/// Runs `refopt prove --only ID --json` of the plant build with `plant` switched on,
/// or with no plant at all (`None`).
fn run_prove(bin: &Path, o: &Obligation, plant: Option<&str>) -> Result<Report, String> {
    let refopt = bin.join("refopt");
    let mut cmd = Command::new(&refopt);
    cmd.args(["prove", "--only", o.id, "--json"]);
    match plant {
        Some(name) => cmd.env(reference::plant::ENV, name),
        None => cmd.env_remove(reference::plant::ENV),
    };
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", refopt.display()))?;
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "no JSON from the plant build ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })?;
    if json["plant_build"] != serde_json::Value::Bool(true) {
        return Err("the binary is not a plant build".into());
    }
    let row = &json["obligations"][0];
    Ok(Report {
        status: row["status"].as_str().unwrap_or("?").to_owned(),
        exit_failed: !out.status.success(),
        exit: out.status.to_string(),
        detail: row["detail"].as_str().unwrap_or("").to_owned(),
    })
}

/// The control run: the plant build with no plant on must prove the obligation (or,
/// for one of [`super::ARGUED`], give `argued`), so that a plant's failure is the
/// plant's doing and not the build's.
fn run_control(bin: &Path, o: &Obligation) -> Result<(), String> {
    let r = run_prove(bin, o, None)?;
    let want = if super::ARGUED.contains(&o.id) {
        "argued"
    } else {
        "proved"
    };
    if r.status == want && !r.exit_failed {
        Ok(())
    } else {
        Err(format!(
            "control: the plant build with no plant on gives `{}` ({}), not `{want}`: {}",
            r.status, r.exit, r.detail
        ))
    }
}

fn run_plant(bin: &Path, o: &Obligation, plant: &Planted) -> (bool, String) {
    match run_prove(bin, o, Some(plant.name)) {
        Ok(r) => verdict(plant, &r.status, r.exit_failed, &r.exit, r.detail),
        Err(e) => (false, e),
    }
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
                // Caught only when the control proves and every plant is caught: each
                // one's report, in order.
                let control = run_control(b, o);
                // A failed control decides: the plants are not run.
                let runs: Vec<(bool, String)> = if control.is_ok() {
                    ps.iter().map(|p| run_plant(b, o, p)).collect()
                } else {
                    Vec::new()
                };
                let caught = control.is_ok() && !runs.is_empty() && runs.iter().all(|(c, _)| *c);
                let detail = if let Err(e) = control {
                    e
                } else if let [(_, d)] = &runs[..] {
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
            (Mutant::InProcess { what, check }, _) => (
                format!("in-process: {what}"),
                match super::run_check(check) {
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
    use super::{Planted, run_control, verdict};

    /// The control run fails the self-test unless the plant build, no plant on,
    /// reports `proved` with a successful exit (a stand-in `refopt` prints the JSON).
    #[cfg(unix)]
    #[test]
    fn the_control_must_prove() {
        use std::os::unix::fs::PermissionsExt;
        let base = std::env::temp_dir().join(format!("refopt-control-{}", std::process::id()));
        let o = super::super::obligations()[0];
        // One stand-in per case, each written once before it runs (rewriting one
        // that another thread has just forked with could fail with "text file busy").
        let fake = |case: &str, status: &str, exit: u8| {
            let dir = base.join(case);
            std::fs::create_dir_all(&dir).expect("writable");
            let script = format!(
                "#!/bin/sh\necho '{{\"plant_build\": true, \"obligations\": [{{\"status\": \"{status}\", \"detail\": \"d\"}}]}}'\nexit {exit}\n"
            );
            let path = dir.join("refopt");
            std::fs::write(&path, script).expect("writable");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
            dir
        };
        let (proved, failed, bad_exit) = (
            fake("proved", "proved", 0),
            fake("failed", "failed", 1),
            fake("bad-exit", "proved", 1),
        );
        assert_eq!(run_control(&proved, o), Ok(()));
        assert!(run_control(&failed, o).is_err());
        assert!(run_control(&bad_exit, o).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }

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
