//! A run created, in one sequence that `playtune optimize`, `playtune map-elites` and the
//! Python package's `create_run` all call: the problem and its space checked against
//! each other, the race and the verdict chosen, the configuration checked whole (faults,
//! sizes, a dry build of the optimiser), a design run's ladder built or checked, the
//! cost said, and the folder claimed and written. A front end maps its own arguments
//! to a [`RunRequest`] and its own names onto a [`StartError`]; it cannot fall behind.

use super::ladder::{LadderCheckSettings, before_design};
use playtune::eval::{Binding, Problem};
use playtune::optim::AlgoConfig;
use playtune::optim::constrained::Check;
use playtune::optim::intensify::IntensifyConfig;
use playtune::optim::race::{RaceBaseline, RaceConfig};
use playtune::registry::build_problem;
use playtune::run::verdict::VerdictSettings;
use playtune::run::{self, FaultPolicy, ProblemSpec, RunConfig, RunError};
use playtune::space::{Space, SpaceError, constraint::Constraint};
use std::path::PathBuf;

/// A space the user gave, with where it came from: its file's name is kept in the
/// run's configuration, and its text lets an error name the line it is about.
pub struct UserSpace {
    /// The space.
    pub space: Space,
    /// The file it was read from.
    pub file: Option<String>,
    /// The file's text.
    pub text: Option<String>,
}

/// Why a run was not created; each front end names the argument at fault its own way.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The problem cannot be built from its name and settings.
    #[error("{0}")]
    Problem(playtune::registry::Error),
    /// The space file does not fit the problem, by its line.
    #[error("{0}")]
    SpaceFile(SpaceError),
    /// A dimension of a space given without its text does not fit the problem.
    #[error("space: {dim}: {message}")]
    Dimension {
        /// The dimension.
        dim: String,
        /// What is wrong.
        message: String,
    },
    /// A constraint given beside the space names what the problem does not measure.
    #[error("{0}")]
    Constraint(String),
    /// The race's settings.
    #[error("{0}")]
    Race(playtune::optim::Error),
    /// Intensification's settings.
    #[error("{0}")]
    Intensify(playtune::optim::Error),
    /// The verdict's margin.
    #[error("{0}")]
    Margin(String),
    /// The verdict's size.
    #[error("{0}")]
    Verdict(String),
    /// The fault policy.
    #[error("{0}")]
    Faults(RunError),
    /// The budget or the trials, beyond what a run folder is read with.
    #[error("{which} {message}")]
    Size {
        /// `budget` or `trials`.
        which: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The optimiser cannot be built on this space and budget.
    #[error("{0}")]
    Algorithm(playtune::optim::Error),
    /// The ladder could not be built or checked.
    #[error("{0:#}")]
    Ladder(anyhow::Error),
    /// The ladder chosen measures what a constraint of the space does not name.
    #[error("the ladder's features: {0}")]
    LadderFeatures(String),
    /// The run's name.
    #[error("{0}")]
    Name(RunError),
    /// The folder could not be claimed or written.
    #[error("{0}")]
    Folder(RunError),
}

/// The problem `spec` names and the space searched: the user's, checked against the
/// problem and holding the problem's own constraints (a game's playability) and
/// `constraints` besides, or else the problem's own.
pub fn problem_and_space(
    spec: &ProblemSpec,
    user: Option<&UserSpace>,
    constraints: &[Constraint],
) -> Result<(Box<dyn Problem>, Space), StartError> {
    let with_text = user.and_then(|u| Some((u.text.as_deref()?, u.file.as_deref()?)));
    let problem = build_problem(spec, user.map(|u| &u.space)).map_err(|e| {
        // A dimension the game refuses is the space file's error: name its line.
        if let (Some((text, file)), playtune::registry::Error::Build(b)) = (with_text, &e)
            && let Some(
                playtune::harness::Error::OutsideRange { dimension, .. }
                | playtune::harness::Error::OutsideDomain { dimension, .. },
            ) = b.downcast_ref::<playtune::harness::Error>()
        {
            return StartError::SpaceFile(playtune::space::dim_error(
                text,
                file,
                dimension,
                "kind",
                b.to_string(),
            ));
        }
        StartError::Problem(e)
    })?;
    let mut space = match user {
        Some(u) => {
            Binding::new(&u.space, problem.space()).map_err(|e| match with_text {
                Some((text, file)) => StartError::SpaceFile(playtune::space::dim_error(
                    text, file, &e.dim, "name", e.message,
                )),
                None => StartError::Dimension {
                    dim: e.dim,
                    message: e.message,
                },
            })?;
            u.space.clone()
        }
        None => problem.space().clone(),
    };
    for c in &problem.space().constraints {
        if !space.constraints.contains(c) {
            space.constraints.push(c.clone());
        }
    }
    let features = problem.feature_names();
    let range = |name: &str| problem.feature_range(name);
    if let Some(u) = user {
        // Each of the space's own constraints, so that a refusal names its line.
        for (i, c) in u.space.constraints.iter().enumerate() {
            Check::resolve(std::slice::from_ref(c), &features, range).map_err(
                |e| match with_text {
                    Some((text, file)) => StartError::SpaceFile(playtune::space::constraint_error(
                        text,
                        file,
                        i,
                        &c.to_string(),
                        e.to_string(),
                    )),
                    None => StartError::Constraint(format!("{c}: {e}")),
                },
            )?;
        }
    }
    Check::resolve(constraints, &features, range)
        .map_err(|e| StartError::Constraint(e.to_string()))?;
    for c in constraints {
        if !space.constraints.contains(c) {
            space.constraints.push(c.clone());
        }
    }
    Ok((problem, space))
}

/// How a run races its candidates before recommending, and measures its best again.
pub struct Racing {
    /// No race at all.
    pub off: bool,
    /// The race's share of each trial's budget (`None`: the library's default race,
    /// where it has one).
    pub share: Option<f64>,
    /// Most candidates that enter it.
    pub candidates: usize,
    /// How the problem's own baseline takes part.
    pub baseline: RaceBaseline,
    /// Whether the best point is measured again (where the library does by default).
    pub intensify: bool,
    /// Most evaluations of the best point (`None`: the default's).
    pub intensify_max: Option<u64>,
}

impl Default for Racing {
    fn default() -> Racing {
        Racing {
            off: false,
            share: None,
            candidates: RaceConfig::default().candidates,
            baseline: RaceBaseline::Entrant,
            intensify: true,
            intensify_max: None,
        }
    }
}

/// How a run's recommendation is judged against the problem's baseline or a point of
/// the user's: each `None` the library's default.
#[derive(Default)]
pub struct Judging {
    /// Evaluations a side (0: no verdict).
    pub evaluations: Option<u32>,
    /// The difference of fitness that matters.
    pub margin: Option<f64>,
    /// The point to beat, where not the problem's own baseline.
    pub baseline: Option<Vec<f64>>,
}

/// Everything a run is made of, as the front end parsed it.
pub struct RunRequest {
    /// Where run folders go.
    pub runs_dir: PathBuf,
    /// The run's name (`None`: made from its configuration).
    pub name: Option<String>,
    /// The problem.
    pub problem: ProblemSpec,
    /// The problem built, as [`problem_and_space`] returned it.
    pub built: Box<dyn Problem>,
    /// The space searched, as [`problem_and_space`] returned it.
    pub space: Space,
    /// The space file it came from.
    pub space_file: Option<String>,
    /// The optimiser.
    pub algorithm: AlgoConfig,
    /// Evaluations a trial.
    pub budget: u64,
    /// Independent trials.
    pub trials: u64,
    /// The run's seed.
    pub seed: u64,
    /// Whether every evaluation is logged.
    pub log: bool,
    /// Retries and the share of failures tolerated.
    pub faults: FaultPolicy,
    /// The race and intensification (`None`: neither, as for an archive).
    pub racing: Option<Racing>,
    /// The verdict (`None`: none, as for an archive).
    pub judging: Option<Judging>,
    /// What a design run does with its ladder first.
    pub ladder: LadderCheckSettings,
    /// Says nothing on standard error.
    pub quiet: bool,
    /// The run's work goes elsewhere (a cluster): its cost on this machine is not said.
    pub remote: bool,
}

/// A run folder made: `config.ron` written, nothing evaluated, the folder locked until
/// `lock` is dropped.
pub struct CreatedRun {
    /// The folder.
    pub dir: PathBuf,
    /// Held while the run is driven: a `resume` started meanwhile is refused.
    pub lock: run::lock::FolderLock,
    /// What was written.
    pub config: RunConfig,
    /// The problem, as the ladder left it.
    pub problem: Box<dyn Problem>,
}

/// Creates the run `request` describes, once every part of it is known good.
pub fn create_run(request: RunRequest) -> Result<CreatedRun, StartError> {
    let mut problem = request.built;
    let (budget, seed, quiet) = (request.budget, request.seed, request.quiet);
    let (algorithm, judging) = (request.algorithm, request.judging);
    let has_baseline = problem.baseline().is_some();
    let (race, intensify) = match request.racing {
        Some(r) => (
            race(&r, has_baseline, &algorithm, budget)?,
            intensify(&r, has_baseline, &algorithm)?,
        ),
        None => (None, None),
    };
    if let Some(m) = judging.as_ref().and_then(|j| j.margin) {
        VerdictSettings::check_margin(m).map_err(StartError::Margin)?;
    }
    // How the run is judged is kept, so that `resume` judges alike: what the user
    // said, and the problem's own margin, so that the verdict plays until it decides.
    let verdict = match &judging {
        Some(j)
            if j.evaluations.is_some()
                || j.margin.is_some()
                || j.baseline.is_some()
                || has_baseline =>
        {
            Some(
                VerdictSettings::for_new_run(
                    problem.as_ref(),
                    budget,
                    j.evaluations,
                    j.margin,
                    j.baseline.clone(),
                )
                .map_err(StartError::Verdict)?,
            )
        }
        _ => None,
    };
    let mut config = RunConfig {
        playtune_version: env!("CARGO_PKG_VERSION").into(),
        game: problem.game_identity(),
        problem: request.problem,
        space: request.space,
        space_file: request.space_file,
        algorithm,
        budget,
        trials: request.trials,
        seed,
        log: request.log,
        faults: request.faults,
        race,
        intensify,
        verdict,
    };
    config.faults.check().map_err(StartError::Faults)?;
    // The limits `config.ron` is read with, before anything is sized by them.
    run::check_size(budget, request.trials, "budget", "trials").map_err(|(which, message)| {
        StartError::Size {
            which: if which == "budget" {
                "budget"
            } else {
                "trials"
            },
            message,
        }
    })?;
    config
        .algorithm
        .build(
            &config.space,
            budget,
            0,
            &problem.feature_names(),
            &problem.default_axes(),
        )
        .map_err(StartError::Algorithm)?;
    // A design run's ladder is chosen (built where the game declares none) and checked
    // at the game's own rules once every setting is known good, before the cost is timed.
    if before_design(&mut config.problem, &request.ladder, budget, seed, quiet)
        .map_err(StartError::Ladder)?
    {
        let user_space = config.space_file.as_ref().map(|_| &config.space);
        problem = build_problem(&config.problem, user_space).map_err(StartError::Problem)?;
        let features = problem.feature_names();
        Check::resolve(&config.space.constraints, &features, |n| {
            problem.feature_range(n)
        })
        .map_err(|e| StartError::LadderFeatures(e.to_string()))?;
    }
    if !quiet && judging.is_some() {
        let plan = run::verdict::planned(&config, None);
        if !request.remote {
            super::cost::announce(
                problem.as_ref(),
                &config,
                plan.evaluations,
                plan.margin.is_some(),
            );
        }
        // A verdict larger than the search is worth a word before it is played: at a
        // small budget its default size (at least 10 a side) dwarfs the search.
        let n = plan.evaluations;
        if config.verdict.is_some() && u64::from(n) > budget {
            let up_to = if plan.margin.is_some() { "up to " } else { "" };
            eprintln!(
                "note: the verdict plays {up_to}{n} evaluations of the recommendation and {up_to}{n} of the baseline a trial, more than the search's {budget}"
            );
        }
    }
    let name = request
        .name
        .unwrap_or_else(|| playtune::registry::default_run_name(&config));
    run::check_run_name(&name).map_err(StartError::Name)?;
    let (dir, lock) = run::claim_fresh_dir(&request.runs_dir, &name).map_err(StartError::Folder)?;
    run::create_run_dir(&dir, &config).map_err(StartError::Folder)?;
    Ok(CreatedRun {
        dir,
        lock,
        config,
        problem,
    })
}

/// The race `r` asks for: the library's default where it gives no share.
fn race(
    r: &Racing,
    has_baseline: bool,
    algorithm: &AlgoConfig,
    budget: u64,
) -> Result<Option<RaceConfig>, StartError> {
    if r.off {
        return Ok(None);
    }
    let default = playtune::optim::race::by_default(has_baseline, algorithm);
    let config = match (r.share, default) {
        (None, None) => return Ok(None),
        (share, default) => RaceConfig {
            share: share.unwrap_or(RaceConfig::default().share),
            candidates: r.candidates,
            baseline: r.baseline,
            ..default.unwrap_or_default()
        },
    };
    config.check().map_err(StartError::Race)?;
    // A share given that the budget cannot honour is refused; the default race simply
    // does not run on a budget too small for it.
    if r.share.is_some() {
        config.check_budget(budget).map_err(StartError::Race)?;
    }
    Ok(Some(config))
}

/// The intensification `r` asks for: the library's default, its cap overridden.
fn intensify(
    r: &Racing,
    has_baseline: bool,
    algorithm: &AlgoConfig,
) -> Result<Option<IntensifyConfig>, StartError> {
    if !r.intensify {
        return Ok(None);
    }
    let default = playtune::optim::intensify::by_default(has_baseline, algorithm);
    let config = match (r.intensify_max, default) {
        (None, default) => default,
        (Some(max), default) => Some(IntensifyConfig {
            max_evaluations: max,
            ..default.unwrap_or_default()
        }),
    };
    if let Some(c) = &config {
        c.check().map_err(StartError::Intensify)?;
    }
    Ok(config)
}
