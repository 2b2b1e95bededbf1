//! `refopt prove`: the proof obligations of the five optimizations, each discharged by
//! a machine check on the code that ships, and the ledger they print
//! (docs/VERIFICATION.md is generated from it).
//!
//! An [`Obligation`] names a statement about the shipped kernels, the method that
//! checks it and the domain it covers. Its check runs the shipped code itself:
//! exhaustively over a small domain, or instantiated with a symbolic type (exact
//! linear and bilinear forms over Z_q or GF(2), intervals, SMT bit-vectors). The
//! status is earned by the run, never declared:
//!
//! * `proved`: the check covered every input of the stated domain;
//! * `checked`: it ran on sampled inputs only (none of the obligations below);
//! * `argued`: a machine check covers part of the argument and the rest is read from
//!   the code (none of the obligations below since 2026-12-05: N3-PCLMUL was, until
//!   its wrapper became generic over its SSE operations);
//! * `failed` / `not run`: the check found a counterexample, or could not run (no SMT
//!   solver; with `REFOPT_REQUIRE_SIMD` on, a CPU without PCLMULQDQ, whose native
//!   wrapper N3-PCLMUL also runs). Both make `refopt prove` exit non-zero.
//!
//! Every obligation has a mutant ([`Mutant`]): a planted bug (`reference::plant`)
//! that makes its check fail, or the check run in-process on a mutated copy of the
//! code. `refopt prove --self-test` runs them all ([`selftest`]).

pub mod cli;
pub mod ed25519;
pub mod form;
pub mod gf2;
pub mod mlkem;
pub mod ntruhps2048509;
pub mod selftest;
pub mod smt;
pub mod sntrup761;

use std::fmt::Write as _;
use std::time::Instant;

/// The optimization an obligation belongs to (the headings of the ledger).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimization {
    /// 1: sntrup761 batched randomness.
    Sntrup761Random,
    /// 2: sntrup761 deferred reduction in `Rq_mult_small` and `R3_mult`.
    Sntrup761Deferred,
    /// 3: ntruhps2048509 `poly_R2_inv` by an addition chain.
    NtruR2Inv,
    /// 4: Ed25519 field arithmetic (libgcrypt 9c12226c).
    Ed25519Field,
    /// 5: ML-KEM, k instead of k² inverse NTTs.
    MlKemEncryptU,
    /// An optimization a crate adds through [`crate::cli::Extension`]: its title.
    Extension(&'static str),
}

impl Optimization {
    /// Every optimization, in ledger order.
    pub const ALL: [Optimization; 5] = [
        Optimization::Sntrup761Random,
        Optimization::Sntrup761Deferred,
        Optimization::NtruR2Inv,
        Optimization::Ed25519Field,
        Optimization::MlKemEncryptU,
    ];

    /// The heading of its section in the ledger.
    pub fn title(self) -> &'static str {
        match self {
            Optimization::Sntrup761Random => {
                "1. sntrup761: one random draw of 3044 bytes per Short/Small polynomial"
            }
            Optimization::Sntrup761Deferred => {
                "2. sntrup761: deferred reduction in Rq_mult_small and R3_mult"
            }
            Optimization::NtruR2Inv => "3. ntruhps2048509: poly_R2_inv by an addition chain",
            Optimization::Ed25519Field => {
                "4. Ed25519: ec_addm/subm/mulm_25519 (libgcrypt 9c12226c)"
            }
            Optimization::MlKemEncryptU => {
                "5. ML-KEM: k instead of k² inverse NTTs in K-PKE.Encrypt"
            }
            Optimization::Extension(title) => title,
        }
    }

    /// The scheme page with the rest of its evidence (tests, vectors, peers).
    pub fn page(self) -> &'static str {
        match self {
            Optimization::Sntrup761Random | Optimization::Sntrup761Deferred => "sntrup761.md",
            Optimization::NtruR2Inv => "ntruhps2048509.md",
            Optimization::Ed25519Field => "ed25519.md",
            Optimization::MlKemEncryptU => "mlkem.md",
            Optimization::Extension(_) => "",
        }
    }
}

/// A planted bug (`reference::plant`, name in `REFOPT_PLANT`) and the piece of the
/// check it must reach.
///
/// A check often has several pieces (a linearity test and a round trip, lemmas and a
/// join); a plant that makes the check fail only shows the piece it reaches. The
/// self-test therefore requires the failure to contain `reports`, a phrase only that
/// piece prints: when a later change deletes or weakens the piece, the plant either
/// passes or fails elsewhere, and the self-test reports it missed. For a piece an
/// SMT query decides, the solver must also have found a counterexample
/// ([`Planted::sat`]): a time-out or `unknown` names the same query, and shows nothing.
#[derive(Clone, Copy, Debug)]
pub struct Planted {
    /// The plant's name in `reference::plant::ALL`.
    pub name: &'static str,
    /// Words the check's failure must contain (the piece the plant reaches).
    pub reports: &'static str,
    /// Whether the failure must also be the solver's `sat` (a counterexample).
    pub needs_sat: bool,
}

impl Planted {
    /// What an SMT piece's failure says when the solver found a counterexample.
    pub const SAT: &'static str = "the solver answered `sat`, expected `unsat`";

    /// A planted bug whose failure must contain `reports`.
    pub const fn new(name: &'static str, reports: &'static str) -> Self {
        Planted {
            name,
            reports,
            needs_sat: false,
        }
    }

    /// A planted bug whose failure must contain `reports` and [`Planted::SAT`].
    pub const fn sat(name: &'static str, reports: &'static str) -> Self {
        Planted {
            name,
            reports,
            needs_sat: true,
        }
    }

    /// Whether a check's failure `detail` is this plant's piece failing.
    pub fn reached(&self, detail: &str) -> bool {
        detail.contains(self.reports) && (!self.needs_sat || detail.contains(Self::SAT))
    }
}

/// How an obligation's check is shown able to fail.
#[derive(Clone, Copy, Debug)]
pub enum Mutant {
    /// A planted bug that makes the check report `failed` in the plant build, at the
    /// piece it names.
    Plant(Planted),
    /// Several planted bugs, run one at a time: each must make the check report
    /// `failed` at its piece (for a check with more than one piece, one plant per
    /// piece).
    Plants(&'static [Planted]),
    /// The same check run in-process on a mutated copy of the code (how a crate's own
    /// obligations show they can fail, without a plant build): `check` must fail.
    InProcess {
        /// What the mutant changes.
        what: &'static str,
        /// The check on the mutant.
        check: fn() -> CheckResult,
    },
}

impl Mutant {
    /// The planted bugs of a [`Mutant::Plant`] or [`Mutant::Plants`] (none for the
    /// other kinds).
    pub fn plants(&self) -> &[Planted] {
        match self {
            Mutant::Plant(p) => core::slice::from_ref(p),
            Mutant::Plants(ps) => ps,
            Mutant::InProcess { .. } => &[],
        }
    }

    /// The names of [`Mutant::plants`], in order.
    pub fn plant_names(&self) -> Vec<&'static str> {
        self.plants().iter().map(|p| p.name).collect()
    }
}

/// What a successful check established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every input of the stated domain.
    Proved,
    /// Only this many sampled inputs.
    Checked(u64),
    /// A machine check covers part of the argument (for example the extreme
    /// operands), and the rest is argued in the detail: not proved.
    Argued,
}

/// The result of a check that did not fail.
#[derive(Clone, Debug)]
pub struct Evidence {
    /// What the check covered.
    pub coverage: Coverage,
    /// What ran, in a few words with numbers (values enumerated, forms compared,
    /// solver queries). Deterministic (no times): it goes into the generated ledger.
    pub detail: String,
    /// SMT queries with their answers and times, when the check asked a solver.
    pub queries: Vec<smt::QueryRecord>,
}

impl Evidence {
    /// A check that covered its whole domain.
    pub fn proved(detail: impl Into<String>) -> Self {
        Evidence {
            coverage: Coverage::Proved,
            detail: detail.into(),
            queries: Vec::new(),
        }
    }

    /// A check that covered part of the argument; `detail` says which part and what
    /// is argued.
    pub fn argued(detail: impl Into<String>) -> Self {
        Evidence {
            coverage: Coverage::Argued,
            detail: detail.into(),
            queries: Vec::new(),
        }
    }
}

/// Why a check did not succeed.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Failure {
    /// The check ran and found the statement false (or its machinery inconsistent).
    Failed(String),
    /// The check could not run here (no solver, a CPU feature missing).
    NotRun(String),
}

impl Failure {
    /// A failed check with a message.
    pub fn failed(msg: impl Into<String>) -> Self {
        Failure::Failed(msg.into())
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Failed(msg) => write!(f, "failed: {msg}"),
            Failure::NotRun(why) => write!(f, "not run: {why}"),
        }
    }
}

impl std::error::Error for Failure {}

/// The result of a check.
pub type CheckResult = Result<Evidence, Failure>;

/// One proof obligation.
#[derive(Clone, Copy, Debug)]
pub struct Obligation {
    /// Ledger ID, for example `MLKEM-4`.
    pub id: &'static str,
    /// The optimization it belongs to.
    pub optimization: Optimization,
    /// What is claimed, naming the shipped functions.
    pub statement: &'static str,
    /// How the check establishes it.
    pub method: &'static str,
    /// The inputs the claim (and, when proved, the check) covers.
    pub domain: &'static str,
    /// The bug that must make the check fail.
    pub mutant: Mutant,
    /// Cheap enough for `cargo test` (well under a second in the test profile).
    pub cheap: bool,
    /// Whether the check needs an SMT solver.
    pub needs_smt: bool,
    /// The check.
    pub check: fn() -> CheckResult,
}

impl Obligation {
    /// An exhaustive obligation of a crate's own optimization ([`crate::cli::Extension`]):
    /// `check` enumerates the whole domain (see [`exhaustive`]), `mutant` runs the same
    /// check on a planted wrong optimization and must fail.
    pub const fn exhaustive(
        id: &'static str,
        title: &'static str,
        statement: &'static str,
        domain: &'static str,
        check: fn() -> CheckResult,
        mutant: (&'static str, fn() -> CheckResult),
    ) -> Self {
        Obligation {
            id,
            optimization: Optimization::Extension(title),
            statement,
            method: "exhaustive",
            domain,
            mutant: Mutant::InProcess {
                what: mutant.0,
                check: mutant.1,
            },
            cheap: true,
            needs_smt: false,
            check,
        }
    }
}

/// The obligations whose status is `argued`, not `proved`: part of their argument is
/// read from the code (see each one's detail). A new one is added here on purpose;
/// the tests and the self-test's control run hold every other obligation to `proved`.
pub const ARGUED: &[&str] = &[];

/// Every obligation, in ledger order.
pub fn obligations() -> Vec<&'static Obligation> {
    let mut all: Vec<&'static Obligation> = Vec::new();
    all.extend(sntrup761::OBLIGATIONS);
    all.extend(ntruhps2048509::OBLIGATIONS);
    all.extend(ed25519::OBLIGATIONS);
    all.extend(mlkem::OBLIGATIONS);
    all.sort_by_key(|o| {
        Optimization::ALL
            .iter()
            .position(|x| *x == o.optimization)
            .unwrap_or(usize::MAX)
    });
    all
}

/// The optimizations of `rows`, in ledger order: the five, then extensions in order of
/// appearance.
fn sections(rows: &[Row]) -> Vec<Optimization> {
    let mut out: Vec<Optimization> = Optimization::ALL.to_vec();
    for r in rows {
        if !out.contains(&r.obligation.optimization) {
            out.push(r.obligation.optimization);
        }
    }
    out
}

/// An exhaustive check of a [`FnPair`](crate::pair::FnPair): both sides agree (and the
/// optimized side's contract holds) on every input of `domain`, which must enumerate
/// the whole stated domain. `proved` when every input agreed.
///
/// # Errors
/// The first input where the sides differ or the contract fails; `not run` when
/// `domain` is empty (nothing was checked, so nothing is proved).
pub fn exhaustive<I: core::fmt::Debug, O: AsRef<[u8]>>(
    pair: &crate::pair::FnPair<I, O>,
    domain: impl IntoIterator<Item = I>,
) -> CheckResult {
    let mut n = 0u64;
    for x in domain {
        let r = (pair.reference)(&x);
        let o = (pair.optimized)(&x);
        if let Err(what) = (pair.contract)(&x, &o) {
            return Err(Failure::failed(format!("input {x:?}: contract: {what}")));
        }
        if r.as_ref() != o.as_ref() {
            return Err(Failure::failed(format!(
                "input {x:?}: reference {}, optimized {}",
                hex::encode(r.as_ref()),
                hex::encode(o.as_ref())
            )));
        }
        n += 1;
    }
    if n == 0 {
        return Err(Failure::NotRun(
            "the domain is empty: no input was checked".into(),
        ));
    }
    Ok(Evidence::proved(format!("all {n} inputs agree")))
}

/// Finds an obligation by its ID (exact, case-insensitive).
pub fn find(id: &str) -> Option<&'static Obligation> {
    obligations()
        .into_iter()
        .find(|o| o.id.eq_ignore_ascii_case(id))
}

/// One line of the ledger: an obligation and what its check gave.
#[derive(Debug)]
pub struct Row {
    /// The obligation.
    pub obligation: &'static Obligation,
    /// The check's result.
    pub result: CheckResult,
    /// Wall-clock seconds the check took.
    pub seconds: f64,
}

impl Row {
    /// `proved`, `checked`, `argued`, `failed` or `not run`.
    pub fn status(&self) -> &'static str {
        match &self.result {
            Ok(e) => match e.coverage {
                Coverage::Proved => "proved",
                Coverage::Checked(_) => "checked",
                Coverage::Argued => "argued",
            },
            Err(Failure::Failed(_)) => "failed",
            Err(Failure::NotRun(_)) => "not run",
        }
    }

    /// Whether the row counts as a success (`proved`, `checked` or `argued`).
    pub fn ok(&self) -> bool {
        self.result.is_ok()
    }

    /// The detail or failure message.
    pub fn detail(&self) -> &str {
        match &self.result {
            Ok(e) => &e.detail,
            Err(Failure::Failed(m) | Failure::NotRun(m)) => m,
        }
    }
}

/// Runs a check (an obligation's, or one on an in-process mutant); a panic inside it
/// is a failure, not the end of the program.
///
/// # Errors
/// The check's own failure, or [`Failure::Failed`] naming the panic.
pub fn run_check(check: fn() -> CheckResult) -> CheckResult {
    match std::panic::catch_unwind(check) {
        Ok(r) => r,
        Err(p) => Err(Failure::Failed(format!(
            "the check panicked: {}",
            crate::registry::panic_message(p.as_ref())
        ))),
    }
}

/// Runs one obligation's check, timing it; a panic inside the check is a failure.
pub fn run_one(o: &'static Obligation) -> Row {
    let start = Instant::now();
    let result = run_check(o.check);
    Row {
        obligation: o,
        result,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Runs the given obligations in order, calling `progress` after each.
pub fn run(list: &[&'static Obligation], mut progress: impl FnMut(&Row)) -> Vec<Row> {
    list.iter()
        .map(|o| {
            let row = run_one(o);
            progress(&row);
            row
        })
        .collect()
}

/// The plain-text ledger (what `refopt prove` prints).
pub fn text(rows: &[Row]) -> String {
    let mut s = String::new();
    let w = rows
        .iter()
        .map(|r| r.obligation.id.len())
        .max()
        .unwrap_or(2);
    for opt in sections(rows) {
        let these: Vec<&Row> = rows
            .iter()
            .filter(|r| r.obligation.optimization == opt)
            .collect();
        if these.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n{}", opt.title());
        for r in these {
            let _ = writeln!(
                s,
                "  {:<w$}  {:<7}  {:>7.2} s  {}",
                r.obligation.id,
                r.status(),
                r.seconds,
                r.obligation.statement
            );
            let _ = writeln!(s, "  {:<w$}  domain: {}", "", r.obligation.domain);
            let _ = writeln!(s, "  {:<w$}  {}", "", r.detail());
            if let Ok(e) = &r.result {
                for q in &e.queries {
                    let _ = writeln!(
                        s,
                        "  {:<w$}    {}: {} in {:.2} s ({})",
                        "", q.name, q.answer, q.seconds, q.solver
                    );
                }
            }
        }
    }
    let proved = rows.iter().filter(|r| r.status() == "proved").count();
    let bad = rows.iter().filter(|r| !r.ok()).count();
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    let _ = writeln!(
        s,
        "\n{} obligations: {proved} proved, {} checked, {} argued, {bad} failed or not run; {total:.1} s",
        rows.len(),
        rows.iter().filter(|r| r.status() == "checked").count(),
        rows.iter().filter(|r| r.status() == "argued").count()
    );
    s
}

/// The ledger as JSON (`refopt prove --json`).
pub fn json(rows: &[Row]) -> serde_json::Value {
    let items: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let o = r.obligation;
            let queries: Vec<serde_json::Value> = match &r.result {
                Ok(e) => e
                    .queries
                    .iter()
                    .map(|q| {
                        serde_json::json!({
                            "name": q.name, "answer": q.answer, "seconds": q.seconds,
                            "solver": q.solver,
                        })
                    })
                    .collect(),
                Err(_) => Vec::new(),
            };
            let inputs = match &r.result {
                Ok(Evidence {
                    coverage: Coverage::Checked(n),
                    ..
                }) => Some(*n),
                _ => None,
            };
            serde_json::json!({
                "id": o.id,
                "optimization": o.optimization.title(),
                "statement": o.statement,
                "method": o.method,
                "domain": o.domain,
                "status": r.status(),
                "sampled_inputs": inputs,
                "detail": r.detail(),
                "seconds": r.seconds,
                "queries": queries,
                "mutant": match o.mutant {
                    Mutant::Plant(_) | Mutant::Plants(_) => format!("plant {}", o.mutant.plant_names().join(", ")),
                    Mutant::InProcess { what, .. } => format!("in-process mutant: {what}"),
                },
            })
        })
        .collect();
    serde_json::json!({
        "plant_build": reference::plant::compiled_in(),
        "solver": smt::Solver::find().map(|s| s.describe()).ok(),
        "all_ok": rows.iter().all(Row::ok),
        "obligations": items,
    })
}

/// Escapes `|` for a markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The ledger as the markdown section of docs/VERIFICATION.md (`refopt prove
/// --markdown`). Deterministic: no times (they are in the plain and JSON output).
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::new();
    for opt in sections(rows) {
        let these: Vec<&Row> = rows
            .iter()
            .filter(|r| r.obligation.optimization == opt)
            .collect();
        if these.is_empty() {
            continue;
        }
        let _ = writeln!(s, "### {}\n", opt.title());
        if !opt.page().is_empty() {
            let _ = writeln!(
                s,
                "Tests, vectors and peers: [{}]({}).\n",
                opt.page(),
                opt.page()
            );
        }
        let _ = writeln!(
            s,
            "| ID | statement | method | domain | status: what the check covered | mutant |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|");
        for r in these {
            let o = r.obligation;
            let status = match &r.result {
                Ok(Evidence {
                    coverage: Coverage::Proved,
                    detail,
                    ..
                }) => format!("**proved**: {detail}"),
                Ok(Evidence {
                    coverage: Coverage::Checked(n),
                    detail,
                    ..
                }) => format!("checked on {n} inputs: {detail}"),
                Ok(Evidence {
                    coverage: Coverage::Argued,
                    detail,
                    ..
                }) => format!("argued: {detail}"),
                Err(Failure::Failed(m)) => format!("**FAILED**: {m}"),
                Err(Failure::NotRun(m)) => format!("**not run**: {m}"),
            };
            let mutant = match o.mutant {
                Mutant::Plant(p) => format!("plant `{}`", p.name),
                Mutant::Plants(_) => format!("plants `{}`", o.mutant.plant_names().join("`, `")),
                Mutant::InProcess { what, .. } => format!("in-process mutant: {what}"),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                o.id,
                cell(o.statement),
                cell(o.method),
                cell(o.domain),
                cell(&status),
                cell(&mutant)
            );
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{Failure, exhaustive};
    use crate::pair::{FnPair, Sides};

    const SAME: FnPair<u8, [u8; 1]> = FnPair::new(
        "test/same",
        Sides::new("x", "x again"),
        |g| g.u8(),
        |&x| [x],
        |&x| [x],
    );

    /// An exhaustive check over an empty domain proves nothing: `not run`, not
    /// "all 0 inputs agree".
    #[test]
    fn an_empty_domain_is_not_proved() {
        assert!(exhaustive(&SAME, 0..=255u8).is_ok());
        assert!(matches!(
            exhaustive(&SAME, core::iter::empty()),
            Err(Failure::NotRun(_))
        ));
    }
}
