//! What a run does before its search, from the command line and from the Python
//! package alike: a design run's ladder built or checked ([`ladder`]), and what the run
//! will cost, said before it starts ([`cost`]).

pub mod cost;
pub mod ladder;
