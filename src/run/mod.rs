//! Run folders: `config.ron` (everything needed to reproduce the run), `evals.csv`
//! (every evaluation, appended as it finishes) and `result.ron` (recommendations,
//! estimates, budget used, and for MAP-Elites the archive and its metric history).
//!
//! Every generator is seeded from the run seed and the work item: an optimiser from
//! (seed, trial), an evaluation from (seed, trial, evaluation index). Trials run in
//! parallel and each batch's evaluations too, yet the files do not depend on the
//! number of threads.

pub mod failures;
pub mod lock;
pub mod log;
pub mod reevaluate;
mod result;
pub mod verdict;

pub use result::{Checkpoint, RunResult, TrialResult, read_result};

use crate::eval::{Binding, Evaluation, Problem};
use crate::optim::constrained::{Check, Constrained};
use crate::optim::{AlgoConfig, Phase};
use crate::rng::derive_seed;
use crate::space::Space;
use failures::{FailureRow, FailureWriter};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use log::{Cache, LogRow, LogWriter, Logged};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub const CONFIG_FILE: &str = "config.ron";
/// Below this time per evaluation, a batch is evaluated on the calling thread.
const CHEAP_EVALUATION: std::time::Duration = std::time::Duration::from_micros(20);
pub(crate) const RESULT_FILE: &str = "result.ron";

/// A problem by registry name and its settings (`--set NAME=VALUE`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    pub name: String,
    pub settings: BTreeMap<String, String>,
}

/// Everything needed to reproduce a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// What happens when an evaluation fails (absent from configs written before it
    /// existed: those runs get the defaults).
    #[serde(default, skip_serializing_if = "FaultPolicy::is_default")]
    pub faults: FaultPolicy,
    /// Racing the strongest candidates with the last share of each trial's budget
    /// ([`crate::optim::race`]); absent: no race (every run before racing existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<crate::optim::race::RaceConfig>,
}

/// What a run does when an evaluation fails: it tries again with the same seed, then
/// records the failure in `failures.jsonl`, tells the optimiser, and goes on; it stops
/// only when failures pass a share of the evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultPolicy {
    /// Evaluations of a failed point again, with the same seed, before it counts as
    /// failed: a flaky evaluator's crash costs a retry, not an evaluation.
    pub retries: u32,
    /// The share of failed evaluations above which the run stops, counted over at
    /// least [`FAILURE_WINDOW`] evaluations so that an evaluator that always fails
    /// stops the run within a few evaluations, and one crash in a hundred does not.
    pub max_failures: f64,
}

/// The fewest evaluations a failure share is counted over.
pub(crate) const FAILURE_WINDOW: u64 = 20;

impl Default for FaultPolicy {
    fn default() -> FaultPolicy {
        FaultPolicy {
            retries: 2,
            max_failures: 0.2,
        }
    }
}

impl FaultPolicy {
    fn is_default(&self) -> bool {
        *self == FaultPolicy::default()
    }

    /// Checks the policy; an error names the setting as `config.ron` does
    /// (`faults`' `max_failures`, `retries`).
    pub fn check(&self) -> Result<(), RunError> {
        if !(0.0..=1.0).contains(&self.max_failures) {
            return Err(RunError::Faults {
                setting: "max_failures",
                value: self.max_failures.to_string(),
                expected: "give a share from 0 (stop at the first failure) to 1 (never stop)"
                    .into(),
            });
        }
        if self.retries > MAX_RETRIES {
            return Err(RunError::Faults {
                setting: "retries",
                value: self.retries.to_string(),
                expected: format!("give 0 to {MAX_RETRIES}"),
            });
        }
        Ok(())
    }

    /// Whether `failed` of `attempted` evaluations is past the share, mid-run: the
    /// share is taken over at least [`FAILURE_WINDOW`] evaluations.
    fn exceeded(&self, failed: u64, attempted: u64) -> bool {
        failed as f64 > self.max_failures * attempted.max(FAILURE_WINDOW) as f64
    }

    /// Whether a finished run failed too often to count as finished: past the share
    /// as mid-run. (A trial in which every evaluation failed found nothing, whatever
    /// the share: see [`RunError::NothingSucceeded`].)
    fn exceeded_at_end(&self, failed: u64, attempted: u64) -> bool {
        self.exceeded(failed, attempted)
    }
}

/// Why a run could not start, or stopped early. Messages name settings as
/// `config.ron` does, never a command-line flag: the command line adds the flag.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The run's configuration does not fit its problem.
    #[error("{0}")]
    Config(String),
    /// The optimiser's settings or what it is given to search.
    #[error(transparent)]
    Optimizer(#[from] crate::optim::Error),
    /// The fault policy (`faults` in `config.ron`) out of range.
    #[error("{setting}: {value}: {expected}")]
    Faults {
        setting: &'static str,
        value: String,
        expected: String,
    },
    /// A run of no trials.
    #[error("trials is 0: run at least one trial")]
    NoTrials,
    /// One trial asked for that the run does not have.
    #[error("trial {trial} does not exist: the run has {trials} trials")]
    NoSuchTrial { trial: u64, trials: u64 },
    /// A run folder's name that is not one plain name.
    #[error(
        "{0:?}: a run folder's name is one plain name, without `/`, `..` or control characters"
    )]
    BadName(String),
    /// Failures past the run's share (`faults.max_failures`).
    #[error(
        "{failed} of {attempted} evaluations failed, more than the run's max_failures {share} allows; the last (trial {trial}, evaluation {index}): {last}"
    )]
    TooManyFailures {
        failed: u64,
        attempted: u64,
        share: f64,
        trial: u64,
        index: u64,
        last: String,
    },
    #[error(
        "every one of the {attempted} evaluations of trial {trial} failed, so it has nothing to recommend (whatever max_failures allows); the last (evaluation {index}): {last}"
    )]
    NothingSucceeded {
        attempted: u64,
        trial: u64,
        index: u64,
        last: String,
    },
    /// A folder (or file) another playtune command is writing: `what`, or the folder
    /// enclosing `inside`.
    #[error("{}", lock::busy_text(what, holder, inside.as_deref()))]
    Busy {
        what: PathBuf,
        holder: String,
        inside: Option<PathBuf>,
    },
    #[error("{}: no such folder", .0.display())]
    NoSuchFolder(PathBuf),
    /// A run folder whose `config.ron` is missing: the run was stopped before it
    /// started.
    #[error(
        "{}: not found: the run was stopped before it started (nothing to resume; start it again)",
        .0.display()
    )]
    NeverStarted(PathBuf),
    /// A value of a run's file out of range: `field` as the file names it.
    #[error(
        "{}: {field}: {message} (the file is damaged or was edited: restore it, or start the run again)",
        file.display()
    )]
    Damaged {
        file: PathBuf,
        field: String,
        message: String,
    },
    /// A file that cannot be read, written or parsed; the message names it.
    #[error("{0}")]
    Io(String),
    /// Stopped by its caller (see [`Stop`]) before the end: every batch recorded
    /// before is in the log, and resuming goes on from there.
    #[error("interrupted: every evaluation done is in the run's log; resuming goes on from there")]
    Interrupted,
}

/// A file of ours that does not parse as RON, located in it:
/// `path:line:column: message` (the text of [`ron_error`]).
#[derive(Debug, thiserror::Error)]
#[error(
    "{}:{}:{}: {}",
    path.display(),
    source.span.start.line,
    source.span.start.col,
    source.code
)]
pub struct ParseError {
    pub path: PathBuf,
    pub source: Box<ron::error::SpannedError>,
}

impl ParseError {
    pub(crate) fn new(path: impl Into<PathBuf>, source: ron::error::SpannedError) -> ParseError {
        ParseError {
            path: path.into(),
            source: Box::new(source),
        }
    }
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

fn is_zero(n: &u64) -> bool {
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
    pub fn total(&self) -> u64 {
        self.search + self.preprocess + self.select + self.reevaluate + self.race
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
pub(crate) fn reuse_or_create_run_dir(dir: &Path, config: &RunConfig) -> Result<(), RunError> {
    if read_config(dir).ok().as_ref() == Some(config) {
        return Ok(());
    }
    create_run_dir(dir, config)
}

/// Reads a run folder's `config.ron`.
pub fn read_config(dir: &Path) -> Result<RunConfig, RunError> {
    let path = dir.join(CONFIG_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound && dir.is_dir() {
            RunError::NeverStarted(path.clone())
        } else {
            RunError::Io(format!("{}: {e}", path.display()))
        }
    })?;
    parse_config(&text, &path)
}

/// Whether the run's problem is evaluated outside playtune (`ask`/`tell`): such a run
/// is finished by telling results, never by `resume`.
pub fn is_manual(config: &RunConfig) -> bool {
    config.problem.name == "manual"
}

/// What finishes the unfinished run in `dir`, as a command to show: `resume`, or for a
/// run evaluated outside playtune, `ask` and `tell`.
pub(crate) fn how_to_finish(dir: &Path) -> String {
    let d = dir.display();
    match read_config(dir) {
        Ok(c) if is_manual(&c) => {
            format!("`playtune ask {d}` and `playtune tell {d}` evaluate what it waits for")
        }
        _ => format!("`playtune resume {d}` completes it"),
    }
}

/// The folder under a run or an experiment that holds a cluster's state (`cluster`):
/// a lock walk passes over it, since the tasks there hold folders of their own.
pub(crate) const CLUSTER_DIR: &str = "slurm";

/// Parses and checks the text of a `config.ron`; `path` names it in errors.
pub fn parse_config(text: &str, path: &Path) -> Result<RunConfig, RunError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Deserialising checks the space as a space file is checked (see `Space`); the
    // algorithm's settings get the checks the command line gives them.
    let config: RunConfig = ron::from_str(text).map_err(|e| RunError::Io(ron_error(path, &e)))?;
    // Messages name the file and the field, never a flag: a damaged config is
    // repaired by hand or the run started again, not resumed.
    let damaged = |field: &str, message: String| RunError::Damaged {
        file: path.to_path_buf(),
        field: field.to_string(),
        message,
    };
    check_size(config.budget, config.trials, "budget", "trials")
        .map_err(|(field, m)| damaged(field, m))?;
    // A problem playtune does not have cannot have written this run.
    crate::registry::problem(&config.problem.name)
        .map_err(|e| damaged("problem.name", e.to_string()))?;
    config
        .algorithm
        .check()
        .map_err(|e| damaged("algorithm", e.to_string()))?;
    let f = &config.faults;
    if !(0.0..=1.0).contains(&f.max_failures) {
        return Err(damaged(
            "faults",
            format!("max_failures: {}: give a share from 0 to 1", f.max_failures),
        ));
    }
    if f.retries > MAX_RETRIES {
        return Err(damaged(
            "faults",
            format!("retries: {}: give 0 to {MAX_RETRIES}", f.retries),
        ));
    }
    Ok(config)
}

/// The most evaluations one trial may have (a run's `budget`, `--budget`).
pub(crate) const MAX_BUDGET: u64 = 1_000_000_000;
/// The most trials a run may have (`trials`, `--trials`): every trial holds an
/// optimiser and its result in memory.
pub(crate) const MAX_TRIALS: u64 = 100_000;
/// The most retries of a failed evaluation (`--retries`).
const MAX_RETRIES: u32 = 100;

/// Checks a run's budget and trials against the limits of every run, for the command
/// line and `config.ron` alike: on error, which of the two (named as the caller
/// spells it: `budget_name`, `trials_name`) and why.
pub fn check_size<'a>(
    budget: u64,
    trials: u64,
    budget_name: &'a str,
    trials_name: &'a str,
) -> Result<(), (&'a str, String)> {
    if budget == 0 {
        return Err((budget_name, "0: give at least one evaluation".into()));
    }
    if budget > MAX_BUDGET {
        return Err((
            budget_name,
            format!("{budget}: give at most {MAX_BUDGET} evaluations per trial"),
        ));
    }
    if trials == 0 {
        return Err((trials_name, "0: run at least one trial".into()));
    }
    if trials > MAX_TRIALS {
        return Err((
            trials_name,
            format!("{trials}: give at most {MAX_TRIALS} trials"),
        ));
    }
    Ok(())
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
    execute_with(
        dir,
        config,
        problem,
        Options {
            progress,
            retry_failed: false,
            only_trial: None,
        },
    )
}

/// How [`execute_with`] runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Draw a progress bar on standard error.
    pub progress: bool,
    /// On resume, evaluate again the evaluations `failures.jsonl` records as failed
    /// (after fixing the evaluator), instead of replaying them as failures.
    pub retry_failed: bool,
    /// Run only this trial (a cluster task runs one trial of a run in a folder of its
    /// own; its rows are the rows the whole run would log for that trial).
    pub only_trial: Option<u64>,
}

/// [`execute`] with options.
pub fn execute_with(
    dir: Option<&Path>,
    config: &RunConfig,
    problem: &dyn Problem,
    options: Options,
) -> Result<RunResult, RunError> {
    match drive(dir, config, problem, options, false, None)? {
        Driven::Finished(r) => Ok(r),
        Driven::Waiting { .. } => unreachable!("a run that evaluates never waits"),
    }
}

/// Asks a run driven by [`execute_stoppable`] to stop: from another thread, or from
/// its problem's `evaluate`.
#[derive(Debug, Default)]
pub struct Stop {
    requested: AtomicBool,
    /// The batches under way are dropped, not recorded.
    drop_batches: AtomicBool,
}

impl Stop {
    /// Stops each trial before its next batch: the batches under way are finished and
    /// recorded.
    pub fn after_batch(&self) {
        self.requested.store(true, Ordering::SeqCst);
    }

    /// Stops each trial now: the batches under way are dropped, nothing of them
    /// recorded (what an evaluator stopped midway returned is no result). Set it
    /// before an evaluation returns a result that is none.
    pub fn now(&self) {
        self.drop_batches.store(true, Ordering::SeqCst);
        self.requested.store(true, Ordering::SeqCst);
    }

    /// Whether the run was asked to stop.
    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::SeqCst)
    }

    fn drops_batches(&self) -> bool {
        self.drop_batches.load(Ordering::SeqCst)
    }
}

/// [`execute_with`], which `stop` stops cleanly before the end (as the command line's
/// Ctrl-C does, but without ending the process): then [`RunError::Interrupted`],
/// every batch recorded before it kept in the log, no `result.ron` written; resuming
/// the run goes on from there. The Python package drives run folders with it.
pub fn execute_stoppable(
    dir: Option<&Path>,
    config: &RunConfig,
    problem: &dyn Problem,
    options: Options,
    stop: &Stop,
) -> Result<RunResult, RunError> {
    match drive(dir, config, problem, options, false, Some(stop))? {
        Driven::Finished(r) => Ok(r),
        Driven::Waiting { .. } => unreachable!("a run that evaluates never waits"),
    }
}

/// A candidate the optimiser waits for, evaluated outside playtune (`playtune ask`).
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub trial: u64,
    pub index: u64,
    pub seed: u64,
    pub phase: Phase,
    /// The point in the run's search space.
    pub values: Vec<f64>,
}

/// Where a run evaluated outside playtune stands.
pub enum Driven {
    /// Every evaluation is in: `result.ron` is written.
    Finished(RunResult),
    /// Some trials wait for candidates.
    Waiting {
        /// The candidates the optimisers wait for, in (trial, index) order: each
        /// trial's current batch, less what is logged.
        waiting: Vec<Waiting>,
        /// The trials whose evaluations are all in.
        finished: Vec<TrialResult>,
    },
}

/// Replays a run from its logs without evaluating anything (`playtune ask`/`tell`):
/// the optimisers are told every logged evaluation and failure, in order, up to the
/// first batch that is not complete.
pub fn replay(dir: &Path, config: &RunConfig, problem: &dyn Problem) -> Result<Driven, RunError> {
    drive(Some(dir), config, problem, Options::default(), true, None)
}

fn drive(
    dir: Option<&Path>,
    config: &RunConfig,
    problem: &dyn Problem,
    options: Options,
    replay_only: bool,
    stop: Option<&Stop>,
) -> Result<Driven, RunError> {
    let binding =
        Binding::new(&config.space, problem.space()).map_err(|e| RunError::Config(e.message))?;
    let features = problem.feature_names();
    let axes = problem.default_axes();
    // Catch configuration errors before any evaluation.
    config
        .algorithm
        .build(&config.space, config.budget, 0, &features, &axes)?;
    constraint_checks(config, problem)?;
    config.faults.check()?;
    if config.trials == 0 {
        return Err(RunError::NoTrials);
    }
    let trial_ids: Vec<u64> = match options.only_trial {
        Some(t) if t >= config.trials => {
            return Err(RunError::NoSuchTrial {
                trial: t,
                trials: config.trials,
            });
        }
        Some(t) => vec![t],
        None => (0..config.trials).collect(),
    };
    let logging = config.log && dir.is_some();
    let log_path = dir.map(|d| d.join(log::LOG_FILE)).unwrap_or_default();
    let failures_path = dir
        .map(|d| d.join(failures::FAILURES_FILE))
        .unwrap_or_default();
    // Whether a log is there to resume from (then it is rewritten at the end, without
    // the rows its reading left out).
    let resuming = logging && log_path.exists();
    let mut cache = if resuming {
        let log = log::read_log(&log_path, &config.space, &features)?;
        if let Some(m) = log.repair_message(&log_path) {
            eprintln!("{m}");
        }
        Cache::from_rows(log.rows.into_iter().map(|(_, r)| r).collect())
    } else {
        Cache::default()
    };
    if logging && !options.retry_failed {
        cache.add_failures(failures::read_failures(&failures_path, Some(config))?);
    }
    let writer = if logging {
        Some(Mutex::new((
            LogWriter::open(&log_path, &config.space, &features)
                .map_err(|e| RunError::Io(format!("cannot write {}: {e}", log_path.display())))?,
            FailureWriter::new(&failures_path),
        )))
    } else {
        None
    };
    // An evaluator with its own workers gets as many threads as it has workers.
    let pool = match problem.concurrency() {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()
                .map_err(|e| RunError::Io(format!("cannot start {n} evaluation threads: {e}")))?,
        ),
        None => None,
    };
    let bar = progress_bar(options.progress, config);
    let trial_ctx = TrialContext {
        config,
        problem,
        binding: &binding,
        features: &features,
        axes: &axes,
        cache: &cache,
        writer: writer.as_ref(),
        bar: &bar,
        pool: pool.as_ref(),
        attempted: AtomicU64::new(0),
        failed: AtomicU64::new(0),
        last_failure: Mutex::new(None),
        failed_at: Mutex::new(std::collections::HashSet::new()),
        replay_only,
        failures_path: &failures_path,
        stop,
    };
    let started = std::time::Instant::now();
    let trials: Vec<Result<TrialEnd, RunError>> = trial_ids
        .into_par_iter()
        .map(|t| trial_ctx.run(t))
        .collect();
    let search_seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let (failed, attempted) = (
        trial_ctx.failed.load(Ordering::SeqCst),
        trial_ctx.attempted.load(Ordering::SeqCst),
    );
    let last = trial_ctx.last_failure.lock().ok().and_then(|l| l.clone());
    let failed_at = std::mem::take(
        &mut *trial_ctx
            .failed_at
            .lock()
            .map_err(|_| RunError::Io("failure set poisoned".into()))?,
    );
    drop(trial_ctx);
    drop(writer);
    if trials
        .iter()
        .any(|t| matches!(t, Err(RunError::Interrupted)))
    {
        return Err(RunError::Interrupted);
    }
    let ends = trials.into_iter().collect::<Result<Vec<_>, _>>()?;
    let mut trials = Vec::with_capacity(ends.len());
    let mut waiting = Vec::new();
    for end in ends {
        match end {
            TrialEnd::Finished(t) => trials.push(*t),
            TrialEnd::Waiting(w) => waiting.extend(w),
        }
    }
    if !waiting.is_empty() {
        return Ok(Driven::Waiting {
            waiting,
            finished: trials,
        });
    }
    // A trial that never had a result recommends a point nobody evaluated, with an
    // estimate of NaN: the run has failed, whatever share of failures it allows.
    if let Some(t) = trials
        .iter()
        .find(|t| t.spent.failed > 0 && t.spent.failed >= t.spent.total())
    {
        let (index, last) = match &last {
            Some((trial, index, last)) if *trial == t.trial => (*index, last.clone()),
            _ => (
                t.spent.total().saturating_sub(1),
                format!(
                    "see {}",
                    dir.map_or_else(
                        || failures::FAILURES_FILE.to_string(),
                        |d| d.join(failures::FAILURES_FILE).display().to_string()
                    )
                ),
            ),
        };
        return Err(RunError::NothingSucceeded {
            attempted: t.spent.total(),
            trial: t.trial,
            index,
            last,
        });
    }
    if config.faults.exceeded_at_end(failed, attempted) {
        let (trial, index, last) = last.unwrap_or((0, 0, String::new()));
        return Err(RunError::TooManyFailures {
            failed,
            attempted,
            share: config.faults.max_failures,
            trial,
            index,
            last,
        });
    }
    // One trial writes its batches in order; only parallel trials interleave rows.
    if logging && (config.trials > 1 || resuming) {
        log::canonicalise(&log_path, &config.space, &features)?;
    }
    if logging && failures_path.exists() {
        let logged = log::read_log(&log_path, &config.space, &features)?;
        let done: std::collections::HashSet<(u64, u64)> = logged
            .rows
            .iter()
            .map(|(_, r)| (r.trial, r.index))
            .collect();
        let keep = |t, i| failed_at.contains(&(t, i)) && !done.contains(&(t, i));
        failures::canonicalise(&failures_path, &keep).map_err(|e| {
            // Nothing half written stays behind: the file itself is whole.
            let _ = std::fs::remove_file(failures_path.with_extension("jsonl.tmp"));
            RunError::Io(format!("cannot rewrite {}: {e}", failures_path.display()))
        })?;
    }
    let mut result = RunResult::new(config, trials);
    result.search_seconds = search_seconds;
    if let Some(dir) = dir {
        // Whole or not at all: `report`, `plot` and `compare` may read it meanwhile.
        let tmp = dir.join(format!(".{RESULT_FILE}.{}.tmp", std::process::id()));
        let path = dir.join(RESULT_FILE);
        let written = result
            .write(&tmp)
            .and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(RunError::Io(format!(
                "cannot write {}: {e}",
                path.display()
            )));
        }
    }
    Ok(Driven::Finished(result))
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

/// A progress bar on standard error counting `len` items of `what` ("games",
/// "verdict evaluations"), hidden unless `show`.
pub(crate) fn counting_bar(show: bool, len: u64, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{pos}}/{{len}} {what} [{{elapsed_precise}} < {{eta_precise}}]"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The second coordinate of a race round's seed path, `[trial, RACE_STREAM, first
/// index of the round]`: a search evaluation's is its index, which never comes near.
const RACE_STREAM: u64 = u64::MAX - 3;

struct TrialContext<'a> {
    config: &'a RunConfig,
    problem: &'a dyn Problem,
    binding: &'a Binding,
    features: &'a [String],
    axes: &'a [crate::eval::FeatureAxis],
    cache: &'a Cache,
    writer: Option<&'a Mutex<(LogWriter, FailureWriter)>>,
    bar: &'a ProgressBar,
    /// The evaluator's own thread pool, if it has its own concurrency.
    pool: Option<&'a rayon::ThreadPool>,
    /// Evaluations attempted and failed, over all trials: the failure share.
    attempted: AtomicU64,
    failed: AtomicU64,
    /// The latest failure: (trial, index, reason).
    last_failure: Mutex<Option<(u64, u64, String)>>,
    /// Every (trial, index) that failed in this run, now or as recorded: what
    /// `failures.jsonl` keeps at the end (a record of an evaluation the run does not
    /// have, left by an edit or another run, goes).
    failed_at: Mutex<std::collections::HashSet<(u64, u64)>>,
    /// Evaluate nothing: a candidate the logs lack is waited for.
    replay_only: bool,
    /// The run's `failures.jsonl`, named when it cannot be written.
    failures_path: &'a Path,
    /// What stops the run before its end, if anything may.
    stop: Option<&'a Stop>,
}

/// How a trial ended: finished, or waiting for candidates evaluated elsewhere.
enum TrialEnd {
    Finished(Box<TrialResult>),
    Waiting(Vec<Waiting>),
}

/// One evaluation's outcome in the run loop.
enum Outcome {
    /// Evaluated now.
    Done(Evaluation),
    /// Taken from the log of an interrupted run.
    Logged(Evaluation),
    /// Failed after `attempts` tries (now, or as recorded in `failures.jsonl`).
    Failed {
        reason: String,
        attempts: u32,
        logged: bool,
    },
    /// Not in the logs, and the run only replays: evaluated elsewhere, later.
    Pending,
}

impl TrialContext<'_> {
    /// Evaluates one candidate, or takes it from the log, trying again with the same
    /// seed after a failure.
    fn evaluate(&self, trial: u64, i: u64, seed: u64, values: &[f64]) -> Outcome {
        match self.cache.get(trial, i, seed, values) {
            Some(Logged::Evaluation(e)) => return Outcome::Logged(e.clone()),
            Some(Logged::Failure(f)) => {
                return Outcome::Failed {
                    reason: f.reason.clone(),
                    attempts: f.attempts,
                    logged: true,
                };
            }
            None if self.replay_only => return Outcome::Pending,
            None => {}
        }
        let mut full = Vec::new();
        let point = if self.binding.is_identity() {
            values
        } else {
            self.binding.full_point(values, &mut full);
            &full
        };
        match evaluate_with_retries(self.problem, point, seed, self.config.faults.retries) {
            (Ok(e), _) => Outcome::Done(e),
            (Err(reason), attempts) => Outcome::Failed {
                reason,
                attempts,
                logged: false,
            },
        }
    }

    fn run(&self, trial: u64) -> Result<TrialEnd, RunError> {
        let c = self.config;
        // A race keeps the last share of the budget; the search gets the rest.
        let race_budget = c.race.as_ref().map_or(0, |r| r.race_budget(c.budget));
        let mut optimizer = c.algorithm.build(
            &c.space,
            c.budget - race_budget,
            derive_seed(c.seed, &[trial, u64::MAX]),
            self.features,
            self.axes,
        )?;
        let checks = constraint_checks(c, self.problem)?;
        if !checks.is_empty() {
            let floor = self.problem.fitness_range().map(|(low, _)| low);
            optimizer = Box::new(Constrained::new(optimizer, checks.clone(), floor));
        }
        if let Some(race) = &c.race
            && race_budget > 0
        {
            optimizer = Box::new(crate::optim::race::Raced::new(
                optimizer,
                race.clone(),
                race_budget,
                checks,
            ));
        }
        let mut spent = Spent::default();
        let mut index = 0u64;
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
            if self.stop.is_some_and(Stop::requested) {
                return Err(RunError::Interrupted);
            }
            let one = |(j, cand): (usize, &crate::optim::Candidate)| {
                let i = index + j as u64;
                // A race round's candidates share one seed (common random numbers),
                // from a stream no search evaluation uses.
                let seed = if cand.phase == Phase::Race {
                    derive_seed(c.seed, &[trial, RACE_STREAM, index])
                } else {
                    derive_seed(c.seed, &[trial, i])
                };
                (seed, self.evaluate(trial, i, seed, &cand.values))
            };
            // Spreading evaluations of a few microseconds over threads costs more than
            // it saves; the results do not depend on the choice.
            let started = std::time::Instant::now();
            let outcomes: Vec<(u64, Outcome)> = if batch.len() > 1 && per_eval > CHEAP_EVALUATION {
                let parallel = || batch.par_iter().enumerate().map(one).collect();
                match self.pool {
                    Some(pool) => pool.install(parallel),
                    None => parallel(),
                }
            } else {
                batch.iter().enumerate().map(one).collect()
            };
            per_eval = started.elapsed() / batch.len() as u32;
            if self.stop.is_some_and(Stop::drops_batches) {
                return Err(RunError::Interrupted);
            }
            if outcomes.iter().any(|(_, o)| matches!(o, Outcome::Pending)) {
                let waiting = batch
                    .iter()
                    .zip(&outcomes)
                    .enumerate()
                    .filter(|(_, (_, (_, o)))| matches!(o, Outcome::Pending))
                    .map(|(j, (cand, (seed, _)))| Waiting {
                        trial,
                        index: index + j as u64,
                        seed: *seed,
                        phase: cand.phase,
                        values: cand.values.clone(),
                    })
                    .collect();
                return Ok(TrialEnd::Waiting(waiting));
            }
            let mut rows = Vec::new();
            let mut failed_rows = Vec::new();
            let mut evals = Vec::with_capacity(batch.len());
            let mut last_failure = None;
            for (j, (cand, (seed, outcome))) in batch.iter().zip(outcomes).enumerate() {
                let i = index + j as u64;
                spent.count(cand.phase);
                match outcome {
                    Outcome::Done(e) => {
                        if self.writer.is_some() {
                            rows.push(LogRow {
                                trial,
                                index: i,
                                phase: cand.phase,
                                seed,
                                values: cand.values.clone(),
                                eval: e.clone(),
                            });
                        }
                        evals.push(Some(e));
                    }
                    Outcome::Logged(e) => {
                        spent.reused += 1;
                        evals.push(Some(e));
                    }
                    Outcome::Failed {
                        reason,
                        attempts,
                        logged,
                    } => {
                        spent.failed += 1;
                        if logged {
                            spent.reused += 1;
                        } else if self.writer.is_some() {
                            failed_rows.push(FailureRow {
                                trial,
                                index: i,
                                phase: cand.phase,
                                seed,
                                point: FailureRow::point_by_name(&c.space, &cand.values),
                                values: cand.values.clone(),
                                reason: reason.clone(),
                                attempts,
                            });
                        }
                        if let Ok(mut at) = self.failed_at.lock() {
                            at.insert((trial, i));
                        }
                        last_failure = Some((i, reason));
                        evals.push(None);
                    }
                    Outcome::Pending => unreachable!("a waiting batch returned above"),
                }
            }
            if let Some(w) = self.writer {
                let mut w = w
                    .lock()
                    .map_err(|_| RunError::Io("log writer poisoned".into()))?;
                w.0.append(&c.space, &rows).map_err(io)?;
                w.1.append(&failed_rows).map_err(|e| {
                    RunError::Io(format!(
                        "cannot write {}: {e}",
                        self.failures_path.display()
                    ))
                })?;
            }
            let attempted = self
                .attempted
                .fetch_add(batch.len() as u64, Ordering::SeqCst)
                + batch.len() as u64;
            let new_failures = evals.iter().filter(|e| e.is_none()).count() as u64;
            let failed = self.failed.fetch_add(new_failures, Ordering::SeqCst) + new_failures;
            if let Some((i, last)) = last_failure {
                if let Ok(mut l) = self.last_failure.lock() {
                    *l = Some((trial, i, last.clone()));
                }
                if c.faults.exceeded(failed, attempted) {
                    return Err(RunError::TooManyFailures {
                        failed,
                        attempted,
                        share: c.faults.max_failures,
                        trial,
                        index: i,
                        last,
                    });
                }
            }
            optimizer.tell(&batch, &evals);
            index += batch.len() as u64;
            if index >= next_checkpoint {
                trace.extend(Checkpoint::new(
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
        Ok(TrialEnd::Finished(Box::new(TrialResult::new(
            trial,
            optimizer.as_ref(),
            &c.space,
            self.problem,
            self.binding,
            spent,
            trace,
        ))))
    }
}

/// The run's constraints (its space's) against the problem's features.
fn constraint_checks(
    config: &RunConfig,
    problem: &dyn Problem,
) -> Result<Vec<Check>, crate::optim::Error> {
    Check::resolve(
        &config.space.constraints,
        &problem.feature_names(),
        |name| problem.feature_range(name),
    )
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
    evaluate: impl Fn() -> Result<Evaluation, crate::eval::EvalError>,
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
    let log_path = dir.join(log::LOG_FILE);
    let mut w = LogWriter::open(&log_path, space, features)
        .map_err(|e| RunError::Io(format!("cannot write {}: {e}", log_path.display())))?;
    // Its errors name the log already.
    w.append(space, rows).map_err(io)?;
    let failures_path = dir.join(failures::FAILURES_FILE);
    FailureWriter::new(&failures_path)
        .append(failed)
        .map_err(|e| RunError::Io(format!("cannot write {}: {e}", failures_path.display())))
}

/// Why an evaluation's results cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum NotFinite {
    #[error("the fitness is {0}, not a finite number")]
    Fitness(f64),
    #[error("a feature is {0}, not a finite number")]
    Feature(f64),
}

/// An evaluation with a non-finite fitness or feature is a failed evaluation: NaN
/// would silently poison every estimate and comparison made from it.
pub fn finite(e: Evaluation) -> Result<Evaluation, NotFinite> {
    if !e.fitness.is_finite() {
        return Err(NotFinite::Fitness(e.fitness));
    }
    if let Some(&f) = e.features.iter().find(|f| !f.is_finite()) {
        return Err(NotFinite::Feature(f));
    }
    Ok(e)
}

/// Checks a run folder's name: one plain path component, so that the run lands
/// inside the runs folder (`../x` or `/tmp/x` would not).
pub fn check_run_name(name: &str) -> Result<(), RunError> {
    let mut parts = Path::new(name).components();
    let plain = matches!(parts.next(), Some(std::path::Component::Normal(_)))
        && parts.next().is_none()
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control);
    if !plain {
        return Err(RunError::BadName(name.to_string()));
    }
    Ok(())
}

/// A duration as people read it: `42.0 s`, `3 min 05 s`, `2 h 07 min`.
pub(crate) fn duration_text(seconds: f64) -> String {
    let whole = seconds.round() as u64;
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if whole < 3600 {
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        format!("{} h {:02} min", whole / 3600, whole % 3600 / 60)
    }
}

/// Creates the folder of a new run and locks it: `runs_dir/name`, or `name-2`,
/// `name-3`, ... if taken. Creating the folder is what claims a name, so two commands
/// given one name at once get two folders, never one between them.
pub fn claim_fresh_dir(
    runs_dir: &Path,
    name: &str,
) -> Result<(PathBuf, lock::FolderLock), RunError> {
    std::fs::create_dir_all(runs_dir)
        .map_err(|e| RunError::Io(format!("cannot create {}: {e}", runs_dir.display())))?;
    for i in 1u64.. {
        let dir = if i == 1 {
            runs_dir.join(name)
        } else {
            runs_dir.join(format!("{name}-{i}"))
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                let guard = lock::lock_fresh(&dir)?;
                return Ok((dir, guard));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(RunError::Io(format!(
                    "cannot create {}: {e}",
                    dir.display()
                )));
            }
        }
    }
    unreachable!("some suffix is free")
}
