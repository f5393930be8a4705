//! One trial of a run: its optimiser (held to the run's constraints, raced before
//! recommending), its evaluations and their log.

use super::*;

/// The second coordinate of a race round's seed path, `[trial, RACE_STREAM, first
/// index of the round]`: a search evaluation's is its index, which never comes near.
pub(crate) const RACE_STREAM: u64 = u64::MAX - 3;
/// The second coordinate of a common seed's path, `[trial, COMMON_STREAM, k]`
/// ([`playtune_optim::optim::Candidate::common`]).
pub(crate) const COMMON_STREAM: u64 = u64::MAX - 4;

pub(crate) struct TrialContext<'a, A> {
    pub(super) config: &'a RunConfig<A>,
    /// Builds the trial's optimiser.
    pub(super) build: &'a Build<'a>,
    pub(super) problem: &'a dyn Problem,
    pub(super) binding: &'a Binding,
    pub(super) features: &'a [String],
    pub(super) axes: &'a [playtune_optim::eval::FeatureAxis],
    pub(super) cache: &'a Cache,
    pub(super) writer: Option<&'a Mutex<(LogWriter, FailureWriter)>>,
    pub(super) progress: &'a dyn Progress,
    /// The evaluator's own thread pool, if it has its own concurrency.
    pub(super) pool: Option<&'a rayon::ThreadPool>,
    /// Evaluations attempted and failed, over all trials: the failure share.
    pub(super) attempted: AtomicU64,
    pub(super) failed: AtomicU64,
    /// The latest failure: (trial, index, reason).
    pub(super) last_failure: Mutex<Option<(u64, u64, String)>>,
    /// Every (trial, index) that failed in this run, now or as recorded: what
    /// `failures.jsonl` keeps at the end (a record of an evaluation the run does not
    /// have, left by an edit or another run, goes).
    pub(super) failed_at: Mutex<std::collections::HashSet<(u64, u64)>>,
    /// Evaluate nothing: a candidate the logs lack is waited for.
    pub(super) replay_only: bool,
    /// The run's `failures.jsonl`, named when it cannot be written.
    pub(super) failures_path: &'a Path,
    /// What stops the run before its end, if anything may.
    pub(super) stop: Option<&'a Stop>,
}

/// How a trial ended: finished, or waiting for candidates evaluated elsewhere.
pub(crate) enum TrialEnd {
    Finished(Box<TrialResult>),
    Waiting(Vec<Waiting>),
}

/// One evaluation's outcome in the run loop.
pub(crate) enum Outcome {
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

impl<A: Sync> TrialContext<'_, A> {
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

    pub(super) fn run(&self, trial: u64) -> Result<TrialEnd, RunError> {
        let c = self.config;
        // A race keeps the last share of the budget; the search gets the rest.
        let race_budget = c.race.as_ref().map_or(0, |r| r.race_budget(c.budget));
        let mut optimizer = (self.build)(
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
        if let Some(intensify) = &c.intensify {
            intensify.check()?;
            optimizer = Box::new(playtune_optim::optim::intensify::Intensified::new(
                optimizer,
                intensify.clone(),
                c.budget - race_budget,
                checks.clone(),
                playtune_optim::eval::own_baseline_point(self.problem, &c.space, self.binding),
            ));
        }
        if let Some(race) = &c.race
            && race_budget > 0
        {
            optimizer = Box::new(
                playtune_optim::optim::race::Raced::new(
                    optimizer,
                    race.clone(),
                    race_budget,
                    checks,
                )
                .with_baseline(playtune_optim::eval::own_baseline_point(
                    self.problem,
                    &c.space,
                    self.binding,
                )),
            );
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
            let one = |(j, cand): (usize, &playtune_optim::optim::Candidate)| {
                let i = index + j as u64;
                // A race round's candidates share one seed (common random numbers),
                // from a stream no search evaluation uses.
                let seed = match cand.common {
                    Some(k) => derive_seed(c.seed, &[trial, COMMON_STREAM, k]),
                    None if cand.phase == Phase::Race => {
                        derive_seed(c.seed, &[trial, RACE_STREAM, index])
                    }
                    None => derive_seed(c.seed, &[trial, i]),
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
                w.1.append(&failed_rows)
                    .map_err(|e| write_error("write", self.failures_path, e))?;
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
            self.progress.advance(
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
pub(crate) fn constraint_checks<A>(
    config: &RunConfig<A>,
    problem: &dyn Problem,
) -> Result<Vec<Check>, playtune_optim::optim::Error> {
    Check::resolve(
        &config.space.constraints,
        &problem.feature_names(),
        |name| problem.feature_range(name),
    )
}
