//! The strategy game's own errors: a game or level configuration it refuses, script
//! weights that do not read, a learned evaluator that does not load, and a state whose
//! invariants broke. The harness carries them as [`harness::Error::Game`].

use super::scripts::SCRIPTS;
use playtune_harness::harness;

/// An error of the strategy game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A field of the game or level configuration outside what the game takes.
    #[error("{field}: {why}")]
    Config {
        /// The field's name.
        field: String,
        /// What is wrong with it.
        why: String,
    },
    /// Script weights whose text is not a RON map of names to weights (`file`: where
    /// the text came from).
    #[error("{file}: not a map of script names to weights: {why}")]
    WeightsFormat {
        /// Where the text came from.
        file: String,
        /// What does not read.
        why: String,
    },
    /// Script weights naming a script that does not exist.
    #[error("{file}: field `{field}`: unknown script (the scripts: {})", SCRIPTS.join(", "))]
    UnknownScript {
        /// Where the weights came from.
        file: String,
        /// The name given.
        field: String,
    },
    /// A script weight outside [0, 1].
    #[error("{file}: field `{field}`: weight {weight} is outside [0, 1]")]
    WeightRange {
        /// Where the weights came from.
        file: String,
        /// The script's name.
        field: String,
        /// The weight given.
        weight: f64,
    },
    /// A weights file that cannot be read.
    #[error("{file}: cannot read: {source}")]
    ReadWeights {
        /// The file.
        file: String,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// A point of a script-weight space with the wrong number of values.
    #[error("space {space}: {values} values for {dims} dimensions")]
    PointLength {
        /// The space's name.
        space: String,
        /// Values given.
        values: usize,
        /// Dimensions of the space.
        dims: usize,
    },
    /// A script-weight space's dimension that is no script.
    #[error("space {space}: dimension `{dimension}` is no script")]
    NotAScript {
        /// The space's name.
        space: String,
        /// The dimension's name.
        dimension: String,
    },
    /// A learned leaf evaluator that does not load.
    #[error(transparent)]
    Learned(#[from] playtune_harness::learn::Error),
    /// A state whose invariants disagree ([`super::StrategyState::check`]).
    #[error("{0}")]
    Invariant(String),
}

impl Error {
    /// A configuration field refused: `FIELD: WHY`.
    pub(crate) fn config(field: impl Into<String>, why: impl Into<String>) -> Error {
        Error::Config {
            field: field.into(),
            why: why.into(),
        }
    }
}

impl From<Error> for harness::Error {
    fn from(e: Error) -> harness::Error {
        harness::Error::Game(Box::new(e))
    }
}
