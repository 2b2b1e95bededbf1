#!/usr/bin/env bash
# The instruction and heap gate, and the generated result pages.
#
#   bash benches/scripts/gate.sh             measure every gungraun benchmark (both
#                                            Ed25519 builds) and compare with
#                                            benches/baselines/instructions.txt (5 %)
#   bash benches/scripts/gate.sh --update    measure, rewrite the baseline, add this
#                                            commit to benches/history.jsonl, regenerate
#                                            docs/RESULTS.md, the scheme pages' Results
#                                            sections and docs/*.svg
#   bash benches/scripts/gate.sh --docs      regenerate the docs from the committed
#                                            baseline, wall-clock runs and history only
#   bash benches/scripts/gate.sh --check-docs   fail when the committed docs differ from
#                                            what the committed files generate
#
# gungraun is iai-callgrind under its new name (renamed at 0.17); this needs
# gungraun-runner 0.20.0 (`cargo install gungraun-runner --version 0.20.0 --locked`)
# and valgrind. Wall-clock runs are separate: benches/scripts/wallclock.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode="${1:-check}"
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
baseline=benches/baselines/instructions.txt
wallclock=benches/baselines/wallclock.txt
history=benches/history.jsonl
out="$target_dir/gungraun-json"

cargo build -q --release -p benches --bin report
report="$target_dir/release/report"
docs() { "$report" docs --baseline "$baseline" --wallclock "$wallclock" --history "$history" --docs docs "$@"; }

case "$mode" in
  --docs) docs; exit 0 ;;
  --check-docs) docs --check; exit 0 ;;
  check|--update) ;;
  *) echo "usage: gate.sh [--update|--docs|--check-docs]" >&2; exit 2 ;;
esac

mkdir -p "$out"
rm -f "$out"/*.json
measure() { # name, cargo args...
  local name=$1 s
  shift
  s=$(date +%s)
  cargo bench -q -p benches "$@" -- --output-format=json > "$out/$name.json"
  echo "measured $name in $(( $(date +%s) - s ))s" >&2
}
# Two lanes at once (callgrind counts instructions, so a busy machine changes no
# figure; cargo's lock on the target directory takes the compiles one at a time). On
# the 2-core machine (2026-12-03, bench binaries already built, nothing else running)
# the gate took 108 s, its five runs 58 + 22 + 17 s and 66 + 42 s in their lanes. Both
# Ed25519 runs write gungraun's ed25519_instructions directory: they share a lane.
lane_a() {
  measure mlkem --bench mlkem_instructions
  measure ed25519_default --bench ed25519_instructions
  # The second build: the Ed25519 limb layer inlined (the feature only changes
  # `reference`'s mpih, but cargo rebuilds reference, optimized, equivalence and the
  # bench).
  measure ed25519_inline_mpih --features inline-mpih --bench ed25519_instructions
}
lane_b() {
  measure sntrup761 --bench sntrup761_instructions
  measure ntruhps2048509 --bench ntruhps2048509_instructions
}
lane_a & a_pid=$!
lane_b & b_pid=$!
status=0
wait "$a_pid" || status=$?
wait "$b_pid" || status=$?
if [ "$status" -ne 0 ]; then
  echo "gate: a benchmark run failed (status $status)" >&2
  exit 1
fi
inputs=()
for f in "$out"/*.json; do inputs+=(--gungraun "$f"); done

if [ "$mode" = --update ]; then
  "$report" save "${inputs[@]}" --baseline "$baseline"
  "$report" history --baseline "$baseline" --history "$history"
  docs
else
  "$report" gate "${inputs[@]}" --baseline "$baseline" --limit 5
fi
