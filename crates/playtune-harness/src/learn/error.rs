//! What can go wrong in training a network: settings, data, the training itself.
//!
//! Settings are named as [`TrainConfig`](super::TrainConfig) names them
//! (`learning_rate`), never by a command-line flag: the command line adds the flag.

/// Training cannot start, or its network cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// A training setting outside its range.
    #[error("{setting}: {value}: {expected}")]
    Setting {
        /// The setting's name.
        setting: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: String,
    },
    /// The samples' encoding cannot train a network.
    #[error("{data}: {problem}")]
    Encoding {
        /// The samples (their file).
        data: String,
        /// What is wrong with the encoding.
        problem: String,
    },
    /// Every game fell in the validation share.
    #[error(
        "{data}: no training samples ({games} games); play more games with `playtune selfplay`"
    )]
    NoTrainingSamples {
        /// The samples (their file).
        data: String,
        /// Games the samples hold.
        games: usize,
    },
    /// No game fell in the validation share.
    #[error(
        "{data}: no game fell in the validation share {share} of {games} games; play more games or raise the validation share"
    )]
    NoValidationGames {
        /// The samples (their file).
        data: String,
        /// The validation share asked for.
        share: f64,
        /// Games the samples hold.
        games: usize,
    },
    /// Mirrored training asked of an encoding that names no seats.
    #[error(
        "the encoding `{0}` does not say which features are whose (features p0_X and p1_X, to_move), so its samples cannot be mirrored"
    )]
    NoSeatSwap(String),
    /// The validation loss stopped being a number.
    #[error("training diverged at epoch {epoch} (validation loss {loss}); lower the learning rate")]
    Diverged {
        /// The epoch it diverged at.
        epoch: usize,
        /// Its validation loss.
        loss: f64,
    },
    /// The trained weights do not make a network that loads.
    #[error("training gave a network that cannot be used ({0}); lower the learning rate")]
    Unusable(String),
    /// candle failed.
    #[error("training: {0}")]
    Candle(String),
    /// A network whose layers do not fit its header.
    #[error("{0}")]
    Network(String),
    /// A network or sample file that cannot be read or written; the message names it.
    #[error("{0}")]
    File(String),
    /// A network of another game's encoding.
    #[error("{what} uses the encoding `{theirs}`, but this game's is `{ours}`")]
    OtherEncoding {
        /// The network (its file).
        what: String,
        /// The network's encoding.
        theirs: String,
        /// The game's encoding.
        ours: String,
    },
    /// A network of another version of this game's encoding.
    #[error(
        "{what} uses a different version of the encoding `{name}` ({theirs} features, this game's has {ours})"
    )]
    EncodingVersion {
        /// The network (its file).
        what: String,
        /// The encoding's name.
        name: String,
        /// Features of the network's version.
        theirs: usize,
        /// Features of the game's version.
        ours: usize,
    },
}

/// For callers that still report errors as text.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}
