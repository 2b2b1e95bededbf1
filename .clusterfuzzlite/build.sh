#!/bin/bash -eu
# Builds every cargo-fuzz target of refopt (fuzz/targets.txt) into $OUT, with its
# libFuzzer options (max_len, dictionary, keep_seed: see fuzz/campaign.sh) and its
# committed seed corpus, the layout
# ClusterFuzzLite and OSS-Fuzz expect. In their image $SRC, $OUT, the nightly
# toolchain and the sanitizer flags are set; .ci/fuzz.sh runs this same script
# locally (SRC and OUT set by it, REFOPT_FUZZ_ARGS for the sanitizer and features), so
# the layout cannot rot.
#
# Build: `cargo fuzz build -O --no-trace-compares`: optimized, no debug assertions
# (the O(n^2) contract predicates), overflow checks on except in the reference crate
# (fuzz/Cargo.toml says what covers overflow there), portable x86-64 code (no target-cpu: the binaries run on any
# fuzzing host), and no comparison tracing: the constant-time kernels compare on
# every step, and tracing those comparisons took 60-90 % of the time of the
# arithmetic targets (fuzz/README.md, Speed); edge coverage still steers, and the
# dictionaries carry the edge values comparison tracing would have found.
# Also here, not only on the first line: `bash build.sh` ignores the shebang's flags.
set -euo pipefail
root="${REFOPT_ROOT:-$SRC/refopt}"
cd "$root"
# rust-toolchain.toml pins the release the instruction baseline was taken on;
# sanitizer builds need nightly, which the ClusterFuzzLite image has as its default.
if [ -z "${RUSTUP_TOOLCHAIN:-}" ] && [ -n "${SANITIZER:-}" ]; then
  export RUSTUP_TOOLCHAIN=nightly
fi
# shellcheck disable=SC2086 # REFOPT_FUZZ_ARGS is a list of flags
cargo fuzz build -O --no-trace-compares ${REFOPT_FUZZ_ARGS:-}
bin="${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/release"
built=0
while read -r name class max_len dict; do
  case "$name" in ''|'#'*) continue ;; esac
  cp "$bin/$name" "$OUT/$name"
  cp "fuzz/dict/$dict.dict" "$OUT/$name.dict"
  printf '[libfuzzer]\nmax_len = %s\ndict = %s.dict\nkeep_seed = 1\n' "$max_len" "$name" > "$OUT/$name.options"
  # Every target has committed seeds (fuzz/corpus.sh); a missing directory is an error.
  (cd "fuzz/seeds/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  built=$((built + 1))
  : "$class"
done < fuzz/targets.txt
echo "built $built fuzz targets into $OUT"
