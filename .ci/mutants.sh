#!/usr/bin/env bash
# Mutation testing of the changed lines (issue 10; the whole-scope score is in
# docs/mutants.md, the sharded whole-scope job in .github/workflows/mutants.yml).
#
# cargo-mutants (.cargo/mutants.toml: the optimized tier and the reference arithmetic
# it relies on; test command: the default lab run in-process, the regression inputs
# and the unit tests) over the lines changed since $REFOPT_MUTANTS_BASE (default
# HEAD^, the commit before this one, first parent for a merge). Every viable mutant in
# those lines must be caught, so (within the shard limit below) no change to the code
# in scope adds a missed one. A
# timeout (cargo-mutants exit status 3) fails the run as well: the hand runs of
# docs/mutants.md count a timeout as detected only after judging it a hang, and a
# mutant that is merely slow must not pass unseen.
#
# It is shown able to fail first: a function no check calls is planted in a scratch
# worktree and its mutants, and only they, must be reported missed (cargo-mutants
# exit status 2). Then the real diff runs in the same worktree (one build for both).
#
# When the changed lines hold more than $REFOPT_MUTANTS_MAX mutants (default 40, about
# 15 minutes on 2 cores), one shard of them runs (chosen by the commit hash) and the
# output says which and that the others did not run here; the whole set runs in the
# sharded workflow. A change to the checks alone (tests, .cargo/mutants.toml) has no
# mutants in scope: this job cannot see the score decay from it (docs/mutants.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base="${REFOPT_MUTANTS_BASE:-HEAD^}"
max="${REFOPT_MUTANTS_MAX:-40}"
say() { echo "mutants: $*"; }

source .ci/tools.sh
need_cargo_mutants
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "mutants: base commit $base not found (a shallow clone?); set REFOPT_MUTANTS_BASE" >&2
  exit 1
fi
if ! git diff --quiet HEAD -- '*.rs'; then
  echo "mutants: note: uncommitted changes are not tested (the scratch tree is HEAD)" >&2
fi

work=$(mktemp -d)
tree="$work/tree"
cleanup() {
  git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree add -q --detach "$tree" HEAD
git diff "$base" HEAD -- '*.rs' >"$work/real.diff"

# --- self-test: a planted function no check calls ----------------------------------
cat >>"$tree/optimized/src/lib.rs" <<'EOF'

/// Planted by .ci/mutants.sh (self-test, scratch tree only): nothing calls it, so no
/// check can catch its mutants.
#[doc(hidden)]
pub fn mutants_self_test_unchecked(x: u32) -> u32 {
    x.rotate_left(7) ^ 0x5a5a
}
EOF
git -C "$tree" diff HEAD -- optimized/src/lib.rs >"$work/plant.diff"
cd "$tree"
planted=$(cargo mutants --workspace --in-diff "$work/plant.diff" --list | wc -l)
if [ "$planted" -eq 0 ]; then
  echo "mutants: the planted function yields no mutants: the scope no longer covers optimized/src/lib.rs" >&2
  exit 1
fi
say "self-test: $planted mutants of a planted function no check calls must all be missed"
set +e
cargo mutants --workspace --in-place --in-diff "$work/plant.diff" --timeout 300 \
  -o "$work/self-test" >"$work/self-test.log" 2>&1
status=$?
set -e
missed=$(grep -c 'mutants_self_test_unchecked' "$work/self-test/mutants.out/missed.txt" 2>/dev/null || true)
others=$(grep -vc 'mutants_self_test_unchecked' "$work/self-test/mutants.out/missed.txt" 2>/dev/null || true)
missed=${missed:-0}
others=${others:-0}
if [ "$status" -ne 2 ] || [ "$missed" -ne "$planted" ] || [ "$others" -ne 0 ]; then
  tail -30 "$work/self-test.log" >&2
  echo "mutants: self-test failed: exit $status (want 2), missed $missed of $planted planted, $others others" >&2
  exit 1
fi
say "self-test passed: exit status 2, all $planted planted mutants reported missed"

# --- the real diff -----------------------------------------------------------------
cargo mutants --workspace --in-diff "$work/real.diff" --list >"$work/real.list"
n=$(wc -l <"$work/real.list")
changed=$(grep -c '^+++ b/' "$work/real.diff" || true)
if [ "$n" -eq 0 ]; then
  say "0 mutants in the lines changed since $base ($changed Rust files changed, none in the mutation scope's mutable lines): nothing to test"
  exit 0
fi
shard=()
if [ "$n" -gt "$max" ]; then
  shards=$(( (n + max - 1) / max ))
  k=$(( 16#$(git rev-parse --short=8 HEAD) % shards ))
  shard=(--shard "$k/$shards")
  say "$n mutants in the lines changed since $base: more than $max, so shard $k/$shards runs here (about $(( n / shards ))); the other $(( shards - 1 )) shards are NOT RUN here (they run in .github/workflows/mutants.yml)"
else
  say "$n mutants in the lines changed since $base"
fi
# The self-test above ran the unmutated tree's tests for the `optimized` package (the
# planted function's) and required them to pass. When every mutant of the diff is in
# `optimized` too, a second baseline would run the same tests again (about 3 minutes):
# skip it. Mutants in another package get their own baseline.
baseline=()
if ! grep -qv '^optimized/' "$work/real.list"; then
  baseline=(--baseline skip)
  say "every mutant is in optimized/: the self-test's baseline stands for this run's"
fi
cargo mutants --workspace --in-place --in-diff "$work/real.diff" "${shard[@]}" \
  "${baseline[@]}" --timeout 300 -o "$work/real"
say "every viable mutant in the changed lines was caught"
