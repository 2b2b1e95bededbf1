//! The ntruhps2048509 kernel vectors of bcgit/bc-test-data (e619a6e4), 100 cases per
//! kernel, inputs random unreduced 16-bit values: the fetched-file suite
//! `ntruhps2048509-kernels` (docs/PROVENANCE.md). Without the files every test here
//! checks nothing and the `vector_suites` test names the suite as not run.
//!
//! Comparison rules, from PROVENANCE.md: exact for R2_inv, S3_inv, lift,
//! mod_3_Phi_n, mod_q_Phi_n, the conversions and pack/unpack; `& 2047` for Rq_mul,
//! Sq_mul and Rq_inv. The optimized variants' inverses are compared after canonical
//! reduction mod (2, Φ) / (q, Φ) of both sides (their raw representative differs by
//! design).

use equivalence::ntruhps2048509::{Variant, canonical_mod2, canonical_modq};
use equivalence::vectors;
use reference::ntruhps2048509::Poly;
use reference::ntruhps2048509::pack;
use reference::ntruhps2048509::params::{N, PACK_TRINARY_BYTES, POLYBYTES};
use reference::ntruhps2048509::poly;

/// One case: its fields in file order, as (name, values).
type Case = Vec<(String, Vec<u32>)>;

/// The 100 cases of `kernel`'s file, or none when the vectors are absent.
fn cases(kernel: &str) -> Vec<Case> {
    let Some(files) = vectors::suite("ntruhps2048509-kernels") else {
        return Vec::new();
    };
    let text = files.read_to_string(&format!("ntruhps2048509-poly/poly_{kernel}.txt"));
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines() {
        let Some((k, v)) = line.split_once(" = ") else {
            continue;
        };
        if k == "count" {
            out.push(Vec::new());
            continue;
        }
        let vals = v
            .split_whitespace()
            .map(|x| x.parse().expect("decimal value"))
            .collect();
        out.last_mut()
            .expect("a count line first")
            .push((k.to_owned(), vals));
    }
    assert_eq!(out.len(), 100, "{kernel}: 100 cases expected");
    files.checked(out.len(), &format!("poly_{kernel} cases"));
    out
}

fn field<'a>(c: &'a Case, name: &str) -> &'a [u32] {
    &c.iter()
        .find(|(k, _)| k == name)
        .unwrap_or_else(|| panic!("field {name} missing"))
        .1
}

fn poly_of(v: &[u32]) -> Poly {
    assert_eq!(v.len(), N);
    let mut p = Poly::ZERO;
    for (o, &x) in p.0.iter_mut().zip(v) {
        *o = u16::try_from(x).expect("16-bit value");
    }
    p
}

fn bytes_of<const L: usize>(v: &[u32]) -> [u8; L] {
    assert_eq!(v.len(), L);
    core::array::from_fn(|i| u8::try_from(v[i]).expect("byte"))
}

fn masked(p: &Poly) -> Poly {
    let mut r = *p;
    r.0.iter_mut().for_each(|c| *c &= 2047);
    r
}

/// Unary polynomial kernels compared exactly.
fn unary(kernel: &str, input: &str, output: &str, f: impl Fn(&Poly) -> Poly) {
    for (i, c) in cases(kernel).iter().enumerate() {
        let got = f(&poly_of(field(c, input)));
        let want = poly_of(field(c, output));
        assert_eq!(got.0, want.0, "{kernel} count {i}");
    }
}

#[test]
fn r2_inv_exact_reference_and_mod_phi_all_variants() {
    for (i, c) in cases("R2_inv").iter().enumerate() {
        let a = poly_of(field(c, "a"));
        let want = poly_of(field(c, "r"));
        assert_eq!(
            Variant::Reference.poly_r2_inv(&a).0,
            want.0,
            "R2_inv count {i}"
        );
        for v in Variant::ALL {
            assert_eq!(
                canonical_mod2(&v.poly_r2_inv(&a)).0,
                canonical_mod2(&want).0,
                "R2_inv count {i} variant {}",
                v.name()
            );
        }
    }
}

#[test]
fn rq_inv_mod_q_reference_and_mod_phi_all_variants() {
    for (i, c) in cases("Rq_inv").iter().enumerate() {
        let a = poly_of(field(c, "a"));
        let want = poly_of(field(c, "r"));
        assert_eq!(
            masked(&Variant::Reference.poly_rq_inv(&a)).0,
            masked(&want).0,
            "Rq_inv count {i}"
        );
        for v in Variant::ALL {
            assert_eq!(
                canonical_modq(&v.poly_rq_inv(&a)).0,
                canonical_modq(&want).0,
                "Rq_inv count {i} variant {}",
                v.name()
            );
        }
    }
}

#[test]
fn s3_inv_exact() {
    unary("S3_inv", "a", "r", poly::poly_s3_inv);
}

#[test]
fn lift_exact() {
    unary("lift", "a", "r", poly::poly_lift);
}

#[test]
fn mod_3_phi_n_exact() {
    unary("mod_3_Phi_n", "r", "res", |p| {
        let mut r = *p;
        poly::poly_mod_3_phi_n(&mut r);
        r
    });
}

#[test]
fn mod_q_phi_n_exact() {
    unary("mod_q_Phi_n", "r", "res", |p| {
        let mut r = *p;
        poly::poly_mod_q_phi_n(&mut r);
        r
    });
}

#[test]
fn conversions_exact() {
    unary("Rq_to_S3", "a", "r", poly::poly_rq_to_s3);
    unary("Z3_to_Zq", "r", "res", |p| {
        let mut r = *p;
        poly::poly_z3_to_zq(&mut r);
        r
    });
    unary("trinary_Zq_to_Z3", "r", "res", |p| {
        let mut r = *p;
        poly::poly_trinary_zq_to_z3(&mut r);
        r
    });
}

#[test]
fn products_mod_q_every_variant() {
    for (i, c) in cases("Rq_mul").iter().enumerate() {
        let (a, b) = (poly_of(field(c, "a")), poly_of(field(c, "b")));
        let want = poly_of(field(c, "r"));
        // The reference schoolbook is exact mod 2^16, like the C code; the Toom-4 /
        // Karatsuba product is exact mod 2^13, so compare it mod q (PROVENANCE.md).
        assert_eq!(
            Variant::Reference.poly_rq_mul(&a, &b).0,
            want.0,
            "Rq_mul count {i}"
        );
        for v in Variant::ALL {
            assert_eq!(
                masked(&v.poly_rq_mul(&a, &b)).0,
                masked(&want).0,
                "Rq_mul count {i} {}",
                v.name()
            );
        }
    }
    for (i, c) in cases("Sq_mul").iter().enumerate() {
        let (a, b) = (poly_of(field(c, "a")), poly_of(field(c, "b")));
        let want = poly_of(field(c, "r"));
        for v in Variant::ALL {
            let mut got = v.poly_rq_mul(&a, &b);
            poly::poly_mod_q_phi_n(&mut got);
            assert_eq!(
                masked(&got).0,
                masked(&want).0,
                "Sq_mul count {i} {}",
                v.name()
            );
        }
    }
}

#[test]
fn pack_and_unpack_exact() {
    for (i, c) in cases("Sq_tobytes").iter().enumerate() {
        let got = pack::poly_sq_tobytes(&poly_of(field(c, "a")));
        assert_eq!(got, bytes_of::<POLYBYTES>(field(c, "r")), "Sq_tobytes {i}");
    }
    for (i, c) in cases("Rq_sum_zero_tobytes").iter().enumerate() {
        let got = pack::poly_rq_sum_zero_tobytes(&poly_of(field(c, "a")));
        assert_eq!(
            got,
            bytes_of::<POLYBYTES>(field(c, "r")),
            "Rq_sum_zero_tobytes {i}"
        );
    }
    for (i, c) in cases("Sq_frombytes").iter().enumerate() {
        let got = pack::poly_sq_frombytes(&bytes_of::<POLYBYTES>(field(c, "r")));
        assert_eq!(got.0, poly_of(field(c, "a")).0, "Sq_frombytes {i}");
    }
    for (i, c) in cases("Rq_sum_zero_frombytes").iter().enumerate() {
        let got = pack::poly_rq_sum_zero_frombytes(&bytes_of::<POLYBYTES>(field(c, "r")));
        assert_eq!(got.0, poly_of(field(c, "a")).0, "Rq_sum_zero_frombytes {i}");
    }
    for (i, c) in cases("S3_tobytes").iter().enumerate() {
        let got = pack::poly_s3_tobytes(&poly_of(field(c, "a")));
        assert_eq!(
            got,
            bytes_of::<PACK_TRINARY_BYTES>(field(c, "msg")),
            "S3_tobytes {i}"
        );
    }
    for (i, c) in cases("S3_frombytes").iter().enumerate() {
        let got = pack::poly_s3_frombytes(&bytes_of::<PACK_TRINARY_BYTES>(field(c, "msg")));
        assert_eq!(got.0, poly_of(field(c, "a")).0, "S3_frombytes {i}");
    }
}

#[test]
fn s3_mul_on_vectors() {
    // PROVENANCE.md: this file matches Rq_mul followed by mod (3, Φ) *without* the
    // explicit MODQ that the round-3 C code (and `poly::poly_s3_mul`) applies in
    // between. Check the file's definition exactly, and that `poly_s3_mul` agrees with
    // it on proper ternary inputs (reduced mod (3, Φ)), where 509·4 < q makes MODQ a
    // no-op.
    for (i, c) in cases("S3_mul").iter().enumerate() {
        let (a, b) = (poly_of(field(c, "a")), poly_of(field(c, "b")));
        let want = poly_of(field(c, "r"));
        let mut no_modq = Variant::Reference.poly_rq_mul(&a, &b);
        poly::poly_mod_3_phi_n(&mut no_modq);
        assert_eq!(no_modq.0, want.0, "S3_mul count {i}");
        let (mut a3, mut b3) = (a, b);
        poly::poly_mod_3_phi_n(&mut a3);
        poly::poly_mod_3_phi_n(&mut b3);
        let mut plain = Variant::Reference.poly_rq_mul(&a3, &b3);
        poly::poly_mod_3_phi_n(&mut plain);
        for v in Variant::ALL {
            let got = poly::poly_s3_mul(&a3, &b3, |x, y| v.poly_rq_mul(x, y));
            assert_eq!(got.0, plain.0, "S3_mul (ternary) count {i} {}", v.name());
        }
    }
}
