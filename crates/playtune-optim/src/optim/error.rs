//! What can be wrong with an optimiser's settings or with what it is asked to search.
//!
//! Messages name settings as `config.ron` records them (`batch`, `sigma_line`), never
//! a command-line flag: the command line knows which flag set a value and says so
//! when it shows the error (see [`Error::setting`]).

/// An optimiser's settings, or the search they are given, cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// A setting outside its range: `setting` is its name in the algorithm's settings
    /// (`config.ron`'s `algorithm`), `expected` says what is allowed.
    #[error("{setting}: {value}: {expected}")]
    Setting {
        /// The setting's name.
        setting: String,
        /// Its value, as given.
        value: String,
        /// What it takes, in words.
        expected: String,
    },
    /// A setting the optimiser does not declare ([`crate::optim::def`]).
    #[error("{owner} has no setting `{setting}` (its settings: {known})")]
    UnknownSetting {
        /// Whose settings they are ("optimiser `ntbea`").
        owner: String,
        /// The name given.
        setting: String,
        /// The settings it has, separated by commas.
        known: String,
    },
    /// An NTBEA tuple list (the `tuples` setting) that cannot be read.
    #[error("tuples {text}: {problem}")]
    Tuples {
        /// The list, as given.
        text: String,
        /// Why it cannot be read.
        problem: String,
    },
    /// An explicit NTBEA tuple names a dimension the space does not have.
    #[error("tuple names unknown dimension `{0}`")]
    UnknownTupleDimension(String),
    /// The tuples come to nothing over the free dimensions.
    #[error("the tuple set is empty")]
    NoTuples,
    /// A budget of no evaluations.
    #[error("the budget is 0: give at least one evaluation")]
    NoBudget,
    /// An observed point that is not a point of the space (a value off its domain).
    #[error("point {0} is not in the space: every value must be one of its dimension's")]
    NotInSpace(String),
    /// Every dimension of the space is fixed or has one value.
    #[error("space `{0}` has nothing to search: every dimension is fixed or has one value")]
    NothingToSearch(String),
    /// The budget cannot pay for the optimiser's smallest step.
    #[error("budget {budget} {why}")]
    BudgetTooSmall {
        /// The budget, in evaluations.
        budget: u64,
        /// Why it is too small, after the budget in the message.
        why: String,
    },
    /// NTBEA's constants out of range (what [`crate::optim::AlgoConfig::check`] names
    /// one by one, for a caller that builds NTBEA directly).
    #[error(
        "NTBEA needs k >= 0, epsilon > 0 and mutation > 0 (k {k}, epsilon {epsilon}, mutation {mutation})"
    )]
    NtbeaConstants {
        /// The exploration constant.
        k: f64,
        /// The exploration term's epsilon.
        epsilon: f64,
        /// The extra mutations per neighbour.
        mutation: f64,
    },
    /// B-RMHC's pre-processing leaves less than a generation of the budget (unless the
    /// pre-processing is free: the `free_preprocessing` setting).
    #[error(
        "budget {budget} leaves {left} evaluations after B-RMHC's pre-processing ({cost} evaluations), less than one generation ({generation}); raise the budget or make the pre-processing free"
    )]
    PreprocessingLeavesNothing {
        /// The budget, in evaluations.
        budget: u64,
        /// What the pre-processing leaves of it.
        left: u64,
        /// What the pre-processing costs.
        cost: u64,
        /// What one generation costs.
        generation: u64,
    },
    /// B-RMHC's pre-processing alone would cost more than it may.
    #[error(
        "B-RMHC's pre-processing would take {cost} evaluations (every value of every dimension outside a group), more than {most}: use fewer values, or rmhc or ntbea"
    )]
    PreprocessingTooLong {
        /// What the pre-processing would cost, in evaluations.
        cost: u64,
        /// The most it may cost.
        most: u64,
    },
    /// MAP-Elites was given no feature axes and the problem suggests none.
    #[error("MAP-Elites needs feature axes: the problem suggests none")]
    NoAxes,
    /// A feature axis that cannot be binned.
    #[error("axis `{axis}`{problem}")]
    Axis {
        /// The axis's feature.
        axis: String,
        /// What is wrong, written to follow the axis's name (": 0 bins, ...").
        problem: String,
    },
    /// An emitter that cannot move any dimension of the space.
    #[error("the {0} emitter needs Float dimensions; use one-weight for discrete spaces")]
    NeedsFloats(&'static str),
    /// An axis on a feature the problem does not report.
    #[error("axis `{axis}` is not a feature of the problem (its features: {known})")]
    AxisNotAFeature {
        /// The axis's feature.
        axis: String,
        /// The problem's features, separated by commas.
        known: String,
    },
    /// A lexicographic tie-break on a feature the problem does not report.
    #[error("lexicographic secondary `{0}` is not a feature of the problem")]
    SecondaryNotAFeature(String),
    /// A constraint on a feature the problem does not report.
    #[error("constraint `{constraint}`: the problem reports no feature `{feature}` ({known})")]
    ConstraintFeature {
        /// The constraint, as written.
        constraint: String,
        /// The feature it names.
        feature: String,
        /// The problem's features, in words ("its features: a, b").
        known: String,
    },
    /// The archive would be too large to allocate.
    #[error("the archive's grid has more than {0} cells: use fewer bins")]
    ArchiveTooLarge(usize),
}

impl Error {
    /// The setting at fault and the message after it, for a caller that names the
    /// setting its own way (the command line by its flag, a run folder by the field
    /// of `config.ron`): `("batch", "0: give 1 to 10000 (points per batch)")`.
    pub fn setting(&self) -> Option<(&str, String)> {
        match self {
            Error::Setting {
                setting,
                value,
                expected,
            } => Some((setting.as_str(), format!("{value}: {expected}"))),
            Error::Tuples { text, problem } => Some(("tuples", format!("{text}: {problem}"))),
            _ => None,
        }
    }
}
