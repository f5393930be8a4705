//! playtune's pictures ([`plot`]: every chart, heatmap and picture of a run folder) and
//! report pages.
//!
//! [`report`] writes one self-contained HTML page a game designer reads, for a run
//! folder (configuration, run summary, recommendation, convergence, parameter
//! importance; for MAP-Elites the archive and its metric history) or an experiment's
//! folder (its Markdown tables, its figures, its runs).
//!
//! Pictures are drawn by `plot::run` (what `playtune plot` draws) into a temporary folder and embedded
//! as `data:` URIs; the page has no script and refers to no other file.

pub mod plot;

mod elites;
mod experiment_page;
mod html;
pub mod importance;
mod run_page;
mod settings;

pub(crate) use html::markdown;
pub(crate) use importance::{ValueStats, one_tuple_stats};
pub(crate) use settings::algorithm_flags;

use experiment_page::experiment_report;
use html::{Section, escape, figure, key_values, num, table};
use playtune::eval::Problem;
use playtune::run::failures::read_failures;
use playtune::run::files::{FAILURES_FILE, LOG_FILE};
use playtune::run::log::read_log;
use playtune::run::{CONFIG_FILE, RESULT_FILE, RunConfig, RunResult, TrialResult};
use run_page::{estimate_html, point_text, run_report};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Why a folder cannot be reported.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A folder that does not exist.
    #[error("{}: no such folder", .0.display())]
    NoSuchFolder(PathBuf),
    /// A run folder without its result.
    #[error("{}: the run has not finished (no {RESULT_FILE}); {how}, then report it", dir.display())]
    NotFinished {
        /// The run folder.
        dir: PathBuf,
        /// How to finish it.
        how: String,
    },
    /// A folder that is neither a run's nor an experiment's.
    #[error(
        "{}: not a run folder (no {CONFIG_FILE}) nor an experiment's folder (no *.md tables, run folders or figures in {})",
        dir.display(),
        plots.display()
    )]
    NotAReportFolder {
        /// The folder.
        dir: PathBuf,
        /// Where its figures would be.
        plots: PathBuf,
    },
    /// The run's files do not read.
    #[error(transparent)]
    Run(#[from] playtune::run::RunError),
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] playtune_harness::draw::PlotError),
    /// A file or folder that cannot be read or written.
    #[error("{what}: {source}")]
    Io {
        /// What was being read or written.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

impl From<std::io::Error> for Error {
    fn from(source: std::io::Error) -> Error {
        Error::Io {
            what: "cannot read a picture".into(),
            source,
        }
    }
}

type Result<T> = std::result::Result<T, Error>;

/// A temporary folder for the pictures, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir> {
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "playtune-report-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
            what: format!("cannot create {}", dir.display()),
            source,
        })?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The page for `dir`: a run folder (with `config.ron`) or an experiment's folder (its
/// `*.md` tables, run folders inside it, and the PNG figures in `plots`, by default
/// `plots/<name>` or the `plots/` twin of a folder under `runs/`).
pub fn report(dir: &Path, plots: Option<&Path>) -> Result<String> {
    if !dir.is_dir() {
        return Err(Error::NoSuchFolder(dir.to_path_buf()));
    }
    if dir.join(CONFIG_FILE).is_file() {
        return run_report(dir);
    }
    experiment_report(dir, plots)
}

/// The folder's own name (a run's name), its path made whole first.
fn folder_name(dir: &Path) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "run".into())
}
