//! The generic agents on the real games: their strength against simple play, their
//! budgets of forward-model calls, their pinned decisions. One test binary; the games
//! are dev-dependencies of this crate, never dependencies of its library.

mod bmrh;
mod helpers;
mod mcts;
mod microbial;
mod opponents;
mod osla;
mod pinned;
mod random;
mod registry;
mod speed;
mod srh;
