//! Run folders: `config.ron` (everything needed to reproduce the run), `evals.csv`
//! (every evaluation, appended as it finishes) and `result.ron` (recommendations,
//! estimates, budget used, and for MAP-Elites the archive and its metric history).
//!
//! Every generator is seeded from the run seed and the work item: an optimiser from
//! (seed, trial), an evaluation from (seed, trial, evaluation index). Trials run in
//! parallel and each batch's evaluations too, yet the files do not depend on the
//! number of threads.
//!
//! A run draws nothing: whoever drives it may hand in a [`Progress`] observer (the
//! command line hands in a progress bar).

mod config;
mod drive;
mod error;
pub mod failures;
pub mod files;
pub mod lock;
pub mod log;
mod own;
mod progress;
pub mod reevaluate;
mod result;
mod trial;
pub mod verdict;
mod verdict_log;

pub use config::*;
pub use drive::*;
pub use error::*;
use own::{Algorithm, Build};
pub use own::{OwnOptimizer, RunOptimizer, execute_own, resume_own};
pub use progress::Progress;
pub use result::{Checkpoint, RunResult, TrialResult, read_result};
use trial::*;

use failures::{FailureRow, FailureWriter};
use log::{Cache, LogRow, LogWriter, Logged};
use playtune_optim::eval::{Binding, Evaluation, Problem};
use playtune_optim::optim::constrained::{Check, Constrained};
use playtune_optim::optim::{AlgoConfig, Phase};
use playtune_optim::rng::derive_seed;
use playtune_optim::space::Space;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Counts of evaluations by phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spent {
    /// Evaluations of the search itself.
    pub search: u64,
    /// B-RMHC's importance estimation.
    pub preprocess: u64,
    /// NTBEA multi-run: re-evaluations of each run's recommendation.
    pub select: u64,
    /// MAP-Elites: re-played elites after the search.
    pub reevaluate: u64,
    /// Racing the strongest candidates after the search.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub race: u64,
    /// Of all the above, how many were taken from the log of an interrupted run. Not
    /// saved: a resumed run's files equal those of a run never interrupted.
    #[serde(skip)]
    pub reused: u64,
    /// Of all the above, how many failed (see `failures.jsonl`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed: u64,
}

pub(crate) fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Spent {
    fn count(&mut self, phase: Phase) {
        match phase {
            Phase::Search => self.search += 1,
            Phase::Preprocess => self.preprocess += 1,
            Phase::Select => self.select += 1,
            Phase::Reevaluate => self.reevaluate += 1,
            Phase::Race => self.race += 1,
        }
    }
    /// Every evaluation counted, whatever its phase.
    pub fn total(&self) -> u64 {
        self.search + self.preprocess + self.select + self.reevaluate + self.race
    }
}

/// Evaluates a point of the problem's own space, trying again with the same seed
/// after a failure (a non-finite result counts as one) up to `retries` times; returns
/// the last outcome and the attempts made. Every evaluator of a run goes through it:
/// the run loop and a cluster task.
pub fn evaluate_with_retries(
    problem: &dyn Problem,
    point: &[f64],
    seed: u64,
    retries: u32,
) -> (Result<Evaluation, String>, u32) {
    with_retries(retries, || problem.evaluate(point, seed))
}

/// Calls `evaluate` (one evaluation, always with the same seed) until it gives a
/// finite result or has failed `retries` more times; the last outcome and the
/// attempts made.
pub(crate) fn with_retries(
    retries: u32,
    evaluate: impl Fn() -> Result<Evaluation, playtune_optim::eval::EvalError>,
) -> (Result<Evaluation, String>, u32) {
    let mut attempts = 0;
    loop {
        attempts += 1;
        let outcome = evaluate()
            .map_err(|e| e.0)
            .and_then(|e| finite(e).map_err(|e| e.to_string()));
        if outcome.is_ok() || attempts > retries {
            return (outcome, attempts);
        }
    }
}

/// Appends evaluations and failures to a run folder's `evals.csv` and
/// `failures.jsonl`, as the run loop writes them: what `tell`, a cluster search's
/// collection and an experiment's task collection record.
pub fn append_results(
    dir: &Path,
    space: &Space,
    features: &[String],
    rows: &[LogRow],
    failed: &[FailureRow],
) -> Result<(), RunError> {
    files::check_run_folder(dir)?;
    // Checked before anything is written: a row the log's reader would leave out is
    // refused here, where whoever hands it in hears of it.
    for r in rows {
        finite(r.eval.clone()).map_err(|why| RunError::Unusable {
            trial: r.trial,
            index: r.index,
            why,
        })?;
    }
    let log_path = dir.join(files::LOG_FILE);
    let mut w = LogWriter::open(&log_path, space, features)
        .map_err(|e| write_error("write", &log_path, e))?;
    // Its errors name the log already.
    w.append(space, rows).map_err(io)?;
    let failures_path = dir.join(files::FAILURES_FILE);
    FailureWriter::new(&failures_path)
        .append(failed)
        .map_err(|e| write_error("write", &failures_path, e))
}

/// Why an evaluation's results cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum NotFinite {
    #[error("the fitness is {0}, not a finite number")]
    /// A fitness that is not a finite number.
    Fitness(f64),
    #[error("a feature is {0}, not a finite number")]
    /// A feature that is not a finite number.
    Feature(f64),
    #[error(
        "the fitness is {0:e}, beyond ±{max:e}, the largest magnitude playtune takes in (its statistics of such numbers would overflow): scale the evaluator's fitness",
        max = playtune_optim::stats::MAX_MAGNITUDE
    )]
    /// A fitness too large for playtune's statistics.
    FitnessTooLarge(f64),
    #[error(
        "a feature is {0:e}, beyond ±{max:e}, the largest magnitude playtune takes in (its statistics of such numbers would overflow): scale the evaluator's features",
        max = playtune_optim::stats::MAX_MAGNITUDE
    )]
    /// A feature too large for playtune's statistics.
    FeatureTooLarge(f64),
}

/// An evaluation with a non-finite fitness or feature is a failed evaluation: NaN
/// would silently poison every estimate and comparison made from it. So is one beyond
/// ±[`playtune_optim::stats::MAX_MAGNITUDE`]: a finite 1e308 makes the means and
/// sums of squares made from it infinite, and a run would write a result (`estimate:
/// inf`) that its own `report` refuses.
pub fn finite(e: Evaluation) -> Result<Evaluation, NotFinite> {
    use playtune_optim::stats::in_range;
    if !e.fitness.is_finite() {
        return Err(NotFinite::Fitness(e.fitness));
    }
    if let Some(&f) = e.features.iter().find(|f| !f.is_finite()) {
        return Err(NotFinite::Feature(f));
    }
    if !in_range(e.fitness) {
        return Err(NotFinite::FitnessTooLarge(e.fitness));
    }
    if let Some(&f) = e.features.iter().find(|f| !in_range(**f)) {
        return Err(NotFinite::FeatureTooLarge(f));
    }
    Ok(e)
}
