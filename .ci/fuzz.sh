#!/usr/bin/env bash
# Fuzzing in CI (fuzz/README.md):
# 1. .clusterfuzzlite/build.sh builds every target (fuzz/targets.txt) into a scratch
#    $OUT, as ClusterFuzzLite would (-O --no-trace-compares): nightly with
#    AddressSanitizer when a nightly toolchain is there, else the pinned stable with
#    `--sanitizer none`. One build,
#    with the `plant` feature, so the planted-bug checks below reuse it; a plant is
#    off unless REFOPT_PLANT names it.
# 2. A smoke run of every target: 3 s each (the targets that drive the slow sntrup761
#    reference: 2 s), from the committed seeds; any crash fails. Then the corpus it
#    grew (seeds and new inputs) is replayed through `refopt fuzz run` built in the
#    dev profile, with overflow checks and debug assertions in every crate: the fuzz
#    build has no overflow checks in `reference` (fuzz/Cargo.toml says why), so an
#    overflow there that wraps to the right bits, or that both tiers share, would
#    otherwise go unseen. Any finding fails.
# 3. Planted bugs, each found from the committed seeds within its time limit:
#    ed25519-mulm-no-final-subtraction (wrong only when mulm's folded value lies in
#    [p, 2^255)) by ed25519_mulm; mlkem-decaps-no-length-check (a parser bug) and
#    mlkem-e1-in-ntt-domain (the tiers' verdicts differ) by mlkem_decaps;
#    ntruhps2048509-encaps-draws-a-padded-seed (both tiers draw 3 bytes too many,
#    results unchanged: only the draw check sees it) by ntru_encaps; and one or
#    two plants for each cheaper fuzz check (Pair::run_fuzz, ExactProducts,
#    Products::Exact), listed below, so that every target runs at least one plant
#    (since 2026-12-05 also keccak_x4, ntru_rq_mul, ntru_r2_mul, ed25519_addm,
#    ed25519_subm and the three API targets that had none; and plants for the parser
#    checks that had none: the ML-KEM key checks, Ed25519's refusal of a changed
#    real signature, the sntrup761 and NTRU decapsulation targets' rejection-key
#    checks, and the decoder targets' range, sum and round-trip checks). The first
#    crash is turned into a regression
#    line with `refopt fuzz keep` (plant build of .ci/plant-build.sh) and replayed:
#    it must fail with the plant and pass without, and its finding must match the
#    plant's expected report (the pair and the check meant to find it; since
#    2026-12-05), which the two ed25519_verify refusal plants show can refuse.
# 4. The replay's self-test: mlkem-modulus-check-relies-on-wrapping (a plain `-` that
#    wraps in the shared ek decoder) must not crash the fuzz build of mlkem_ek (the
#    same bits without overflow checks) and must be reported by the debug replay of
#    that target's corpus.
# 5. The debug contracts fire: with a plant on, the dev build's optimized kernel
#    panics with its own `Kernels::... ensures` message (sntrup761's two products,
#    NTRU's R2 inverse and product); about a second in all.
# Budget (measured 2026-12-03 on the 2-core machine, nothing else running, nightly
# with AddressSanitizer), before the plant build below was shared: 4 min 40 s in all:
# build 90 s (warm target directory), the replay's dev build 20 s (after `cargo test
# --workspace`), smoke runs and replays 99 s (the replays about 3 s of it), planted
# bugs 71 s, most of it a plant build of its own in fuzz-ci's target directory. Now
# the plant build is the workspace's (.ci/plant-build.sh, shared with the other plant
# self-tests: only a freshness check when they ran first, as in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
say() { echo "fuzz: [$(( $(date +%s) - start ))s] $*"; }

source .ci/tools.sh
need_cargo_fuzz
if ! command -v zip >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zip >/dev/null
fi
main_target="${CARGO_TARGET_DIR:-$PWD/target}"
# Its own target directory: a developer's fuzz/target (another toolchain or
# sanitizer) is left alone.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/fuzz-ci"
out=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT

if cargo +nightly --version >/dev/null 2>&1; then
  export RUSTUP_TOOLCHAIN=nightly
  args="--sanitizer address --features equivalence/plant"
  say "building every target with .clusterfuzzlite/build.sh (nightly, AddressSanitizer)"
else
  args="--sanitizer none --features equivalence/plant"
  say "building every target with .clusterfuzzlite/build.sh (stable, no sanitizer: no nightly here)"
fi
SRC="$PWD/.." OUT="$out" REFOPT_ROOT="$PWD" REFOPT_FUZZ_ARGS="$args" \
  bash .clusterfuzzlite/build.sh | tee "$work/build.log"
want=$(grep -cv '^#' fuzz/targets.txt)
grep -qx "built $want fuzz targets into $out" "$work/build.log" \
  || { echo "fuzz: build.sh did not report building all $want targets" >&2; exit 1; }
for t in $(awk '!/^#/{print $1}' fuzz/targets.txt); do
  [ -x "$out/$t" ] && [ -f "$out/$t.options" ] && [ -f "$out/$t.dict" ] \
    && [ -s "$out/${t}_seed_corpus.zip" ] \
    || { echo "fuzz: $t was not built into \$OUT (binary, options, dictionary, seed corpus)" >&2; exit 1; }
done
say "all $want targets built, with options, dictionaries and seed corpora"
unset RUSTUP_TOOLCHAIN

# One target, from a copy of its committed seeds, for at most $2 seconds; extra
# arguments go to libFuzzer. Prints the last stats line; returns libFuzzer's status.
run() {
  local t=$1 secs=$2; shift 2
  local max_len dict
  read -r _ _ max_len dict < <(grep "^$t " fuzz/targets.txt)
  rm -rf "$work/corpus" "$work/art" && mkdir -p "$work/corpus" "$work/art"
  # `exit`, not a status: callers test run's status (`if run`), where set -e is off.
  cp fuzz/seeds/"$t"/* "$work/corpus/" || { echo "fuzz: no committed seeds for $t" >&2; exit 1; }
  "$out/$t" "$work/corpus" -max_len="$max_len" -dict="$out/$t.dict" \
    -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$work/art/" "$@" \
    >"$work/log" 2>&1
}

# The replay binary: the dev profile (overflow checks and debug assertions on in every
# crate) of the workspace's own target directory, whose dependencies the README's
# `cargo test --workspace` has already built; with the `plant` feature for step 4.
say "building refopt in the dev profile (overflow checks everywhere) for the corpus replay"
CARGO_TARGET_DIR="$main_target" cargo build -q -p equivalence --features plant --bin refopt
replay_bin="$work/refopt-dev"
cp "$main_target/debug/refopt" "$replay_bin"

# Replays every file of $work/corpus through the dev build of target $1; prints
# "<compared> <preconditions-only>"; returns 1 on any finding (the report in $work/replay).
replay() {
  "$replay_bin" fuzz run "$1" "$work"/corpus/* >"$work/replay" 2>&1 || return 1
  echo "$(grep -c ': compared, no finding$' "$work/replay") $(grep -c ': precondition not met$' "$work/replay")"
}

say "smoke run of every target, then its corpus replayed through the dev build"
printf '%-18s %-7s %10s %8s %9s\n' target class execs exec/s replayed
while read -r t class _ _; do
  case "$t" in ''|'#'*) continue ;; esac
  secs=3
  case "$t" in sntrup761_api|sntrup761_decaps|sntrup761_encaps|sntrup761_mult) secs=2 ;; esac
  if ! run "$t" "$secs"; then
    echo "fuzz: $t crashed in its smoke run:" >&2
    tail -30 "$work/log" >&2
    exit 1
  fi
  if ! counts=$(replay "$t"); then
    echo "fuzz: $t's smoke corpus has a finding in the dev build (overflow checks, debug assertions):" >&2
    { grep -A8 'FINDING' "$work/replay" || tail -40 "$work/replay"; } | head -40 >&2 || true
    exit 1
  fi
  read -r compared skipped <<<"$counts"
  files=$(find "$work/corpus" -type f | wc -l)
  if [ "$((compared + skipped))" != "$files" ]; then
    echo "fuzz: the replay of $t reported $((compared + skipped)) of $files corpus files" >&2
    exit 1
  fi
  printf '%-18s %-7s %10s %8s %9s\n' "$t" "$class" \
    "$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")" \
    "$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")" "$files"
done < fuzz/targets.txt
say "every smoke corpus replayed through the dev build with no finding"

# The workspace's target directory, not fuzz-ci's: the plant build the other
# self-tests made.
bin=$(CARGO_TARGET_DIR="$main_target" bash .ci/plant-build.sh)
# plant|target|limit (s)|want: each plant must crash its target within the limit,
# from the committed seeds, and the kept crash must fail (with the plant on) with a
# finding that matches the extended regular expression `want`: the pair and the check
# that is meant to find that plant, so that a crash of another check (a panic, another
# pair of the target) does not count as finding it.
kept_dir="$work/kept"
mkdir -p "$kept_dir"
# The finding of a kept crash ("on this build: fails: <finding>") matches $2.
reported_as() { LC_ALL=C grep -qE -- "on this build: fails: $2" "$1"; }
declare -A want_of
while IFS='|' read -r plant t limit want; do
  s0=$(date +%s%N)
  if REFOPT_PLANT="$plant" run "$t" "$limit" </dev/null; then
    echo "fuzz: $t did not find the planted bug $plant in ${limit}s" >&2
    exit 1
  fi
  ms=$(( ($(date +%s%N) - s0) / 1000000 ))
  crash=$(find "$work/art" -type f | head -1)
  [ -n "$crash" ] || { echo "fuzz: $t stopped without a crash file:" >&2; tail -20 "$work/log" >&2; exit 1; }
  # The last libFuzzer status line (#N); none when a committed seed itself crashed.
  execs=$(grep -o '^#[0-9]\+' "$work/log" | tail -1 || true)
  say "$plant: found by $t in ${ms} ms (${execs:-on loading the seeds, before any} executions; from the committed seeds)"
  # The crash becomes a regression line; with the plant it fails, without it passes.
  if ! REFOPT_PLANT="$plant" "$bin/refopt" fuzz keep "$t" "$crash" --regressions "$work/regr" >"$work/keep" 2>&1 </dev/null; then
    cat "$work/keep" >&2; exit 1
  fi
  reported_as "$work/keep" "$want" || {
    cat "$work/keep" >&2
    echo "fuzz: $t found $plant, but not with the check meant for it (want: $want)" >&2
    exit 1
  }
  say "  reported as: $(grep -o 'on this build: fails: .*' "$work/keep" | sed 's/^on this build: fails: //; s/)$//')"
  cp "$work/keep" "$kept_dir/$plant@$t"
  want_of[$plant@$t]=$want
  "$bin/refopt" fuzz run "$t" "$crash" >/dev/null </dev/null \
    || { echo "fuzz: the crash of $plant fails without the plant" >&2; exit 1; }
  rm -rf "$work/regr"
done <<'EOF_PLANTS'
ed25519-mulm-no-final-subtraction|ed25519_mulm|300|ed25519/mulm: w differs
mlkem-decaps-no-length-check|mlkem_decaps|120|mlkem_decaps: (wrong-length ciphertext: expected Err|panicked: .*out of range)
mlkem-e1-in-ntt-domain|mlkem_decaps|120|mlkem_decaps: [a-z]+ parsed-key decapsulate .* differs from [a-z]+ decaps
mlkem-rejection-key-over-c-prime|mlkem_decaps|120|mlkem_decaps: generated key: K = key #
mlkem-e1-in-ntt-domain|mlkem_encrypt_u|120|ml-kem/encrypt-u: NTT\(u\[[0-3]\] .* differs
sntrup761-batched-last-word|sntrup761_draws|120|sntrup761/(short|small)-random: poly( \(replayed stream\))? differs
sntrup761-rq-deferred-skips-the-first-product|sntrup761_decaps|120|sntrup761_decaps: decapsulate: the tiers differ
sntrup761-rq-deferred-skips-the-first-product|sntrup761_api|120|sntrup761/[^:]*: .* differs first at byte
sntrup761-rq-deferred-skips-the-first-product|sntrup761_encaps|120|sntrup761_encaps: encapsulate: the tiers differ
ntruhps2048509-rq-mul-fold-skips-x509|ntru_encaps|120|ntru_encaps: [a-z-]+: the tiers differ
ntruhps2048509-encaps-draws-a-padded-seed|ntru_encaps|120|ntru_encaps: .* tier drew 2413 bytes and more, expected 2413
sntrup761-batched-last-word|sntrup761_api|120|sntrup761/[^:]*: .* differs first at byte
ntruhps2048509-benes-flips-a-mask-bit|ntru_r2_inv|120|ntruhps2048509/r2-inv/[^:]*: .* differs first at byte
ntruhps2048509-chain-skips-the-final-squaring|ntru_rq_inv|120|ntruhps2048509/rq-inv/[^:]*: .* differs first at byte
sntrup761-acc-22bit-negative|sntrup761_mult|120|sntrup761/rq-mult-small: h differs
sntrup761-r3-deferred-drops-the-last-product|sntrup761_mult|120|sntrup761/r3-mult: h differs
mlkem-modulus-check-accepts-q|mlkem_ek|120|mlkem_ek: ek with a value >= q: expected Err\(ModulusCheck\)
mlkem-check-ek-skips-the-modulus|mlkem_ek|120|mlkem_ek: check_encapsulation_key gives Ok
mlkem-check-dk-skips-the-hash|mlkem_decaps|120|mlkem_decaps: check_decapsulation_key gives Ok
mlkem-decaps-trusts-the-stored-hash|mlkem_decaps|120|mlkem_decaps: dk with a wrong H\(ek\): expected Err\(HashCheck\)
ed25519-verify-accepts-a-non-canonical-s|ed25519_verify|120|ed25519_verify: a real signature, S replaced by S \+ L, was accepted
ed25519-challenge-omits-the-message|ed25519_verify|120|ed25519_verify: a real signature, byte [0-9]+ of .* changed, was accepted
ntruhps2048509-decaps-skips-the-secret-key-length|ntru_decaps|120|ntru_decaps: (wrong-length secret key: expected Err|panicked: .*(out of range|does not match))
sntrup761-decaps-rejection-hashes-r|sntrup761_decaps|120|sntrup761_decaps: generated key pair, changed ciphertext: K = .*the implicit-rejection key
ntruhps2048509-decaps-skips-the-ciphertext-check|ntru_decaps|120|ntru_decaps: unused ciphertext bits set: K = .*the implicit-rejection key
ntruhps2048509-s3-frombytes-skips-the-reduction|ntru_decode|120|ntru_decode: poly_S3_frombytes gave [0-9]+ > 2
sntrup761-small-decode-last-coefficient-unbiased|sntrup761_decode|120|sntrup761_decode: (Small_encode\(Small_decode\(s\)\) against s|Small_decode gave)
sntrup761-decode-skips-the-r1-reduction|sntrup761_decode|120|sntrup761_decode: (Rq|Rounded)_decode gave -?[0-9]+
sntrup761-rounded-encode-third-rounded-down|sntrup761_decode|120|sntrup761_decode: Rounded_decode\(Rounded_encode\(r\)\) against r
ntruhps2048509-rq-sum-zero-skips-the-first-coefficient|ntru_decode|120|ntru_decode: poly_Rq_sum_zero_frombytes: coefficients sum to
ntruhps2048509-sq-tobytes-drops-the-last-half-byte|ntru_decode|120|ntru_decode: poly_(Sq_frombytes\(poly_Sq|Rq_sum_zero_frombytes\(poly_Rq_sum_zero)_tobytes\(a\)\) against a
sntrup761-rq-encode-offsets-only-the-first|sntrup761_decode|120|sntrup761_decode: Rq_decode\(Rq_encode\(r\)\) against r
sntrup761-small-encode-last-byte-without-the-offset|sntrup761_decode|120|sntrup761_decode: Small_encode\(Small_decode\(s\)\) against s
ntruhps2048509-s3-tobytes-digits-reversed|ntru_decode|120|ntru_decode: poly_S3_frombytes\(poly_S3_tobytes\(a\)\) against a
ed25519-verify-strict-is-verify|ed25519_verify|120|ed25519_verify: [a-z]+ verify_strict accepted a small-order A or R
ed25519-sign-input-skips-the-field-lengths|sign_input|120|sign_input: panicked: range start index (32|64) out of range
kat-response-skips-the-seed-length|kat_response|120|kat_response: panicked: copy_from_slice: source slice length \([0-9]+\) does not match destination slice length \(48\)
keccak-x4-round-constant-in-state-0-only|keccak_x4|120|keccak-f1600-x4: state differs
ntruhps2048509-rq-mul-fold-skips-x509|ntru_rq_mul|120|ntruhps2048509/rq-mul/[^:]*: poly_Rq_mul \(mod q\) differs
ntru-clmul-four-classes|ntru_r2_mul|120|ntruhps2048509/r2-mul/[^:]*: R2 product mod x\^509 .+ 1 differs
ed25519-addm-top-limb-only|ed25519_addm|120|ed25519/addm: w differs
ed25519-subm-equal-returns-p|ed25519_subm|120|ed25519/subm: w differs
mlkem-transposed-a|mlkem_api|120|ml-kem-(512|768|1024): .* differs first at byte
ntru-chain-wrong-step|ntru_api|120|ntruhps2048509/api/[^:]*: .* differs first at byte
ed25519-addm-top-limb-only|ed25519_api|120|ed25519(/verify-garbage)?: .* differs first at byte
EOF_PLANTS
# The match is no formality: each of ed25519_verify's two refusal plants is refused
# as the other's finding, and a panic of the same target as either (grep's status
# must be 1, "no match": 2, an error, would refuse vacuously).
non_canonical_s=$kept_dir/ed25519-verify-accepts-a-non-canonical-s@ed25519_verify
message_omitted=$kept_dir/ed25519-challenge-omits-the-message@ed25519_verify
want_s=${want_of[ed25519-verify-accepts-a-non-canonical-s@ed25519_verify]}
want_m=${want_of[ed25519-challenge-omits-the-message@ed25519_verify]}
echo "x (replays through parser ed25519_verify; on this build: fails: ed25519_verify: panicked: index out of range)" >"$work/panic"
for case in "$non_canonical_s|$want_m" "$message_omitted|$want_s" "$work/panic|$want_s" "$work/panic|$want_m"; do
  status=0
  reported_as "${case%%|*}" "${case#*|}" || status=$?
  if [ "$status" != 1 ]; then
    echo "fuzz: the match of ${case%%|*} against ${case#*|} gave status $status, not 1 (refused)" >&2
    exit 1
  fi
done
say "every plant reported by the check meant for it; each ed25519_verify refusal finding, and a panic, refused as the other's"

# 4. A bug only overflow checks see: the fuzz build runs it without a crash, the
#    debug replay of the same corpus reports it.
plant=mlkem-modulus-check-relies-on-wrapping
if ! REFOPT_PLANT="$plant" run mlkem_ek 2; then
  echo "fuzz: mlkem_ek's fuzz build crashed on $plant, which only overflow checks should see:" >&2
  tail -20 "$work/log" >&2
  exit 1
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
files=$(find "$work/corpus" -type f | wc -l)
if REFOPT_PLANT="$plant" replay mlkem_ek >/dev/null; then
  echo "fuzz: the dev-build replay did not report $plant" >&2
  exit 1
fi
grep -q 'attempt to subtract with overflow' "$work/replay" \
  || { echo "fuzz: the replay failed on $plant, but not with the overflow:" >&2; head -20 "$work/replay" >&2; exit 1; }
say "$plant: unseen by mlkem_ek's fuzz build ($execs executions in 2 s), reported by the dev-build replay of its corpus ($(grep -c ': FINDING$' "$work/replay") of $files inputs)"

# 5. The kernels' debug contracts fire: in the dev build (debug assertions on), each
#    plant below makes the optimized kernel's own `ensures` check panic with its
#    message before the tier comparison sees the result. Inputs: the first committed
#    regression line of the pair, or (NTRU's product, which has none) a fixed one.
first() {
  local line
  line=$(grep -v '^#' "equivalence/regressions/$1.txt" | head -1)
  [ -n "$line" ] || { echo "fuzz: no input in equivalence/regressions/$1.txt" >&2; exit 1; }
  echo "$line"
}
rq_input=$(first sntrup761__rq-mult-small)
r3_input=$(first sntrup761__r3-mult)
r2_inv_input=$(first ntruhps2048509__r2-inv__portable)
ntru_mul_input="00$(printf 'a7%.0s' $(seq 1 1100))"
while IFS='|' read -r plant pair input want; do
  if REFOPT_PLANT="$plant" "$replay_bin" replay "$pair" "$input" >"$work/contract" 2>&1; then
    echo "fuzz: $pair agreed in the dev build with $plant on" >&2; exit 1
  fi
  grep -qF -- "$want" "$work/contract" \
    || { tail -20 "$work/contract" >&2; echo "fuzz: $pair failed with $plant, but not with \"$want\"" >&2; exit 1; }
  say "$plant: the debug contract fires on $pair ($want)"
done <<EOF_CONTRACTS
sntrup761-rq-skip-last-column|sntrup761/rq-mult-small|$rq_input|Kernels::rq_mult_small ensures
sntrup761-r3-deferred-drops-the-last-product|sntrup761/r3-mult|$r3_input|Kernels::r3_mult ensures
ntruhps2048509-chain-skips-the-final-squaring|ntruhps2048509/r2-inv/portable|$r2_inv_input|Kernels::poly_r2_inv ensures
ntruhps2048509-rq-mul-fold-skips-x509|ntruhps2048509/rq-mul/portable|$ntru_mul_input|Kernels::poly_rq_mul ensures
EOF_CONTRACTS
say "done"
