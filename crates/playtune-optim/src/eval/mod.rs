//! Problems: what is optimised. A problem owns a parameter space and evaluates a point
//! (one number per dimension) with a seed, returning a fitness and named features.

mod benchmarks;
mod binding;
mod command;
pub mod def;
mod manual;
mod synthetic_design;

/// A space of `dims` integer dimensions, for tests and examples here and above.
pub use benchmarks::int_space;
pub use benchmarks::{
    CONSTRAINED_ONEMAX, NOISY_ONEMAX, NOISY_PAIRS, NOISY_TRAP, NOISY_WINRATE, NoisyOneMax,
    NoisyWinRate, SPHERE, Sphere,
};
pub(crate) use benchmarks::{NoisyPairs, NoisyTrap};
pub use binding::{Binding, BindingError, own_baseline_point};
pub use command::groups as evaluator_groups;
pub use command::process_tail as stderr_tail;
pub use command::reply::{
    Reply, ReplyError, json as reply_object, parse_reply, printable, show as show_reply,
};
pub use command::worker::{WorkerError, WorkerPool, WorkerSession};
pub use command::{COMMAND, CommandProblem};
pub use command::{ProcessEnded, exit_text, run_to_end};
pub use def::{ProblemDef, ProblemError};
pub use manual::{MANUAL, point_json};
pub use synthetic_design::SYNTHETIC_DESIGN;

use crate::space::Space;
use serde::{Deserialize, Serialize};

/// The outcome of one evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Higher is better.
    pub fitness: f64,
    /// One value per name in [`Problem::feature_names`].
    pub features: Vec<f64>,
}

impl Evaluation {
    /// An evaluation with only a fitness: no features.
    pub fn fitness(fitness: f64) -> Evaluation {
        Evaluation {
            fitness,
            features: Vec::new(),
        }
    }
}

/// What a run's recommendation is judged against in its verdict
/// (`crate::run::verdict`): the game's own rules for a design problem, the untuned
/// agent for a tuning problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// What it is, in words ("rinascimento's own rules", "the untuned agent mcts").
    pub label: String,
    /// Its values of the search's dimensions, as text (`coins=4`): what the verdict
    /// prints beside the recommendation's.
    pub settings: Vec<(String, String)>,
}

/// An evaluation that could not be done (e.g. an external evaluator crashed).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct EvalError(pub String);

/// A behaviour-feature axis with the grid MAP-Elites uses by default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureAxis {
    /// The feature's name.
    pub name: String,
    /// The lower end of its range.
    pub low: f64,
    /// The upper end of its range.
    pub high: f64,
    /// The grid's bins between them.
    pub bins: usize,
}

/// A `FEATURE=LOW:HIGH:BINS` text that is no axis; the message names the text as
/// `axis TEXT` (the command line puts `--` in front).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AxisError {
    /// Not of the form `FEATURE=LOW:HIGH:BINS`.
    #[error("axis {0}: expected FEATURE=LOW:HIGH:BINS, e.g. measure_0=-256:256:100")]
    Malformed(String),
    /// Bounds that are not finite with LOW below HIGH, or no bins.
    #[error("axis {0}: needs finite LOW < HIGH and at least one bin")]
    Bounds(String),
}

/// `FEATURE=LOW:HIGH:BINS`, which reads back as the same axis.
impl std::fmt::Display for FeatureAxis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}:{}:{}", self.name, self.low, self.high, self.bins)
    }
}

impl std::str::FromStr for FeatureAxis {
    type Err = AxisError;

    /// `FEATURE=LOW:HIGH:BINS`, as `--axis` takes it.
    fn from_str(text: &str) -> Result<FeatureAxis, AxisError> {
        let bad = || AxisError::Malformed(text.to_string());
        let (name, spec) = text.split_once('=').ok_or_else(bad)?;
        let parts: Vec<&str> = spec.split(':').collect();
        let [low, high, bins] = parts[..] else {
            return Err(bad());
        };
        let low: f64 = low.trim().parse().map_err(|_| bad())?;
        let high: f64 = high.trim().parse().map_err(|_| bad())?;
        let bins: usize = bins.trim().parse().map_err(|_| bad())?;
        if !(low.is_finite() && high.is_finite() && low < high) || bins == 0 {
            return Err(AxisError::Bounds(text.to_string()));
        }
        Ok(FeatureAxis {
            name: name.trim().into(),
            low,
            high,
            bins,
        })
    }
}

/// 0 to 1 for a feature named as a rate (`win_rate`, `stalemate_rate`,
/// `win_rate_0_mcts`), not for a rate's standard error (`win_rate_se`).
pub(crate) fn rate_range(name: &str) -> Option<(f64, f64)> {
    let rate = name.ends_with("_rate") || name == "rate" || name.starts_with("win_rate_");
    (rate && !name.ends_with("_se")).then_some((0.0, 1.0))
}

/// What identifies the game a problem plays, where a file names it (a description, a
/// Python game): its name and a fingerprint of everything that decides how it plays
/// and is scored. A built-in game has none: the program identifies it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameIdentity {
    /// The game's name.
    pub name: String,
    /// A fingerprint of the game's description (players, settings, bots, ladder, ...).
    pub fingerprint: String,
    /// A fingerprint of the code that plays it (the Python file, the files its command
    /// names), so that another program behind the same description is another game.
    /// Absent in runs recorded before it was (their code is taken on trust).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Where the game was found, absolutely (a description file's path, a Python game's
    /// `FILE.py:NAME` with its file's path), so that the run plays it from any folder
    /// and never a file of the same name elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The game's description as read when the run began, in the description file's
    /// format: commands that only read a run know the game from it, and never start,
    /// import or run the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl GameIdentity {
    /// Whether `other` describes the same game: its name and description. Where the
    /// game was found, and its code, are compared by whoever loads the game, which
    /// knows whether its user named it again on purpose.
    pub fn same_game(&self, other: &GameIdentity) -> bool {
        self.name == other.name && self.fingerprint == other.fingerprint
    }
}

/// The verdict's default margin for a fitness that is a rate or a gap between rates
/// (a skill depth, a win rate): 0.05, a twentieth of a game's score. Rules that differ
/// from a game's own by less are hard to tell apart at any budget a designer runs (one
/// evaluation's depth has a spread near 0.12), and those worth finding differ by 0.03
/// to 0.1 (docs/design.md#the-verdict-the-answer-against-what-you-had).
pub const RATE_MARGIN: f64 = 0.05;

/// Something to optimise.
pub trait Problem: Send + Sync {
    /// The problem's parameters, with their domains and defaults. A user space may
    /// search any subset of them (see [`Binding`]).
    fn space(&self) -> &Space;

    /// Names of the features each evaluation reports.
    fn feature_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The default MAP-Elites grid over the features, if the problem suggests one.
    fn default_axes(&self) -> Vec<FeatureAxis> {
        Vec::new()
    }

    /// What the fitness is, in words for a reader ("skill depth", "win rate"):
    /// verdicts, tables and pictures name it.
    fn fitness_name(&self) -> &str {
        "fitness"
    }

    /// The range the fitness is known to lie in, if it has one (a win rate: 0 to 1):
    /// pictures colour on it rather than on the data's own, so that 0.6 reads the same
    /// in every heatmap.
    fn fitness_range(&self) -> Option<(f64, f64)> {
        None
    }

    /// The range feature `name` is known to lie in, if any. By default a rate (a name
    /// ending in `_rate`, or a `win_rate_...` of a ladder, but not a standard error
    /// `..._se`) lies in 0 to 1.
    fn feature_range(&self, name: &str) -> Option<(f64, f64)> {
        rate_range(name)
    }

    /// What feature `name` counts, for axis titles ("attacks a game"), if the problem
    /// says.
    fn feature_unit(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// The feature that breaks fitness ties between a cell's elite and a newcomer, if
    /// the problem's fitness is coarse enough to tie often (a win rate over a few
    /// games): MAP-Elites then defaults to its `lexicographic:FEATURE` rule.
    fn tie_break(&self) -> Option<String> {
        None
    }

    /// How many evaluations the problem can take at once, where that is not the number
    /// of cores: an external evaluator with N persistent workers takes N, whatever the
    /// machine. `None`: one per core (rayon's pool).
    fn concurrency(&self) -> Option<usize> {
        None
    }

    /// Evaluates `x` (one number per dimension of [`Problem::space`]) with randomness
    /// drawn only from `seed`.
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError>;

    /// For a problem that tunes an agent: point `x` as an agent spec a user can paste
    /// into `playtune play` or `tournament` (`mcts(c=4,depth=5,...)`), with the
    /// agent's own setting names.
    fn agent_spec(&self, _x: &[f64]) -> Option<String> {
        None
    }

    /// What a run's recommendation is judged against, if the problem has a baseline of
    /// its own (the game's own rules, the untuned agent); evaluate it with
    /// [`Problem::evaluate_baseline`]. `None`: the verdict needs a baseline point from
    /// the user.
    fn baseline(&self) -> Option<Baseline> {
        None
    }

    /// The smallest difference of the fitness worth telling from none, where the
    /// problem knows one: a verdict then plays pairs until it shows the sides differ
    /// by it or are equal within it (`playtune_run::verdict`). `None`: a verdict
    /// plays a fixed number of pairs unless its user gives a margin.
    fn verdict_margin(&self) -> Option<f64> {
        None
    }

    /// Evaluates [`Problem::baseline`] with randomness drawn only from `seed`, as
    /// [`Problem::evaluate`] would a point: the same seed plays the same games, so a
    /// baseline and a point evaluated with one seed are compared paired.
    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, EvalError> {
        let _ = seed;
        Err(EvalError("this problem has no baseline of its own".into()))
    }

    /// Per-evaluation terms whose mean is the fitness of `evaluations` (of one point)
    /// pooled, where that is not the mean of their fitness. A skill depth is the
    /// smallest gap between rungs: pooled over evaluations it is the smallest gap
    /// between the rungs' pooled results, which the mean of each evaluation's smallest
    /// gap (a minimum of noisy gaps) underestimates; each evaluation's term is then
    /// its gap over the step that sets the pooled depth. The verdict compares these.
    /// `None`: the mean of the fitness is the pooled fitness.
    fn pooled_terms(&self, evaluations: &[&Evaluation]) -> Option<Vec<f64>> {
        let _ = evaluations;
        None
    }

    /// The game this problem plays, where a file names it: a run records it and
    /// `resume` refuses another.
    fn game_identity(&self) -> Option<GameIdentity> {
        None
    }

    /// The noise-free fitness of `x`, for benchmarks that know it.
    fn true_fitness(&self, _x: &[f64]) -> Option<f64> {
        None
    }

    /// Whether `x` is a global optimum, for benchmarks that know it.
    fn is_optimal(&self, _x: &[f64]) -> Option<bool> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_parse_and_bad_ones_say_why() {
        let a: FeatureAxis = " win_rate = 0 : 1 : 10".parse().unwrap();
        assert_eq!(
            (a.name.as_str(), a.low, a.high, a.bins),
            ("win_rate", 0.0, 1.0, 10)
        );
        for bad in ["win_rate", "w=0:1", "w=0:1:2:3", "w=a:1:2", "w=0:1:-1"] {
            assert_eq!(
                bad.parse::<FeatureAxis>(),
                Err(AxisError::Malformed(bad.into()))
            );
        }
        for bad in ["w=1:0:2", "w=0:1:0", "w=0:inf:2"] {
            assert_eq!(
                bad.parse::<FeatureAxis>(),
                Err(AxisError::Bounds(bad.into()))
            );
        }
        assert_eq!(
            AxisError::Bounds("w=1:0:2".into()).to_string(),
            "axis w=1:0:2: needs finite LOW < HIGH and at least one bin"
        );
    }
}
