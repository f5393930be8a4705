//! playtune: design games and tune game-playing bots by watching simulated agents play.
//!
//! # Start here
//!
//! What a Rust user needs is re-exported at the crate root:
//! - a search space: [`Space`], [`Dimension`], [`Domain`] (or a RON file,
//!   [`space::load_space`]);
//! - something to optimise: the [`Problem`] trait and its [`Evaluation`]; the
//!   built-in problems by name through [`build_problem`], each declared by a
//!   [`ProblemDef`];
//! - an optimiser: the ask/tell [`Optimizer`] trait, built from an [`AlgoConfig`]
//!   (random search, RMHC, B-RMHC, NTBEA, MAP-Elites);
//! - a run folder (config, log, resume, verdict) for any optimiser, one of your own
//!   included: [`run::RunOptimizer`], [`run::execute_own`], [`run::resume_own`];
//! - a game: the [`Game`] trait (rules and forward model) and its [`GameDef`] (name,
//!   settings, agents), then every harness service ([`DynGame`]: play, tournament,
//!   design, tuning) through [`GameRequest`]s.
//!
//! A problem, searched with NTBEA by ask and tell:
//!
//! ```
//! use playtune::{AlgoConfig, Dimension, Domain, EvalError, Evaluation, Problem, Space};
//!
//! /// How many of the bits are set, the best point all ones.
//! struct Ones(Space);
//!
//! impl Problem for Ones {
//!     fn space(&self) -> &Space {
//!         &self.0
//!     }
//!     fn evaluate(&self, x: &[f64], _seed: u64) -> Result<Evaluation, EvalError> {
//!         Ok(Evaluation::fitness(x.iter().sum()))
//!     }
//! }
//!
//! let dims = (0..8)
//!     .map(|i| Dimension { name: format!("b{i}"), domain: Domain::Bool, default: 0, fixed: false })
//!     .collect();
//! let problem = Ones(Space { name: "ones".into(), dims, groups: vec![], constraints: vec![] });
//! let algorithm = AlgoConfig::Ntbea(Default::default()); // NTBEA at its defaults
//! let mut optimizer = algorithm.build(problem.space(), 200, 7, &[], &[]).unwrap();
//! loop {
//!     let asked = optimizer.ask();
//!     if asked.is_empty() {
//!         break; // the budget is spent
//!     }
//!     let results: Vec<_> = asked.iter().map(|c| problem.evaluate(&c.values, 0).ok()).collect();
//!     optimizer.tell(&asked, &results);
//! }
//! let best = optimizer.recommend();
//! assert_eq!(best.values, vec![1.0; 8]);
//! ```
//!
//! A built-in game, designed: the skill depth of a ladder of agents at a point of its
//! rules (the same as `playtune optimize --problem design`):
//!
//! ```
//! use playtune::{Problem, ProblemSpec, build_problem};
//!
//! let spec = ProblemSpec {
//!     name: "design".into(),
//!     settings: [
//!         ("game", "rinascimento"),
//!         ("ladder", "rnd,osla(budget=50)"),
//!         ("games", "4"),
//!         ("game_settings", "players=2"),
//!     ]
//!     .into_iter()
//!     .map(|(k, v)| (k.to_string(), v.to_string()))
//!     .collect(),
//! };
//! let problem = build_problem(&spec, None).unwrap();
//! let rules = problem.space().decode(&problem.space().default_indices()); // Splendor's
//! let at_splendor = problem.evaluate(&rules, 1).unwrap();
//! assert!((-1.0..=1.0).contains(&at_splendor.fitness));
//! assert!(problem.feature_names().contains(&"stalemate_rate".to_string()));
//! ```
//!
//! A game of your own plays through the harness once it has a [`GameDef`]; the
//! `Pile` game in `tests/extension_points.rs` is a complete one, played by name with
//! an agent declared once. `docs/layout.md` says which files to touch to add a game, a
//! problem, an optimiser or an experiment to the command line.
//!
//! # Crates
//!
//! playtune is a workspace of crates that follow its floors; a crate never imports one
//! above it (the compiler keeps that, and CI checks each crate's floor), and this crate
//! re-exports them under the paths a user writes (`playtune::space`,
//! `playtune::harness`, `playtune::games::strategy`, ...):
//! 1. `playtune-optim`: the ground floors ([`space`], [`settings`], [`rng`],
//!    [`damage`], [`BoxError`]) and the optimisers ([`eval`]: problems, benchmarks,
//!    external evaluators; [`optim`]: one module per optimiser behind ask/tell). A
//!    Rust user may depend on it alone: none of candle, plotters, clap, indicatif or
//!    the games come with it.
//! 2. `playtune-run` ([`run`]): run folders, logs, resume, re-evaluation, the verdict;
//!    it draws nothing, and is told of progress by an observer ([`run::Progress`]).
//!    `playtune-harness`: [`game`] (the traits games implement), [`agents`] (generic
//!    over them), [`learn`] without training, [`harness`] (one play loop,
//!    tournaments, ladders, self-play, the agent registry, design and tuning), and
//!    pictures behind its `draw` feature.
//! 3. `playtune-train` (`learn::train`, the one crate with candle) and the games, one
//!    crate each beside one another ([`games`]: `playtune-rinascimento`,
//!    `playtune-space-battle`, `playtune-strategy`, `playtune-external`).
//! 4. This crate: the re-exports and the [`registry`] (problems and games by name).
//! 5. `playtune-cli`: the command line (the `playtune` binary), with its pictures,
//!    report pages, progress bars, executors (this machine's cores, Slurm) and the
//!    papers' experiments, all its own.
//!
//! Each layer reports its own error type (`space::Error`, `optim::Error`,
//! `run::RunError`, `learn::Error`, `registry::Error`, `eval::ProblemError`,
//! `harness::Error` with each game's own (`games::strategy::Error`,
//! `games::rinascimento::Error`, `games::space_battle::Error`) inside it); only the
//! command line uses `anyhow` and names flags.

#![deny(missing_docs)]

pub use eval::{EvalError, Evaluation, Problem, ProblemDef};
pub use game::{Acting, Agent, Game};
pub use harness::{AgentEntry, AgentSpec, DynGame, GameDef, GameRequest, Setting, Values};
pub use optim::{AlgoConfig, Candidate, Optimizer, Recommendation};
pub use registry::{build_problem, game as find_game};
pub use run::ProblemSpec;
pub use space::{Dimension, Domain, Space};

pub mod registry;

// The floors below are crates of their own (in crates/); this crate is their facade
// (see "Crates" above).
pub use playtune_harness::{agents, game, harness};
pub use playtune_optim::{BoxError, damage, eval, optim, rng, settings, space};
pub use playtune_run as run;

/// The games: one crate each, beside one another above the harness.
pub mod games {
    pub use playtune_external as external;
    pub use playtune_rinascimento as rinascimento;
    pub use playtune_space_battle as space_battle;
    pub use playtune_strategy as strategy;
}

/// Learned state evaluation ([`playtune_harness::learn`]) with, behind the `train`
/// feature, its training (`train`, the crate `playtune-train`, the one that depends on
/// candle).
pub mod learn {
    pub use playtune_harness::learn::*;
    #[cfg(feature = "train")]
    pub use playtune_train as train;
    #[cfg(feature = "train")]
    pub use playtune_train::{EpochRecord, TrainConfig, Trained};
}
