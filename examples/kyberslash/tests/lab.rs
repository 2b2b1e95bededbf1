//! The lab's checks: the pair, the proof and its mutant, the planted bug.
equivalence::lab_tests!(pairs: [kyberslash::COMPRESS], obligations: [kyberslash::KS_1], mutants: [kyberslash::SHORT_M]);
