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
    /// A dimension's domain that cannot be used.
    #[error("dimension `{dim}`.domain: {problem}")]
    DimensionDomain { dim: String, problem: DomainProblem },
    /// A dimension's default outside its domain.
    #[error(
        "dimension `{dim}`.default: index {index} is outside the domain ({len} values: {values})"
    )]
    DefaultOutside {
        dim: String,
        index: usize,
        len: usize,
        values: String,
    },
    #[error("the space has no dimensions")]
    NoDimensions,
    #[error("duplicate dimension name `{0}`")]
    DuplicateDimension(String),
    /// A layout group that cannot be used, by its index and name.
    #[error("groups[{index}] (`{name}`): {problem}")]
    Group {
        index: usize,
        name: String,
        problem: String,
    },
    /// A domain that cannot be searched or logged without loss.
    #[error(transparent)]
    Domain(#[from] DomainProblem),
    /// `item` (`NAME=VALUE`) cannot fix a dimension.
    #[error("{item}: {problem}")]
    Fix { item: String, problem: FixProblem },
    /// A point that gives a fixed dimension another value than the one it is fixed
    /// at: the space's settings (a game's `players=2`) make that point another game.
    #[error(
        "`{dim}` is fixed at {fixed} in this space, and the point gives {given}: a point moves only the searched dimensions"
    )]
    MovesFixed {
        dim: String,
        fixed: String,
        given: String,
    },
    /// A constraint (`FEATURE <= V`, ...) that cannot be read.
    #[error("constraint `{text}`: {problem}")]
    Constraint {
        text: String,
        problem: ConstraintProblem,
    },
}

/// Why a domain cannot be searched or logged without loss ([`crate::space::Domain::check`];
/// the messages name no dimension: callers add where the domain is).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DomainProblem {
    #[error("step must be at least 1, got {0}")]
    Step(i64),
    #[error("empty range: min {min} is greater than max {max}")]
    EmptyIntRange { min: i64, max: i64 },
    #[error(
        "bounds {min}..={max} reach beyond +-2^53 = {}, where integers have no exact number",
        super::MAX_EXACT_INT
    )]
    BeyondExact { min: i64, max: i64 },
    #[error("step {step} does not divide the range {min}..={max} (width {width})")]
    StepDoesNotDivide {
        step: i64,
        min: i64,
        max: i64,
        width: i128,
    },
    #[error(
        "{0} values: a dimension holds at most {most} (2^32 - 1); use a larger step or a Float",
        most = super::MAX_VALUES
    )]
    TooManyValues(i128),
    #[error("empty list: give at least one value")]
    EmptyList,
    #[error("list value {0} is not a finite number")]
    NotFiniteValue(f64),
    #[error("a list holds at most {} values", super::MAX_VALUES)]
    LongList,
    #[error("list value {0} appears twice")]
    ValueTwice(f64),
    #[error(
        "{levels} levels between {min} and {max} are closer together than floating point tells apart; use fewer levels"
    )]
    LevelsTooFine { min: f64, max: f64, levels: u32 },
    #[error("list values {0} and {1} are too close to tell apart (relative {2})")]
    TooClose(f64, f64, f64),
    #[error("no categories: give at least one name")]
    NoCategories,
    #[error("at most {} categories", super::MAX_VALUES)]
    ManyCategories,
    #[error("{0}")]
    CategoryName(Box<Error>),
    #[error("category {0:?} begins or ends with spaces, which a log cannot keep")]
    CategorySpaces(String),
    #[error("category `{0}` appears twice")]
    CategoryTwice(String),
    #[error("float bounds must be finite numbers")]
    NotFiniteBounds,
    #[error("empty range: min {min:?} is greater than max {max:?}")]
    EmptyFloatRange { min: f64, max: f64 },
    #[error("the range {min:?}..={max:?} is too wide: max - min is not a finite number")]
    TooWide { min: f64, max: f64 },
    #[error("levels must be at least 2 for a range (got {0})")]
    Levels(u32),
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
