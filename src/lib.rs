//! playtune: design games and tune game-playing bots by watching simulated agents play.

pub mod cli;
pub mod eval;
pub mod game;
pub mod games;
pub mod optim;
pub mod registry;
pub mod rng;
pub mod run;
pub mod space;
pub mod stats;
