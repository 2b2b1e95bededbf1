//! `refopt prove --self-test`: every obligation's check fails on its mutant.
//!
//! For a planted bug the test runs the plant build (`.ci/plant-build.sh`, cargo
//! feature `plant`) as a subprocess, `REFOPT_PLANT=<mutant> refopt prove --only <ID>
//! --json`, and requires that build to report the obligation `failed` (not `not run`:
//! a check that could not run has shown nothing). For a compile-time lemma it builds
//! the crate with `--cfg refopt_mutant="<name>"` and requires the build to fail with
//! an error naming the obligation.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Failure, Mutant, Obligation};

/// The workspace root (where `.ci/` is).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Builds the plant binaries with `.ci/plant-build.sh` and returns their directory.
///
/// # Errors
/// When the script fails.
pub fn plant_build() -> Result<PathBuf, String> {
    let script = root().join(".ci/plant-build.sh");
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed:\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
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

fn run_plant(bin: &Path, o: &Obligation, plant: &str) -> (bool, String) {
    let refopt = bin.join("refopt");
    let out = Command::new(&refopt)
        .args(["prove", "--only", o.id, "--json"])
        .env(reference::plant::ENV, plant)
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
    let exit_failed = !out.status.success();
    if status == "failed" && exit_failed {
        (true, detail)
    } else {
        (
            false,
            format!("status `{status}` (exit {}): {detail}", out.status),
        )
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
/// When the plant build cannot be made.
pub fn run(
    list: &[&'static Obligation],
    plant_bin: Option<PathBuf>,
) -> Result<Vec<Outcome>, String> {
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
                        .map(|(p, (c, d))| format!("{p}: {}{d}", if *c { "" } else { "MISSED: " }))
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                (format!("plant {}", ps.join(", ")), (caught, detail))
            }
            (Mutant::Plant(_) | Mutant::Plants(_), None) => (
                format!("plant {}", o.mutant.plants().join(", ")),
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
