//! playtune's command line as a library: [`main()`] is the `playtune` binary, and [`run()`]
//! runs it on arguments of one's own (the Python wheel's `playtune` command calls it).
//!
//! Everything else here is the command line's own, private: the subcommands (`cli`),
//! progress bars (`progress`), pictures (`plot`), report pages (`report`), where work
//! runs (`exec`: this machine's cores or Slurm) and the papers' studies
//! (`experiments`). A Rust user who wants any of it as a library uses the `playtune`
//! crate, whose names these are built from.

mod cli;
mod exec;
mod experiments;
mod plot;
pub mod prepare;
mod progress;
mod report;

pub use cli::{main, run};

// The floors below, under the names the modules here have always used (`crate::harness`,
// `crate::optim`, ...); the run folders are written `playtune::run`, apart from this
// crate's own `run()`.
use playtune::{
    AlgoConfig, agents, damage, eval, game, games, harness, learn, optim, registry, rng, settings,
    space,
};
use playtune_harness::draw;
use playtune_optim::stats;
