//! playtune: design games and tune game-playing bots by watching simulated agents play.
//!
//! Layers, from the ground up (nothing imports from a layer above it):
//! 1. [`space`], [`game`], [`stats`], [`rng`], [`draw`], [`damage`];
//! 2. [`eval`] (problems and benchmarks) and [`agents`], [`learn`] (learned state
//!    evaluation: encodings, self-play samples, networks), then [`harness`] (one play
//!    loop, tournament, ladder, self-play and agent registry for every game);
//! 3. [`optim`] (one module per optimiser) and [`games`] (rules, game agents, each
//!    game's [`harness::GameDef`]);
//! 4. [`run`] (run folders, logs, resume) and [`registry`] (problems and games by name);
//! 5. [`experiments`], [`cluster`] (an experiment's work items as Slurm array tasks),
//!    then [`cli`] and [`report`] (which draws with `playtune plot`'s code).

pub mod agents;
pub mod cli;
pub mod cluster;
pub mod damage;
pub mod draw;
pub mod eval;
pub mod experiments;
pub mod game;
pub mod games;
pub mod harness;
pub mod learn;
pub mod optim;
pub mod plot;
pub mod registry;
pub mod report;
pub mod rng;
pub mod run;
pub mod space;
pub mod stats;
