//! What can be wrong with a space, a point fixed in it, or a constraint on it.
//!
//! Messages never name a command-line flag: `--fix`, `--constraint` and the like are
//! the command line's to add, which knows where a value came from.

/// A space, a fixed dimension or a constraint that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// A blank name (of a space, dimension, group, category, feature: `what`).
    #[error("a {0} needs a non-empty name")]
    EmptyName(&'static str),
    /// A name that would break a log line.
    #[error("{what} name {name:?} holds the control character {character:?}")]
    ControlCharacter {
        what: &'static str,
        name: String,
        character: char,
    },
    /// A space checked as a whole (its dimensions, names, groups).
    #[error("{0}")]
    Space(String),
    /// `item` (`NAME=VALUE`) cannot fix a dimension.
    #[error("{item}: {problem}")]
    Fix { item: String, problem: FixProblem },
    /// A constraint (`FEATURE <= V`, ...) that cannot be read.
    #[error("constraint `{text}`: {problem}")]
    Constraint {
        text: String,
        problem: ConstraintProblem,
    },
}

/// Why a `NAME=VALUE` cannot fix a dimension.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FixProblem {
    #[error("expected NAME=VALUE")]
    Syntax,
    #[error("the NAME before `=` is missing")]
    NoName,
    #[error("the space has no dimension named `{0}`")]
    UnknownDimension(String),
    #[error("`{value}` is not a value of {name} ({domain})")]
    NotAValue {
        name: String,
        value: String,
        domain: String,
    },
    #[error(
        "dimension `{name}` is fixed twice ({name}={first} and {name}={second}); fix each dimension once"
    )]
    Twice {
        name: String,
        first: String,
        second: String,
    },
}

/// Why a constraint cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConstraintProblem {
    #[error("expected `FEATURE <= V`, `FEATURE >= V` or `FEATURE in LOW..HIGH`")]
    Form,
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("the bound {0} is not finite")]
    NotFinite(f64),
    #[error("the range {0}..{1} is empty (LOW above HIGH)")]
    EmptyRange(f64, f64),
    #[error(
        "`{0}` is not a feature name (letters, digits and `_`); expected `FEATURE <= V`, `FEATURE >= V` or `FEATURE in LOW..HIGH`"
    )]
    NotAFeatureName(String),
}

/// For callers that still report errors as text (and serde's `try_from`).
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}
