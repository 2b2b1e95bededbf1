//! ML-KEM (optimization 5): the k-inverse-NTT `encrypt_u` equals the k²-inverse-NTT
//! one for every input, by symbolic evaluation of the shipped generic code over exact
//! forms in Z_q.
//!
//! The NTT, `multiply_ntts`, the polynomial sums and both tiers' `encrypt_u` are
//! written once over the field trait `reference::mlkem::field::Zq`; the library
//! instantiates them at `u16` (canonical Z_q arithmetic, exact by MLKEM-1..3), the
//! proofs at [`ZqForm`], a polynomial of degree <= 2 in the input coefficients. The
//! forms a kernel returns are its polynomial map, so equal forms mean equal outputs
//! for every input.

use optimized::mlkem::encrypt_u_merged;
use std::cell::RefCell;
use std::collections::HashSet;

use reference::mlkem::field::{self, Fe, Ints, Q, Word, Zq};
use reference::mlkem::ntt::{self, N, NttPoly, Poly};
use reference::mlkem::{MAX_K, Matrix, encrypt_u_per_product};

use super::form::Form;
use super::smt::{self, Term};
use super::{CheckResult, Evidence, Failure, Mutant, Obligation, Optimization, Planted};

/// A symbolic element of Z_q: an exact form of degree <= 2 in the input coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZqForm(pub Form);

const QM: u32 = Q as u32;

impl Zq for ZqForm {
    fn zero() -> Self {
        ZqForm(Form::constant(QM, 0))
    }
    fn constant(c: Fe) -> Self {
        ZqForm(Form::constant(QM, u64::from(c)))
    }
    fn add(&self, b: &Self) -> Self {
        ZqForm(self.0.add(&b.0))
    }
    fn sub(&self, b: &Self) -> Self {
        ZqForm(self.0.sub(&b.0))
    }
    fn mul(&self, b: &Self) -> Self {
        ZqForm(self.0.mul(&b.0))
    }
    fn mul_sub(&self, b: &Self, c: &Self) -> Self {
        ZqForm(self.0.mul(&b.0.sub(&c.0)))
    }
    fn add_mul(&self, b: &Self, c: &Self, d: &Self) -> Self {
        ZqForm(self.0.mul(&b.0).add(&c.0.mul(&d.0)))
    }
    /// The zero form, as `u16`'s zeroize leaves 0: a value wiped before its last use
    /// then differs as a form.
    fn wipe(values: &mut [Self]) {
        values.fill(Self::zero());
    }
}

fn var(v: u32) -> ZqForm {
    ZqForm(Form::var(QM, v))
}

/// MLKEM-1: `reduce(a) = a mod q` for every a in [0, 2q²).
fn reduce_exhaustive() -> CheckResult {
    let q = u32::from(Q);
    let end = 2 * q * q;
    for a in 0..end {
        let r = field::reduce(a);
        if u32::from(r) != a % q {
            return Err(Failure::failed(format!(
                "reduce({a}) = {r}, want {}",
                a % q
            )));
        }
    }
    Ok(Evidence::proved(format!("all {end} values of a")))
}

/// MLKEM-2: `add`, `sub`, `mul` on every canonical pair.
fn add_sub_mul_exhaustive() -> CheckResult {
    let q = u32::from(Q);
    for a in 0..Q {
        for b in 0..Q {
            let (x, y) = (u32::from(a), u32::from(b));
            let got = [field::add(a, b), field::sub(a, b), field::mul(a, b)];
            let want = [(x + y) % q, (x + q - y) % q, x * y % q];
            for ((g, w), op) in got.iter().zip(want).zip(["add", "sub", "mul"]) {
                if u32::from(*g) != w {
                    return Err(Failure::failed(format!("{op}({a}, {b}) = {g}, want {w}")));
                }
            }
        }
    }
    Ok(Evidence::proved(format!(
        "all {} canonical pairs, three operations each",
        q * q
    )))
}

thread_local! {
    /// The claims met while a field function runs over [`SymInts`], in order.
    static CLAIMS: RefCell<Vec<Claim>> = const { RefCell::new(Vec::new()) };
}

/// One claim met in a symbolic run.
struct Claim {
    /// The claim.
    term: Term,
    /// What it states.
    what: String,
    /// For a precondition (`require_below`), the value it bounds.
    subject: Option<Term>,
}

fn claim(term: Term, what: String) {
    claim_about(term, what, None);
}

fn claim_about(term: Term, what: String, subject: Option<Term>) {
    CLAIMS.with(|c| {
        c.borrow_mut().push(Claim {
            term,
            what,
            subject,
        });
    });
}

fn take_claims() -> Vec<Claim> {
    CLAIMS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// A symbolic `W`-bit machine integer: an SMT bit-vector term. `add`, `sub` and `mul`
/// compute the wrapped result, as a release build does, and record the claim that
/// the exact result fits (a debug build's overflow check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bv<const W: u32>(pub Term);

impl<const W: u32> Bv<W> {
    fn checked_add(self, b: Self) -> Self {
        let exact = smt::bvadd(smt::zext(self.0, 1), smt::zext(b.0, 1));
        claim(
            smt::eq(smt::extract(exact, W, W), smt::constant(1, 0)),
            format!("u{W} + does not overflow"),
        );
        Bv(smt::extract(exact, W - 1, 0))
    }
    fn checked_sub(self, b: Self) -> Self {
        // Through W + 1 bits, as `checked_add` (and not `wrapping_sub`'s term).
        let exact = smt::bvsub(smt::zext(self.0, 1), smt::zext(b.0, 1));
        claim(smt::bvule(b.0, self.0), format!("u{W} − does not overflow"));
        Bv(smt::extract(exact, W - 1, 0))
    }
    fn checked_mul(self, b: Self) -> Self {
        let exact = smt::bvmul(smt::zext(self.0, W), smt::zext(b.0, W));
        claim(
            smt::eq(smt::extract(exact, 2 * W - 1, W), smt::constant(W, 0)),
            format!("u{W} · does not overflow"),
        );
        Bv(smt::extract(exact, W - 1, 0))
    }
    fn shr_by(self, s: u32) -> Self {
        // The machine types panic (debug) or mask the amount (release) at s >= W.
        assert!(s < W, "a shift by {s} of a {W}-bit value");
        Bv(smt::bvlshr(self.0, smt::constant(W, u128::from(s))))
    }
}

macro_rules! symbolic_word {
    ($t:ty, $w:literal) => {
        impl Word<$t> for Bv<$w> {
            fn constant(c: $t) -> Self {
                Bv(smt::constant($w, u128::from(c)))
            }
            fn add(self, b: Self) -> Self {
                self.checked_add(b)
            }
            fn sub(self, b: Self) -> Self {
                self.checked_sub(b)
            }
            fn mul(self, b: Self) -> Self {
                self.checked_mul(b)
            }
            fn shr(self, s: u32) -> Self {
                self.shr_by(s)
            }
            fn wrapping_add(self, b: Self) -> Self {
                Bv(smt::bvadd(self.0, b.0))
            }
            fn wrapping_sub(self, b: Self) -> Self {
                Bv(smt::bvsub(self.0, b.0))
            }
            fn wrapping_mul(self, b: Self) -> Self {
                Bv(smt::bvmul(self.0, b.0))
            }
            fn require_below(self, bound: $t, what: &'static str) {
                claim_about(
                    smt::bvult(self.0, smt::constant($w, u128::from(bound))),
                    what.to_owned(),
                    Some(self.0),
                );
            }
        }
    };
}
symbolic_word!(u16, 16);
symbolic_word!(u32, 32);
symbolic_word!(u64, 64);

/// The field functions' integers as bit-vector terms ([`Bv`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SymInts;

impl Ints for SymInts {
    type U16 = Bv<16>;
    type U32 = Bv<32>;
    type U64 = Bv<64>;
    fn widen16(a: Bv<16>) -> Bv<32> {
        Bv(smt::zext(a.0, 16))
    }
    fn widen32(a: Bv<32>) -> Bv<64> {
        Bv(smt::zext(a.0, 32))
    }
    fn low16(a: Bv<32>) -> Bv<16> {
        Bv(smt::extract(a.0, 15, 0))
    }
    fn low32(a: Bv<64>) -> Bv<32> {
        Bv(smt::extract(a.0, 31, 0))
    }
}

/// One field function over [`SymInts`], on the first two, three or four of four
/// symbolic inputs; the precondition of the reduction it ends in (`reduce:` or
/// `reduce_once:`), and that reduction's argument as the function's expression
/// states it, built from the checked operations.
type FieldFunction = (
    &'static str,
    fn(&[Bv<16>; 4]) -> Bv<16>,
    &'static str,
    fn(&[Bv<16>; 4]) -> Term,
);

/// q as a symbolic u16.
fn q16() -> Bv<16> {
    <Bv<16> as Word<u16>>::constant(Q)
}

/// `u32::from` on a symbolic u16.
fn widen(a: Bv<16>) -> Bv<32> {
    SymInts::widen16(a)
}

/// MLKEM-3: the shipped field functions, run over symbolic bit-vectors; for every
/// canonical input, no `+`, `−` or `·` overflows and every precondition (`reduce`'s
/// a < 2q², `reduce_once`'s a < 2q) holds; and each function's result is, term for
/// term, its reduction applied to its expression (a·(b + q − c), a·b + c·d, a·b,
/// a + b, a + q − b) built from the checked operations, every claim met in building
/// it among those proved for the function; so with no overflow the reduction gets
/// that exact integer, inside the domain on which MLKEM-1 checked `reduce` on every
/// value, and its result is returned.
/// (A claim that the result equals the exact value mod q, with the solver's
/// `bvurem`, did not finish within z3's 300 s for `mul_sub`.)
///
/// The claims are proved in the order the code meets them. Once `reduce`'s
/// precondition is proved, its argument is cut (a free 32-bit value) and the
/// precondition becomes a hypothesis: the claims inside `reduce` are then proved for
/// every a < 2q², which is more than the function needs and spares the solver the
/// product that computed a.
fn bound_lemmas() -> CheckResult {
    let mut session = smt::Session::new()?;
    smt::reset();
    take_claims();
    let xs: [Bv<16>; 4] = core::array::from_fn(|i| Bv(smt::var(&format!("x{i}"), 16)));
    let canonical = smt::and(&xs.map(|x| smt::bvult(x.0, q16().0)));
    let functions: [FieldFunction; 5] = [
        (
            "mul_sub",
            |x| field::mul_sub_over::<SymInts>(x[0], x[1], x[2]),
            "reduce:",
            |x| widen(x[0]).mul(widen(x[1].add(q16()).sub(x[2]))).0,
        ),
        (
            "add_mul",
            |x| field::add_mul_over::<SymInts>(x[0], x[1], x[2], x[3]),
            "reduce:",
            |x| {
                let product = |a, b| widen(a).mul(widen(b));
                product(x[0], x[1]).add(product(x[2], x[3])).0
            },
        ),
        (
            "mul",
            |x| field::mul_over::<SymInts>(x[0], x[1]),
            "reduce:",
            |x| widen(x[0]).mul(widen(x[1])).0,
        ),
        (
            "add",
            |x| field::add_over::<SymInts>(x[0], x[1]),
            "reduce_once:",
            |x| x[0].add(x[1]).0,
        ),
        (
            "sub",
            |x| field::sub_over::<SymInts>(x[0], x[1]),
            "reduce_once:",
            |x| x[0].add(q16()).sub(x[1]).0,
        ),
    ];
    let mut claims = 0;
    for (name, run, reduction, expression) in functions {
        let result = run(&xs);
        let (mut hyps, mut cuts) = (vec![canonical], Vec::new());
        let mut argument = None;
        let mut proved = HashSet::new();
        for c in take_claims() {
            let query = hyps.iter().fold(
                smt::Query::new(format!("{name}: {}", c.what), c.term).cut(&cuts),
                |q, h| q.hyp(*h),
            );
            session.prove(&query)?;
            claims += 1;
            proved.insert(c.term);
            if let (Some(a), true) = (c.subject, c.what.starts_with(reduction)) {
                argument.get_or_insert(a);
            }
            if let (Some(a), true) = (c.subject, c.what.starts_with("reduce:")) {
                hyps.push(c.term);
                cuts.push(a);
            }
        }
        // The expression, and the reduction applied to it. Identical terms can still
        // be built two ways (a `·` through wider wrapping operations is the term of
        // the checked one), so every claim the expression meets must be among those
        // proved for the function.
        let want = expression(&xs);
        let reduced = if reduction == "reduce:" {
            field::reduce_over::<SymInts>(Bv(want)).0
        } else {
            field::reduce_once_over::<SymInts>(Bv(want)).0
        };
        let reduction = reduction.trim_end_matches(':');
        let unproved = take_claims()
            .into_iter()
            .find(|c| !proved.contains(&c.term));
        if argument != Some(want) {
            return Err(Failure::failed(format!(
                "{name}: the argument of {reduction} is not the function's expression"
            )));
        }
        if result.0 != reduced {
            return Err(Failure::failed(format!(
                "{name}: the result is not {reduction} of the function's expression"
            )));
        }
        if let Some(c) = unproved {
            return Err(Failure::failed(format!(
                "{name}: the expression's claim `{}` was not proved for the function",
                c.what
            )));
        }
    }
    Ok(session.evidence(format!(
        "{claims} overflow and precondition claims of {} functions, each proved (its negation unsat) on every canonical input (inside `reduce`, for every a < 2q²); each function returns its reduction of its expression, term for term, every claim of which is among those proved",
        functions.len()
    )))
}

/// MLKEM-4: the shipped `inverse_ntt` is Z_q-linear and inverts the shipped `ntt`.
fn inverse_ntt_linear() -> CheckResult {
    let x: Poly<ZqForm> = Poly(core::array::from_fn(|i| var(i as u32 + 1)));
    let image = ntt::inverse_ntt_over(&NttPoly(x.0.clone()));
    let mut terms = 0usize;
    for (i, c) in image.0.iter().enumerate() {
        if c.0
            .terms()
            .iter()
            .any(|&(mono, _)| mono == 0 || mono >> 32 != 0)
        {
            return Err(Failure::failed(format!(
                "coefficient {i} of NTT⁻¹(x) is not a linear form of x"
            )));
        }
        terms += c.0.len();
    }
    let back = ntt::inverse_ntt_over(&ntt::ntt_over(&x));
    for (i, (got, want)) in back.0.iter().zip(&x.0).enumerate() {
        if got != want {
            return Err(Failure::failed(format!(
                "coefficient {i} of NTT⁻¹(NTT(x)) is not x_{i} ({} terms)",
                got.0.len()
            )));
        }
    }
    Ok(Evidence::proved(format!(
        "NTT⁻¹ over 256 linear forms: a {N}×{N} matrix with {terms} nonzero entries; NTT⁻¹(NTT(x)) = x as forms"
    )))
}

/// MLKEM-5: `encrypt_u` of both tiers, over degree-2 forms, for k = 2, 3, 4.
fn encrypt_u_equal() -> CheckResult {
    let mut compared = 0usize;
    for k in 2..=MAX_K {
        // Variables: Â (16·256), ŷ (4·256), e1 (4·256), numbered from 1.
        let a: Matrix<ZqForm> = core::array::from_fn(|j| {
            core::array::from_fn(|i| {
                NttPoly(core::array::from_fn(|c| {
                    var(1 + ((j * MAX_K + i) * N + c) as u32)
                }))
            })
        });
        let base_y = 1 + MAX_K * MAX_K * N;
        let y: [NttPoly<ZqForm>; MAX_K] = core::array::from_fn(|j| {
            NttPoly(core::array::from_fn(|c| var((base_y + j * N + c) as u32)))
        });
        let base_e = base_y + MAX_K * N;
        let e1: [Poly<ZqForm>; MAX_K] = core::array::from_fn(|i| {
            Poly(core::array::from_fn(|c| var((base_e + i * N + c) as u32)))
        });
        let mut u_ref: [Poly<ZqForm>; MAX_K] = core::array::from_fn(|_| Poly::zero());
        let mut u_opt = u_ref.clone();
        encrypt_u_per_product(k, &a, &y, &e1, &mut u_ref);
        encrypt_u_merged(k, &a, &y, &e1, &mut u_opt);
        for i in 0..k {
            for c in 0..N {
                let (r, o) = (&u_ref[i].0[c], &u_opt[i].0[c]);
                if r != o {
                    return Err(Failure::failed(format!(
                        "k = {k}: u[{i}] coefficient {c} differs as a form ({} vs {} terms)",
                        r.0.len(),
                        o.0.len()
                    )));
                }
                compared += r.0.len();
            }
        }
    }
    Ok(Evidence::proved(format!(
        "k = 2, 3, 4: 2304 output coefficients, equal as forms ({compared} terms compared)"
    )))
}

/// The ML-KEM obligations.
pub static OBLIGATIONS: &[Obligation] = &[
    Obligation {
        id: "MLKEM-1",
        optimization: Optimization::MlKemEncryptU,
        statement: "Barrett `field::reduce(a)` = a mod q",
        method: "exhaustive",
        domain: "every a in [0, 2q²) (22 164 482 values)",
        mutant: Mutant::Plant(Planted::new(
            "mlkem-reduce-skips-the-final-subtraction",
            "reduce(",
        )),
        cheap: false,
        needs_smt: false,
        check: reduce_exhaustive,
    },
    Obligation {
        id: "MLKEM-2",
        optimization: Optimization::MlKemEncryptU,
        statement: "`field::add`, `sub`, `mul` return (a + b), (a − b), a·b mod q, canonical",
        method: "exhaustive",
        domain: "every canonical pair (q² = 11 082 241)",
        mutant: Mutant::Plant(Planted::new("mlkem-sub-forgets-the-offset", "sub(")),
        cheap: false,
        needs_smt: false,
        check: add_sub_mul_exhaustive,
    },
    Obligation {
        id: "MLKEM-3",
        optimization: Optimization::MlKemEncryptU,
        statement: "`field::mul_sub`, `add_mul`, `mul`, `add`, `sub` (with `reduce` and `reduce_once`) on canonical inputs: no u16/u32/u64 `+`, `−` or `·` overflows, `reduce` gets a < 2q² and `reduce_once` a < 2q, and each function returns its reduction of its expression; so `mul_sub`, `add_mul`, `mul` return `reduce` of the exact integers a·(b − c + q), a·b + c·d, a·b, and with MLKEM-1, 2 every `Zq` operation on u16 is the exact Z_q operation",
        method: "SMT (QF_BV): the shipped generic field functions (`*_over`) run over symbolic bit-vectors (`SymInts`), each overflow check and precondition a claim, in the order the code meets them; the solver refutes each claim's negation (inside `reduce`, for every a < 2q²); each function's result is, term for term, its reduction of its expression, every claim of which is among those proved",
        domain: "every canonical a, b, c, d",
        mutant: Mutant::Plants(&[
            Planted::sat("mlkem-mul-sub-offset-2q", "mul_sub: reduce: a < 2q²"),
            Planted::sat(
                "mlkem-sub-subtracts-before-the-offset",
                "sub: u16 − does not overflow",
            ),
            Planted::new(
                "mlkem-mul-sub-operands-swapped",
                "mul_sub: the argument of reduce is not",
            ),
            Planted::new(
                "mlkem-mul-sub-adds-one-after-the-reduction",
                "mul_sub: the result is not reduce of",
            ),
            Planted::new(
                "mlkem-add-mul-products-through-u64",
                "add_mul: the expression's claim `u32 · does not overflow` was not proved",
            ),
        ]),
        cheap: false,
        needs_smt: true,
        check: bound_lemmas,
    },
    Obligation {
        id: "MLKEM-4",
        optimization: Optimization::MlKemEncryptU,
        statement: "the shipped `ntt::inverse_ntt` is Z_q-linear (Σ NTT⁻¹(x_j) = NTT⁻¹(Σ x_j)) and inverts `ntt::ntt`",
        method: "symbolic evaluation: `inverse_ntt` and `ntt` run over exact linear forms in Z_q (the forms computed are the matrix); every output is a linear form, and NTT⁻¹(NTT(x)) = x as forms",
        domain: "every x ∈ Z_q^256",
        mutant: Mutant::Plants(&[
            Planted::new(
                "mlkem-inverse-ntt-skips-the-scaling",
                "of NTT⁻¹(NTT(x)) is not",
            ),
            Planted::new("mlkem-inverse-ntt-adds-a-constant", "is not a linear form"),
        ]),
        cheap: true,
        needs_smt: false,
        check: inverse_ntt_linear,
    },
    Obligation {
        id: "MLKEM-5",
        optimization: Optimization::MlKemEncryptU,
        statement: "`encrypt_u` of the optimized tier (k inverse NTTs, `optimized::mlkem::encrypt_u_merged`) = the reference (k², `reference::mlkem::encrypt_u_per_product`): u = NTT⁻¹(Âᵀ∘ŷ) + e1 as maps over Z_q, coefficient for coefficient; byte for byte on the u16 instance given MLKEM-1, 2, 3 (proved)",
        method: "symbolic evaluation of both shipped kernels (with the shared `multiply_ntts`, `ntt_add`, `inverse_ntt`, `poly_add`) over exact forms of degree <= 2 in Z_q; equal forms for every output coefficient; the u16 instance computes the same map (MLKEM-1, 2, 3 proved)",
        domain: "k ∈ {2, 3, 4}, every canonical Â, ŷ, e1",
        mutant: Mutant::Plants(&[
            Planted::new("mlkem-encrypt-u-transposed", "differs as a form"),
            Planted::new(
                "mlkem-encrypt-u-wipes-the-product-early",
                "differs as a form",
            ),
        ]),
        cheap: true,
        needs_smt: false,
        check: encrypt_u_equal,
    },
];
