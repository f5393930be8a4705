//! Driving a run: its trials in parallel, each batch evaluated, logged and told,
//! stoppable, its progress told to an observer.

use super::*;

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
    progress: Option<&dyn Progress>,
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
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Told of every evaluation counted (the command line's progress bar); `None`:
    /// nobody watches.
    pub progress: Option<&'a dyn Progress>,
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
    options: Options<'_>,
) -> Result<RunResult, RunError> {
    match drive(
        dir,
        config,
        &*built_in(config),
        problem,
        options,
        false,
        None,
    )? {
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

    pub(crate) fn drops_batches(&self) -> bool {
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
    options: Options<'_>,
    stop: &Stop,
) -> Result<RunResult, RunError> {
    match drive(
        dir,
        config,
        &*built_in(config),
        problem,
        options,
        false,
        Some(stop),
    )? {
        Driven::Finished(r) => Ok(r),
        Driven::Waiting { .. } => unreachable!("a run that evaluates never waits"),
    }
}

/// A candidate the optimiser waits for, evaluated outside playtune (`playtune ask`).
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// The trial that waits.
    pub trial: u64,
    /// The candidate's index in its trial.
    pub index: u64,
    /// The seed to evaluate it with.
    pub seed: u64,
    /// What the optimiser asks it for.
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

/// The search's evaluations a run folder's logs hold already (re-evaluations of elites
/// left out, as a progress bar counts them): where a resumed run's progress starts.
pub fn logged_evaluations(
    dir: &Path,
    config: &RunConfig,
    features: &[String],
) -> Result<u64, RunError> {
    let log_path = dir.join(files::LOG_FILE);
    let rows = if log_path.exists() {
        log::read_log(&log_path, &config.space, features)?
            .rows
            .iter()
            .filter(|(_, r)| r.phase != Phase::Reevaluate)
            .count()
    } else {
        0
    };
    let failed = failures::read_failures(&dir.join(files::FAILURES_FILE), Some(config))?
        .values()
        .filter(|f| f.phase != Phase::Reevaluate)
        .count();
    Ok((rows + failed) as u64)
}

/// Refuses to drive a run with a game other than the one it recorded: its log's
/// evaluations were played by that game.
pub fn check_game<A>(config: &RunConfig<A>, problem: &dyn Problem) -> Result<(), RunError> {
    match &config.game {
        // The description decides what an evaluation means; where the game lies and
        // its code are checked where it is loaded (`registry::run_problem`).
        Some(recorded)
            if !problem
                .game_identity()
                .is_some_and(|now| recorded.same_game(&now)) =>
        {
            Err(RunError::OtherGame {
                recorded: Box::new(recorded.clone()),
                now: problem.game_identity().map(Box::new),
            })
        }
        _ => Ok(()),
    }
}

/// Replays a run from its logs without evaluating anything (`playtune ask`/`tell`):
/// the optimisers are told every logged evaluation and failure, in order, up to the
/// first batch that is not complete.
pub fn replay(dir: &Path, config: &RunConfig, problem: &dyn Problem) -> Result<Driven, RunError> {
    drive(
        Some(dir),
        config,
        &*built_in(config),
        problem,
        Options::default(),
        true,
        None,
    )
}

/// What builds the trials' optimisers of a run of playtune's own optimisers.
fn built_in(config: &RunConfig) -> Box<Build<'_>> {
    Box::new(|space, budget, seed, features, axes| {
        Ok(config
            .algorithm
            .build(space, budget, seed, features, axes)?)
    })
}

/// Drives a run whose trials' optimisers `build` builds (see [`execute_with`] and
/// [`replay`]).
pub(crate) fn drive<A: Algorithm>(
    dir: Option<&Path>,
    config: &RunConfig<A>,
    build: &Build<'_>,
    problem: &dyn Problem,
    options: Options<'_>,
    replay_only: bool,
    stop: Option<&Stop>,
) -> Result<Driven, RunError> {
    check_game(config, problem)?;
    if let Some(d) = dir {
        // Before any evaluation: a run file that is a link stops the run at once.
        files::check_run_folder(d)?;
    }
    let binding =
        Binding::new(&config.space, problem.space()).map_err(|e| RunError::Config(e.message))?;
    let features = problem.feature_names();
    let axes = problem.default_axes();
    let trial_ids = trials_to_run(config, build, problem, &options, &features, &axes)?;
    let logging = config.log && dir.is_some();
    let log_path = dir.map(|d| d.join(files::LOG_FILE)).unwrap_or_default();
    let failures_path = dir
        .map(|d| d.join(files::FAILURES_FILE))
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
        cache.add_failures(failures::read_failures_within(
            &failures_path,
            Some((config.trials, &config.space)),
        )?);
    }
    let writer = if logging {
        Some(Mutex::new((
            LogWriter::open(&log_path, &config.space, &features)
                .map_err(|e| write_error("write", &log_path, e))?,
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
    let progress = options.progress.unwrap_or(&progress::Unobserved);
    A::start(
        config,
        progress,
        config.budget.saturating_mul(config.trials),
    );
    let trial_ctx = TrialContext {
        config,
        build,
        problem,
        binding: &binding,
        features: &features,
        axes: &axes,
        cache: &cache,
        writer: writer.as_ref(),
        progress,
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
    progress.finish();
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
    failures_verdict(dir, config, &trials, failed, attempted, last)?;
    if logging {
        tidy_logs(
            config,
            &features,
            &log_path,
            &failures_path,
            resuming,
            &failed_at,
        )?;
    }
    let mut result = RunResult::new(config, trials);
    result.search_seconds = search_seconds;
    if let Some(dir) = dir {
        write_result(dir, &result)?;
    }
    Ok(Driven::Finished(result))
}

/// The trials a run drives (all, or the one `options` names), once its configuration
/// is checked: no evaluation starts on a configuration that cannot run.
fn trials_to_run<A>(
    config: &RunConfig<A>,
    build: &Build<'_>,
    problem: &dyn Problem,
    options: &Options,
    features: &[String],
    axes: &[playtune_optim::eval::FeatureAxis],
) -> Result<Vec<u64>, RunError> {
    build(&config.space, config.budget, 0, features, axes)?;
    constraint_checks(config, problem)?;
    config.faults.check()?;
    if config.trials == 0 {
        return Err(RunError::NoTrials);
    }
    Ok(match options.only_trial {
        Some(t) if t >= config.trials => {
            return Err(RunError::NoSuchTrial {
                trial: t,
                trials: config.trials,
            });
        }
        Some(t) => vec![t],
        None => (0..config.trials).collect(),
    })
}

/// Whether the run's failed evaluations fail the run: a trial that never had a
/// result, or more failures than the run allows (`last`: the last failure's trial,
/// index and message).
fn failures_verdict<A>(
    dir: Option<&Path>,
    config: &RunConfig<A>,
    trials: &[TrialResult],
    failed: u64,
    attempted: u64,
    last: Option<(u64, u64, String)>,
) -> Result<(), RunError> {
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
                        || files::FAILURES_FILE.to_string(),
                        |d| d.join(files::FAILURES_FILE).display().to_string()
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
    Ok(())
}

/// The log in its canonical order, and the failures file keeping only the failures
/// no later evaluation replaced (`failed_at`: the failures of this drive).
fn tidy_logs<A>(
    config: &RunConfig<A>,
    features: &[String],
    log_path: &Path,
    failures_path: &Path,
    resuming: bool,
    failed_at: &std::collections::HashSet<(u64, u64)>,
) -> Result<(), RunError> {
    // One trial writes its batches in order; only parallel trials interleave rows.
    if config.trials > 1 || resuming {
        log::canonicalise(log_path, &config.space, features)?;
    }
    if failures_path.exists() {
        let logged = log::read_log(log_path, &config.space, features)?;
        let done: std::collections::HashSet<(u64, u64)> = logged
            .rows
            .iter()
            .map(|(_, r)| (r.trial, r.index))
            .collect();
        let keep = |t, i| failed_at.contains(&(t, i)) && !done.contains(&(t, i));
        failures::canonicalise(failures_path, &keep).map_err(|e| {
            // Nothing half written stays behind: the file itself is whole.
            let _ = std::fs::remove_file(failures_path.with_extension("jsonl.tmp"));
            RunError::Io(format!("cannot rewrite {}: {e}", failures_path.display()))
        })?;
    }
    Ok(())
}

/// `result.ron` in `dir`, whole or not at all: `report`, `plot` and `compare` may read
/// it meanwhile.
fn write_result(dir: &Path, result: &RunResult) -> Result<(), RunError> {
    let path = dir.join(RESULT_FILE);
    result
        .write(&path)
        .map_err(|e| RunError::Io(format!("cannot write {}: {e}", path.display())))
}
