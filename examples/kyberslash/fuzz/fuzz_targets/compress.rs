#![no_main]
equivalence::fuzz_pair!(&kyberslash::COMPRESS);
