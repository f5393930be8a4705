//! playtune: design games and tune game-playing bots by watching simulated agents play.

pub mod game;
pub mod games;
pub mod rng;
pub mod space;
pub mod eval;
pub mod stats;
pub mod optim;
pub mod run;
pub mod registry;
pub mod cli;
