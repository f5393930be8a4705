//! The Slurm executor: independent tasks in chunks, one chunk an array task; searches
//! one trial a task ([`crate::slurm::trials`]) or one chunk of a batch a task
//! ([`crate::slurm::search`]).
//!
//! A map's files are under `HOME/slurm/maps/LABEL/`: `tasks.txt` (one task a line,
//! RON), `submission-K.ron` (the kind, the chunks of task indices of the K-th array
//! and its job), `submission-K.sh`, `results/FROM-TO.txt` (the outputs of tasks
//! FROM..TO, one a line, written whole) and `logs/JOB_TASK.out`. A call with the same
//! tasks reuses every complete chunk, waits for chunks still in the queue and submits
//! only the rest; a call with other tasks under the same label starts the folder
//! afresh.

use super::{self as cluster, CLUSTER_DIR, SlurmOptions, indent, tail, write_atomic};
use crate::{ExecError, Executor, Search, SearchOptions, Task, Work};
use playtune::run::RunResult;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

const MAPS_DIR: &str = "maps";
const TASKS_FILE: &str = "tasks.txt";
const RESULTS_DIR: &str = "results";

/// The unit of a search's array task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchUnit {
    /// One trial of one search, all of a folder's searches in one array.
    Trials,
    /// A chunk of the batch the search waits for, at most this many chunks a round.
    Batches(usize),
}

/// Work as Slurm arrays, submitted from this machine.
pub struct Slurm {
    /// The experiment's or the run's folder: its `slurm/` holds the cluster's state.
    pub(crate) home: PathBuf,
    pub(crate) options: SlurmOptions,
    /// The most array tasks one call's independent tasks are cut into.
    pub(crate) tasks: usize,
    pub(crate) unit: SearchUnit,
    /// Print what the cluster cost (rounds, tasks, seconds) on standard error.
    pub report: bool,
    /// Work submitted without waiting (the options say not to wait): (folder, tasks,
    /// job).
    submitted: Mutex<Vec<(PathBuf, usize, Option<String>)>>,
}

/// An array of chunks of a map's tasks.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct MapSubmission {
    kind: String,
    label: String,
    job: Option<String>,
    /// Task i computes the tasks chunks[i].0 .. chunks[i].1.
    chunks: Vec<(usize, usize)>,
    submitted_at: u64,
}

/// The kind a submission file names (files written before kinds existed name none).
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    kind: String,
}

/// The task kind of submission `k` in `dir`.
pub(crate) fn submission_kind(dir: &Path, k: usize) -> Result<String, ExecError> {
    let path = cluster::submission_path(dir, k);
    let text = std::fs::read_to_string(&path).map_err(|e| ExecError::file(&path, e))?;
    let head: Head = ron::from_str(&text).map_err(|e| ExecError::file(&path, e))?;
    Ok(head.kind)
}

impl Slurm {
    /// An executor over the cluster folder `home/slurm`: `tasks` work items an array task, with the given options.
    pub fn new(home: PathBuf, options: SlurmOptions, tasks: usize, unit: SearchUnit) -> Slurm {
        Slurm {
            home,
            options,
            tasks: tasks.max(1),
            unit,
            report: true,
            submitted: Mutex::new(Vec::new()),
        }
    }

    fn detach(&self, folder: &Path, tasks: usize, job: Option<String>) -> ExecError {
        self.submitted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((folder.to_path_buf(), tasks, job.clone()));
        ExecError::Submitted {
            folder: folder.to_path_buf(),
            tasks,
            job,
        }
    }

    fn job_name(&self) -> String {
        cluster::job_name(&self.home)
    }

    fn map_dir(&self, label: &str) -> PathBuf {
        let clean: String = label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.home.join(CLUSTER_DIR).join(MAPS_DIR).join(clean)
    }
}

fn submissions(dir: &Path) -> Result<Vec<MapSubmission>, ExecError> {
    let mut out = Vec::new();
    for k in 0.. {
        let path = cluster::submission_path(dir, k);
        if !path.exists() {
            break;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| ExecError::file(&path, e))?;
        out.push(ron::from_str(&text).map_err(|e| ExecError::file(&path, e))?);
    }
    Ok(out)
}

fn results_file(dir: &Path, (from, to): (usize, usize)) -> PathBuf {
    dir.join(RESULTS_DIR).join(format!("{from}-{to}.txt"))
}

/// `n` tasks cut into at most `parts` contiguous chunks, sizes differing by one at most.
fn chunks(n: usize, parts: usize) -> Vec<(usize, usize)> {
    let parts = parts.clamp(1, n.max(1));
    let (base, extra) = (n / parts, n % parts);
    let mut out = Vec::with_capacity(parts);
    let mut at = 0;
    for p in 0..parts {
        let len = base + usize::from(p < extra);
        out.push((at, at + len));
        at += len;
    }
    out
}

impl Executor for Slurm {
    fn submitted(&self) -> Vec<(PathBuf, usize, Option<String>)> {
        self.submitted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn run(&self, work: &dyn Work) -> Result<(), ExecError> {
        let started = Instant::now();
        let dir = self.map_dir(work.label());
        let n = work.len();
        let mut text = String::new();
        for i in 0..n {
            text += &work.encode(i)?;
            text.push('\n');
        }
        let job_name = self.job_name();
        let jobs = || -> Result<Vec<String>, ExecError> {
            Ok(submissions(&dir)?
                .into_iter()
                .filter_map(|s| s.job)
                .collect())
        };
        // Our tasks of an earlier call still in the queue: wait for them first.
        if dir.exists() {
            cluster::wait_for(&job_name, &jobs, &self.options)?;
        }
        let tasks_path = dir.join(TASKS_FILE);
        if std::fs::read_to_string(&tasks_path).ok().as_deref() != Some(text.as_str()) {
            // Other tasks under this label: what is there is not theirs.
            if dir.exists() {
                std::fs::remove_dir_all(&dir).map_err(|e| ExecError::file(&dir, e))?;
            }
            std::fs::create_dir_all(dir.join(RESULTS_DIR)).map_err(|e| ExecError::file(&dir, e))?;
            write_atomic(&tasks_path, text.as_bytes())?;
        }
        let all = chunks(n, self.tasks);
        let missing: Vec<(usize, usize)> = all
            .iter()
            .copied()
            .filter(|&c| !results_file(&dir, c).exists())
            .collect();
        if !missing.is_empty() {
            let k = submissions(&dir)?.len();
            let submitted_at = cluster::now();
            let array = cluster::Array {
                cluster: &dir,
                k,
                job_name: &job_name,
                tasks: missing.len(),
                about: format!(
                    "{} of `{}`: {} chunk(s) of its {n} task(s); the task index picks the chunk in submission-{k}.ron.",
                    work.kind(),
                    work.label(),
                    missing.len()
                ),
            };
            let job = cluster::submit_array(&array, &self.options, |job| MapSubmission {
                kind: work.kind().into(),
                label: work.label().into(),
                job,
                chunks: missing.clone(),
                submitted_at,
            })?;
            if self.options.progress {
                eprintln!(
                    "{}: {n} task(s) in {} array task(s), Slurm job {job} ({} chunk(s) done before)",
                    work.label(),
                    missing.len(),
                    all.len() - missing.len()
                );
            }
            if !self.options.wait {
                return Err(self.detach(&dir, missing.len(), Some(job)));
            }
            cluster::wait_for(&job_name, &jobs, &self.options)?;
        }
        // Every complete chunk is handed over, in task order; then the missing ones
        // are reported.
        let mut unfinished = Vec::new();
        for &c in &all {
            let path = results_file(&dir, c);
            let Ok(text) = std::fs::read_to_string(&path) else {
                unfinished.push(c);
                continue;
            };
            let lines: Vec<&str> = text.lines().collect();
            if lines.len() != c.1 - c.0 {
                return Err(ExecError::file(
                    &path,
                    format!("{} outputs for {} tasks", lines.len(), c.1 - c.0),
                ));
            }
            for (i, line) in (c.0..c.1).zip(lines) {
                work.accept(i, line)
                    .map_err(|e| ExecError::file(&path, format!("task {i}: {e}")))?;
            }
        }
        if !unfinished.is_empty() {
            let subs = submissions(&dir)?;
            let mut tails = String::new();
            for c in unfinished.iter().take(10) {
                let found = subs.iter().rev().find_map(|s| {
                    let job = s.job.clone()?;
                    Some((job, s.chunks.iter().position(|x| x == c)?))
                });
                if let Some((job, task)) = found {
                    let log = cluster::task_log(&dir, &job, task);
                    tails += &format!(
                        "\n  tasks {}..{} (job {job}, task {task}; log {}):\n{}",
                        c.0,
                        c.1,
                        log.display(),
                        indent(&tail(&log, 8))
                    );
                }
            }
            return Err(ExecError::Unfinished {
                folder: dir.clone(),
                label: work.label().into(),
                missing: unfinished.iter().map(|c| c.1 - c.0).sum(),
                total: n,
                tails,
            });
        }
        if self.report && self.options.progress {
            eprintln!(
                "{}: {n} task(s) through the cluster in {:.1} s",
                work.label(),
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }

    fn search(
        &self,
        searches: &[Search<'_>],
        options: SearchOptions,
    ) -> Result<Vec<RunResult>, ExecError> {
        if options.retry_failed {
            return Err(ExecError::RetryNeedsLocal);
        }
        match self.unit {
            SearchUnit::Batches(tasks) => searches
                .iter()
                .map(|s| {
                    let mut rounds = cluster::search::Rounds::default();
                    let result = cluster::search::run_search(
                        &s.dir,
                        &s.config,
                        s.problem,
                        &self.options,
                        tasks,
                        &mut rounds,
                    )
                    .map_err(|source| ExecError::Stopped {
                        dir: s.dir.clone(),
                        source: Box::new(source),
                    })?;
                    if self.report {
                        eprintln!(
                            "cluster: {} round(s), {} task(s), {} evaluation(s); {:.2} s submitting, {:.2} s collecting",
                            rounds.rounds,
                            rounds.tasks,
                            rounds.evaluations,
                            rounds.submit_seconds,
                            rounds.collect_seconds
                        );
                    }
                    Ok(result)
                })
                .collect(),
            SearchUnit::Trials => {
                let list: Vec<_> = searches
                    .iter()
                    .map(|s| (s.name.clone(), s.dir.clone(), s.config.clone()))
                    .collect();
                let problems: Vec<_> = searches.iter().map(|s| s.problem).collect();
                let mut overhead = cluster::trials::Overhead::default();
                let outcome = cluster::trials::run_searches(
                    &self.home,
                    &list,
                    &problems,
                    &self.options,
                    &mut overhead,
                );
                if self.report {
                    eprintln!(
                        "cluster overhead: {:.2} s to plan and submit {} task(s), {:.2} s to collect",
                        overhead.submit_seconds, overhead.tasks, overhead.collect_seconds
                    );
                }
                match outcome? {
                    cluster::trials::Outcome::Finished(results) => Ok(results),
                    cluster::trials::Outcome::Submitted { tasks, job } => {
                        Err(self.detach(&self.home.join(CLUSTER_DIR), tasks, job))
                    }
                }
            }
        }
    }
}

/// Whether a folder ran independent tasks on the cluster.
pub(crate) fn has_maps(home: &Path) -> bool {
    home.join(CLUSTER_DIR).join(MAPS_DIR).is_dir()
}

/// A line for each step of independent tasks a folder ran on the cluster: its tasks,
/// its chunks with results, and its array tasks still in the queue.
pub(crate) fn map_status(home: &Path) -> Result<Vec<String>, ExecError> {
    let root = home.join(CLUSTER_DIR).join(MAPS_DIR);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    dirs.sort();
    let queue = if cluster::sbatch::on_path("squeue") {
        cluster::sbatch::queue(&cluster::job_name(home))?
    } else {
        Vec::new()
    };
    let mut lines = Vec::new();
    for dir in dirs {
        let subs = submissions(&dir)?;
        let Some(last) = subs.last() else { continue };
        let n = std::fs::read_to_string(dir.join(TASKS_FILE))
            .map(|t| t.lines().count())
            .unwrap_or(0);
        let results = std::fs::read_dir(dir.join(RESULTS_DIR))
            .map(|d| d.count())
            .unwrap_or(0);
        let queued = queue
            .iter()
            .filter(|q| subs.iter().any(|s| s.job.as_ref() == Some(&q.job)))
            .count();
        lines.push(format!(
            "{} `{}`: {n} task(s); {results} chunk(s) with results, {queued} array task(s) in the queue ({})",
            last.kind,
            last.label,
            dir.display()
        ));
    }
    Ok(lines)
}

/// Runs the chunk of tasks array task `index` of submission `k` in a map's folder
/// `dir` computes, in parallel over the task's CPUs, and writes their outputs whole.
pub(crate) fn run_chunk<T: Task>(dir: &Path, k: usize, index: usize) -> Result<String, ExecError> {
    let started = Instant::now();
    let path = cluster::submission_path(dir, k);
    let text = std::fs::read_to_string(&path).map_err(|e| ExecError::file(&path, e))?;
    let sub: MapSubmission = ron::from_str(&text).map_err(|e| ExecError::file(&path, e))?;
    let &(from, to) = sub.chunks.get(index).ok_or_else(|| {
        ExecError::file(
            &path,
            format!(
                "task {index}: the submission has {} tasks",
                sub.chunks.len()
            ),
        )
    })?;
    let tasks_path = dir.join(TASKS_FILE);
    let text = std::fs::read_to_string(&tasks_path).map_err(|e| ExecError::file(&tasks_path, e))?;
    let tasks: Vec<T> = text
        .lines()
        .enumerate()
        .skip(from)
        .take(to - from)
        .map(|(i, line)| {
            ron::from_str(line)
                .map_err(|e| ExecError::file(&tasks_path, format!("line {}: {e}", i + 1)))
        })
        .collect::<Result<_, _>>()?;
    if tasks.len() != to - from {
        return Err(ExecError::file(
            &tasks_path,
            format!(
                "{} tasks, not the {to} the submission names",
                text.lines().count()
            ),
        ));
    }
    let outputs: Vec<T::Output> = tasks
        .par_iter()
        .map(Task::run)
        .collect::<Result<_, _>>()
        .map_err(ExecError::Task)?;
    let mut text = String::new();
    for o in &outputs {
        text += &crate::encode(o)?;
        text.push('\n');
    }
    write_atomic(&results_file(dir, (from, to)), text.as_bytes())?;
    Ok(format!(
        "{} `{}`: tasks {from}..{to} in {:.1} s",
        sub.kind,
        sub.label,
        started.elapsed().as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::chunks;

    #[test]
    fn chunks_cover_in_order_and_balance() {
        assert_eq!(chunks(10, 4), vec![(0, 3), (3, 6), (6, 8), (8, 10)]);
        assert_eq!(chunks(3, 16), vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(chunks(5, 1), vec![(0, 5)]);
    }
}

#[cfg(test)]
mod worker_tests {
    use super::*;
    use crate::{BoxError, Kind, run_worker};

    #[derive(Serialize, Deserialize)]
    struct Double(u64);

    impl Task for Double {
        const KIND: &'static str = "double";
        type Output = u64;
        fn run(&self) -> Result<u64, BoxError> {
            Ok(2 * self.0)
        }
    }

    /// What an array task runs, without a cluster: the worker finds the kind in the
    /// submission, runs its chunk of `tasks.txt` and writes the chunk's outputs whole,
    /// one a line, in task order; a kind no table entry knows is refused by name.
    #[test]
    fn a_worker_runs_its_chunk_by_kind_and_writes_it_whole() {
        let dir = tempfile::TempDir::new().unwrap();
        let d = dir.path();
        let mut text = String::new();
        for i in 0..5 {
            text += &crate::encode(&Double(i)).unwrap();
            text.push('\n');
        }
        std::fs::write(d.join(TASKS_FILE), text).unwrap();
        std::fs::create_dir_all(d.join(RESULTS_DIR)).unwrap();
        let sub = MapSubmission {
            kind: Double::KIND.into(),
            label: "doubles".into(),
            job: None,
            chunks: chunks(5, 2),
            submitted_at: 0,
        };
        std::fs::write(
            d.join("submission-0.ron"),
            ron::ser::to_string_pretty(&sub, Default::default()).unwrap(),
        )
        .unwrap();
        let kinds = [Kind::of::<Double>()];
        let line = run_worker(&kinds, d, 0, 1).unwrap();
        assert!(line.contains("tasks 3..5"), "{line}");
        let out = std::fs::read_to_string(results_file(d, (3, 5))).unwrap();
        assert_eq!(out, "6\n8\n");
        assert!(!results_file(d, (0, 3)).exists());
        assert!(run_worker(&kinds, d, 0, 2).is_err());
        assert!(matches!(
            run_worker(&[], d, 0, 0),
            Err(ExecError::UnknownKind { kind, .. }) if kind == "double"
        ));
    }
}
