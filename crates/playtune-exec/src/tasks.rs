//! The task kinds every experiment shares: one evaluation of a problem's point with a
//! seed (re-evaluations, validations, true win rates), and one game of a tournament.

use super::{BoxError, ExecError, Executor, Task, map};
use playtune::eval::{EvalError, Evaluation, Problem};
use playtune::harness::{AgentSpec, GameRequest, Record, TournamentResult, tournament as games};
use playtune::rng::derive_seed;
use playtune::run::ProblemSpec;
use playtune::space::Space;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// One evaluation of a point of a problem (a point of the problem's own space), with
/// its seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Evaluate {
    /// The problem, by name and settings.
    pub problem: ProblemSpec,
    /// The search space the problem is built with (an external evaluator's); None:
    /// the problem's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<Space>,
    /// The point, in the space's values.
    pub point: Vec<f64>,
    /// The evaluation's seed.
    pub seed: u64,
    /// What the evaluation is, for its error message ("RMHC, trial 3, re-evaluation 2").
    pub what: String,
}

/// An evaluation of an [`Evaluate`] task that failed, named by what it was.
#[derive(Debug, thiserror::Error)]
#[error("{what}: {source}")]
pub(crate) struct EvaluationFailed {
    pub(crate) what: String,
    pub(crate) source: EvalError,
}

impl Task for Evaluate {
    const KIND: &'static str = "evaluate";
    type Output = Evaluation;
    fn run(&self) -> Result<Evaluation, BoxError> {
        problem(&self.problem, self.space.as_ref())?
            .evaluate(&self.point, self.seed)
            .map_err(|source| {
                EvaluationFailed {
                    what: self.what.clone(),
                    source,
                }
                .into()
            })
    }
}

/// The problems built in this process, by spec: a spec is built once, however many
/// of its evaluations run here.
#[allow(clippy::type_complexity)]
static PROBLEMS: Mutex<Vec<(String, Arc<dyn Problem>)>> = Mutex::new(Vec::new());

fn problem(spec: &ProblemSpec, space: Option<&Space>) -> Result<Arc<dyn Problem>, BoxError> {
    let key = ron::to_string(&(spec, space))?;
    let mut built = PROBLEMS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = built.iter().find(|(k, _)| *k == key) {
        return Ok(p.clone());
    }
    let p: Arc<dyn Problem> = Arc::from(playtune::registry::build_problem(spec, space)?);
    built.push((key, p.clone()));
    Ok(p)
}

/// One game of a tournament: game `index` of `lineup` (the seats rotating with
/// `index`), as [`playtune::harness::DynGame::tournament`] plays it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentGame {
    pub(crate) game: String,
    pub(crate) settings: Vec<(String, String)>,
    pub(crate) agents: Vec<String>,
    pub(crate) budget: Option<usize>,
    pub(crate) lineup: Vec<usize>,
    pub(crate) index: usize,
    pub(crate) seed: u64,
}

impl Task for TournamentGame {
    const KIND: &'static str = "tournament-game";
    type Output = Record;
    fn run(&self) -> Result<Record, BoxError> {
        // The task crossed a file as text: read once here, as where it was given.
        let game = playtune::registry::game(&self.game)?;
        let req = GameRequest {
            settings: game.settings_values(&self.settings)?,
            agents: AgentSpec::parse_all(&self.agents)?,
            budget: self.budget,
            seed: self.seed,
        };
        Ok(game.play_lineup(&req, &self.lineup, self.index)?)
    }
}

/// A tournament of game `game` on `exec`: the games [`playtune::harness::DynGame::tournament`]
/// plays, with the same seeds, one task each, summed up the same way.
pub fn tournament(
    exec: &dyn Executor,
    label: &str,
    game: &str,
    req: &GameRequest,
    count: usize,
) -> Result<TournamentResult, ExecError> {
    if count == 0 {
        return Err(ExecError::NoGames {
            game: game.to_string(),
        });
    }
    let def = playtune::registry::game(game)?;
    let names = def.agent_names(req)?;
    let players = def.players(&req.settings)?;
    let lineups = games::lineups(names.len(), players)?;
    let tasks: Vec<TournamentGame> = (0..lineups.len())
        .flat_map(|k| (0..count).map(move |g| (k, g)))
        .map(|(k, g)| TournamentGame {
            game: game.to_string(),
            settings: req.settings.pairs().to_vec(),
            agents: req.agents.iter().map(ToString::to_string).collect(),
            budget: req.budget,
            lineup: lineups[k].clone(),
            index: g,
            seed: derive_seed(req.seed, &[k as u64, g as u64]),
        })
        .collect();
    let records = map(exec, label, &tasks)?;
    Ok(games::summarize(&names, &lineups, count, &records))
}
