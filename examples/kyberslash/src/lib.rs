//! KyberSlash's division-free compression, checked by the refopt lab through its public
//! API only (docs/guide.md walks through it). Everything but `kernels` is wiring.

pub mod kernels;

use equivalence::{cli::Extension, pair::*, prove::*};
use kernels::{compress_div, compress_mul, compress_mul_28};

/// The d of ML-KEM: message (1), v (4, 5), u (10, 11).
const DS: [u32; 5] = [1, 4, 5, 10, 11];

/// x < q, with 0, 1, the rounding boundary and q − 1 in every run; d of [`DS`].
fn decode(g: &mut Input<'_>) -> (u16, u32) {
    (
        g.edge_or_below(&[0, 1, 1664, 1665, 3328], 3329) as u16,
        DS[g.below(5) as usize],
    )
}

/// Compress_d(x) for every x < q and d ML-KEM uses, in both forms.
pub const COMPRESS: FnPair<(u16, u32), [u8; 2]> = FnPair::new(
    "kyberslash/compress",
    Sides::new("kernels::compress_div", "kernels::compress_mul"),
    decode,
    |&(x, d)| compress_div(x, d).to_le_bytes(),
    |&(x, d)| compress_mul(x, d).to_le_bytes(),
)
.bounds(
    &[
        Bound::with_points("x", 0, 3328, &[1664, 1665]),
        Bound::with_points("d", 1, 11, &[4, 10]),
    ],
    |&(x, d)| vec![("x", x.into()), ("d", d.into())],
);

/// The planted wrong optimization the lab must catch.
pub const SHORT_M: FnPair<(u16, u32), [u8; 2]> =
    COMPRESS.with_optimized(|&(x, d)| compress_mul_28(x, d).to_le_bytes());

/// Every x < q, every d: 16 645 inputs.
fn all() -> impl Iterator<Item = (u16, u32)> {
    DS.into_iter().flat_map(|d| (0..3329).map(move |x| (x, d)))
}

/// KS-1: the forms agree on the whole domain; the check fails on [`SHORT_M`].
pub static KS_1: Obligation = Obligation::exhaustive(
    "KS-1",
    "6. KyberSlash: Compress_d without a division",
    "compress_mul(x, d) = compress_div(x, d)",
    "every x < q, d in {1, 4, 5, 10, 11}",
    || exhaustive(&COMPRESS, all()),
    ("28-bit M for every d", || exhaustive(&SHORT_M, all())),
);

/// `kyberslash list`, `check`, `prove`, ...: the lab with this crate's pair.
pub static EXTENSION: Extension = Extension::new(&[&COMPRESS], &[&KS_1])
    .regressions(concat!(env!("CARGO_MANIFEST_DIR"), "/regressions"));

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts docs/guide.md quotes: the domain has 16 645 inputs; the planted
    /// 28-bit constant is wrong on 34 of them, all with d = 10 or 11; M = ⌊2^35/q⌋
    /// instead of ⌈2^35/q⌉ would be wrong on 5.
    #[test]
    fn wrong_constants_fail_on_the_inputs_the_guide_counts() {
        const M_FLOOR: u64 = (1u64 << 35) / kernels::Q as u64;
        let compress_floor = |x: u16, d: u32| {
            let n = (u64::from(x) << d) + u64::from(kernels::Q / 2);
            (((n * M_FLOOR) >> 35) as u32 & ((1 << d) - 1)) as u16
        };
        assert_eq!(all().count(), 16_645);
        let short: Vec<(u16, u32)> = all()
            .filter(|&(x, d)| compress_mul_28(x, d) != compress_div(x, d))
            .collect();
        assert_eq!(short.len(), 34);
        assert!(short.iter().all(|&(_, d)| d == 10 || d == 11));
        let floor = all()
            .filter(|&(x, d)| compress_floor(x, d) != compress_div(x, d))
            .count();
        assert_eq!(floor, 5);
        assert!(all().all(|(x, d)| compress_mul(x, d) == compress_div(x, d)));
    }
}
