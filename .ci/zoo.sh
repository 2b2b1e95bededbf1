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
