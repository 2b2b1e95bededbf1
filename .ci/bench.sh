#!/usr/bin/env bash
# The benchmark gate of refopt (.ci/run calls it):
#  1. every gungraun benchmark of the four schemes (both Ed25519 builds): callgrind
#     instructions and DHAT heap bytes/blocks against benches/baselines/instructions.txt,
#     5 % limit, any allocation where the baseline has none;
#  2. the generated docs (docs/RESULTS.md, the scheme pages' Results sections,
#     docs/*.svg) regenerated from the committed baseline must equal the committed ones;
#  3. self-tests showing the gate can fail: a baseline copy edited five ways (a count
#     lowered 6 % or raised 6 % (stale: the pages would print old figures), an
#     allocation count lowered 10 %, an entry removed, an entry added), and the plant
#     build with an extra allocation and extra work planted in Ed25519 signing
#     (reference::plant), each of which must be reported against the same plant build
#     with no plant switched on (which must pass against itself); and a copy of docs/
#     with one generated line changed, which the docs check of step 2 must report.
# gungraun is iai-callgrind under its new name (renamed at 0.17); runner 0.20.0.
# Measured here, before the gate's runs went two at a time (benches/scripts/gate.sh):
# 482 s on 2 cores shared with other jobs, target dir warm but the workspace
# crates changed (both bench builds and the plant build recompiled them); more to
# install gungraun-runner (.ci/tools.sh: about 1-2 min), and on a cold target the bench-profile build of all
# dependencies (about 5-9 min, shared with the older ML-KEM-only gate this replaces).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "==> bench [$(( $(date +%s) - start ))s] $*"; }
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
export CARGO_TARGET_DIR="$target_dir"

# The baseline was taken on the AVX2/PCLMULQDQ paths (the shared Keccak, NTRU's
# kernels, libcrux's AVX2 build): elsewhere the counts are not comparable.
if ! grep -q ' avx2' /proc/cpuinfo || ! grep -q ' pclmulqdq' /proc/cpuinfo; then
  echo "bench: NOT RUN: CPU without AVX2/PCLMULQDQ; the baseline is for that path (a gate that cannot run fails)" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "bench: valgrind is required" >&2; exit 1; }
source .ci/tools.sh
need_gungraun_runner

step "generated docs equal what the committed baseline generates"
bash benches/scripts/gate.sh --check-docs

step "gate: every benchmark against the committed baseline"
bash benches/scripts/gate.sh

report="$target_dir/release/report"
json="$target_dir/gungraun-json"
self="$target_dir/bench-selftest"
rm -rf "$self" && mkdir -p "$self"
inputs=()
for f in "$json"/*.json; do inputs+=(--gungraun "$f"); done

step "self-test: the docs check reports a stale generated page"
# A copy of docs/ with one generated line of RESULTS.md changed (the commit its
# counts were taken at): the same check that passed above must now fail and name the
# page.
cp -r docs "$self/docs"
sed -i '0,/^Instruction counts and heap use: commit `[0-9a-f]*`/s//Instruction counts and heap use: commit `0000000`/' "$self/docs/RESULTS.md"
if cmp -s docs/RESULTS.md "$self/docs/RESULTS.md"; then
  echo "bench self-test FAILED: the edit of the copied RESULTS.md changed nothing" >&2; exit 1
fi
if "$report" docs --baseline benches/baselines/instructions.txt --wallclock benches/baselines/wallclock.txt \
     --history benches/history.jsonl --docs "$self/docs" --check 2>"$self/docs.err"; then
  echo "bench self-test FAILED: the docs check passed with a stale RESULTS.md" >&2; exit 1
fi
grep -qF "stale: $self/docs/RESULTS.md" "$self/docs.err" \
  || { cat "$self/docs.err" >&2; echo "bench self-test FAILED: the docs check did not name RESULTS.md" >&2; exit 1; }
echo "self-test: the docs check reports the edited RESULTS.md as stale"
rm -rf "$self/docs"
expect_fail() { # what, baseline, expected text, gungraun inputs...
  local what=$1 base=$2 text=$3
  shift 3
  if "$report" gate "$@" --baseline "$base" --limit 5 >"$self/out" 2>"$self/err"; then
    echo "bench self-test FAILED: the gate passed with $what" >&2
    exit 1
  fi
  if ! grep -qF -- "$text" "$self/err"; then
    echo "bench self-test FAILED: $what: the gate failed without naming '$text':" >&2
    cat "$self/err" >&2
    exit 1
  fi
  echo "self-test: the gate reports $what ($(grep -c '^GATE ' "$self/err") finding(s))"
}

step "self-test: edited baseline copies"
b=benches/baselines/instructions.txt
k=mlkem_instructions::refopt_mlkem::encaps/ml_kem_768_optimized
awk -v k="$k" '$1 == k { sub(/ir=[0-9]+/, "ir=" int(substr($2, 4) * 0.94)) } { print }' "$b" > "$self/ir.txt"
expect_fail "an instruction count 6 % below the measured one" "$self/ir.txt" "$k: ir" "${inputs[@]}"
awk -v k="$k" '$1 == k { sub(/ir=[0-9]+/, "ir=" int(substr($2, 4) * 1.06)) } { print }' "$b" > "$self/stale.txt"
expect_fail "an instruction count 6 % above the measured one (a stale baseline)" "$self/stale.txt" "$k: ir" "${inputs[@]}"
k=sntrup761_instructions::refopt_sntrup761::encap/optimized_chacha20
awk -v k="$k" '$1 == k { sub(/heap_blocks=[0-9]+/, "heap_blocks=" int(substr($4, 13) * 0.9)) } { print }' "$b" > "$self/heap.txt"
expect_fail "10 % more allocations than the baseline" "$self/heap.txt" "$k: heap_blocks" "${inputs[@]}"
grep -v "^$k " "$b" > "$self/missing.txt"
expect_fail "a benchmark missing from the baseline" "$self/missing.txt" "$k: measured but not in the baseline" "${inputs[@]}"
{ cat "$b"; echo "no::such::bench ir=1 heap_bytes=0 heap_blocks=0"; } > "$self/extra.txt"
expect_fail "a baselined benchmark not measured" "$self/extra.txt" "no::such::bench: in the baseline but not measured" "${inputs[@]}"

step "self-test: planted allocation and extra work (plant build of the Ed25519 benches)"
k=ed25519_instructions::ed25519_default::sign_optimized/optimized
plant_run() { # output, plants
  REFOPT_PLANT="$2" cargo bench -q -p benches --features reference/plant \
    --bench ed25519_instructions -- --output-format=json \
    'ed25519_instructions::ed25519_default::sign_optimized::optimized' > "$1"
}
# The plant build asks reference::plant::active at every plant site, one of them inside
# the limb product's inner step (ed25519-addmul-1-step-drops-the-carry-in): with no
# plant on it signs in about 2.2x the default build's instructions (2 512 355 against
# 1 127 307, measured 2026-12-01), so its control is the same build with no plant on,
# saved as a baseline; it must pass against itself and report both plants.
plant_run "$self/none.json" ""
"$report" save --gungraun "$self/none.json" --baseline "$self/plant-none.txt" >/dev/null
grep -q "^$k " "$self/plant-none.txt" \
  || { echo "bench self-test FAILED: the plant build did not measure $k" >&2; exit 1; }
"$report" gate --gungraun "$self/none.json" --baseline "$self/plant-none.txt" --limit 5 >/dev/null \
  || { echo "bench self-test FAILED: the plant build fails against itself with no plant on" >&2; exit 1; }
echo "self-test: the plant build with no plant on passes against itself"
plant_run "$self/alloc.json" bench-ed25519-sign-allocates
expect_fail "the planted allocation" "$self/plant-none.txt" "$k: heap_blocks" --gungraun "$self/alloc.json"
plant_run "$self/cost.json" bench-ed25519-sign-extra-cost
expect_fail "the planted extra work" "$self/plant-none.txt" "$k: ir" --gungraun "$self/cost.json"

step "done"
