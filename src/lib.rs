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
//! `race` game in `tests/design.rs` is a complete one in 90 lines, designed through
//! the generic problem. `docs/layout.md` says which files to touch to add a game, a
//! problem, an optimiser or an experiment to the command line.
//!
//! # Layers
//!
//! From the ground up (nothing imports from a layer above it). The ground floors and
//! the optimisers ([`space`], [`settings`], [`rng`], `stats`, [`eval`], [`optim`]) are
//! the crate `playtune-optim`, which a Rust user may depend on alone; they are
//! re-exported here under the same paths.
//! 1. [`space`], [`settings`] (the settings vocabulary: a setting's name, default,
//!    domain and meaning, and [`BoxError`], any layer's error boxed), [`game`],
//!    `stats`, [`rng`], `draw`, [`damage`];
//! 2. [`eval`] (problems and benchmarks) and [`agents`], [`learn`] (learned state
//!    evaluation: encodings, self-play samples, networks), then [`harness`] (one play
//!    loop, tournament, ladder, self-play and agent registry for every game);
//! 3. [`optim`] (one module per optimiser) and [`games`] (rules, game agents, each
//!    game's [`harness::GameDef`]);
//! 4. [`run`] (run folders, logs, resume), `plot` (charts and a run's pictures) and
//!    [`registry`] (problems and games by name);
//! 5. [`exec`] (where work runs: this machine's cores or Slurm, behind one executor;
//!    `exec::slurm` holds all of Slurm: work items as array tasks and the executor), then
//!    [`experiments`], `report`, then [`cli`].
//!
//! `stats`, `draw`, `plot` and `report` are the crate's own (`pub(crate)`): the
//! command line uses them, a library user does not. Each layer reports its own
//! error type (`space::Error`, `optim::Error`, `run::RunError`, `learn::Error`,
//! `registry::Error`, `eval::ProblemError`, `harness::Error` with each game's own
//! (`games::strategy::Error`, `games::rinascimento::Error`,
//! `games::space_battle::Error`) inside it); only the command line uses `anyhow` and
//! names flags.

pub use eval::{EvalError, Evaluation, Problem, ProblemDef};
pub use game::{Acting, Agent, Game};
pub use harness::{AgentEntry, AgentSpec, DynGame, GameDef, GameRequest, Setting, Values};
pub use optim::{AlgoConfig, Candidate, Optimizer, Recommendation};
pub use registry::{build_problem, game as find_game};
pub use run::ProblemSpec;
pub use space::{Dimension, Domain, Space};

pub mod agents;
pub mod cli;
pub mod damage;
pub(crate) mod draw;
pub mod exec;
pub mod experiments;
pub mod game;
pub mod games;
pub mod harness;
pub mod learn;
pub(crate) mod plot;
pub mod registry;
pub(crate) mod report;
pub mod run;

// The ground floors and the optimisers are a crate of their own (`playtune-optim`,
// in crates/), which a Rust user may depend on alone; here they keep their paths.
pub(crate) use playtune_optim::stats;
pub use playtune_optim::{BoxError, eval, optim, rng, settings, space};
