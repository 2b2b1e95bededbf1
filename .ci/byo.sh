#!/usr/bin/env bash
# Bring your own optimization (issue 15): the example crate examples/kyberslash uses
# only the lab's public API. Its binary is `refopt` plus its pair and obligation:
#   - `kyberslash list` shows its pair, `kyberslash check` runs it;
#   - `kyberslash prove --only KS-1` proves it exhaustively, and the self-test shows
#     the proof failing on its mutant;
#   - the division scan reports the division form and passes the multiply form;
#   - its gungraun bench prints the instructions of each form;
#   - its fuzz target (examples/kyberslash/fuzz, its own cargo-fuzz package) builds
#     and runs, and the same harness over its planted bug (target short_m) crashes.
# Its tests (the lab_tests! macro) run in `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
say() { echo "--> [byo] $*"; }
source .ci/tools.sh

cargo build -q --release -p kyberslash
ks="$target_dir/release/kyberslash"

say "kyberslash list shows its pair"
"$ks" list | grep -F "kyberslash/compress"

say "kyberslash check (its pair, default cases)"
"$ks" check --no-keep --pair kyberslash/

say "kyberslash prove --only KS-1, and its mutant"
"$ks" prove --only KS-1
"$ks" prove --only KS-1 --self-test

say "division scan: the division form is reported (exit 1; 2 would mean no scan ran)"
rc=0
"$ks" scan-divisions --function kyberslash::kernels::compress_div || rc=$?
if [ "$rc" -ne 1 ]; then
  echo "the division scan of compress_div, which divides by q, exited $rc, not 1 (reported)" >&2
  exit 1
fi
say "division scan: the multiply form passes"
"$ks" scan-divisions --function kyberslash::kernels::compress_mul
say "division scan: a --function that names nothing is a usage error (exit 2), not a pass"
rc=0
"$ks" scan-divisions --function kyberslash::kernels::compress_mul \
  --function kyberslash::kernels::no_such_function 2>"$ks.err" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q 'no function matching' "$ks.err"; then
  cat "$ks.err" >&2
  echo "the division scan naming a function that does not exist exited $rc (want 2, 'no function matching')" >&2
  exit 1
fi
rm -f "$ks.err"

need_gungraun_runner
say "instructions of each form (gungraun)"
cargo bench -q -p kyberslash --bench compress

say "its fuzz target builds and runs (stable, no sanitizer, 10 s)"
need_cargo_fuzz
log=$(mktemp)
if ! (cd examples/kyberslash && CARGO_TARGET_DIR="$target_dir/kyberslash-fuzz" \
      cargo fuzz run -O --sanitizer none --no-trace-compares compress -- \
      -max_total_time=10 -print_final_stats=1) >"$log" 2>&1; then
  tail -40 "$log" >&2
  exit 1
fi
grep -E '^(stat::number_of_executed_units|Done)' "$log"

say "its planted wrong optimization is found by the same harness (target short_m must crash)"
artifacts=$(mktemp -d)
if (cd examples/kyberslash && CARGO_TARGET_DIR="$target_dir/kyberslash-fuzz" \
    cargo fuzz run -O --sanitizer none --no-trace-compares short_m -- \
    -max_total_time=60 -artifact_prefix="$artifacts/") >"$log" 2>&1; then
  tail -20 "$log" >&2
  echo "60 s of fuzzing did not find the planted 28-bit constant (short_m)" >&2
  exit 1
fi
if ! grep -q "kyberslash/compress" "$log" || ! ls "$artifacts"/crash-* >/dev/null 2>&1; then
  tail -40 "$log" >&2
  echo "short_m stopped without a mismatch report naming kyberslash/compress and a crash file" >&2
  exit 1
fi
grep -m1 -E "Test unit written to" "$log"
rm -rf "$artifacts" "$log"

say "done"
