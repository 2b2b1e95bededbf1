#![no_main]
equivalence::fuzz_builtin!("ed25519_subm");
