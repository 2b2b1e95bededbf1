#![no_main]
equivalence::fuzz_builtin!("ntru_encaps");
