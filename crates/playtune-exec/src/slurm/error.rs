//! Why work on the cluster could not be submitted, run or collected. A message names
//! the file or folder at fault; flags belong to the command line (Slurm's own
//! refusals, [`SlurmError`], still name `--slurm-args` and `--executor`).

use super::sbatch::SlurmError;
use playtune::run::RunError;
use std::path::PathBuf;

/// An error of the cluster layer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Talking to Slurm failed.
    #[error(transparent)]
    Slurm(#[from] SlurmError),
    /// A run folder's files, a replay or a run on a task.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A problem that does not build.
    #[error(transparent)]
    Registry(#[from] playtune::registry::Error),
    /// A file or folder that cannot be read, written, created or removed.
    #[error("{}: {source}", path.display())]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A filesystem call whose error names no path (as `std` gives it).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A file of ours that does not parse as RON.
    #[error(transparent)]
    Parse(#[from] playtune::run::ParseError),
    /// A line of a results file that is not an answer: `path:line: message`.
    #[error("{}:{line}: {source}", path.display())]
    Answer {
        path: PathBuf,
        line: usize,
        source: serde_json::Error,
    },
    /// What we write that does not serialise.
    #[error(transparent)]
    Encoding(Box<ron::Error>),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A folder without the searches a cluster run writes there.
    #[error("{}: {source} (no searches were run on the cluster here)", path.display())]
    NoSearches {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A folder that holds searches other than those asked for.
    #[error(
        "{} holds other searches (other settings, trials, budget or seed): give this experiment another name, or delete {}",
        path.display(),
        home.display()
    )]
    OtherSearches { path: PathBuf, home: PathBuf },
    /// A search whose run folder is not under the folder that holds the cluster's
    /// state.
    #[error("{}: a search on the cluster runs in a folder under {}", dir.display(), home.display())]
    OutsideHome { dir: PathBuf, home: PathBuf },
    /// One search (by name) or one of its trials that stopped.
    #[error("{name}: {source}")]
    Search { name: String, source: Box<RunError> },
    /// Trials whose tasks ended without finishing them (`tails`: their log tails).
    #[error(
        "{missing} of {total} trial(s) did not finish on the cluster; run the same command again to resubmit only those:{tails}"
    )]
    TrialsUnfinished {
        missing: usize,
        total: usize,
        tails: String,
    },
    /// Tasks of a round of a search that ended without results (`tails`: their log
    /// tails); the round is marked, so the next call submits their candidates again.
    #[error(
        "{tasks} task(s) of round {round} ended without results; `playtune resume {} --executor slurm` submits their candidates again:{tails}",
        dir.display()
    )]
    RoundUnfinished {
        tasks: usize,
        round: usize,
        dir: PathBuf,
        tails: String,
    },
    /// A search on the cluster asked to use no task per round.
    #[error("tasks 0: give at least one task per round")]
    NoTasks,
    /// A task's folder that is not `HOME/slurm`.
    #[error("{}: not a cluster folder", .0.display())]
    NotAClusterFolder(PathBuf),
    /// A task of a submission whose file is not there.
    #[error("{}: no such submission", .0.display())]
    NoSuchSubmission(PathBuf),
    /// A task of a search's round whose file is not there.
    #[error("{}: no such round", .0.display())]
    NoSuchRound(PathBuf),
    /// A task index past its submission's (`what`: "submission 3", "round 3").
    #[error("task {index}: {what} has {tasks} tasks")]
    NoSuchTask {
        index: usize,
        what: String,
        tasks: usize,
    },
    /// A run's search space that does not fit its problem.
    #[error(transparent)]
    Binding(#[from] playtune::eval::BindingError),
}

impl Error {
    pub(crate) fn file(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::File {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn parse(path: impl Into<PathBuf>, source: ron::error::SpannedError) -> Error {
        Error::Parse(playtune::run::ParseError::new(path, source))
    }

    pub(crate) fn search(name: impl Into<String>, source: RunError) -> Error {
        Error::Search {
            name: name.into(),
            source: Box::new(source),
        }
    }
}

impl From<ron::Error> for Error {
    fn from(e: ron::Error) -> Error {
        Error::Encoding(Box::new(e))
    }
}
