//! Exact polynomial forms over Z_m of degree at most two: the symbolic values of the
//! ML-KEM and sntrup761 proofs.
//!
//! A [`Form`] is Σ c_i·μ_i with coefficients in Z_m and monomials μ_i that are 1, a
//! variable, or a product of two variables. Running a kernel that only adds,
//! subtracts and multiplies over forms computes, exactly, the polynomial map the
//! kernel implements: for a linear map the forms are the rows of its matrix, for a
//! bilinear one the coefficients of its bilinear form. Two kernels whose output forms
//! are equal agree on every input. A product of degree above two is refused (the
//! check fails) rather than approximated.

#![allow(
    clippy::missing_panics_doc,
    reason = "the symbolic builders panic on a misuse (an ill-sorted term, a width mismatch): a bug in a proof, which `run_one` reports as a failed check"
)]

use std::fmt;

/// A monomial: `(a << 32) | b` with variables numbered from 1; `a = 0` for degree at
/// most one, `0` itself is the constant monomial 1.
pub type Mono = u64;

/// The product of two monomials, `None` above degree two.
fn mono_mul(x: Mono, y: Mono) -> Option<Mono> {
    let vars = |m: Mono| -> [u32; 2] { [(m >> 32) as u32, m as u32] };
    let mut v: Vec<u32> = vars(x)
        .into_iter()
        .chain(vars(y))
        .filter(|&i| i != 0)
        .collect();
    if v.len() > 2 {
        return None;
    }
    v.sort_unstable();
    Some(match v.as_slice() {
        [] => 0,
        [a] => u64::from(*a),
        [a, b] => (u64::from(*a) << 32) | u64::from(*b),
        _ => unreachable!("at most two variables"),
    })
}

/// A polynomial of degree <= 2 over Z_m, terms sorted by monomial, coefficients in
/// [1, m).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Form {
    /// The modulus (0 while the form is zero and no modulus was seen).
    m: u32,
    terms: Vec<(Mono, u32)>,
}

impl fmt::Debug for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Form(mod {}, {} terms)", self.m, self.terms.len())
    }
}

fn modulus(a: u32, b: u32) -> u32 {
    match (a, b) {
        (0, x) | (x, 0) => x,
        (x, y) => {
            assert_eq!(x, y, "forms over different moduli");
            x
        }
    }
}

impl Form {
    /// The zero form.
    pub const fn zero() -> Self {
        Form {
            m: 0,
            terms: Vec::new(),
        }
    }

    /// The constant `c` mod `m`.
    pub fn constant(m: u32, c: u64) -> Self {
        let c = (c % u64::from(m)) as u32;
        Form {
            m,
            terms: if c == 0 { Vec::new() } else { vec![(0, c)] },
        }
    }

    /// The variable numbered `v` (>= 1).
    pub fn var(m: u32, v: u32) -> Self {
        assert!(v >= 1, "variables are numbered from 1");
        Form {
            m,
            terms: vec![(u64::from(v), 1 % m)],
        }
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether the form is zero.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The terms (monomial, coefficient).
    pub fn terms(&self) -> &[(Mono, u32)] {
        &self.terms
    }

    /// The constant term, when the form is a constant.
    pub fn as_constant(&self) -> Option<u32> {
        match self.terms.as_slice() {
            [] => Some(0),
            [(0, c)] => Some(*c),
            _ => None,
        }
    }

    /// `a·self + b·other`.
    fn combine(&self, a: u32, other: &Form, b: u32) -> Form {
        let m = modulus(self.m, other.m);
        if m == 0 {
            return Form::zero();
        }
        let m64 = u64::from(m);
        let (a, b) = (u64::from(a) % m64, u64::from(b) % m64);
        let mut out = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        let (x, y) = (&self.terms, &other.terms);
        while i < x.len() || j < y.len() {
            let (mono, c) = if j == y.len() || (i < x.len() && x[i].0 < y[j].0) {
                i += 1;
                (x[i - 1].0, a * u64::from(x[i - 1].1) % m64)
            } else if i == x.len() || y[j].0 < x[i].0 {
                j += 1;
                (y[j - 1].0, b * u64::from(y[j - 1].1) % m64)
            } else {
                i += 1;
                j += 1;
                (
                    x[i - 1].0,
                    (a * u64::from(x[i - 1].1) + b * u64::from(y[j - 1].1)) % m64,
                )
            };
            if c != 0 {
                out.push((mono, c as u32));
            }
        }
        Form { m, terms: out }
    }

    /// `self + other`.
    pub fn add(&self, other: &Form) -> Form {
        self.combine(1, other, 1)
    }

    /// `self += other`, in place; appending when every monomial of `other` sorts after
    /// those of `self` (the common case of a running sum).
    pub fn add_assign(&mut self, other: &Form) {
        let m = modulus(self.m, other.m);
        match (self.terms.last(), other.terms.first()) {
            (_, None) => {}
            (Some(&(last, _)), Some(&(first, _))) if first > last => {
                self.m = m;
                self.terms.extend_from_slice(&other.terms);
            }
            (None, Some(_)) => {
                self.m = m;
                self.terms.extend_from_slice(&other.terms);
            }
            _ => *self = self.add(other),
        }
    }

    /// `self − other`.
    pub fn sub(&self, other: &Form) -> Form {
        let m = modulus(self.m, other.m);
        if m == 0 {
            return Form::zero();
        }
        self.combine(1, other, m - 1)
    }

    /// `c·self`.
    pub fn scale(&self, c: u32) -> Form {
        self.combine(c, &Form::zero(), 0)
    }

    /// `self·other`.
    ///
    /// # Panics
    /// When the product has degree above two (the check that ran it fails).
    pub fn mul(&self, other: &Form) -> Form {
        if let Some(c) = other.as_constant() {
            return self.scale(c).with_modulus(modulus(self.m, other.m));
        }
        if let Some(c) = self.as_constant() {
            return other.scale(c).with_modulus(modulus(self.m, other.m));
        }
        let m = modulus(self.m, other.m);
        let m64 = u64::from(m);
        let mut prods: Vec<(Mono, u64)> = Vec::with_capacity(self.len() * other.len());
        for &(x, cx) in &self.terms {
            for &(y, cy) in &other.terms {
                let mono = mono_mul(x, y)
                    .unwrap_or_else(|| panic!("a product of degree above two in a symbolic run"));
                prods.push((mono, u64::from(cx) * u64::from(cy) % m64));
            }
        }
        prods.sort_unstable_by_key(|p| p.0);
        let mut terms: Vec<(Mono, u32)> = Vec::with_capacity(prods.len());
        for (mono, c) in prods {
            match terms.last_mut() {
                Some((last, acc)) if *last == mono => {
                    *acc = ((u64::from(*acc) + c) % m64) as u32;
                }
                _ => terms.push((mono, c as u32)),
            }
        }
        terms.retain(|t| t.1 != 0);
        Form { m, terms }
    }

    fn with_modulus(mut self, m: u32) -> Form {
        if self.m == 0 {
            self.m = m;
        }
        self
    }

    /// The same form reduced mod `m2` (a divisor of the modulus, or any modulus when
    /// the coefficients are read as integers in [0, m)).
    pub fn reduce(&self, m2: u32) -> Form {
        let terms = self
            .terms
            .iter()
            .map(|&(mono, c)| (mono, c % m2))
            .filter(|t| t.1 != 0)
            .collect();
        Form { m: m2, terms }
    }

    /// The modulus (0 for a zero form that never met one).
    pub fn modulus(&self) -> u32 {
        self.m
    }

    /// Evaluates the form at an assignment of the variables (for self-checks).
    pub fn eval(&self, x: impl Fn(u32) -> u64) -> u64 {
        let m = u64::from(self.m.max(1));
        self.terms.iter().fold(0, |acc, &(mono, c)| {
            let (a, b) = ((mono >> 32) as u32, mono as u32);
            let mut t = u64::from(c);
            for v in [a, b] {
                if v != 0 {
                    t = t * (x(v) % m) % m;
                }
            }
            (acc + t) % m
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_integers_mod_m() {
        let m = 3329;
        let x = Form::var(m, 1);
        let y = Form::var(m, 2);
        let f = x.add(&y).mul(&x.sub(&y)).add(&Form::constant(m, 5));
        // (x + y)(x − y) + 5 = x² − y² + 5
        for (a, b) in [(0u64, 0u64), (1, 2), (3328, 17), (1234, 3000)] {
            let want = (a * a + (3329 - b * b % 3329) + 5) % 3329;
            assert_eq!(f.eval(|v| if v == 1 { a } else { b }), want);
        }
        assert_eq!(f.len(), 3);
        assert!(x.sub(&x).is_empty());
    }

    #[test]
    #[should_panic(expected = "degree above two")]
    fn degree_three_is_refused() {
        let x = Form::var(7, 1);
        let _ = x.mul(&x).mul(&x);
    }
}
