#!/usr/bin/env bash
# Bug zoo (issue 10, docs/bug-zoo.md): every planted wrong optimization of the zoo is
# caught by the default `refopt` run. Uses the one plant build (.ci/plant-build.sh):
# for each plant, `refopt zoo` runs the default check with REFOPT_PLANT set, names the
# pairs that caught it with the case index and time, and replays the first catching
# input with and without the plant (it must fail with it and agree without). Then it
# replays every committed regression input (equivalence/regressions, which `cargo
# test` replays on the shipped code) with each plant on: each input must fail with
# some plant and each plant must fail some input, so the committed set still catches
# the zoo. Exit non-zero if any plant goes uncaught. Two default runs at once (`--jobs 2`: each is
# one single-threaded process): 153 s instead of 284 s on the 2-core machine
# (2026-12-03), with each run's time measured under that load.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(bash .ci/plant-build.sh)
"$bin/refopt" zoo --jobs 2 --regressions equivalence/regressions

# Self-test of the command's negative paths: a plant the default run cannot see (a
# fault in the proofs' model only, no shipped code) must be reported NOT CAUGHT, with
# every committed regression input failing with no plant, and exit 1.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
"$bin/refopt" zoo --plant sntrup761-prove-freeze-unsigned --regressions equivalence/regressions > "$log" 2>&1 || rc=$?
if [ "$rc" -ne 1 ]; then
  cat "$log" >&2
  echo "zoo self-test: a plant the default run cannot see gave exit $rc, not 1" >&2
  exit 1
fi
grep -qE -- '^sntrup761-prove-freeze-unsigned +NOT CAUGHT in ' "$log" \
  || { cat "$log" >&2; echo "zoo self-test: the plant's row does not say NOT CAUGHT" >&2; exit 1; }
for want in "0 of 1 planted bugs caught" "FAILS WITH NO PLANT" \
  "(NONE fails with: sntrup761-prove-freeze-unsigned)"; do
  grep -qF -- "$want" "$log" || { cat "$log" >&2; echo "zoo self-test: no \"$want\"" >&2; exit 1; }
done
echo "zoo self-test: an unseen plant is reported NOT CAUGHT, exit 1"
