#!/usr/bin/env bash
# Seeds for a campaign, made at run time into the gitignored fuzz/corpus/<target>/:
# the committed edge seeds, the default run's inputs of every pair, and seeds from the
# official vectors (../shared/vectors or $REFOPT_VECTORS: KAT files, keys and
# ciphertexts, sign.input lines, NTRU kernel vectors). Never commit them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run -q --release -p equivalence -- fuzz seeds fuzz/corpus
