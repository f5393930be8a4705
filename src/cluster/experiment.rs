//! An experiment's work items as Slurm array tasks. One *work item* is one trial of
//! one algorithm: its search and the re-evaluations of its final game. A task is a
//! plain `playtune task EXPERIMENT --submission K` on a shared filesystem; it computes
//! its item exactly as the local run would (the same run configuration, the same
//! seeds per trial, evaluation and re-evaluation) into a folder of its own,
//! `slurm/tasks/<item>.partial/`, renamed to `slurm/tasks/<item>/` when complete.
//! Collection appends complete task folders to the algorithms' logs; the summary is
//! then made by the local experiment itself, which finds every evaluation logged and
//! evaluates nothing. So a cluster run's files are the local run's files.
//!
//! Folder layout under `<experiment>/slurm/`:
//! - `experiment.ron`: the experiment's configuration, read by every task;
//! - `submission-K.ron`: the work items of the K-th array and its job id;
//! - `submission-K.sh`: the batch script given to `sbatch`;
//! - `logs/JOB_TASK.out`: each task's own output (its tail is shown when it fails);
//! - `tasks/`: task folders, complete or partial;
//! - `done.jsonl`: one line per collected task (its time and evaluations).
//!
//! What is done is read from the data, not from bookkeeping: an item is done when its
//! algorithm's log replays its trial to the end and its re-evaluation log holds all of
//! its re-evaluations. So a rerun resubmits exactly what is missing, whatever happened
//! to the tasks (failed, timed out, cancelled, never run).

use super::{CLUSTER_DIR, SlurmOptions, indent, slurm, tail, write_atomic};
use crate::eval::{Binding, Problem};
use crate::experiments::compare_optimizers::{
    self, ExperimentConfig, ExperimentResult, REEVALUATION_LOG, Reevaluation, algorithm_folder,
    algorithm_run, point_key, read_reevaluations,
};
use crate::run::failures;
use crate::run::log::{self, LogWriter};
use crate::run::{self, Driven, RunConfig};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

const EXPERIMENT_FILE: &str = "experiment.ron";
const TASKS_DIR: &str = "tasks";
const LOGS_DIR: &str = "logs";
const DONE_FILE: &str = "done.jsonl";
const TASK_FILE: &str = "task.ron";
const PARTIAL: &str = ".partial";

/// One trial of one algorithm: its search and the re-evaluations of its final game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct WorkItem {
    /// The algorithm's position in the experiment's list.
    pub algorithm: usize,
    pub trial: u64,
}

impl WorkItem {
    /// The task folder's name: `<algorithm in lower case>-t<trial>`.
    fn folder(&self, config: &ExperimentConfig) -> String {
        format!(
            "{}-t{}",
            algorithm_folder(&config.algorithms[self.algorithm].0),
            self.trial
        )
    }

    fn describe(&self, config: &ExperimentConfig) -> String {
        format!(
            "{} trial {}",
            config.algorithms[self.algorithm].0, self.trial
        )
    }
}

/// One array: what each task index computes, and the job Slurm gave it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Submission {
    /// Slurm's job id (None between writing this file and `sbatch` answering).
    pub job: Option<String>,
    /// Task i computes items[i].
    pub items: Vec<WorkItem>,
    /// Seconds since the Unix epoch.
    pub submitted_at: u64,
}

/// What a task writes beside its logs when it finishes.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TaskRecord {
    item: WorkItem,
    job: Option<String>,
    task: Option<usize>,
    host: String,
    /// Evaluations and re-evaluations this task computed (not those it found logged).
    evaluations: u64,
    reevaluations: u64,
    seconds: f64,
    /// Seconds since the Unix epoch when the task began and ended its work: how many
    /// tasks were in flight at once, and the gaps Slurm left between them.
    #[serde(default)]
    started_at: f64,
    #[serde(default)]
    finished_at: f64,
}

/// Where the state lives.
struct Folder {
    home: PathBuf,
}

impl Folder {
    fn cluster(&self) -> PathBuf {
        self.home.join(CLUSTER_DIR)
    }
    fn tasks(&self) -> PathBuf {
        self.cluster().join(TASKS_DIR)
    }
    fn logs(&self) -> PathBuf {
        self.cluster().join(LOGS_DIR)
    }
    fn submission(&self, k: usize) -> PathBuf {
        self.cluster().join(format!("submission-{k}.ron"))
    }
    fn log_of(&self, job: &str, task: usize) -> PathBuf {
        self.logs().join(format!("{job}_{task}.out"))
    }
    fn run_dir(&self, config: &ExperimentConfig, ai: usize) -> PathBuf {
        self.home.join(algorithm_folder(&config.algorithms[ai].0))
    }
    fn job_name(&self, config: &ExperimentConfig) -> String {
        slurm::job_name(&config.name)
    }

    /// The submissions in order (index, submission).
    fn submissions(&self) -> Result<Vec<(usize, Submission)>, String> {
        let mut out = Vec::new();
        for k in 0.. {
            let path = self.submission(k);
            if !path.exists() {
                break;
            }
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let s: Submission = ron::from_str(&text).map_err(|e| run::ron_error(&path, &e))?;
            out.push((k, s));
        }
        Ok(out)
    }
}

/// Reads the experiment a cluster folder holds.
pub fn read_experiment(home: &Path) -> Result<ExperimentConfig, String> {
    let path = home.join(CLUSTER_DIR).join(EXPERIMENT_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e} (not an experiment run with --executor slurm)",
            path.display()
        )
    })?;
    ron::from_str(&text).map_err(|e| run::ron_error(&path, &e))
}

/// Writes the experiment's configuration, or checks that the one there is the same:
/// a folder holds one experiment, whatever executor computes it.
fn write_experiment(folder: &Folder, config: &ExperimentConfig) -> Result<(), String> {
    let path = folder.cluster().join(EXPERIMENT_FILE);
    let text = ron::ser::to_string_pretty(config, ron::ser::PrettyConfig::default())
        .map_err(|e| e.to_string())?;
    if let Ok(old) = std::fs::read_to_string(&path) {
        if old == text {
            return Ok(());
        }
        return Err(format!(
            "{} holds another experiment (other settings, trials, budget or seed): give this one another --name, or delete {}",
            path.display(),
            folder.home.display()
        ));
    }
    std::fs::create_dir_all(folder.cluster()).map_err(|e| e.to_string())?;
    write_atomic(&path, text.as_bytes())
}

/// What is done and what is missing, read from the algorithms' logs.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: BTreeSet<WorkItem>,
    pub missing: BTreeSet<WorkItem>,
    /// Evaluations and re-evaluations logged so far (collected and in task folders).
    pub evaluations: u64,
    pub reevaluations: u64,
}

/// Replays every algorithm's log (evaluating nothing) to see which items are done.
fn progress(
    folder: &Folder,
    config: &ExperimentConfig,
    problem: &dyn Problem,
) -> Result<Progress, String> {
    let mut p = Progress::default();
    let features = problem.feature_names();
    for ai in 0..config.algorithms.len() {
        let (name, rc) = algorithm_run(config, ai);
        let dir = folder.run_dir(config, ai);
        let all = (0..config.trials).map(|trial| WorkItem {
            algorithm: ai,
            trial,
        });
        if run::read_config(&dir).ok().as_ref() != Some(&rc) {
            p.missing.extend(all);
            continue;
        }
        let finished = match run::replay(&dir, &rc, problem).map_err(|e| format!("{name}: {e}"))? {
            Driven::Finished(r) => r.trials,
            Driven::Waiting { finished, .. } => finished,
        };
        let mut points = vec![String::new(); config.trials as usize];
        for t in &finished {
            points[t.trial as usize] = point_key(&t.values);
        }
        let reevaluated =
            read_reevaluations(&dir.join(REEVALUATION_LOG), &points, config.reevaluations);
        p.reevaluations += reevaluated.len() as u64;
        let log_path = dir.join(log::LOG_FILE);
        if log_path.exists() {
            p.evaluations += log::read_log(&log_path, &rc.space, &features)?.rows.len() as u64;
        }
        let finished: HashSet<u64> = finished.iter().map(|t| t.trial).collect();
        for item in all {
            let complete = finished.contains(&item.trial)
                && (0..config.reevaluations)
                    .all(|r| reevaluated.contains_key(&(item.trial as usize, r)));
            if complete {
                p.done.insert(item);
            } else {
                p.missing.insert(item);
            }
        }
    }
    // Work in task folders not yet collected (running, or killed part way).
    if let Ok(entries) = std::fs::read_dir(folder.tasks()) {
        for e in entries.flatten() {
            let dir = e.path();
            let Some((_, rc)) = task_run(config, &dir) else {
                continue;
            };
            if let Ok(l) = log::read_log(&dir.join(log::LOG_FILE), &rc.space, &features) {
                p.evaluations += l.rows.len() as u64;
            }
            if let Ok(text) = std::fs::read_to_string(dir.join(REEVALUATION_LOG)) {
                p.reevaluations += text.lines().count() as u64;
            }
        }
    }
    Ok(p)
}

/// The algorithm and run configuration of a task folder, from its name.
fn task_run(config: &ExperimentConfig, dir: &Path) -> Option<(usize, RunConfig)> {
    let name = dir.file_name()?.to_str()?;
    let name = name.strip_suffix(PARTIAL).unwrap_or(name);
    let (algo, _) = name.rsplit_once("-t")?;
    let ai = config
        .algorithms
        .iter()
        .position(|(n, _)| algorithm_folder(n) == algo)?;
    Some((ai, algorithm_run(config, ai).1))
}

/// Appends every complete task folder to its algorithm's logs, then removes it.
/// Appending a folder twice (an interruption between the two steps) is harmless: a
/// log keeps one copy of each (trial, index), a re-evaluation log of each (trial,
/// repeat).
fn collect(
    folder: &Folder,
    config: &ExperimentConfig,
    problem: &dyn Problem,
) -> Result<usize, String> {
    let Ok(entries) = std::fs::read_dir(folder.tasks()) else {
        return Ok(0);
    };
    let features = problem.feature_names();
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.to_string_lossy().ends_with(PARTIAL))
        .collect();
    dirs.sort();
    let mut collected = 0;
    for dir in dirs {
        let Some((ai, rc)) = task_run(config, &dir) else {
            continue;
        };
        let main = folder.run_dir(config, ai);
        let rows: Vec<_> = log::read_log(&dir.join(log::LOG_FILE), &rc.space, &features)?
            .rows
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let mut failed: Vec<_> = failures::read_failures(&dir.join(failures::FAILURES_FILE))?
            .into_values()
            .collect();
        failed.sort_by_key(|f| (f.trial, f.index));
        run::append_results(&main, &rc.space, &features, &rows, &failed)?;
        append_lines(&dir.join(REEVALUATION_LOG), &main.join(REEVALUATION_LOG))?;
        if let Ok(text) = std::fs::read_to_string(dir.join(TASK_FILE))
            && let Ok(record) = ron::from_str::<TaskRecord>(&text)
        {
            let line = serde_json::to_string(&serde_json::json!({
                "item": format!("{}", dir.file_name().unwrap_or_default().to_string_lossy()),
                "job": record.job,
                "task": record.task,
                "host": record.host,
                "evaluations": record.evaluations,
                "reevaluations": record.reevaluations,
                "seconds": record.seconds,
                "started_at": record.started_at,
                "finished_at": record.finished_at,
            }))
            .map_err(|e| e.to_string())?;
            append_lines_text(&format!("{line}\n"), &folder.cluster().join(DONE_FILE))?;
        }
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        collected += 1;
    }
    Ok(collected)
}

/// Appends the whole lines of `from` (if any) to `to`, cutting a half-written last
/// line of `to` first.
fn append_lines(from: &Path, to: &Path) -> Result<(), String> {
    let Ok(text) = std::fs::read_to_string(from) else {
        return Ok(());
    };
    let whole = text.rfind('\n').map_or(0, |p| p + 1);
    append_lines_text(&text[..whole], to)
}

fn append_lines_text(text: &str, to: &Path) -> Result<(), String> {
    if text.is_empty() {
        return Ok(());
    }
    failures::cut_half_line(to).map_err(|e| format!("{}: {e}", to.display()))?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(to)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", to.display()))
}

/// A task of a submission that Slurm still holds, by work item.
fn in_flight(
    submissions: &[(usize, Submission)],
    queue: &[slurm::Queued],
) -> BTreeMap<WorkItem, slurm::Queued> {
    let mut out = BTreeMap::new();
    for (_, s) in submissions {
        let Some(job) = &s.job else { continue };
        for q in queue.iter().filter(|q| &q.job == job) {
            if let Some(item) = s.items.get(q.task) {
                out.insert(*item, q.clone());
            }
        }
    }
    out
}

/// The latest (job, task) that was to compute `item`.
fn last_task(submissions: &[(usize, Submission)], item: WorkItem) -> Option<(String, usize)> {
    submissions.iter().rev().find_map(|(_, s)| {
        let job = s.job.clone()?;
        let task = s.items.iter().position(|i| *i == item)?;
        Some((job, task))
    })
}

/// One line of state for people.
#[derive(Debug, Default)]
pub struct Counts {
    pub items: usize,
    pub done: usize,
    pub running: usize,
    pub pending: usize,
    pub failed: usize,
    pub not_submitted: usize,
}

/// A task that ended without its work: its item, job, index and the tail of its log.
#[derive(Debug)]
pub struct FailedTask {
    pub item: String,
    pub job: String,
    pub task: usize,
    pub log: PathBuf,
    pub tail: String,
    /// How Slurm's accounting says it ended, where the cluster keeps accounting.
    pub state: Option<String>,
}

impl FailedTask {
    /// `RMHC trial 3 (job 12, task 3, TIMEOUT (exit 0:0); log PATH)`.
    pub fn heading(&self) -> String {
        format!(
            "{} (job {}, task {}{}; log {})",
            self.item,
            self.job,
            self.task,
            self.state
                .as_ref()
                .map(|s| format!(", {s}"))
                .unwrap_or_default(),
            self.log.display()
        )
    }
}

/// The state of a cluster experiment: what `playtune status` prints.
#[derive(Debug)]
pub struct Status {
    pub counts: Counts,
    pub progress: Progress,
    pub failed: Vec<FailedTask>,
    pub queue: Vec<(String, slurm::Queued)>,
    /// Evaluations an item computes when nothing is logged: search + re-evaluations.
    pub planned_evaluations: u64,
    pub planned_reevaluations: u64,
}

/// Reads the state of a cluster experiment: the logs, the task folders and the queue.
pub fn status(home: &Path) -> Result<Status, String> {
    let config = read_experiment(home)?;
    let problem = crate::registry::build_problem(&config.problem, None)?;
    let folder = Folder {
        home: home.to_path_buf(),
    };
    let queue = if slurm::on_path("squeue") {
        slurm::queue(&folder.job_name(&config)).map_err(|e| e.to_string())?
    } else {
        Vec::new()
    };
    state(&folder, &config, problem.as_ref(), &queue)
}

fn state(
    folder: &Folder,
    config: &ExperimentConfig,
    problem: &dyn Problem,
    queue: &[slurm::Queued],
) -> Result<Status, String> {
    let submissions = folder.submissions()?;
    let progress = progress(folder, config, problem)?;
    let flying = in_flight(&submissions, queue);
    let complete: HashSet<String> = std::fs::read_dir(folder.tasks())
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str().map(String::from))
                .filter(|n| !n.ends_with(PARTIAL))
                .collect()
        })
        .unwrap_or_default();
    let mut counts = Counts {
        items: progress.done.len() + progress.missing.len(),
        done: progress.done.len(),
        ..Default::default()
    };
    let mut failed = Vec::new();
    let mut queued = Vec::new();
    let mut accounting: BTreeMap<String, Option<BTreeMap<usize, String>>> = BTreeMap::new();
    for item in &progress.missing {
        if complete.contains(&item.folder(config)) {
            counts.done += 1; // finished, not collected yet
        } else if let Some(q) = flying.get(item) {
            if q.is_running() {
                counts.running += 1;
            } else {
                counts.pending += 1;
            }
            queued.push((item.folder(config), q.clone()));
        } else if let Some((job, task)) = last_task(&submissions, *item) {
            counts.failed += 1;
            let log = folder.log_of(&job, task);
            let state = accounting
                .entry(job.clone())
                .or_insert_with(|| slurm::accounting(&job))
                .as_ref()
                .and_then(|a| a.get(&task).cloned());
            failed.push(FailedTask {
                item: item.describe(config),
                tail: tail(&log, 8),
                job,
                task,
                log,
                state,
            });
        } else {
            counts.not_submitted += 1;
        }
    }
    Ok(Status {
        counts,
        progress,
        failed,
        queue: queued,
        planned_evaluations: config.budget * config.trials * config.algorithms.len() as u64,
        planned_reevaluations: config.reevaluations
            * config.trials
            * config.algorithms.len() as u64,
    })
}

/// How a cluster run ended.
pub enum Outcome {
    /// Every item is done: the summary, as the local run writes it.
    Finished(Box<ExperimentResult>),
    /// Submitted without waiting (`--detach`).
    Submitted { tasks: usize, job: Option<String> },
}

/// Timings of the cluster's own work, for people and for the overhead benchmark.
#[derive(Debug, Default)]
pub struct Overhead {
    pub tasks: usize,
    pub submit_seconds: f64,
    pub collect_seconds: f64,
}

/// Runs the experiment's missing items as a Slurm array, waits for them, collects
/// them and writes the summary with the local experiment code. Items a task of an
/// earlier call still computes are waited for, not submitted again.
pub fn run_experiment(
    config: &ExperimentConfig,
    problem: &dyn Problem,
    runs_dir: &Path,
    plots_dir: &Path,
    options: &SlurmOptions,
    overhead: &mut Overhead,
) -> Result<Outcome, String> {
    slurm::check_tools().map_err(|e| e.to_string())?;
    Binding::new(&config.space, problem.space()).map_err(|e| e.message)?;
    let folder = Folder {
        home: runs_dir.join(&config.name),
    };
    std::fs::create_dir_all(folder.logs()).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(folder.tasks()).map_err(|e| e.to_string())?;
    write_experiment(&folder, config)?;
    for ai in 0..config.algorithms.len() {
        run::reuse_or_create_run_dir(&folder.run_dir(config, ai), &algorithm_run(config, ai).1)?;
    }
    let job_name = folder.job_name(config);
    let say = |m: String| {
        if options.progress {
            eprintln!("{m}");
        }
    };
    let started = Instant::now();
    collect(&folder, config, problem)?;
    let queue = slurm::queue(&job_name).map_err(|e| e.to_string())?;
    let submissions = folder.submissions()?;
    let flying = in_flight(&submissions, &queue);
    let done_before = progress(&folder, config, problem)?;
    let to_submit: Vec<WorkItem> = done_before
        .missing
        .iter()
        .filter(|i| !flying.contains_key(i))
        .copied()
        .collect();
    let mut job = None;
    if !to_submit.is_empty() {
        let k = submissions.len();
        let j = submit(&folder, config, k, &to_submit, options)?;
        say(format!(
            "submitted {} task(s) as Slurm job {j} ({} done, {} still in the queue from earlier)",
            to_submit.len(),
            done_before.done.len(),
            flying.len()
        ));
        job = Some(j);
    } else if !flying.is_empty() {
        say(format!(
            "nothing to submit: {} task(s) of earlier calls are still in the queue",
            flying.len()
        ));
    }
    overhead.tasks = to_submit.len();
    overhead.submit_seconds = started.elapsed().as_secs_f64();
    if !options.wait {
        return Ok(Outcome::Submitted {
            tasks: to_submit.len(),
            job,
        });
    }
    // Wait until none of our tasks is in the queue.
    let jobs = || -> Result<Vec<String>, String> {
        Ok(folder
            .submissions()?
            .into_iter()
            .filter_map(|(_, s)| s.job)
            .collect())
    };
    super::wait_for(&job_name, &jobs, options)?;
    let collecting = Instant::now();
    collect(&folder, config, problem)?;
    let status = state(&folder, config, problem, &[])?;
    if !status.progress.missing.is_empty() {
        let mut m = format!(
            "{} of {} work item(s) did not finish on the cluster; run the same command again to resubmit only those:",
            status.progress.missing.len(),
            status.counts.items
        );
        for f in status.failed.iter().take(10) {
            m += &format!("\n  {}:\n{}", f.heading(), indent(&f.tail));
        }
        if status.failed.len() > 10 {
            m += &format!("\n  ... and {} more", status.failed.len() - 10);
        }
        return Err(m);
    }
    // Every evaluation is logged: the local experiment replays them all.
    let result = compare_optimizers::run(config, problem, runs_dir, plots_dir, false)?;
    overhead.collect_seconds = collecting.elapsed().as_secs_f64();
    Ok(Outcome::Finished(Box::new(result)))
}

/// Submits the items as one array, task i computing items[i].
fn submit(
    folder: &Folder,
    config: &ExperimentConfig,
    k: usize,
    items: &[WorkItem],
    options: &SlurmOptions,
) -> Result<String, String> {
    let submitted_at = super::now();
    let array = super::Array {
        cluster: &folder.cluster(),
        folder: &folder.home,
        k,
        job_name: &folder.job_name(config),
        tasks: items.len(),
        about: format!(
            "One work item of the experiment per array task: {} items; the task index picks the item in submission-{k}.ron.",
            items.len()
        ),
    };
    super::submit_array(&array, options, |job| Submission {
        job,
        items: items.to_vec(),
        submitted_at,
    })
}

/// Cancels every task of the experiment still in the queue; returns the jobs.
pub fn cancel(home: &Path) -> Result<Vec<String>, String> {
    let config = read_experiment(home)?;
    slurm::check_tools().map_err(|e| e.to_string())?;
    let folder = Folder {
        home: home.to_path_buf(),
    };
    let queue = slurm::queue(&folder.job_name(&config)).map_err(|e| e.to_string())?;
    let ours: BTreeSet<String> = folder
        .submissions()?
        .into_iter()
        .filter_map(|(_, s)| s.job)
        .filter(|j| queue.iter().any(|q| &q.job == j))
        .collect();
    let jobs: Vec<String> = ours.into_iter().collect();
    slurm::cancel(&jobs).map_err(|e| e.to_string())?;
    Ok(jobs)
}

/// Computes one work item: `playtune task` (what each array task runs). The task's
/// index is `index`, or `SLURM_ARRAY_TASK_ID`.
pub fn run_task(home: &Path, k: usize, index: usize) -> Result<String, String> {
    let started = Instant::now();
    let started_at = unix_seconds();
    let config = read_experiment(home)?;
    let folder = Folder {
        home: home.to_path_buf(),
    };
    let submission = folder
        .submissions()?
        .into_iter()
        .find(|(i, _)| *i == k)
        .map(|(_, s)| s)
        .ok_or_else(|| format!("{}: no such submission", folder.submission(k).display()))?;
    let item = *submission.items.get(index).ok_or_else(|| {
        format!(
            "task {index}: submission {k} has {} tasks",
            submission.items.len()
        )
    })?;
    let problem = crate::registry::build_problem(&config.problem, None)?;
    let binding = Binding::new(&config.space, problem.space()).map_err(|e| e.message)?;
    let features = problem.feature_names();
    let (_, rc) = algorithm_run(&config, item.algorithm);
    let done = folder.tasks().join(item.folder(&config));
    if done.exists() {
        return Ok(format!("{}: already done", item.describe(&config)));
    }
    let partial = folder
        .tasks()
        .join(format!("{}{PARTIAL}", item.folder(&config)));
    let main = folder.run_dir(&config, item.algorithm);
    // Two tasks of one item (a requeued task beside its first run) never write one
    // folder together: the second is refused.
    std::fs::create_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    let _lock = run::lock::lock_here(&partial)?;
    if done.exists() {
        let _ = std::fs::remove_dir_all(&partial);
        return Ok(format!("{}: already done", item.describe(&config)));
    }
    let fresh = !partial.join(log::LOG_FILE).exists();
    run::reuse_or_create_run_dir(&partial, &rc)?;
    if fresh {
        // Start from what the algorithm's log already holds for this trial (a trial
        // begun by a local run, or an earlier cluster call): nothing is redone.
        if let Ok(l) = log::read_log(&main.join(log::LOG_FILE), &rc.space, &features) {
            let rows: Vec<_> = l
                .rows
                .into_iter()
                .map(|(_, r)| r)
                .filter(|r| r.trial == item.trial)
                .collect();
            LogWriter::open(&partial.join(log::LOG_FILE), &rc.space, &features)
                .and_then(|mut w| w.append(&rc.space, &rows))
                .map_err(|e| format!("{}: {e}", partial.display()))?;
        }
    }
    let result = run::execute_with(
        Some(&partial),
        &rc,
        problem.as_ref(),
        run::Options {
            progress: false,
            retry_failed: false,
            only_trial: Some(item.trial),
        },
    )
    .map_err(|e| format!("{}: {e}", item.describe(&config)))?;
    let trial = &result.trials[0];
    let mut points = vec![String::new(); config.trials as usize];
    points[item.trial as usize] = point_key(&trial.values);
    let repeats = config.reevaluations;
    let mut logged = read_reevaluations(&main.join(REEVALUATION_LOG), &points, repeats);
    logged.extend(read_reevaluations(
        &partial.join(REEVALUATION_LOG),
        &points,
        repeats,
    ));
    let t = item.trial as usize;
    let jobs: Vec<Reevaluation> = (0..config.reevaluations)
        .filter(|r| !logged.contains_key(&(t, *r)))
        .map(|r| Reevaluation {
            trial: t,
            repeat: r,
            values: &trial.values,
            point: &points[t],
        })
        .collect();
    compare_optimizers::reevaluate(
        &config,
        problem.as_ref(),
        &binding,
        item.algorithm,
        &partial.join(REEVALUATION_LOG),
        &jobs,
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let record = TaskRecord {
        item,
        job: std::env::var("SLURM_ARRAY_JOB_ID").ok(),
        task: Some(index),
        host: std::env::var("SLURMD_NODENAME")
            .or_else(|_| std::env::var("HOSTNAME"))
            .unwrap_or_default(),
        evaluations: result.spent.total() - result.spent.reused,
        reevaluations: jobs.len() as u64,
        seconds,
        started_at,
        finished_at: unix_seconds(),
    };
    let text = ron::ser::to_string_pretty(&record, ron::ser::PrettyConfig::default())
        .map_err(|e| e.to_string())?;
    write_atomic(&partial.join(TASK_FILE), text.as_bytes())?;
    // The task's folder appears complete or not at all.
    std::fs::rename(&partial, &done).map_err(|e| format!("{}: {e}", done.display()))?;
    Ok(format!(
        "{}: {} evaluations and {} re-evaluations in {seconds:.1} s",
        item.describe(&config),
        record.evaluations,
        record.reevaluations
    ))
}

fn unix_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::compare_optimizers::paper_algorithms;
    use crate::optim::ntbea::NtbeaConfig;
    use crate::run::ProblemSpec;

    fn small() -> (ExperimentConfig, Box<dyn Problem>) {
        let spec = ProblemSpec {
            name: "space-battle".into(),
            settings: [("max_ticks", "120"), ("mcts_iterations", "5")]
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let problem = crate::registry::build_problem(&spec, None).unwrap();
        let config = ExperimentConfig {
            name: "x".into(),
            problem: spec,
            space: problem.space().clone(),
            algorithms: paper_algorithms(NtbeaConfig::paper()),
            trials: 2,
            budget: 4,
            reevaluations: 2,
            seed: 3,
        };
        (config, problem)
    }

    /// The tasks' path without a cluster: every item computed by `run_task` (one of
    /// them twice, as a rerun after a kill would), collected, then summarised by the
    /// local code, equals the local run byte for byte; progress sees every item done.
    #[test]
    fn tasks_then_collection_equal_the_local_run() {
        let (config, problem) = small();
        let local = tempfile::TempDir::new().unwrap();
        compare_optimizers::run(&config, problem.as_ref(), local.path(), local.path(), false)
            .unwrap();
        let dir = tempfile::TempDir::new().unwrap();
        let folder = Folder {
            home: dir.path().join("x"),
        };
        std::fs::create_dir_all(folder.tasks()).unwrap();
        write_experiment(&folder, &config).unwrap();
        for ai in 0..config.algorithms.len() {
            run::reuse_or_create_run_dir(
                &folder.run_dir(&config, ai),
                &algorithm_run(&config, ai).1,
            )
            .unwrap();
        }
        let before = progress(&folder, &config, problem.as_ref()).unwrap();
        assert_eq!((before.done.len(), before.missing.len()), (0, 6));
        let items: Vec<WorkItem> = before.missing.iter().copied().collect();
        let submission = Submission {
            job: Some("1".into()),
            items: items.clone(),
            submitted_at: 0,
        };
        let text = ron::ser::to_string_pretty(&submission, Default::default()).unwrap();
        std::fs::write(folder.submission(0), text).unwrap();
        for i in 0..items.len() {
            run_task(&folder.home, 0, i).unwrap();
        }
        assert!(
            run_task(&folder.home, 0, 2)
                .unwrap()
                .contains("already done")
        );
        assert!(run_task(&folder.home, 0, 6).is_err());
        assert_eq!(collect(&folder, &config, problem.as_ref()).unwrap(), 6);
        let after = progress(&folder, &config, problem.as_ref()).unwrap();
        assert_eq!((after.done.len(), after.missing.len()), (6, 0));
        compare_optimizers::run(&config, problem.as_ref(), dir.path(), dir.path(), false).unwrap();
        let read = |d: &Path, f: &str| std::fs::read(d.join("x").join(f)).unwrap();
        assert_eq!(
            read(local.path(), "summary.ron"),
            read(dir.path(), "summary.ron")
        );
        for algo in ["rmhc", "b-rmhc", "ntbea"] {
            let f = format!("{algo}/evals.csv");
            assert_eq!(read(local.path(), &f), read(dir.path(), &f), "{f}");
        }
        // A second experiment under the same name is refused.
        let mut other = config.clone();
        other.seed = 4;
        assert!(
            write_experiment(&folder, &other)
                .unwrap_err()
                .contains("another experiment")
        );
    }

    /// A task killed part way resumes from its partial folder: evaluations it logged
    /// are not evaluated again.
    #[test]
    fn a_partial_task_resumes_from_its_log() {
        let (config, _) = small();
        let dir = tempfile::TempDir::new().unwrap();
        let folder = Folder {
            home: dir.path().join("x"),
        };
        std::fs::create_dir_all(folder.tasks()).unwrap();
        write_experiment(&folder, &config).unwrap();
        let item = WorkItem {
            algorithm: 0,
            trial: 1,
        };
        let submission = Submission {
            job: None,
            items: vec![item],
            submitted_at: 0,
        };
        let text = ron::ser::to_string_pretty(&submission, Default::default()).unwrap();
        std::fs::write(folder.submission(0), text).unwrap();
        let line = run_task(&folder.home, 0, 0).unwrap();
        assert!(
            line.contains("4 evaluations and 2 re-evaluations"),
            "{line}"
        );
        // Make it partial again, less its last re-evaluation and last evaluation row.
        let done = folder.tasks().join(item.folder(&config));
        let partial = folder
            .tasks()
            .join(format!("{}{PARTIAL}", item.folder(&config)));
        std::fs::rename(&done, &partial).unwrap();
        for (file, keep) in [(log::LOG_FILE, 4), (REEVALUATION_LOG, 1)] {
            let text = std::fs::read_to_string(partial.join(file)).unwrap();
            let kept: Vec<&str> = text.lines().take(keep).collect();
            std::fs::write(partial.join(file), kept.join("\n") + "\n").unwrap();
        }
        let line = run_task(&folder.home, 0, 0).unwrap();
        assert!(
            line.contains("1 evaluations and 1 re-evaluations"),
            "{line}"
        );
    }
}
