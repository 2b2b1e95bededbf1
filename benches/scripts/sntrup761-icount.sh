#!/usr/bin/env bash
# Instruction counts (callgrind Ir) of one sntrup761 operation, for every
# implementation: setup runs outside the measured region, the operation inside
# `measured` (see benches/examples/sntrup761_ops.rs).
set -euo pipefail
shopt -s inherit_errexit # a failed count inside $(...) stops the script
cd "$(dirname "$0")/../.."
cargo build --release -q -p benches --example sntrup761_ops
bin="${CARGO_TARGET_DIR:-target}/release/examples/sntrup761_ops"
out=$(mktemp)
count() {
  local n
  n=$(valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
      --toggle-collect='*measured*' "$bin" "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  [ -n "$n" ] || { echo "no instruction count from callgrind for: $*" >&2; exit 1; }
  echo "$n"
}
printf '%-16s %-7s %-10s %12s\n' impl op source Ir
for src in chacha20 nist-drbg os; do
  for imp in reference batched-rng optimized; do
    for op in keygen encap decap; do
      n=$(count "$imp" "$op" "$src")
      printf '%-16s %-7s %-10s %12s\n' "$imp" "$op" "$src" "$n"
    done
  done
done
for op in keygen encap decap; do
  n=$(count sntrup761-crate "$op")
  printf '%-16s %-7s %-10s %12s\n' sntrup761-crate "$op" chacha20 "$n"
  n=$(count pqclean-clean "$op")
  printf '%-16s %-7s %-10s %12s\n' pqclean-clean "$op" os "$n"
done
rm -f "$out"
