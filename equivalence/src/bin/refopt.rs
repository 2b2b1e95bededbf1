//! `refopt`: run the lab.
//!
//! * `refopt` (no arguments) checks every registered pair with its default number of
//!   cases, prints a table and exits non-zero on a mismatch, printing a reproducer.
//! * `refopt check [--cases N] [--seed S] [--pair NAME]...` does the same with options.
//! * `refopt replay PAIR HEX` re-runs one saved input.
//! * `refopt kat SCHEME [--variant V]` writes the NIST `PQCgenKAT_kem` response file.
//! * `refopt vectors ed25519 FILE [--variant V]` checks a file in the `sign.input`
//!   format line by line.
//! * `refopt list` lists pairs, preconditions and KAT schemes.
//! * `refopt prove [--json] [--markdown] [--only ID] [--self-test]` runs the proof
//!   obligations (`equivalence::prove`).

// Progress arithmetic on case counts only: no secrets here.
#![allow(clippy::integer_division_remainder_used)]

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use equivalence::registry::{self, Outcome, Pair};
use equivalence::{kat, schemes};

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
    /// Check registered pairs on generated inputs (the default command).
    Check(CheckArgs),
    /// Re-run one pair on one input given in hex (a reproducer printed by `check`).
    Replay {
        /// Pair name, as printed by `refopt list`.
        pair: String,
        /// The input bytes in hex.
        input: String,
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
    /// line derives pk from the seed, signs, compares, and verifies.
    Vectors {
        /// Scheme: ed25519.
        scheme: String,
        /// The vector file.
        file: PathBuf,
        /// Variant (default: reference).
        #[arg(long)]
        variant: Option<String>,
    },
    /// List pairs, their preconditions, and KAT schemes with their variants.
    List,
    /// Run the proof obligations' machine checks and print the ledger.
    Prove(equivalence::prove::cli::ProveArgs),
}

#[derive(clap::Args, Default)]
struct CheckArgs {
    /// Cases per pair (default: each pair's own default).
    #[arg(long)]
    cases: Option<usize>,
    /// Seed of the input stream.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Only pairs whose name starts with this (repeatable).
    #[arg(long = "pair")]
    pairs: Vec<String>,
    /// Directory where failing inputs are kept as regression cases.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/regressions"))]
    regressions: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli
        .command
        .unwrap_or(Command::Check(CheckArgs::default_for_lab()))
    {
        Command::Check(args) => check(&args),
        Command::Replay { pair, input } => replay(&pair, &input),
        Command::Kat { scheme, variant } => kat_file(&scheme, variant.as_deref()),
        Command::Vectors {
            scheme,
            file,
            variant,
        } => vectors(&scheme, &file, variant.as_deref()),
        Command::List => {
            list();
            ExitCode::SUCCESS
        }
        Command::Prove(args) => equivalence::prove::cli::main(&args),
    }
}

impl CheckArgs {
    fn default_for_lab() -> Self {
        Self {
            regressions: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/regressions")),
            ..Self::default()
        }
    }
}

fn selected(args: &CheckArgs) -> Vec<&'static dyn Pair> {
    registry::pairs()
        .into_iter()
        .filter(|p| {
            args.pairs.is_empty()
                || args
                    .pairs
                    .iter()
                    .any(|want| p.name() == want || p.name().starts_with(want.as_str()))
        })
        .collect()
}

fn check(args: &CheckArgs) -> ExitCode {
    if args.cases == Some(0) {
        eprintln!("refopt: --cases 0 would check nothing");
        return ExitCode::from(2);
    }
    let pairs = selected(args);
    if pairs.is_empty() {
        eprintln!(
            "refopt: no pair matches {:?} (see `refopt list`)",
            args.pairs
        );
        return ExitCode::from(2);
    }
    let tty = std::io::stderr().is_terminal();
    let w = pairs.iter().map(|p| p.name().len()).max().unwrap_or(4);
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for pair in &pairs {
        let cases = args.cases.unwrap_or_else(|| pair.default_cases());
        let started = Instant::now();
        let step = (cases / 10).max(1);
        if tty {
            eprint!("checking {:<w$}", pair.name());
        }
        let tally = registry::check(*pair, args.seed, cases, |done| {
            if tty && (done % step == 0 || done == cases) {
                eprint!("\rchecking {:<w$} {done}/{cases}", pair.name());
            }
        });
        let secs = started.elapsed().as_secs_f64();
        let lead = if tty { "\r" } else { "" };
        eprintln!(
            "{lead}checking {:<w$} {cases}/{cases} in {secs:.2} s",
            pair.name()
        );
        if let Some((index, input, m)) = &tally.first_mismatch {
            failures.push((*pair, *index, input.clone(), m.clone()));
        }
        rows.push((*pair, cases, tally, secs));
    }

    println!();
    println!(
        "| {:<w$} | {:<6} | {:>6} | {:>6} | {:>12} | {:>8} | {:>8} |",
        "pair", "level", "cases", "equal", "precond. n/m", "mismatch", "time (s)"
    );
    println!(
        "|{:-<w2$}|{:-<8}|{:->8}|{:->8}|{:->14}|{:->10}|{:->10}|",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        w2 = w + 2
    );
    for (pair, cases, t, secs) in &rows {
        println!(
            "| {:<w$} | {:<6} | {:>6} | {:>6} | {:>12} | {:>8} | {:>8.2} |",
            pair.name(),
            pair.level().to_string(),
            cases,
            t.equal,
            t.precondition_not_met,
            t.mismatches,
            secs
        );
    }
    for (pair, _, t, _) in &rows {
        if t.precondition_not_met > 0 {
            for p in pair.preconditions() {
                println!(
                    "{}: precondition not met: {} ({})",
                    pair.name(),
                    p.name,
                    p.description
                );
            }
        }
    }
    if failures.is_empty() {
        println!("\nall {} pairs agree", rows.len());
        return ExitCode::SUCCESS;
    }
    println!();
    for (pair, index, input, m) in &failures {
        println!("MISMATCH in {}: {m}", pair.name());
        println!(
            "  seed {}, case {index}, input {}",
            args.seed,
            hex::encode(input)
        );
        println!(
            "  reproduce: refopt replay {} {}",
            pair.name(),
            hex::encode(input)
        );
        match keep_regression(&args.regressions, pair.name(), input) {
            Ok(path) => println!("  kept as a regression case in {}", path.display()),
            Err(e) => println!("  could not keep the regression case: {e}"),
        }
    }
    ExitCode::FAILURE
}

fn keep_regression(dir: &std::path::Path, pair: &str, input: &[u8]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{}.txt", pair.replace('/', "__")));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    writeln!(f, "{}", hex::encode(input))?;
    Ok(path)
}

fn replay(name: &str, input: &str) -> ExitCode {
    let Some(pair) = registry::pairs().into_iter().find(|p| p.name() == name) else {
        eprintln!("refopt: unknown pair `{name}` (see `refopt list`)");
        return ExitCode::from(2);
    };
    let Ok(bytes) = hex::decode(input.trim()) else {
        eprintln!("refopt: the input must be hex");
        return ExitCode::from(2);
    };
    match registry::run_caught(pair, &bytes) {
        Outcome::Equal => {
            println!("{name}: equal");
            ExitCode::SUCCESS
        }
        Outcome::PreconditionNotMet { which, detail } => {
            println!("{name}: precondition not met: {which} ({detail})");
            ExitCode::SUCCESS
        }
        Outcome::Mismatch(m) => {
            println!("{name}: MISMATCH: {m}");
            ExitCode::FAILURE
        }
    }
}

fn kat_file(scheme: &str, variant: Option<&str>) -> ExitCode {
    let kem = match schemes::kat_kem(scheme, variant) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("refopt: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match kat::write_response_file(kem.as_ref(), &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            eprintln!("refopt: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("refopt: writing the KAT file: {e}");
            ExitCode::FAILURE
        }
    }
}

fn vectors(scheme: &str, file: &std::path::Path, variant: Option<&str>) -> ExitCode {
    use equivalence::ed25519::{Variant, check_sign_input_file};
    if scheme != "ed25519" {
        eprintln!("refopt: `vectors` knows the scheme ed25519 (got `{scheme}`)");
        return ExitCode::from(2);
    }
    let name = variant.unwrap_or("reference");
    let Some(v) = Variant::from_name(name) else {
        let known: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
        eprintln!(
            "refopt: unknown variant `{name}` for ed25519 (known: {})",
            known.join(", ")
        );
        return ExitCode::from(2);
    };
    match check_sign_input_file(file, v) {
        Ok(n) => {
            println!("{}: {n} lines ok ({name})", file.display());
            ExitCode::SUCCESS
        }
        Err(failure) => {
            println!("{}: {failure} ({name})", file.display());
            ExitCode::FAILURE
        }
    }
}

fn list() {
    println!("pairs:");
    for p in registry::pairs() {
        println!(
            "  {:<32} {:<6} default cases {}",
            p.name(),
            p.level().to_string(),
            p.default_cases()
        );
        for c in p.preconditions() {
            println!("    precondition {}: {}", c.name, c.description);
        }
    }
    println!("kat schemes:");
    for s in schemes::kat_schemes() {
        println!("  {:<32} variants: {}", s.name, s.variants.join(", "));
    }
}
