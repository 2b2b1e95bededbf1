//! ntruhps2048509 benchmark helpers.

use reference::ntruhps2048509::params::SAMPLE_FG_BYTES;
use reference::ntruhps2048509::{Kernels, Poly, Reference, poly, sample};

/// The input `poly_Rq_inv` sees in key generation, 3g·f, from fixed seed bytes.
pub fn keygen_input() -> Poly {
    let seed: [u8; SAMPLE_FG_BYTES] = core::array::from_fn(|i| (i * 7 + 3) as u8);
    let (mut f, mut g) = sample::sample_fg(&seed);
    poly::poly_z3_to_zq(&mut f);
    poly::poly_z3_to_zq(&mut g);
    g.0.iter_mut().for_each(|c| *c = c.wrapping_mul(3));
    Reference::poly_rq_mul(&g, &f)
}
