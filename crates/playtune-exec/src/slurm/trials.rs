//! Searches whose trials are Slurm array tasks: one *work item* is one trial of one
//! search (its whole search, pre-processing included). A task is a plain `playtune
//! task HOME/slurm --submission K` on a shared filesystem; it computes its trial
//! exactly as the local run would (the same run configuration and seeds) into a folder
//! of its own, `slurm/tasks/<item>.partial/`, renamed to `slurm/tasks/<item>/` when
//! complete. Collection appends complete task folders to the searches' logs; the
//! caller's replay of each run folder then finds every evaluation logged and
//! evaluates nothing. So a cluster run's files are the local run's files.
//!
//! Folder layout under `HOME/slurm/`:
//! - `experiment.ron`: the searches (name, run folder, run configuration), read by
//!   every task;
//! - `submission-K.ron`: the work items of the K-th array and its job id;
//! - `submission-K.sh`: the batch script given to `sbatch`;
//! - `logs/JOB_TASK.out`: each task's own output (its tail is shown when it fails);
//! - `tasks/`: task folders, complete or partial;
//! - `done.jsonl`: one line per collected task (its time and evaluations).
//!
//! What is done is read from the data, not from bookkeeping: an item is done when its
//! search's log replays its trial to the end. So a rerun resubmits exactly what is
//! missing, whatever happened to the tasks (failed, timed out, cancelled, never run).

use super::{
    CLUSTER_DIR, Error, Folder, LOGS_DIR, SlurmOptions, indent, read_submissions, sbatch, tail,
    write_atomic,
};
use playtune::eval::Problem;
use playtune::run::log::{self, LogWriter};
use playtune::run::{self, Driven, RunConfig, RunResult};
use playtune::run::{failures, files};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The task kind of a search's trial.
pub(crate) const KIND: &str = "search-trial";

const SEARCHES_FILE: &str = "experiment.ron";
const TASKS_DIR: &str = "tasks";
const DONE_FILE: &str = "done.jsonl";
const TASK_FILE: &str = "task.ron";
const PARTIAL: &str = ".partial";

/// One search of the set: its name, its run folder (relative to the home folder)
/// and its run configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) folder: String,
    pub(crate) config: RunConfig,
}

/// The searches a home folder runs on the cluster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SearchSet {
    pub(crate) searches: Vec<Entry>,
}

/// One trial of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub(crate) struct WorkItem {
    /// The search's position in the set.
    pub search: usize,
    /// The trial's number within its search.
    pub trial: u64,
}

impl WorkItem {
    /// The task folder's name: `<run folder>-t<trial>` (`/` made `_`).
    fn folder(&self, set: &SearchSet) -> String {
        format!(
            "{}-t{}",
            set.searches[self.search].folder.replace('/', "_"),
            self.trial
        )
    }

    fn describe(&self, set: &SearchSet) -> String {
        format!("{} trial {}", set.searches[self.search].name, self.trial)
    }
}

/// One array: what each task index computes, and the job Slurm gave it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Submission {
    #[serde(default)]
    pub(crate) kind: String,
    /// Slurm's job id (None between writing this file and `sbatch` answering).
    pub(crate) job: Option<String>,
    /// Task i computes items[i].
    pub(crate) items: Vec<WorkItem>,
    /// Seconds since the Unix epoch.
    pub(crate) submitted_at: u64,
}

/// What a task writes beside its logs when it finishes.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TaskRecord {
    item: WorkItem,
    job: Option<String>,
    task: Option<usize>,
    host: String,
    /// Evaluations this task computed (not those it found logged).
    evaluations: u64,
    seconds: f64,
    /// Seconds since the Unix epoch when the task began and ended its work: how many
    /// tasks were in flight at once, and the gaps Slurm left between them.
    #[serde(default)]
    started_at: f64,
    #[serde(default)]
    finished_at: f64,
}

impl Folder {
    fn tasks(&self) -> PathBuf {
        self.cluster().join(TASKS_DIR)
    }
    fn logs(&self) -> PathBuf {
        self.cluster().join(LOGS_DIR)
    }
    fn run_dir(&self, set: &SearchSet, si: usize) -> PathBuf {
        self.home.join(&set.searches[si].folder)
    }

    /// The submissions in order (index, submission).
    fn submissions(&self) -> Result<Vec<(usize, Submission)>, Error> {
        Ok(read_submissions(&self.cluster())?
            .into_iter()
            .enumerate()
            .collect())
    }
}

/// Whether a folder holds searches run on the cluster by trial.
pub(crate) fn is_home(dir: &Path) -> bool {
    dir.join(CLUSTER_DIR).join(SEARCHES_FILE).exists()
}

/// Reads the searches a cluster folder holds.
pub(crate) fn read_set(home: &Path) -> Result<SearchSet, Error> {
    let path = home.join(CLUSTER_DIR).join(SEARCHES_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| Error::NoSearches {
        path: path.clone(),
        source,
    })?;
    ron::from_str(&text).map_err(|e| Error::parse(&path, e))
}

/// Writes the set, or checks that the one there is the same: a folder holds one set
/// of searches, whatever executor computes it.
fn write_set(folder: &Folder, set: &SearchSet) -> Result<(), Error> {
    let path = folder.cluster().join(SEARCHES_FILE);
    let text = ron::ser::to_string_pretty(set, ron::ser::PrettyConfig::default())?;
    if let Ok(old) = std::fs::read_to_string(&path) {
        if old == text {
            return Ok(());
        }
        return Err(Error::OtherSearches {
            path,
            home: folder.home.clone(),
        });
    }
    std::fs::create_dir_all(folder.cluster())?;
    write_atomic(&path, text.as_bytes())
}

/// What is done and what is missing, read from the searches' logs.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    pub(crate) done: BTreeSet<WorkItem>,
    pub(crate) missing: BTreeSet<WorkItem>,
    /// Evaluations logged so far (collected and in task folders).
    pub evaluations: u64,
}

/// The problem each search evaluates, built from its configuration.
fn build(set: &SearchSet) -> Result<Vec<Box<dyn Problem>>, Error> {
    set.searches
        .iter()
        .map(|e| Ok(playtune::registry::build_problem(&e.config.problem, None)?))
        .collect()
}

/// Replays every search's log (evaluating nothing) to see which items are done.
fn progress(
    folder: &Folder,
    set: &SearchSet,
    problems: &[&dyn Problem],
) -> Result<Progress, Error> {
    let mut p = Progress::default();
    for (si, entry) in set.searches.iter().enumerate() {
        let rc = &entry.config;
        let dir = folder.run_dir(set, si);
        let all = (0..rc.trials).map(|trial| WorkItem { search: si, trial });
        if playtune::registry::read_config(&dir).ok().as_ref() != Some(rc) {
            p.missing.extend(all);
            continue;
        }
        let problem = problems[si];
        let finished = match run::replay(&dir, rc, problem)
            .map_err(|source| Error::search(entry.name.clone(), source))?
        {
            Driven::Finished(r) => r.trials,
            Driven::Waiting { finished, .. } => finished,
        };
        let log_path = dir.join(files::LOG_FILE);
        if log_path.exists() {
            p.evaluations += log::read_log(&log_path, &rc.space, &problem.feature_names())?
                .rows
                .len() as u64;
        }
        let finished: HashSet<u64> = finished.iter().map(|t| t.trial).collect();
        for item in all {
            if finished.contains(&item.trial) {
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
            let Some(si) = task_search(set, &dir) else {
                continue;
            };
            let rc = &set.searches[si].config;
            if let Ok(l) = log::read_log(
                &dir.join(files::LOG_FILE),
                &rc.space,
                &problems[si].feature_names(),
            ) {
                p.evaluations += l.rows.len() as u64;
            }
        }
    }
    Ok(p)
}

/// The search of a task folder, from its name.
fn task_search(set: &SearchSet, dir: &Path) -> Option<usize> {
    let name = dir.file_name()?.to_str()?;
    let name = name.strip_suffix(PARTIAL).unwrap_or(name);
    let (search, _) = name.rsplit_once("-t")?;
    set.searches
        .iter()
        .position(|e| e.folder.replace('/', "_") == search)
}

/// Appends every complete task folder to its search's logs, then removes it.
/// Appending a folder twice (an interruption between the two steps) is harmless: a
/// log keeps one copy of each (trial, index).
fn collect(folder: &Folder, set: &SearchSet, problems: &[&dyn Problem]) -> Result<usize, Error> {
    let Ok(entries) = std::fs::read_dir(folder.tasks()) else {
        return Ok(0);
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.to_string_lossy().ends_with(PARTIAL))
        .collect();
    dirs.sort();
    let mut collected = 0;
    for dir in dirs {
        let Some(si) = task_search(set, &dir) else {
            continue;
        };
        let rc = &set.searches[si].config;
        let features = problems[si].feature_names();
        let main = folder.run_dir(set, si);
        let rows: Vec<_> = log::read_log(&dir.join(files::LOG_FILE), &rc.space, &features)?
            .rows
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let mut failed: Vec<_> = failures::read_failures(&dir.join(files::FAILURES_FILE), None)?
            .into_values()
            .collect();
        failed.sort_by_key(|f| (f.trial, f.index));
        run::append_results(&main, &rc.space, &features, &rows, &failed)?;
        if let Ok(text) = std::fs::read_to_string(dir.join(TASK_FILE))
            && let Ok(record) = ron::from_str::<TaskRecord>(&text)
        {
            let line = serde_json::to_string(&serde_json::json!({
                "item": format!("{}", dir.file_name().unwrap_or_default().to_string_lossy()),
                "job": record.job,
                "task": record.task,
                "host": record.host,
                "evaluations": record.evaluations,
                "seconds": record.seconds,
                "started_at": record.started_at,
                "finished_at": record.finished_at,
            }))?;
            append_lines_text(&format!("{line}\n"), &folder.cluster().join(DONE_FILE))?;
        }
        std::fs::remove_dir_all(&dir).map_err(|e| Error::file(&dir, e))?;
        collected += 1;
    }
    Ok(collected)
}

fn append_lines_text(text: &str, to: &Path) -> Result<(), Error> {
    if text.is_empty() {
        return Ok(());
    }
    failures::cut_half_line(to).map_err(|e| Error::file(to, e))?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(to)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| Error::file(to, e))
}

/// A task of a submission that Slurm still holds, by work item.
fn in_flight(
    submissions: &[(usize, Submission)],
    queue: &[sbatch::Queued],
) -> BTreeMap<WorkItem, sbatch::Queued> {
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
pub(crate) struct Counts {
    /// Work items in all.
    pub items: usize,
    /// Items done.
    pub done: usize,
    /// Items running.
    pub running: usize,
    /// Items pending in the queue.
    pub pending: usize,
    /// Items whose task ended without their work.
    pub failed: usize,
    /// Items not yet submitted.
    pub not_submitted: usize,
}

/// A task that ended without its work: its item, job, index and the tail of its log.
#[derive(Debug)]
pub(crate) struct FailedTask {
    pub(crate) item: String,
    pub(crate) job: String,
    pub(crate) task: usize,
    pub(crate) log: PathBuf,
    /// The last lines of its log.
    pub tail: String,
    /// How Slurm's accounting says it ended, where the cluster keeps accounting.
    pub(crate) state: Option<String>,
}

impl FailedTask {
    /// `RMHC trial 3 (job 12, task 3, TIMEOUT (exit 0:0); log PATH)`.
    pub(crate) fn heading(&self) -> String {
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

/// The state of searches on the cluster: what `playtune status` prints.
#[derive(Debug)]
pub(crate) struct Status {
    /// Items by state.
    pub counts: Counts,
    /// Evaluations done and planned.
    pub progress: Progress,
    /// Tasks that ended without their work.
    pub failed: Vec<FailedTask>,
    /// The queue's tasks of these searches, by search.
    pub queue: Vec<(String, sbatch::Queued)>,
    /// Evaluations the searches' budgets plan.
    pub planned_evaluations: u64,
}

/// Reads the state of searches on the cluster: the logs, the task folders and the
/// queue.
pub(crate) fn status(home: &Path) -> Result<Status, Error> {
    let set = read_set(home)?;
    let built = build(&set)?;
    let problems: Vec<&dyn Problem> = built.iter().map(|b| b.as_ref()).collect();
    let folder = Folder::new(home);
    let queue = if sbatch::on_path("squeue") {
        sbatch::queue(&folder.job_name())?
    } else {
        Vec::new()
    };
    state(&folder, &set, &problems, &queue)
}

fn state(
    folder: &Folder,
    set: &SearchSet,
    problems: &[&dyn Problem],
    queue: &[sbatch::Queued],
) -> Result<Status, Error> {
    let submissions = folder.submissions()?;
    let progress = progress(folder, set, problems)?;
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
        if complete.contains(&item.folder(set)) {
            counts.done += 1; // finished, not collected yet
        } else if let Some(q) = flying.get(item) {
            if q.is_running() {
                counts.running += 1;
            } else {
                counts.pending += 1;
            }
            queued.push((item.folder(set), q.clone()));
        } else if let Some((job, task)) = last_task(&submissions, *item) {
            counts.failed += 1;
            let log = folder.log_of(&job, task);
            let state = accounting
                .entry(job.clone())
                .or_insert_with(|| sbatch::accounting(&job))
                .as_ref()
                .and_then(|a| a.get(&task).cloned());
            failed.push(FailedTask {
                item: item.describe(set),
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
        planned_evaluations: set
            .searches
            .iter()
            .map(|e| e.config.budget * e.config.trials)
            .sum(),
    })
}

/// How a cluster run ended.
pub(crate) enum Outcome {
    /// Every trial is done: each search's result, replayed from its logs.
    Finished(Vec<RunResult>),
    /// Submitted without waiting.
    Submitted { tasks: usize, job: Option<String> },
}

/// Timings of the cluster's own work, for people and for the overhead benchmark.
#[derive(Debug, Default)]
pub(crate) struct Overhead {
    pub(crate) tasks: usize,
    pub(crate) submit_seconds: f64,
    pub(crate) collect_seconds: f64,
}

/// Runs the missing trials of `searches` (run folders under `home`, made by the
/// caller) as one Slurm array, waits for them, collects them and replays each run
/// folder to its result. Items a task of an earlier call still computes are waited
/// for, not submitted again.
pub(crate) fn run_searches(
    home: &Path,
    searches: &[(String, PathBuf, RunConfig)],
    problems: &[&dyn Problem],
    options: &SlurmOptions,
    overhead: &mut Overhead,
) -> Result<Outcome, Error> {
    sbatch::check_tools()?;
    let mut entries = Vec::new();
    for (name, dir, config) in searches {
        let folder = dir
            .strip_prefix(home)
            .ok()
            .and_then(|f| f.to_str())
            .filter(|f| !f.is_empty())
            .ok_or_else(|| Error::OutsideHome {
                dir: dir.clone(),
                home: home.to_path_buf(),
            })?;
        entries.push(Entry {
            name: name.clone(),
            folder: folder.to_string(),
            config: config.clone(),
        });
    }
    let set = SearchSet { searches: entries };
    let folder = Folder::new(home);
    std::fs::create_dir_all(folder.logs())?;
    std::fs::create_dir_all(folder.tasks())?;
    write_set(&folder, &set)?;
    let job_name = folder.job_name();
    let say = |m: String| {
        if options.progress {
            eprintln!("{m}");
        }
    };
    let started = Instant::now();
    collect(&folder, &set, problems)?;
    let queue = sbatch::queue(&job_name)?;
    let submissions = folder.submissions()?;
    let flying = in_flight(&submissions, &queue);
    let done_before = progress(&folder, &set, problems)?;
    let to_submit: Vec<WorkItem> = done_before
        .missing
        .iter()
        .filter(|i| !flying.contains_key(i))
        .copied()
        .collect();
    let mut job = None;
    if !to_submit.is_empty() {
        let k = submissions.len();
        let j = submit(&folder, k, &to_submit, options)?;
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
    if !options.wait && (job.is_some() || !flying.is_empty()) {
        return Ok(Outcome::Submitted {
            tasks: to_submit.len(),
            job,
        });
    }
    // Wait until none of our tasks is in the queue.
    let jobs = || -> Result<Vec<String>, Error> {
        Ok(folder
            .submissions()?
            .into_iter()
            .filter_map(|(_, s)| s.job)
            .collect())
    };
    super::wait_for(&job_name, &jobs, options)?;
    let collecting = Instant::now();
    collect(&folder, &set, problems)?;
    let status = state(&folder, &set, problems, &[])?;
    if !status.progress.missing.is_empty() {
        let mut tails = String::new();
        for f in status.failed.iter().take(10) {
            tails += &format!("\n  {}:\n{}", f.heading(), indent(&f.tail));
        }
        if status.failed.len() > 10 {
            tails += &format!("\n  ... and {} more", status.failed.len() - 10);
        }
        return Err(Error::TrialsUnfinished {
            missing: status.progress.missing.len(),
            total: status.counts.items,
            tails,
        });
    }
    // Every evaluation is logged: the replay evaluates nothing.
    let mut results = Vec::new();
    for (si, entry) in set.searches.iter().enumerate() {
        let dir = folder.run_dir(&set, si);
        results.push(
            run::execute(Some(&dir), &entry.config, problems[si], None)
                .map_err(|source| Error::search(entry.name.clone(), source))?,
        );
    }
    overhead.collect_seconds = collecting.elapsed().as_secs_f64();
    Ok(Outcome::Finished(results))
}

/// Submits the items as one array, task i computing items[i].
fn submit(
    folder: &Folder,
    k: usize,
    items: &[WorkItem],
    options: &SlurmOptions,
) -> Result<String, Error> {
    let about = format!(
        "One trial of a search per array task: {} trials; the task index picks the trial in submission-{k}.ron.",
        items.len()
    );
    folder.submit(k, items.len(), about, options, |job, submitted_at| {
        Submission {
            kind: KIND.into(),
            job,
            items: items.to_vec(),
            submitted_at,
        }
    })
}

/// The jobs of a folder's submissions (its searches' and its maps') that Slurm still
/// holds.
pub fn cancel(home: &Path) -> Result<Vec<String>, Error> {
    sbatch::check_tools()?;
    let queue = sbatch::queue(&super::job_name(home))?;
    let mut ours = BTreeSet::new();
    let mut look = vec![home.join(CLUSTER_DIR)];
    while let Some(dir) = look.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if path.is_dir() && name != LOGS_DIR && name != TASKS_DIR {
                look.push(path);
            } else if name.starts_with("submission-") && name.ends_with(".ron") {
                #[derive(Deserialize)]
                struct Job {
                    job: Option<String>,
                }
                if let Ok(text) = std::fs::read_to_string(&path)
                    && let Ok(Job { job: Some(job) }) = ron::from_str::<Job>(&text)
                    && queue.iter().any(|q| q.job == job)
                {
                    ours.insert(job);
                }
            }
        }
    }
    let jobs: Vec<String> = ours.into_iter().collect();
    sbatch::cancel(&jobs)?;
    Ok(jobs)
}

/// Computes one trial: what each array task of a submission runs (`cluster` is
/// `HOME/slurm`).
pub(crate) fn run_task(cluster: &Path, k: usize, index: usize) -> Result<String, Error> {
    let home = cluster
        .parent()
        .ok_or_else(|| Error::NotAClusterFolder(cluster.to_path_buf()))?;
    let started = Instant::now();
    let started_at = unix_seconds();
    let set = read_set(home)?;
    let folder = Folder::new(home);
    let submission = folder
        .submissions()?
        .into_iter()
        .find(|(i, _)| *i == k)
        .map(|(_, s)| s)
        .ok_or_else(|| Error::NoSuchSubmission(folder.submission(k)))?;
    let item = *submission
        .items
        .get(index)
        .ok_or_else(|| Error::NoSuchTask {
            index,
            what: format!("submission {k}"),
            tasks: submission.items.len(),
        })?;
    let entry = &set.searches[item.search];
    let rc = &entry.config;
    let problem = playtune::registry::build_problem(&rc.problem, None)?;
    let features = problem.feature_names();
    let done = folder.tasks().join(item.folder(&set));
    if done.exists() {
        return Ok(format!("{}: already done", item.describe(&set)));
    }
    let partial = folder
        .tasks()
        .join(format!("{}{PARTIAL}", item.folder(&set)));
    let main = folder.run_dir(&set, item.search);
    // Two tasks of one item (a requeued task beside its first run) never write one
    // folder together: the second is refused.
    std::fs::create_dir_all(&partial).map_err(|e| Error::file(&partial, e))?;
    let _lock = run::lock::lock_here(&partial)?;
    if done.exists() {
        let _ = std::fs::remove_dir_all(&partial);
        return Ok(format!("{}: already done", item.describe(&set)));
    }
    let fresh = !partial.join(files::LOG_FILE).exists();
    run::reuse_or_create_run_dir(&partial, rc)?;
    if fresh {
        // Start from what the search's log already holds for this trial (a trial
        // begun by a local run, or an earlier cluster call): nothing is redone.
        if let Ok(l) = log::read_log(&main.join(files::LOG_FILE), &rc.space, &features) {
            let rows: Vec<_> = l
                .rows
                .into_iter()
                .map(|(_, r)| r)
                .filter(|r| r.trial == item.trial)
                .collect();
            LogWriter::open(&partial.join(files::LOG_FILE), &rc.space, &features)
                .and_then(|mut w| w.append(&rc.space, &rows))
                .map_err(|e| Error::file(&partial, e))?;
        }
    }
    let result = run::execute_with(
        Some(&partial),
        rc,
        problem.as_ref(),
        run::Options {
            progress: None,
            retry_failed: false,
            only_trial: Some(item.trial),
        },
    )
    .map_err(|source| Error::search(item.describe(&set), source))?;
    let seconds = started.elapsed().as_secs_f64();
    let record = TaskRecord {
        item,
        job: std::env::var("SLURM_ARRAY_JOB_ID").ok(),
        task: Some(index),
        host: std::env::var("SLURMD_NODENAME")
            .or_else(|_| std::env::var("HOSTNAME"))
            .unwrap_or_default(),
        evaluations: result.spent.total() - result.spent.reused,
        seconds,
        started_at,
        finished_at: unix_seconds(),
    };
    let text = ron::ser::to_string_pretty(&record, ron::ser::PrettyConfig::default())?;
    write_atomic(&partial.join(TASK_FILE), text.as_bytes())?;
    // The task's folder appears complete or not at all.
    std::fs::rename(&partial, &done).map_err(|e| Error::file(&done, e))?;
    Ok(format!(
        "{}: {} evaluations in {seconds:.1} s",
        item.describe(&set),
        record.evaluations,
    ))
}

fn unix_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests;
