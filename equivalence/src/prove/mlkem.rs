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
use reference::mlkem::field::{self, Fe, Q, Zq};
use reference::mlkem::ntt::{self, N, NttPoly, Poly};
use reference::mlkem::{MAX_K, Matrix, encrypt_u_per_product};

use super::form::Form;
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

/// MLKEM-3: the bound lemmas are `const` assertions; this binary exists, so rustc
/// evaluated them. They bound the expressions at their largest operands; that these
/// bound every canonical input (monotonicity) and that the asserts state the
/// expressions `mul_sub` and `add_mul` compute is read from the code: argued.
fn bound_lemmas() -> CheckResult {
    Ok(Evidence::argued(
        "rustc evaluated the bounds at the largest operands (every operand q − 1) when \
         this binary was built; that they bound every canonical input (+ and · are \
         monotone on non-negative integers) and that the asserts state what `mul_sub` \
         and `add_mul` compute is read from the code, not checked",
    ))
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
        statement: "`mul_sub`, `add_mul` hand `reduce` the exact integers a·(b − c + q), a·b + c·d, inside [0, 2q²) and with no u16/u32 overflow; so with MLKEM-1, 2 every `Zq` operation on u16 is the exact Z_q operation",
        method: "compile-time lemma (`const` assertions in reference/src/mlkem/field.rs, over the constants the code uses, at the largest operands)",
        domain: "every canonical a, b, c, d",
        mutant: Mutant::Compile {
            name: "mlkem-mul-sub-offset-2q",
            krate: "reference",
        },
        cheap: true,
        needs_smt: false,
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
        statement: "`encrypt_u` of the optimized tier (k inverse NTTs, `optimized::mlkem::encrypt_u_merged`) = the reference (k², `reference::mlkem::encrypt_u_per_product`): u = NTT⁻¹(Âᵀ∘ŷ) + e1 as maps over Z_q, coefficient for coefficient; byte for byte on the u16 instance given MLKEM-1, 2 (proved) and MLKEM-3 (argued)",
        method: "symbolic evaluation of both shipped kernels (with the shared `multiply_ntts`, `ntt_add`, `inverse_ntt`, `poly_add`) over exact forms of degree <= 2 in Z_q; equal forms for every output coefficient; the u16 instance computes the same map (MLKEM-1, 2 proved; MLKEM-3 argued)",
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
