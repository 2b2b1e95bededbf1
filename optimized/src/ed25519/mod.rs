//! Ed25519 optimized field kernels: libgcrypt commit 9c12226c, "mpi/ec: small
//! optimization for ec_mulm_25519" (+ addm/subm), plugged into the reference
//! RFC 8032 code through [`reference::ed25519::Kernels`].
//!
//! | kernel | before ([`reference::ed25519::field`]) | after ([`field`]) |
//! |---|---|---|
//! | `addm` | add, subtract p, add back `borrow ? p : 0` | add, `n = w − p`, keep n unless borrow |
//! | `subm` | subtract, add `borrow ? p : 0` | subtract, `n = w + p`, take n on borrow |
//! | `mulm` | 19·H as (H << 4) + 3 additions, 3 copies, add-back subtraction | one `addmul_1` by 19, in-place `rshift`, conditional copy |

pub mod field;

use reference::ed25519::field::LIMB_SIZE_25519;
use reference::ed25519::point::{BASE, WindowTable, window_table};
use reference::ed25519::{Fe, Kernels};

/// The optimized field kernels (libgcrypt after 9c12226c).
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimized;

impl Kernels for Optimized {
    fn base_table() -> &'static WindowTable {
        static TABLE: std::sync::OnceLock<WindowTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| window_table::<Self>(&BASE))
    }
    #[inline]
    fn ec_addm_25519(u: &Fe, v: &Fe) -> Fe {
        field::ec_addm_25519(u, v)
    }
    #[inline]
    fn ec_subm_25519(u: &Fe, v: &Fe) -> Fe {
        field::ec_subm_25519(u, v)
    }
    #[inline]
    fn ec_mulm_25519_reduce(n: &mut [u64; 2 * LIMB_SIZE_25519]) -> (Fe, u64) {
        field::ec_mulm_25519_reduce(n)
    }
}
