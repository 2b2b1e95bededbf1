#!/usr/bin/env bash
# Instruction counts (callgrind Ir) of one sntrup761 operation, for every
# implementation: setup runs outside the measured region, the operation inside
# `measured` (see benches/examples/sntrup761_ops.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p benches --example sntrup761_ops
bin=target/release/examples/sntrup761_ops
out=$(mktemp)
count() {
  valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
      --toggle-collect='*measured*' "$bin" "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-16s %-7s %-10s %12s\n' impl op source Ir
for src in chacha20 nist-drbg os; do
  for imp in reference batched-rng optimized; do
    for op in keygen encap decap; do
      printf '%-16s %-7s %-10s %12s\n' "$imp" "$op" "$src" "$(count "$imp" "$op" "$src")"
    done
  done
done
for op in keygen encap decap; do
  printf '%-16s %-7s %-10s %12s\n' sntrup761-crate "$op" chacha20 "$(count sntrup761-crate "$op")"
  printf '%-16s %-7s %-10s %12s\n' pqclean-clean "$op" os "$(count pqclean-clean "$op")"
done
rm -f "$out"
