//! Arithmetic modulo p = 2^255 - 19 on four 64-bit limbs: libgcrypt's `mpi/ec.c`
//! field routines for Curve25519 **after** commit 9c12226c (Jussi Kivilinna,
//! "mpi/ec: small optimization for ec_mulm_25519"), with the branch-free flags of
//! the later 305a65c1 (`mpih_limb_is_zero`).
//!
//! Same limb layer, same signatures and the same contract as the reference
//! `reference::ed25519::field`: defined on every 4-limb input and equal to it limb
//! for limb (obligations ED-1a, ED-1b, ED-2 of `refopt prove`, proved by SMT).

use reference::ed25519::field::{clear_bit_255, p};
use reference::ed25519::mpih::{
    Limb, add_n, add_n_in_place, addmul_1, mul_n, rshift_within, set_cond, sub_n,
};

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
    let keep = if reference::plant::active("ed25519-addm-keeps-the-borrowed-difference") {
        L::constant(1)
    } else {
        borrow.is_zero()
    };
    set_cond(&mut w, &n, &keep);
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
    if reference::plant::active("ed25519-subm-adds-p-unconditionally") {
        set_cond(&mut w, &n, &L::constant(1));
    } else {
        set_cond(&mut w, &n, &borrow);
    }
    clear_bit_255(&mut w);
    w
}

/// New `ec_mulm_25519` after the product: returns the reduced limbs and the carry
/// limb `cy` of L + 19·H_low. [`ec_mulm_25519_fold19`] then
/// [`ec_mulm_25519_finish`], named separately for the proofs.
#[inline(always)]
pub fn ec_mulm_25519_reduce<L: Limb>(n: &mut [L; 8]) -> ([L; 4], L) {
    let (mut w, cy) = ec_mulm_25519_fold19(n);
    ec_mulm_25519_finish(&mut w, &cy);
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
    let nineteen = if reference::plant::active("ed25519-fold19-multiplies-by-21") {
        21
    } else {
        19
    };
    let cy = addmul_1(&mut w, h_low, &L::constant(nineteen));
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
    let _ = add_n_in_place(w, &n);

    let borrow = sub_n(&mut n, w, &p);
    set_cond(w, &n, &borrow.is_zero());
}

/// New `ec_mulm_25519`: the (unchanged) schoolbook product, then
/// [`ec_mulm_25519_reduce`].
#[inline(always)]
pub fn ec_mulm_25519<L: Limb>(u: &[L; 4], v: &[L; 4]) -> [L; 4] {
    let mut n: [L; 8] = core::array::from_fn(|_| L::constant(0));
    mul_n(&mut n, u, v);
    ec_mulm_25519_reduce(&mut n).0
}
