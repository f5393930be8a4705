//! Optimisers, one file or folder each, behind one ask/tell trait: an optimiser says
//! which points it wants evaluated, and is told their results. It never evaluates
//! anything itself, so evaluation can run anywhere: in-process, in parallel, or in an
//! external program. Each optimiser owns its generator and its budget.

pub mod brmhc;
pub mod constrained;
mod declaration;
pub mod def;
mod error;
pub mod intensify;
pub mod map_elites;
pub mod ntbea;
pub mod race;
pub mod random;
pub mod rmhc;

pub use error::Error;

use crate::eval::{EvalError, Evaluation, FeatureAxis, Problem};
use crate::rng::derive_seed;
use crate::space::Space;
use serde::{Deserialize, Serialize};

/// What an evaluation is for; the log and the budget report keep them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// B-RMHC's importance estimation.
    Preprocess,
    /// The search itself.
    Search,
    /// NTBEA multi-run: re-evaluating each run's recommendation.
    Select,
    /// MAP-Elites: re-playing elites after the search.
    Reevaluate,
    /// Racing the strongest candidates after the search ([`race`]): a batch of this
    /// phase is one round, every candidate on the same seed.
    Race,
}

impl Phase {
    /// The phase's name, as the log writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Preprocess => "preprocess",
            Phase::Search => "search",
            Phase::Select => "select",
            Phase::Reevaluate => "reevaluate",
            Phase::Race => "race",
        }
    }
    /// The phase a name in the log stands for ([`Phase::as_str`] read back).
    pub fn parse(s: &str) -> Option<Phase> {
        [
            Phase::Preprocess,
            Phase::Search,
            Phase::Select,
            Phase::Reevaluate,
            Phase::Race,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }
}

/// Most points one batch may hold: a batch is held in memory at once.
pub(crate) const MAX_BATCH: u64 = 1 << 20;
/// Most repeats, runs or neighbours: beyond it a setting is a typo, not a plan.
pub(crate) const MAX_COUNT: u64 = 1 << 20;

/// One point an optimiser wants evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Values in the search space's order.
    pub values: Vec<f64>,
    /// What the evaluation is for.
    pub phase: Phase,
    /// `Some(k)`: evaluate on the run's `k`-th common seed, the one every candidate
    /// asked with `k` shares (common random numbers, [`intensify`]); `None`: on the
    /// evaluation's own seed.
    pub common: Option<u64>,
}

/// An optimiser's current answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// Values in the search space's order.
    pub values: Vec<f64>,
    /// The optimiser's estimate of the point's fitness (NTBEA: the model mean).
    pub estimate: f64,
    /// Standard error of that estimate where the optimiser has one (0 otherwise).
    pub se: f64,
    /// Evaluations of exactly this point behind the estimate.
    pub samples: u64,
}

impl Recommendation {
    /// One evaluation's point and fitness, or with none yet the space's default point
    /// with a NaN estimate: what optimisers that keep their best evaluation answer.
    pub fn evaluated(best: Option<(&[f64], f64)>, space: &Space) -> Recommendation {
        match best {
            Some((values, f)) => Recommendation {
                values: values.to_vec(),
                estimate: f,
                se: 0.0,
                samples: 1,
            },
            None => Recommendation {
                values: space.decode(&space.default_indices()),
                estimate: f64::NAN,
                se: 0.0,
                samples: 0,
            },
        }
    }
}

/// The ask/tell interface every optimiser implements.
///
/// The contract resume relies on: an optimiser is a deterministic function of its
/// settings, its space, its budget, its seed and the sequence of results it was told.
/// It draws every random number from its own generator (seeded at construction, never
/// from a thread or the clock), asks the same batches when told the same results, and
/// keeps no state that a tell does not determine. A run is resumed by building the
/// optimiser again and telling it the logged results in order
/// (`run::replay`); an optimiser that broke the contract would ask other points after a
/// resume than it asked before, and the run would no longer be byte-identical to one
/// that was never interrupted (`tests/it/cli.rs` and `tests/it/asktell.rs` check that it is).
pub trait Optimizer: Send {
    /// The next points to evaluate; empty once the optimiser has spent its budget.
    /// Points of one batch are independent, so they may be evaluated in parallel.
    fn ask(&mut self) -> Vec<Candidate>;

    /// Results of the last batch: `asked` is that batch as [`Optimizer::ask`] returned
    /// it, `results` its evaluations in the same order (as pyribs and Optuna tell).
    /// `None` is an evaluation that failed (an external evaluator crashed, hung or
    /// printed no fitness, after its retries): every optimiser handles it explicitly,
    /// learning nothing from it, and never treats it as a fitness.
    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]);

    /// The best point so far and its estimated fitness.
    fn recommend(&self) -> Recommendation;

    /// The archive, for quality-diversity optimisers.
    fn archive(&self) -> Option<&map_elites::AnyArchive> {
        None
    }

    /// Archive metrics after every batch, for quality-diversity optimisers.
    fn metrics_history(&self) -> &[map_elites::Metrics] {
        &[]
    }

    /// Feasible and infeasible counts, for an optimiser held to constraints
    /// ([`constrained::Constrained`]).
    fn feasibility(&self) -> Option<constrained::Feasibility> {
        None
    }

    /// Where the recommendation is the problem's baseline (a race kept the game's own
    /// rules), the best other point the optimiser measured, so that a verdict can say
    /// how far the search's best alternative stands from the baseline. `None`
    /// elsewhere.
    fn alternative(&self) -> Option<Vec<f64>> {
        None
    }
}

/// Every optimiser and its settings: this is what `config.ron` records and what
/// [`AlgoConfig::build`] turns into a running optimiser.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AlgoConfig {
    /// Random search ([`random`]).
    Random(random::RandomConfig),
    /// Random mutation hill climbing ([`rmhc`]).
    Rmhc(rmhc::RmhcConfig),
    /// Biased-mutation RMHC ([`brmhc`]).
    Brmhc(brmhc::BrmhcConfig),
    /// The N-Tuple Bandit EA ([`ntbea`]).
    Ntbea(ntbea::NtbeaConfig),
    /// MAP-Elites ([`map_elites`]).
    MapElites(map_elites::MapElitesConfig),
}

impl AlgoConfig {
    /// Its optimiser's declaration.
    pub fn def(&self) -> &'static declaration::OptimizerDef {
        match self {
            AlgoConfig::Random(_) => &random::DEF,
            AlgoConfig::Rmhc(_) => &rmhc::DEF,
            AlgoConfig::Brmhc(_) => &brmhc::DEF,
            AlgoConfig::Ntbea(_) => &ntbea::DEF,
            AlgoConfig::MapElites(_) => def::MAP_ELITES,
        }
    }

    /// Its optimiser's name, as `--algo` takes it.
    pub fn name(&self) -> &'static str {
        self.def().name
    }

    /// Checks the settings, for the command line and a run's `config.ron` alike:
    /// counts of at least 1 (they are never clamped silently), finite real numbers in
    /// their range, nothing so large that it exhausts memory. An error names the
    /// setting as `config.ron` does ([`Error::setting`]).
    pub fn check(&self) -> Result<(), Error> {
        // The declaration reads the settings back: what it refuses from a user it
        // refuses in a `config.ron`.
        let (def, values) = def::declaring(self);
        def.configure(&values)?;
        match self {
            // What the settings' text cannot hold (a CVT archive's own samples).
            AlgoConfig::MapElites(c) => c.check(),
            _ => Ok(()),
        }
    }

    /// Builds the optimiser for one trial. `features` and `default_axes` come from the
    /// problem (MAP-Elites needs them).
    pub fn build(
        &self,
        space: &Space,
        budget: u64,
        seed: u64,
        features: &[String],
        default_axes: &[FeatureAxis],
    ) -> Result<Box<dyn Optimizer>, Error> {
        self.check()?;
        if budget == 0 {
            return Err(Error::NoBudget);
        }
        if space.free_dims().is_empty() {
            return Err(Error::NothingToSearch(space.name.clone()));
        }
        Ok(match self {
            AlgoConfig::Random(c) => Box::new(random::RandomSearch::new(
                c.clone(),
                space.clone(),
                budget,
                seed,
            )),
            AlgoConfig::Rmhc(c) => {
                Box::new(rmhc::Rmhc::new(c.clone(), space.clone(), budget, seed)?)
            }
            AlgoConfig::Brmhc(c) => {
                Box::new(brmhc::Brmhc::new(c.clone(), space.clone(), budget, seed)?)
            }
            AlgoConfig::Ntbea(c) => {
                Box::new(ntbea::Ntbea::new(c.clone(), space.clone(), budget, seed)?)
            }
            AlgoConfig::MapElites(c) => Box::new(map_elites::Scheduler::new(
                c.clone(),
                space.clone(),
                budget,
                seed,
                features,
                default_axes,
            )?),
        })
    }
}

/// Runs an optimiser to the end of its budget on an in-process problem, one
/// evaluation at a time, evaluation i seeded from `(seed, i)`, and returns its
/// recommendation. For optimisers nested inside a problem (NTBEA tuning NTBEA), where
/// run folders, logs and threads would cost more than the evaluations; runs that
/// users see go through `run::execute`.
pub(crate) fn run_in_process(
    optimizer: &mut dyn Optimizer,
    problem: &dyn Problem,
    seed: u64,
) -> Result<Recommendation, EvalError> {
    let mut index = 0u64;
    loop {
        let batch = optimizer.ask();
        if batch.is_empty() {
            return Ok(optimizer.recommend());
        }
        let results = batch
            .iter()
            .enumerate()
            .map(|(j, c)| {
                problem
                    .evaluate(&c.values, derive_seed(seed, &[index + j as u64]))
                    .map(Some)
            })
            .collect::<Result<Vec<_>, _>>()?;
        optimizer.tell(&batch, &results);
        index += batch.len() as u64;
    }
}

/// Index of the largest value (first on ties); `None` for an empty slice.
pub fn argmax(xs: impl IntoIterator<Item = f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, x) in xs.into_iter().enumerate() {
        if best.is_none_or(|(_, b)| x > b) {
            best = Some((i, x));
        }
    }
    best.map(|(i, _)| i)
}
