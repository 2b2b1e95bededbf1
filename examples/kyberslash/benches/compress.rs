//! Instructions of each form of Compress_10 (gungraun).
equivalence::pair_bench!(kyberslash::COMPRESS, (1234, 10));
