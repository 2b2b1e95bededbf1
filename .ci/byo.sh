#!/usr/bin/env bash
# Bring your own optimization (issue 15): the example crate examples/kyberslash uses
# only the lab's public API. Its binary is `refopt` plus its pair and obligation:
#   - `kyberslash list` shows its pair, `kyberslash check` runs it;
#   - `kyberslash prove --only KS-1` proves it exhaustively, and the self-test shows
#     the proof failing on its mutant;
#   - the division scan reports the division form and passes the multiply form;
#   - its gungraun bench prints the instructions of each form (when gungraun-runner
#     is installed, as .ci/bench.sh does);
#   - its fuzz target builds and runs (in the fuzz package, with .ci/fuzz.sh's tools).
# Its tests (the lab_tests! macro) run in `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
say() { echo "--> [byo] $*"; }

cargo build -q --release -p kyberslash
ks="$target_dir/release/kyberslash"

say "kyberslash list shows its pair"
"$ks" list | grep -F "kyberslash/compress"

say "kyberslash check (its pair, default cases)"
"$ks" check --no-keep --pair kyberslash/

say "kyberslash prove --only KS-1, and its mutant"
"$ks" prove --only KS-1
"$ks" prove --only KS-1 --self-test

say "division scan: the division form is reported"
if "$ks" scan-divisions --function kyberslash::kernels::compress_div; then
  echo "the division scan passed compress_div, which divides by q" >&2
  exit 1
fi
say "division scan: the multiply form passes"
"$ks" scan-divisions --function kyberslash::kernels::compress_mul

if command -v gungraun-runner >/dev/null 2>&1; then
  say "instructions of each form (gungraun)"
  cargo bench -q -p kyberslash --bench compress
else
  echo "note: gungraun-runner not installed: the kyberslash bench did not run" >&2
fi
say "done"
