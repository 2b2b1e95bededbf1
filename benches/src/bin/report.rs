//! Turns benchmark output into the seed-format tables of docs/RESULTS.md.
//!
//! ```text
//! cargo bench -p benches --bench mlkem
//! cargo bench -p benches --bench mlkem_instructions -- --output-format=json > ir.json
//! cargo run -p benches --bin report -- --criterion target/criterion --filter ML-KEM \
//!     --gungraun ir.json --before reference --after optimized
//! ```
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
    filter: String,
    before: String,
    after: String,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        criterion: None,
        gungraun: None,
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

fn main() -> ExitCode {
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
    }
    ExitCode::SUCCESS
}
