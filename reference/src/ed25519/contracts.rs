//! The contracts of the Ed25519 field [`Kernels`](super::Kernels) as executable
//! predicates: the `ensures` of the hax-lib annotations on the trait (type-checked
//! under `--cfg hax`), checked with `debug_assert!` around every call of every
//! tier's routines in tests, and available to any caller that wants the release-mode
//! check.
//!
//! They state the functional result mod p = 2^255 − 19 with arithmetic of their own
//! (u128 limb products and a fold by 2^256 ≡ 38), sharing no code with the tiers'
//! reductions. In a debug build they run on every field operation, secret operands
//! included, so they neither exit early nor branch on their inputs: fixed loop counts,
//! borrows and masks for the comparisons, `subtle`'s `ct_eq` for equality, `&`/`|` on
//! the verdicts instead of `&&`/`||`. The one branch is the `debug_assert!` on the
//! final verdict, which takes the same way on every input while the code is right.
//! (A debug build also checks every addition for overflow, a branch of the same
//! kind; timing claims are about release builds, where none of this is compiled.)

use subtle::ConstantTimeEq;

use super::field::{Fe, P_LIMBS, le_p};
use super::mpih;

/// A 4-limb value widened to five limbs.
fn wide(x: &Fe) -> [u64; 5] {
    [x[0], x[1], x[2], x[3], 0]
}

/// a + b over five limbs (no overflow for the values used here: all below 2^258).
fn add5(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    let mut w = [0u64; 5];
    let _ = mpih::add_n(&mut w, a, b);
    w
}

/// a − b ∈ {−2p, −p, 0, p, 2p}: a ≡ b (mod p) for values whose difference is at most
/// 2p in size (what the range of `addm`/`subm` leaves). All five comparisons run.
fn within_two_p_congruent(a: &[u64; 5], b: &[u64; 5]) -> bool {
    let p = wide(&P_LIMBS);
    let p2 = add5(&p, &p);
    bool::from(
        a.ct_eq(b)
            | a.ct_eq(&add5(b, &p))
            | a.ct_eq(&add5(b, &p2))
            | b.ct_eq(&add5(a, &p))
            | b.ct_eq(&add5(a, &p2)),
    )
}

/// The 512-bit product u·v, schoolbook in u128.
fn product(u: &Fe, v: &Fe) -> [u64; 8] {
    let mut r = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0u128;
        for j in 0..4 {
            let t = u128::from(u[i]) * u128::from(v[j]) + u128::from(r[i + j]) + carry;
            r[i + j] = t as u64;
            carry = t >> 64;
        }
        r[i + 4] = carry as u64;
    }
    r
}

/// n mod p, canonical, by folding 2^256 ≡ 38 and subtracting p, in a fixed number of
/// steps: after the first fold (of the high half) the top limb is at most 38, after
/// the second at most 1, after the third 0 (a carry there left the low limbs below
/// 38²); the value is then below 2^256 < 3p, so two masked subtractions of p leave
/// it in [0, p).
pub fn mod_p(n: &[u64; 8]) -> Fe {
    let mut t = [0u64; 5];
    let mut carry = 0u128;
    for i in 0..4 {
        let x = u128::from(n[i]) + 38 * u128::from(n[i + 4]) + carry;
        t[i] = x as u64;
        carry = x >> 64;
    }
    t[4] = carry as u64;
    for _ in 0..2 {
        let mut c = 38 * u128::from(t[4]);
        for limb in t.iter_mut().take(4) {
            let x = u128::from(*limb) + c;
            *limb = x as u64;
            c = x >> 64;
        }
        t[4] = c as u64;
    }
    let mut w = [t[0], t[1], t[2], t[3]];
    for _ in 0..2 {
        // d = w − p; keep it when there was no borrow (w >= p).
        let mut d = [0u64; 4];
        let mut borrow = 0u128;
        for ((o, &x), p) in d.iter_mut().zip(&w).zip(P_LIMBS) {
            let v = u128::from(x).wrapping_sub(u128::from(p) + borrow);
            *o = v as u64;
            borrow = v >> 127;
        }
        let keep_d = (borrow as u64).wrapping_sub(1); // all ones when w >= p
        for (x, d) in w.iter_mut().zip(d) {
            *x = (d & keep_d) | (*x & !keep_d);
        }
    }
    w
}

/// Postcondition of `ec_addm_25519`: for u, v <= p, w <= p and w ≡ u + v (mod p).
pub fn addm_ensures(u: &Fe, v: &Fe, w: &Fe) -> bool {
    !(le_p(u) & le_p(v)) | (le_p(w) & within_two_p_congruent(&add5(&wide(u), &wide(v)), &wide(w)))
}

/// Postcondition of `ec_subm_25519`: for u, v <= p, w <= p and w + v ≡ u (mod p).
pub fn subm_ensures(u: &Fe, v: &Fe, w: &Fe) -> bool {
    !(le_p(u) & le_p(v)) | (le_p(w) & within_two_p_congruent(&add5(&wide(w), &wide(v)), &wide(u)))
}

/// Postcondition of `ec_mulm_25519_reduce` on the product `n` it was given: for
/// n < 2^511, w = n mod p, canonical (< p).
pub fn reduce_ensures(n: &[u64; 8], w: &Fe) -> bool {
    (n[7] >> 63 == 1) | bool::from(w.ct_eq(&mod_p(n)))
}

/// Postcondition of `mulm`: for u, v <= p, w = u·v mod p, canonical (< p).
pub fn mulm_ensures(u: &Fe, v: &Fe, w: &Fe) -> bool {
    !(le_p(u) & le_p(v)) | bool::from(w.ct_eq(&mod_p(&product(u, v))))
}

/// The carry-bound lemma (obligation ED-3): for u, v <= p the carry limb of
/// L + 19·H is at most 9. Vacuous for inputs above p.
pub fn carry_lemma_holds(u: &Fe, v: &Fe, carry: u64) -> bool {
    !(le_p(u) & le_p(v)) | (carry <= 9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_p_of_small_and_edge_values() {
        let mut n = [0u64; 8];
        n[0] = 5;
        assert_eq!(mod_p(&n), [5, 0, 0, 0]);
        // p itself is 0; 2^256 is 38; (p − 1)² is 1.
        let mut n = [0u64; 8];
        n[..4].copy_from_slice(&P_LIMBS);
        assert_eq!(mod_p(&n), [0; 4]);
        let mut n = [0u64; 8];
        n[4] = 1;
        assert_eq!(mod_p(&n), [38, 0, 0, 0]);
        let mut pm1 = P_LIMBS;
        pm1[0] -= 1;
        assert_eq!(mod_p(&product(&pm1, &pm1)), [1, 0, 0, 0]);
        assert_eq!(mod_p(&[u64::MAX; 8]), {
            // 2^512 − 1 ≡ 38² − 1 = 1443.
            [1443, 0, 0, 0]
        });
    }

    /// Each postcondition holds for the right result and fails for a wrong one (the
    /// branch-free forms still decide), and is vacuous for an operand above p.
    #[test]
    fn postconditions_accept_the_result_and_reject_others() {
        let mut pm1 = P_LIMBS;
        pm1[0] -= 1;
        let (u, v) = (pm1, [5, 0, 0, 0]);
        // (p − 1) + 5 = 4; (p − 1) − 5 = p − 6; (p − 1)·5 = −5 = p − 5.
        let sum = [4, 0, 0, 0];
        let mut diff = P_LIMBS;
        diff[0] -= 6;
        let mut prod = P_LIMBS;
        prod[0] -= 5;
        let off = |x: Fe| [x[0] ^ 1, x[1], x[2], x[3]];
        assert!(addm_ensures(&u, &v, &sum));
        assert!(!addm_ensures(&u, &v, &off(sum)));
        // p + 4 ≡ 4 but is above p: refused.
        assert!(!addm_ensures(
            &u,
            &v,
            &[P_LIMBS[0] + 4, P_LIMBS[1], P_LIMBS[2], P_LIMBS[3]]
        ));
        assert!(subm_ensures(&u, &v, &diff));
        assert!(!subm_ensures(&u, &v, &off(diff)));
        assert!(mulm_ensures(&u, &v, &prod));
        assert!(!mulm_ensures(&u, &v, &off(prod)));
        assert!(reduce_ensures(&product(&u, &v), &prod));
        assert!(!reduce_ensures(&product(&u, &v), &off(prod)));
        assert!(carry_lemma_holds(&u, &v, 9));
        assert!(!carry_lemma_holds(&u, &v, 10));
        let above = [u64::MAX; 4];
        assert!(mulm_ensures(&above, &v, &[0; 4]));
        assert!(carry_lemma_holds(&above, &v, 10));
    }
}
