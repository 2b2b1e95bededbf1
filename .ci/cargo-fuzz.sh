# Sourced by .ci/fuzz.sh and .ci/byo.sh: cargo-fuzz at the one pinned version (as
# cargo-mutants and gungraun-runner are pinned where they are installed).
#
# CI's three tools are installed as debug builds (`cargo install --debug`): the same
# versions from the same lock files, built in about a third of the time on a 2-core
# machine (cargo-mutants 61 s instead of 141 s, gungraun-runner 67 s instead of about
# 200 s, cargo-fuzz 32 s instead of 44 s; measured 2026-12-05). Their own speed does
# not show: each orchestrates builds, fuzzers or valgrind, which do the work
# (gungraun's Ed25519 and NTRU benchmarks took the same time under either runner).
cargo_fuzz_version=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$cargo_fuzz_version" ]; then
  cargo install --debug cargo-fuzz --version "$cargo_fuzz_version" --locked
fi
