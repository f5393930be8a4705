//! Why an experiment could not run: a lower layer's error as that layer gave it, a
//! file of the experiment's that cannot be read or written (the message names it),
//! or a check the experiment makes itself. Messages name the setting (`games`,
//! `cells`, `baseline`), never a command-line flag: the command line adds those.

use playtune::run::RunError;
use std::path::PathBuf;

/// An error of an experiment.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A run folder, its files or a search's run.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Work handed to the executor (searches, re-evaluations, tournaments).
    #[error(transparent)]
    Exec(#[from] playtune_exec::ExecError),
    /// A game, its settings or its agents refused by the harness.
    #[error(transparent)]
    Harness(#[from] playtune::harness::Error),
    /// A setting refused by its owner.
    #[error(transparent)]
    Setting(#[from] playtune::harness::SettingError),
    /// A problem or game the registry does not know, or that does not build.
    #[error(transparent)]
    Registry(#[from] playtune::registry::Error),
    /// Self-play samples, training or a learned evaluator.
    #[error(transparent)]
    Learn(#[from] playtune::learn::Error),
    /// A search space or a constraint.
    #[error(transparent)]
    Space(#[from] playtune::space::Error),
    /// An optimiser's settings.
    #[error(transparent)]
    Optimizer(#[from] playtune::optim::Error),
    /// The strategy game's own (its levels, its learned evaluator).
    #[error(transparent)]
    Strategy(#[from] playtune::games::strategy::Error),
    /// A search space that does not fit the problem.
    #[error(transparent)]
    Binding(#[from] playtune::eval::BindingError),
    /// A picture that could not be drawn.
    #[error(transparent)]
    Plot(#[from] playtune_harness::draw::PlotError),
    /// A run's pictures that could not be drawn.
    #[error(transparent)]
    Pictures(#[from] playtune_report::plot::run::RunPicturesError),
    /// A file or folder that cannot be read or written: `PATH: why`.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A folder that cannot be made: `PATH: cannot create: why`.
    #[error("{}: cannot create: {source}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file that cannot be written: `PATH: cannot write: why`.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A filesystem call whose error names no path (as `std` gives it).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// What the experiment writes that does not serialise.
    #[error(transparent)]
    Encoding(Box<ron::Error>),
    /// A JSON line that does not serialise or parse.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A file that cannot be written, named first: `cannot write PATH: why`.
    #[error("cannot write {}: {source}", path.display())]
    CannotWrite {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A folder that holds another experiment's games.
    #[error(
        "{} holds games of a different experiment (see its experiment.txt): give the experiment another name or remove the folder",
        .0.display()
    )]
    OtherGames(PathBuf),
    /// Self-play of no game.
    #[error("games 0: play at least one game")]
    NoGames,
    /// More self-play games than a sample file numbers.
    #[error("games {0}: too many")]
    TooManyGames(usize),
    /// Self-play of a game that cannot encode its states.
    #[error(
        "game `{0}` has no state encoding to record self-play with (the strategy game has one)"
    )]
    NoEncoding(String),
    /// The network just trained that does not load as a leaf evaluator.
    #[error("the learned evaluator did not load")]
    LearnedNotLoaded,
    /// A table row that does not serialise as a map of its columns.
    #[error("a row is not an object")]
    RowNotAnObject,
    /// A strategy ladder over an archive that searched more than the genome weights.
    #[error("the ladder takes archives over the 11 genome weights only (the other scripts at 0.5)")]
    NotGenomeWeights,
    /// A game without a rule-design study preset.
    #[error("rule-design: game `{0}` has no study preset yet (rinascimento and strategy have)")]
    NoStudyPreset(String),
    /// A preset an experiment does not have (`experiment`: its name; `presets`: the
    /// ones it has).
    #[error("{experiment} has the presets {presets}, not `{preset}`")]
    NoSuchPreset {
        /// The experiment.
        experiment: &'static str,
        /// The presets it has.
        presets: &'static str,
        /// The preset asked for.
        preset: String,
    },
    /// A pair of setting `baseline` that is not `NAME=VALUE`.
    #[error("baseline: `{0}` is not NAME=VALUE")]
    BaselineNotAPair(String),
    /// A name of setting `baseline` that the space does not have.
    #[error("baseline: `{0}` is not a dimension of the space")]
    BaselineNotADimension(String),
    /// A value of setting `baseline` outside its dimension's domain.
    #[error("baseline: {name}={value} is outside its domain")]
    BaselineOutsideDomain {
        /// The dimension.
        name: String,
        /// The value given.
        value: String,
    },
    /// Setting `cells` that names no cell choice.
    #[error(
        "cells {text}: expected corners, best, all or cells as I:J,I:J (`{cell}` is not a cell)"
    )]
    BadCells {
        /// The setting as given.
        text: String,
        /// The part that is not a cell.
        cell: String,
    },
    /// Elites chosen from an archive that has none.
    #[error("the archive has no elites")]
    NoElites,
    /// A cell chosen that holds no elite.
    #[error("cell {cell:?} holds no elite (the archive has {elites} elites)")]
    EmptyCell {
        /// The cell's index on each axis.
        cell: Vec<usize>,
        /// Elites the archive has.
        elites: usize,
    },
    /// An agent an agent-tuning experiment does not tune (`tuned`: those it does).
    #[error("agent `{agent}`: the experiment tunes {tuned}")]
    NotTuned {
        /// The agent asked for.
        agent: String,
        /// The agents the experiment tunes.
        tuned: String,
    },
    /// An agent-tuning problem whose point names no agent.
    #[error("the tuning problem names no agent")]
    NoAgent,
    /// A search that ended without its result (`what`: the search).
    #[error("{0}: no result")]
    NoResult(&'static str),
    /// A MAP-Elites search that kept no archive.
    #[error("MAP-Elites wrote no archive")]
    NoArchive,
}

impl From<ron::Error> for Error {
    fn from(e: ron::Error) -> Error {
        Error::Encoding(Box::new(e))
    }
}

impl Error {
    pub(crate) fn file(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::File {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn create(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Create {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn write(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Write {
            path: path.into(),
            source,
        }
    }
}
