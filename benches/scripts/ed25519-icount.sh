#!/usr/bin/env bash
# Instruction counts (callgrind Ir) per Ed25519 operation, the procedure of
# docs/ed25519.md: per op = (count(op, reps) - count(setup, reps)) / reps, for the
# reference and optimized tiers and ed25519-dalek, and the three field kernels alone.
# Pass `--features inline-mpih` to measure the fully inlined limb layer, and
# `--features aws-lc` to add AWS-LC (aws-lc-rs) beside dalek.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p benches --example ed25519_ops "$@"
bin="${CARGO_TARGET_DIR:-target}/release/examples/ed25519_ops"
out=$(mktemp)
ir() {
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
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
    printf '%-10s %-7s %12s\n' "$imp" "$op" "$(per_op "$imp" "$op" 4)"
  done
done
for imp in reference optimized; do
  for op in mulm addm subm; do
    printf '%-10s %-7s %12s\n' "$imp" "$op" "$(per_op "$imp" "$op" 100000)"
  done
done
rm -f "$out"
