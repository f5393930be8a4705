//! playtune: design games and tune game-playing bots by watching simulated agents play.

pub mod game;
pub mod games;
pub mod rng;
