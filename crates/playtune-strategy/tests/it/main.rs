//! The strategy game's tests through its public API: legal play by every agent and
//! script, script weights, and the pictures (the rules, mechanic by mechanic, are unit
//! tests in `src/tests/rules.rs`). One test binary, one module a subject.

mod agents;
#[cfg(feature = "draw")]
mod pictures;
