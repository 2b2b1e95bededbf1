#!/usr/bin/env bash
# Instruction counts (callgrind Ir) per Ed25519 operation, the procedure of
# docs/ed25519.md: per op = (count(op, reps) - count(setup, reps)) / reps, for the
# reference and optimized tiers and ed25519-dalek, and the three field kernels alone.
# Pass `--features inline-mpih` to measure the fully inlined limb layer, and
# `--features aws-lc` to add AWS-LC (aws-lc-rs) beside dalek.
set -euo pipefail
shopt -s inherit_errexit # a failed count inside $(...) stops the script
cd "$(dirname "$0")/../.."
cargo build --release -q -p benches --example ed25519_ops "$@"
bin="${CARGO_TARGET_DIR:-target}/release/examples/ed25519_ops"
out=$(mktemp)
ir() {
  local n
  n=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  # An unparsed count would be taken as 0 by the arithmetic below.
  [ -n "$n" ] || { echo "no instruction count from callgrind for: $*" >&2; exit 1; }
  echo "$n"
}
per_op() { # impl op reps
  local base op
  base=$(ir "$1" setup "$3")
  op=$(ir "$1" "$2" "$3")
  echo $(( (op - base) / $3 ))
}
printf '%-10s %-7s %12s\n' impl op Ir/op
impls="reference optimized dalek"
case "$*" in *aws-lc*) impls="$impls aws-lc" ;; esac
for imp in $impls; do
  for op in keygen sign verify; do
    n=$(per_op "$imp" "$op" 4)
    printf '%-10s %-7s %12s\n' "$imp" "$op" "$n"
  done
done
for imp in reference optimized; do
  for op in mulm addm subm; do
    n=$(per_op "$imp" "$op" 100000)
    printf '%-10s %-7s %12s\n' "$imp" "$op" "$n"
  done
done
rm -f "$out"
