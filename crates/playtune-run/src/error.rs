//! Why a run could not go on: [`RunError`], and where a file does not parse.

use super::*;

/// Why a run could not start, or stopped early. Messages name settings as
/// `config.ron` does, never a command-line flag: the command line adds the flag.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The run's configuration does not fit its problem.
    #[error("{0}")]
    Config(String),
    /// The optimiser's settings or what it is given to search.
    #[error(transparent)]
    Optimizer(#[from] playtune_optim::optim::Error),
    /// The fault policy (`faults` in `config.ron`) out of range.
    #[error("{setting}: {value}: {expected}")]
    Faults {
        /// The setting, as `config.ron` names it.
        setting: &'static str,
        /// Its value, as text.
        value: String,
        /// What to give instead.
        expected: String,
    },
    /// A run of no trials.
    #[error("trials is 0: run at least one trial")]
    NoTrials,
    /// One trial asked for that the run does not have.
    #[error("trial {trial} does not exist: the run has {trials} trials")]
    NoSuchTrial {
        /// The trial asked for.
        trial: u64,
        /// The run's trials.
        trials: u64,
    },
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
        /// Evaluations failed.
        failed: u64,
        /// Evaluations attempted.
        attempted: u64,
        /// The share of failures the run allows (`faults.max_failures`).
        share: f64,
        /// The last failure's trial.
        trial: u64,
        /// The last failure's index in its trial.
        index: u64,
        /// Why the last failure failed.
        last: String,
    },
    #[error(
        "every one of the {attempted} evaluations of trial {trial} failed, so it has nothing to recommend (whatever max_failures allows); the last (evaluation {index}): {last}"
    )]
    /// A trial whose every evaluation failed: it has nothing to recommend.
    NothingSucceeded {
        /// Its evaluations, every one failed.
        attempted: u64,
        /// The trial.
        trial: u64,
        /// Its last evaluation's index.
        index: u64,
        /// Why that one failed.
        last: String,
    },
    /// A folder (or file) another playtune command is writing: `what`, or the folder
    /// enclosing `inside`.
    #[error("{}", lock::busy_text(what, holder, inside.as_deref()))]
    Busy {
        /// The folder or file held.
        what: PathBuf,
        /// Who holds it, as its lock says.
        holder: String,
        /// The folder asked for, where a folder enclosing it is held.
        inside: Option<PathBuf>,
    },
    #[error("{}: no such folder", .0.display())]
    /// A folder that does not exist.
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
        /// The file.
        file: PathBuf,
        /// The value, as the file names it.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The run's game (`config.ron`'s `game`) is not the game its settings name now:
    /// another description or Python game under the same name or path.
    #[error(
        "the run played the game `{}` (fingerprint {}), and its settings now name {}: evaluations of two games would mix in one run; resume it where its game is (the same folder, the same file), or start a new run",
        recorded.name,
        recorded.fingerprint,
        now.as_ref().map_or("a built-in game".to_string(), |g| format!("`{}` (fingerprint {}), another game", g.name, g.fingerprint))
    )]
    OtherGame {
        // Boxed: an identity carries the game's recorded description, and every
        // `Result` of the crate carries this error.
        /// The game the run played.
        recorded: Box<playtune_optim::eval::GameIdentity>,
        /// The game its settings name now; `None`: a built-in game.
        now: Option<Box<playtune_optim::eval::GameIdentity>>,
    },
    /// An evaluation handed in to be recorded (`tell`, a cluster task's rows) with a
    /// result the log would not take back: recording it would lose it.
    #[error("trial {trial}, evaluation {index}: {why}; nothing was recorded")]
    Unusable {
        /// The evaluation's trial.
        trial: u64,
        /// Its index in the trial.
        index: u64,
        /// What is wrong with its result.
        why: NotFinite,
    },
    /// A run's file that is a link, a folder, a device or a file with other names:
    /// refused, never followed (see [`files`]).
    #[error(transparent)]
    NotPlain(#[from] files::NotPlain),
    /// A run driven by an optimiser of a program's own (`config.ron`'s `algorithm:
    /// Own(...)`, see [`execute_own`]), read where only playtune's own optimisers run.
    #[error(
        "{}: the run was driven by `{name}`, an optimiser of a program's own, not one of playtune's: the program that started it resumes it (`playtune::run::resume_own`)",
        file.display()
    )]
    OwnOptimizer {
        /// The run's `config.ron`.
        file: PathBuf,
        /// The optimiser's name.
        name: String,
    },
    /// A run resumed with an optimiser other than the one its `config.ron` records:
    /// its log replays only into the optimiser that wrote it.
    #[error(
        "{}: the run was driven by {recorded}, and is now given {now}: a run's log replays only into the optimiser that wrote it; resume it with that optimiser, or start a new run",
        file.display()
    )]
    OtherOptimizer {
        /// The run's `config.ron`.
        file: PathBuf,
        /// The optimiser it records, in words.
        recorded: String,
        /// The optimiser given now, in words.
        now: String,
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
    /// The file.
    pub path: PathBuf,
    /// Where and why it does not parse.
    pub source: Box<ron::error::SpannedError>,
}

impl ParseError {
    /// The error `source` of the file `path`.
    pub fn new(path: impl Into<PathBuf>, source: ron::error::SpannedError) -> ParseError {
        ParseError {
            path: path.into(),
            source: Box::new(source),
        }
    }
}

pub(crate) fn io(e: impl std::fmt::Display) -> RunError {
    RunError::Io(e.to_string())
}

/// An I/O error of writing `path` (`doing`: "write", "repair", ...): the typed
/// [`RunError::NotPlain`] where a run's file was refused as not plain, which names the
/// file itself, else the error with the file named.
pub(crate) fn write_error(doing: &str, path: &Path, e: std::io::Error) -> RunError {
    match files::not_plain(&e) {
        Some(n) => RunError::NotPlain(n.clone()),
        None => RunError::Io(format!("cannot {doing} {}: {e}", path.display())),
    }
}
