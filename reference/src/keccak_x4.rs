//! Four independent Keccak-f\[1600\] permutations at once (FIPS 202 section 3.3).
//!
//! ML-KEM hashes many short, independent inputs: the k² SHAKE128 streams that expand Â
//! and the 2k + 1 SHAKE256 PRF calls of K-PKE. On x86-64 with AVX2 the four states are
//! held lane-sliced in 256-bit registers (one 64-bit lane of each state per register),
//! so one pass of the round function permutes all four; elsewhere the portable path
//! runs [`f1600`] four times. Both paths give the same result as
//! [`f1600`] on each state, which the tests check on random states (the AVX2
//! path whenever the CPU has it; with `REFOPT_REQUIRE_SIMD` on, a CPU without it
//! fails the test instead of skipping it).
//!
//! The AVX2 code is the only `unsafe` in this crate's hashing: two unaligned loads and
//! stores of the state, and the call into the `avx2` target-feature function after the
//! runtime check. The round function itself has no branches, indices or memory
//! accesses that depend on the state.
#![allow(unsafe_code)]

/// Four Keccak states, lane-sliced: `s[i][j]` is lane i (FIPS 202 `A[x, y]` with
/// i = x + 5y) of state j.
pub type StateX4 = [[u64; 4]; 25];

/// The 24 round constants RC\[ir\] of ι (FIPS 202 Algorithm 5 / 6).
const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// Keccak-f\[1600\] on one state: the permutation of RustCrypto's `keccak` crate
/// (the one `sha3` and `shake` run; its portable backend on x86).
#[inline]
pub fn f1600(state: &mut [u64; 25]) {
    keccak::Keccak::new().with_f1600(|f| f(state));
}

/// Whether [`f1600_x4`] runs the AVX2 path on this CPU.
pub fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Keccak-f\[1600\] applied to each of the four states.
pub fn f1600_x4(s: &mut StateX4) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { avx2::f1600_x4(s) };
            return;
        }
    }
    f1600_x4_portable(s);
}

/// The portable path of [`f1600_x4`]: [`f1600`] on each state in turn.
pub fn f1600_x4_portable(s: &mut StateX4) {
    let mut one = [0u64; 25];
    for j in 0..4 {
        for (o, lane) in one.iter_mut().zip(s.iter()) {
            *o = lane[j];
        }
        f1600(&mut one);
        for (lane, &x) in s.iter_mut().zip(&one) {
            lane[j] = x;
        }
    }
    // A copy of the last state (secret when the PRF absorbed a seed).
    zeroize::Zeroize::zeroize(&mut one[..]);
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
        _mm256_xor_si256,
    };

    use super::{RC, StateX4};

    /// Rotation of each 64-bit lane left by a constant `0 < n < 64`.
    macro_rules! rol {
        ($x:expr, $n:literal) => {
            _mm256_or_si256(
                _mm256_slli_epi64::<$n>($x),
                _mm256_srli_epi64::<{ 64 - $n }>($x),
            )
        };
    }

    /// ρ and π together: `b[dst] = ROT(a[src], r)` for every lane, with
    /// dst = y + 5·((2x + 3y) mod 5) for src = x + 5y (FIPS 202 Algorithms 2 and 3),
    /// listed by dst.
    macro_rules! rho_pi {
        ($a:ident, $b:ident; $(($dst:literal, $src:literal, $r:literal)),* $(,)?) => {
            $( $b[$dst] = rol!($a[$src], $r); )*
        };
    }

    /// The round constant broadcast to the four states; planted
    /// (`keccak-x4-round-constant-in-state-0-only`, bug zoo): set in the first state's
    /// lane only, the others get 0. No mutants: plant scaffolding around the one line.
    #[mutants::skip]
    #[inline]
    #[target_feature(enable = "avx2")]
    fn round_constant(rc: u64) -> __m256i {
        if crate::plant::active("keccak-x4-round-constant-in-state-0-only") {
            _mm256_set_epi64x(0, 0, 0, rc as i64)
        } else {
            _mm256_set1_epi64x(rc as i64)
        }
    }

    /// x + 1 and x + 2 mod 5, for χ.
    const NEXT: [usize; 5] = [1, 2, 3, 4, 0];
    const NEXT2: [usize; 5] = [2, 3, 4, 0, 1];

    /// The 24 rounds on four lane-sliced states.
    #[target_feature(enable = "avx2")]
    pub(super) fn f1600_x4(s: &mut StateX4) {
        let p = s.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `s` is 25 contiguous `[u64; 4]`, i.e. 25 × 32 bytes; lane i is at
        // byte offset 32·i, and the unaligned load needs no alignment.
        let mut a: [__m256i; 25] =
            core::array::from_fn(|i| unsafe { _mm256_loadu_si256(p.add(i)) });
        let mut b = a;
        for rc in RC {
            // θ.
            let c: [__m256i; 5] = core::array::from_fn(|x| {
                _mm256_xor_si256(
                    _mm256_xor_si256(_mm256_xor_si256(a[x], a[x + 5]), a[x + 10]),
                    _mm256_xor_si256(a[x + 15], a[x + 20]),
                )
            });
            for x in 0..5 {
                let d = _mm256_xor_si256(c[NEXT2[NEXT2[x]]], rol!(c[NEXT[x]], 1));
                for y in 0..5 {
                    a[x + 5 * y] = _mm256_xor_si256(a[x + 5 * y], d);
                }
            }
            // ρ and π.
            b[0] = a[0];
            rho_pi!(a, b;
                (1, 6, 44), (2, 12, 43), (3, 18, 21), (4, 24, 14),
                (5, 3, 28), (6, 9, 20), (7, 10, 3), (8, 16, 45), (9, 22, 61),
                (10, 1, 1), (11, 7, 6), (12, 13, 25), (13, 19, 8), (14, 20, 18),
                (15, 4, 27), (16, 5, 36), (17, 11, 10), (18, 17, 15), (19, 23, 56),
                (20, 2, 62), (21, 8, 55), (22, 14, 39), (23, 15, 41), (24, 21, 2),
            );
            // χ: A[x, y] = B[x, y] ⊕ (¬B[x+1, y] ∧ B[x+2, y]).
            for y in 0..5 {
                for x in 0..5 {
                    a[x + 5 * y] = _mm256_xor_si256(
                        b[x + 5 * y],
                        _mm256_andnot_si256(b[NEXT[x] + 5 * y], b[NEXT2[x] + 5 * y]),
                    );
                }
            }
            // ι: the round constant in every state's lane.
            a[0] = _mm256_xor_si256(a[0], round_constant(rc));
        }
        for (i, lane) in a.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { _mm256_storeu_si256(p.add(i), *lane) };
        }
        // Copies of the states (secret when the PRF absorbed a seed), as the portable
        // path wipes its copy.
        zeroize::Zeroize::zeroize(&mut a);
        zeroize::Zeroize::zeroize(&mut b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// Four distinct, unstructured states from one seed.
    fn states(seed: u64) -> StateX4 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()))
    }

    fn one_at_a_time(s: &StateX4) -> StateX4 {
        let mut want = *s;
        for j in 0..4 {
            let mut one: [u64; 25] = core::array::from_fn(|i| s[i][j]);
            f1600(&mut one);
            for i in 0..25 {
                want[i][j] = one[i];
            }
        }
        want
    }

    #[test]
    fn both_paths_equal_keccak_f1600_on_each_state() {
        // On when set to anything but "" or "0", as the lab reads its switches.
        if std::env::var_os("REFOPT_REQUIRE_SIMD").is_some_and(|v| !v.is_empty() && v != "0") {
            assert!(
                simd_available(),
                "REFOPT_REQUIRE_SIMD is on but AVX2 is missing"
            );
        }
        for seed in 0..200 {
            let mut s = states(seed);
            if seed == 0 {
                s = [[0; 4]; 25];
            }
            let want = one_at_a_time(&s);
            let mut got = s;
            f1600_x4(&mut got);
            assert_eq!(got, want, "dispatching path, seed {seed}");
            let mut got = s;
            f1600_x4_portable(&mut got);
            assert_eq!(got, want, "portable path, seed {seed}");
        }
    }

    /// The permutation of the all-zero state, lane 0 and lane 24 (the Keccak team's
    /// published KeccakF-1600 intermediate values), on every instance.
    #[test]
    fn zero_state_known_answer() {
        let mut s = [[0u64; 4]; 25];
        f1600_x4(&mut s);
        assert_eq!(s[0], [0xf125_8f79_40e1_dde7; 4]);
        assert_eq!(s[24], [0xeaf1_ff7b_5cec_a249; 4]);
    }
}
