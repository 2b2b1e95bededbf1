#![no_main]
equivalence::fuzz_builtin!("mlkem_encrypt_u");
