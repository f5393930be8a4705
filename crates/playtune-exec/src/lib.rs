//! Where playtune's work runs, and how a run starts.
//!
//! A run is created in one sequence ([`prepare::start::create_run`]: the problem and
//! its space, the race and the verdict, the ladder built or checked, the cost said, the
//! folder written), which the command line and the Python package both call. Every
//! experiment and search is handed one [`Executor`] and never
//! asks which it is: [`Local`] computes here, over this machine's cores; [`Slurm`]
//! hands the work to a cluster as job arrays and collects what the tasks wrote. Two
//! kinds of work go through it:
//!
//! - independent [`Task`]s ([`map`], `map_each`): re-evaluations, the games of a
//!   tournament, validations. Each task carries everything it needs, its seed
//!   included, so its output is the same wherever it runs; outputs come back in task
//!   order.
//! - searches ([`Executor::search`]): run folders driven to their end (their logs are
//!   the local run's logs, row for row).
//!
//! The executor decides the unit of an array task (a chunk of tasks, one trial of a
//! search, or a chunk of a search's batch). A task kind is a [`Task`] type, registered
//! for the cluster's workers by one line in the table the command line hands to
//! [`run_worker`].
//!
//! Long work shows its progress on a terminal ([`progress`]).

pub mod prepare;
pub mod progress;
pub mod slurm;
pub(crate) mod tasks;

pub use slurm::{SearchUnit, Slurm};
pub use tasks::{Evaluate, TournamentGame, tournament};

use playtune::eval::Problem;
pub use playtune::harness::error::BoxError;
use playtune::run::{self, RunConfig, RunResult};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why work did not get done.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// A task failed: its own error, as [`Task::run`] gave it (match it with
    /// `downcast_ref` to the task's error type).
    #[error(transparent)]
    Task(BoxError),
    /// A task that ran and gave no output (a bug of the executor, never the task's).
    #[error("{label}: task {task} gave no output")]
    NoOutput {
        /// The work's label.
        label: String,
        /// The task's index.
        task: usize,
    },
    /// A task or its output that does not go into one line of RON.
    #[error("{0}")]
    Encoding(Box<ron::Error>),
    /// A line of RON that is not what was written (a task's output, most likely).
    #[error("{0}")]
    Decoding(Box<ron::error::SpannedError>),
    /// A search stopped.
    #[error("{name}: {source}")]
    Run {
        /// The search's name.
        name: String,
        #[source]
        /// Why it stopped.
        source: run::RunError,
    },
    /// A file of the executor's own that cannot be read or written: `PATH: why`.
    #[error("{}: {message}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A refusal of the Slurm tools or of the extra sbatch options.
    #[error(transparent)]
    Slurm(#[from] crate::slurm::sbatch::SlurmError),
    /// What the cluster code reports (its own messages name the folder).
    #[error(transparent)]
    Cluster(#[from] crate::slurm::Error),
    /// A search on the cluster that stopped part way.
    #[error("run {} stopped; its log keeps every evaluation recorded: {source}", dir.display())]
    Stopped {
        /// The run folder.
        dir: PathBuf,
        /// What the cluster code reported.
        source: Box<crate::slurm::Error>,
    },
    /// A tournament asked to play no game.
    #[error("a tournament of 0 games of `{game}`: play at least one")]
    NoGames {
        /// The game.
        game: String,
    },
    /// A problem or game the registry does not build.
    #[error(transparent)]
    Registry(#[from] playtune::registry::Error),
    /// A game, its settings or its agents refused by the harness.
    #[error(transparent)]
    Harness(#[from] playtune::harness::Error),
    /// Evaluating a run's recorded failures again, asked of an executor that only
    /// runs searches from their logs.
    #[error("evaluating recorded failures again runs on the local executor")]
    RetryNeedsLocal,
    /// Tasks that ended without their output; the same call again submits only them.
    #[error(
        "{}: {missing} of {total} task(s) of `{label}` ended without results; the same command again submits only those:{tails}",
        folder.display()
    )]
    Unfinished {
        /// The folder the work went to.
        folder: PathBuf,
        /// The work's label.
        label: String,
        /// Tasks without output.
        missing: usize,
        /// Tasks in all.
        total: usize,
        /// The last lines of the failed tasks' logs.
        tails: String,
    },
    /// Work was submitted and the caller asked not to wait for it.
    #[error("{}: submitted {tasks} task(s){}; the same command again collects them", folder.display(), job.as_ref().map(|j| format!(" as Slurm job {j}")).unwrap_or_default())]
    Submitted {
        /// The folder the work went to.
        folder: PathBuf,
        /// Tasks submitted.
        tasks: usize,
        /// Slurm's job id, where it gave one.
        job: Option<String>,
    },
    /// A worker was given a task kind no table entry knows.
    #[error("{}: task kind `{kind}` is not one this playtune knows (known: {known})", folder.display())]
    UnknownKind {
        /// The cluster folder.
        folder: PathBuf,
        /// The kind its submission names.
        kind: String,
        /// The kinds the worker's table has.
        known: String,
    },
}

impl From<ron::Error> for ExecError {
    fn from(e: ron::Error) -> ExecError {
        ExecError::Encoding(Box::new(e))
    }
}

impl From<ron::error::SpannedError> for ExecError {
    fn from(e: ron::error::SpannedError) -> ExecError {
        ExecError::Decoding(Box::new(e))
    }
}

impl ExecError {
    /// A [`ExecError::File`] naming `path`.
    pub fn file(path: &Path, e: impl std::fmt::Display) -> ExecError {
        ExecError::File {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

/// One piece of independent work: serialisable, so that a cluster's task can read
/// it, and carrying its own seed, so that its output does not depend on where or
/// beside what it runs.
pub trait Task: Serialize + DeserializeOwned + Sync {
    /// The kind's stable name: it is written into the cluster's files.
    const KIND: &'static str;
    /// What a task gives back.
    type Output: Serialize + DeserializeOwned + Send;
    /// The task's output, or its own error boxed (a caller gets it back in
    /// [`ExecError::Task`]).
    fn run(&self) -> Result<Self::Output, BoxError>;
}

/// A search to drive to its end in its run folder (made by the caller).
pub struct Search<'a> {
    /// For messages ("RMHC").
    pub name: String,
    /// The run folder.
    pub dir: PathBuf,
    /// The run's settings.
    pub config: RunConfig,
    /// The problem it searches.
    pub problem: &'a dyn Problem,
}

/// How searches run.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchOptions {
    /// Progress bars on standard error.
    pub progress: bool,
    /// Evaluate again what `failures.jsonl` records as failed.
    pub retry_failed: bool,
}

/// Tasks of one kind, type-erased so that an executor is an object: it computes a
/// task here, or writes it out and reads its output back.
pub trait Work: Sync {
    /// The task kind's stable name ([`Task::KIND`]).
    fn kind(&self) -> &'static str;
    /// Names the work in the cluster's files and in messages; stable across calls.
    fn label(&self) -> &str;
    /// How many tasks.
    fn len(&self) -> usize;
    /// Whether there is no task.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Computes task `i` here.
    fn run_here(&self, i: usize) -> Result<(), ExecError>;
    /// Task `i` as one line of text.
    fn encode(&self, i: usize) -> Result<String, ExecError>;
    /// Takes task `i`'s output as a worker wrote it.
    fn accept(&self, i: usize, output: &str) -> Result<(), ExecError>;
}

/// Where work runs.
pub trait Executor: Sync {
    /// Computes every task of `work`, each output handed to it.
    fn run(&self, work: &dyn Work) -> Result<(), ExecError>;
    /// Drives each search to its end; results in the order given.
    fn search(
        &self,
        searches: &[Search<'_>],
        options: SearchOptions,
    ) -> Result<Vec<RunResult>, ExecError>;
    /// Work submitted without waiting for it: (folder, tasks, job). Only the command
    /// line asks, to say where the work went.
    fn submitted(&self) -> Vec<(PathBuf, usize, Option<String>)> {
        Vec::new()
    }
}

/// Every machine core, here.
pub struct Local;

impl Executor for Local {
    fn run(&self, work: &dyn Work) -> Result<(), ExecError> {
        (0..work.len())
            .into_par_iter()
            .try_for_each(|i| work.run_here(i))
    }

    fn search(
        &self,
        searches: &[Search<'_>],
        options: SearchOptions,
    ) -> Result<Vec<RunResult>, ExecError> {
        searches
            .iter()
            .map(|s| {
                let bar = options
                    .progress
                    .then(|| crate::progress::SearchBar::new(&s.dir));
                run::execute_with(
                    Some(&s.dir),
                    &s.config,
                    s.problem,
                    run::Options {
                        progress: bar.as_ref().map(|b| b as &dyn run::Progress),
                        retry_failed: options.retry_failed,
                        only_trial: None,
                    },
                )
                .map_err(|source| ExecError::Run {
                    name: s.name.clone(),
                    source,
                })
            })
            .collect()
    }
}

/// What hears each output of a map as it arrives: (task index, output). Its error
/// (a file it could not write, mostly) stops the map.
pub(crate) type Keep<'a, O> = dyn Fn(usize, &O) -> Result<(), ExecError> + Sync + 'a;

/// Runs `tasks` on `exec`; outputs in task order.
pub fn map<T: Task>(
    exec: &dyn Executor,
    label: &str,
    tasks: &[T],
) -> Result<Vec<T::Output>, ExecError> {
    map_each(exec, label, tasks, &|_, _| Ok(()))
}

/// As [`map`], and `done(i, output)` hears each output as it arrives (here: as its
/// task finishes; from a cluster: as it is collected), so that a caller can keep it
/// before the rest are done.
pub fn map_each<T: Task>(
    exec: &dyn Executor,
    label: &str,
    tasks: &[T],
    done: &Keep<T::Output>,
) -> Result<Vec<T::Output>, ExecError> {
    if tasks.is_empty() {
        return Ok(Vec::new());
    }
    let work = Typed {
        label,
        tasks,
        outputs: Mutex::new((0..tasks.len()).map(|_| None).collect()),
        done,
    };
    exec.run(&work)?;
    let outputs = work.outputs.into_inner().unwrap_or_else(|e| e.into_inner());
    outputs
        .into_iter()
        .enumerate()
        .map(|(i, o)| {
            o.ok_or_else(|| ExecError::NoOutput {
                label: label.to_string(),
                task: i,
            })
        })
        .collect()
}

struct Typed<'a, T: Task> {
    label: &'a str,
    tasks: &'a [T],
    outputs: Mutex<Vec<Option<T::Output>>>,
    done: &'a Keep<'a, T::Output>,
}

impl<T: Task> Typed<'_, T> {
    fn keep(&self, i: usize, output: T::Output) -> Result<(), ExecError> {
        (self.done)(i, &output)?;
        self.outputs.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(output);
        Ok(())
    }
}

impl<T: Task> Work for Typed<'_, T> {
    fn kind(&self) -> &'static str {
        T::KIND
    }
    fn label(&self) -> &str {
        self.label
    }
    fn len(&self) -> usize {
        self.tasks.len()
    }
    fn run_here(&self, i: usize) -> Result<(), ExecError> {
        let output = self.tasks[i].run().map_err(ExecError::Task)?;
        self.keep(i, output)
    }
    fn encode(&self, i: usize) -> Result<String, ExecError> {
        Ok(encode(&self.tasks[i])?)
    }
    fn accept(&self, i: usize, output: &str) -> Result<(), ExecError> {
        let output: T::Output = ron::from_str(output)?;
        self.keep(i, output)
    }
}

/// One value as one line of RON (floats round-trip exactly, NaN included).
pub(crate) fn encode<S: Serialize>(value: &S) -> Result<String, ron::Error> {
    let text = ron::to_string(value)?;
    debug_assert!(!text.contains('\n'));
    Ok(text)
}

/// What a cluster's worker runs for one array task of one kind: the folder of the
/// array, the submission and the task's index; a line for the task's log.
pub(crate) type WorkerFn = fn(&Path, usize, usize) -> Result<String, ExecError>;

/// A task kind a worker knows: its name and what runs it.
pub struct Kind {
    /// The task kind's name ([`Task::KIND`]).
    name: &'static str,
    /// Runs one array task of the kind.
    run: WorkerFn,
}

impl Kind {
    /// One trial of one search a task ([`slurm::trials`]).
    pub const SEARCH_TRIAL: Kind = Kind {
        name: slurm::trials::KIND,
        run: |dir, k, index| slurm::trials::run_task(dir, k, index).map_err(ExecError::Cluster),
    };
    /// A chunk of one search's batch a task ([`slurm::search`]).
    pub const SEARCH_BATCH: Kind = Kind {
        name: slurm::search::KIND,
        run: |dir, k, index| {
            slurm::search::run_batch_task(dir, k, index).map_err(ExecError::Cluster)
        },
    };

    /// A [`Task`] type, run in chunks by [`Slurm`]'s arrays.
    pub const fn of<T: Task>() -> Kind {
        Kind {
            name: T::KIND,
            run: slurm::run_chunk::<T>,
        }
    }
}

/// Runs array task `index` of submission `k` in `folder`: the submission names its
/// kind, `kinds` says what runs it.
pub fn run_worker(
    kinds: &[Kind],
    folder: &Path,
    k: usize,
    index: usize,
) -> Result<String, ExecError> {
    let kind = slurm::submission_kind(folder, k)?;
    let entry = kinds
        .iter()
        .find(|e| e.name == kind)
        .ok_or_else(|| ExecError::UnknownKind {
            folder: folder.to_path_buf(),
            kind: kind.clone(),
            known: kinds.iter().map(|e| e.name).collect::<Vec<_>>().join(", "),
        })?;
    (entry.run)(folder, k, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// A task whose output says which task it was; 13 fails.
    #[derive(Serialize, Deserialize)]
    struct Square(u64);

    impl Task for Square {
        const KIND: &'static str = "square";
        type Output = f64;
        fn run(&self) -> Result<f64, BoxError> {
            if self.0 == 13 {
                return Err("13 is unlucky".into());
            }
            Ok((self.0 * self.0) as f64)
        }
    }

    #[test]
    fn local_outputs_come_in_task_order_each_heard_once() {
        let tasks: Vec<Square> = (0..300).filter(|&i| i != 13).map(Square).collect();
        let heard = Mutex::new(vec![0; tasks.len()]);
        let out = map_each(&Local, "squares", &tasks, &|i, o| {
            assert_eq!(*o, (tasks[i].0 * tasks[i].0) as f64);
            heard.lock().unwrap()[i] += 1;
            Ok(())
        })
        .unwrap();
        let want: Vec<f64> = tasks.iter().map(|s| (s.0 * s.0) as f64).collect();
        assert_eq!(out, want);
        assert!(heard.into_inner().unwrap().iter().all(|&n| n == 1));
        assert!(
            map(&Local, "none", &Vec::<Square>::new())
                .unwrap()
                .is_empty()
        );
        // A task's failure is the map's, with the task's own message.
        let e = map(&Local, "squares", &[Square(2), Square(13)]).unwrap_err();
        assert!(
            matches!(&e, ExecError::Task(m) if m.to_string().contains("13 is unlucky")),
            "{e}"
        );
        // A failure heard by the caller stops the map too.
        let e = map_each(&Local, "squares", &[Square(1)], &|_, _| {
            Err(ExecError::file(Path::new("out"), "full disk"))
        });
        assert!(e.unwrap_err().to_string().contains("full disk"));
    }

    #[test]
    fn values_are_one_line_and_floats_round_trip() {
        for x in [0.1 + 0.2, f64::NAN, f64::INFINITY, -0.0, 1e-300] {
            let text = encode(&(x, "two\nlines")).unwrap();
            assert!(!text.contains('\n'), "{text}");
            let (y, s): (f64, String) = ron::from_str(&text).unwrap();
            assert!(
                x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
                "{x} {y}"
            );
            assert_eq!(s, "two\nlines");
        }
    }
}
