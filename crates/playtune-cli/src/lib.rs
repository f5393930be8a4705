//! playtune's command line as a library: [`main()`] is the `playtune` binary, and [`run()`]
//! runs it on arguments of one's own (the Python wheel's `playtune` command calls it).
//!
//! Everything else here is the command line's own, private: the subcommands, their flags
//! and what they print. What they run lives below, for a Rust or Python user too: the
//! library `playtune`, where work runs and how a run starts (`playtune-exec`), pictures
//! and report pages (`playtune-report`) and the papers' studies
//! (`playtune-experiments`).

mod cli;

pub use cli::{main, run};
