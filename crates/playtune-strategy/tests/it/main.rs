//! The strategy game's tests: rules per mechanic, the level generator, legal play by
//! every agent and script, invariants over many random turns, script weights, and the
//! pictures. One test binary, one module a subject.

mod agents;
#[cfg(feature = "draw")]
mod pictures;
mod rules;
