#!/usr/bin/env bash
# Fuzzing campaign: runs every target (or the ones named) one after the other, each on
# one core, and prints a table: target, executions, exec/s, coverage (libFuzzer's
# `cov`, edges), corpus size, crashes.
#
#   fuzz/campaign.sh -t SECONDS [-c kernel|api|parser] [TARGET...]   # N seconds each
#   fuzz/campaign.sh -r RUNS    [-c CLASS] [TARGET...]               # N executions each
#
# Option: -b DIR  use the fuzz binaries in DIR instead of building them.
# Environment: REFOPT_FUZZ_ARGS  `cargo fuzz build -O` flags (default
#   `--sanitizer none --no-trace-compares`, as .clusterfuzzlite/build.sh builds; with
#   a nightly toolchain `--sanitizer address --no-trace-compares` for ASan);
#   RUSTFLAGS, which cargo-fuzz extends: `-C target-cpu=x86-64-v3` builds for an
#   AVX2 host, up to 4x faster on the sntrup761 targets (fuzz/README.md, Speed).
# -keep_seed=1: the seeds stay in the corpus even without new coverage. Constant-time
# code takes the same edges for a valid ciphertext as for a rejected one, so without
# it libFuzzer would drop the generated-key seeds of the decapsulation targets.
# The corpus grows in fuzz/corpus/<target> (gitignored), seeded from the committed
# fuzz/seeds/<target>; make vector seeds first with fuzz/corpus.sh. Crashes land in
# fuzz/artifacts/<target>/; `refopt fuzz keep <target> <file>` makes one a
# regression case. Exit status 1 if any target crashed.
set -euo pipefail
cd "$(dirname "$0")"
seconds=""; runs=""; class=""; bindir=""
while getopts "t:r:c:b:" o; do
  case "$o" in
    t) seconds="$OPTARG" ;; r) runs="$OPTARG" ;; c) class="$OPTARG" ;;
    b) bindir="$OPTARG" ;;
    *) sed -n '2,17p' "$(basename "$0")" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ -z "$seconds" ] && [ -z "$runs" ]; then
  echo "campaign.sh: give -t SECONDS or -r RUNS" >&2; exit 2
fi
if [ -z "$bindir" ]; then
  # shellcheck disable=SC2086
  cargo fuzz build -O ${REFOPT_FUZZ_ARGS:---sanitizer none --no-trace-compares} >&2
  bindir="target/x86_64-unknown-linux-gnu/release"
fi
want=" $* "
for t in "$@"; do
  grep -q "^$t " targets.txt || { echo "campaign.sh: no target $t in fuzz/targets.txt" >&2; exit 2; }
done
limit=()
[ -n "$seconds" ] && limit+=("-max_total_time=$seconds")
[ -n "$runs" ] && limit+=("-runs=$runs")
printf '%-18s %-7s %12s %10s %8s %8s %8s\n' target class executions exec/s cov corpus crashes
failed=0
ran=0
while read -r name tclass max_len dict; do
  case "$name" in ''|'#'*) continue ;; esac
  [ -n "$class" ] && [ "$tclass" != "$class" ] && continue
  [ "$want" != "  " ] && [[ "$want" != *" $name "* ]] && continue
  mkdir -p "corpus/$name" "artifacts/$name"
  before=$(find "artifacts/$name" -type f | wc -l)
  log=$(mktemp)
  seeds=()
  [ -d "seeds/$name" ] && seeds=("seeds/$name")
  set +e
  "$bindir/$name" "corpus/$name" "${seeds[@]}" -max_len="$max_len" -dict="dict/$dict.dict" -keep_seed=1 \
    "${limit[@]}" -print_final_stats=1 -artifact_prefix="artifacts/$name/" >"$log" 2>&1
  status=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
  corpus=$(find "corpus/$name" -type f | wc -l)
  crashes=$(( $(find "artifacts/$name" -type f | wc -l) - before ))
  printf '%-18s %-7s %12s %10s %8s %8s %8s\n' "$name" "$tclass" "${execs:-?}" "${rate:-?}" \
    "${cov:-?}" "$corpus" "$crashes"
  if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    failed=1
    echo "  $name: exit status $status; last lines of its log:" >&2
    tail -25 "$log" | sed 's/^/    /' >&2
  fi
  rm -f "$log"
  ran=$((ran + 1))
done < targets.txt
if [ "$ran" -eq 0 ]; then
  echo "campaign.sh: no target matched (class ${class:-any}, targets: ${*:-all})" >&2
  exit 2
fi
exit "$failed"
