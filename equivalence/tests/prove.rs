//! `refopt prove` in the test suite.
//!
//! * The cheap obligations run here through the same code path as `refopt prove`
//!   (`prove::run_one`); the heavy ones (the exhaustive MLKEM-1, MLKEM-2, S-3 and the
//!   SMT proofs ED-2, ED-3, MLKEM-3) run in `refopt prove` only (CI runs it in full).
//! * Without an SMT solver the SMT rows cannot run: the test then prints one note
//!   naming them and how to install z3, and passes — unless `REFOPT_REQUIRE_SMT=1`,
//!   which makes it a failure (CI sets it).
//! * Every obligation has a mutant registered in `reference::plant::ALL`.
//! * The symbolic types mean what the machine types mean: the symbolic runs,
//!   evaluated at sampled inputs, give the concrete outputs (the trust base of the
//!   proofs, checked on samples).

// Test indices and sampled values only: no secrets.
#![allow(clippy::integer_division_remainder_used)]

use equivalence::prove::{self, Coverage, Failure};
use equivalence::vectors::switched_on;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

#[test]
fn cheap_obligations_are_proved() {
    let mut smt_not_run = Vec::new();
    let mut ran = 0;
    for o in prove::obligations().into_iter().filter(|o| o.cheap) {
        let row = prove::run_one(o);
        match &row.result {
            Ok(e) => {
                // The rows that are argued, not proved, are named: a new one must be
                // added here on purpose.
                let want = if prove::ARGUED.contains(&o.id) {
                    Coverage::Argued
                } else {
                    Coverage::Proved
                };
                assert_eq!(e.coverage, want, "{}: {}", o.id, e.detail);
                ran += 1;
            }
            Err(Failure::NotRun(why)) if o.needs_smt => {
                assert!(
                    !switched_on("REFOPT_REQUIRE_SMT"),
                    "{} did not run and REFOPT_REQUIRE_SMT is on: {why}",
                    o.id
                );
                smt_not_run.push(o.id);
            }
            Err(Failure::NotRun(why)) => {
                assert!(
                    !equivalence::simd::required(),
                    "{} did not run and REFOPT_REQUIRE_SIMD is on: {why}",
                    o.id
                );
                eprintln!("note: {} not run: {why}", o.id);
            }
            Err(other) => panic!("{}: {other}", o.id),
        }
    }
    assert!(ran >= 10, "only {ran} cheap obligations ran");
    if !smt_not_run.is_empty() {
        // Straight to stderr, past the test harness's capture: the note must show.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "note: no SMT solver, so the SMT proofs {} (and the check of the SMT terms' \
             meaning) did not run here; `refopt prove` reports them, and ED-2, ED-3, \
             MLKEM-3, as not run. To run them, {}.",
            smt_not_run.join(", "),
            prove::smt::INSTALL_HINT
        );
    }
}

#[test]
fn every_obligation_has_a_registered_mutant() {
    let plants = reference::plant::ALL;
    let obligations = prove::obligations();
    let mut ids = std::collections::HashSet::new();
    for o in &obligations {
        assert!(ids.insert(o.id), "duplicate obligation ID {}", o.id);
        assert!(
            !matches!(o.mutant, prove::Mutant::Plants(ps) if ps.is_empty()),
            "{}: an empty list of plants shows nothing",
            o.id
        );
        for planted in o.mutant.plants() {
            assert!(
                !planted.reports.trim().is_empty(),
                "{}: plant {} must name the words its check reports (an empty phrase is in every report)",
                o.id,
                planted.name
            );
        }
        for (i, &name) in o.mutant.plant_names().iter().enumerate() {
            let p = plants.iter().find(|p| p.name == name).unwrap_or_else(|| {
                panic!("{}: plant {name} is not in reference::plant::ALL", o.id)
            });
            // The first plant is the obligation's own; later ones may be borrowed
            // from the bug zoo or another obligation of the same scheme, to reach
            // another piece of the check (ED-2).
            if i == 0 {
                assert_eq!(p.caught_by, format!("prove {}", o.id), "{name}");
            } else {
                let scheme = o.id.split('-').next().unwrap_or_default();
                assert!(
                    p.caught_by == "zoo" || p.caught_by.starts_with(&format!("prove {scheme}-")),
                    "{}: borrowed plant {name} is caught by {}",
                    o.id,
                    p.caught_by
                );
            }
        }
    }
    for p in plants.iter().filter(|p| p.caught_by.starts_with("prove ")) {
        assert!(
            obligations
                .iter()
                .any(|o| o.mutant.plant_names().contains(&p.name)),
            "plant {} claims to be caught by `{}` but no obligation uses it",
            p.name,
            p.caught_by
        );
    }
    assert!(
        obligations
            .iter()
            .all(|o| !o.statement.is_empty() && !o.domain.is_empty() && !o.method.is_empty())
    );
}

/// A value in 0..m from the sampled checks' fixed, reproducible generator (the
/// modulo bias, under 2^-51 for these m, does not matter to a sampled check).
fn below(g: &mut ChaCha8Rng, m: u64) -> u64 {
    g.next_u64() % m
}

#[test]
fn mlkem_forms_evaluate_to_the_u16_kernel() {
    use equivalence::prove::form::Form;
    use equivalence::prove::mlkem::ZqForm;
    use reference::mlkem::ntt::{N, NttPoly, Poly};
    use reference::mlkem::{Kernels, MAX_K, Matrix, Reference, encrypt_u_per_product};
    let k = 2;
    let var = |v: usize| ZqForm(Form::var(3329, v as u32));
    let a: Matrix<ZqForm> = core::array::from_fn(|j| {
        core::array::from_fn(|i| NttPoly(core::array::from_fn(|c| var(1 + (j * 4 + i) * N + c))))
    });
    let y: [NttPoly<ZqForm>; MAX_K] =
        core::array::from_fn(|j| NttPoly(core::array::from_fn(|c| var(1 + 16 * N + j * N + c))));
    let e1: [Poly<ZqForm>; MAX_K] =
        core::array::from_fn(|i| Poly(core::array::from_fn(|c| var(1 + 20 * N + i * N + c))));
    let mut u: [Poly<ZqForm>; MAX_K] = core::array::from_fn(|_| Poly::zero());
    encrypt_u_per_product(k, &a, &y, &e1, &mut u);
    let mut g = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..3 {
        let values: Vec<u16> = (0..=24 * N).map(|_| below(&mut g, 3329) as u16).collect();
        let ac: Matrix = core::array::from_fn(|j| {
            core::array::from_fn(|i| {
                NttPoly(core::array::from_fn(|c| values[1 + (j * 4 + i) * N + c]))
            })
        });
        let yc: [NttPoly; MAX_K] = core::array::from_fn(|j| {
            NttPoly(core::array::from_fn(|c| values[1 + 16 * N + j * N + c]))
        });
        let ec: [Poly; MAX_K] = core::array::from_fn(|i| {
            Poly(core::array::from_fn(|c| values[1 + 20 * N + i * N + c]))
        });
        let mut uc = [Poly::ZERO; MAX_K];
        Reference::encrypt_u(k, &ac, &yc, &ec, &mut uc);
        for i in 0..k {
            for c in 0..N {
                let got = u[i].0[c].0.eval(|v| u64::from(values[v as usize]));
                assert_eq!(got, u64::from(uc[i].0[c]), "u[{i}][{c}]");
            }
        }
    }
}

#[test]
fn sntrup761_forms_evaluate_to_the_integer_kernels() {
    use equivalence::prove::sntrup761::{SymArith, Val};
    use optimized::sntrup761::poly::rq_mult_small_deferred_over;
    use reference::sntrup761::poly::{r3_mult_per_step_over, rq_mult_small_per_step};
    use reference::sntrup761::{P, Q, Q12};
    let q = Q as u32;
    let f: [Val; P] =
        core::array::from_fn(|j| Val::input(q, 1 + j as u32, -i64::from(Q12), i64::from(Q12)));
    let g: [Val; P] = core::array::from_fn(|j| Val::input(q, 1001 + j as u32, -2, 2));
    let mut h: [Val; P] = core::array::from_fn(|_| f[0].clone());
    rq_mult_small_deferred_over::<SymArith>(&mut h, &f, &g);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let fc: [i16; P] = core::array::from_fn(|_| below(&mut rng, Q as u64) as i16 - Q12 as i16);
    let gc: [i8; P] = core::array::from_fn(|_| below(&mut rng, 5) as i8 - 2);
    let mut hc = [0i16; P];
    rq_mult_small_per_step(&mut hc, &fc, &gc);
    let value = |v: u32| -> u64 {
        let x = if v >= 1001 {
            i64::from(gc[(v - 1001) as usize])
        } else {
            i64::from(fc[(v - 1) as usize])
        };
        x.rem_euclid(i64::from(Q)) as u64
    };
    for i in 0..P {
        assert_eq!(
            h[i].form.eval(value),
            i64::from(hc[i]).rem_euclid(i64::from(Q)) as u64,
            "h[{i}]"
        );
    }
    // And R3 over forms mod 3.
    let f3: [Val; P] = core::array::from_fn(|j| Val::input(3, 1 + j as u32, -2, 2));
    let g3: [Val; P] = core::array::from_fn(|j| Val::input(3, 1001 + j as u32, -2, 2));
    let mut h3: [Val; P] = core::array::from_fn(|_| f3[0].clone());
    r3_mult_per_step_over::<SymArith>(&mut h3, &f3, &g3);
    let fc: [i8; P] = core::array::from_fn(|_| below(&mut rng, 5) as i8 - 2);
    let mut hc = [0i8; P];
    reference::sntrup761::poly::r3_mult_per_step(&mut hc, &fc, &gc);
    let value = |v: u32| -> u64 {
        let x = if v >= 1001 {
            gc[(v - 1001) as usize]
        } else {
            fc[(v - 1) as usize]
        };
        i64::from(x).rem_euclid(3) as u64
    };
    for i in 0..P {
        assert_eq!(
            h3[i].form.eval(value),
            i64::from(hc[i]).rem_euclid(3) as u64,
            "h3[{i}]"
        );
    }
}

/// S-9's symbolic byte stream means what a machine stream means: both tiers' draws run
/// over `Stream` (words whose bits name stream bits), evaluated at random streams,
/// equal the same generic functions run on `u8`/`u32` over those streams. A control
/// gives `byte_to_word` a wrong meaning (the byte's bits one place higher) and must be
/// reported.
#[test]
fn sntrup761_stream_words_evaluate_to_the_machine_words() {
    use equivalence::prove::sntrup761::{Stream, SymByte, SymWord};
    use optimized::sntrup761::random::draw_words_over;
    use reference::rng::Replay;
    use reference::sntrup761::random::{Bytes, WordSource, draw_words_per_coefficient_over};
    use reference::sntrup761::{P, RANDOM_POLY_BYTES};

    /// `Stream` with a wrong `byte_to_word`: bit i of the byte lands on word bit i + 1.
    #[derive(Default)]
    struct Shifted(Stream);
    impl WordSource for Shifted {
        type Byte = SymByte;
        type Word = SymWord;
        fn fill(&mut self, buf: &mut [SymByte]) {
            self.0.fill(buf);
        }
        fn zero_byte() -> SymByte {
            Stream::zero_byte()
        }
        fn byte_to_word(b: &SymByte) -> SymWord {
            Stream::word_shl(Stream::byte_to_word(b), 1) // wrong on purpose
        }
        fn word_shl(a: SymWord, s: u32) -> SymWord {
            Stream::word_shl(a, s)
        }
        fn word_add(a: SymWord, b: SymWord) -> SymWord {
            Stream::word_add(a, b)
        }
        fn word_from_le_bytes(b: [SymByte; 4]) -> SymWord {
            Stream::word_from_le_bytes(b)
        }
        fn wipe(b: &mut [SymByte]) {
            Stream::wipe(b);
        }
    }

    let eval = |w: &SymWord, stream: &[u8]| -> u32 {
        w.0.iter().enumerate().fold(0, |acc, (i, bit)| match bit {
            Some((pos, b)) => acc | (u32::from(stream[*pos as usize] >> b) & 1) << i,
            None => acc,
        })
    };
    let symbolic = [
        (
            "reference",
            draw_words_per_coefficient_over(&mut Stream::default()),
        ),
        ("batched", draw_words_over(&mut Stream::default())),
    ];
    let wrong = draw_words_per_coefficient_over(&mut Shifted::default());
    let mut g = ChaCha8Rng::seed_from_u64(9);
    let mut wrong_words = 0;
    for _ in 0..8 {
        let mut stream = vec![0u8; RANDOM_POLY_BYTES];
        g.fill_bytes(&mut stream);
        let machine = |tier: &str| -> [u32; P] {
            let mut src = Replay::new(stream.clone());
            let words = match tier {
                "reference" => draw_words_per_coefficient_over(&mut Bytes(&mut src)),
                _ => draw_words_over(&mut Bytes(&mut src)),
            };
            assert!(
                src.remaining() == 0 && !src.overrun(),
                "{tier}: the draw did not read exactly {RANDOM_POLY_BYTES} bytes"
            );
            words
        };
        for (tier, words) in &symbolic {
            let m = machine(tier);
            for i in 0..P {
                assert_eq!(eval(&words[i], &stream), m[i], "{tier}: word {i}");
            }
        }
        let m = machine("reference");
        wrong_words += (0..P).filter(|&i| eval(&wrong[i], &stream) != m[i]).count();
    }
    assert!(
        wrong_words > 0,
        "a wrong byte_to_word went unnoticed by the sampled check"
    );
}

#[test]
fn ntru_boolean_words_evaluate_to_the_machine_words() {
    use equivalence::prove::gf2::{Anf, Bit, Word};
    use equivalence::prove::ntruhps2048509::SymBits;
    use optimized::ntruhps2048509::r2_inv::{
        clmul64_portable, clmul64_portable_over, r2_mul_portable, r2_mul_with,
    };
    use reference::ntruhps2048509::params::N;
    let eval = |w: &Word, x: &dyn Fn(u32) -> bool| w.eval(x).expect("every bit known");
    let p = clmul64_portable_over::<SymBits>(Word::vars(64, 1), Word::vars(64, 101));
    let mut g = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..50 {
        let (a, b) = (g.next_u64(), g.next_u64());
        let x = |v: u32| {
            if v >= 101 {
                (b >> (v - 101)) & 1 == 1
            } else {
                (a >> (v - 1)) & 1 == 1
            }
        };
        assert_eq!(eval(&p, &x), clmul64_portable(a, b));
    }
    // The folded product on 509-bit operands.
    let r2 = |first: u32| -> [Word; 8] {
        core::array::from_fn(|w| Word {
            bits: (0..64)
                .map(|b| {
                    let i = 64 * w + b;
                    if i < N {
                        Bit::Known(Anf::var(first + i as u32))
                    } else {
                        Bit::Known(Anf::zero())
                    }
                })
                .collect(),
        })
    };
    let clmul = |x: Word, y: Word| clmul64_portable_over::<SymBits>(x, y);
    let prod = r2_mul_with::<SymBits, _>(&clmul, &r2(1), &r2(1001));
    for _ in 0..3 {
        let mut a = [0u64; 8];
        let mut b = [0u64; 8];
        for w in 0..8 {
            a[w] = g.next_u64();
            b[w] = g.next_u64();
        }
        a[7] &= (1 << (N - 448)) - 1;
        b[7] &= (1 << (N - 448)) - 1;
        let want = r2_mul_portable(&a, &b);
        let x = |v: u32| {
            let (src, i) = if v >= 1001 {
                (&b, v - 1001)
            } else {
                (&a, v - 1)
            };
            (src[(i / 64) as usize] >> (i % 64)) & 1 == 1
        };
        for w in 0..8 {
            assert_eq!(eval(&prod[w], &x) as u64, want[w], "word {w}");
        }
    }
    // The Beneš multi-squarings (N3-SQ) on all 512 bits, and the packing and
    // unpacking (N3-PACK), against the same functions on machine words.
    use optimized::ntruhps2048509::r2_inv::{
        Native, SQUARINGS, benes_for, multisquare_over, r2_from_poly_over, r2_to_poly_over,
    };
    let all: [Word; 8] = core::array::from_fn(|w| Word::vars(64, 1 + 64 * w as u32));
    let mut a = [0u64; 8];
    a.iter_mut().for_each(|w| *w = g.next_u64());
    let bit_of_a = |v: u32| (a[((v - 1) / 64) as usize] >> ((v - 1) % 64)) & 1 == 1;
    for &k in &SQUARINGS {
        let sym = multisquare_over::<SymBits>(&all, benes_for(k));
        let want = multisquare_over::<Native>(&a, benes_for(k));
        for w in 0..8 {
            assert_eq!(
                eval(&sym[w], &bit_of_a) as u64,
                want[w],
                "multisquare 2^{k}, word {w}"
            );
        }
    }
    let unpacked = r2_to_poly_over::<SymBits>(&all);
    let want = r2_to_poly_over::<Native>(&a);
    for i in 0..N {
        assert_eq!(
            eval(&unpacked[i], &bit_of_a) as u16,
            want[i],
            "r2_to_poly, coefficient {i}"
        );
    }
    let coeffs: [Word; N] = core::array::from_fn(|i| Word::vars(16, 1 + 16 * i as u32));
    let c: [u16; N] = core::array::from_fn(|_| g.next_u64() as u16);
    let bit_of_c = |v: u32| (c[((v - 1) / 16) as usize] >> ((v - 1) % 16)) & 1 == 1;
    let packed = r2_from_poly_over::<SymBits>(&coeffs);
    let want = r2_from_poly_over::<Native>(&c);
    for w in 0..8 {
        assert_eq!(
            eval(&packed[w], &bit_of_c) as u64,
            want[w],
            "r2_from_poly, word {w}"
        );
    }
}

/// A solver session with an empty term arena, or `None` when there is no solver
/// (allowed unless `REFOPT_REQUIRE_SMT` is set; the note of
/// `cheap_obligations_are_proved` names the checks that then do not run).
fn smt_session() -> Option<prove::smt::Session> {
    match prove::smt::Session::new() {
        Ok(s) => {
            prove::smt::reset();
            Some(s)
        }
        Err(Failure::NotRun(why)) => {
            assert!(!switched_on("REFOPT_REQUIRE_SMT"), "{why}");
            None
        }
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn ed25519_terms_mean_what_u64_means() {
    use equivalence::prove::ed25519::Sym;
    use equivalence::prove::smt::{self, Query};
    use optimized::ed25519::field as new;
    use reference::ed25519::field as old;
    use reference::ed25519::mpih::Limb;
    let Some(mut s) = smt_session() else {
        return;
    };
    let mut g = ChaCha8Rng::seed_from_u64(5);
    let mut claims = Vec::new();
    for case in 0..6 {
        let mut u: [u64; 4] = core::array::from_fn(|_| g.next_u64());
        let v: [u64; 4] = core::array::from_fn(|_| g.next_u64());
        if case % 3 == 0 {
            u = old::P_LIMBS;
        }
        let n: [u64; 8] = core::array::from_fn(|_| g.next_u64());
        let (su, sv, sn) = (
            u.map(Sym::constant),
            v.map(Sym::constant),
            n.map(Sym::constant),
        );
        let c = |x: &[u64]| -> Vec<smt::Term> {
            x.iter()
                .map(|&l| smt::constant(64, u128::from(l)))
                .collect()
        };
        let t = |x: &[Sym]| -> Vec<smt::Term> { x.iter().map(|l| l.0).collect() };
        claims.push(smt::all_eq(
            &t(&old::ec_addm_25519(&su, &sv)),
            &c(&old::ec_addm_25519(&u, &v)),
        ));
        claims.push(smt::all_eq(
            &t(&new::ec_subm_25519(&su, &sv)),
            &c(&new::ec_subm_25519(&u, &v)),
        ));
        claims.push(smt::all_eq(
            &t(&old::ec_mulm_25519(&su, &sv)),
            &c(&old::ec_mulm_25519(&u, &v)),
        ));
        let (w, cy) = new::ec_mulm_25519_reduce(&mut sn.clone());
        let (w64, cy64) = new::ec_mulm_25519_reduce(&mut { n });
        claims.push(smt::all_eq(&t(&w), &c(&w64)));
        claims.push(smt::eq(cy.0, smt::constant(64, u128::from(cy64))));
    }
    s.prove(&Query::new(
        "symbolic limbs on constants equal the u64 runs",
        smt::and(&claims),
    ))
    .expect("the SMT terms evaluate to the u64 results");
}

/// MLKEM-3's bit-vector terms (`Bv`, `SymInts`) mean what the machine integers mean:
/// the shipped field functions on constant canonical inputs, asked of the solver,
/// equal the `u16` results.
#[test]
fn mlkem_field_terms_mean_what_u16_means() {
    use equivalence::prove::mlkem::{Bv, SymInts};
    use equivalence::prove::smt::{self, Query};
    use reference::mlkem::field::{self, Word};
    let Some(mut s) = smt_session() else {
        return;
    };
    let mut g = ChaCha8Rng::seed_from_u64(6);
    let mut claims = Vec::new();
    // 16 random canonical tuples, then the 16 with every input 0 or q − 1 (the
    // largest arguments of `reduce`: (q − 1)·(2q − 1) in `mul_sub`, 2(q − 1)² in
    // `add_mul`).
    for case in 0..32u32 {
        let x: [u16; 4] = core::array::from_fn(|i| {
            if case < 16 {
                below(&mut g, u64::from(field::Q)) as u16
            } else if (case >> i) & 1 == 1 {
                field::Q - 1
            } else {
                0
            }
        });
        let b = x.map(<Bv<16> as Word<u16>>::constant);
        let results = [
            (
                field::mul_sub_over::<SymInts>(b[0], b[1], b[2]),
                field::mul_sub(x[0], x[1], x[2]),
            ),
            (
                field::add_mul_over::<SymInts>(b[0], b[1], b[2], b[3]),
                field::add_mul(x[0], x[1], x[2], x[3]),
            ),
            (
                field::mul_over::<SymInts>(b[0], b[1]),
                field::mul(x[0], x[1]),
            ),
            (
                field::add_over::<SymInts>(b[0], b[1]),
                field::add(x[0], x[1]),
            ),
            (
                field::sub_over::<SymInts>(b[0], b[1]),
                field::sub(x[0], x[1]),
            ),
        ];
        for (t, want) in results {
            claims.push(smt::eq(t.0, smt::constant(16, u128::from(want))));
        }
    }
    s.prove(&Query::new(
        "symbolic field functions on constants equal the u16 runs",
        smt::and(&claims),
    ))
    .expect("the bit-vector terms evaluate to the u16 results");
    // The same check refuses a wrong value: mul_sub(1, 2, 0) is 2, not 3.
    let one_two_zero = [1u16, 2, 0].map(<Bv<16> as Word<u16>>::constant);
    let t = field::mul_sub_over::<SymInts>(one_two_zero[0], one_two_zero[1], one_two_zero[2]);
    let mut wrong = Query::new("mul_sub(1, 2, 0) = 3", smt::eq(t.0, smt::constant(16, 3)));
    wrong.expect_sat = true;
    s.prove(&wrong)
        .expect("a wrong value is refuted by a counterexample");
}

/// The sampled check of the symbolic types can fail: a symbolic Z_q whose `mul_sub`
/// means a·(c − b) instead of a·(b − c), run through the shipped `inverse_ntt`, no
/// longer evaluates to the `u16` result, while the true one does.
#[test]
fn control_a_wrong_symbolic_primitive_is_reported() {
    use equivalence::prove::form::Form;
    use equivalence::prove::mlkem::ZqForm;
    use reference::mlkem::field::{Fe, Zq};
    use reference::mlkem::ntt::{N, NttPoly, Poly, inverse_ntt, inverse_ntt_over};

    #[derive(Clone)]
    struct Swapped(ZqForm);
    impl Zq for Swapped {
        fn zero() -> Self {
            Swapped(ZqForm::zero())
        }
        fn constant(c: Fe) -> Self {
            Swapped(ZqForm::constant(c))
        }
        fn add(&self, b: &Self) -> Self {
            Swapped(self.0.add(&b.0))
        }
        fn sub(&self, b: &Self) -> Self {
            Swapped(self.0.sub(&b.0))
        }
        fn mul(&self, b: &Self) -> Self {
            Swapped(self.0.mul(&b.0))
        }
        fn mul_sub(&self, b: &Self, c: &Self) -> Self {
            Swapped(self.0.mul_sub(&c.0, &b.0)) // wrong on purpose
        }
        fn add_mul(&self, b: &Self, c: &Self, d: &Self) -> Self {
            Swapped(self.0.add_mul(&b.0, &c.0, &d.0))
        }
        fn wipe(values: &mut [Self]) {
            values.fill(Self::zero());
        }
    }

    let var = |c: usize| ZqForm(Form::var(3329, 1 + c as u32));
    let right: Poly<ZqForm> = inverse_ntt_over(&NttPoly(core::array::from_fn(var)));
    let wrong: Poly<Swapped> =
        inverse_ntt_over(&NttPoly(core::array::from_fn(|c| Swapped(var(c)))));
    let mut g = ChaCha8Rng::seed_from_u64(5);
    let values: Vec<u16> = (0..N).map(|_| below(&mut g, 3329) as u16).collect();
    let machine = inverse_ntt(&NttPoly(core::array::from_fn(|c| values[c])));
    let at = |v: u32| u64::from(values[v as usize - 1]);
    let differ = |forms: &[Form]| {
        forms
            .iter()
            .zip(&machine.0)
            .filter(|(f, m)| f.eval(at) != u64::from(**m))
            .count()
    };
    let right: Vec<Form> = right.0.iter().map(|x| x.0.clone()).collect();
    let wrong: Vec<Form> = wrong.0.iter().map(|x| x.0.0.clone()).collect();
    assert_eq!(
        differ(&right),
        0,
        "the true symbolic Z_q disagrees with u16"
    );
    assert!(
        differ(&wrong) > 0,
        "a swapped mul_sub went unnoticed by the sampled check"
    );
}

/// A CPU register's 128 bits (lane 0 low), read directly, not through the
/// operations under test.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn xmm_bits(v: core::arch::x86_64::__m128i) -> u128 {
    // SAFETY: `__m128i` and `u128` are both 16 bytes in which every bit pattern is a
    // valid value; x86-64 is little-endian, so lane 0 is the low half.
    unsafe { core::mem::transmute::<core::arch::x86_64::__m128i, u128>(v) }
}

/// A CPU register holding `v` (lane 0 low).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn xmm(v: u128) -> core::arch::x86_64::__m128i {
    // SAFETY: as in `xmm_bits`.
    unsafe { core::mem::transmute::<u128, core::arch::x86_64::__m128i>(v) }
}

/// N3-PCLMUL's model of the SSE operations (`IsaSse`) gives what the CPU's instance
/// gives, operation by operation, on 200 pseudorandom register pairs (all 128 bits
/// used; registers written and read directly), for every lane selector of PCLMULQDQ; and
/// the two faults the proof's plants put in the wrapper, made in the model instead
/// (PCLMULQDQ's selector 0x00 reading the high lanes, unpackhi giving the low
/// lanes), would differ from the CPU (the check can fail).
#[cfg(target_arch = "x86_64")]
#[test]
fn isa_sse_model_is_the_cpus_operations() {
    use equivalence::prove::gf2::Word;
    use equivalence::prove::ntruhps2048509::IsaSse;
    use optimized::ntruhps2048509::Pclmul;
    use optimized::ntruhps2048509::r2_inv::Sse;
    let Some(cpu) = Pclmul::detect() else {
        assert!(
            !equivalence::simd::required(),
            "REFOPT_REQUIRE_SIMD is on but the CPU has no PCLMULQDQ"
        );
        eprintln!("note: no PCLMULQDQ on this CPU: the SSE model was not compared with it");
        return;
    };
    let konst = |w: &Word| w.eval(&|_| false).expect("a constant word");
    let c64 = |v: u64| Word::constant(64, u128::from(v));
    let c128 = |v: u128| Word::constant(128, v);
    let mut g = ChaCha8Rng::seed_from_u64(5);
    let (mut high_lanes_seen, mut low_lanes_seen) = (false, false);
    for _ in 0..200 {
        let a = g.next_u64();
        let (xv, yv) = (u128::from(g.next_u64()) << 64 | u128::from(g.next_u64()), {
            u128::from(g.next_u64()) << 64 | u128::from(g.next_u64())
        });
        let (x, y) = (xmm(xv), xmm(yv));
        let (xs, ys) = (c128(xv), c128(yv));
        let set = xmm_bits(cpu.set_low(a));
        assert_eq!(set, u128::from(a), "the CPU's set_low");
        assert_eq!(konst(&IsaSse.set_low(c64(a))), set, "set_low");
        assert_eq!(
            konst(&IsaSse.low_lane(&xs)),
            u128::from(cpu.low_lane(&x)),
            "low_lane"
        );
        let unpack = xmm_bits(cpu.unpackhi_epi64(&x, &y));
        assert_eq!(konst(&IsaSse.unpackhi_epi64(&xs, &ys)), unpack, "unpackhi");
        let products = [
            xmm_bits(cpu.clmulepi64::<0x00>(&x, &y)),
            xmm_bits(cpu.clmulepi64::<0x01>(&x, &y)),
            xmm_bits(cpu.clmulepi64::<0x10>(&x, &y)),
            xmm_bits(cpu.clmulepi64::<0x11>(&x, &y)),
        ];
        let model = [
            konst(&IsaSse.clmulepi64::<0x00>(&xs, &ys)),
            konst(&IsaSse.clmulepi64::<0x01>(&xs, &ys)),
            konst(&IsaSse.clmulepi64::<0x10>(&xs, &ys)),
            konst(&IsaSse.clmulepi64::<0x11>(&xs, &ys)),
        ];
        assert_eq!(
            model, products,
            "pclmulqdq, selectors 0x00, 0x01, 0x10, 0x11"
        );
        let (lo, hi) = (g.next_u64(), g.next_u64());
        assert_eq!(
            konst(&IsaSse.join(c64(lo), c64(hi))),
            cpu.join(lo, hi),
            "join"
        );
        // The faults of the plants, in the model.
        high_lanes_seen |= model[3] != products[0];
        let low_lanes = IsaSse.join(IsaSse.low_lane(&xs), IsaSse.low_lane(&ys));
        low_lanes_seen |= konst(&low_lanes) != unpack;
    }
    assert!(
        high_lanes_seen && low_lanes_seen,
        "a model reading the wrong lanes went unnoticed by the sampled check"
    );
}
