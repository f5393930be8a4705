//! Designing any game through the generic `design` problem: a built-in game from the
//! command line, and a small game defined here, outside the crate, designed through
//! the library as a new game's author would.

mod built_in;
mod race;
