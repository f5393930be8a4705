//! Work run as Slurm array tasks, with the results landing in the same folders a local
//! run writes: [`trials`] runs searches one trial a task, [`search`] evaluates one
//! search's batches a chunk a task (and [`Slurm`] chunks of independent
//! tasks). Every task is a plain `playtune task DIR --submission K` invocation on a
//! shared filesystem (`DIR/submission-K.ron` names the task kind and its work), seeded
//! by its work item exactly as the local run, and writes its output whole or not at
//! all (a temporary name, then a rename); the caller collects only complete output.
//! [`sbatch`] talks to the cluster through `sbatch`, `squeue` and `scancel`;
//! [`Slurm`] is the executor ([`crate::Executor`]) that hands work to them.

mod error;
mod executor;
pub mod sbatch;
pub mod search;
mod status;
pub mod trials;

pub(crate) use error::Error;
pub use executor::{SearchUnit, Slurm};
pub(crate) use executor::{has_maps, map_status};
pub(crate) use executor::{run_chunk, submission_kind};
pub use status::status_lines;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The folder under an experiment or a run that holds the cluster's state: named by
/// `run`, whose lock walk passes over it, a floor below.
pub use playtune::run::CLUSTER_DIR;

/// The folder of a cluster folder's task logs.
pub(crate) const LOGS_DIR: &str = "logs";

/// `CLUSTER/submission-K.ron`: the K-th array submitted from a cluster folder.
pub(crate) fn submission_path(cluster: &Path, k: usize) -> PathBuf {
    cluster.join(format!("submission-{k}.ron"))
}

/// `CLUSTER/logs/JOB_TASK.out`: what array task `task` of Slurm job `job` printed.
pub(crate) fn task_log(cluster: &Path, job: &str, task: usize) -> PathBuf {
    cluster.join(LOGS_DIR).join(format!("{job}_{task}.out"))
}

/// A cluster folder's submissions in order, up to the first number missing.
pub(crate) fn read_submissions<S: serde::de::DeserializeOwned>(
    cluster: &Path,
) -> Result<Vec<S>, Error> {
    let mut out = Vec::new();
    for k in 0.. {
        let path = submission_path(cluster, k);
        if !path.exists() {
            break;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::file(&path, e))?;
        out.push(ron::from_str(&text).map_err(|e| Error::parse(&path, e))?);
    }
    Ok(out)
}

/// A folder whose `slurm/` holds the cluster's state: an experiment's, whose searches
/// run a trial a task ([`trials`]), or a run's, whose batches run a chunk a task
/// ([`search`]). Each of them adds what its own layout holds.
pub(crate) struct Folder {
    pub(crate) home: PathBuf,
}

impl Folder {
    pub(crate) fn new(home: &Path) -> Folder {
        Folder {
            home: home.to_path_buf(),
        }
    }
    /// `HOME/slurm`.
    pub(crate) fn cluster(&self) -> PathBuf {
        self.home.join(CLUSTER_DIR)
    }
    pub(crate) fn submission(&self, k: usize) -> PathBuf {
        submission_path(&self.cluster(), k)
    }
    pub(crate) fn log_of(&self, job: &str, task: usize) -> PathBuf {
        task_log(&self.cluster(), job, task)
    }
    pub(crate) fn job_name(&self) -> String {
        job_name(&self.home)
    }

    /// Submits array `k` of `tasks` tasks from `HOME/slurm` (see [`submit_array`]);
    /// `submission(job, submitted_at)` is what its submission file holds.
    pub(crate) fn submit<S: serde::Serialize>(
        &self,
        k: usize,
        tasks: usize,
        about: String,
        options: &SlurmOptions,
        submission: impl Fn(Option<String>, u64) -> S,
    ) -> Result<String, Error> {
        let submitted_at = now();
        let array = Array {
            cluster: &self.cluster(),
            k,
            job_name: &self.job_name(),
            tasks,
            about,
        };
        submit_array(&array, options, |job| submission(job, submitted_at))
    }
}

/// The Slurm job name of everything submitted for `folder` (an experiment's or a
/// run's), from its name.
pub(crate) fn job_name(folder: &Path) -> String {
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    sbatch::job_name(&name)
}

/// How to use the cluster.
#[derive(Clone, Debug)]
pub struct SlurmOptions {
    /// Extra `sbatch` options (partition, time limit, account, ...).
    pub args: Vec<String>,
    /// Wait for the tasks and collect (false: submit and return).
    pub wait: bool,
    /// The longest time between two looks at the queue while waiting (the first looks
    /// come sooner: a short array is not kept waiting for a long poll).
    pub poll: Duration,
    /// The command every task runs, as words: the `playtune` binary, or a Python with
    /// the wheel (`python -m playtune`). It must be reachable from the nodes.
    pub program: Vec<String>,
    /// Print progress on standard error.
    pub progress: bool,
    /// Set by the caller to stop waiting (Ctrl-C in a Python session): the wait ends
    /// at its next look at the queue, the tasks go on, and the same call again
    /// collects them.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Writes a file whole or not at all: a temporary file (of this process: two tasks
/// of one chunk never share one) renamed into place.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    playtune::run::lock::write_whole(path, bytes).map_err(|e| Error::file(path, e))
}

/// The last lines of a file.
pub(crate) fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

pub(crate) fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Quotes a word for `sh`.
pub(crate) fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// One array to submit: where its files go and what its tasks run.
pub(crate) struct Array<'a> {
    /// The folder of its submission file (`<folder>/slurm`, or a map's folder): each
    /// task is `playtune task CLUSTER --submission K`.
    pub(crate) cluster: &'a Path,
    pub(crate) k: usize,
    pub(crate) job_name: &'a str,
    pub(crate) tasks: usize,
    /// A comment for the batch script.
    pub(crate) about: String,
}

/// Writes the K-th submission file (its work, no job id yet) and its batch script,
/// submits the array, and writes the file again with Slurm's job id. A failed
/// `sbatch` leaves no submission file, so the next call numbers its own the same.
pub(crate) fn submit_array<S: serde::Serialize>(
    array: &Array,
    options: &SlurmOptions,
    submission: impl Fn(Option<String>) -> S,
) -> Result<String, Error> {
    let folder = std::fs::canonicalize(array.cluster)?;
    let logs = array.cluster.join(LOGS_DIR);
    std::fs::create_dir_all(&logs).map_err(|e| Error::file(&logs, e))?;
    let logs = std::fs::canonicalize(logs)?;
    let path = submission_path(array.cluster, array.k);
    let write = |job: Option<String>| {
        let text = ron::ser::to_string_pretty(&submission(job), ron::ser::PrettyConfig::default())?;
        write_atomic(&path, text.as_bytes())
    };
    write(None)?;
    let script = array.cluster.join(format!("submission-{}.sh", array.k));
    // The job's name and the tasks' output files go on sbatch's command line.
    let text = format!(
        "#!/bin/sh\n\
         #SBATCH --cpus-per-task=1\n\
         # {about}\n\
         exec {program} task {folder} --submission {k}\n",
        about = array.about,
        program = options
            .program
            .iter()
            .map(|w| sh_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
        folder = sh_quote(&folder.display().to_string()),
        k = array.k,
    );
    write_atomic(&script, text.as_bytes())?;
    match sbatch::submit(
        &script,
        array.tasks,
        array.job_name,
        &logs.join("%A_%a.out"),
        &options.args,
    ) {
        Ok(job) => {
            write(Some(job.clone()))?;
            Ok(job)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            Err(e.into())
        }
    }
}

/// Waits until no task of `jobs` is in the queue, looking sooner at first and then
/// every `options.poll`; a line on standard error when the counts change. The error
/// is the caller's (what `jobs` reads is the caller's files).
pub(crate) fn wait_for<E: From<sbatch::SlurmError>>(
    job_name: &str,
    jobs: &dyn Fn() -> Result<Vec<String>, E>,
    options: &SlurmOptions,
) -> Result<(), E> {
    let mut pause = Duration::from_millis(250).min(options.poll);
    let mut last_line = String::new();
    let started = Instant::now();
    let mut refused = 0;
    loop {
        if options
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst))
        {
            return Err(sbatch::SlurmError::Stopped.into());
        }
        let jobs = jobs()?;
        // A busy or restarting controller refuses now and then: try again a few
        // times before giving up (the tasks go on either way).
        let queue = match sbatch::queue(job_name) {
            Ok(q) => {
                refused = 0;
                q
            }
            Err(e @ sbatch::SlurmError::Failed { .. }) if refused < 5 => {
                refused += 1;
                if options.progress {
                    eprintln!("{e}; trying again");
                }
                std::thread::sleep(options.poll);
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let ours: Vec<&sbatch::Queued> = queue.iter().filter(|q| jobs.contains(&q.job)).collect();
        if ours.is_empty() {
            return Ok(());
        }
        let running = ours.iter().filter(|q| q.is_running()).count();
        let line = format!(
            "waiting for {} task(s): {running} running, {} pending",
            ours.len(),
            ours.len() - running
        );
        if options.progress && line != last_line {
            eprintln!("{line} [{:.0} s]", started.elapsed().as_secs_f64());
            last_line = line;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(options.poll);
    }
}
