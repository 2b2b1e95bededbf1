# shellcheck shell=bash
# Sourced by the CI scripts: the tools they need beyond the toolchain, each at one
# pinned version, installed when missing or at another version.
#
# They are installed as debug builds (`cargo install --debug`): the same versions from
# the same lock files, faster to build on a 2-core machine (single installs, one at a
# time, 2026-12-05: cargo-mutants 61 s instead of 141 s, gungraun-runner 67 s and
# 106 s in two runs instead of 211 s, cargo-fuzz 32 s instead of 44 s; summed, 160 to
# 199 s instead of 396 s).
# Each tool only orchestrates: cargo builds and runs the mutants and the fuzz targets,
# and the instruction counts are valgrind's, counted in the benchmark binary, so the
# tool's build should change no result. A debug build adds overflow checks and debug
# assertions: it can panic where a release build would not, not give another count.
# The runner's speed did not show in gungraun's Ed25519 and NTRU benchmark binaries:
# 25.5/28.3 s and 50.3/48.8 s (two runs) under the release runner, 23.6/28.2 s and
# 47.0/50.1 s under the debug one; a whole `benches/scripts/gate.sh` run under the
# debug runner passed.
cargo_fuzz_version=0.13.2
cargo_mutants_version=27.1.0
gungraun_runner_version=0.20.0 # must equal the `gungraun` crate's version in Cargo.lock

# install_pinned CRATE VERSION INSTALLED-VERSION
install_pinned() {
  if [ "$3" != "$2" ]; then
    echo "installing $1 $2 (a debug build: .ci/tools.sh)"
    cargo install --debug "$1" --version "$2" --locked
  fi
}
need_cargo_fuzz() {
  install_pinned cargo-fuzz "$cargo_fuzz_version" "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')"
}
need_cargo_mutants() {
  install_pinned cargo-mutants "$cargo_mutants_version" "$(cargo mutants --version 2>/dev/null | awk '{print $2}')"
}
need_gungraun_runner() {
  install_pinned gungraun-runner "$gungraun_runner_version" "$(gungraun-runner --version 2>/dev/null | awk '{print $2}')"
}
