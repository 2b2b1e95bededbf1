//! Differential fuzzing over the whole pair registry: the first byte picks a pair, the
//! rest is that pair's input. A mismatch aborts with the pair's report; an input
//! violating a declared precondition is fine.
#![no_main]

use equivalence::registry::{self, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, input)) = data.split_first() else {
        return;
    };
    let pairs = registry::pairs();
    let pair = pairs[usize::from(which) % pairs.len()];
    if let Outcome::Mismatch(m) = pair.run(input) {
        panic!("{}: {m}\ninput: {}", pair.name(), hex_of(input));
    }
});

fn hex_of(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
