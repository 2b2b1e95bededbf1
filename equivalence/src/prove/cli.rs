//! The `refopt prove` subcommand ([`crate::cli`] dispatches to [`main`]).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Mutant, Obligation, Row, json, markdown, obligations, run, selftest, text};

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

/// A line on stderr that never panics.
fn note(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// Runs `refopt prove` over the built-in obligations and `extra` ones, writing the
/// ledger to `out`.
///
/// # Errors
/// An I/O error writing `out` (a closed pipe included: the caller ends quietly).
pub fn main(
    args: &ProveArgs,
    extra: &[&'static Obligation],
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    let mut all = obligations();
    all.extend_from_slice(extra);
    let list: Vec<&'static Obligation> = match &args.only {
        Some(id) => match all.iter().find(|o| o.id.eq_ignore_ascii_case(id)) {
            Some(o) => vec![*o],
            None => {
                let ids: Vec<&str> = all.iter().map(|o| o.id).collect();
                note(&format!(
                    "refopt prove: no obligation `{id}` (known: {})",
                    ids.join(", ")
                ));
                return Ok(ExitCode::from(2));
            }
        },
        None => all,
    };
    if args.self_test {
        return self_test(&list, args.plant_bin.clone(), out);
    }
    let rows: Vec<Row> = run(&list, |r| {
        note(&format!(
            "prove {:<10} {:<8} {:>7.2} s",
            r.obligation.id,
            r.status(),
            r.seconds
        ));
    });
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json(&rows)).unwrap_or_default()
        )?;
    } else if args.markdown {
        write!(out, "{}", markdown(&rows))?;
    } else {
        write!(out, "{}", text(&rows))?;
    }
    let not_run: Vec<&str> = rows
        .iter()
        .filter(|r| r.status() == "not run")
        .map(|r| r.obligation.id)
        .collect();
    if !not_run.is_empty() {
        note(&format!("refopt prove: not run: {}", not_run.join(", ")));
    }
    Ok(if rows.iter().all(Row::ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn self_test(
    list: &[&'static Obligation],
    plant_bin: Option<PathBuf>,
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    if reference::plant::compiled_in() {
        note(
            "refopt prove --self-test: run it from a normal build (it starts the plant build itself)",
        );
        return Ok(ExitCode::from(2));
    }
    let outcomes = match selftest::run(list, plant_bin) {
        Ok(o) => o,
        Err(e) => {
            note(&format!("refopt prove --self-test: {e}"));
            return Ok(ExitCode::FAILURE);
        }
    };
    writeln!(
        out,
        "| ID | mutant | result | what the check reported | time (s) |"
    )?;
    writeln!(out, "|---|---|---|---|---|")?;
    for o in &outcomes {
        writeln!(
            out,
            "| {} | {} | {} | {} | {:.1} |",
            o.id,
            o.mutant,
            if o.caught { "caught" } else { "**MISSED**" },
            o.detail.replace('|', "\\|"),
            o.seconds
        )?;
    }
    let missed: Vec<&str> = outcomes
        .iter()
        .filter(|o| !o.caught)
        .map(|o| o.id)
        .collect();
    let count = |f: fn(&Mutant) -> bool| list.iter().filter(|o| f(&o.mutant)).count();
    let with_plants = count(|m| !m.plants().is_empty());
    let plants: usize = list.iter().map(|o| o.mutant.plants().len()).sum();
    let in_process = count(|m| matches!(m, Mutant::InProcess { .. }));
    if missed.is_empty() {
        writeln!(
            out,
            "\nevery obligation's mutant caught, {} in all ({with_plants} by planted bugs, {plants} plants; {in_process} in-process)",
            outcomes.len(),
        )?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "\nmutants not caught: {}", missed.join(", "))?;
        Ok(ExitCode::FAILURE)
    }
}
