//! `report`: the instruction/heap gate and the generated result pages.
//!
//! ```text
//! report save      --gungraun a.json [--gungraun b.json ...] --baseline FILE
//! report gate      --gungraun a.json [...] --baseline FILE [--limit 5]
//! report history   --baseline FILE --history benches/history.jsonl
//! report wallclock --criterion RUN1 --criterion RUN2 --criterion RUN3 --out FILE [--load TEXT]
//! report docs      --baseline FILE --wallclock FILE --history FILE --docs DIR [--check]
//! ```
//!
//! `save` writes the baseline (every benchmark's callgrind `Ir` and DHAT total bytes
//! and blocks, with the commit, rustc, CPU, valgrind and gungraun versions it was
//! measured with). `gate` exits non-zero when any metric exceeds its baseline by more
//! than `--limit` percent, when a heap metric whose baseline is 0 becomes non-zero,
//! or when the measured set and the baselined set differ. `history` adds (or
//! replaces) the baseline commit's line in the JSON-lines history. `wallclock`
//! collects the criterion medians of several runs. `docs` writes docs/RESULTS.md,
//! the scheme pages' generated Results sections and the SVG charts from those files
//! only (and the peers' versions from Cargo.lock, run from the workspace root), so the
//! output is the same bytes every time; `--check` compares instead of
//! writing and fails on any difference.
//!
//! gungraun is iai-callgrind under its new name (renamed at 0.17); the benches use
//! gungraun 0.20 and need `gungraun-runner` 0.20.0.

// `report` handles public measurements only (counts, times, chart coordinates): the
// constant-time lint against integer division does not apply here.
#![allow(clippy::integer_division_remainder_used)]

mod data;
mod docs;
mod svg;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use data::{Baseline, Measure, WallClock};

#[derive(Default)]
struct Args {
    cmd: String,
    gungraun: Vec<PathBuf>,
    criterion: Vec<PathBuf>,
    baseline: Option<PathBuf>,
    wallclock: Option<PathBuf>,
    history: Option<PathBuf>,
    docs: Option<PathBuf>,
    out: Option<PathBuf>,
    load: Option<String>,
    limit_pct: f64,
    check: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut a = Args {
        cmd: it
            .next()
            .ok_or("usage: report <save|gate|history|wallclock|docs> ...")?,
        limit_pct: 5.0,
        ..Args::default()
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--gungraun" => a.gungraun.push(value()?.into()),
            "--criterion" => a.criterion.push(value()?.into()),
            "--baseline" => a.baseline = Some(value()?.into()),
            "--wallclock" => a.wallclock = Some(value()?.into()),
            "--history" => a.history = Some(value()?.into()),
            "--docs" => a.docs = Some(value()?.into()),
            "--out" => a.out = Some(value()?.into()),
            "--load" => a.load = Some(value()?),
            "--limit" => a.limit_pct = parse_limit(&value()?)?,
            "--check" => a.check = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

/// The gate's limit in percent: finite and not negative (NaN or infinity would make
/// every comparison pass).
fn parse_limit(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Ok(x) => Err(format!("--limit: {x} is not a finite percentage >= 0")),
        Err(e) => Err(format!("--limit: {e}")),
    }
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn write(p: &Path, s: &str) -> Result<(), String> {
    std::fs::write(p, s).map_err(|e| format!("{}: {e}", p.display()))
}

fn need<'a>(p: &'a Option<PathBuf>, flag: &str) -> Result<&'a Path, String> {
    p.as_deref().ok_or(format!("{flag} is required"))
}

fn measured(files: &[PathBuf]) -> Result<BTreeMap<String, Measure>, String> {
    if files.is_empty() {
        return Err("no --gungraun output given".into());
    }
    let mut all = BTreeMap::new();
    for f in files {
        let m = data::parse_gungraun(&read(f)?)?;
        if m.is_empty() {
            return Err(format!("{}: no benchmark in it", f.display()));
        }
        for (k, v) in m {
            if all.insert(k.clone(), v).is_some() {
                return Err(format!("{k}: in two gungraun outputs"));
            }
        }
    }
    Ok(all)
}

fn run(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The commit, marked when the work tree differs from it.
fn commit() -> String {
    let dirty = !run("git", &["status", "--porcelain", "--untracked-files=no"]).is_empty();
    format!(
        "{}{}",
        run("git", &["rev-parse", "--short=7", "HEAD"]),
        if dirty { "+local-changes" } else { "" }
    )
}

fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map_or("unknown", str::trim)
        .to_owned();
    let flags = info
        .lines()
        .find(|l| l.starts_with("flags"))
        .unwrap_or_default();
    let has: Vec<&str> = ["avx2", "pclmulqdq"]
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect();
    format!("{model} ({})", has.join(", ").to_uppercase())
}

fn main() -> ExitCode {
    match real_main() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("report: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main() -> Result<ExitCode, String> {
    let a = parse_args()?;
    match a.cmd.as_str() {
        "save" => {
            let now = measured(&a.gungraun)?;
            let mut b = Baseline::default();
            b.meta.insert("commit".into(), commit());
            b.meta.insert("rustc".into(), run("rustc", &["--version"]));
            b.meta.insert("cpu".into(), cpu());
            b.meta
                .insert("valgrind".into(), run("valgrind", &["--version"]));
            b.meta.insert(
                "gungraun".into(),
                run("gungraun-runner", &["--version"])
                    .trim_start_matches("gungraun-runner ")
                    .to_owned(),
            );
            b.entries = now;
            let p = need(&a.baseline, "--baseline")?;
            write(p, &b.to_text())?;
            println!("saved {} benchmarks to {}", b.entries.len(), p.display());
        }
        "gate" => {
            let now = measured(&a.gungraun)?;
            let base = Baseline::parse(&read(need(&a.baseline, "--baseline")?)?)?;
            let r = data::gate(&base, &now, a.limit_pct);
            for l in &r.lines {
                println!("{l}");
            }
            println!(
                "gate: {} benchmarks measured, {} in the baseline, limit {}%",
                now.len(),
                base.entries.len(),
                a.limit_pct
            );
            if !r.failures.is_empty() {
                for f in &r.failures {
                    eprintln!("GATE {f}");
                }
                eprintln!("gate: {} failure(s)", r.failures.len());
                return Ok(ExitCode::FAILURE);
            }
            println!(
                "gate: no instruction count or heap figure moved by more than {}% either way",
                a.limit_pct
            );
        }
        "history" => {
            let base = Baseline::parse(&read(need(&a.baseline, "--baseline")?)?)?;
            let p = need(&a.history, "--history")?;
            // Only a missing file starts a new history; any other error (unreadable,
            // not UTF-8) must not end in overwriting the file with one line.
            let mut h = match std::fs::read_to_string(p) {
                Ok(t) => data::parse_history(&t)?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(format!("{}: {e}", p.display())),
            };
            let line = docs::history_line(&base)?;
            match h.iter_mut().find(|l| l.commit == line.commit) {
                Some(l) => *l = line,
                None => h.push(line),
            }
            write(p, &data::history_text(&h))?;
            println!("{}: {} commits", p.display(), h.len());
        }
        "wallclock" => {
            if a.criterion.len() < 3 {
                return Err("wallclock needs at least three --criterion runs".into());
            }
            let mut w = WallClock::default();
            w.meta.insert("commit".into(), commit());
            w.meta.insert("cpu".into(), cpu());
            w.meta.insert("rustc".into(), run("rustc", &["--version"]));
            w.meta.insert("runs".into(), a.criterion.len().to_string());
            if let Some(l) = &a.load {
                w.meta.insert("load".into(), l.clone());
            }
            for dir in &a.criterion {
                let mut m = BTreeMap::new();
                data::criterion_medians(dir, &mut m);
                if m.is_empty() {
                    return Err(format!("{}: no criterion results", dir.display()));
                }
                for (id, v) in m {
                    w.runs.entry(id).or_default().push(v);
                }
            }
            let mut s = String::from(
                "# Wall-clock: criterion median (ns) of each run, one column per run.\n\
                 # Written by benches/scripts/wallclock.sh; read by `report docs`.\n",
            );
            for (k, v) in &w.meta {
                s.push_str(&format!("@{k} {v}\n"));
            }
            for (id, v) in &w.runs {
                let cols: Vec<String> = v.iter().map(|x| format!("{x:.1}")).collect();
                s.push_str(&format!("{id} = {}\n", cols.join(" ")));
            }
            write(need(&a.out, "--out")?, &s)?;
        }
        "docs" => {
            let base = Baseline::parse(&read(need(&a.baseline, "--baseline")?)?)?;
            let wall = WallClock::parse(&read(need(&a.wallclock, "--wallclock")?)?)?;
            let history = data::parse_history(&read(need(&a.history, "--history")?)?)?;
            let versions = docs::lock_versions(&read(Path::new("Cargo.lock"))?);
            let out = docs::generate(&docs::Ctx {
                base: &base,
                wall: &wall,
                history: &history,
                versions: &versions,
            })?;
            let dir = need(&a.docs, "--docs")?;
            let mut files: BTreeMap<PathBuf, String> = out
                .files
                .into_iter()
                .map(|(f, s)| (dir.join(f), s))
                .collect();
            for ((page, name), body) in out.sections {
                let p = dir.join(page);
                let current = files.get(&p).cloned().map_or_else(|| read(&p), Ok)?;
                files.insert(p, docs::splice(&current, &name, &body)?);
            }
            let mut stale = Vec::new();
            for (p, s) in &files {
                if s.len() > 200_000 {
                    return Err(format!("{}: {} bytes generated", p.display(), s.len()));
                }
                if a.check {
                    if std::fs::read_to_string(p).ok().as_deref() != Some(s.as_str()) {
                        stale.push(p.display().to_string());
                    }
                } else {
                    write(p, s)?;
                }
            }
            if !stale.is_empty() {
                for p in &stale {
                    eprintln!("stale: {p} differs from what the baseline generates");
                }
                eprintln!("regenerate with: bash benches/scripts/gate.sh --docs");
                return Ok(ExitCode::FAILURE);
            }
            println!(
                "{} {} files from {}",
                if a.check { "checked" } else { "wrote" },
                files.len(),
                need(&a.baseline, "--baseline")?.display()
            );
        }
        other => return Err(format!("unknown command {other}")),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_limit;

    /// A limit that would make every comparison pass is refused.
    #[test]
    fn limit_must_be_a_finite_percentage() {
        assert_eq!(parse_limit("5"), Ok(5.0));
        assert_eq!(parse_limit("0"), Ok(0.0));
        for bad in ["nan", "NaN", "inf", "-inf", "-1", "five"] {
            assert!(parse_limit(bad).is_err(), "{bad} accepted");
        }
    }
}
