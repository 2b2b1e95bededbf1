//! refopt's benchmarks and their helpers.
//!
//! * `benches/*_instructions.rs`: instruction counts (Callgrind) and heap use (DHAT)
//!   with **gungraun**, which is **iai-callgrind under its new name** (renamed at
//!   0.17; gungraun 0.20 here, run by `gungraun-runner` 0.20.0). One benchmark per
//!   operation and tier, the "before" stages and the peers; gated against
//!   `benches/baselines/instructions.txt` by `benches/scripts/gate.sh` (5 %).
//! * `benches/{mlkem,sntrup761,ntruhps2048509,ed25519}.rs`: wall-clock with criterion
//!   0.8; `benches/scripts/wallclock.sh` runs the headline ones three times.
//! * `report` (`src/bin/report/`): the gate, and docs/RESULTS.md, the scheme pages'
//!   Results sections and the SVG charts, generated from the committed baseline.

pub mod ntruhps2048509;
pub mod sntrup761;
