//! Arithmetic modulo p = 2^255 - 19 on four 64-bit limbs: libgcrypt's `mpi/ec.c`
//! field routines for Curve25519 **after** commit 9c12226c (Jussi Kivilinna,
//! "mpi/ec: small optimization for ec_mulm_25519"), with the branch-free flags of
//! the later 305a65c1 (`mpih_limb_is_zero`).
//!
//! Same limb layer, same signatures and the same contract as the reference
//! `reference::ed25519::field`: defined on every 4-limb input and equal to it limb
//! for limb (obligations ED-1a, ED-1b, ED-2 of `refopt prove`, proved by SMT).

use reference::ed25519::field::{clear_bit_255, p};
use reference::ed25519::mpih::{Limb, add_n, addmul_1, mul_n, rshift_within, set_cond, sub_n};

/// New `ec_addm_25519`: w = u + v; n = w − p; keep n unless that borrowed; clear
/// bit 255. One `add_n` and the `memset` fewer than the reference.
///
/// Preconditions for a correct result: as the reference (u + v < 2p + 19).
#[inline(always)]
pub fn ec_addm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let p = p::<L>();
    let mut w: [L; 4] = core::array::from_fn(|_| L::constant(0));
    let mut n = w.clone();
    let _ = add_n(&mut w, u, v);
    let borrow = sub_n(&mut n, &w, &p);
    let keep_n = planted::addm_keep_n(&w, &p, borrow.is_zero());
    set_cond(&mut w, &n, &keep_n);
    clear_bit_255(&mut w);
    w
}

/// New `ec_subm_25519`: w = u − v; n = w + p; take n when the subtraction borrowed;
/// clear bit 255. The `memset` is gone and `add_n` comes before `set_cond`.
///
/// Preconditions for a correct result: as the reference (u < 2^255, v − u <= p).
#[inline(always)]
pub fn ec_subm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let p = p::<L>();
    let mut w: [L; 4] = core::array::from_fn(|_| L::constant(0));
    let mut n = w.clone();
    let borrow = sub_n(&mut w, u, v);
    let _ = add_n(&mut n, &w, &p);
    let take_n = planted::subm_take_n(&w, borrow);
    set_cond(&mut w, &n, &take_n);
    planted::subm_clear_bit_255(&mut w);
    w
}

/// New `ec_mulm_25519` after the product: returns the reduced limbs and the carry
/// limb `cy` of L + 19·H_low. [`ec_mulm_25519_fold19`] then
/// [`ec_mulm_25519_finish`], named separately for the proofs.
#[inline(always)]
pub fn ec_mulm_25519_reduce<L: Limb>(n: &mut [L; 8]) -> ([L; 4], L) {
    let (mut w, cy) = ec_mulm_25519_fold19(n);
    ec_mulm_25519_finish(&mut w, &planted::finish_carry(&cy));
    (w, cy)
}

/// First half of the new reduction (seed brief D (2)): w = n mod 2^255;
/// `rshift(n, n+3, 5, 63)` in place gives H; `cy = addmul_1(w, n, 4, 19)` gives
/// cy·2^256 + w = L + 19·H_low in one pass (no `m[5]` buffer, no copies, no
/// `lshift` and three `add_n`).
#[inline(always)]
pub fn ec_mulm_25519_fold19<L: Limb>(n: &mut [L; 8]) -> ([L; 4], L) {
    let mut w: [L; 4] = core::array::from_fn(|i| n[i].clone());
    clear_bit_255(&mut w);
    // rshift (n, n+3, 5, 63) in place: n[0..5] = H.
    let _ = rshift_within::<L, 8, 5, 0, 3, 63>(n);
    // cy = addmul_1 (w, n, 4, 19): n[0..4] is H_low.
    let h_low = n.first_chunk::<4>().unwrap_or_else(|| unreachable!());
    let cy = addmul_1(&mut w, h_low, &L::constant(planted::nineteen()));
    // Always true: L < 2^255 and 19·H_low < 19·2^256.
    cy.lemma_le(19, "mulm carry limb <= 19 on every input");
    (w, cy)
}

/// Second half of the new reduction: the same fold of (2·cy + bit 255)·19, using
/// n as scratch; then n = w − p and keep it unless that borrowed (no add-back).
#[inline(always)]
pub fn ec_mulm_25519_finish<L: Limb>(w: &mut [L; 4], cy: &L) {
    let p = p::<L>();
    let zero = L::constant(0);
    let mut n: [L; 4] = core::array::from_fn(|_| zero.clone());
    let msb = w[3].shr(63);
    n[0] = cy
        .wrapping_mul(&L::constant(2))
        .wrapping_add(&msb)
        .wrapping_mul(&L::constant(19));
    clear_bit_255(w);
    planted::mulm_fold_add(w, &n);
    if planted::mulm_skips_final_subtraction() {
        return;
    }

    let borrow = sub_n(&mut n, w, &p);
    set_cond(w, &n, &borrow.is_zero());
}

/// The bug zoo's plant sites (`reference::plant`): each function is the correct step
/// unless its bug is switched on. No mutants: with the switch off (every normal build)
/// the planted branch is dead code.
mod planted {
    use reference::ed25519::field::clear_bit_255;
    use reference::ed25519::mpih::{Limb, add_n_in_place};
    use reference::plant::active;

    /// addm's "keep n" flag; `ed25519-addm-top-limb-only`: "p's lower limbs are all
    /// ones, so compare the top limb only" — subtract unless w\[3\] < p\[3\], wrong when
    /// w\[3\] = p\[3\] and w < p.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn addm_keep_n<L: Limb>(w: &[L; 4], p: &[L; 4], keep_n: L) -> L {
        if active("ed25519-addm-keeps-the-borrowed-difference") {
            // Proof self-test: always keeps w − p.
            return L::constant(1);
        }
        if active("ed25519-addm-top-limb-only") {
            let (_, top_borrow) = w[3].sbb(&p[3], &L::constant(0));
            return top_borrow.is_zero();
        }
        keep_n
    }

    /// subm's "take n" flag (the borrow); `ed25519-subm-equal-returns-p`: "add p back
    /// unless u > v" — u = v gives p instead of 0.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn subm_take_n<L: Limb>(w: &[L; 4], borrow: L) -> L {
        if active("ed25519-subm-adds-p-unconditionally") {
            // Proof self-test: always takes w + p.
            return L::constant(1);
        }
        if active("ed25519-subm-equal-returns-p") {
            let zero = w.iter().fold(L::constant(0), |acc, l| acc.or(l)).is_zero();
            return borrow.or(&zero);
        }
        borrow
    }

    /// Clears bit 255; `ed25519-subm-no-clear-255`: "canonical inputs leave bit 255
    /// clear".
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn subm_clear_bit_255<L: Limb>(w: &mut [L; 4]) {
        if !active("ed25519-subm-no-clear-255") {
            clear_bit_255(w);
        }
    }

    /// w += n (n one limb wide); `ed25519-mulm-lost-carry`: "n is one limb, so add it
    /// to w\[0\] only" — the carry out of limb 0 is lost.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn mulm_fold_add<L: Limb>(w: &mut [L; 4], n: &[L; 4]) {
        if active("ed25519-mulm-lost-carry") {
            w[0] = w[0].wrapping_add(&n[0]);
        } else {
            let _ = add_n_in_place(w, n);
        }
    }

    /// The carry `ec_mulm_25519_reduce` hands its second half;
    /// `ed25519-reduce-drops-the-fold-carry` (proof self-test): 0, so the folded
    /// (2c + bit 255)·19 loses its 2c·19 and the shipped reduction is no longer its
    /// second half applied to its first half's results (ED-2's last piece).
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn finish_carry<L: Limb>(cy: &L) -> L {
        if active("ed25519-reduce-drops-the-fold-carry") {
            return L::constant(0);
        }
        cy.clone()
    }

    /// The fold's multiplier 19; `ed25519-fold19-multiplies-by-21` (proof self-test):
    /// 21.
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn nineteen() -> u64 {
        if active("ed25519-fold19-multiplies-by-21") {
            21
        } else {
            19
        }
    }

    /// `ed25519-mulm-no-final-subtraction`: the final conditional subtraction dropped,
    /// wrong only when the folded value lies in \[p, 2^255).
    #[mutants::skip]
    #[inline(always)]
    pub(super) fn mulm_skips_final_subtraction() -> bool {
        active("ed25519-mulm-no-final-subtraction")
    }
}

/// New `ec_mulm_25519`: the (unchanged) schoolbook product, then
/// [`ec_mulm_25519_reduce`].
#[inline(always)]
pub fn ec_mulm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let mut n: [L; 8] = core::array::from_fn(|_| L::constant(0));
    mul_n(&mut n, u, v);
    ec_mulm_25519_reduce(&mut n).0
}
