#![no_main]
equivalence::fuzz_builtin!("sign_input");
