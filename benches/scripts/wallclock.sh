#!/usr/bin/env bash
# Wall-clock headlines: the criterion benchmarks the generated pages cite, run three
# times (each run measures every benchmark once, in the same order), then
# `report wallclock` writes the median of each run to benches/baselines/wallclock.txt.
# The pages show the median of the run medians and the range over runs. Takes about
# 10-15 minutes on 2 cores; run it on a machine as quiet as you can get, and say how
# quiet it was. Afterwards: bash benches/scripts/gate.sh --docs
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${RUNS:-3}"
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
dir="$target_dir/wallclock"
opts=(--warm-up-time 1 --measurement-time 2 --noplot)
cargo build -q --release -p benches --bin report
cargo bench -q -p benches --no-run --bench mlkem --bench sntrup761 --bench ntruhps2048509 --bench ed25519
cargo bench -q -p benches --no-run --features inline-mpih --bench ed25519
rm -rf "$dir"
args=()
for r in $(seq 1 "$runs"); do
  rm -rf "$target_dir/criterion"
  cargo bench -q -p benches --bench mlkem -- "${opts[@]}" \
    '^ML-KEM-768/(keygen|encaps|decaps)/(reference|optimized|libcrux-avx2)$'
  cargo bench -q -p benches --bench sntrup761 -- "${opts[@]}" \
    'op=short-random|op=(encap|decap),impl=(reference|batched-rng|optimized),source=(chacha20|none)'
  cargo bench -q -p benches --bench ntruhps2048509 -- "${opts[@]}" \
    'op=poly_Rq_inv,impl=(reference|before|optimized)$|op=(keygen|enc|dec),impl=(optimized|pqclean-clean)$'
  cargo bench -q -p benches --bench ed25519 -- "${opts[@]}" \
    '^ed25519/op=(keygen|sign|verify),impl=(reference|optimized|dalek),build=default$'
  cargo bench -q -p benches --features inline-mpih --bench ed25519 -- "${opts[@]}" \
    '^ed25519/op=(keygen|sign|verify),impl=(reference|optimized),build=inline-mpih$'
  mkdir -p "$dir"
  mv "$target_dir/criterion" "$dir/run$r"
  args+=(--criterion "$dir/run$r")
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
"$target_dir/release/report" wallclock "${args[@]}" --out benches/baselines/wallclock.txt \
  --load "1/5/15-minute load average $load at the end of the runs on $(nproc) cores"
