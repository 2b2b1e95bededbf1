//! Symbolic machine words over GF(2): the values of the NTRU proofs.
//!
//! Each bit of a [`Word`] is either known as a Boolean polynomial (algebraic normal
//! form: an XOR of monomials, each a product of at most two input bits) or unknown
//! ([`Bit::Junk`], any value). XOR, AND and OR are exact on known bits (AND and OR
//! refuse degree above two by giving `Junk`); shifts move bits. Integer
//! multiplication — used by the portable carry-less multiply and by the bit packing,
//! which rely on products whose partial products never collide — is handled by a
//! carry analysis: column t of the product receives partial products and a carry
//! whose largest possible value is tracked; bit t is the XOR of its partial products
//! exactly when no carry can enter the column, and `Junk` otherwise. So a code path
//! that only works by luck leaves `Junk` where the proof needs a known bit, and the
//! check fails.

#![allow(
    clippy::missing_panics_doc,
    reason = "the symbolic builders panic on a misuse (an ill-sorted term, a width mismatch): a bug in a proof, which `run_one` reports as a failed check"
)]

use std::fmt;

/// A monomial over Boolean variables numbered from 1: `(a << 16) | b`, `a < b`,
/// `a = 0` for a single variable, `0` for the constant 1.
pub type Mono = u32;

fn mono_mul(x: Mono, y: Mono) -> Option<Mono> {
    let mut v: Vec<u32> = [x >> 16, x & 0xffff, y >> 16, y & 0xffff]
        .into_iter()
        .filter(|&i| i != 0)
        .collect();
    v.sort_unstable();
    v.dedup(); // x·x = x for Boolean x
    match v.as_slice() {
        [] => Some(0),
        [a] => Some(*a),
        [a, b] => Some((a << 16) | b),
        _ => None,
    }
}

/// A Boolean polynomial: the XOR of its monomials (sorted, distinct).
#[derive(Clone, PartialEq, Eq, Default, Hash)]
pub struct Anf(Vec<Mono>);

impl fmt::Debug for Anf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Anf{:?}", self.0)
    }
}

impl Anf {
    /// 0.
    pub fn zero() -> Self {
        Anf(Vec::new())
    }
    /// 1.
    pub fn one() -> Self {
        Anf(vec![0])
    }
    /// The variable `v` (1 <= v < 2^16).
    pub fn var(v: u32) -> Self {
        assert!((1..1 << 16).contains(&v));
        Anf(vec![v])
    }
    /// The product of the variables `a` and `b`.
    pub fn var2(a: u32, b: u32) -> Self {
        Anf(vec![mono_mul(a, b).expect("two variables")])
    }
    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    /// Whether it is 1.
    pub fn is_one(&self) -> bool {
        self.0 == [0]
    }
    /// The monomials.
    pub fn monomials(&self) -> &[Mono] {
        &self.0
    }
    /// XOR.
    pub fn xor(&self, o: &Anf) -> Anf {
        let (x, y) = (&self.0, &o.0);
        let mut out = Vec::with_capacity(x.len() + y.len());
        let (mut i, mut j) = (0, 0);
        while i < x.len() && j < y.len() {
            match x[i].cmp(&y[j]) {
                std::cmp::Ordering::Less => {
                    out.push(x[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(y[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&x[i..]);
        out.extend_from_slice(&y[j..]);
        Anf(out)
    }
    /// AND (the product), `None` above degree two.
    pub fn and(&self, o: &Anf) -> Option<Anf> {
        if self.is_zero() || o.is_zero() {
            return Some(Anf::zero());
        }
        if self.is_one() {
            return Some(o.clone());
        }
        if o.is_one() {
            return Some(self.clone());
        }
        let mut prods = Vec::with_capacity(self.0.len() * o.0.len());
        for &a in &self.0 {
            for &b in &o.0 {
                prods.push(mono_mul(a, b)?);
            }
        }
        Some(xor_all(prods))
    }
}

/// The XOR of a list of monomials (pairs cancel).
pub fn xor_all(mut monos: Vec<Mono>) -> Anf {
    monos.sort_unstable();
    let mut out: Vec<Mono> = Vec::with_capacity(monos.len());
    for m in monos {
        if out.last() == Some(&m) {
            out.pop();
        } else {
            out.push(m);
        }
    }
    Anf(out)
}

/// One symbolic bit.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Bit {
    /// Known as a Boolean polynomial of the inputs.
    Known(Anf),
    /// Unknown (any value).
    Junk,
}

impl Bit {
    /// The known bit 0.
    pub fn zero() -> Self {
        Bit::Known(Anf::zero())
    }
    fn is_zero(&self) -> bool {
        matches!(self, Bit::Known(a) if a.is_zero())
    }
    fn xor(&self, o: &Bit) -> Bit {
        match (self, o) {
            (Bit::Known(a), Bit::Known(b)) => Bit::Known(a.xor(b)),
            _ => Bit::Junk,
        }
    }
    fn and(&self, o: &Bit) -> Bit {
        match (self, o) {
            _ if self.is_zero() || o.is_zero() => Bit::zero(),
            (Bit::Known(a), Bit::Known(b)) => a.and(b).map_or(Bit::Junk, Bit::Known),
            _ => Bit::Junk,
        }
    }
    fn or(&self, o: &Bit) -> Bit {
        match (self, o) {
            _ if self.is_zero() => o.clone(),
            _ if o.is_zero() => self.clone(),
            (Bit::Known(a), Bit::Known(b)) => match a.and(b) {
                // a | b = a ^ b ^ ab
                Some(ab) => Bit::Known(a.xor(b).xor(&ab)),
                None => Bit::Junk,
            },
            _ => Bit::Junk,
        }
    }
}

/// A symbolic machine word: `bits[i]` is bit i.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Word {
    /// The bits, least significant first.
    pub bits: Vec<Bit>,
}

impl Word {
    /// The constant `x` on `width` <= 128 bits.
    pub fn constant(width: usize, x: u128) -> Word {
        Word {
            bits: (0..width)
                .map(|i| {
                    if (x >> i) & 1 == 1 {
                        Bit::Known(Anf::one())
                    } else {
                        Bit::zero()
                    }
                })
                .collect(),
        }
    }
    /// A word of unknown bits.
    pub fn junk(width: usize) -> Word {
        Word {
            bits: vec![Bit::Junk; width],
        }
    }
    /// The width in bits.
    pub fn width(&self) -> usize {
        self.bits.len()
    }
    fn zip(&self, o: &Word, f: impl Fn(&Bit, &Bit) -> Bit) -> Word {
        assert_eq!(self.width(), o.width(), "word widths");
        Word {
            bits: self
                .bits
                .iter()
                .zip(&o.bits)
                .map(|(a, b)| f(a, b))
                .collect(),
        }
    }
    /// XOR.
    pub fn xor(&self, o: &Word) -> Word {
        self.zip(o, Bit::xor)
    }
    /// AND.
    pub fn and(&self, o: &Word) -> Word {
        self.zip(o, Bit::and)
    }
    /// OR.
    pub fn or(&self, o: &Word) -> Word {
        self.zip(o, Bit::or)
    }
    /// Shift left by `s` (bits shifted out are dropped).
    pub fn shl(&self, s: u32) -> Word {
        let s = s as usize;
        let w = self.width();
        assert!(s < w, "shift {s} of a {w}-bit word");
        Word {
            bits: (0..w)
                .map(|i| {
                    if i < s {
                        Bit::zero()
                    } else {
                        self.bits[i - s].clone()
                    }
                })
                .collect(),
        }
    }
    /// Logical shift right by `s`.
    pub fn shr(&self, s: u32) -> Word {
        let s = s as usize;
        let w = self.width();
        assert!(s < w, "shift {s} of a {w}-bit word");
        Word {
            bits: (0..w)
                .map(|i| {
                    if i + s < w {
                        self.bits[i + s].clone()
                    } else {
                        Bit::zero()
                    }
                })
                .collect(),
        }
    }
    /// Zero-extends or truncates to `width` bits.
    pub fn resize(&self, width: usize) -> Word {
        Word {
            bits: (0..width)
                .map(|i| self.bits.get(i).cloned().unwrap_or_else(Bit::zero))
                .collect(),
        }
    }
    /// The integer product modulo 2^width, with the carry analysis of the module
    /// documentation.
    pub fn mul(&self, o: &Word) -> Word {
        let w = self.width();
        assert_eq!(w, o.width(), "word widths");
        let mut bits = Vec::with_capacity(w);
        // Largest value the carry into the current column can take.
        let mut carry_max: u64 = 0;
        for t in 0..w {
            let mut monos: Vec<Mono> = Vec::new();
            let mut junk = false;
            let mut count: u64 = 0;
            for i in 0..=t {
                let (a, b) = (&self.bits[i], &o.bits[t - i]);
                if a.is_zero() || b.is_zero() {
                    continue;
                }
                count += 1;
                match a.and(b) {
                    Bit::Known(p) => monos.extend_from_slice(p.monomials()),
                    Bit::Junk => junk = true,
                }
            }
            bits.push(if carry_max == 0 && !junk {
                Bit::Known(xor_all(monos))
            } else {
                Bit::Junk
            });
            carry_max = (count + carry_max) / 2;
        }
        Word { bits }
    }
    /// Whether every bit is known.
    pub fn is_known(&self) -> bool {
        self.bits.iter().all(|b| matches!(b, Bit::Known(_)))
    }
    /// The `width`-bit word whose bit i is the variable `first + i`.
    pub fn vars(width: usize, first: u32) -> Word {
        Word {
            bits: (0..width)
                .map(|i| Bit::Known(Anf::var(first + i as u32)))
                .collect(),
        }
    }
    /// The word's value (at most 128 bits) when variable v is `x(v)`; `None` if a
    /// bit is unknown.
    ///
    /// # Panics
    /// On a word wider than 128 bits.
    pub fn eval(&self, x: &dyn Fn(u32) -> bool) -> Option<u128> {
        assert!(
            self.width() <= 128,
            "a {}-bit word has no u128 value",
            self.width()
        );
        let mut r = 0u128;
        for (i, b) in self.bits.iter().enumerate() {
            match b {
                Bit::Known(a) => {
                    let mut v = false;
                    for &m in a.monomials() {
                        let (p, q) = (m >> 16, m & 0xffff);
                        v ^= (p == 0 || x(p)) && (q == 0 || x(q));
                    }
                    r |= u128::from(v) << i;
                }
                Bit::Junk => return None,
            }
        }
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(w: &Word, x: &dyn Fn(u32) -> bool) -> Option<u128> {
        w.eval(x)
    }

    fn vars(width: usize, first: u32) -> Word {
        Word::vars(width, first)
    }

    #[test]
    fn products_without_collisions_are_known_and_exact() {
        // 4-bit operands with bits spread out: (x0 + 8x1) * (y0 + 2y1) has no
        // colliding partial products, so every bit is known.
        let x = vars(2, 1);
        let y = vars(2, 3);
        let xs = Word {
            bits: vec![
                x.bits[0].clone(),
                Bit::zero(),
                Bit::zero(),
                x.bits[1].clone(),
            ],
        }
        .resize(8);
        let ys = y.resize(8);
        let p = xs.mul(&ys);
        assert!(p.is_known());
        for bits in 0..16u32 {
            let val = |v: u32| (bits >> (v - 1)) & 1 == 1;
            let xv = u128::from(val(1)) + 8 * u128::from(val(2));
            let yv = u128::from(val(3)) + 2 * u128::from(val(4));
            assert_eq!(eval(&p, &val), Some(xv * yv));
        }
    }

    #[test]
    fn colliding_products_give_junk_where_carries_can_enter() {
        let x = vars(2, 1).resize(4);
        let p = x.mul(&x); // (x0 + 2x1)^2: column 1 gets x0x1 twice: carries into 2
        assert!(matches!(p.bits[0], Bit::Known(_)));
        assert!(matches!(p.bits[2], Bit::Junk));
    }
}
