#![no_main]
equivalence::fuzz_builtin!("ntru_r2_mul");
