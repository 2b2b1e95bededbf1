#!/usr/bin/env bash
# The one build that holds every planted bug (`reference::plant`, cargo feature
# `plant`), behind run-time switches (env REFOPT_PLANT). Every self-test of a
# checking mechanism reuses it: the bug zoo, the proof self-test, the constant-time
# self-tests. Its own target directory, so the normal release build is untouched.
# With `ctgrind` too, so that `refopt-ctgrind` (the constant-time self-tests) is built
# (its client requests are no-ops outside valgrind).
# Idempotent: a second call only checks that the build is fresh.
#
# Prints the directory holding the binaries (refopt, ...) on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
plant_dir="$target_dir/plant"
CARGO_TARGET_DIR="$plant_dir" cargo build -q --release -p equivalence --features plant,ctgrind --bins >&2
echo "$plant_dir/release"
