//! What a run does before its search, from the command line and from the Python
//! package alike: a design run's ladder built or checked ([`ladder`]), and what the run
//! will cost, said before it starts ([`cost`]), and the run created in one sequence
//! ([`start`]).

pub mod cost;
pub mod ladder;
pub mod start;
