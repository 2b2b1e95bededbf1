//! Turns benchmark output into the seed-format tables of docs/RESULTS.md.
//!
//! ```text
//! cargo bench -p benches --bench mlkem
//! cargo bench -p benches --bench mlkem_instructions -- --output-format=json > ir.json
//! cargo run -p benches --bin report -- --criterion target/criterion --filter ML-KEM \
//!     --gungraun ir.json --before reference --after optimized
//! ```
//!
//! Regression gate on instruction counts (a committed baseline, one `name = count` line
//! each):
//!
//! ```text
//! cargo run -p benches --bin report -- --gungraun ir.json --save-baseline benches/baselines/instructions.txt
//! cargo run -p benches --bin report -- --gungraun ir.json --check-baseline benches/baselines/instructions.txt --limit 5
//! ```
//!
//! `--check-baseline` exits non-zero when a benchmark's count exceeds its baseline by
//! more than `--limit` percent, or when a baselined benchmark is missing.
//!
//! Criterion IDs are `<row>/<implementation>` (for example `ML-KEM-768/encaps/optimized`);
//! gungraun rows are `<function>/<bench id>`, and a bench id ending in `_<before>` or
//! `_<after>` puts the two sides of a pair on one row.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

struct Args {
    criterion: Option<PathBuf>,
    gungraun: Option<PathBuf>,
    save_baseline: Option<PathBuf>,
    check_baseline: Option<PathBuf>,
    limit_pct: f64,
    filter: String,
    before: String,
    after: String,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        criterion: None,
        gungraun: None,
        save_baseline: None,
        check_baseline: None,
        limit_pct: 5.0,
        filter: String::new(),
        before: "reference".into(),
        after: "optimized".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--criterion" => a.criterion = Some(value()?.into()),
            "--gungraun" => a.gungraun = Some(value()?.into()),
            "--filter" => a.filter = value()?,
            "--save-baseline" => a.save_baseline = Some(value()?.into()),
            "--check-baseline" => a.check_baseline = Some(value()?.into()),
            "--limit" => a.limit_pct = value()?.parse().map_err(|e| format!("--limit: {e}"))?,
            "--before" => a.before = value()?,
            "--after" => a.after = value()?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

/// Every `new/benchmark.json` under `dir`: full id -> median time in nanoseconds.
fn criterion_medians(dir: &Path, out: &mut BTreeMap<String, f64>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if !p.is_dir() {
            continue;
        }
        if p.file_name().is_some_and(|n| n == "new") {
            let bench = std::fs::read_to_string(p.join("benchmark.json"));
            let est = std::fs::read_to_string(p.join("estimates.json"));
            if let (Ok(b), Ok(e)) = (bench, est) {
                let b: Value = serde_json::from_str(&b).unwrap_or(Value::Null);
                let e: Value = serde_json::from_str(&e).unwrap_or(Value::Null);
                if let (Some(id), Some(m)) = (
                    b["full_id"].as_str(),
                    e["median"]["point_estimate"].as_f64(),
                ) {
                    out.insert(id.to_owned(), m);
                }
            }
        } else {
            criterion_medians(&p, out);
        }
    }
}

fn split_last(id: &str, sep: char) -> Option<(&str, &str)> {
    id.rfind(sep).map(|i| (&id[..i], &id[i + 1..]))
}

fn fmt_time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} µs", ns / 1e3)
    }
}

type Rows = BTreeMap<String, BTreeMap<String, f64>>;

fn print_table(title: &str, rows: &Rows, a: &Args, fmt: impl Fn(f64) -> String) {
    let mut others: Vec<String> = rows
        .values()
        .flat_map(|m| m.keys().cloned())
        .filter(|i| *i != a.before && *i != a.after)
        .collect();
    others.sort();
    others.dedup();
    println!("### {title}\n");
    print!("| | {} | {} | speedup |", a.before, a.after);
    for i in &others {
        print!(" {i} |");
    }
    println!();
    print!("|---|---|---|---|");
    for _ in &others {
        print!("---|");
    }
    println!();
    let cell = |v: Option<&f64>| v.map_or("–".to_owned(), |x| fmt(*x));
    for (row, m) in rows {
        let b = m.get(&a.before);
        let o = m.get(&a.after);
        let speedup = match (b, o) {
            (Some(b), Some(o)) => format!("{:.2}×", b / o),
            _ => "–".into(),
        };
        print!("| {row} | {} | {} | {speedup} |", cell(b), cell(o));
        for i in &others {
            print!(" {} |", cell(m.get(i)));
        }
        println!();
    }
    println!();
}

fn criterion_rows(dir: &Path, a: &Args) -> Rows {
    let mut all = BTreeMap::new();
    criterion_medians(dir, &mut all);
    let mut rows = Rows::new();
    for (id, ns) in all.iter().filter(|(id, _)| id.contains(&a.filter)) {
        if let Some((row, imp)) = split_last(id, '/') {
            rows.entry(row.to_owned())
                .or_default()
                .insert(imp.to_owned(), *ns);
        }
    }
    rows
}

/// Every benchmark in gungraun's JSON-lines output: `<module path>/<id>` -> Ir.
fn gungraun_counts(text: &str) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let path = v["module_path"].as_str().unwrap_or("?");
        let id = v["id"].as_str().unwrap_or("");
        if let Some(ir) =
            v["profiles"][0]["data"]["parts"][0]["metrics"]["Ir"]["values"]["new"].as_f64()
        {
            let key = if id.is_empty() {
                path.to_owned()
            } else {
                format!("{path}/{id}")
            };
            out.insert(key, ir);
        }
    }
    out
}

fn save_baseline(path: &Path, counts: &BTreeMap<String, f64>) -> std::io::Result<()> {
    let mut text = String::from(
        "# Instruction counts (callgrind Ir via gungraun) per benchmark: the regression\n\
         # baseline. Regenerate with `report --gungraun ir.json --save-baseline <this file>`.\n",
    );
    for (k, v) in counts {
        text.push_str(&format!("{k} = {v:.0}\n"));
    }
    std::fs::write(path, text)
}

/// Compares against a baseline; returns the failures.
fn check_baseline(text: &str, counts: &BTreeMap<String, f64>, limit_pct: f64) -> Vec<String> {
    let mut failures = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some((name, value)) = line.split_once(" = ") else {
            failures.push(format!("unreadable baseline line: {line}"));
            continue;
        };
        let Ok(base) = value.trim().parse::<f64>() else {
            failures.push(format!("unreadable count in: {line}"));
            continue;
        };
        match counts.get(name.trim()) {
            None => failures.push(format!("{name}: in the baseline but not measured")),
            Some(&now) => {
                let change = (now - base) / base * 100.0;
                let verdict = if change > limit_pct {
                    "REGRESSION"
                } else {
                    "ok"
                };
                println!("{verdict:>10} {name}: {base:.0} -> {now:.0} ({change:+.2}%)");
                if change > limit_pct {
                    failures.push(format!(
                        "{name}: {now:.0} instructions, {change:+.2}% over the baseline {base:.0} (limit {limit_pct}%)"
                    ));
                }
            }
        }
    }
    failures
}

fn gungraun_rows(text: &str, a: &Args) -> Rows {
    let mut rows = Rows::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let func = v["function_name"].as_str().unwrap_or("?");
        let id = v["id"].as_str().unwrap_or("");
        let Some(ir) =
            v["profiles"][0]["data"]["parts"][0]["metrics"]["Ir"]["values"]["new"].as_f64()
        else {
            continue;
        };
        let key = if id.is_empty() {
            func.to_owned()
        } else {
            format!("{func}/{id}")
        };
        if !key.contains(&a.filter) {
            continue;
        }
        let (row, imp) = match split_last(&key, '_') {
            Some((row, imp)) if imp == a.before || imp == a.after => (row.to_owned(), imp),
            _ => (key.clone(), "instructions"),
        };
        rows.entry(row).or_default().insert(imp.to_owned(), ir);
    }
    rows
}

/// Where and with what the numbers were taken.
fn environment() -> String {
    let run = |cmd: &str, args: &[&str]| {
        std::process::Command::new(cmd)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_else(|| "unknown".to_owned())
    };
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "commit `{}`{}, `{}`, CPU {cpu} ({cores} cores), profile `bench` (release: opt-level 3, \
         codegen-units 16, no target-cpu), date {}",
        run("git", &["rev-parse", "--short", "HEAD"]),
        if run("git", &["status", "--porcelain", "--untracked-files=no"]).is_empty() {
            ""
        } else {
            " (with local changes)"
        },
        run("rustc", &["--version"]),
        run("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    )
}

fn main() -> ExitCode {
    println!("Measured on: {}\n", environment());
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("report: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &a.criterion {
        print_table(
            "Wall-clock (criterion median)",
            &criterion_rows(dir, &a),
            &a,
            fmt_time,
        );
    }
    if let Some(path) = &a.gungraun {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("report: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        print_table(
            "Instructions (callgrind via gungraun)",
            &gungraun_rows(&text, &a),
            &a,
            |x| format!("{x:.0}"),
        );
        let counts = gungraun_counts(&text);
        if let Some(p) = &a.save_baseline {
            if let Err(e) = save_baseline(p, &counts) {
                eprintln!("report: {}: {e}", p.display());
                return ExitCode::FAILURE;
            }
            println!("saved {} counts to {}", counts.len(), p.display());
        }
        if let Some(p) = &a.check_baseline {
            let base = match std::fs::read_to_string(p) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("report: {}: {e}", p.display());
                    return ExitCode::FAILURE;
                }
            };
            let failures = check_baseline(&base, &counts, a.limit_pct);
            if !failures.is_empty() {
                for f in &failures {
                    eprintln!("report: {f}");
                }
                return ExitCode::FAILURE;
            }
            println!(
                "no instruction count regressed by more than {}%",
                a.limit_pct
            );
        }
    }
    ExitCode::SUCCESS
}
