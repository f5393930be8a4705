//! Rinascimento's own errors: a rule vector it refuses (each naming the rule), a rules
//! preset it does not know, and card data that does not read. The harness carries
//! them as [`harness::Error::Game`].

use super::preset::Preset;
use playtune_harness::harness;

/// An error of Rinascimento.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A rule whose value is not a whole number of at least 0.
    #[error("rule `{rule}`: {value} is not a whole number >= 0")]
    NotWhole {
        /// The rule's name.
        rule: String,
        /// The value given.
        value: f64,
    },
    /// A rule outside its bounds (inclusive).
    #[error("rule `{rule}`: {value} outside {lo}..={hi}")]
    OutOfBounds {
        /// The rule's name.
        rule: String,
        /// The value given.
        value: u64,
        /// The least value allowed.
        lo: u64,
        /// The greatest value allowed.
        hi: u64,
    },
    /// A rule refused in combination with others.
    #[error("rule `{rule}`: {why}")]
    Combination {
        /// The rule's name.
        rule: String,
        /// Why the combination is refused.
        why: String,
    },
    /// A rules preset the game does not know.
    #[error("unknown Rinascimento rules preset `{name}` (known: {})", Preset::NAMES.join(", "))]
    UnknownPreset {
        /// The name given.
        name: String,
    },
    /// Card data that does not read or does not fit the game's limits.
    #[error("{0}")]
    Content(String),
}

impl From<Error> for harness::Error {
    fn from(e: Error) -> harness::Error {
        harness::Error::Game(Box::new(e))
    }
}
