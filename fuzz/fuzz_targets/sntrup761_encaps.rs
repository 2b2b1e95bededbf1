#![no_main]
equivalence::fuzz_builtin!("sntrup761_encaps");
