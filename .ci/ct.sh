#!/usr/bin/env bash
# Constant-time checks (docs/VERIFICATION.md, "Constant time"), each shown to fail on
# a planted bug:
#   1. refopt-ctgrind under valgrind memcheck: both tiers of every scheme, many
#      inputs per operation (random and edge), secrets marked undefined; reports
#      secret-dependent branches and memory indices (not divisions).
#   2. refopt-ctgrind scan-divisions: objdump of the same release binary; reports
#      every div/idiv in secret-handling code outside the allow-list.
#   3. Against the plant build (.ci/plant-build.sh): one planted secret branch or
#      index per scheme must be reported by memcheck, in the function planted; the
#      planted secret division by the scan (and memcheck is shown not to see that
#      division).
# Needs valgrind and objdump (binutils, which gcc depends on). Normal release build:
# no target-cpu=native (the binary CI checks is the portable one).
# Takes about 2 minutes on 2 cores with warm builds (memcheck run ~45 s, scan ~3 s,
# plant runs ~20 s), plus the two release builds when cold (~3 minutes each).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "==> ct [$(( $(date +%s) - start ))s] $*"; }
fail() { echo "ct.sh: FAILED: $*" >&2; exit 1; }

for tool in valgrind objdump; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (valgrind; objdump comes with binutils)"
done
case "${RUSTFLAGS:-}" in
  *target-cpu*) fail "RUSTFLAGS sets target-cpu ($RUSTFLAGS): the check is for the normal release build" ;;
esac
# The SIMD paths (AVX2, PCLMULQDQ) are checked only on a CPU that has them; on one
# that does, refopt-ctgrind must run them (it fails otherwise), as .ci/run requires.
if grep -q ' avx2' /proc/cpuinfo && grep -q ' pclmulqdq' /proc/cpuinfo; then
  export REFOPT_REQUIRE_SIMD=1
fi
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
inputs="${REFOPT_CT_INPUTS:-8}"

step "build: release refopt-ctgrind (feature ctgrind: memcheck client requests)"
cargo build -q --release -p equivalence --features ctgrind --bin refopt-ctgrind
bin="$target_dir/release/refopt-ctgrind"

step "memcheck: $inputs random inputs per operation and key plus edge cases, secrets undefined"
valgrind --error-exitcode=1 --track-origins=yes -q "$bin" --inputs "$inputs" \
  || fail "memcheck reported a secret-dependent branch or memory index (above)"

step "division scan: div/idiv in the secret-handling code of $bin"
"$bin" scan-divisions || fail "a division in secret-handling code (above)"

step "self-tests against the plant build"
plant_bin="$(bash .ci/plant-build.sh)/refopt-ctgrind"
[ -x "$plant_bin" ] || fail "the plant build has no refopt-ctgrind ($plant_bin)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# The plant build with no plant switched on is clean (the plant sites are inert).
valgrind --error-exitcode=1 -q "$plant_bin" --inputs 1 >"$log" 2>&1 \
  || { cat "$log"; fail "memcheck reports the plant build with no plant on"; }

# One secret branch or index per scheme, so that each scheme's harness is shown to
# mark its secrets undefined (a harness that stopped would report nothing), and one
# in each wrapper that draws its own randomness (ML-KEM KeyGen, NTRU Encaps), so that
# the runs from an undefined source are shown to happen (the planted wrapper is
# inlined into the harness's call, which memcheck names); and (since 2026-12-05) one
# in sntrup761's encapsulation and one in the `==` that every secret key type and the
# KEMs' SharedSecret share, run after each seeded key generation and each
# decapsulation (ML-KEM's run must name both KeyPair's == and SharedSecret's):
#   scheme plant functions-memcheck-must-name (separated by ';')
while read -r scheme plant where; do
  if REFOPT_PLANT="$plant" \
     valgrind --error-exitcode=1 -q "$plant_bin" --scheme "$scheme" --inputs 1 >"$log" 2>&1 </dev/null; then
    fail "memcheck did not report the planted secret branch or index ($plant)"
  fi
  grep -q 'uninitialised' "$log" \
    || { cat "$log"; fail "memcheck failed on $plant, but not with an uninitialised-value error"; }
  IFS=';' read -ra names <<<"$where"
  [ "${#names[@]}" -ge 1 ] && [ "${where%;}" = "$where" ] \
    || fail "the row of $plant names no function, or ends in ';'"
  for name in "${names[@]}"; do
    [ -n "$name" ] || fail "the row of $plant has an empty function name"
    grep -qF "$name" "$log" \
      || { cat "$log"; fail "memcheck reported $plant, but named no $name"; }
  done
  echo "planted ($plant): memcheck reported $(grep -c 'uninitialised' "$log") error(s), naming ${where//;/ and }"
done <<'PLANTS'
ml-kem mlkem-decaps-variable-time-compare reference::mlkem::decapsulate
sntrup761 sntrup761-decaps-variable-time-compare reference::sntrup761::kem::decapsulate
ntruhps2048509 ntruhps2048509-decaps-branches-on-fail equivalence::ntruhps2048509::Variant::decaps
ed25519 ed25519-scalar-mul-indexes-the-table reference::ed25519::point::scalar_mul_with_table
ml-kem mlkem-keygen-branches-on-the-draw equivalence::mlkem::Variant::keygen
ntruhps2048509 ntruhps2048509-encaps-branches-on-the-draw equivalence::ntruhps2048509::Variant::encaps
sntrup761 sntrup761-encaps-branches-on-r reference::sntrup761::kem::encapsulate
ml-kem secret-eq-branches-on-the-verdict <reference::mlkem::KeyPair as core::cmp::PartialEq>::eq;<reference::shared_secret::SharedSecret as core::cmp::PartialEq>::eq
PLANTS

# refopt-ctgrind's own asserts (run natively: they are not memcheck's): key
# generation must refuse no random NTRU seed; a zero test that reads f's first
# coefficient only refuses some.
if REFOPT_PLANT=ntruhps2048509-keygen-checks-f0-only \
   "$plant_bin" --scheme ntruhps2048509 --inputs 8 >"$log" 2>&1; then
  fail "refopt-ctgrind accepted a key generation that refuses random seeds (ntruhps2048509-keygen-checks-f0-only)"
fi
grep -q 'random keygen seed [0-9]* refused' "$log" \
  || { cat "$log"; fail "refopt-ctgrind failed on ntruhps2048509-keygen-checks-f0-only, but not at its refusal assert"; }
echo "planted (ntruhps2048509-keygen-checks-f0-only): refopt-ctgrind's assert fired ($(grep -o 'random keygen seed [0-9]* refused' "$log"))"

# A secret division (KyberSlash: Compress by a hardware division). Memcheck does
# not see it; the scan must.
if REFOPT_PLANT=mlkem-compress-divides-by-q \
   valgrind --error-exitcode=1 -q "$plant_bin" --scheme ml-kem --inputs 1 >"$log" 2>&1; then
  echo "planted secret division: memcheck reported 0 errors (it does not see divisions)"
elif grep -q 'uninitialised' "$log"; then
  # The docs (README, VERIFICATION.md) say memcheck cannot see this: keep them true.
  cat "$log"
  fail "memcheck reported the planted secret division ($(grep -c 'uninitialised' "$log") error(s)), which the docs say it cannot see: correct them"
else
  cat "$log"
  fail "the memcheck run with the planted secret division failed without a memcheck report (above)"
fi
if "$plant_bin" scan-divisions >"$log" 2>&1; then
  cat "$log"
  fail "the division scan did not report the planted secret division (mlkem-compress-divides-by-q)"
fi
grep -q 'REPORTED' "$log" && grep -q 'reference/src/mlkem/encode.rs' "$log" \
  || { cat "$log"; fail "the scan failed, but not on the planted division in reference/src/mlkem/encode.rs"; }
echo "planted secret division: the scan reported $(grep -c 'reference/src/mlkem/encode.rs' "$log") division instruction(s) from reference/src/mlkem/encode.rs"

step "done"
