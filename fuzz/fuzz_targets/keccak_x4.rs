#![no_main]
equivalence::fuzz_builtin!("keccak_x4");
