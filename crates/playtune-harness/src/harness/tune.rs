//! Tuning any agent of any game: the search space is the agent's tunable settings as
//! its registry entry declares them ([`super::Setting::tune`]), a point is an agent
//! spec, and its fitness is the agent's mean score against a set of opponents.

use super::{AgentSpec, DynGame, Error, GameRequest, Setting, Values};
use playtune_optim::eval::{EvalError, Evaluation, Problem};
use playtune_optim::rng::derive_seed;
use playtune_optim::space::{Dimension, Space};
use rayon::prelude::*;

/// What the tuning problem plays.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// The agent to tune, as a spec: settings it gives stay fixed at those values.
    pub agent: String,
    /// Opponent specs: the agent plays `games` games against each.
    pub opponents: Vec<String>,
    /// Games against each opponent per evaluation.
    pub games: usize,
    /// Every agent's default forward-model budget, if given.
    pub budget: Option<usize>,
    /// Game settings (`players=2`).
    pub settings: Vec<(String, String)>,
}

/// Problem `tune-agent`: at point `x` the agent (its settings from `x`) plays `games`
/// games against each opponent, the other `players - 1` seats taken by copies of that
/// opponent, its own seat rotating with the game (game `g`: seat `g % players`), game
/// `g` against opponent `o` seeded with `derive_seed(seed, [o, g])`. The fitness is
/// its mean score, a win counting 1 and a win shared by k players 1/k; the features are
/// the score against each opponent and the mean game length.
pub struct TuneProblem {
    game: &'static dyn DynGame,
    config: TuneConfig,
    base: AgentSpec,
    /// The opponents, each spec parsed once.
    opponents: Vec<AgentSpec>,
    /// The game's settings, read once: they never change.
    settings: Values,
    space: Space,
    features: Vec<String>,
    /// Players of a game under the settings, read once: they never change.
    players: usize,
}

/// The settings of agent `name` in `game`: its own entry or a generic agent's.
pub(crate) fn agent_settings(game: &dyn DynGame, name: &str) -> Option<Vec<Setting>> {
    let own = game
        .own_agents()
        .into_iter()
        .find(|a| a.names.iter().any(|n| n.eq_ignore_ascii_case(name)));
    match own {
        Some(a) => Some(a.settings),
        None => super::Generic::ALL
            .iter()
            .find(|g| g.name().eq_ignore_ascii_case(name))
            .map(|g| g.settings()),
    }
}

/// The grid value nearest a numeric default that is off the grid (MCTS's c = sqrt 2
/// against the grid's 1.41), among the values the domain says may be near it.
fn nearest(domain: &playtune_optim::space::Domain, default: &str) -> Option<usize> {
    let v: f64 = default.trim().parse().ok()?;
    let gap = |i: usize| (domain.value(i) - v).abs();
    domain
        .levels_near(v)
        .min_by(|&a, &b| gap(a).total_cmp(&gap(b)))
}

/// [`agent_settings`], or a message saying the game has no such agent.
fn known_agent_settings(game: &dyn DynGame, name: &str) -> Result<Vec<Setting>, Error> {
    agent_settings(game, name).ok_or_else(|| Error::NotAnAgent {
        game: game.name().to_string(),
        name: name.to_string(),
    })
}

/// The tuning space of an agent: one dimension per tunable setting it does not fix,
/// each at its default where the default lies on the grid (else the nearest grid
/// value, or the first).
pub fn tuning_space(game: &dyn DynGame, spec: &AgentSpec) -> Result<Space, Error> {
    let settings = known_agent_settings(game, &spec.name)?;
    for (k, _) in &spec.settings {
        if !settings.iter().any(|s| s.name == *k) {
            return Err(Error::Spec {
                spec: spec.to_string(),
                why: format!("it has no setting `{k}`"),
            });
        }
    }
    let dims: Vec<Dimension> = settings
        .iter()
        .filter(|s| !spec.settings.iter().any(|(k, _)| *k == s.name))
        .filter_map(|s| {
            let domain = s.tune.clone()?;
            let default = domain
                .parse_value(&s.default)
                .or_else(|| nearest(&domain, &s.default))
                .unwrap_or(0);
            Some(Dimension {
                name: s.name.clone(),
                domain,
                default,
                fixed: false,
            })
        })
        .collect();
    if dims.is_empty() {
        return Err(Error::NothingToTune {
            spec: spec.to_string(),
            why: format!(
                "{} (budgets are not tuned: more only buys strength)",
                if settings.iter().any(|s| s.tune.is_some()) {
                    "the spec fixes every tunable setting"
                } else {
                    "it declares no tunable settings"
                }
            ),
        });
    }
    Ok(Space {
        name: format!("{}-{}", game.name(), spec.name),
        dims,
        groups: Vec::new(),
        constraints: Vec::new(),
    })
}

impl TuneProblem {
    /// The problem over `space` (a --space file: a grid of some of the agent's
    /// settings), or the agent's own tuning space.
    pub fn new(
        game: &'static dyn DynGame,
        config: TuneConfig,
        space: Option<&Space>,
    ) -> Result<TuneProblem, Error> {
        if config.opponents.is_empty() {
            return Err(Error::field(
                "opponents",
                "give at least one opponent agent",
            ));
        }
        if config.games == 0 {
            return Err(Error::field(
                "games=0",
                "play at least one game per opponent",
            ));
        }
        let base = AgentSpec::parse(&config.agent)?;
        let space = match space {
            None => tuning_space(game, &base)?,
            Some(given) => {
                let settings = known_agent_settings(game, &base.name)?;
                for d in &given.dims {
                    if !settings.iter().any(|s| s.name == d.name) {
                        return Err(Error::NotASetting {
                            dimension: d.name.clone(),
                            owner: format!("agent `{}`", base.name),
                            known: settings.iter().map(|s| s.name.clone()).collect(),
                        });
                    }
                    if base.settings.iter().any(|(k, _)| *k == d.name) {
                        return Err(Error::FixedDimension {
                            dimension: d.name.clone(),
                            spec: base.to_string(),
                        });
                    }
                }
                given.clone()
            }
        };
        let mut features: Vec<String> = Vec::new();
        let opponents = AgentSpec::parse_all(&config.opponents)?;
        for (i, o) in config.opponents.iter().enumerate() {
            features.push(format!(
                "win_rate_{i}_vs_{}",
                super::design::feature_name(o)
            ));
        }
        features.push("mean_length".into());
        // The game's own figures, of the tuned agent's seat.
        features.extend(game.own_features());
        // The default point must play before a search starts.
        let settings = game.settings_values(&config.settings)?;
        let players = game.players(&settings)?;
        let problem = TuneProblem {
            game,
            config,
            base,
            opponents,
            settings,
            space,
            features,
            players,
        };
        let x0 = problem.space.decode(&problem.space.default_indices());
        let agent = problem.spec_at(&x0);
        for o in &problem.opponents {
            let mut agents = vec![o.clone(); players];
            agents[0] = agent.clone();
            game.check(&GameRequest {
                settings: problem.settings.clone(),
                agents,
                budget: problem.config.budget,
                seed: 0,
            })
            .map_err(|e| e.context(format!("opponent `{o}` against `{agent}`")))?;
        }
        Ok(problem)
    }

    /// The agent at point `x`: the fixed settings, then the point's, in the order the
    /// agent declares them.
    fn spec_at(&self, x: &[f64]) -> AgentSpec {
        let mut spec = self.base.clone();
        spec.settings.extend(self.space.render(x));
        spec
    }
}

impl Problem for TuneProblem {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        self.features.clone()
    }

    fn fitness_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn fitness_name(&self) -> &str {
        "win rate"
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        self.evaluate_agent(&self.spec_at(x), seed)
    }

    /// The agent as the user gave it, its settings at the agent's own defaults.
    fn game_identity(&self) -> Option<playtune_optim::eval::GameIdentity> {
        self.game.identity()
    }

    fn baseline(&self) -> Option<playtune_optim::eval::Baseline> {
        Some(playtune_optim::eval::Baseline {
            label: format!("the untuned agent {}", self.base),
            settings: Vec::new(),
        })
    }

    fn verdict_margin(&self) -> Option<f64> {
        Some(playtune_optim::eval::RATE_MARGIN)
    }

    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, EvalError> {
        self.evaluate_agent(&self.base, seed)
    }

    fn agent_spec(&self, x: &[f64]) -> Option<String> {
        Some(self.spec_at(x).to_string())
    }
}

impl TuneProblem {
    /// One evaluation of the agent `agent` (a spec).
    fn evaluate_agent(&self, agent: &AgentSpec, seed: u64) -> Result<Evaluation, EvalError> {
        let players = self.players;
        let games = self.config.games;
        let jobs: Vec<(usize, usize)> = (0..self.config.opponents.len())
            .flat_map(|o| (0..games).map(move |g| (o, g)))
            .collect();
        // Each opponent's lineups set up once (the agent's seat moves with the game:
        // one lineup a seat), not once a game.
        let lineups = players.min(games).max(1);
        let prepared = (0..self.config.opponents.len())
            .map(|o| {
                (0..lineups)
                    .map(|seat| {
                        let mut agents = vec![self.opponents[o].clone(); players];
                        agents[seat] = agent.clone();
                        self.game.prepare(&GameRequest {
                            settings: self.settings.clone(),
                            agents,
                            budget: self.config.budget,
                            seed,
                        })
                    })
                    .collect::<Result<Vec<_>, Error>>()
            })
            .collect::<Result<Vec<_>, Error>>()
            .map_err(|e| EvalError(e.to_string()))?;
        let own = self.game.own_features();
        let played: Vec<(f64, u32, Vec<Option<f64>>)> = jobs
            .par_iter()
            .map(|&(o, g)| {
                let seat = g % players;
                let record =
                    prepared[o][g % lineups].play(derive_seed(seed, &[o as u64, g as u64]))?;
                let score = record.shared_win(seat);
                // Agent `seat` of the lineup sits in game seat `seat`.
                let figures = own.iter().map(|f| record.seat_feature(f, seat)).collect();
                Ok((score, record.length, figures))
            })
            .collect::<Result<_, Error>>()
            .map_err(|e| EvalError(e.to_string()))?;
        let mut features: Vec<f64> = played
            .chunks(games)
            .map(|c| c.iter().map(|(s, _, _)| s).sum::<f64>() / games as f64)
            .collect();
        let fitness = features.iter().sum::<f64>() / features.len() as f64;
        features.push(played.iter().map(|(_, l, _)| *l as f64).sum::<f64>() / played.len() as f64);
        for i in 0..own.len() {
            let values: Vec<f64> = played.iter().filter_map(|(_, _, f)| f[i]).collect();
            features.push(if values.is_empty() {
                f64::NAN
            } else {
                values.iter().sum::<f64>() / values.len() as f64
            });
        }
        Ok(Evaluation { fitness, features })
    }
}
