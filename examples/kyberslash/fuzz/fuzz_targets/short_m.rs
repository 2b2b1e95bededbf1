//! The planted wrong optimization `SHORT_M` (a 28-bit magic constant): this target must
//! crash (`.ci/byo.sh`), which shows the harness `compress` uses, `fuzz_pair!` over the
//! pair's own decoder, able to find a mismatch.
#![no_main]
equivalence::fuzz_pair!(&kyberslash::SHORT_M);
