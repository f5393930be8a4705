//! The optimisers of playtune, as a library of their own: what a Rust user needs to
//! search a parameter space with NTBEA or MAP-Elites over a problem of their own,
//! without the games, the pictures, the command line or learned evaluation (the
//! `playtune` crate builds those on this one and re-exports it whole).
//!
//! - a search space: [`Space`], [`Dimension`], [`Domain`] (or a RON file,
//!   [`space::load_space`]);
//! - something to optimise: the [`Problem`] trait and its [`Evaluation`], or a
//!   program of any language speaking JSON lines ([`eval::CommandProblem`]);
//! - an optimiser: the ask/tell [`Optimizer`] trait, built from an [`AlgoConfig`]
//!   (random search, RMHC, B-RMHC, NTBEA, MAP-Elites).
//!
//! ```
//! use playtune_optim::{AlgoConfig, Dimension, Domain, EvalError, Evaluation, Problem, Space};
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
//! let algorithm = AlgoConfig::Ntbea(Default::default());
//! let mut optimizer = algorithm.build(problem.space(), 200, 7, &[], &[]).unwrap();
//! loop {
//!     let asked = optimizer.ask();
//!     if asked.is_empty() {
//!         break; // the budget is spent
//!     }
//!     let results: Vec<_> = asked.iter().map(|c| problem.evaluate(&c.values, 0).ok()).collect();
//!     optimizer.tell(&asked, &results);
//! }
//! assert_eq!(optimizer.recommend().values, vec![1.0; 8]);
//! ```
//!
//! Layers, from the ground up (none imports one above it): [`space`], [`settings`],
//! [`rng`], [`stats`]; then [`eval`] (problems, benchmarks, external evaluators);
//! then [`optim`].

pub use eval::{EvalError, Evaluation, Problem, ProblemDef};
pub use optim::{AlgoConfig, Candidate, Optimizer, Recommendation};
pub use space::{Dimension, Domain, Space};

pub mod damage;
pub mod eval;
pub mod optim;
pub mod rng;
pub mod settings;
pub mod space;
pub mod stats;

/// Any layer's error, boxed: what a pluggable part (a problem, a game) hands up when
/// its own error type is its business. On the ground floor, so that every layer may
/// name it.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;
