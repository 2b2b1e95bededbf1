//! The `refopt prove` subcommand (the binary only adds the variant and the dispatch).

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Mutant, Obligation, Row, find, json, markdown, obligations, run, selftest, text};

/// Options of `refopt prove`.
#[derive(clap::Args, Debug, Default)]
pub struct ProveArgs {
    /// Print the ledger as JSON (with per-obligation and per-query times).
    #[arg(long)]
    pub json: bool,
    /// Print the ledger as the markdown section of docs/VERIFICATION.md (no times).
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Only this obligation (its ID, for example MLKEM-5).
    #[arg(long)]
    pub only: Option<String>,
    /// Instead of proving, show that every check fails on its mutant (runs the plant
    /// build from `.ci/plant-build.sh`, or the one in `--plant-bin`).
    #[arg(long)]
    pub self_test: bool,
    /// Directory of the plant build's binaries (default: build it).
    #[arg(long, requires = "self_test")]
    pub plant_bin: Option<PathBuf>,
}

/// Runs `refopt prove`.
pub fn main(args: &ProveArgs) -> ExitCode {
    let list: Vec<&'static Obligation> = match &args.only {
        Some(id) => match find(id) {
            Some(o) => vec![o],
            None => {
                let ids: Vec<&str> = obligations().iter().map(|o| o.id).collect();
                eprintln!(
                    "refopt prove: no obligation `{id}` (known: {})",
                    ids.join(", ")
                );
                return ExitCode::from(2);
            }
        },
        None => obligations(),
    };
    if args.self_test {
        return self_test(&list, args.plant_bin.clone());
    }
    let rows: Vec<Row> = run(&list, |r| {
        eprintln!(
            "prove {:<10} {:<8} {:>7.2} s",
            r.obligation.id,
            r.status(),
            r.seconds
        );
    });
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json(&rows)).unwrap_or_default()
        );
    } else if args.markdown {
        print!("{}", markdown(&rows));
    } else {
        print!("{}", text(&rows));
    }
    let not_run: Vec<&str> = rows
        .iter()
        .filter(|r| r.status() == "not run")
        .map(|r| r.obligation.id)
        .collect();
    if !not_run.is_empty() {
        eprintln!("refopt prove: not run: {}", not_run.join(", "));
    }
    if rows.iter().all(Row::ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn self_test(list: &[&'static Obligation], plant_bin: Option<PathBuf>) -> ExitCode {
    if reference::plant::compiled_in() {
        eprintln!(
            "refopt prove --self-test: run it from a normal build (it starts the plant build itself)"
        );
        return ExitCode::from(2);
    }
    let outcomes = match selftest::run(list, plant_bin) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("refopt prove --self-test: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("| ID | mutant | result | what the check reported | time (s) |");
    println!("|---|---|---|---|---|");
    for o in &outcomes {
        println!(
            "| {} | {} | {} | {} | {:.1} |",
            o.id,
            o.mutant,
            if o.caught { "caught" } else { "**MISSED**" },
            o.detail.replace('|', "\\|"),
            o.seconds
        );
    }
    let missed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.caught)
        .map(|o| o.id)
        .collect();
    let compile = list
        .iter()
        .filter(|o| matches!(o.mutant, Mutant::Compile { .. }))
        .count();
    if missed.is_empty() {
        println!(
            "\nall {} mutants caught ({} planted bugs, {compile} compile-time)",
            outcomes.len(),
            outcomes.len() - compile
        );
        ExitCode::SUCCESS
    } else {
        println!("\nmutants not caught: {}", missed.join(", "));
        ExitCode::FAILURE
    }
}
