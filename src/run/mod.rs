//! Run folders: `config.ron` (everything needed to reproduce the run), `evals.csv`
//! (every evaluation, appended as it finishes) and `result.ron` (recommendations,
//! estimates, budget used, and for MAP-Elites the archive and its metric history).
//!
//! Every generator is seeded from the run seed and the work item: an optimiser from
//! (seed, trial), an evaluation from (seed, trial, evaluation index). Trials run in
//! parallel and each batch's evaluations too, yet the files do not depend on the
//! number of threads.

pub mod log;
mod result;

pub use result::{Checkpoint, RunResult, TrialResult, read_result};

use crate::eval::{Binding, Evaluation, Problem};
use crate::optim::{AlgoConfig, Phase};
use crate::rng::derive_seed;
use crate::space::Space;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use log::{Cache, LogRow, LogWriter};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const CONFIG_FILE: &str = "config.ron";
/// Below this time per evaluation, a batch is evaluated on the calling thread.
const CHEAP_EVALUATION: std::time::Duration = std::time::Duration::from_micros(20);
pub const RESULT_FILE: &str = "result.ron";

/// A problem by registry name and its settings (`--set NAME=VALUE`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProblemSpec {
    pub name: String,
    pub settings: BTreeMap<String, String>,
}

/// Everything needed to reproduce a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    pub playtune_version: String,
    pub problem: ProblemSpec,
    /// The space searched (fixed dimensions marked), embedded so the run does not
    /// depend on the space file staying unchanged.
    pub space: Space,
    /// Where the space came from, for people.
    pub space_file: Option<String>,
    pub algorithm: AlgoConfig,
    /// Evaluations per trial (MAP-Elites: before re-evaluation of elites).
    pub budget: u64,
    pub trials: u64,
    pub seed: u64,
    /// Whether evaluations are logged to `evals.csv`.
    pub log: bool,
}

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Config(String),
    #[error("trial {trial}, evaluation {index}: {message}")]
    Evaluation {
        trial: u64,
        index: u64,
        message: String,
    },
    #[error("{0}")]
    Io(String),
}

fn io(e: impl std::fmt::Display) -> RunError {
    RunError::Io(e.to_string())
}

/// Counts of evaluations by phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spent {
    pub search: u64,
    pub preprocess: u64,
    pub select: u64,
    pub reevaluate: u64,
    /// Of all the above, how many were taken from the log of an interrupted run. Not
    /// saved: a resumed run's files equal those of a run never interrupted.
    #[serde(skip)]
    pub reused: u64,
}

impl Spent {
    fn count(&mut self, phase: Phase) {
        match phase {
            Phase::Search => self.search += 1,
            Phase::Preprocess => self.preprocess += 1,
            Phase::Select => self.select += 1,
            Phase::Reevaluate => self.reevaluate += 1,
        }
    }
    pub fn total(&self) -> u64 {
        self.search + self.preprocess + self.select + self.reevaluate
    }
}

/// Writes `config.ron` into a new run folder.
pub fn create_run_dir(dir: &Path, config: &RunConfig) -> Result<(), RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let text = ron::ser::to_string_pretty(config, ron::ser::PrettyConfig::default()).map_err(io)?;
    // Written whole or not at all (rename is atomic): a kill while writing must not
    // leave a half config that `resume` would trip over.
    let tmp = dir.join(format!("{CONFIG_FILE}.tmp"));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, dir.join(CONFIG_FILE)).map_err(io)
}

/// A RON error located in its file: `path:line:column: message`.
pub(crate) fn ron_error(path: &Path, e: &ron::error::SpannedError) -> String {
    format!(
        "{}:{}:{}: {}",
        path.display(),
        e.span.start.line,
        e.span.start.col,
        e.code
    )
}

/// Makes `dir` the run folder of `config`: a folder that already holds this config
/// is kept, evaluations and all, so an interrupted experiment resumes; any other is
/// started afresh.
pub fn reuse_or_create_run_dir(dir: &Path, config: &RunConfig) -> Result<(), String> {
    if read_config(dir).ok().as_ref() == Some(config) {
        return Ok(());
    }
    create_run_dir(dir, config).map_err(|e| e.to_string())
}

/// Reads a run folder's `config.ron`.
pub fn read_config(dir: &Path) -> Result<RunConfig, String> {
    let path = dir.join(CONFIG_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound && dir.is_dir() {
            format!(
                "{}: not found: the run was stopped before it started (nothing to resume; start it again)",
                path.display()
            )
        } else {
            format!("{}: {e}", path.display())
        }
    })?;
    parse_config(&text, &path)
}

/// Parses and checks the text of a `config.ron`; `path` names it in errors.
pub fn parse_config(text: &str, path: &Path) -> Result<RunConfig, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Deserialising checks the space as a space file is checked (see `Space`); the
    // algorithm's settings get the checks the command line gives them.
    let config: RunConfig = ron::from_str(text).map_err(|e| ron_error(path, &e))?;
    config
        .algorithm
        .check()
        .map_err(|m| format!("{}: algorithm: {m}", path.display()))?;
    Ok(config)
}

/// Runs (or resumes) the run in `dir` whose `config.ron` is already written. On resume,
/// evaluations found in the log are reused instead of repeated: the optimisers replay
/// deterministically to where the run stopped and go on from there.
///
/// Without a folder (`dir = None`) nothing is written: tests and experiments that
/// only need the results use that.
pub fn execute(
    dir: Option<&Path>,
    config: &RunConfig,
    problem: &dyn Problem,
    progress: bool,
) -> Result<RunResult, RunError> {
    let binding =
        Binding::new(&config.space, problem.space()).map_err(|e| RunError::Config(e.message))?;
    let features = problem.feature_names();
    let axes = problem.default_axes();
    // Catch configuration errors before any evaluation.
    config
        .algorithm
        .build(&config.space, config.budget, 0, &features, &axes)
        .map_err(RunError::Config)?;
    if config.trials == 0 {
        return Err(RunError::Config(
            "--trials is 0: run at least one trial".into(),
        ));
    }
    let logging = config.log && dir.is_some();
    let log_path = dir.map(|d| d.join(log::LOG_FILE)).unwrap_or_default();
    // Whether a log is there to resume from (then it is rewritten at the end, without
    // the rows its reading left out).
    let resuming = logging && log_path.exists();
    let cache = if resuming {
        let log = log::read_log(&log_path, &config.space, &features).map_err(RunError::Io)?;
        if let Some(m) = log.repair_message(&log_path) {
            eprintln!("{m}");
        }
        Cache::from_rows(log.rows.into_iter().map(|(_, r)| r).collect())
    } else {
        Cache::default()
    };
    let writer = if logging {
        Some(Mutex::new(
            LogWriter::open(&log_path, &config.space, &features).map_err(io)?,
        ))
    } else {
        None
    };
    let bar = progress_bar(progress, config);
    let trial_ctx = TrialContext {
        config,
        problem,
        binding: &binding,
        features: &features,
        axes: &axes,
        cache: &cache,
        writer: writer.as_ref(),
        bar: &bar,
    };
    let started = std::time::Instant::now();
    let trials: Vec<Result<TrialResult, RunError>> = (0..config.trials)
        .into_par_iter()
        .map(|t| trial_ctx.run(t))
        .collect();
    let search_seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    drop(writer);
    let trials = trials.into_iter().collect::<Result<Vec<_>, _>>()?;
    // One trial writes its batches in order; only parallel trials interleave rows.
    if logging && (config.trials > 1 || resuming) {
        log::canonicalise(&log_path, &config.space, &features).map_err(RunError::Io)?;
    }
    let mut result = RunResult::new(config, trials);
    result.search_seconds = search_seconds;
    if let Some(dir) = dir {
        result.write(&dir.join(RESULT_FILE)).map_err(io)?;
    }
    Ok(result)
}

fn progress_bar(show: bool, config: &RunConfig) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(
        Some(config.budget.saturating_mul(config.trials)),
        ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {pos}/{len} evaluations [{elapsed_precise} < {eta_precise}] {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

struct TrialContext<'a> {
    config: &'a RunConfig,
    problem: &'a dyn Problem,
    binding: &'a Binding,
    features: &'a [String],
    axes: &'a [crate::eval::FeatureAxis],
    cache: &'a Cache,
    writer: Option<&'a Mutex<LogWriter>>,
    bar: &'a ProgressBar,
}

impl TrialContext<'_> {
    fn run(&self, trial: u64) -> Result<TrialResult, RunError> {
        let c = self.config;
        let mut optimizer = c
            .algorithm
            .build(
                &c.space,
                c.budget,
                derive_seed(c.seed, &[trial, u64::MAX]),
                self.features,
                self.axes,
            )
            .map_err(RunError::Config)?;
        let mut spent = Spent::default();
        let mut index = 0u64;
        let identity = self.binding.is_identity();
        // The recommendation about 20 times a trial: the convergence curve.
        let checkpoint_every = (c.budget / 20).max(1);
        let mut next_checkpoint = checkpoint_every;
        let mut trace = Vec::new();
        // Time per evaluation in the last batch; the first batch runs in parallel.
        let mut per_eval = std::time::Duration::MAX;
        loop {
            let batch = optimizer.ask();
            if batch.is_empty() {
                break;
            }
            let one = |(j, cand): (usize, &crate::optim::Candidate)| {
                let i = index + j as u64;
                let seed = derive_seed(c.seed, &[trial, i]);
                if let Some(hit) = self.cache.get(trial, i, seed, &cand.values) {
                    return (seed, Some(hit.clone()), Ok(hit.clone()));
                }
                let outcome = if identity {
                    self.problem.evaluate(&cand.values, seed)
                } else {
                    let mut full = Vec::with_capacity(self.problem.space().len());
                    self.binding.full_point(&cand.values, &mut full);
                    self.problem.evaluate(&full, seed)
                };
                (seed, None, outcome.map_err(|e| e.0).and_then(finite))
            };
            // Spreading evaluations of a few microseconds over threads costs more than
            // it saves; the results do not depend on the choice.
            let started = std::time::Instant::now();
            let outcomes: Vec<(u64, Option<Evaluation>, Result<Evaluation, String>)> =
                if batch.len() > 1 && per_eval > CHEAP_EVALUATION {
                    batch.par_iter().enumerate().map(one).collect()
                } else {
                    batch.iter().enumerate().map(one).collect()
                };
            per_eval = started.elapsed() / batch.len() as u32;
            let mut rows = Vec::new();
            let mut failure = None;
            let mut evals = Vec::with_capacity(batch.len());
            for (j, (cand, (seed, cached, outcome))) in batch.iter().zip(outcomes).enumerate() {
                let i = index + j as u64;
                match outcome {
                    Ok(e) => {
                        spent.count(cand.phase);
                        if cached.is_some() {
                            spent.reused += 1;
                        } else if self.writer.is_some() {
                            rows.push(LogRow {
                                trial,
                                index: i,
                                phase: cand.phase,
                                seed,
                                values: cand.values.clone(),
                                eval: e.clone(),
                            });
                        }
                        evals.push(e);
                    }
                    Err(message) => {
                        failure.get_or_insert(RunError::Evaluation {
                            trial,
                            index: i,
                            message,
                        });
                    }
                }
            }
            // Successful evaluations of a failing batch are logged too: a resumed run reuses them.
            if let Some(w) = self.writer {
                w.lock()
                    .map_err(|_| RunError::Io("log writer poisoned".into()))?
                    .append(&c.space, &rows)
                    .map_err(io)?;
            }
            if let Some(f) = failure {
                return Err(f);
            }
            optimizer.tell(&batch, &evals);
            index += batch.len() as u64;
            if index >= next_checkpoint {
                trace.push(Checkpoint::new(
                    index,
                    optimizer.as_ref(),
                    self.problem,
                    self.binding,
                ));
                next_checkpoint = index + checkpoint_every;
            }
            self.bar.inc(
                batch
                    .iter()
                    .filter(|b| b.phase != Phase::Reevaluate)
                    .count() as u64,
            );
        }
        Ok(TrialResult::new(
            trial,
            optimizer.as_ref(),
            &c.space,
            self.problem,
            self.binding,
            spent,
            trace,
        ))
    }
}

/// An evaluation with a non-finite fitness or feature is a failed evaluation: NaN
/// would silently poison every estimate and comparison made from it.
fn finite(e: Evaluation) -> Result<Evaluation, String> {
    if !e.fitness.is_finite() {
        return Err(format!("the fitness is {}, not a finite number", e.fitness));
    }
    if let Some(f) = e.features.iter().find(|f| !f.is_finite()) {
        return Err(format!("a feature is {f}, not a finite number"));
    }
    Ok(e)
}

/// Checks a run folder's name (`--name`): one plain path component, so that the run
/// lands inside the runs folder (`../x` or `/tmp/x` would not).
pub fn check_run_name(name: &str) -> Result<(), String> {
    let mut parts = Path::new(name).components();
    let plain = matches!(parts.next(), Some(std::path::Component::Normal(_)))
        && parts.next().is_none()
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control);
    if !plain {
        return Err(format!(
            "--name {name:?}: a run folder's name is one plain name, without `/`, `..` or control characters (--runs-dir chooses where it goes)"
        ));
    }
    Ok(())
}

/// The run folder for a new run: `runs_dir/name`, or `name-2`, `name-3`, ... if taken.
pub fn fresh_dir(runs_dir: &Path, name: &str) -> PathBuf {
    let first = runs_dir.join(name);
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|i| runs_dir.join(format!("{name}-{i}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}
