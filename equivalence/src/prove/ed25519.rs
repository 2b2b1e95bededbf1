//! Ed25519 (optimization 4): libgcrypt's old and new `ec_addm_25519`,
//! `ec_subm_25519` and the reduction of `ec_mulm_25519` agree limb for limb on every
//! input, proved by an SMT solver on the library's own generic code.
//!
//! [`Sym`] implements the limb trait `reference::ed25519::mpih::Limb` with 64-bit
//! SMT bit-vector terms, each operation mirroring the `u64` implementation's
//! arithmetic (the same overflowing adds, the same u128 multiply-accumulate). The
//! field functions of both tiers, instantiated at `Sym`, build one straight-line term
//! each (they never branch on a limb).
//!
//! The reductions are too hard for one bit-vector query (bit-blasting a
//! multiply-by-19 chain against a shift-and-add chain does not finish), so ED-2 is
//! split, every piece checked:
//! 1. term identity: the shipped first halves (`ec_mulm_25519_fold19`) are,
//!    term for term, the composition of the limb-layer primitives listed below;
//! 2. one bit-vector lemma per primitive call, its inputs cut (so it holds for every
//!    input value): `lshift` multiplies by 16 exactly, each `add_n_in_place` adds
//!    exactly with a 0/1 carry, each `addmul_1_step` satisfies
//!    s + 2^64·c' = w + 19·u + c;
//! 3. the induction over the limbs, as linear integer arithmetic over those lemmas:
//!    both first halves return c·2^256 + w = L + 19·H_low, hence the same limbs;
//! 4. the second halves agree for every (w, c), and the shipped reductions are, term
//!    for term, their second half applied to their first half's results.

use std::cell::RefCell;
use std::fmt::Write as _;

use optimized::ed25519::field as new;
use reference::ed25519::field as old;
use reference::ed25519::mpih::{self, Limb};
use reference::plant;

use super::smt::{self, Query, Session, Term};
use super::{CheckResult, Failure, Mutant, Obligation, Optimization, Planted};

thread_local! {
    /// Bound lemmas met while building a term: (limb, bound, name).
    static LEMMAS: RefCell<Vec<(Term, u64, &'static str)>> = const { RefCell::new(Vec::new()) };
}

/// A symbolic 64-bit limb: an SMT bit-vector term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sym(pub Term);

fn c64(x: u64) -> Term {
    smt::constant(64, u128::from(x))
}

impl Limb for Sym {
    const BITS: u32 = 64;
    fn constant(x: u64) -> Self {
        Sym(c64(x))
    }
    fn adc(&self, b: &Self, c: &Self) -> (Self, Self) {
        // u64: two overflowing_add, carry = o1 | o2.
        let s1 = smt::bvadd(smt::zext(self.0, 1), smt::zext(b.0, 1));
        let s2 = smt::bvadd(smt::zext(smt::extract(s1, 63, 0), 1), smt::zext(c.0, 1));
        let carry = smt::bvor(smt::extract(s1, 64, 64), smt::extract(s2, 64, 64));
        (Sym(smt::extract(s2, 63, 0)), Sym(smt::zext(carry, 63)))
    }
    fn sbb(&self, b: &Self, c: &Self) -> (Self, Self) {
        // u64: two overflowing_sub, borrow = o1 | o2.
        let d1 = smt::bvsub(smt::zext(self.0, 1), smt::zext(b.0, 1));
        let d2 = smt::bvsub(smt::zext(smt::extract(d1, 63, 0), 1), smt::zext(c.0, 1));
        let borrow = smt::bvor(smt::extract(d1, 64, 64), smt::extract(d2, 64, 64));
        (Sym(smt::extract(d2, 63, 0)), Sym(smt::zext(borrow, 63)))
    }
    fn mul_wide(&self, b: &Self) -> (Self, Self) {
        let t = smt::bvmul(smt::zext(self.0, 64), smt::zext(b.0, 64));
        (Sym(smt::extract(t, 63, 0)), Sym(smt::extract(t, 127, 64)))
    }
    fn mac(&self, v: &Self, w: &Self, cy: &Self) -> (Self, Self) {
        // u64: u128 product plus two u128 additions (cannot overflow).
        let t = smt::bvmul(smt::zext(self.0, 64), smt::zext(v.0, 64));
        let t = smt::bvadd(t, smt::zext(w.0, 64));
        let t = smt::bvadd(t, smt::zext(cy.0, 64));
        (Sym(smt::extract(t, 63, 0)), Sym(smt::extract(t, 127, 64)))
    }
    fn shl(&self, s: u32) -> Self {
        Sym(smt::bvshl(self.0, c64(u64::from(s))))
    }
    fn shr(&self, s: u32) -> Self {
        Sym(smt::bvlshr(self.0, c64(u64::from(s))))
    }
    fn and(&self, b: &Self) -> Self {
        Sym(smt::bvand(self.0, b.0))
    }
    fn or(&self, b: &Self) -> Self {
        Sym(smt::bvor(self.0, b.0))
    }
    fn not(&self) -> Self {
        Sym(smt::bvnot(self.0))
    }
    fn wrapping_add(&self, b: &Self) -> Self {
        Sym(smt::bvadd(self.0, b.0))
    }
    fn wrapping_mul(&self, b: &Self) -> Self {
        Sym(smt::bvmul(self.0, b.0))
    }
    fn is_zero(&self) -> Self {
        // u64: ((x | -x) >> 63) ^ 1.
        let t = smt::bvlshr(smt::bvor(self.0, smt::bvneg(self.0)), c64(63));
        Sym(smt::bvxor(t, c64(1)))
    }
    fn mask(bit: &Self) -> Self {
        // u64: 0 - bit.
        Sym(smt::bvsub(c64(0), bit.0))
    }
    fn lemma_le(&self, bound: u64, what: &'static str) {
        LEMMAS.with(|l| l.borrow_mut().push((self.0, bound, what)));
    }
}

fn take_lemmas() -> Vec<(Term, u64, &'static str)> {
    LEMMAS.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// `N` fresh 64-bit limbs `name0`, `name1`, ...
pub fn vars<const N: usize>(name: &str) -> [Sym; N] {
    core::array::from_fn(|i| Sym(smt::var(&format!("{name}{i}"), 64)))
}

fn terms(xs: &[Sym]) -> Vec<Term> {
    xs.iter().map(|x| x.0).collect()
}

fn start() -> Result<Session, Failure> {
    smt::reset();
    take_lemmas();
    Session::new()
}

/// ED-1a: old `ec_addm_25519` = new, all 2^512 inputs.
fn addm() -> CheckResult {
    let mut s = start()?;
    let u = vars::<4>("u");
    let v = vars::<4>("v");
    let claim = smt::all_eq(
        &terms(&old::ec_addm_25519(&u, &v)),
        &terms(&new::ec_addm_25519(&u, &v)),
    );
    s.prove(&Query::new("old ec_addm_25519 = new, 512 free bits", claim))?;
    Ok(s.evidence("one bit-vector query over the 4+4 free limbs"))
}

/// ED-1b: old `ec_subm_25519` = new, all 2^512 inputs.
fn subm() -> CheckResult {
    let mut s = start()?;
    let u = vars::<4>("u");
    let v = vars::<4>("v");
    let claim = smt::all_eq(
        &terms(&old::ec_subm_25519(&u, &v)),
        &terms(&new::ec_subm_25519(&u, &v)),
    );
    s.prove(&Query::new("old ec_subm_25519 = new, 512 free bits", claim))?;
    Ok(s.evidence("one bit-vector query over the 4+4 free limbs"))
}

/// The old first half, rebuilt from the limb-layer primitives in the order
/// `old::ec_mulm_25519_fold19` calls them, keeping every intermediate value.
struct OldFold {
    /// L: n\[0..4\] with bit 255 cleared.
    w_l: [Sym; 4],
    /// H_low: the low four limbs of n >> 255.
    h_low: [Sym; 4],
    /// m after `lshift` and after each of the three `add_n_in_place (m, H_low)`.
    m: Vec<[Sym; 4]>,
    /// The carry limb m\[4\] after `lshift` and after each addition.
    m4: Vec<Sym>,
    /// The carries of the four `add_n_in_place`.
    cy: Vec<Sym>,
    /// The returned w.
    w_out: [Sym; 4],
}

fn old_fold(n: &[Sym; 8]) -> OldFold {
    let zero = Sym::constant(0);
    let mut w: [Sym; 4] = core::array::from_fn(|i| n[i].clone());
    old::clear_bit_255(&mut w);
    let w_l = w.clone();
    let src: [Sym; 5] = core::array::from_fn(|i| n[3 + i].clone());
    let mut h: [Sym; 5] = core::array::from_fn(|_| zero.clone());
    let _ = mpih::rshift::<Sym, 5, 63>(&mut h, &src);
    let h_low: [Sym; 4] = core::array::from_fn(|i| h[i].clone());
    let mut m: [Sym; 4] = core::array::from_fn(|_| zero.clone());
    let mut m4 = mpih::lshift::<Sym, 4, 4>(&mut m, &h_low);
    let mut ms = vec![m.clone()];
    let mut m4s = vec![m4.clone()];
    let mut cys = Vec::new();
    for _ in 0..3 {
        let cy = mpih::add_n_in_place(&mut m, &h_low);
        m4 = m4.wrapping_add(&cy);
        ms.push(m.clone());
        m4s.push(m4.clone());
        cys.push(cy);
    }
    let cy = mpih::add_n_in_place(&mut w, &m);
    m4 = m4.wrapping_add(&cy);
    m4s.push(m4);
    cys.push(cy);
    OldFold {
        w_l,
        h_low,
        m: ms,
        m4: m4s,
        cy: cys,
        w_out: w,
    }
}

/// The new first half, rebuilt from the primitives `new::ec_mulm_25519_fold19` calls.
struct NewFold {
    w_l: [Sym; 4],
    h_low: [Sym; 4],
    /// The carry into limb i (c\[0\] = 0) and out of the last limb (c\[4\]).
    c: Vec<Sym>,
    /// The limbs `addmul_1_step` returns.
    s: Vec<Sym>,
    /// The multiplier passed to `addmul_1`.
    v: Sym,
}

fn new_fold(n: &[Sym; 8]) -> NewFold {
    let mut w: [Sym; 4] = core::array::from_fn(|i| n[i].clone());
    old::clear_bit_255(&mut w);
    let mut buf = n.clone();
    let _ = mpih::rshift_within::<Sym, 8, 5, 0, 3, 63>(&mut buf);
    let h_low: [Sym; 4] = core::array::from_fn(|i| buf[i].clone());
    let v = Sym::constant(19);
    let mut c = vec![Sym::constant(0)];
    let mut s = Vec::new();
    for i in 0..4 {
        let (si, ci) = mpih::addmul_1_step(&w[i], &h_low[i], &v, &c[i]);
        s.push(si);
        c.push(ci);
    }
    NewFold {
        w_l: w,
        h_low,
        c,
        s,
        v,
    }
}

/// Linear integer arithmetic over the values of bit-vector terms: each term `t`
/// becomes the integer `i<t>` in [0, 2^width).
struct Lia {
    decls: String,
    facts: String,
    declared: std::collections::HashSet<Term>,
    fresh: usize,
}

const TWO64: &str = "18446744073709551616";

impl Lia {
    fn new() -> Self {
        Lia {
            decls: String::new(),
            facts: String::new(),
            declared: std::collections::HashSet::new(),
            fresh: 0,
        }
    }

    /// The integer value of a term (declared with its bounds on first use; a
    /// constant is fixed to its value).
    fn v(&mut self, t: &Sym) -> String {
        let name = format!("i{}", t.0.name());
        if self.declared.insert(t.0) {
            let _ = writeln!(self.decls, "(declare-const {name} Int)");
            match t.0.as_const() {
                Some(c) => {
                    let _ = writeln!(self.decls, "(assert (= {name} {c}))");
                }
                None => {
                    let max = (1u128 << t.0.width()) - 1;
                    let _ = writeln!(self.decls, "(assert (<= 0 {name} {max}))");
                }
            }
        }
        name
    }

    /// Σ limbs\[i\]·2^(64i).
    fn value(&mut self, limbs: &[Sym]) -> String {
        let mut s = String::from("(+");
        for (i, l) in limbs.iter().enumerate() {
            let x = self.v(l);
            let _ = write!(s, " (* {} {x})", pow2(64 * i as u32));
        }
        s.push(')');
        s
    }

    fn fact(&mut self, f: &str) {
        let _ = writeln!(self.facts, "(assert {f})");
    }

    fn fresh_int(&mut self, lo: u64, hi: u64) -> String {
        self.fresh += 1;
        let name = format!("k{}", self.fresh);
        let _ = writeln!(
            self.decls,
            "(declare-const {name} Int)\n(assert (<= {lo} {name} {hi}))"
        );
        name
    }

    /// The facts alone: `sat` when they have a model, so that a claim they refute is
    /// not refuted vacuously.
    fn model_query(&self, name: &str) -> String {
        format!(
            "; {name}\n(set-logic QF_LIA)\n{}{}(check-sat)\n(exit)\n",
            self.decls, self.facts
        )
    }

    fn query(&self, name: &str, negated_claim: &str) -> String {
        format!(
            "; {name}\n(set-logic QF_LIA)\n{}{}(assert (not {negated_claim}))\n(check-sat)\n(exit)\n",
            self.decls, self.facts
        )
    }
}

/// 2^k in decimal.
fn pow2(k: u32) -> String {
    // Little-endian base-10^9 digits.
    let mut d: Vec<u64> = vec![1];
    for _ in 0..k {
        let mut carry = 0;
        for x in &mut d {
            let y = *x * 2 + carry;
            *x = y % 1_000_000_000;
            carry = y / 1_000_000_000;
        }
        if carry > 0 {
            d.push(carry);
        }
    }
    let mut s = d.last().map(u64::to_string).unwrap_or_default();
    for x in d.iter().rev().skip(1) {
        let _ = write!(s, "{x:09}");
    }
    s
}

fn failed(msg: impl Into<String>) -> Failure {
    Failure::Failed(msg.into())
}

/// The cut inputs of a lemma.
fn cuts(groups: &[&[Sym]]) -> Vec<Term> {
    groups.iter().flat_map(|g| terms(g)).collect()
}

/// ED-2: old and new `ec_mulm_25519_reduce` agree on all 2^512 inputs.
fn reduction() -> CheckResult {
    let mut s = start()?;
    let n = vars::<8>("n");

    // 1. The shipped first halves are exactly the compositions decomposed below.
    let (wo, co) = old::ec_mulm_25519_fold19(&n);
    let (wn, cn) = new::ec_mulm_25519_fold19(&mut n.clone());
    let o = old_fold(&n);
    let nf = new_fold(&n);
    if o.w_out != wo || o.m4[4] != co {
        return Err(failed(
            "the shipped old ec_mulm_25519_fold19 is not the composition of rshift, lshift and \
             four add_n_in_place that the proof decomposes it into",
        ));
    }
    if nf.s[..] != wn[..] || nf.c[4] != cn {
        return Err(failed(
            "the shipped new ec_mulm_25519_fold19 is not the composition of rshift_within and \
             four addmul_1_step that the proof decomposes it into",
        ));
    }
    // Planted fault in the model (proof self-test): the multiplier a free variable,
    // as a decomposition that lost the constant 19 would give.
    let multiplier = if plant::active("ed25519-prove-multiplier-unknown") {
        smt::var("planted_v", 64)
    } else {
        nf.v.0
    };
    let Some(v) = multiplier.as_const() else {
        return Err(failed("the multiplier of addmul_1 is not a constant"));
    };

    // 2. One lemma per primitive call (inputs cut), and its integer reading.
    let mut lia = Lia::new();
    let hl = smt::concat_le(&terms(&o.h_low));
    let claim = smt::eq(
        smt::concat(o.m4[0].0, smt::concat_le(&terms(&o.m[0]))),
        smt::bvshl(smt::zext(hl, 64), smt::constant(320, 4)),
    );
    s.prove(
        &Query::new("old: lshift(H_low, 4) gives 16·H_low exactly", claim).cut(&cuts(&[&o.h_low])),
    )?;
    let (m0, m40, h) = (lia.value(&o.m[0]), lia.v(&o.m4[0]), lia.value(&o.h_low));
    lia.fact(&format!("(= (+ {m0} (* {} {m40})) (* 16 {h}))", pow2(256)));
    for j in 0..4 {
        let (before, after, addend): (&[Sym; 4], &[Sym; 4], &[Sym; 4]) = if j < 3 {
            (&o.m[j], &o.m[j + 1], &o.h_low)
        } else {
            (&o.w_l, &o.w_out, &o.m[3])
        };
        let cy = &o.cy[j];
        let claim = smt::and(&[
            smt::eq(
                smt::concat(smt::extract(cy.0, 0, 0), smt::concat_le(&terms(after))),
                smt::bvadd(
                    smt::zext(smt::concat_le(&terms(before)), 1),
                    smt::zext(smt::concat_le(&terms(addend)), 1),
                ),
            ),
            smt::bvule(cy.0, c64(1)),
        ]);
        let what = if j < 3 { "m += H_low" } else { "w += m" };
        s.prove(
            &Query::new(
                format!(
                    "old: add_n_in_place #{} ({what}) is exact, carry <= 1",
                    j + 1
                ),
                claim,
            )
            .cut(&cuts(&[before, addend])),
        )?;
        let (b, a, d, c) = (
            lia.value(before),
            lia.value(after),
            lia.value(addend),
            lia.v(cy),
        );
        lia.fact(&format!("(= (+ {a} (* {} {c})) (+ {b} {d}))", pow2(256)));
        lia.fact(&format!("(<= {c} 1)"));
        if plant::active("ed25519-prove-facts-contradict") && j == 3 {
            // Planted fault in the model (proof self-test).
            lia.fact(&format!("(>= {c} 2)"));
        }
        // m4 += cy is `bvadd`: the integer sum modulo 2^64.
        let (m4a, m4b) = (lia.v(&o.m4[j]), lia.v(&o.m4[j + 1]));
        let k = lia.fresh_int(0, 1);
        lia.fact(&format!("(= (+ {m4b} (* {TWO64} {k})) (+ {m4a} {c}))"));
    }
    for i in 0..4 {
        let wide = |t: Term| smt::zext(t, 66);
        let claim = smt::eq(
            smt::zext(smt::concat(nf.c[i + 1].0, nf.s[i].0), 2),
            smt::bvadd(
                smt::bvadd(
                    wide(nf.w_l[i].0),
                    smt::bvmul(wide(nf.h_low[i].0), wide(nf.v.0)),
                ),
                wide(nf.c[i].0),
            ),
        );
        s.prove(
            &Query::new(
                format!("new: addmul_1_step on limb {i}: s + 2^64·c' = w + {v}·u + c"),
                claim,
            )
            .cut(&cuts(&[&[
                nf.w_l[i].clone(),
                nf.h_low[i].clone(),
                nf.c[i].clone(),
            ]])),
        )?;
        let (sv, c1, w, u, c0) = (
            lia.v(&nf.s[i]),
            lia.v(&nf.c[i + 1]),
            lia.v(&nf.w_l[i]),
            lia.v(&nf.h_low[i]),
            lia.v(&nf.c[i]),
        );
        lia.fact(&format!(
            "(= (+ {sv} (* {TWO64} {c1})) (+ {w} (* {v} {u}) {c0}))"
        ));
    }
    // Both halves start from the same L and H_low (the same terms, or proved equal).
    // Planted fault in the model (proof self-test): the new half's L read one limb
    // off, as a decomposition taking L from rotated limbs would give.
    let shift = usize::from(plant::active("ed25519-prove-new-l-rotated"));
    if o.w_l.iter().ne(nf.w_l.iter().cycle().skip(shift).take(4)) {
        return Err(failed(
            "the two first halves do not take L from the same terms",
        ));
    }
    if o.h_low != nf.h_low {
        let claim = smt::all_eq(&terms(&o.h_low), &terms(&nf.h_low));
        s.prove(&Query::new(
            "rshift and rshift_within give the same H_low",
            claim,
        ))?;
        for (a, b) in o.h_low.iter().zip(&nf.h_low) {
            let (a, b) = (lia.v(a), lia.v(b));
            lia.fact(&format!("(= {a} {b})"));
        }
    }

    // 3. The induction over the limbs, in linear integer arithmetic.
    let (l, h) = (lia.value(&o.w_l), lia.value(&o.h_low));
    let old_val = format!(
        "(+ {} (* {} {}))",
        lia.value(&o.w_out),
        pow2(256),
        lia.v(&o.m4[4])
    );
    let new_val = format!(
        "(+ {} (* {} {}))",
        lia.value(&nf.s),
        pow2(256),
        lia.v(&nf.c[4])
    );
    // The facts have a model: a claim they refute below is not refuted vacuously.
    let name = "the integer facts have a model (the join is not vacuous)";
    s.run_text(name, &lia.model_query(name), true)?;
    // Planted faults in the model (proof self-test): claims the facts do not entail.
    let k = if plant::active("ed25519-prove-join-claims-18") {
        18
    } else {
        19
    };
    let name = format!("old first half: c·2^256 + w = L + {k}·H_low");
    s.run_text(
        &name,
        &lia.query(&name, &format!("(= {old_val} (+ {l} (* {k} {h})))")),
        false,
    )?;
    let k = if plant::active("ed25519-prove-new-join-claims-18") {
        18
    } else {
        19
    };
    let name = format!("new first half: c·2^256 + w = L + {k}·H_low");
    s.run_text(
        &name,
        &lia.query(&name, &format!("(= {new_val} (+ {l} (* {k} {h})))")),
        false,
    )?;
    let shift = usize::from(plant::active("ed25519-prove-join-pairs-the-wrong-limbs"));
    let mut eqs = String::from("(and");
    for (a, b) in o.w_out.iter().zip(nf.s.iter().cycle().skip(shift)) {
        let (a, b) = (lia.v(a), lia.v(b));
        let _ = write!(eqs, " (= {a} {b})");
    }
    let (a, b) = (lia.v(&o.m4[4]), lia.v(&nf.c[4]));
    let _ = write!(eqs, " (= {a} {b}))");
    let name = "the two first halves return the same limbs and carry";
    s.run_text(name, &lia.query(name, &eqs), false)?;

    // 4. Second halves: equal for every (w, c).
    let w = vars::<4>("w");
    let c = Sym(smt::var("c", 64));
    let mut fo = w.clone();
    old::ec_mulm_25519_finish(&mut fo, &c);
    let mut fnew = w;
    new::ec_mulm_25519_finish(&mut fnew, &c);
    s.prove(&Query::new(
        "second halves (fold (2c + bit 255)·19, conditional subtraction) equal for every (w, c)",
        smt::all_eq(&terms(&fo), &terms(&fnew)),
    ))?;
    // The shipped reductions are, term for term, their second half applied to their
    // first half's results; those are equal (step 3), and the second halves agree on
    // every (w, c).
    let (ro, rco) = old::ec_mulm_25519_reduce(&mut n.clone());
    let (rn, rcn) = new::ec_mulm_25519_reduce(&mut n.clone());
    take_lemmas();
    let mut fo = wo.clone();
    old::ec_mulm_25519_finish(&mut fo, &co);
    let mut fnew = wn.clone();
    new::ec_mulm_25519_finish(&mut fnew, &cn);
    if ro != fo || rco != co || rn != fnew || rcn != cn {
        return Err(failed(
            "a shipped ec_mulm_25519_reduce is not its ec_mulm_25519_finish applied to its \
             ec_mulm_25519_fold19",
        ));
    }
    let q = s.records.len();
    Ok(s.evidence(format!(
        "{q} solver queries ({} bit-vector lemmas, 4 integer-arithmetic: the facts' model and the \
         three claims) over the 8 free limbs",
        q - 4
    )))
}

/// ED-3: the carry bounds (c <= 9 for products below 2^510, tight; the in-code lemma
/// c <= 19 on every input).
fn carry_bounds() -> CheckResult {
    let mut s = start()?;
    let n = vars::<8>("n");
    let (_, co) = old::ec_mulm_25519_reduce(&mut n.clone());
    let (_, cn) = new::ec_mulm_25519_reduce(&mut n.clone());
    let lemmas = take_lemmas();
    if lemmas.len() != 2 {
        return Err(failed(format!(
            "expected the carry lemma once per first half, met {} lemmas",
            lemmas.len()
        )));
    }
    let below = smt::bvult(n[7].0, c64(1 << 62)); // n < 2^510 (p² < 2^510)
    // Proof-side plants (faults in this model, not in shipped code), one per piece the
    // shipped-code plant does not reach: each must make its piece fail.
    let old_bound = if plant::active("ed25519-prove-old-carry-claims-8") {
        8
    } else {
        9
    };
    s.prove(
        &Query::new(
            format!("old carry <= {old_bound} for n < 2^510"),
            smt::bvule(co.0, c64(old_bound)),
        )
        .hyp(below),
    )?;
    s.prove(&Query::new("new carry <= 9 for n < 2^510", smt::bvule(cn.0, c64(9))).hyp(below))?;
    let refuted = if plant::active("ed25519-prove-tightness-refutes-9") {
        9
    } else {
        8
    };
    let mut tight = Query::new(
        format!("new carry = 9 is reached (<= {refuted} refuted)"),
        smt::bvule(cn.0, c64(refuted)),
    )
    .hyp(below);
    tight.expect_sat = true;
    s.prove(&tight)?;
    let lemma_slack = u64::from(plant::active("ed25519-prove-lemma-claims-one-less"));
    for (x, bound, what) in lemmas {
        s.prove(&Query::new(
            format!("in-code lemma: {what}"),
            smt::bvule(x, c64(bound - lemma_slack)),
        ))?;
    }
    Ok(s.evidence("5 bit-vector queries over the 8 free limbs"))
}

/// The Ed25519 obligations.
pub static OBLIGATIONS: &[Obligation] = &[
    Obligation {
        id: "ED-1a",
        optimization: Optimization::Ed25519Field,
        statement: "old `ec_addm_25519` (reference::ed25519::field) and new (optimized::ed25519::field) return the same four limbs",
        method: "SMT (QF_BV): both functions run over symbolic 64-bit limbs (`Limb` for SMT terms); the solver refutes any difference",
        domain: "every pair of 4-limb inputs (2^512), in range or not",
        mutant: Mutant::Plant(Planted::sat(
            "ed25519-addm-keeps-the-borrowed-difference",
            "old ec_addm_25519 = new",
        )),
        cheap: true,
        needs_smt: true,
        check: addm,
    },
    Obligation {
        id: "ED-1b",
        optimization: Optimization::Ed25519Field,
        statement: "old and new `ec_subm_25519` return the same four limbs",
        method: "SMT (QF_BV) on both functions over symbolic limbs",
        domain: "every pair of 4-limb inputs (2^512)",
        mutant: Mutant::Plant(Planted::sat(
            "ed25519-subm-adds-p-unconditionally",
            "old ec_subm_25519 = new",
        )),
        cheap: true,
        needs_smt: true,
        check: subm,
    },
    Obligation {
        id: "ED-2",
        optimization: Optimization::Ed25519Field,
        statement: "old and new `ec_mulm_25519_reduce` return the same limbs and carry (that each tier's `ec_mulm_25519` is the trait's provided `mulm`, the shared `mul_n` then its reduction, is read from the code: What the proofs rest on)",
        method: "SMT, split: the shipped first halves (`fold19`) are term for term the composition of `lshift`/`add_n_in_place` (old) and `addmul_1_step` (new); one bit-vector lemma per primitive call with its inputs cut; the induction over the limbs in linear integer arithmetic (both give c·2^256 + w = L + 19·H_low, so the same limbs); second halves equal for every (w, c); the shipped reductions are term for term second half ∘ first half",
        domain: "every 8-limb input (2^512), hence every pair of 4-limb factors",
        // One plant per piece: the lemmas (a primitive that drops its carry-in), the
        // term identity (a fold by 21, no longer the decomposition), the second
        // halves (no final subtraction), the final composition (a reduction that
        // hands its second half a carry of 0). The linear integer join is reached
        // only by a wrong proof model, not by a wrong shipped function: faults
        // planted in the model show that the facts entail none of its three claims
        // made wrong (each first half by 18, the limbs paired off by one) and that
        // the check for a model of the facts sees a contradiction, under which every
        // claim would hold vacuously. The structural guards (L from the same terms, a
        // constant multiplier) are reached by no shipped plant: step 1 ties each
        // decomposition to its shipped first half, so a fault in one place is
        // reported there first; only a shipped change mirrored in the decomposition
        // reaches them (docs/VERIFICATION.md). Two faults planted in the model show
        // each guard failing.
        mutant: Mutant::Plants(&[
            Planted::sat(
                "ed25519-addmul-1-step-drops-the-carry-in",
                "addmul_1_step on limb",
            ),
            Planted::new("ed25519-fold19-multiplies-by-21", "is not the composition"),
            Planted::sat("ed25519-mulm-no-final-subtraction", "second halves"),
            Planted::new(
                "ed25519-reduce-drops-the-fold-carry",
                "is not its ec_mulm_25519_finish applied",
            ),
            Planted::sat("ed25519-prove-join-claims-18", "old first half"),
            Planted::sat("ed25519-prove-new-join-claims-18", "new first half"),
            Planted::sat(
                "ed25519-prove-join-pairs-the-wrong-limbs",
                "the two first halves return the same limbs",
            ),
            Planted::new(
                "ed25519-prove-multiplier-unknown",
                "the multiplier of addmul_1 is not a constant",
            ),
            Planted::new(
                "ed25519-prove-new-l-rotated",
                "the two first halves do not take L from the same terms",
            ),
            Planted::new(
                "ed25519-prove-facts-contradict",
                "the integer facts have a model (the join is not vacuous): the solver answered \
                 `unsat`",
            ),
        ]),
        cheap: false,
        needs_smt: true,
        check: reduction,
    },
    Obligation {
        id: "ED-3",
        optimization: Optimization::Ed25519Field,
        statement: "the carry limb of L + 19·H_low is <= 9 when n < 2^510 (every product of u, v <= p), and 9 is reached by some n < 2^510 (the new tier's carry); the in-code lemma carry <= 19 (`Limb::lemma_le`, a `debug_assert!` on u64) holds on every input, both tiers",
        method: "SMT (QF_BV) on the shipped reductions; the tightness query must find a counterexample to carry <= 8",
        domain: "every 8-limb input (the first bound: n < 2^510)",
        mutant: Mutant::Plants(&[
            Planted::sat("ed25519-fold19-multiplies-by-21", "new carry <= 9"),
            Planted::sat("ed25519-prove-old-carry-claims-8", "old carry <= 8"),
            Planted::new(
                "ed25519-prove-tightness-refutes-9",
                "new carry = 9 is reached (<= 9 refuted): the solver answered `unsat`, expected `sat`",
            ),
            Planted::sat("ed25519-prove-lemma-claims-one-less", "in-code lemma"),
        ]),
        cheap: false,
        needs_smt: true,
        check: carry_bounds,
    },
];
