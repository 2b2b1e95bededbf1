//! The `refopt` command line, as a library: [`main`] is the `refopt` binary, and
//! [`main_with`] is the same tool with a user's own pairs added (a crate that defines
//! pairs gets its own `refopt` in one line).
//!
//! * `refopt` (no arguments) checks every pair of the default run with its default
//!   number of cases, prints a table and exits non-zero on a mismatch or on a pair
//!   that compared nothing ("no evidence"), printing a reproducer and keeping the
//!   failing input as a regression case.
//! * `refopt check [--cases N] [--seed S] [--pair NAME]... [--time-budget 60s]
//!   [--json] [--allow-no-evidence] [--regressions DIR | --no-keep]`.
//! * `refopt replay PAIR [HEX | --file F | -]` re-runs saved inputs (a file may hold
//!   one hex input per line, as the regression files do; `-` or nothing reads stdin).
//! * `refopt kat SCHEME [--variant V]` writes the NIST `PQCgenKAT_kem` response file.
//! * `refopt vectors ed25519 FILE [--variant V]` checks a `sign.input` file line by
//!   line, streaming it.
//! * `refopt list` lists pairs (the two functions each compares, preconditions,
//!   declared bounds) and KAT schemes.
//! * `refopt prove [--json] [--markdown] [--only ID] [--self-test]` runs the proof
//!   obligations ([`crate::prove`]).
//! * `refopt zoo [--keep DIR] [--markdown] [--jobs N] [--regressions DIR] [--plant NAME]...`
//!   (plant builds) runs the bug zoo.
//!
//! Output never panics: a closed pipe ends the program quietly (exit status 141, as a
//! process killed by SIGPIPE), any other I/O error is a message on stderr and exit
//! status 1. Usage errors exit with 2.

// Progress and budget arithmetic on case counts and durations only: no secrets here.
#![allow(clippy::integer_division_remainder_used)]

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use crate::pair::{Outcome, Pair};
use crate::registry::{self, Tally, Verdict};
use crate::{kat, regressions, schemes};

/// The largest `--cases` accepted (a run of a billion cases of the cheapest kernel
/// would take hours: bound it, and say so).
pub const MAX_CASES: usize = 100_000_000;

/// Exit status for a closed output pipe (128 + SIGPIPE).
const EXIT_PIPE: u8 = 141;

#[derive(Parser)]
#[command(
    name = "refopt",
    version,
    about = "Did my optimization change any result? Checks reference/optimized pairs, writes KAT files."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check pairs on generated inputs (the default command).
    Check(CheckArgs),
    /// Re-run one pair on saved inputs: hex on the command line, in a file (one input a
    /// line, `#` comments), or on standard input.
    Replay {
        /// Pair name, as printed by `refopt list`.
        pair: String,
        /// The input bytes in hex; `-` or nothing reads standard input.
        input: Option<String>,
        /// Read the inputs from this file instead.
        #[arg(long, conflicts_with = "input")]
        file: Option<PathBuf>,
    },
    /// Write the NIST PQCgenKAT_kem response file (counts 0..99) to stdout.
    Kat {
        /// Scheme (see `refopt list`), for example ml-kem-768 or sntrup761.
        scheme: String,
        /// Variant (default: reference).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Check every line of a vector file; stop at the first failing line, naming it.
    ///
    /// ed25519: the `sign.input` format `sk(seed||pk):pk:msg:sig||msg:` (hex); each
    /// line derives pk from the seed, signs, compares, and verifies. The file is
    /// streamed (constant memory); progress goes to stderr on long files.
    Vectors {
        /// Scheme: ed25519.
        scheme: String,
        /// The vector file.
        file: PathBuf,
        /// Variant (default: reference).
        #[arg(long)]
        variant: Option<String>,
    },
    /// List pairs (what each compares, preconditions, declared bounds) and KAT schemes.
    List,
    /// Run the proof obligations' machine checks and print the ledger.
    Prove(crate::prove::cli::ProveArgs),
    /// Report every division instruction in the named functions of a release binary
    /// (secret-dependent division is variable-time on common CPUs and valgrind does
    /// not see it). Fails on any division found.
    ScanDivisions {
        /// The binary (default: this one; build it with --release).
        #[arg(long)]
        binary: Option<PathBuf>,
        /// Scan the code of functions whose demangled name contains this (repeatable);
        /// each must match a function of the binary (exit 2 otherwise: a typo, or a
        /// function inlined away, which `#[inline(never)]` keeps).
        #[arg(long, required = true)]
        function: Vec<String>,
    },
    /// The built-in cargo-fuzz targets (fuzz/): list them, write seed corpora, replay
    /// inputs, keep a crash as a regression case.
    #[command(subcommand)]
    Fuzz(FuzzCommand),
    /// Bug zoo (plant builds only): run the default check with each planted bug of the
    /// zoo switched on, one bug per run (`--jobs` runs at once), and report which pairs
    /// catch it and how fast.
    Zoo {
        /// Keep the first catching input of each plant as a regression case here.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Print the table as Markdown (for docs/bug-zoo.md).
        #[arg(long)]
        markdown: bool,
        /// Default runs at once (each is one single-threaded process). More than one
        /// shortens the whole but makes each run's time a time under load.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        jobs: u16,
        /// Also replay every committed regression input in this directory with each
        /// plant: each input must fail with at least one plant, and each plant must
        /// fail at least one input (the committed set still catches the whole zoo).
        #[arg(long)]
        regressions: Option<PathBuf>,
        /// Run these plants (any in the plant list, repeatable) instead of the zoo's:
        /// a plant the default run cannot see shows the command reporting it NOT
        /// CAUGHT (the self-test in .ci/zoo.sh).
        #[arg(long = "plant", value_name = "NAME")]
        plants: Vec<String>,
    },
}

#[derive(Subcommand)]
enum FuzzCommand {
    /// Print the target table (name, class, max_len, dictionary), as fuzz/targets.txt
    /// holds it.
    List,
    /// Write seed corpora into DIR/<target>/: the edge seeds (as committed in
    /// fuzz/seeds), plus, unless --edge-only, seeds from the official vectors and the
    /// default run's inputs.
    Seeds {
        /// Output directory (fuzz/corpus for a campaign).
        dir: PathBuf,
        /// Only the edge seeds (no vectors needed).
        #[arg(long)]
        edge_only: bool,
    },
    /// Run a target on input files (crash files, corpus entries) and report each
    /// outcome; exit 1 if any is a finding.
    Run {
        /// Target name (see `refopt fuzz list`).
        target: String,
        /// Input files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Keep fuzzer inputs (crash files) as regression cases that `cargo test` replays:
    /// a pair target's input goes to its pair's file, a parser target's to
    /// parsers/<target>.txt, in the regressions directory.
    Keep {
        /// Target name (see `refopt fuzz list`).
        target: String,
        /// Crash files (fuzz/artifacts/<target>/crash-*).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Regressions directory (default: the workspace's equivalence/regressions).
        #[arg(long)]
        regressions: Option<PathBuf>,
    },
}

#[derive(clap::Args, Default)]
struct CheckArgs {
    /// Cases per pair (default: each pair's own default; at most 100 000 000).
    #[arg(long, value_parser = parse_cases)]
    cases: Option<usize>,
    /// Seed of the input stream.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Only pairs whose name starts with this (repeatable); pairs outside the default
    /// run are checked only when named.
    #[arg(long = "pair")]
    pairs: Vec<String>,
    /// Stop after this long in all (for example 90s, 5m, 500ms), sharing the budget
    /// among the pairs; a pair left with no case compared is "no evidence".
    #[arg(long, value_parser = parse_duration)]
    time_budget: Option<Duration>,
    /// Print the summary as JSON on stdout (progress stays on stderr).
    #[arg(long)]
    json: bool,
    /// Do not fail when a pair compared no case (every case skipped by a
    /// precondition, or none run in the time budget).
    #[arg(long)]
    allow_no_evidence: bool,
    /// Directory where failing inputs are kept (default: $REFOPT_REGRESSIONS; else, for
    /// the lab's pairs, the workspace's equivalence/regressions or ./regressions, and
    /// for a crate's own pairs the directory its Extension names or ./regressions).
    #[arg(long, conflicts_with = "no_keep")]
    regressions: Option<PathBuf>,
    /// Do not keep failing inputs.
    #[arg(long)]
    no_keep: bool,
}

fn parse_cases(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|e| format!("`{s}` is not a number of cases ({e})"))?;
    if n == 0 {
        return Err("0 cases would check nothing".into());
    }
    if n > MAX_CASES {
        return Err(format!(
            "{n} cases is more than the {MAX_CASES} a run takes; use --time-budget for long runs"
        ));
    }
    Ok(n)
}

/// Parses `90s`, `5m`, `2h`, `500ms` or a plain number of seconds.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (try 90s, 5m, 500ms)"))?;
    let secs = match unit {
        "ms" => v / 1000.0,
        "s" | "" => v,
        "m" | "min" => v * 60.0,
        "h" => v * 3600.0,
        other => return Err(format!("unknown duration unit `{other}` (ms, s, m, h)")),
    };
    if !(secs.is_finite() && secs > 0.0 && secs < 1e9) {
        return Err(format!("`{s}` is not a usable time budget"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// What a crate adds to the lab: its pairs and its proof obligations.
///
/// ```no_run
/// use equivalence::cli::Extension;
///
/// static EXTENSION: Extension = Extension::new(&[/* &MY_PAIR */], &[/* &MY_OBLIGATION */])
///     .regressions(concat!(env!("CARGO_MANIFEST_DIR"), "/regressions"));
///
/// fn main() -> std::process::ExitCode {
///     equivalence::cli::main_with(&EXTENSION)
/// }
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Extension {
    /// Pairs beside the built-in ones (`list`, `check`, `replay`, `zoo`).
    pub pairs: &'static [&'static dyn Pair],
    /// Proof obligations beside the built-in ones (`prove`).
    pub obligations: &'static [&'static crate::prove::Obligation],
    /// Where `check` keeps the crate's pairs' failing inputs when neither
    /// `--regressions` nor `$REFOPT_REGRESSIONS` names a directory: the crate's own
    /// `regressions/`, which its `lab_tests!` replay. `None`: `./regressions`. Never
    /// the lab's `equivalence/regressions`, whose test knows only the lab's pairs.
    pub regressions: Option<&'static str>,
}

impl Extension {
    /// A crate's pairs and obligations.
    pub const fn new(
        pairs: &'static [&'static dyn Pair],
        obligations: &'static [&'static crate::prove::Obligation],
    ) -> Self {
        Self {
            pairs,
            obligations,
            regressions: None,
        }
    }

    /// The same extension keeping its pairs' failing inputs in `dir` (typically
    /// `concat!(env!("CARGO_MANIFEST_DIR"), "/regressions")`).
    pub const fn regressions(self, dir: &'static str) -> Self {
        Self {
            regressions: Some(dir),
            ..self
        }
    }

    /// The extension's pair names and obligation IDs that are already taken, by a
    /// built-in one or by another of the extension's (IDs compared ignoring case, as
    /// `prove --only` finds them), one message each; empty when every name is unique.
    pub fn clashes(&self) -> Vec<String> {
        let mut found = Vec::new();
        let mut names: Vec<&str> = registry::pairs().iter().map(|p| p.name()).collect();
        for p in self.pairs {
            if names.contains(&p.name()) {
                found.push(format!("two pairs are named `{}`", p.name()));
            }
            names.push(p.name());
        }
        let mut ids: Vec<String> = crate::prove::obligations()
            .iter()
            .map(|o| o.id.to_ascii_lowercase())
            .collect();
        for o in self.obligations {
            let id = o.id.to_ascii_lowercase();
            if ids.contains(&id) {
                found.push(format!("two obligations have the ID `{}`", o.id));
            }
            ids.push(id);
        }
        found
    }

    /// The directory `check` keeps `pair`'s failing inputs in, absent `--regressions`;
    /// `env_set`: whether `$REFOPT_REGRESSIONS` names one (it then applies to every
    /// pair).
    fn keep_dir(&self, pair: &str, env_set: bool) -> PathBuf {
        let ours = self.pairs.iter().any(|p| p.name() == pair);
        match (ours && !env_set, self.regressions) {
            (false, _) => regressions::default_dir(),
            (true, Some(dir)) => PathBuf::from(dir),
            (true, None) => PathBuf::from("regressions"),
        }
    }
}

/// The `refopt` tool with the built-in pairs.
pub fn main() -> ExitCode {
    main_with(&Extension::default())
}

/// The `refopt` tool with a crate's own pairs and obligations beside the built-in
/// ones: `fn main() -> ExitCode { equivalence::cli::main_with(&EXTENSION) }` gives a
/// crate `list`, `check`, `replay`, `prove`, `zoo` and `scan-divisions` for them.
pub fn main_with(ext: &Extension) -> ExitCode {
    let extra = ext.pairs;
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // clap writes help to stdout and errors to stderr; a closed pipe is quiet.
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let mut pairs = registry::pairs();
    pairs.extend_from_slice(extra);
    registry::sort(&mut pairs);
    // `replay`, `check PAIR`, `prove --only ID` and the regression files go by name:
    // two pairs (or obligations) under one name would make them pick either.
    let clashes = ext.clashes();
    if !clashes.is_empty() {
        for c in &clashes {
            note(&format!("refopt: {c}"));
        }
        return ExitCode::from(2);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command.unwrap_or(Command::Check(CheckArgs::default())) {
        Command::Check(args) => check(&pairs, &args, ext, &mut out),
        Command::Replay { pair, input, file } => {
            replay(&pairs, &pair, input.as_deref(), file.as_deref(), &mut out)
        }
        Command::Kat { scheme, variant } => kat_file(&scheme, variant.as_deref(), &mut out),
        Command::Vectors {
            scheme,
            file,
            variant,
        } => vectors(&scheme, &file, variant.as_deref(), &mut out),
        Command::List => list(&pairs, &mut out).map(|()| ExitCode::SUCCESS),
        Command::Fuzz(cmd) => fuzz(cmd, &mut out),
        Command::Zoo {
            keep,
            markdown,
            jobs,
            regressions,
            plants,
        } => zoo(
            keep.as_deref(),
            markdown,
            usize::from(jobs),
            regressions.as_deref(),
            &plants,
            &mut out,
        ),
        Command::Prove(args) => crate::prove::cli::main(&args, ext.obligations, &mut out),
        Command::ScanDivisions { binary, function } => scan_divisions(binary, &function, &mut out),
    };
    let result = result.and_then(|code| out.flush().map(|()| code));
    if std::env::var_os("REFOPT_REPORT_PEAK_RSS").is_some() {
        // For the memory benchmark of `vectors`: the kernel's high-water mark.
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if let Some(hwm) = status.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
            note(&format!("peak RSS: {}", hwm.trim()));
        }
    }
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_PIPE),
        Err(e) => {
            note(&format!("refopt: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// The bytes of `file`; an error names the file.
fn read_named(file: &Path) -> io::Result<Vec<u8>> {
    std::fs::read(file).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.display())))
}

/// A line on stderr that never panics (a closed stderr is ignored).
fn note(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// A usage error: message on stderr, exit status 2.
fn usage(msg: &str) -> io::Result<ExitCode> {
    note(&format!("refopt: {msg}"));
    Ok(ExitCode::from(2))
}

fn selected(pairs: &[&'static dyn Pair], wanted: &[String]) -> Vec<&'static dyn Pair> {
    pairs
        .iter()
        .copied()
        .filter(|p| {
            if wanted.is_empty() {
                p.in_default_run()
            } else {
                wanted
                    .iter()
                    .any(|w| p.name() == w || p.name().starts_with(w.as_str()))
            }
        })
        .collect()
}

/// One pair's row of a run.
struct Row {
    pair: &'static dyn Pair,
    tally: Tally,
    seconds: f64,
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Agree => "agree",
        Verdict::Mismatch => "MISMATCH",
        Verdict::NoEvidence => "no evidence",
    }
}

fn check(
    pairs: &[&'static dyn Pair],
    args: &CheckArgs,
    ext: &Extension,
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    let chosen = selected(pairs, &args.pairs);
    if chosen.is_empty() {
        return usage(&format!(
            "no pair matches {:?} (see `refopt list`)",
            args.pairs
        ));
    }
    let tty = io::stderr().is_terminal();
    let w = chosen.iter().map(|p| p.name().len()).max().unwrap_or(4);
    let started_all = Instant::now();
    let mut rows: Vec<Row> = Vec::new();
    for (i, pair) in chosen.iter().enumerate() {
        let cases = args.cases.unwrap_or_else(|| pair.default_cases());
        // Share what is left of the budget evenly among the pairs still to run.
        let deadline = args.time_budget.map(|b| {
            let left = b.saturating_sub(started_all.elapsed());
            Instant::now() + left / (chosen.len() - i) as u32
        });
        let step = (cases / 10).max(1);
        let started = Instant::now();
        if tty {
            let _ = write!(io::stderr(), "checking {:<w$}", pair.name());
        }
        let tally = registry::check(*pair, args.seed, cases, deadline, |done| {
            if tty && (done % step == 0 || done == cases) {
                let _ = write!(
                    io::stderr(),
                    "\rchecking {:<w$} {done}/{cases}",
                    pair.name()
                );
            }
        });
        let seconds = started.elapsed().as_secs_f64();
        note(&format!(
            "{}checking {:<w$} {}/{cases} in {seconds:.2} s: {}",
            if tty { "\r" } else { "" },
            pair.name(),
            tally.cases,
            verdict_name(tally.verdict())
        ));
        rows.push(Row {
            pair: *pair,
            tally,
            seconds,
        });
    }

    // Keep every first mismatch as a regression case: a crate's own pairs in its
    // directory, the lab's in the lab's ([`Extension::keep_dir`]).
    let env_set = std::env::var_os(regressions::DIR_ENV).is_some();
    let mut kept: Vec<Option<Result<PathBuf, String>>> = Vec::new();
    for r in &rows {
        kept.push(match &r.tally.first_mismatch {
            Some((_, input, _)) if !args.no_keep => {
                let dir = args
                    .regressions
                    .clone()
                    .unwrap_or_else(|| ext.keep_dir(r.pair.name(), env_set));
                Some(regressions::keep(&dir, r.pair.name(), input).map_err(|e| e.to_string()))
            }
            _ => None,
        });
    }

    let mismatches = rows
        .iter()
        .filter(|r| r.tally.verdict() == Verdict::Mismatch)
        .count();
    let no_evidence = rows
        .iter()
        .filter(|r| r.tally.verdict() == Verdict::NoEvidence)
        .count();
    let failed = mismatches > 0 || (no_evidence > 0 && !args.allow_no_evidence);

    if args.json {
        write_json(out, args.seed, &rows, &kept, failed)?;
    } else {
        write_table(out, args.seed, &rows, &kept, w)?;
        writeln!(out)?;
        if mismatches == 0 && no_evidence == 0 {
            writeln!(out, "all {} pairs agree", rows.len())?;
        } else {
            writeln!(
                out,
                "{} pairs agree, {mismatches} mismatch, {no_evidence} no evidence{}",
                rows.len() - mismatches - no_evidence,
                if no_evidence > 0 && !args.allow_no_evidence {
                    " (a pair that compared nothing is not evidence; --allow-no-evidence accepts it)"
                } else {
                    ""
                }
            )?;
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn write_table(
    out: &mut dyn Write,
    seed: u64,
    rows: &[Row],
    kept: &[Option<Result<PathBuf, String>>],
    w: usize,
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "| {:<w$} | {:<6} | {:>7} | {:>8} | {:>8} | {:>7} | {:<11} | {:>8} |",
        "pair", "level", "cases", "compared", "mismatch", "skipped", "verdict", "time (s)"
    )?;
    writeln!(
        out,
        "|{:-<a$}|{:-<8}|{:->9}|{:->10}|{:->10}|{:->9}|{:-<13}|{:->10}|",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        a = w + 2
    )?;
    for r in rows {
        let t = &r.tally;
        writeln!(
            out,
            "| {:<w$} | {:<6} | {:>7} | {:>8} | {:>8} | {:>7} | {:<11} | {:>8.2} |",
            r.pair.name(),
            r.pair.level().to_string(),
            t.cases,
            t.compared(),
            t.mismatches,
            t.skipped(),
            verdict_name(t.verdict()),
            r.seconds
        )?;
    }
    for r in rows {
        for (name, count) in &r.tally.not_met {
            let desc = r
                .pair
                .preconditions()
                .iter()
                .find(|p| p.name == *name)
                .map_or("", |p| p.description);
            writeln!(
                out,
                "{}: precondition not met: {name} in {count} of {} cases ({desc})",
                r.pair.name(),
                r.tally.cases
            )?;
        }
    }
    for (r, kept) in rows.iter().zip(kept) {
        let Some((index, input, m)) = &r.tally.first_mismatch else {
            continue;
        };
        writeln!(out, "\nMISMATCH in {}: {m}", r.pair.name())?;
        writeln!(out, "  compares {}", r.pair.sides().reference)?;
        writeln!(out, "   against {}", r.pair.sides().optimized)?;
        writeln!(
            out,
            "  seed {seed}, case {index}, input {}",
            hex::encode(input)
        )?;
        writeln!(
            out,
            "  reproduce: refopt replay {} {}",
            r.pair.name(),
            hex::encode(input)
        )?;
        match kept {
            Some(Ok(path)) => writeln!(out, "  kept as a regression case in {}", path.display())?,
            Some(Err(e)) => writeln!(out, "  could not keep the regression case: {e}")?,
            None => {}
        }
    }
    Ok(())
}

fn write_json(
    out: &mut dyn Write,
    seed: u64,
    rows: &[Row],
    kept: &[Option<Result<PathBuf, String>>],
    failed: bool,
) -> io::Result<()> {
    use serde_json::{Map, Value, json};
    let pairs: Vec<Value> = rows
        .iter()
        .zip(kept)
        .map(|(r, kept)| {
            let t = &r.tally;
            let not_met: Map<String, Value> = t
                .not_met
                .iter()
                .map(|(k, v)| ((*k).to_owned(), json!(v)))
                .collect();
            let first = t.first_mismatch.as_ref().map(|(index, input, m)| {
                json!({
                    "case": index,
                    "input": hex::encode(input),
                    "field": m.field,
                    "offset": m.offset,
                    "kept": kept.as_ref().and_then(|k| k.as_ref().ok()).map(|p| p.display().to_string()),
                })
            });
            json!({
                "name": r.pair.name(),
                "level": r.pair.level().to_string(),
                "reference": r.pair.sides().reference,
                "optimized": r.pair.sides().optimized,
                "cases": t.cases,
                "compared": t.compared(),
                "equal": t.equal,
                "mismatches": t.mismatches,
                "preconditions_not_met": not_met,
                "verdict": match t.verdict() {
                    Verdict::Agree => "agree",
                    Verdict::Mismatch => "mismatch",
                    Verdict::NoEvidence => "no-evidence",
                },
                "seconds": r.seconds,
                "first_mismatch": first,
            })
        })
        .collect();
    let doc = json!({ "seed": seed, "pairs": pairs, "failed": failed });
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::other)?;
    writeln!(out)
}

fn replay(
    pairs: &[&'static dyn Pair],
    name: &str,
    input: Option<&str>,
    file: Option<&Path>,
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    let Some(pair) = pairs.iter().find(|p| p.name() == name) else {
        return usage(&format!("unknown pair `{name}` (see `refopt list`)"));
    };
    // (where, input) for every input to replay.
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add_lines = |text: &str, origin: &str| -> Result<(), String> {
        let mut any = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bytes = regressions::parse_hex(line)
                .map_err(|e| format!("{origin} line {}: {e}", i + 1))?;
            inputs.push((format!("{origin} line {}", i + 1), bytes));
            any = true;
        }
        if any {
            Ok(())
        } else {
            Err(format!("{origin}: no input"))
        }
    };
    let loaded = match (input, file) {
        (Some(hex), None) if hex != "-" => regressions::parse_hex(hex)
            .map(|b| inputs.push(("the argument".into(), b)))
            .map_err(|e| format!("the input: {e}")),
        (_, Some(path)) => match std::fs::read_to_string(path) {
            Ok(text) => add_lines(&text, &path.display().to_string()),
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("reading {}: {e}", path.display()),
                ));
            }
        },
        _ => {
            let mut text = String::new();
            io::stdin().lock().read_to_string(&mut text)?;
            add_lines(&text, "standard input")
        }
    };
    if let Err(e) = loaded {
        return usage(&e);
    }
    let mut failed = false;
    for (origin, bytes) in &inputs {
        match registry::run_caught(*pair, bytes) {
            Outcome::Equal => writeln!(out, "{name}: {origin}: equal")?,
            Outcome::PreconditionNotMet { which, detail } => {
                writeln!(
                    out,
                    "{name}: {origin}: precondition not met: {which} ({detail})"
                )?;
            }
            Outcome::Mismatch(m) => {
                writeln!(out, "{name}: {origin}: MISMATCH: {m}")?;
                failed = true;
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn kat_file(scheme: &str, variant: Option<&str>, out: &mut dyn Write) -> io::Result<ExitCode> {
    let kem = match schemes::kat_kem(scheme, variant) {
        Ok(k) => k,
        Err(e) => return usage(&e.to_string()),
    };
    match kat::write_response_file(kem.as_ref(), out) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            note(&format!("refopt: {e}"));
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(e),
    }
}

fn vectors(
    scheme: &str,
    file: &Path,
    variant: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    use crate::ed25519::{Variant, check_sign_input_file};
    if scheme != "ed25519" {
        return usage(&format!(
            "`vectors` knows the scheme ed25519 (got `{scheme}`)"
        ));
    }
    let name = variant.unwrap_or("reference");
    let Some(v) = Variant::from_name(name) else {
        let known: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
        return usage(&format!(
            "unknown variant `{name}` for ed25519 (known: {})",
            known.join(", ")
        ));
    };
    let started = Instant::now();
    let mut last = Instant::now();
    let progress = |lines: usize| {
        // Long files: a progress line on stderr about once a second.
        if started.elapsed() > Duration::from_secs(2) && last.elapsed() >= Duration::from_secs(1) {
            note(&format!("{}: {lines} lines read", file.display()));
            last = Instant::now();
        }
    };
    match check_sign_input_file(file, v, progress) {
        Ok(n) => {
            writeln!(out, "{}: {n} lines ok ({name})", file.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(failure) => {
            note(&format!("{}: {failure} ({name})", file.display()));
            Ok(ExitCode::FAILURE)
        }
    }
}

fn list(pairs: &[&'static dyn Pair], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "pairs:")?;
    for p in pairs {
        writeln!(
            out,
            "  {:<44} {:<6} default cases {}{}",
            p.name(),
            p.level().to_string(),
            p.default_cases(),
            if p.in_default_run() {
                ""
            } else {
                " (not in the default run: check it by name)"
            }
        )?;
        let s = p.sides();
        writeln!(out, "    compares   {}", s.reference)?;
        writeln!(out, "    against    {}", s.optimized)?;
        for c in p.preconditions() {
            writeln!(out, "    precondition {}: {}", c.name, c.description)?;
        }
        for b in p.bounds() {
            if b.points.is_empty() {
                writeln!(out, "    reaches    {} in [{}, {}]", b.name, b.min, b.max)?;
            } else {
                writeln!(
                    out,
                    "    reaches    {} in [{}, {}] and {:?}",
                    b.name, b.min, b.max, b.points
                )?;
            }
        }
    }
    writeln!(out, "kat schemes:")?;
    for s in schemes::kat_schemes() {
        writeln!(out, "  {:<44} variants: {}", s.name, s.variants.join(", "))?;
    }
    Ok(())
}

fn fuzz(cmd: FuzzCommand, out: &mut dyn Write) -> io::Result<ExitCode> {
    use crate::fuzz::{self as f, seeds};
    let target = |name: &str| {
        f::target(name).ok_or_else(|| {
            let names: Vec<&str> = f::TARGETS.iter().map(|t| t.name).collect();
            format!("no fuzz target {name} (targets: {})", names.join(", "))
        })
    };
    match cmd {
        FuzzCommand::List => {
            out.write_all(f::table().as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        FuzzCommand::Seeds { dir, edge_only } => {
            let vectors = if edge_only {
                None
            } else {
                match crate::vectors::locate() {
                    crate::vectors::Location::Found(v) => Some(v),
                    crate::vectors::Location::Missing(looked) => {
                        note(&format!(
                            "official vectors not found (looked in {looked:?}; set REFOPT_VECTORS): edge and default-run seeds only"
                        ));
                        None
                    }
                }
            };
            if let Some(v) = &vectors {
                note(&format!("vector seeds from {}", v.display()));
            }
            let counts = seeds::write_all(&dir, edge_only, vectors.as_deref())?;
            for (name, n) in counts {
                writeln!(out, "{name} {n}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        FuzzCommand::Run {
            target: name,
            files,
        } => {
            let t = match target(&name) {
                Ok(t) => t,
                Err(msg) => return usage(&msg),
            };
            let mut failed = false;
            for file in files {
                let data = read_named(&file)?;
                match t.check_caught(&data) {
                    Ok(true) => writeln!(out, "{}: compared, no finding", file.display())?,
                    Ok(false) => writeln!(out, "{}: precondition not met", file.display())?,
                    Err(report) => {
                        failed = true;
                        writeln!(out, "{}: FINDING\n{report}", file.display())?;
                    }
                }
            }
            Ok(if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        FuzzCommand::Keep {
            target: name,
            files,
            regressions: dir,
        } => {
            let t = match target(&name) {
                Ok(t) => t,
                Err(msg) => return usage(&msg),
            };
            let dir = dir.unwrap_or_else(regressions::default_dir);
            for file in files {
                let data = read_named(&file)?;
                let kept = f::keep(&dir, t, &data)?;
                writeln!(
                    out,
                    "{} -> {} (replays through {}; on this build: {})",
                    file.display(),
                    kept.file.display(),
                    kept.replays_through,
                    match &kept.finding {
                        None => "passes".to_owned(),
                        Some(finding) => format!(
                            "fails: {}",
                            finding.to_string().lines().next().unwrap_or("")
                        ),
                    }
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// One bug-zoo result.
struct ZooRow {
    plant: &'static reference::plant::Plant,
    caught_by: Vec<(String, usize, f64)>,
    seconds: f64,
    /// The first catching pair and input (hex), replayed and kept.
    first: Option<(String, String)>,
    replay: Result<(), String>,
}

/// The default run with one plant switched on (a child process, since a process reads
/// its plants once), then the first catching input replayed with and without it.
fn zoo_one(exe: &Path, p: &'static reference::plant::Plant) -> io::Result<ZooRow> {
    use reference::plant;
    let started = Instant::now();
    let child = std::process::Command::new(exe)
        .args(["check", "--json", "--no-keep"])
        .env(plant::ENV, p.name)
        .stderr(std::process::Stdio::null())
        .output()?;
    let seconds = started.elapsed().as_secs_f64();
    let doc: serde_json::Value = serde_json::from_slice(&child.stdout).map_err(|e| {
        io::Error::other(format!(
            "{}: the check's JSON output does not parse: {e}",
            p.name
        ))
    })?;
    let mut caught_by = Vec::new();
    let mut first: Option<(String, String)> = None;
    for pr in doc["pairs"].as_array().into_iter().flatten() {
        if pr["verdict"] == "mismatch" {
            let name = pr["name"].as_str().unwrap_or("?").to_owned();
            let case = pr["first_mismatch"]["case"].as_u64().unwrap_or(0) as usize;
            let secs = pr["seconds"].as_f64().unwrap_or(0.0);
            if first.is_none() {
                let input = pr["first_mismatch"]["input"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned();
                first = Some((name.clone(), input));
            }
            caught_by.push((name, case, secs));
        }
    }
    // The catching input must fail with the plant and agree without it.
    let replay = match &first {
        None => Err("not caught".to_owned()),
        Some((pair, input)) => {
            let run = |plant_on: bool| replay_agrees(exe, pair, input, plant_on.then_some(p.name));
            match (run(true)?, run(false)?) {
                (false, true) => Ok(()),
                (with, without) => Err(format!(
                    "replay: with the plant {}, without it {}",
                    if with { "agrees" } else { "fails" },
                    if without { "agrees" } else { "fails" }
                )),
            }
        }
    };
    note(&format!(
        "zoo {}: {}",
        p.name,
        if caught_by.is_empty() {
            "NOT caught"
        } else {
            "caught"
        }
    ));
    Ok(ZooRow {
        plant: p,
        caught_by,
        seconds,
        first,
        replay,
    })
}

/// Whether `refopt replay pair input_hex` (a child process of `exe`: a plant is chosen
/// at start-up) agrees, with `plant` switched on, or with none: exit 0 is agreement,
/// exit 1 a mismatch; any other exit (a usage error, a crash of the process) is an
/// error, not a verdict.
fn replay_agrees(exe: &Path, pair: &str, input_hex: &str, plant: Option<&str>) -> io::Result<bool> {
    let mut c = std::process::Command::new(exe);
    c.args(["replay", pair, input_hex])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match plant {
        Some(name) => c.env(reference::plant::ENV, name),
        None => c.env_remove(reference::plant::ENV),
    };
    let status = c.status()?;
    match status.code() {
        Some(0) => Ok(true),
        Some(1) => Ok(false),
        _ => Err(io::Error::other(format!(
            "`refopt replay {pair}` with {} ended with {status}, not a verdict",
            plant.unwrap_or("no plant")
        ))),
    }
}

/// Replays each committed regression input in `dir` with each plant of `plants` on
/// ([`replay_agrees`]). Prints which plants each input fails with; true when every
/// input fails with at least one plant and every plant fails at least one input.
fn zoo_regressions(
    exe: &Path,
    dir: &Path,
    plants: &[&'static reference::plant::Plant],
    out: &mut dyn Write,
) -> io::Result<bool> {
    let files = regressions::read_dir(dir)?;
    let mut caught = vec![false; plants.len()];
    let (mut inputs, mut uncaught_inputs) = (0, 0);
    for (path, pair, cases) in &files {
        for (line, input) in cases {
            inputs += 1;
            let hex = hex::encode(input);
            let mut failing = Vec::new();
            for (i, p) in plants.iter().enumerate() {
                if !replay_agrees(exe, pair, &hex, Some(p.name))? {
                    caught[i] = true;
                    failing.push(p.name);
                }
            }
            if failing.is_empty() {
                uncaught_inputs += 1;
            }
            writeln!(
                out,
                "  {}:{line}: {}",
                path.display(),
                if failing.is_empty() {
                    "FAILS WITH NO PLANT".to_owned()
                } else {
                    format!("fails with {}", failing.join(", "))
                }
            )?;
        }
    }
    let missed: Vec<&str> = plants
        .iter()
        .zip(&caught)
        .filter(|(_, c)| !**c)
        .map(|(p, _)| p.name)
        .collect();
    writeln!(
        out,
        "committed regression inputs: {inputs} in {} files; {} fail with no plant; {} of {} planted bugs fail at least one{}",
        files.len(),
        uncaught_inputs,
        plants.len() - missed.len(),
        plants.len(),
        if missed.is_empty() {
            String::new()
        } else {
            format!(" (NONE fails with: {})", missed.join(", "))
        }
    )?;
    Ok(inputs > 0 && uncaught_inputs == 0 && missed.is_empty())
}

fn zoo(
    keep: Option<&Path>,
    markdown: bool,
    jobs: usize,
    committed: Option<&Path>,
    chosen: &[String],
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    use reference::plant;
    use std::sync::atomic::{AtomicUsize, Ordering};
    if !plant::compiled_in() {
        return usage(
            "`zoo` needs the plant build (cargo build --release -p equivalence --features plant; see .ci/plant-build.sh)",
        );
    }
    let exe = std::env::current_exe()?;
    let plants: Vec<&'static plant::Plant> = if chosen.is_empty() {
        plant::caught_by("zoo").collect()
    } else {
        let mut v = Vec::new();
        for name in chosen {
            match plant::ALL.iter().find(|p| p.name == name) {
                Some(p) => v.push(p),
                None => return usage(&format!("`zoo --plant`: no plant named `{name}`")),
            }
        }
        v
    };
    // `jobs` workers take the plants in order; the rows keep that order.
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, io::Result<ZooRow>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(plants.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&p) = plants.get(i) else { break };
                        mine.push((i, zoo_one(&exe, p)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    let rows = done
        .into_iter()
        .map(|(_, row)| row)
        .collect::<io::Result<Vec<_>>>()?;
    // Kept one after another: two plants may be caught by the same pair's file.
    if let Some(dir) = keep {
        for r in rows.iter().filter(|r| r.replay.is_ok()) {
            if let Some((pair, input)) = &r.first {
                let bytes =
                    regressions::parse_hex(input).map_err(|e| io::Error::other(e.to_string()))?;
                regressions::keep(dir, pair, &bytes)?;
            }
        }
    }
    let caught = rows.iter().filter(|r| r.replay.is_ok()).count();
    if markdown {
        writeln!(
            out,
            "| planted bug | edge-only | caught by (case index, pair time) | default run |"
        )?;
        writeln!(out, "|---|---|---|---|")?;
    }
    for r in &rows {
        let by: Vec<String> = r
            .caught_by
            .iter()
            .map(|(n, case, s)| format!("{n} (case {case}, {s:.2} s)"))
            .collect();
        let edge = if r.plant.description.starts_with("edge-only") {
            "yes"
        } else {
            "no"
        };
        if markdown {
            writeln!(
                out,
                "| `{}` | {edge} | {} | {:.1} s |",
                r.plant.name,
                if by.is_empty() {
                    "**not caught**".to_owned()
                } else {
                    by.join("; ")
                },
                r.seconds
            )?;
        } else {
            writeln!(
                out,
                "{:<36} {} in {:.1} s: {}{}",
                r.plant.name,
                if r.replay.is_ok() {
                    "caught"
                } else {
                    "NOT CAUGHT"
                },
                r.seconds,
                by.join(", "),
                match &r.replay {
                    Err(e) if !r.caught_by.is_empty() => format!(" ({e})"),
                    _ => String::new(),
                }
            )?;
        }
    }
    writeln!(
        out,
        "\n{caught} of {} planted bugs caught by the default run{}",
        rows.len(),
        if jobs > 1 {
            format!(" ({jobs} runs at once: each time is under that load)")
        } else {
            String::new()
        }
    )?;
    let committed_ok = match committed {
        Some(dir) => {
            writeln!(out, "\nThe committed regression inputs, each plant on:")?;
            zoo_regressions(&exe, dir, &plants, out)?
        }
        None => true,
    };
    Ok(
        if caught == rows.len() && !rows.is_empty() && committed_ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        },
    )
}

fn scan_divisions(
    binary: Option<PathBuf>,
    functions: &[String],
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    let binary = match binary {
        Some(b) => b,
        None => std::env::current_exe()?,
    };
    let names: Vec<&str> = functions.iter().map(String::as_str).collect();
    let scope = crate::divscan::Scope {
        names: &names,
        paths: &[],
    };
    let s = match crate::divscan::scan(&binary, &scope) {
        Ok(s) => s,
        Err(e) => return usage(&e.to_string()),
    };
    if s.instructions == 0 {
        note(&format!(
            "refopt: no code of {functions:?} found in {} (a release build with line tables?)",
            binary.display()
        ));
        return Ok(ExitCode::from(2));
    }
    // Every name must have matched: one that matched nothing (a typo, or a function
    // inlined into its callers) would otherwise pass unscanned beside the others.
    let unmatched: Vec<&str> = names
        .iter()
        .zip(&s.name_matches)
        .filter(|(_, n)| **n == 0)
        .map(|(name, _)| *name)
        .collect();
    if !unmatched.is_empty() {
        note(&format!(
            "refopt: no function matching {unmatched:?} in {} (misspelt, or inlined into its callers: mark it #[inline(never)] to scan it)",
            binary.display()
        ));
        return Ok(ExitCode::from(2));
    }
    let reported = crate::divscan::report(out, &binary, &s, &[])?;
    Ok(if reported == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An extension's pair: the identity, named as a crate would.
    static MINE: crate::pair::FnPair<u8, [u8; 1]> = crate::pair::FnPair::new(
        "mycrate/same",
        crate::pair::Sides::new("x", "x again"),
        |g| g.u8(),
        |&x| [x],
        |&x| [x],
    );

    /// A crate's pairs keep their failing inputs in the crate's directory, the lab's
    /// in the lab's.
    #[test]
    fn extension_pairs_keep_in_their_own_directory() {
        static PAIRS: [&dyn Pair; 1] = [&MINE];
        let ext = Extension::new(&PAIRS, &[]).regressions("/crate/regressions");
        assert_eq!(
            ext.keep_dir("mycrate/same", false),
            PathBuf::from("/crate/regressions")
        );
        assert_eq!(
            Extension::new(&PAIRS, &[]).keep_dir("mycrate/same", false),
            PathBuf::from("regressions")
        );
        // The lab's pairs, and every pair when $REFOPT_REGRESSIONS is set: the
        // lab's rule.
        assert_eq!(
            ext.keep_dir("ml-kem-768", false),
            regressions::default_dir()
        );
        assert_eq!(
            ext.keep_dir("mycrate/same", true),
            regressions::default_dir()
        );
    }

    /// A crate's pair or obligation reusing a taken name is reported, once per clash.
    #[test]
    fn extension_names_must_be_unique() {
        static BUILTIN_NAME: crate::pair::FnPair<u8, [u8; 1]> = crate::pair::FnPair::new(
            "ml-kem/encrypt-u",
            crate::pair::Sides::new("x", "x again"),
            |g| g.u8(),
            |&x| [x],
            |&x| [x],
        );
        static UNIQUE: [&dyn Pair; 1] = [&MINE];
        static TWICE: [&dyn Pair; 2] = [&MINE, &MINE];
        static TAKEN: [&dyn Pair; 1] = [&BUILTIN_NAME];
        assert!(Extension::new(&UNIQUE, &[]).clashes().is_empty());
        assert_eq!(
            Extension::new(&TWICE, &[]).clashes(),
            ["two pairs are named `mycrate/same`"]
        );
        assert_eq!(
            Extension::new(&TAKEN, &[]).clashes(),
            ["two pairs are named `ml-kem/encrypt-u`"]
        );
        let builtin = crate::prove::obligations()[0];
        let again: &'static [&'static crate::prove::Obligation] = Box::leak(Box::new([builtin]));
        assert_eq!(
            Extension::new(&UNIQUE, again).clashes(),
            [format!("two obligations have the ID `{}`", builtin.id)]
        );
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("5 parsecs").is_err());
        assert!(parse_duration("").is_err());
        assert!(parse_duration("1e99h").is_err());
    }

    #[test]
    fn cases_are_bounded() {
        assert_eq!(parse_cases("20"), Ok(20));
        assert!(parse_cases("0").is_err());
        assert!(parse_cases("18446744073709551615").is_err());
        assert!(parse_cases("-1").is_err());
    }
}
