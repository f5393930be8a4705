//! Optimisers of a program's own driving run folders: where argmin's executor takes
//! any solver, a run folder takes any [`RunOptimizer`], with the same `config.ron`,
//! evaluation log, resume and verdict as playtune's own optimisers.

use super::*;
use playtune_optim::BoxError;
use playtune_optim::optim::{Candidate, Optimizer, Recommendation};

/// An optimiser of a program's own that drives a run folder ([`execute_own`]) as
/// playtune's own do: it builds one optimiser per trial, as [`AlgoConfig::build`]
/// does. An interrupted run resumes by telling fresh optimisers the logged
/// evaluations again, so an optimiser built with the same space, budget and seed and
/// told the same results must ask the same candidates.
pub trait RunOptimizer: Sync {
    /// Its name, recorded in `config.ron` and `result.ron`: a run is resumed only with
    /// an optimiser of the same name.
    fn name(&self) -> &str;

    /// Its settings as text, recorded beside its name (none by default): a run is
    /// resumed only with the same settings.
    fn settings(&self) -> String {
        String::new()
    }

    /// A fresh optimiser for one trial, over `space`, drawing its randomness from
    /// `seed` (the trial's own). The trial ends when it asks nothing more or has asked
    /// `budget` evaluations.
    fn build(&self, space: &Space, budget: u64, seed: u64) -> Result<Box<dyn Optimizer>, BoxError>;
}

/// What `config.ron` records of an optimiser of a program's own:
/// `algorithm: Own(name: "sweep", settings: "")`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "OwnTag", from = "OwnTag")]
pub struct OwnOptimizer {
    /// [`RunOptimizer::name`].
    pub name: String,
    /// [`RunOptimizer::settings`].
    pub settings: String,
}

impl OwnOptimizer {
    /// The record of `optimizer`.
    pub fn of(optimizer: &dyn RunOptimizer) -> OwnOptimizer {
        OwnOptimizer {
            name: optimizer.name().to_string(),
            settings: optimizer.settings(),
        }
    }
}

impl std::fmt::Display for OwnOptimizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.settings.is_empty() {
            write!(f, "the optimiser `{}`", self.name)
        } else {
            write!(
                f,
                "the optimiser `{}` with settings `{}`",
                self.name, self.settings
            )
        }
    }
}

/// [`OwnOptimizer`] as `config.ron` writes it, tagged as playtune's own optimisers are
/// (`Ntbea(...)`): a reader of those names it rather than misreading it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
enum OwnTag {
    Own { name: String, settings: String },
}

impl From<OwnOptimizer> for OwnTag {
    fn from(o: OwnOptimizer) -> OwnTag {
        OwnTag::Own {
            name: o.name,
            settings: o.settings,
        }
    }
}

impl From<OwnTag> for OwnOptimizer {
    fn from(OwnTag::Own { name, settings }: OwnTag) -> OwnOptimizer {
        OwnOptimizer { name, settings }
    }
}

/// What a run's config names its optimiser by, as the driving code needs it.
pub(crate) trait Algorithm: Sized + Sync {
    /// The optimiser's name, as `result.ron` records it.
    fn optimizer_name(&self) -> String;
    /// Checks the settings; the error says what is wrong.
    fn check_settings(&self) -> Result<(), String>;
    /// Whether a verdict judges the run's recommendations (a MAP-Elites archive is
    /// not judged).
    fn judged(&self) -> bool;
    /// Tells `progress` that a run of `config` starts, `total` evaluations in all.
    fn start(config: &RunConfig<Self>, progress: &dyn Progress, total: u64);
}

impl Algorithm for AlgoConfig {
    fn optimizer_name(&self) -> String {
        self.name().to_string()
    }
    fn check_settings(&self) -> Result<(), String> {
        self.check().map_err(|e| e.to_string())
    }
    fn judged(&self) -> bool {
        !matches!(self, AlgoConfig::MapElites(_))
    }
    fn start(config: &RunConfig, progress: &dyn Progress, total: u64) {
        progress.start(total, config);
    }
}

impl Algorithm for OwnOptimizer {
    fn optimizer_name(&self) -> String {
        self.name.clone()
    }
    fn check_settings(&self) -> Result<(), String> {
        if self.name.is_empty() {
            return Err("an optimiser of one's own has a name".into());
        }
        Ok(())
    }
    fn judged(&self) -> bool {
        true
    }
    // Nobody watches a run of one's own optimiser: it takes no observer.
    fn start(_: &RunConfig<Self>, _: &dyn Progress, _: u64) {}
}

/// Builds one trial's optimiser: the run's space, the trial's search budget, its
/// seed, the problem's features and their default axes.
pub(crate) type Build<'a> = dyn Fn(
        &Space,
        u64,
        u64,
        &[String],
        &[playtune_optim::eval::FeatureAxis],
    ) -> Result<Box<dyn Optimizer>, RunError>
    + Sync
    + 'a;

/// Runs (or resumes) the run in `dir`, whose `config.ron` is written already
/// ([`create_run_dir`]), with an optimiser of one's own, then judges it as the
/// command line does: where its search evaluated anything, or a verdict was begun,
/// with `config.verdict`'s evaluations (by default an eighth of the budget) against
/// its baseline (by default the problem's own; none: no verdict). Evaluations found
/// in the log are told again, not repeated. `stop` stops it cleanly before the end
/// ([`RunError::Interrupted`]), as [`execute_stoppable`] does.
///
/// Refused ([`RunError::OtherOptimizer`]) where `optimizer`'s name or settings are
/// not those `config` records: a log replays only into the optimiser that wrote it.
pub fn execute_own(
    dir: &Path,
    config: &RunConfig<OwnOptimizer>,
    problem: &dyn Problem,
    optimizer: &dyn RunOptimizer,
    stop: Option<&Stop>,
) -> Result<RunResult, RunError> {
    let now = OwnOptimizer::of(optimizer);
    if config.algorithm != now {
        return Err(RunError::OtherOptimizer {
            file: dir.join(CONFIG_FILE),
            recorded: config.algorithm.to_string(),
            now: now.to_string(),
        });
    }
    let _lock = lock::lock(dir)?;
    // Read before the search rewrites result.ron.
    let begun = verdict::Begun::of(dir);
    let build = |space: &Space, budget: u64, seed: u64, _: &[String], _: &[_]| {
        let inner = optimizer
            .build(space, budget, seed)
            .map_err(|e| RunError::Config(format!("{now}: {e}")))?;
        Ok(Box::new(Budgeted {
            inner,
            left: budget,
        }) as Box<dyn Optimizer>)
    };
    let mut result = match drive(
        Some(dir),
        config,
        &build,
        problem,
        Options::default(),
        false,
        stop,
    )? {
        Driven::Finished(r) => r,
        Driven::Waiting { .. } => unreachable!("a run that evaluates never waits"),
    };
    let evaluated_now = result.spent.reused < result.spent.total();
    if begun.due(evaluated_now, false) {
        let verdict::Plan {
            evaluations: n,
            baseline,
            ..
        } = verdict::planned(config, None);
        verdict::VerdictSettings::check_evaluations(n)
            .map_err(|m| RunError::Config(format!("verdict.evaluations: {m}")))?;
        verdict::judge_run_as(
            dir,
            config,
            problem,
            &mut result,
            n,
            baseline.as_deref(),
            &|| {},
        )?;
    }
    Ok(result)
}

/// Resumes the run in `dir` with an optimiser of one's own: [`execute_own`] with the
/// run's `config.ron`. Refused ([`RunError::OtherOptimizer`]) where the run was driven
/// by another optimiser, one of playtune's own included.
pub fn resume_own(
    dir: &Path,
    problem: &dyn Problem,
    optimizer: &dyn RunOptimizer,
    stop: Option<&Stop>,
) -> Result<RunResult, RunError> {
    let config = read_own_config(dir, &OwnOptimizer::of(optimizer))?;
    execute_own(dir, &config, problem, optimizer, stop)
}

/// An optimiser of one's own held to its trial's budget: once it has asked `budget`
/// evaluations it asks nothing more (a batch is never cut).
struct Budgeted {
    inner: Box<dyn Optimizer>,
    /// Evaluations it may still ask.
    left: u64,
}

impl Optimizer for Budgeted {
    fn ask(&mut self) -> Vec<Candidate> {
        if self.left == 0 {
            return Vec::new();
        }
        let batch = self.inner.ask();
        self.left = self.left.saturating_sub(batch.len() as u64);
        batch
    }
    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        self.inner.tell(asked, results);
    }
    fn recommend(&self) -> Recommendation {
        self.inner.recommend()
    }
    fn archive(&self) -> Option<&playtune_optim::optim::map_elites::AnyArchive> {
        self.inner.archive()
    }
    fn metrics_history(&self) -> &[playtune_optim::optim::map_elites::Metrics] {
        self.inner.metrics_history()
    }
    fn feasibility(&self) -> Option<playtune_optim::optim::constrained::Feasibility> {
        self.inner.feasibility()
    }
}
