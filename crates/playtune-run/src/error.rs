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
        setting: &'static str,
        value: String,
        expected: String,
    },
    /// A run of no trials.
    #[error("trials is 0: run at least one trial")]
    NoTrials,
    /// One trial asked for that the run does not have.
    #[error("trial {trial} does not exist: the run has {trials} trials")]
    NoSuchTrial { trial: u64, trials: u64 },
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
        failed: u64,
        attempted: u64,
        share: f64,
        trial: u64,
        index: u64,
        last: String,
    },
    #[error(
        "every one of the {attempted} evaluations of trial {trial} failed, so it has nothing to recommend (whatever max_failures allows); the last (evaluation {index}): {last}"
    )]
    NothingSucceeded {
        attempted: u64,
        trial: u64,
        index: u64,
        last: String,
    },
    /// A folder (or file) another playtune command is writing: `what`, or the folder
    /// enclosing `inside`.
    #[error("{}", lock::busy_text(what, holder, inside.as_deref()))]
    Busy {
        what: PathBuf,
        holder: String,
        inside: Option<PathBuf>,
    },
    #[error("{}: no such folder", .0.display())]
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
        file: PathBuf,
        field: String,
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
        recorded: Box<playtune_optim::eval::GameIdentity>,
        now: Option<Box<playtune_optim::eval::GameIdentity>>,
    },
    /// An evaluation handed in to be recorded (`tell`, a cluster task's rows) with a
    /// result the log would not take back: recording it would lose it.
    #[error("trial {trial}, evaluation {index}: {why}; nothing was recorded")]
    Unusable {
        trial: u64,
        index: u64,
        why: NotFinite,
    },
    /// A run's file that is a link, a folder, a device or a file with other names:
    /// refused, never followed (see [`files`]).
    #[error(transparent)]
    NotPlain(#[from] files::NotPlain),
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
    pub path: PathBuf,
    pub source: Box<ron::error::SpannedError>,
}

impl ParseError {
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
