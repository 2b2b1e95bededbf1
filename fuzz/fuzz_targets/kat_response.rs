#![no_main]
equivalence::fuzz_builtin!("kat_response");
