//! One search whose batches are evaluated as Slurm array tasks: the ask/tell loop of
//! `playtune ask` / `tell`, with `sbatch` in between. Each round replays the run from
//! its logs to the batches its trials wait for (a MAP-Elites batch, random search's
//! points, the walkers of batch NTBEA, NTBEA multi-run's runs, re-evaluations), cuts
//! them into at most `tasks` chunks, and submits one array task per chunk. A task
//! evaluates its candidates with the run's problem and seeds, as the local run would,
//! with the same retries, and writes their results whole (`results/K-I.jsonl`, renamed
//! into place). The coordinator records the results in the run's logs, as `tell` does,
//! and goes on to the next round. The run folder is the local run's: `resume` finishes
//! it on either executor.
//!
//! Layout under `<run>/slurm/`: `submission-K.ron` (the chunks of round K and its job),
//! `submission-K.sh`, `results/K-I.jsonl`, `logs/JOB_TASK.out`.

use super::{
    Error, Folder, LOGS_DIR, SlurmOptions, indent, read_submissions, sbatch, tail, write_atomic,
};
use playtune::eval::{Binding, Evaluation, Problem};
use playtune::optim::Phase;
use playtune::run::failures::FailureRow;
use playtune::run::files::{FAILURES_FILE, LOG_FILE};
use playtune::run::log::LogRow;
use playtune::run::{self, Driven, RunConfig, RunResult};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

const RESULTS_DIR: &str = "results";

/// A candidate a trial waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Candidate {
    trial: u64,
    index: u64,
    seed: u64,
    phase: Phase,
    values: Vec<f64>,
}

/// The task kind of a chunk of a search's batch.
pub(crate) const KIND: &str = "search-batch";

/// One round: task i evaluates chunks[i].
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Round {
    #[serde(default)]
    kind: String,
    job: Option<String>,
    chunks: Vec<Vec<Candidate>>,
    submitted_at: u64,
    /// Its tasks that ended without results were reported: the next call submits
    /// their candidates in a new round.
    #[serde(default)]
    reported: bool,
}

/// A task's answer for one candidate.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Answer {
    trial: u64,
    index: u64,
    seed: u64,
    values: Vec<f64>,
    outcome: Result<Evaluation, String>,
    attempts: u32,
}

impl Folder {
    fn results(&self, k: usize, task: usize) -> PathBuf {
        self.cluster()
            .join(RESULTS_DIR)
            .join(format!("{k}-{task}.jsonl"))
    }
    fn rounds(&self) -> Result<Vec<Round>, Error> {
        read_submissions(&self.cluster())
    }
}

/// Lines for `playtune status RUN` of a search run on the cluster: its rounds, the
/// tasks of the last one still queued, and those that ended without results.
pub fn status(dir: &Path) -> Result<Vec<String>, Error> {
    let folder = Folder::new(dir);
    let rounds = folder.rounds()?;
    let mut lines = vec![format!(
        "on Slurm: {} round(s) submitted, {} task(s)",
        rounds.len(),
        rounds.iter().map(|r| r.chunks.len()).sum::<usize>()
    )];
    let Some(last) = rounds.last() else {
        return Ok(lines);
    };
    let queue = if sbatch::on_path("squeue") {
        sbatch::queue(&folder.job_name())?
    } else {
        Vec::new()
    };
    let ours: Vec<&sbatch::Queued> = queue
        .iter()
        .filter(|q| Some(&q.job) == last.job.as_ref())
        .collect();
    let running = ours.iter().filter(|q| q.is_running()).count();
    let k = rounds.len() - 1;
    let answered = (0..last.chunks.len())
        .filter(|&i| folder.results(k, i).exists())
        .count();
    lines.push(format!(
        "round {k} (job {}): {} task(s), {running} running, {} pending, {answered} answered and not yet recorded",
        last.job.as_deref().unwrap_or("-"),
        last.chunks.len(),
        ours.len() - running
    ));
    if ours.is_empty() && dir.join(run::RESULT_FILE).exists() {
        lines.push("finished".into());
    } else if ours.is_empty()
        && let Some(job) = &last.job
    {
        // A task whose candidates are neither logged nor answered ended without
        // its work.
        let config = playtune::registry::read_config(dir)?;
        // Status only reads the run: its problem as the folder records it, no game code.
        let problem = playtune::registry::recorded_problem(dir, &config)?;
        let log = playtune::run::log::read_log(
            &dir.join(LOG_FILE),
            &config.space,
            &problem.feature_names(),
        )
        .map(|l| l.rows)
        .unwrap_or_default();
        let mut recorded: std::collections::HashSet<(u64, u64)> =
            log.iter().map(|(_, r)| (r.trial, r.index)).collect();
        recorded.extend(
            playtune::run::failures::read_failures(&dir.join(FAILURES_FILE), Some(&config))?
                .into_keys(),
        );
        for (i, chunk) in last.chunks.iter().enumerate() {
            let unrecorded = chunk
                .iter()
                .any(|c| !recorded.contains(&(c.trial, c.index)));
            if unrecorded && !folder.results(k, i).exists() && !chunk.is_empty() {
                let log = folder.log_of(job, i);
                lines.push(format!(
                    "  task {i} ended without results (log {}); `playtune resume {} --executor slurm` goes on:\n{}",
                    log.display(),
                    dir.display(),
                    indent(&tail(&log, 8))
                ));
            }
        }
    }
    Ok(lines)
}

/// Cuts `items` into `parts` contiguous chunks of sizes differing by at most one.
fn chunks<T: Clone>(items: &[T], parts: usize) -> Vec<Vec<T>> {
    let parts = parts.clamp(1, items.len().max(1));
    let (base, extra) = (items.len() / parts, items.len() % parts);
    let mut out = Vec::with_capacity(parts);
    let mut at = 0;
    for p in 0..parts {
        let n = base + usize::from(p < extra);
        out.push(items[at..at + n].to_vec());
        at += n;
    }
    out
}

/// How the rounds went, for people and the overhead figures.
#[derive(Debug, Default)]
pub(crate) struct Rounds {
    pub(crate) rounds: usize,
    pub(crate) tasks: usize,
    pub(crate) evaluations: usize,
    /// Seconds in sbatch calls, in collecting and recording results.
    pub(crate) submit_seconds: f64,
    pub(crate) collect_seconds: f64,
}

/// Runs the search to its end, every batch on the cluster. A round left unfinished by
/// an earlier call (its tasks still queued, or their results not yet recorded) is
/// finished first; a task that failed is reported with its log tail and its chunk is
/// evaluated again by the next call (`playtune resume RUN --executor slurm`).
pub(crate) fn run_search(
    dir: &Path,
    config: &RunConfig,
    problem: &dyn Problem,
    options: &SlurmOptions,
    tasks: usize,
    rounds: &mut Rounds,
) -> Result<RunResult, Error> {
    sbatch::check_tools()?;
    if tasks == 0 {
        return Err(Error::NoTasks);
    }
    let folder = Folder::new(dir);
    std::fs::create_dir_all(folder.cluster().join(RESULTS_DIR))?;
    std::fs::create_dir_all(folder.cluster().join(LOGS_DIR))?;
    let job_name = folder.job_name();
    let jobs = || -> Result<Vec<String>, Error> {
        Ok(folder.rounds()?.into_iter().filter_map(|r| r.job).collect())
    };
    // An earlier call's tasks still in the queue: wait for them first.
    super::wait_for(&job_name, &jobs, options)?;
    loop {
        let waiting = match run::replay(dir, config, problem)? {
            Driven::Finished(r) => return Ok(r),
            Driven::Waiting { waiting, .. } => waiting,
        };
        let waiting: Vec<Candidate> = waiting
            .into_iter()
            .map(|w| Candidate {
                trial: w.trial,
                index: w.index,
                seed: w.seed,
                phase: w.phase,
                values: w.values,
            })
            .collect();
        let collecting = Instant::now();
        // Results on disk for what waits (a round whose recording was interrupted, or
        // the round just run): record them and replay again.
        let recorded = record(&folder, config, problem, &waiting)?;
        rounds.collect_seconds += collecting.elapsed().as_secs_f64();
        if recorded > 0 {
            continue;
        }
        let k = folder.rounds()?.len();
        if let Some(last) = folder.rounds()?.last()
            && !last.reported
            && last.chunks.iter().flatten().any(|c| waiting.contains(c))
        {
            // The last round was for these candidates and left some without a
            // result: its failed tasks are reported, and the next call submits again.
            let failed = failed_tasks(&folder, last, &waiting);
            if !failed.is_empty() {
                let mut tails = String::new();
                for (task, job, log) in failed.iter().take(10) {
                    tails += &format!(
                        "\n  task {task} (job {job}; log {}):\n{}",
                        log.display(),
                        indent(&tail(log, 8))
                    );
                }
                // Marked so that the next call submits a new round.
                mark_reported(&folder, k - 1)?;
                return Err(Error::RoundUnfinished {
                    tasks: failed.len(),
                    round: k - 1,
                    dir: dir.to_path_buf(),
                    tails,
                });
            }
        }
        let submitting = Instant::now();
        let parts = chunks(&waiting, tasks);
        let job = submit(&folder, k, &parts, options)?;
        rounds.submit_seconds += submitting.elapsed().as_secs_f64();
        rounds.rounds += 1;
        rounds.tasks += parts.len();
        rounds.evaluations += waiting.len();
        if options.progress {
            eprintln!(
                "round {k}: {} candidate(s) in {} task(s), Slurm job {job}",
                waiting.len(),
                parts.len()
            );
        }
        super::wait_for(&job_name, &jobs, options)?;
    }
}

/// The tasks of a round whose candidates still wait (they wrote no results): (task,
/// job, log).
fn failed_tasks(
    folder: &Folder,
    round: &Round,
    waiting: &[Candidate],
) -> Vec<(usize, String, PathBuf)> {
    let Some(job) = &round.job else {
        return Vec::new();
    };
    (0..round.chunks.len())
        .filter(|&i| round.chunks[i].iter().any(|c| waiting.contains(c)))
        .map(|i| (i, job.clone(), folder.log_of(job, i)))
        .collect()
}

/// Marks a round as reported, so that the next call submits a new one after it.
fn mark_reported(folder: &Folder, k: usize) -> Result<(), Error> {
    let rounds = folder.rounds()?;
    let mut round = rounds[k].clone();
    round.reported = true;
    let text = ron::ser::to_string_pretty(&round, ron::ser::PrettyConfig::default())?;
    write_atomic(&folder.submission(k), text.as_bytes())
}

/// Records the answers on disk for candidates that wait; returns how many.
fn record(
    folder: &Folder,
    config: &RunConfig,
    problem: &dyn Problem,
    waiting: &[Candidate],
) -> Result<usize, Error> {
    let by_key: BTreeMap<(u64, u64), &Candidate> =
        waiting.iter().map(|c| ((c.trial, c.index), c)).collect();
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    let Ok(entries) = std::fs::read_dir(folder.cluster().join(RESULTS_DIR)) else {
        return Ok(0);
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    for path in &files {
        let text = std::fs::read_to_string(path).map_err(|e| Error::file(path, e))?;
        for (n, line) in text.lines().enumerate() {
            let a: Answer = serde_json::from_str(line).map_err(|source| Error::Answer {
                path: path.clone(),
                line: n + 1,
                source,
            })?;
            // An answer for a candidate no longer waited for (recorded already) or
            // for another point (a changed run) is not this round's.
            let Some(c) = by_key.get(&(a.trial, a.index)) else {
                continue;
            };
            if c.seed != a.seed || c.values != a.values {
                continue;
            }
            match a.outcome {
                Ok(eval) => rows.push(LogRow {
                    trial: c.trial,
                    index: c.index,
                    phase: c.phase,
                    seed: c.seed,
                    values: c.values.clone(),
                    eval,
                }),
                Err(reason) => failures.push(FailureRow {
                    trial: c.trial,
                    index: c.index,
                    phase: c.phase,
                    seed: c.seed,
                    point: FailureRow::point_by_name(&config.space, &c.values),
                    values: c.values.clone(),
                    reason,
                    attempts: a.attempts,
                }),
            }
        }
    }
    rows.sort_by_key(|r| (r.trial, r.index));
    failures.sort_by_key(|f| (f.trial, f.index));
    run::append_results(
        &folder.home,
        &config.space,
        &problem.feature_names(),
        &rows,
        &failures,
    )?;
    // Recorded: the files are spent (a crash before this line records them again,
    // which the log's one-copy-per-row rule makes harmless).
    for path in &files {
        let _ = std::fs::remove_file(path);
    }
    Ok(rows.len() + failures.len())
}

/// Submits one round, task i evaluating parts[i].
fn submit(
    folder: &Folder,
    k: usize,
    parts: &[Vec<Candidate>],
    options: &SlurmOptions,
) -> Result<String, Error> {
    let about = format!(
        "Round {k} of the search: {} candidates in {} chunks; the task index picks the chunk in submission-{k}.ron.",
        parts.iter().map(Vec::len).sum::<usize>(),
        parts.len()
    );
    folder.submit(k, parts.len(), about, options, |job, submitted_at| Round {
        kind: KIND.into(),
        job,
        chunks: parts.to_vec(),
        submitted_at,
        reported: false,
    })
}

/// Evaluates chunk `index` of round `k`: `playtune task RUN/slurm --submission K`.
/// Candidates are evaluated in parallel over the task's CPUs, each tried again with
/// the same seed after a failure as the local run does.
pub(crate) fn run_batch_task(cluster: &Path, k: usize, index: usize) -> Result<String, Error> {
    let dir = cluster
        .parent()
        .ok_or_else(|| Error::NotAClusterFolder(cluster.to_path_buf()))?;
    let started = Instant::now();
    let folder = Folder::new(dir);
    let config = playtune::registry::read_config(dir)?;
    // The game the run began with, where it found it (as `resume` plays it).
    let problem = playtune::registry::run_problem(&config, None)?;
    let binding = Binding::new(&config.space, problem.space())?;
    let round = folder
        .rounds()?
        .into_iter()
        .nth(k)
        .ok_or_else(|| Error::NoSuchRound(folder.submission(k)))?;
    let chunk = round.chunks.get(index).ok_or_else(|| Error::NoSuchTask {
        index,
        what: format!("round {k}"),
        tasks: round.chunks.len(),
    })?;
    let answers: Vec<Answer> = chunk
        .par_iter()
        .map(|c| {
            let mut full = Vec::new();
            binding.full_point(&c.values, &mut full);
            let (outcome, attempts) =
                run::evaluate_with_retries(problem.as_ref(), &full, c.seed, config.faults.retries);
            Answer {
                trial: c.trial,
                index: c.index,
                seed: c.seed,
                values: c.values.clone(),
                outcome,
                attempts,
            }
        })
        .collect();
    let mut text = String::new();
    for a in &answers {
        text += &serde_json::to_string(a)?;
        text.push('\n');
    }
    write_atomic(&folder.results(k, index), text.as_bytes())?;
    let failed = answers.iter().filter(|a| a.outcome.is_err()).count();
    Ok(format!(
        "round {k}, task {index}: {} evaluations ({failed} failed) in {:.1} s",
        answers.len(),
        started.elapsed().as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::chunks;

    #[test]
    fn chunks_cover_in_order_and_balance() {
        let items: Vec<u32> = (0..10).collect();
        let c = chunks(&items, 4);
        assert_eq!(c.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 3, 2, 2]);
        assert_eq!(c.concat(), items);
        assert_eq!(chunks(&items, 64).len(), 10);
        assert_eq!(chunks(&items[..0], 3), vec![Vec::<u32>::new()]);
    }
}
