//! SMT-LIB2 terms, built by running shipped generic code over a symbolic type, and an
//! SMT solver run as a subprocess.
//!
//! Terms live in a thread-local, hash-consed arena ([`Term`] is an index): building
//! the same operation on the same arguments twice gives the same term, so "the
//! shipped function's result is exactly this composition of primitives" is a check
//! of term identity ([`Term`] equality). A query ([`Query`]) is printed as SMT-LIB2
//! text: every reachable term becomes one `define-fun` (shared subterms are printed
//! once), and a term can be *cut*: declared as a fresh constant instead of defined,
//! which generalizes the claim over every value of that subterm (sound: a claim that
//! holds for every value holds for the one the code computes).
//!
//! The solver is `$REFOPT_SMT_SOLVER` if set (a path or command name; `z3` and `cvc5`
//! are known), else `z3` on `PATH`. No library is linked: a plain clone builds and its
//! tests pass without a solver (the SMT rows then report "not run").

#![allow(
    clippy::missing_panics_doc,
    reason = "the symbolic builders panic on a misuse (an ill-sorted term, a width mismatch): a bug in a proof, which `run_one` reports as a failed check"
)]

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::tool;

/// The sort of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// Boolean.
    Bool,
    /// A bit-vector of this many bits.
    Bv(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Var(String),
    /// A bit-vector constant, little-endian 64-bit words.
    Const(Vec<u64>),
    /// `(op args..)` or `((_ op idx..) args..)`.
    App(&'static str, Vec<u32>, Vec<Term>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Node {
    sort: Sort,
    kind: Kind,
}

#[derive(Default)]
struct Arena {
    nodes: Vec<Node>,
    index: HashMap<Node, u32>,
}

thread_local! {
    static ARENA: RefCell<Arena> = RefCell::new(Arena::default());
}

/// A term: an index into the thread's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term(u32);

/// Empties the thread's arena (terms from before are invalid afterwards).
pub fn reset() {
    ARENA.with(|a| *a.borrow_mut() = Arena::default());
}

/// Number of distinct terms built since the last [`reset`].
pub fn size() -> usize {
    ARENA.with(|a| a.borrow().nodes.len())
}

fn intern(node: Node) -> Term {
    ARENA.with(|a| {
        let mut a = a.borrow_mut();
        if let Some(&i) = a.index.get(&node) {
            return Term(i);
        }
        let i = u32::try_from(a.nodes.len()).expect("fewer than 2^32 terms");
        a.nodes.push(node.clone());
        a.index.insert(node, i);
        Term(i)
    })
}

fn node(t: Term) -> Node {
    ARENA.with(|a| a.borrow().nodes[t.0 as usize].clone())
}

impl Term {
    /// The term's sort.
    pub fn sort(self) -> Sort {
        ARENA.with(|a| a.borrow().nodes[self.0 as usize].sort)
    }

    /// The width of a bit-vector term.
    ///
    /// # Panics
    /// If the term is Boolean.
    pub fn width(self) -> u32 {
        match self.sort() {
            Sort::Bv(w) => w,
            Sort::Bool => panic!("a Boolean term has no width"),
        }
    }

    /// The constant's value, when the term is a bit-vector constant of at most 128 bits.
    pub fn as_const(self) -> Option<u128> {
        match node(self).kind {
            Kind::Const(words) if words.len() <= 2 => {
                Some(u128::from(words[0]) | (u128::from(*words.get(1).unwrap_or(&0)) << 64))
            }
            _ => None,
        }
    }

    /// The SMT-LIB2 name of the term (`nID`).
    pub fn name(self) -> String {
        format!("n{}", self.0)
    }
}

/// A fresh bit-vector variable (the same name gives the same term).
pub fn var(name: &str, width: u32) -> Term {
    intern(Node {
        sort: Sort::Bv(width),
        kind: Kind::Var(name.to_owned()),
    })
}

/// A bit-vector constant of `width` bits from little-endian words (truncated).
pub fn constant_words(width: u32, words: &[u64]) -> Term {
    let n = width.div_ceil(64) as usize;
    let mut w: Vec<u64> = (0..n).map(|i| *words.get(i).unwrap_or(&0)).collect();
    let top = width % 64;
    if top != 0 {
        w[n - 1] &= (1u64 << top) - 1;
    }
    intern(Node {
        sort: Sort::Bv(width),
        kind: Kind::Const(w),
    })
}

/// A bit-vector constant of `width` <= 128 bits.
pub fn constant(width: u32, x: u128) -> Term {
    constant_words(width, &[x as u64, (x >> 64) as u64])
}

fn app(sort: Sort, op: &'static str, idx: Vec<u32>, args: Vec<Term>) -> Term {
    intern(Node {
        sort,
        kind: Kind::App(op, idx, args),
    })
}

fn same_width(a: Term, b: Term, op: &str) -> u32 {
    let (wa, wb) = (a.width(), b.width());
    assert_eq!(wa, wb, "{op}: widths {wa} and {wb}");
    wa
}

macro_rules! bv_binop {
    ($($name:ident => $op:literal),* $(,)?) => {$(
        #[doc = concat!("`(", $op, " a b)`.")]
        pub fn $name(a: Term, b: Term) -> Term {
            let w = same_width(a, b, $op);
            app(Sort::Bv(w), $op, vec![], vec![a, b])
        }
    )*};
}
bv_binop! {
    bvadd => "bvadd", bvsub => "bvsub", bvmul => "bvmul", bvand => "bvand",
    bvor => "bvor", bvxor => "bvxor", bvshl => "bvshl", bvlshr => "bvlshr",
}

/// `(bvnot a)`.
pub fn bvnot(a: Term) -> Term {
    app(a.sort(), "bvnot", vec![], vec![a])
}

/// `(bvneg a)`.
pub fn bvneg(a: Term) -> Term {
    app(a.sort(), "bvneg", vec![], vec![a])
}

/// `((_ zero_extend k) a)`.
pub fn zext(a: Term, k: u32) -> Term {
    if k == 0 {
        return a;
    }
    app(Sort::Bv(a.width() + k), "zero_extend", vec![k], vec![a])
}

/// Zero-extends `a` to `width` bits.
pub fn zext_to(a: Term, width: u32) -> Term {
    zext(a, width - a.width())
}

/// `((_ extract hi lo) a)`.
pub fn extract(a: Term, hi: u32, lo: u32) -> Term {
    assert!(
        hi >= lo && hi < a.width(),
        "extract {hi} {lo} of {}",
        a.width()
    );
    if lo == 0 && hi + 1 == a.width() {
        return a;
    }
    app(Sort::Bv(hi - lo + 1), "extract", vec![hi, lo], vec![a])
}

/// `(concat hi lo)`.
pub fn concat(hi: Term, lo: Term) -> Term {
    app(
        Sort::Bv(hi.width() + lo.width()),
        "concat",
        vec![],
        vec![hi, lo],
    )
}

/// Little-endian limbs as one bit-vector (limb 0 lowest).
pub fn concat_le(limbs: &[Term]) -> Term {
    let mut acc = limbs[0];
    for &l in &limbs[1..] {
        acc = concat(l, acc);
    }
    acc
}

/// `(ite c a b)`.
pub fn ite(c: Term, a: Term, b: Term) -> Term {
    assert_eq!(c.sort(), Sort::Bool, "ite condition");
    assert_eq!(a.sort(), b.sort(), "ite branches");
    app(a.sort(), "ite", vec![], vec![c, a, b])
}

/// `(= a b)`.
pub fn eq(a: Term, b: Term) -> Term {
    assert_eq!(a.sort(), b.sort(), "= of different sorts");
    app(Sort::Bool, "=", vec![], vec![a, b])
}

/// `(bvule a b)`.
pub fn bvule(a: Term, b: Term) -> Term {
    same_width(a, b, "bvule");
    app(Sort::Bool, "bvule", vec![], vec![a, b])
}

/// `(bvult a b)`.
pub fn bvult(a: Term, b: Term) -> Term {
    same_width(a, b, "bvult");
    app(Sort::Bool, "bvult", vec![], vec![a, b])
}

/// `(and ..)` (true for no arguments).
pub fn and(xs: &[Term]) -> Term {
    match xs {
        [] => app(Sort::Bool, "true", vec![], vec![]),
        [x] => *x,
        _ => app(Sort::Bool, "and", vec![], xs.to_vec()),
    }
}

/// `(not a)`.
pub fn not(a: Term) -> Term {
    app(Sort::Bool, "not", vec![], vec![a])
}

/// Limb-wise equality of two equally long vectors.
pub fn all_eq(a: &[Term], b: &[Term]) -> Term {
    assert_eq!(a.len(), b.len());
    let eqs: Vec<Term> = a.iter().zip(b).map(|(x, y)| eq(*x, *y)).collect();
    and(&eqs)
}

fn sort_text(s: Sort) -> String {
    match s {
        Sort::Bool => "Bool".to_owned(),
        Sort::Bv(w) => format!("(_ BitVec {w})"),
    }
}

fn const_text(width: u32, words: &[u64]) -> String {
    let mut s = String::from("#b");
    for i in (0..width).rev() {
        let bit = (words[(i / 64) as usize] >> (i % 64)) & 1;
        s.push(if bit == 1 { '1' } else { '0' });
    }
    s
}

/// Prints the definitions of every term reachable from `roots` (not descending into
/// `cuts`, which are declared as fresh constants), in creation order.
fn definitions(roots: &[Term], cuts: &HashSet<Term>) -> String {
    let mut seen = HashSet::new();
    let mut stack: Vec<Term> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if cuts.contains(&t) {
            continue;
        }
        if let Kind::App(_, _, args) = node(t).kind {
            stack.extend(args);
        }
    }
    let mut order: Vec<Term> = seen.into_iter().collect();
    order.sort();
    let mut s = String::new();
    for t in order {
        let n = node(t);
        let name = t.name();
        let sort = sort_text(n.sort);
        if cuts.contains(&t) {
            let _ = writeln!(s, "(declare-const {name} {sort})");
            continue;
        }
        match n.kind {
            Kind::Var(v) => {
                let _ = writeln!(s, "(declare-const {name} {sort}) ; {v}");
            }
            Kind::Const(words) => {
                let w = match n.sort {
                    Sort::Bv(w) => w,
                    Sort::Bool => 0,
                };
                let _ = writeln!(s, "(define-fun {name} () {sort} {})", const_text(w, &words));
            }
            Kind::App(op, idx, args) => {
                let head = if idx.is_empty() {
                    op.to_owned()
                } else {
                    let idx: Vec<String> = idx.iter().map(u32::to_string).collect();
                    format!("(_ {op} {})", idx.join(" "))
                };
                let body = if args.is_empty() {
                    head
                } else {
                    let args: Vec<String> = args.iter().map(|a| a.name()).collect();
                    format!("({head} {})", args.join(" "))
                };
                let _ = writeln!(s, "(define-fun {name} () {sort} {body})");
            }
        }
    }
    s
}

/// Whether every term of `targets` occurs inside some term of `roots`.
pub fn reaches_all(roots: &[Term], targets: &[Term]) -> bool {
    let mut seen = HashSet::new();
    let mut stack: Vec<Term> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if let Kind::App(_, _, args) = node(t).kind {
            stack.extend(args);
        }
    }
    targets.iter().all(|t| seen.contains(t))
}

/// A bit-vector query: does `claim` hold whenever every hypothesis does?
#[derive(Clone, Debug)]
pub struct Query {
    /// What it proves, for the report.
    pub name: String,
    hyps: Vec<Term>,
    claim: Term,
    cuts: HashSet<Term>,
    /// Expect a counterexample (`sat`) instead of a proof, for tightness checks.
    pub expect_sat: bool,
}

impl Query {
    /// `claim` for every assignment.
    pub fn new(name: impl Into<String>, claim: Term) -> Self {
        assert_eq!(claim.sort(), Sort::Bool, "a claim is Boolean");
        Query {
            name: name.into(),
            hyps: Vec::new(),
            claim,
            cuts: HashSet::new(),
            expect_sat: false,
        }
    }

    /// Adds a hypothesis.
    pub fn hyp(mut self, h: Term) -> Self {
        assert_eq!(h.sort(), Sort::Bool, "a hypothesis is Boolean");
        self.hyps.push(h);
        self
    }

    /// Generalizes over these subterms: each becomes a free constant.
    pub fn cut(mut self, ts: &[Term]) -> Self {
        self.cuts.extend(ts.iter().copied());
        self
    }

    /// The query as SMT-LIB2 text: `unsat` means the claim is proved.
    pub fn smt2(&self) -> String {
        let mut roots = self.hyps.clone();
        roots.push(self.claim);
        let mut s = format!("; {}\n(set-logic QF_BV)\n", self.name);
        s.push_str(&definitions(&roots, &self.cuts));
        for h in &self.hyps {
            let _ = writeln!(s, "(assert {})", h.name());
        }
        let _ = writeln!(
            s,
            "(assert (not {}))\n(check-sat)\n(exit)",
            self.claim.name()
        );
        s
    }
}

/// One solver call, for the report.
#[derive(Clone, Debug)]
pub struct QueryRecord {
    /// What the query proves.
    pub name: String,
    /// The solver's answer (`unsat` = proved).
    pub answer: String,
    /// Seconds the solver took.
    pub seconds: f64,
    /// Which solver.
    pub solver: String,
}

/// The SMT solver binary.
#[derive(Clone, Debug)]
pub struct Solver {
    program: PathBuf,
    flavour: Flavour,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavour {
    Z3,
    Cvc5,
}

/// What to tell someone without a solver.
pub const INSTALL_HINT: &str = "install z3 (`apt-get install z3`, `brew install z3`) or set \
REFOPT_SMT_SOLVER to a z3 or cvc5 binary";

/// No SMT solver runs here ([`Solver::find`]). `Display` says what was tried and how to
/// install one ([`INSTALL_HINT`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoSolver {
    /// `REFOPT_SMT_SOLVER`, when it was set (else `z3` on `PATH` was tried).
    pub configured: Option<String>,
}

impl core::fmt::Display for NoSolver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.configured {
            Some(w) => write!(f, "REFOPT_SMT_SOLVER={w} does not run ({INSTALL_HINT})"),
            None => write!(f, "no SMT solver: `z3` is not on PATH ({INSTALL_HINT})"),
        }
    }
}

impl std::error::Error for NoSolver {}

/// Per-query time limit, seconds.
pub const TIMEOUT_S: u64 = 300;

impl Solver {
    /// `$REFOPT_SMT_SOLVER`, else `z3` on `PATH`.
    ///
    /// # Errors
    /// [`NoSolver`] when no solver answers `--version`.
    pub fn find() -> Result<Solver, NoSolver> {
        let wanted = std::env::var("REFOPT_SMT_SOLVER").ok();
        let program = PathBuf::from(wanted.clone().unwrap_or_else(|| "z3".to_owned()));
        let stem = program
            .file_name()
            .map(|s| s.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let flavour = if stem.contains("cvc5") {
            Flavour::Cvc5
        } else {
            Flavour::Z3
        };
        let ok = Command::new(&program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            Ok(Solver { program, flavour })
        } else {
            Err(NoSolver { configured: wanted })
        }
    }

    /// The solver and its version line.
    pub fn describe(&self) -> String {
        let out = Command::new(&self.program).arg("--version").output();
        let version = out
            .ok()
            .map(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_owned()
            })
            .unwrap_or_default();
        format!("{} ({})", self.program.display(), version.trim())
    }

    /// Runs SMT-LIB2 `text` and returns the first line of the answer and the time.
    ///
    /// # Errors
    /// [`tool::Error`] when the solver cannot be started, the query cannot be handed
    /// to it whole, or it prints none of `sat`, `unsat`, `unknown`, `timeout`.
    pub fn run(&self, text: &str) -> Result<(String, f64), tool::Error> {
        const ANSWERS: [&str; 4] = ["sat", "unsat", "unknown", "timeout"];
        let what = || format!("the SMT solver {}", self.program.display());
        let mut cmd = Command::new(&self.program);
        match self.flavour {
            Flavour::Z3 => cmd.args(["-smt2", "-in", &format!("-T:{TIMEOUT_S}")]),
            Flavour::Cvc5 => cmd.args(["--lang=smt2", &format!("--tlimit={}", TIMEOUT_S * 1000)]),
        };
        let start = Instant::now();
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| tool::Error::Spawn {
                what: what(),
                source,
            })?;
        let Some(mut stdin) = child.stdin.take() else {
            return Err(tool::Error::Io {
                what: what(),
                source: io::Error::other("no standard input"),
            });
        };
        // The query is written beside the reading of the answer: a solver that
        // answered before reading all of a long query would otherwise block both sides.
        // Dropping `stdin` at the end of the write ends the solver's input.
        let (written, out) = std::thread::scope(|t| {
            let writer = t.spawn(move || stdin.write_all(text.as_bytes()));
            let out = child.wait_with_output();
            let written = writer
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the writing thread panicked")));
            (written, out)
        });
        let out = out.map_err(|source| tool::Error::Io {
            what: what(),
            source,
        })?;
        let secs = start.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let answer = stdout.lines().map(str::trim).find(|l| !l.is_empty());
        match (answer, written) {
            (Some(a), Ok(())) if ANSWERS.contains(&a) => Ok((a.to_owned(), secs)),
            // An answer to part of the query is no answer to it.
            (Some(a), Err(source)) if ANSWERS.contains(&a) => Err(tool::Error::Io {
                what: what(),
                source,
            }),
            (other, _) => Err(tool::Error::Unanswered {
                what: what(),
                status: out.status,
                output: other.unwrap_or("").to_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
            }),
        }
    }

    /// The solver's short name.
    pub fn short(&self) -> &'static str {
        match self.flavour {
            Flavour::Z3 => "z3",
            Flavour::Cvc5 => "cvc5",
        }
    }
}

/// Runs queries one after the other, recording each; stops at the first that does
/// not give the expected answer.
#[derive(Debug)]
pub struct Session {
    solver: Solver,
    /// The queries run so far.
    pub records: Vec<QueryRecord>,
}

impl Session {
    /// Finds the solver.
    ///
    /// # Errors
    /// `NotRun` when there is no solver.
    pub fn new() -> Result<Session, super::Failure> {
        let solver = Solver::find().map_err(|e| super::Failure::NotRun(e.to_string()))?;
        Ok(Session {
            solver,
            records: Vec::new(),
        })
    }

    /// Asks the solver for a counterexample to `q`; `unsat` proves it (or, with
    /// `expect_sat`, `sat` confirms the expected counterexample).
    ///
    /// # Errors
    /// `Failed` on any other answer.
    pub fn prove(&mut self, q: &Query) -> Result<(), super::Failure> {
        self.run_text(&q.name, &q.smt2(), q.expect_sat)
    }

    /// Runs raw SMT-LIB2 text (for example an integer-arithmetic query) whose last
    /// assertion negates the claim.
    ///
    /// # Errors
    /// `Failed` when the answer is not `unsat` (or `sat` with `expect_sat`).
    pub fn run_text(
        &mut self,
        name: &str,
        text: &str,
        expect_sat: bool,
    ) -> Result<(), super::Failure> {
        let (answer, seconds) = self
            .solver
            .run(text)
            .map_err(|e| super::Failure::Failed(e.to_string()))?;
        self.records.push(QueryRecord {
            name: name.to_owned(),
            answer: answer.clone(),
            seconds,
            solver: self.solver.short().to_owned(),
        });
        let want = if expect_sat { "sat" } else { "unsat" };
        if answer == want {
            Ok(())
        } else {
            Err(super::Failure::Failed(format!(
                "{name}: the solver answered `{answer}`, expected `{want}`"
            )))
        }
    }

    /// The evidence for a fully proved obligation.
    pub fn evidence(self, detail: impl Into<String>) -> super::Evidence {
        super::Evidence {
            coverage: super::Coverage::Proved,
            detail: detail.into(),
            queries: self.records,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver that is the shell script `body`.
    fn fake(name: &str, body: &str) -> Solver {
        Solver {
            program: tool::script(name, body),
            flavour: Flavour::Z3,
        }
    }

    #[test]
    fn the_first_answer_line_is_returned() {
        let s = fake(
            "answers",
            "cat >/dev/null\necho\necho unsat\necho '(model)'",
        );
        let (answer, _) = s.run("(check-sat)").expect("an answer");
        assert_eq!(answer, "unsat");
    }

    #[test]
    fn a_solver_that_does_not_answer_is_a_typed_error_with_its_output() {
        let s = fake(
            "errors",
            "cat >/dev/null\necho '(error \"line 1\")'\necho 'bad option' >&2\nexit 1",
        );
        match s.run("(check-sat)") {
            Err(tool::Error::Unanswered {
                status,
                output,
                stderr,
                ..
            }) => {
                assert_eq!(status.code(), Some(1));
                assert_eq!(output, "(error \"line 1\")");
                assert_eq!(stderr, "bad option");
            }
            other => panic!("expected Unanswered: {other:?}"),
        }
    }

    #[test]
    fn a_missing_solver_is_a_spawn_error() {
        let s = Solver {
            program: PathBuf::from("/nonexistent/refopt-no-solver"),
            flavour: Flavour::Cvc5,
        };
        assert!(matches!(s.run(""), Err(tool::Error::Spawn { .. })));
    }

    #[test]
    fn a_solver_that_answers_before_reading_a_long_query_does_not_block() {
        // The answer, then 256 KiB of output, and only then the query is read: with
        // the whole 256 KiB query written first, both pipes would be full.
        let s = fake(
            "early",
            "echo sat\nhead -c 262144 /dev/zero | tr '\\0' x\ncat >/dev/null",
        );
        let query = format!("(check-sat){}", " ".repeat(1 << 18));
        let answer = tool::within(std::time::Duration::from_secs(60), move || {
            s.run(&query).map(|(a, _)| a).map_err(|e| e.to_string())
        })
        .expect("the solver run finished within 60 s")
        .expect("an answer");
        assert_eq!(answer, "sat");
    }
}
