//! ntruhps2048509 (optimization 3): the addition-chain `poly_R2_inv` returns the
//! inverse mod (2, Φ_509) for every invertible input.
//!
//! The bit-level code (packing, multi-squarings, the portable carry-less multiply,
//! Karatsuba, the fold) is written once over the word trait
//! `optimized::ntruhps2048509::r2_inv::Bits`; the library instantiates it with
//! `u16`/`u64`/`u128`, the proofs with [`SymBits`], whose words carry one Boolean
//! polynomial of the inputs per bit (`super::gf2`). The chain itself is generic over
//! its element type and its two operations, and runs here over exponents.

use optimized::ntruhps2048509::Pclmul;
use optimized::ntruhps2048509::r2_inv::{
    Bits, CHAIN, ChainOps, SQUARINGS, Sse, benes_for, clmul64_portable_over, clmul64_sse_over,
    multisquare_over, r2_from_poly_over, r2_inv_chain_over, r2_mul_with, r2_to_poly_over,
};
use reference::ntruhps2048509::params::N;

use super::gf2::{Anf, Bit, Word, xor_all};
use super::{CheckResult, Evidence, Failure, Mutant, Obligation, Optimization, Planted};

/// The symbolic instance of `Bits`: every word is a [`Word`] of Boolean polynomials.
#[derive(Clone, Copy, Debug)]
pub struct SymBits;

impl Bits for SymBits {
    type W16 = Word;
    type W64 = Word;
    type W128 = Word;
    fn c16(x: u16) -> Word {
        Word::constant(16, u128::from(x))
    }
    fn c64(x: u64) -> Word {
        Word::constant(64, u128::from(x))
    }
    fn c128(x: u128) -> Word {
        Word::constant(128, x)
    }
    fn from16(x: &Word) -> Word {
        x.resize(64)
    }
    fn to16(x: &Word) -> Word {
        x.resize(16)
    }
    fn xor(a: &Word, b: &Word) -> Word {
        a.xor(b)
    }
    fn and(a: &Word, b: &Word) -> Word {
        a.and(b)
    }
    fn or(a: &Word, b: &Word) -> Word {
        a.or(b)
    }
    fn shl(a: &Word, s: u32) -> Word {
        a.shl(s)
    }
    fn shr(a: &Word, s: u32) -> Word {
        a.shr(s)
    }
    fn wrapping_mul(a: &Word, b: &Word) -> Word {
        a.mul(b)
    }
    fn widen(a: &Word) -> Word {
        a.resize(128)
    }
    fn lo(a: &Word) -> Word {
        a.resize(64)
    }
    fn hi(a: &Word) -> Word {
        a.shr(64).resize(64)
    }
    fn mul128(a: &Word, b: &Word) -> Word {
        a.mul(b)
    }
    fn xor128(a: &Word, b: &Word) -> Word {
        a.xor(b)
    }
    fn and128(a: &Word, b: &Word) -> Word {
        a.and(b)
    }
    fn or128(a: &Word, b: &Word) -> Word {
        a.or(b)
    }
    /// The zeroize: each word becomes the constant 0 of its width (a wipe before a
    /// value's last use changes what the proofs see).
    fn wipe16(x: &mut [Word]) {
        for w in x {
            *w = Word::constant(w.width(), 0);
        }
    }
    fn wipe64(x: &mut [Word]) {
        Self::wipe16(x);
    }
}

/// The 512-bit value whose bit i is the variable `first + i` (bits >= `known` are 0).
fn r2_vars(first: u32, known: usize) -> [Word; 8] {
    core::array::from_fn(|w| Word {
        bits: (0..64)
            .map(|b| {
                let i = 64 * w + b;
                if i < known {
                    Bit::Known(Anf::var(first + i as u32))
                } else {
                    Bit::zero()
                }
            })
            .collect(),
    })
}

fn bit(x: &[Word], i: usize) -> &Bit {
    &x[i / 64].bits[i % 64]
}

/// The carry-less product as the ISA defines PCLMULQDQ: bit t = XOR over i + j = t
/// of a_i·b_j.
fn clmul_spec(a: Word, b: Word) -> Word {
    let mut bits = Vec::with_capacity(128);
    for t in 0..128 {
        let mut monos = Vec::new();
        let mut junk = false;
        for i in 0..64 {
            if t >= i && t - i < 64 {
                match (&a.bits[i], &b.bits[t - i]) {
                    (Bit::Known(x), Bit::Known(y)) => match x.and(y) {
                        Some(p) => monos.extend_from_slice(p.monomials()),
                        None => junk = true,
                    },
                    _ => junk = true,
                }
            }
        }
        bits.push(if junk {
            Bit::Junk
        } else {
            Bit::Known(xor_all(monos))
        });
    }
    Word { bits }
}

fn clmul_portable(a: Word, b: Word) -> Word {
    clmul64_portable_over::<SymBits>(a, b)
}

/// A 64×64 multiply `f` run on symbolic operands (a = variables 1..=64, b = variables
/// 101..=164) against the carry-less product: `Ok(None)` when its 128 bits are the
/// product's, else the first bit that is not, with what `f` gave there; `Err` for a
/// result that is not 128 bits wide.
fn wrong_clmul_bit(f: impl Fn(Word, Word) -> Word) -> Result<Option<(usize, Bit)>, Failure> {
    let (a, b) = (Word::vars(64, 1), Word::vars(64, 101));
    let want = clmul_spec(a.clone(), b.clone());
    let got = f(a, b);
    if got.width() != 128 {
        return Err(Failure::failed(format!(
            "the product is {} bits wide, not 128",
            got.width()
        )));
    }
    Ok((0..128)
        .find(|&t| got.bits[t] != want.bits[t])
        .map(|t| (t, got.bits[t].clone())))
}

/// N3-CLMUL: the portable carry-less multiply is the carry-less product.
fn clmul_exact() -> CheckResult {
    if let Some((t, bit)) = wrong_clmul_bit(clmul_portable)? {
        return Err(Failure::failed(match bit {
            Bit::Junk => {
                format!("bit {t} of the product is not determined (a carry can reach it)")
            }
            Bit::Known(_) => format!("bit {t} of the product is not Σ_(i+j={t}) a_i·b_j"),
        }));
    }
    Ok(Evidence::proved(
        "128 product bits, each exactly the XOR of its 64×64 partial products a_i·b_j; no carry reaches a kept bit",
    ))
}

/// PCLMULQDQ and the SSE2 lane moves as the ISA defines them, over [`Word`]s (a
/// register is a 128-bit word, lane 0 its low 64 bits). `tests/prove.rs` compares it
/// with the CPU's instance on pseudorandom register pairs.
#[derive(Clone, Copy, Debug)]
pub struct IsaSse;

impl IsaSse {
    /// Lane 1 (`high`) or lane 0 of a register.
    fn lane(x: &Word, high: bool) -> Word {
        if high { SymBits::hi(x) } else { SymBits::lo(x) }
    }
}

impl Sse for IsaSse {
    type W64 = Word;
    type W128 = Word;
    type Xmm = Word;
    fn set_low(self, a: Word) -> Word {
        SymBits::widen(&a)
    }
    /// Intel SDM, PCLMULQDQ: imm8\[0\] selects the first operand's quadword, imm8\[4\]
    /// the second's; the result is their carry-less product.
    fn clmulepi64<const IMM: i32>(self, x: &Word, y: &Word) -> Word {
        clmul_spec(
            Self::lane(x, IMM & 0x01 != 0),
            Self::lane(y, IMM & 0x10 != 0),
        )
    }
    fn low_lane(self, x: &Word) -> Word {
        Self::lane(x, false)
    }
    /// PUNPCKHQDQ: the low lane is x's high lane, the high lane y's.
    fn unpackhi_epi64(self, x: &Word, y: &Word) -> Word {
        self.join(Self::lane(x, true), Self::lane(y, true))
    }
    fn join(self, lo: Word, hi: Word) -> Word {
        lo.resize(128).or(&hi.resize(128).shl(64))
    }
}

/// N3-PCLMUL: the shipped PCLMULQDQ multiply over the ISA's definitions of its
/// operations is the carry-less product. The model's PCLMULQDQ is the carry-less
/// product of the lanes it selects ([`clmul_spec`], the definition the result is
/// compared with), so what this covers is which lanes go in and how the halves come
/// back. On a CPU with PCLMULQDQ the native wrapper also runs every basis pair (a
/// spot-check of the CPU's instance).
fn pclmul_exact() -> CheckResult {
    if let Some((t, _)) = wrong_clmul_bit(|a, b| clmul64_sse_over(IsaSse, a, b))? {
        return Err(Failure::failed(format!(
            "over the ISA's operations, bit {t} of the wrapper's product is not Σ_(i+j={t}) a_i·b_j"
        )));
    }
    let on_cpu = match Pclmul::detect() {
        Some(p) => {
            for i in 0..64 {
                for j in 0..64 {
                    let got = p.clmul64(1 << i, 1 << j);
                    if got != 1u128 << (i + j) {
                        return Err(Failure::failed(format!(
                            "pclmulqdq(x^{i}, x^{j}) = {got:#x} on this CPU, not x^{}",
                            i + j
                        )));
                    }
                }
            }
            "; on this CPU, all 4096 basis pairs through the native wrapper too"
        }
        None if crate::simd::required() => {
            return Err(Failure::NotRun(format!(
                "this CPU has no PCLMULQDQ and {} is on: the native wrapper's basis pairs cannot run",
                crate::simd::REQUIRE_ENV
            )));
        }
        None => "; this CPU has no PCLMULQDQ: the native wrapper was not run here",
    };
    Ok(Evidence::proved(format!(
        "the shipped generic wrapper `clmul64_sse_over`, run over the ISA's definitions of its five operations, gives each of the 128 bits of the carry-less product of symbolic a, b (the lanes PCLMULQDQ selects and the halves read back; the instruction's product itself is the ISA's definition){on_cpu}"
    )))
}

/// Checks that `r` is the product a·b mod x^509 − 1 with a = vars 1.., b = vars 1001...
fn is_product(r: &[Word; 8], what: &str) -> Result<usize, Failure> {
    let mut terms = 0;
    for t in 0..512 {
        let want = if t < N {
            let mut monos = Vec::new();
            for i in 0..N {
                let j = (t + N - i) % N;
                monos.extend_from_slice(Anf::var2(1 + i as u32, 1001 + j as u32).monomials());
            }
            Bit::Known(xor_all(monos))
        } else {
            Bit::zero()
        };
        if *bit(r, t) != want {
            return Err(Failure::failed(match bit(r, t) {
                Bit::Junk => format!("{what}: bit {t} is not determined"),
                Bit::Known(_) => format!("{what}: bit {t} is not Σ_(i+j≡{t}) a_i·b_j"),
            }));
        }
        if let Bit::Known(x) = bit(r, t) {
            terms += x.monomials().len();
        }
    }
    Ok(terms)
}

/// N3-MUL: the Karatsuba product folded mod x^509 − 1 is a·b, with both
/// multiplies.
fn mul_exact() -> CheckResult {
    let a = r2_vars(1, N);
    let b = r2_vars(1001, N);
    let portable = r2_mul_with::<SymBits, _>(&clmul_portable, &a, &b);
    let terms = is_product(&portable, "portable")?;
    let spec = r2_mul_with::<SymBits, _>(&clmul_spec, &a, &b);
    is_product(
        &spec,
        "with the carry-less product of the ISA (PCLMULQDQ path)",
    )?;
    Ok(Evidence::proved(format!(
        "509 product bits equal Σ a_i·b_j over i + j ≡ t (mod 509) ({terms} monomials), bits 509..511 zero; 36 portable multiplies (and again with the ISA's carry-less product)"
    )))
}

/// The permutation a squaring map applies: output bit t is input bit `src[t]`.
fn as_permutation(x: &[Word; 8], what: &str) -> Result<Vec<usize>, Failure> {
    (0..512)
        .map(|t| match bit(x, t) {
            Bit::Known(a)
                if a.monomials().len() == 1
                    && a.monomials()[0] >= 1
                    && a.monomials()[0] < 1 << 16 =>
            {
                Ok(a.monomials()[0] as usize - 1)
            }
            _ => Err(Failure::failed(format!(
                "{what}: output bit {t} is not a single input bit"
            ))),
        })
        .collect()
}

/// N3-SQ: each multi-squaring is the k-fold squaring, and the squaring the shipped
/// product computes is x^i ↦ x^(2i mod 509).
fn multisquare_exact() -> CheckResult {
    let x = r2_vars(1, 512);
    // The squaring as the shipped product computes it (a·a, Boolean a_i² = a_i).
    let sq = r2_mul_with::<SymBits, _>(&clmul_portable, &r2_vars(1, N), &r2_vars(1, N));
    let mut square = Vec::with_capacity(N);
    for t in 0..512 {
        match bit(&sq, t) {
            Bit::Known(a) if t >= N && a.is_zero() => {}
            Bit::Known(a)
                if t < N
                    && a.monomials().len() == 1
                    && (1..=N as u32).contains(&a.monomials()[0]) =>
            {
                square.push(a.monomials()[0] as usize - 1);
            }
            _ => {
                return Err(Failure::failed(format!(
                    "r2_mul(a, a): bit {t} is not a single coefficient of a (or 0 above 508)"
                )));
            }
        }
    }
    for (t, &s) in square.iter().enumerate() {
        if (2 * s) % N != t {
            return Err(Failure::failed(format!(
                "squaring by r2_mul moves bit {s} to {t}, not to {}",
                (2 * s) % N
            )));
        }
    }
    for &k in &SQUARINGS {
        let got = as_permutation(
            &multisquare_over::<SymBits>(&x, benes_for(k)),
            "multisquare",
        )?;
        // k squarings: output bit t comes from input bit s with s·2^k ≡ t.
        for (t, &s) in got.iter().enumerate() {
            let mut src = t;
            if t < N {
                for _ in 0..k {
                    src = square[src];
                }
            }
            if s != src {
                return Err(Failure::failed(format!(
                    "multisquare by 2^{k}: output bit {t} is input bit {s}, the {k}-fold squaring gives {src}"
                )));
            }
        }
    }
    Ok(Evidence::proved(
        "each of the 8 Beneš networks (all 512 bits symbolic) is the permutation of k squarings by the shipped product, itself x^i ↦ x^(2i mod 509); bits 509..511 fixed",
    ))
}

/// N3-PACK: packing reads bit 0 of each coefficient, unpacking writes 0/1.
fn packing_exact() -> CheckResult {
    // Coefficients: bit 0 the variable, bits 1..15 anything.
    let coeffs: [Word; N] = core::array::from_fn(|i| {
        let mut w = Word::junk(16);
        w.bits[0] = Bit::Known(Anf::var(1 + i as u32));
        w
    });
    let packed = r2_from_poly_over::<SymBits>(&coeffs);
    for t in 0..512 {
        let want = if t < N {
            Bit::Known(Anf::var(1 + t as u32))
        } else {
            Bit::zero()
        };
        if *bit(&packed, t) != want {
            return Err(Failure::failed(format!(
                "r2_from_poly: bit {t} is not bit 0 of coefficient {t}"
            )));
        }
    }
    // Unpacking: bits 509..511 anything.
    let mut r = r2_vars(1, N);
    for t in N..512 {
        r[t / 64].bits[t % 64] = Bit::Junk;
    }
    let back = r2_to_poly_over::<SymBits>(&r);
    for (i, c) in back.iter().enumerate() {
        for (b, x) in c.bits.iter().enumerate() {
            let want = if b == 0 {
                Bit::Known(Anf::var(1 + i as u32))
            } else {
                Bit::zero()
            };
            if *x != want {
                return Err(Failure::failed(format!(
                    "r2_to_poly: coefficient {i} bit {b} is not {}",
                    if b == 0 { "the packed bit" } else { "0" }
                )));
            }
        }
    }
    Ok(Evidence::proved(
        "509 coefficients with 15 unknown high bits each pack to their bit 0, bits 509..511 zero; 512 bits unpack to 0/1 coefficients",
    ))
}

/// A non-negative integer, little-endian 64-bit words: exponents of the chain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exponent(Vec<u64>);

impl Exponent {
    fn from_u64(x: u64) -> Self {
        Exponent(vec![x]).trimmed()
    }
    fn trimmed(mut self) -> Self {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }
    fn shl(&self, k: u32) -> Self {
        let words = (k / 64) as usize;
        let bits = k % 64;
        let mut out = vec![0u64; self.0.len() + words + 1];
        for (i, &w) in self.0.iter().enumerate() {
            out[i + words] |= w << bits;
            if bits > 0 {
                out[i + words + 1] |= w >> (64 - bits);
            }
        }
        Exponent(out).trimmed()
    }
    fn add(&self, o: &Self) -> Self {
        let n = self.0.len().max(o.0.len()) + 1;
        let mut out = vec![0u64; n];
        let mut carry = 0u128;
        for (i, slot) in out.iter_mut().enumerate() {
            let s = u128::from(*self.0.get(i).unwrap_or(&0))
                + u128::from(*o.0.get(i).unwrap_or(&0))
                + carry;
            *slot = s as u64;
            carry = s >> 64;
        }
        Exponent(out).trimmed()
    }
}

/// A chain element over exponents: `Some(e)` is a^e; `None` is a value that is no
/// power of a known to be correct: a wiped element (the library zeroizes it) or a
/// slot read before the chain wrote it (the library's zero polynomial). Anything
/// computed from `None` is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChainExp(Option<Exponent>);

impl ChainExp {
    fn mul(&self, o: &Self) -> Self {
        ChainExp(self.0.as_ref().zip(o.0.as_ref()).map(|(x, y)| x.add(y)))
    }
}

/// The chain over exponents: x = a^e, squaring k times multiplies e by 2^k.
struct Exponents;

impl ChainOps for Exponents {
    type Elem = ChainExp;
    fn sq(x: &ChainExp, k: u32) -> ChainExp {
        ChainExp(x.0.as_ref().map(|e| e.shl(k)))
    }
    /// A wiped element is no longer a known power of a.
    fn wipe(elems: &mut [ChainExp]) {
        elems.fill(ChainExp(None));
    }
}

/// N3-CHAIN: the chain the code runs has exponent 2^508 − 2, and ord_509(2) = 508.
fn chain_exponent() -> CheckResult {
    let a = ChainExp(Some(Exponent::from_u64(1)));
    let Some(e) = r2_inv_chain_over::<Exponents, _>(&a, ChainExp::mul).0 else {
        return Err(Failure::failed(
            "the executed chain's exponent is unknown: it used an element after wiping it, or a slot it never wrote",
        ));
    };
    let want = {
        // 2^507 − 1 as words, then shifted left by one.
        let mut ones = vec![u64::MAX; 507 / 64];
        ones.push((1u64 << (507 % 64)) - 1);
        Exponent(ones).trimmed().shl(1)
    };
    if e != want {
        return Err(Failure::failed(
            "the executed chain's exponent is not 2^508 − 2",
        ));
    }
    // ord_509(2): the least d with 2^d ≡ 1 (mod 509), by enumeration.
    let mut x = 2usize;
    let mut d = 1;
    while x != 1 {
        x = x * 2 % N;
        d += 1;
    }
    if d != 508 {
        return Err(Failure::failed(format!("ord_509(2) = {d}, not 508")));
    }
    Ok(Evidence::proved(format!(
        "the shipped generic chain ({} multiplications, {} multi-squarings) run over exact exponents gives 2^508 − 2; ord_509(2) = 508 by enumeration",
        CHAIN.len(),
        CHAIN.len() + 1
    )))
}

/// The ntruhps2048509 obligations.
pub static OBLIGATIONS: &[Obligation] = &[
    Obligation {
        id: "N3-PACK",
        optimization: Optimization::NtruR2Inv,
        statement: "`r2_from_poly` packs bit 0 of coefficient i into bit i (bits 509..511 zero); `r2_to_poly` unpacks bit i into coefficient i ∈ {0, 1}",
        method: "symbolic evaluation over GF(2) (per-bit Boolean polynomials, high coefficient bits unknown); the packing's integer multiplies are checked collision-free by the carry analysis",
        domain: "every Poly (all 16 bits of every coefficient), every 512-bit value",
        mutant: Mutant::Plants(&[
            Planted::new(
                "ntruhps2048509-pack-gather-moves-a-term",
                "r2_from_poly: bit",
            ),
            Planted::new(
                "ntruhps2048509-unpack-mask-keeps-two-bits",
                "r2_to_poly: coefficient 0 bit 1 is not 0",
            ),
        ]),
        cheap: true,
        needs_smt: false,
        check: packing_exact,
    },
    Obligation {
        id: "N3-CLMUL",
        optimization: Optimization::NtruR2Inv,
        statement: "the portable `clmul64_portable(a, b)` (integer multiplies of operands with holes) is the 64×64 carry-less product",
        method: "symbolic evaluation over GF(2) with carry analysis: each kept bit is the XOR of its partial products and no carry can reach it (the hole-counting lemma, checked on the code)",
        domain: "every a, b (2^128)",
        mutant: Mutant::Plant(Planted::new(
            "ntruhps2048509-clmul-keeps-every-class",
            "of the product is not determined",
        )),
        cheap: true,
        needs_smt: false,
        check: clmul_exact,
    },
    Obligation {
        id: "N3-PCLMUL",
        optimization: Optimization::NtruR2Inv,
        statement: "the PCLMULQDQ multiply `Pclmul::clmul64(a, b)` is the 64×64 carry-less product",
        method: "symbolic evaluation over GF(2): the shipped generic wrapper `clmul64_sse_over` (a, b into the low lanes, one PCLMULQDQ, the two halves read back) run over the ISA's definitions of its five operations (`r2_inv::Sse`; PCLMULQDQ there is the carry-less product of the lanes it selects, so the check covers the lane selection and read-back); the CPU's instance is one line per operation, four intrinsics and the join of the two u64 halves (read from the code; a test compares it with the model operation by operation on pseudorandom registers); on a CPU with PCLMULQDQ, also all 4096 basis pairs through the native wrapper",
        domain: "every a, b (2^128), on a CPU that implements PCLMULQDQ and SSE2 as the ISA defines them",
        mutant: Mutant::Plants(&[
            Planted::new(
                "ntruhps2048509-pclmul-reads-the-high-lanes",
                "over the ISA's operations, bit 0 ",
            ),
            Planted::new(
                "ntruhps2048509-pclmul-high-half-from-the-low-lane",
                "over the ISA's operations, bit 64 ",
            ),
            Planted::new(
                "ntruhps2048509-pclmul-native-swaps-the-halves",
                "on this CPU, not x^",
            ),
        ]),
        cheap: true,
        needs_smt: false,
        check: pclmul_exact,
    },
    Obligation {
        id: "N3-MUL",
        optimization: Optimization::NtruR2Inv,
        statement: "`r2_mul_with` (two Karatsuba levels over 36 64×64 multiplies, then `fold509`) returns a·b mod x^509 − 1, bits 509..511 zero, with the portable multiply and with any multiply that is the carry-less product (the PCLMULQDQ path)",
        method: "symbolic evaluation over GF(2) as a bilinear form: each output bit is compared with Σ a_i·b_j over i + j ≡ t (mod 509)",
        domain: "every a, b in F2[x]/(x^509 − 1) (bits 509..511 zero, as `r2_from_poly` and every step return them)",
        mutant: Mutant::Plants(&[
            Planted::new(
                "ntruhps2048509-karatsuba-middle-term-keeps-hi",
                "portable: bit",
            ),
            Planted::new("ntruhps2048509-karatsuba-wipes-hi-early", "portable: bit"),
        ]),
        cheap: true,
        needs_smt: false,
        check: mul_exact,
    },
    Obligation {
        id: "N3-SQ",
        optimization: Optimization::NtruR2Inv,
        statement: "each multi-squaring `multisquare(a, benes_for(k))`, k ∈ {1, 3, 6, 15, 30, 63, 126, 252} (a Beneš network routed at compile time) is a^(2^k) mod x^509 − 1",
        method: "symbolic evaluation over GF(2) (a bit matrix): each network is the permutation obtained by applying k times the squaring that the shipped product computes on (a, a)",
        domain: "every 512-bit a (bits 509..511 stay where they are)",
        mutant: Mutant::Plant(Planted::new(
            "ntruhps2048509-benes-flips-a-mask-bit",
            "multisquare by",
        )),
        cheap: true,
        needs_smt: false,
        check: multisquare_exact,
    },
    Obligation {
        id: "N3-CHAIN",
        optimization: Optimization::NtruR2Inv,
        statement: "`r2_inv_chain` computes a^(2^508 − 2), which is a⁻¹ for every a invertible mod (2, Φ_509), so given exact products and multi-squarings (N3-MUL, N3-SQ; N3-PCLMUL for the PCLMULQDQ tier) and packing (N3-PACK) the chain returns the r that the reference divstep's contract `r2_is_inverse` requires (that `poly_r2_inv` only composes these pieces is read from the code: What the proofs rest on)",
        method: "the shipped generic chain (element type and its two operations are parameters, so it can only combine them) run over exact exponents; ord_509(2) = 508 by enumeration, so F2[x]/Φ_509 = GF(2^508) and a^(2^508 − 2) = a⁻¹",
        domain: "every a ∈ F2[x]/(x^509 − 1), invertible mod (2, Φ_509)",
        mutant: Mutant::Plants(&[
            Planted::new(
                "ntruhps2048509-chain-skips-the-final-squaring",
                "the executed chain's exponent is not",
            ),
            Planted::new(
                "ntruhps2048509-chain-wipes-a-square-early",
                "the executed chain's exponent is unknown",
            ),
        ]),
        cheap: true,
        needs_smt: false,
        check: chain_exponent,
    },
];
