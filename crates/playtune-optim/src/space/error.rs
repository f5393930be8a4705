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
        /// What the name names (a space, a dimension, a feature, ...).
        what: &'static str,
        /// The name.
        name: String,
        /// The control character in it.
        character: char,
    },
    /// A dimension's domain that cannot be used.
    #[error("dimension `{dim}`.domain: {problem}")]
    DimensionDomain {
        /// The dimension's name.
        dim: String,
        /// What is wrong with its domain.
        problem: DomainProblem,
    },
    /// A dimension's default outside its domain.
    #[error(
        "dimension `{dim}`.default: index {index} is outside the domain ({len} values: {values})"
    )]
    DefaultOutside {
        /// The dimension's name.
        dim: String,
        /// The default's index.
        index: usize,
        /// How many values the domain has.
        len: usize,
        /// The domain's values, in words.
        values: String,
    },
    /// A space without dimensions.
    #[error("the space has no dimensions")]
    NoDimensions,
    /// Two dimensions of one name.
    #[error("duplicate dimension name `{0}`")]
    DuplicateDimension(String),
    /// A layout group that cannot be used, by its index and name.
    #[error("groups[{index}] (`{name}`): {problem}")]
    Group {
        /// The group's position in the space's `groups`.
        index: usize,
        /// The group's name.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A domain that cannot be searched or logged without loss.
    #[error(transparent)]
    Domain(#[from] DomainProblem),
    /// `item` (`NAME=VALUE`) cannot fix a dimension.
    #[error("{item}: {problem}")]
    Fix {
        /// The item, as given.
        item: String,
        /// Why it cannot fix a dimension.
        problem: FixProblem,
    },
    /// A point that gives a fixed dimension another value than the one it is fixed
    /// at: the space's settings (a game's `players=2`) make that point another game.
    #[error(
        "`{dim}` is fixed at {fixed} in this space, and the point gives {given}: a point moves only the searched dimensions"
    )]
    MovesFixed {
        /// The fixed dimension's name.
        dim: String,
        /// The value it is fixed at.
        fixed: String,
        /// The value the point gives.
        given: String,
    },
    /// A constraint (`FEATURE <= V`, ...) that cannot be read.
    #[error("constraint `{text}`: {problem}")]
    Constraint {
        /// The constraint, as written.
        text: String,
        /// Why it cannot be read.
        problem: ConstraintProblem,
    },
}

/// Why a domain cannot be searched or logged without loss ([`crate::space::Domain::check`];
/// the messages name no dimension: callers add where the domain is).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DomainProblem {
    /// An integer step below 1.
    #[error("step must be at least 1, got {0}")]
    Step(i64),
    /// An integer range whose min is above its max.
    #[error("empty range: min {min} is greater than max {max}")]
    EmptyIntRange {
        /// The range's min.
        min: i64,
        /// The range's max.
        max: i64,
    },
    /// An integer range beyond the integers a 64-bit float holds exactly.
    #[error(
        "bounds {min}..={max} reach beyond +-2^53 = {}, where integers have no exact number",
        super::MAX_EXACT_INT
    )]
    BeyondExact {
        /// The range's min.
        min: i64,
        /// The range's max.
        max: i64,
    },
    /// An integer step that does not divide the range's width.
    #[error("step {step} does not divide the range {min}..={max} (width {width})")]
    StepDoesNotDivide {
        /// The step.
        step: i64,
        /// The range's min.
        min: i64,
        /// The range's max.
        max: i64,
        /// max - min.
        width: i128,
    },
    /// More values than a dimension may hold.
    #[error(
        "{0} values: a dimension holds at most {most} (2^32 - 1); use a larger step or a Float",
        most = super::MAX_VALUES
    )]
    TooManyValues(i128),
    /// A list of no values.
    #[error("empty list: give at least one value")]
    EmptyList,
    /// A list value that is not a finite number.
    #[error("list value {0} is not a finite number")]
    NotFiniteValue(f64),
    /// A list of more values than a dimension may hold.
    #[error("a list holds at most {} values", super::MAX_VALUES)]
    LongList,
    /// A list that holds a value twice.
    #[error("list value {0} appears twice")]
    ValueTwice(f64),
    /// A float range's levels closer together than floating point tells apart.
    #[error(
        "{levels} levels between {min} and {max} are closer together than floating point tells apart; use fewer levels"
    )]
    LevelsTooFine {
        /// The range's min.
        min: f64,
        /// The range's max.
        max: f64,
        /// The levels asked for.
        levels: u32,
    },
    /// Two list values too close together to tell apart: both, and how close
    /// relative to their size.
    #[error("list values {0} and {1} are too close to tell apart (relative {2})")]
    TooClose(f64, f64, f64),
    /// No categories.
    #[error("no categories: give at least one name")]
    NoCategories,
    /// More categories than a dimension may hold.
    #[error("at most {} categories", super::MAX_VALUES)]
    ManyCategories,
    /// A category whose name cannot be used.
    #[error("{0}")]
    CategoryName(Box<Error>),
    /// A category name with spaces at an end.
    #[error("category {0:?} begins or ends with spaces, which a log cannot keep")]
    CategorySpaces(String),
    /// A category named twice.
    #[error("category `{0}` appears twice")]
    CategoryTwice(String),
    /// A float range whose ends are not finite.
    #[error("float bounds must be finite numbers")]
    NotFiniteBounds,
    /// A float range whose min is above its max.
    #[error("empty range: min {min:?} is greater than max {max:?}")]
    EmptyFloatRange {
        /// The range's min.
        min: f64,
        /// The range's max.
        max: f64,
    },
    /// A float range too wide for its width to be a finite number.
    #[error("the range {min:?}..={max:?} is too wide: max - min is not a finite number")]
    TooWide {
        /// The range's min.
        min: f64,
        /// The range's max.
        max: f64,
    },
    /// A float range of fewer than 2 levels.
    #[error("levels must be at least 2 for a range (got {0})")]
    Levels(u32),
}

/// Why a `NAME=VALUE` cannot fix a dimension.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FixProblem {
    /// Not `NAME=VALUE`.
    #[error("expected NAME=VALUE")]
    Syntax,
    /// No name before the `=`.
    #[error("the NAME before `=` is missing")]
    NoName,
    /// A name that is not a dimension of the space.
    #[error("the space has no dimension named `{0}`")]
    UnknownDimension(String),
    /// A value the dimension does not take.
    #[error("`{value}` is not a value of {name} ({domain})")]
    NotAValue {
        /// The dimension's name.
        name: String,
        /// The value given.
        value: String,
        /// The dimension's domain, in words.
        domain: String,
    },
    /// A dimension fixed twice.
    #[error(
        "dimension `{name}` is fixed twice ({name}={first} and {name}={second}); fix each dimension once"
    )]
    Twice {
        /// The dimension's name.
        name: String,
        /// The first value given.
        first: String,
        /// The second value given.
        second: String,
    },
}

/// Why a constraint cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConstraintProblem {
    /// Not one of the three forms.
    #[error("expected `FEATURE <= V`, `FEATURE >= V` or `FEATURE in LOW..HIGH`")]
    Form,
    /// A bound that is not a number.
    #[error("`{0}` is not a number")]
    NotANumber(String),
    /// A bound that is not finite.
    #[error("the bound {0} is not finite")]
    NotFinite(f64),
    /// A range whose LOW is above its HIGH.
    #[error("the range {0}..{1} is empty (LOW above HIGH)")]
    EmptyRange(f64, f64),
    /// A feature name that is not letters, digits and `_`.
    #[error(
        "`{0}` is not a feature name (letters, digits and `_`); expected `FEATURE <= V`, `FEATURE >= V` or `FEATURE in LOW..HIGH`"
    )]
    NotAFeatureName(String),
}
