//! Planted bugs: deliberately wrong code behind a run-time switch, so every checking
//! mechanism of the lab can be shown to fail.
//!
//! A plant site is an ordinary branch in shipped code:
//!
//! ```text
//! if reference::plant::active("ed25519-mulm-no-final-subtraction") {
//!     return wrong;
//! }
//! ```
//!
//! Without the cargo feature `plant`, [`active`] is a `const fn` returning `false`:
//! the compiler removes the branch and a normal build carries no trace of it (this
//! workspace builds `dev` at opt-level 3 too; at opt-level 0 a test of the constant
//! `false` may remain, which tests no secret).
//! With the feature (one extra build that CI shares between the bug zoo, the proof
//! self-test, the fuzzing and constant-time self-tests), [`active`] is true for the
//! names listed, comma-separated, in the environment variable [`ENV`]
//! (`REFOPT_PLANT`). The variable is read once per process; the branch tests a public
//! value, never a secret.
//!
//! [`ALL`] lists every plant site with what it breaks, so tools can run them one at a
//! time and a test can check that each name in it is actually planted somewhere.

/// The environment variable naming the active plants (comma-separated).
pub const ENV: &str = "REFOPT_PLANT";

/// One planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plant {
    /// Name used in [`ENV`], `<scheme>-<what>`.
    pub name: &'static str,
    /// The realistic wrong optimization it stands for, and where it is planted.
    pub description: &'static str,
    /// Which mechanism is expected to report it (`zoo`, `prove`, `ct`, `fuzz`, ...).
    pub caught_by: &'static str,
}

/// Every plant site in the workspace, grouped by the mechanism that must catch it.
pub const ALL: &[Plant] = &[
    // --- bug zoo (docs/bug-zoo.md): caught by the default `refopt` run ---
    Plant {
        name: "mlkem-transposed-a",
        description: "encrypt_u multiplies by Â instead of Âᵀ (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-lazy-sum-two-terms",
        description: "encrypt_u sums the third product without reducing: a lazy sum sized for k = 2, wrong for k >= 3 (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-k4-unreduced-last-sum",
        description: "edge-only: for k = 4 (ML-KEM-1024 only) the last row adds e1 without the conditional subtraction of q (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-e1-in-ntt-domain",
        description: "encrypt_u adds e1 before the inverse NTT instead of after (optimized/src/mlkem)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-acc-22bit",
        description: "edge-only: Rq_mult_small's accumulator sign-extended from 22 bits, a bound sized for |g| <= 1; wrong only for |g| = 2 with large sums (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-acc-22bit-negative",
        description: "edge-only: Rq_mult_small's sum kept biased in 22 unsigned bits: only sums below -2^21 wrap (f = ±q12 with g = ∓2) (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-r3-acc-12bit",
        description: "edge-only: R3_mult's accumulator in 12 bits, enough for |f|, |g| <= 1 but not the |f|, |g| <= 2 the kernel accepts (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-rq-skip-last-column",
        description: "Rq_mult_small's high-half loop stops one column short (f[p-1]·g[p-1] lost) (optimized/src/sntrup761/poly.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "sntrup761-batched-last-word",
        description: "the batched draw decodes its last word from the previous word's bytes (optimized/src/sntrup761/random.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ntru-clmul-four-classes",
        description: "edge-only: the portable carry-less multiply with four bit classes and 4-bit holes (16 multiplies instead of 25): a dense word overflows a hole (optimized/src/ntruhps2048509/r2_inv.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ntru-chain-wrong-step",
        description: "the addition chain's fifth step multiplies by s2 instead of s3 (optimized/src/ntruhps2048509/r2_inv.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ntru-r2-pack-drops-508",
        description: "the R2 packing drops coefficient 508, the top bit (optimized/src/ntruhps2048509/r2_inv.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-addm-top-limb-only",
        description: "addm decides the subtraction of p on the top limb alone; wrong when w[3] = p[3] and w < p (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-subm-equal-returns-p",
        description: "edge-only: subm adds p back unless u > v, so u = v gives p instead of 0 (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-subm-no-clear-255",
        description: "edge-only: subm skips clearing bit 255 (\"the inputs are canonical\"): wrong only for u >= 2^255 + v (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-mulm-lost-carry",
        description: "edge-only: mulm's final fold adds the 19·(2cy + b255) word to limb 0 only, losing the carry out of one limb (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "ed25519-mulm-no-final-subtraction",
        description: "edge-only: mulm's final conditional subtraction of p dropped: wrong only when the folded value lies in [p, 2^255) (optimized/src/ed25519/field.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "mlkem-decaps-inverted-rejection-mask",
        description: "ML-KEM Decaps (shared by both tiers) selects with the comparison mask not negated: the implicit-rejection key for a valid ciphertext, K for a rejected one; the tiers agree, so only each tier's own round-trip contract in the API pairs (and the KATs) can see it (reference/src/mlkem/mod.rs)",
        caught_by: "zoo",
    },
    Plant {
        name: "keccak-x4-round-constant-in-state-0-only",
        description: "the AVX2 four-way Keccak-f[1600] (shared by both ML-KEM tiers) sets ι's round constant in the first state's lane only (_mm256_set_epi64x(0, 0, 0, rc) for a broadcast): states 1 to 3 are wrong, the tiers still agree (reference/src/keccak_x4.rs)",
        caught_by: "zoo",
    },
    // --- proof self-test: each `refopt prove` obligation fails on its mutant ---
    Plant {
        name: "sntrup761-batched-words-big-endian",
        description: "optimized::sntrup761::random::draw_words_over reads each word big-endian (bytes 4i+3..4i)",
        caught_by: "prove S-9",
    },
    Plant {
        name: "sntrup761-batched-draw-reads-a-word-more",
        description: "optimized::sntrup761::random::draw_words_over reads 3048 bytes (a buffer for p + 1 words) and uses the first 3044: the same words, but every later draw of the stream is 4 bytes ahead of the reference's",
        caught_by: "prove S-9",
    },
    Plant {
        name: "sntrup761-fq-freeze-off-by-one-multiplier",
        description: "reference::sntrup761::arith::fq_freeze multiplies by ⌊2^36/q⌋ instead of ⌊2^36/q⌋ + 1",
        caught_by: "prove S-3",
    },
    Plant {
        name: "sntrup761-f3-freeze-rounds-wrong",
        description: "reference::sntrup761::arith::f3_freeze multiplies by 43690 instead of ⌈2^17/3⌉ = 43691",
        caught_by: "prove S-4",
    },
    Plant {
        name: "sntrup761-prove-freeze-unsigned",
        description: "a fault in the proof's own model, not in shipped code: the symbolic Fq_freeze of S-7 and S-16 returns the representative in [0, q − 1], as a freeze that forgets to centre would; S-7a's check of the outputs' range must report it (the multiplications make Fq values only as inputs, zeros and freeze results, so no shipped plant reaches that check), and S-16's check of the values a swap sees",
        caught_by: "prove S-7a, S-16",
    },
    Plant {
        name: "sntrup761-r3-recip-loads-unfrozen",
        description: "reference::sntrup761::poly::r3_recip_over, shared by both tiers, loads the input coefficients unfrozen, as the C code does: from coefficients outside {-1, 0, 1} (Small_decode gives 2) the divstep's values leave {-1, 0, 1}, so its sign −g0·f0 can leave i8 and its updates' sums f3_freeze_sum's exact domain [-2, 2]",
        caught_by: "prove S-16",
    },
    Plant {
        name: "sntrup761-rq-deferred-skips-the-first-product",
        description: "optimized::sntrup761::poly::rq_mult_small_deferred_over leaves f[0]·g[i] out of the low coefficients",
        caught_by: "prove S-7a",
    },
    Plant {
        name: "sntrup761-r3-deferred-drops-the-last-product",
        description: "optimized::sntrup761::poly::r3_mult_deferred_over leaves f[p−1]·g[i−p+1] out of the high coefficients",
        caught_by: "prove S-7b",
    },
    Plant {
        name: "sntrup761-rq-wrap-drops-the-top-coefficient",
        description: "reference::sntrup761::poly::rq_wrap_over, shared by both tiers, leaves x^(2p−2) unfolded: the tiers agree, the definition does not",
        caught_by: "prove S-7a",
    },
    Plant {
        name: "sntrup761-r3-wrap-drops-the-top-coefficient",
        description: "reference::sntrup761::poly::r3_wrap_over, shared by both tiers, leaves x^(2p−2) unfolded: the tiers agree, the definition does not",
        caught_by: "prove S-7b",
    },
    Plant {
        name: "ntruhps2048509-pack-gather-moves-a-term",
        description: "optimized::ntruhps2048509::r2_inv::r2_from_poly_over gathers coefficient 1 with 2^34 instead of 2^33 (its bit collides with coefficient 2's)",
        caught_by: "prove N3-PACK",
    },
    Plant {
        name: "ntruhps2048509-unpack-mask-keeps-two-bits",
        description: "optimized::ntruhps2048509::r2_inv::r2_to_poly_over masks each 16-bit lane with 3 instead of 1: coefficient 4j + 1's bit lands in bit 1 of coefficient 4j",
        caught_by: "prove N3-PACK",
    },
    Plant {
        name: "ntruhps2048509-clmul-keeps-every-class",
        description: "optimized::ntruhps2048509::r2_inv::clmul64_portable_over keeps every bit of each class product instead of masking its class",
        caught_by: "prove N3-CLMUL",
    },
    Plant {
        name: "ntruhps2048509-pclmul-reads-the-high-lanes",
        description: "optimized::ntruhps2048509::r2_inv clmul64_sse_over uses pclmulqdq imm 0x11 (the high, zero, lanes)",
        caught_by: "prove N3-PCLMUL",
    },
    Plant {
        name: "ntruhps2048509-pclmul-high-half-from-the-low-lane",
        description: "optimized::ntruhps2048509::r2_inv clmul64_sse_over reads the product's high half from the low lane (no unpackhi)",
        caught_by: "prove N3-PCLMUL",
    },
    Plant {
        name: "ntruhps2048509-pclmul-native-swaps-the-halves",
        description: "optimized::ntruhps2048509::arch x86::clmul64 swaps the halves of the generic wrapper's product (native code outside the wrapper, which only the on-CPU basis pairs run; caught only on a CPU with PCLMULQDQ)",
        caught_by: "prove N3-PCLMUL",
    },
    Plant {
        name: "ntruhps2048509-karatsuba-middle-term-keeps-hi",
        description: "optimized::ntruhps2048509::r2_inv::mul512_over forgets to subtract hi from the Karatsuba middle term",
        caught_by: "prove N3-MUL",
    },
    Plant {
        name: "ntruhps2048509-benes-flips-a-mask-bit",
        description: "optimized::ntruhps2048509::r2_inv::multisquare_over flips bit 0 of the first stage's mask",
        caught_by: "prove N3-SQ",
    },
    Plant {
        name: "ntruhps2048509-chain-skips-the-final-squaring",
        description: "optimized::ntruhps2048509::r2_inv::r2_inv_chain_over returns s507 = a^(2^507 − 1), not its square",
        caught_by: "prove N3-CHAIN",
    },
    Plant {
        name: "ed25519-addm-keeps-the-borrowed-difference",
        description: "optimized::ed25519::field::ec_addm_25519 keeps w − p even when it borrowed",
        caught_by: "prove ED-1a",
    },
    Plant {
        name: "ed25519-subm-adds-p-unconditionally",
        description: "optimized::ed25519::field::ec_subm_25519 adds p back even when nothing borrowed",
        caught_by: "prove ED-1b",
    },
    Plant {
        name: "ed25519-reduce-drops-the-fold-carry",
        description: "optimized::ed25519::field::ec_mulm_25519_reduce hands its second half a carry of 0 instead of the first half's",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-join-claims-18",
        description: "a fault in the proof's own model, not in shipped code: ED-2's integer join claims c·2^256 + w = L + 18·H_low (the facts do not entail it, so the solver must answer sat: the join decides something)",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-new-join-claims-18",
        description: "a fault in the proof's own model, not in shipped code: ED-2's integer join claims the new first half gives L + 18·H_low (the solver must answer sat)",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-join-pairs-the-wrong-limbs",
        description: "a fault in the proof's own model, not in shipped code: ED-2's integer join claims old limb i equals new limb i+1 (the solver must answer sat)",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-multiplier-unknown",
        description: "a fault in the proof's own model, not in shipped code: ED-2 reads addmul_1's multiplier as a free variable (as a decomposition that lost the constant 19 would give); its guard that the multiplier is a constant must report it",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-new-l-rotated",
        description: "a fault in the proof's own model, not in shipped code: ED-2's guard reads the new first half's L one limb off (as a decomposition taking L from rotated limbs would give); the guard that both halves take L from the same terms must report it",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-facts-contradict",
        description: "a fault in the proof's own model, not in shipped code: ED-2's integer facts gain a contradiction (carry <= 1 and carry >= 2), under which every join claim would hold vacuously",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-addmul-1-step-drops-the-carry-in",
        description: "reference::ed25519::mpih::addmul_1_step ignores the carry-in limb",
        caught_by: "prove ED-2",
    },
    Plant {
        name: "ed25519-prove-old-carry-claims-8",
        description: "a fault in the proof's own model, not in shipped code: ED-3 claims the old reduction's carry is <= 8 (it reaches 9, so the solver must answer sat: the old bound's query decides something)",
        caught_by: "prove ED-3",
    },
    Plant {
        name: "ed25519-prove-tightness-refutes-9",
        description: "a fault in the proof's own model, not in shipped code: ED-3's tightness query asks the solver to refute carry <= 9 instead of <= 8 (it cannot, and the query must then fail)",
        caught_by: "prove ED-3",
    },
    Plant {
        name: "ed25519-prove-lemma-claims-one-less",
        description: "a fault in the proof's own model, not in shipped code: ED-3 checks each in-code carry lemma at its bound minus one (the bound 19 is reached on some input, so the solver must answer sat)",
        caught_by: "prove ED-3",
    },
    Plant {
        name: "ed25519-fold19-multiplies-by-21",
        description: "optimized::ed25519::field::ec_mulm_25519_fold19 folds 21·H_low instead of 19·H_low",
        caught_by: "prove ED-3",
    },
    Plant {
        name: "mlkem-reduce-skips-the-final-subtraction",
        description: "reference::mlkem::field::reduce returns the Barrett remainder in [0, 2q) without the final conditional subtraction",
        caught_by: "prove MLKEM-1",
    },
    Plant {
        name: "mlkem-sub-forgets-the-offset",
        description: "reference::mlkem::field::sub computes a − b without adding q first (wraps for a < b)",
        caught_by: "prove MLKEM-2",
    },
    Plant {
        name: "mlkem-mul-sub-offset-2q",
        description: "reference::mlkem::field::mul_sub adds 2q instead of q to b − c: a·(b − c + 2q) reaches 3q², outside reduce's domain [0, 2q²)",
        caught_by: "prove MLKEM-3",
    },
    Plant {
        name: "mlkem-sub-subtracts-before-the-offset",
        description: "reference::mlkem::field::sub computes a − b + q instead of a + q − b: the u16 subtraction overflows for a < b (the wrapped sum is still right in a release build; a debug build panics)",
        caught_by: "prove MLKEM-3",
    },
    Plant {
        name: "mlkem-mul-sub-operands-swapped",
        description: "reference::mlkem::field::mul_sub computes a·(c − b): in range and without overflow, but the negated product (the NTT⁻¹ butterfly's ζ·(f − t) turned around)",
        caught_by: "prove MLKEM-3",
    },
    Plant {
        name: "mlkem-mul-sub-adds-one-after-the-reduction",
        description: "reference::mlkem::field::mul_sub adds 1 (wrapping) to reduce's result: the argument of reduce is right, the returned value is not",
        caught_by: "prove MLKEM-3",
    },
    Plant {
        name: "mlkem-add-mul-products-through-u64",
        description: "reference::mlkem::field::add_mul computes its products through a wrapping u64 product cut to 32 bits: the same values, but the u32 multiplication's overflow check is gone (a proof that matched terms alone would not see it)",
        caught_by: "prove MLKEM-3",
    },
    Plant {
        name: "mlkem-inverse-ntt-skips-the-scaling",
        description: "reference::mlkem::ntt::inverse_ntt omits the final multiplication by 128⁻¹",
        caught_by: "prove MLKEM-4",
    },
    Plant {
        name: "mlkem-inverse-ntt-adds-a-constant",
        description: "reference::mlkem::ntt::inverse_ntt_over adds 1 to its first output: an affine map, so only MLKEM-4's linearity test (no constant term) can see it before the round trip",
        caught_by: "prove MLKEM-4",
    },
    Plant {
        name: "mlkem-encrypt-u-transposed",
        description: "optimized::mlkem::encrypt_u_merged uses Â instead of Âᵀ",
        caught_by: "prove MLKEM-5",
    },
    Plant {
        name: "mlkem-encrypt-u-wipes-the-product-early",
        description: "optimized::mlkem::encrypt_u_merged wipes each product Â[j][i]∘ŷ[j] before adding it to the sum: the proof's symbolic wipe must model the zeroize",
        caught_by: "prove MLKEM-5",
    },
    Plant {
        name: "sntrup761-rq-deferred-wipes-before-the-wrap",
        description: "optimized::sntrup761::poly::rq_mult_small_deferred_over wipes the unreduced product before the wrap-around reads it: the proof's symbolic wipe must model the zeroize",
        caught_by: "prove S-7a",
    },
    Plant {
        name: "ntruhps2048509-chain-wipes-a-square-early",
        description: "optimized::ntruhps2048509::r2_inv::r2_inv_chain_over wipes the last step's squaring before multiplying by it: the proof's symbolic wipe must model the zeroize",
        caught_by: "prove N3-CHAIN",
    },
    Plant {
        name: "ntruhps2048509-karatsuba-wipes-hi-early",
        description: "optimized::ntruhps2048509::r2_inv::mul512_over wipes the high half's product before the Karatsuba middle term subtracts it: the proof's symbolic wipe (Bits::wipe64) must model the zeroize",
        caught_by: "prove N3-MUL",
    },
    // --- constant-time checks (ctgrind, the division scan) ---
    Plant {
        name: "mlkem-decaps-variable-time-compare",
        description: "ML-KEM Decaps compares the ciphertext with its re-encryption c' by slice \
            equality (memcmp, early exit at the first difference) instead of ct::eq_mask: \
            a branch on the secret c' (reference::mlkem::decapsulate, both tiers)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "sntrup761-decaps-variable-time-compare",
        description: "sntrup761 Decaps compares the ciphertext with its re-encryption by slice \
            equality (memcmp, early exit at the first difference) instead of \
            ct::eq_mask: a branch on the secret re-encryption \
            (reference::sntrup761::kem::decapsulate, every tier)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "ntruhps2048509-encaps-branches-on-the-draw",
        description: "NTRU-HPS-2048-509 crypto_kem_enc branches on the first secret byte it draws \
            (reference::ntruhps2048509::encaps, every tier; memcheck names the harness's \
            Variant::encaps, the frame it is inlined into)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "ntruhps2048509-keygen-checks-f0-only",
        description: "NTRU-HPS-2048-509 key generation refuses a seed when f's first coefficient \
            is 0 instead of when every coefficient is (reference::ntruhps2048509::owcpa, every \
            tier): refopt-ctgrind's assert that no random seed is refused must fire (run \
            natively, no memcheck needed)",
        caught_by: "ctgrind (refopt-ctgrind's own asserts)",
    },
    Plant {
        name: "sntrup761-encaps-branches-on-r",
        description: "sntrup761 Encap branches on the first coefficient of the secret r it draws \
            (reference::sntrup761::kem::encapsulate, every tier)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "secret-eq-branches-on-the-verdict",
        description: "the `==` every secret key type and SharedSecret share \
            (ct::secret_hygiene!) branches on its constant-time verdict, as an early-exit \
            comparison would: a branch on secret bytes (memcheck names \
            <reference::mlkem::KeyPair as PartialEq>::eq and \
            <reference::shared_secret::SharedSecret as PartialEq>::eq, called from the harness's \
            compare_secret)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "mlkem-keygen-branches-on-the-draw",
        description: "ML-KEM.KeyGen branches on the first secret byte it draws \
            (reference::mlkem::keygen; memcheck names the harness's Variant::keygen, the \
            frame it is inlined into)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "ntruhps2048509-decaps-branches-on-fail",
        description: "NTRU-HPS-2048-509 Decaps picks the implicit-rejection key with `if fail` \
            instead of ct::select_into: a branch on the secret decryption-failure flag \
            (reference::ntruhps2048509::decaps, every tier)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "ed25519-scalar-mul-indexes-the-table",
        description: "Ed25519's windowed scalar multiplication reads the table entry at the \
            secret index |digit| instead of scanning all nine with masks: a secret memory \
            index (reference::ed25519::point::scalar_mul_with_table, both tiers: signing's \
            [r]B and key generation's [a]B)",
        caught_by: "ctgrind (refopt-ctgrind under valgrind memcheck)",
    },
    Plant {
        name: "mlkem-compress-divides-by-q",
        description: "Compress_d divides x·2^(d+1) + q by 2q with a hardware division by a \
            run-time q instead of the multiply-shift (KyberSlash): a division of a secret \
            (reference::mlkem::encode::compress, both tiers); the result is unchanged, so \
            only a constant-time check can see it",
        caught_by: "divscan (refopt-ctgrind scan-divisions)",
    },
    // --- fuzzing (fuzz/README.md, .ci/fuzz.sh) ---
    Plant {
        name: "mlkem-modulus-check-accepts-q",
        description: "the ek modulus check of FIPS 203 section 7.2 written with an off-by-one bound: a 12-bit value equal to q passes (reference::mlkem::encode::byte_decode_12_checked, both tiers); the harness's own check of every value < q reports it",
        caught_by: "fuzz (the mlkem_ek parser target)",
    },
    Plant {
        name: "ntruhps2048509-decaps-skips-the-secret-key-length",
        description: "NTRU-HPS-2048-509 crypto_kem_dec checks the ciphertext's length but not the secret key's: a short key is copied out of range (a panic), a long one decapsulates instead of Error::InvalidLength (reference::ntruhps2048509::decaps, every tier)",
        caught_by: "fuzz (the ntru_decaps parser target)",
    },
    Plant {
        name: "ntruhps2048509-s3-frombytes-skips-the-reduction",
        description: "poly_S3_frombytes leaves its base-3 digits unreduced: coefficients up to 255 instead of 0..2 (reference::ntruhps2048509::pack, every tier)",
        caught_by: "fuzz (the ntru_decode parser target)",
    },
    Plant {
        name: "sntrup761-small-decode-last-coefficient-unbiased",
        description: "Small_decode writes the tail coefficient without the −1: 0..3 instead of −1..2 (reference::sntrup761::encode::small_decode, every tier)",
        caught_by: "fuzz (the sntrup761_decode parser target)",
    },
    Plant {
        name: "ed25519-verify-strict-is-verify",
        description: "verify_strict does not pass its strict flag on: small-order keys and commitments are accepted as by verify (reference::ed25519::verify_strict, both tiers)",
        caught_by: "fuzz (the ed25519_verify parser target)",
    },
    Plant {
        name: "ed25519-sign-input-skips-the-field-lengths",
        description: "the sign.input line checker slices its fields before checking their lengths: a short field panics (equivalence::ed25519::check_line, both tiers)",
        caught_by: "fuzz (the sign_input parser target)",
    },
    Plant {
        name: "kat-response-skips-the-seed-length",
        description: "the KAT response reader copies the seed into its 48-byte array without checking the length: a panic on a wrong-length seed (equivalence::kat::parse_response)",
        caught_by: "fuzz (the kat_response parser target)",
    },
    Plant {
        name: "mlkem-rejection-key-over-c-prime",
        description: "ML-KEM Decaps (shared by both tiers) computes the implicit-rejection key \
            as J(z ‖ c') over its re-encryption instead of J(z ‖ c): the tiers agree; the \
            mlkem_decaps target's own J(z ‖ c) must see it (reference/src/mlkem/mod.rs)",
        caught_by: "fuzz",
    },
    Plant {
        name: "mlkem-decaps-no-length-check",
        description: "ML-KEM Decaps drops the ciphertext length check (\"the caller checked it\"): \
            a short ciphertext indexes out of range, a long one gets a key instead of \
            Error::InvalidLength (reference::mlkem::decaps and decapsulate, both tiers)",
        caught_by: "fuzz (the mlkem_decaps parser target)",
    },
    Plant {
        name: "mlkem-check-ek-skips-the-modulus",
        description: "the stand-alone encapsulation-key check of FIPS 203 section 7.2 \
            stops after the length: an ek with a value >= q passes it, while \
            encapsulation (EncapsulationKey::from_bytes, its own modulus check) refuses \
            the same key (reference::mlkem::check_encapsulation_key, which no \
            encapsulation calls)",
        caught_by: "fuzz (the mlkem_ek parser target)",
    },
    Plant {
        name: "mlkem-check-dk-skips-the-hash",
        description: "the decapsulation-key check of FIPS 203 section 7.3 stops after the \
            length: a dk whose stored H(ek) is wrong passes it, and so decapsulates \
            (reference::mlkem::check_decapsulation_key, which DecapsulationKey::from_bytes \
            calls, and decaps through it; both tiers)",
        caught_by: "fuzz (the mlkem_decaps parser target)",
    },
    Plant {
        name: "mlkem-decaps-trusts-the-stored-hash",
        description: "ML-KEM's dk parser checks the length but trusts the stored H(ek) \
            (\"the key is our own\"): from_bytes and decaps take a dk with a wrong \
            hash instead of returning Error::HashCheck, while the stand-alone check \
            still refuses it (reference::mlkem::DecapsulationKey::from_bytes, both \
            tiers)",
        caught_by: "fuzz (the mlkem_decaps parser target)",
    },
    Plant {
        name: "ed25519-verify-accepts-a-non-canonical-s",
        description: "Ed25519 verification without the S < L check of RFC 8032 5.1.7: \
            R ‖ (S + L) verifies wherever R ‖ S does (malleability; \
            reference::ed25519::verify_vartime, both tiers and both modes)",
        caught_by: "fuzz (the ed25519_verify parser target)",
    },
    Plant {
        name: "ed25519-challenge-omits-the-message",
        description: "the Ed25519 challenge k hashes R ‖ A without M, in signing and \
            verification alike: a valid signature under a key verifies for every \
            message, and the tiers agree (reference::ed25519::challenge)",
        caught_by: "fuzz (the ed25519_verify parser target)",
    },
    Plant {
        name: "sntrup761-decaps-rejection-hashes-r",
        description: "sntrup761 KEM_Decap (shared by every tier) skips the constant-time \
            select of ρ: a rejected ciphertext's key hashes the decrypted r with b = 0 \
            instead of ρ, so it is neither the real key nor the implicit-rejection key \
            (and depends on the secret r); the tiers agree, the sntrup761_decaps \
            target's own Hash0(Hash3(ρ) ‖ c) must see it (reference/src/sntrup761/kem.rs)",
        caught_by: "fuzz (the sntrup761_decaps parser target)",
    },
    Plant {
        name: "ntruhps2048509-decaps-skips-the-ciphertext-check",
        description: "NTRU-HPS-2048-509 owcpa_dec drops owcpa_check_ciphertext (\"the \
            unpacking ignores those bits\"): a valid ciphertext with an unused top bit of \
            its last byte set decapsulates to the real key instead of the \
            implicit-rejection key, a second ciphertext for the same key \
            (reference::ntruhps2048509::owcpa, every tier); the ntru_decaps target's \
            own SHA3-256(PRF key ‖ c) must see it",
        caught_by: "fuzz (the ntru_decaps parser target)",
    },
    Plant {
        name: "sntrup761-decode-skips-the-r1-reduction",
        description: "sntrup761's Decode keeps r1 unreduced (\"needed only for inputs that \
            Encode never produces\"): a string Encode never writes decodes to values >= \
            the modulus, so Rq_decode and Rounded_decode leave [-q12, q12] \
            (reference::sntrup761::encode::decode, every tier); canonical encodings, and so \
            the KATs, are unaffected",
        caught_by: "fuzz (the sntrup761_decode parser target: its range checks)",
    },
    Plant {
        name: "sntrup761-rounded-encode-third-rounded-down",
        description: "Rounded_encode divides by 3 as (x·10922) >> 15, the reciprocal 2^15/3 \
            rounded down instead of up: every nonzero multiple of 3 loses one \
            (reference::sntrup761::encode::rounded_encode, every tier)",
        caught_by: "fuzz (the sntrup761_decode parser target: its round trip)",
    },
    Plant {
        name: "ntruhps2048509-rq-sum-zero-skips-the-first-coefficient",
        description: "poly_Rq_sum_zero_frombytes sums coefficients 1..n-2 for the last one, \
            leaving out coefficient 0: the coefficients no longer sum to 0 mod q \
            (reference::ntruhps2048509::pack, every tier)",
        caught_by: "fuzz (the ntru_decode parser target: its sum check)",
    },
    Plant {
        name: "ntruhps2048509-sq-tobytes-drops-the-last-half-byte",
        description: "poly_Sq_tobytes writes 698 whole bytes of the 5 588 bits and drops the \
            last half byte: the top 4 bits of coefficient 507 are lost \
            (reference::ntruhps2048509::pack, every tier)",
        caught_by: "fuzz (the ntru_decode parser target: its round trip)",
    },
    Plant {
        name: "sntrup761-rq-encode-offsets-only-the-first",
        description: "Rq_encode adds q12 to the first coefficient only: every other \
            coefficient is encoded without its offset (reference::sntrup761::encode::rq_encode, \
            every tier)",
        caught_by: "fuzz (the sntrup761_decode parser target: its Rq round trip)",
    },
    Plant {
        name: "sntrup761-small-encode-last-byte-without-the-offset",
        description: "Small_encode writes the tail coefficient as f instead of f + 1 \
            (reference::sntrup761::encode::small_encode, every tier)",
        caught_by: "fuzz (the sntrup761_decode parser target: its Small round trip)",
    },
    Plant {
        name: "ntruhps2048509-s3-tobytes-digits-reversed",
        description: "poly_S3_tobytes runs its digit loop upwards: coefficient 5i becomes \
            the most significant base-3 digit instead of the least \
            (reference::ntruhps2048509::pack, every tier)",
        caught_by: "fuzz (the ntru_decode parser target: its S3 round trip)",
    },
    Plant {
        name: "mlkem-modulus-check-relies-on-wrapping",
        description: "the ek modulus check of FIPS 203 section 7.2 computes c - q with a \
            plain `-` instead of wrapping_sub (\"release builds wrap anyway\"): the same \
            bits in a build without overflow checks, a panic for every c < q in one with \
            them (reference::mlkem::encode::byte_decode_12_checked, both tiers). The fuzz \
            build has no overflow checks in `reference`, so only the debug-build replay \
            of the smoke corpora sees it",
        caught_by: "fuzz replay (.ci/fuzz.sh: smoke corpora through a debug build)",
    },
    Plant {
        name: "ntruhps2048509-rq-mul-fold-skips-x509",
        description: "the optimized poly_Rq_mul's fold of the Toom-4 product onto \
            x^509 − 1 leaves x^509 out of coefficient 0 (both instances: the baseline one \
            in optimized/src/ntruhps2048509/rq_mul.rs, the AVX2 one in arch.rs): every \
            product with a nonzero x^509 term is wrong in one coefficient",
        caught_by: "fuzz (the ntru_encaps parser target)",
    },
    Plant {
        name: "ntruhps2048509-encaps-draws-a-padded-seed",
        description: "NTRU-HPS-2048-509 crypto_kem_enc draws its 2413-byte seed into a \
            buffer of whole 8-byte words (2416 bytes, \"for the word loads\") and uses the \
            first 2413 (reference::ntruhps2048509::encaps, every tier): ciphertext and key \
            unchanged, and a KAT, whose encapsulation is its last draw, passes; only the \
            count of bytes drawn differs, which shifts every later draw of a shared \
            deterministic source",
        caught_by: "fuzz (the ntru_encaps parser target: its draw check)",
    },
    // --- benchmark gate (.ci/bench.sh: gungraun instructions and DHAT heap, 5 %) ---
    Plant {
        name: "bench-ed25519-sign-allocates",
        description: "Ed25519 sign (shared by both tiers, reference/src/ed25519/mod.rs) copies \
                      the signature into a heap Vec it drops",
        caught_by: "bench",
    },
    Plant {
        name: "bench-ed25519-sign-extra-cost",
        description: "Ed25519 sign (reference/src/ed25519/mod.rs) hashes the signature 40 \
                      more times: about 20 % more instructions",
        caught_by: "bench",
    },
];

/// Whether the planted bug `name` is switched on (always `false` without the `plant`
/// feature).
#[cfg(not(feature = "plant"))]
#[inline(always)]
#[must_use]
pub const fn active(name: &str) -> bool {
    let _ = name;
    false
}

/// Whether the planted bug `name` is switched on: listed in [`ENV`].
#[cfg(feature = "plant")]
#[must_use]
pub fn active(name: &str) -> bool {
    use std::sync::OnceLock;
    static ON: OnceLock<Vec<String>> = OnceLock::new();
    ON.get_or_init(|| {
        std::env::var(ENV)
            .unwrap_or_default()
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    })
    .iter()
    .any(|n| n == name)
}

/// The plants of one mechanism (`caught_by`), in order.
pub fn caught_by(mechanism: &str) -> impl Iterator<Item = &'static Plant> + '_ {
    ALL.iter().filter(move |p| p.caught_by == mechanism)
}

/// Whether this build carries the plant sites (the `plant` feature).
#[must_use]
pub const fn compiled_in() -> bool {
    cfg!(feature = "plant")
}
