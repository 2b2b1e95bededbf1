//! The planted wrong optimization `SHORT_M` (a 28-bit magic constant): this target must
//! crash, which shows the `compress` target able to find a mismatch (`.ci/byo.sh`).
#![no_main]
equivalence::fuzz_pair!(&kyberslash::SHORT_M);
