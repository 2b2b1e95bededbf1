# Sourced by .ci/fuzz.sh and .ci/byo.sh: cargo-fuzz at the one pinned version (as
# cargo-mutants and gungraun-runner are pinned where they are installed).
cargo_fuzz_version=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$cargo_fuzz_version" ]; then
  cargo install cargo-fuzz --version "$cargo_fuzz_version" --locked
fi
