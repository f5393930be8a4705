//! Designing any game: the skill-depth problem over a game's settings, for every game
//! the harness plays. A point of the search space is a set of game settings; its
//! fitness is the skill depth of a ladder of agents (weakest first) under them, and
//! its features are each rung's result and the games' design metrics, so that any of
//! them can be an archive axis or a constraint.

use super::metrics::DesignMetrics;
use super::{AgentSpec, DynGame, Error, GameRequest, Values, ladder};
use playtune_optim::eval::{EvalError, Evaluation, Problem};
use playtune_optim::space::Space;

/// What the design problem plays.
#[derive(Clone, Debug, PartialEq)]
pub struct DesignConfig {
    /// Agent specs, weakest first (at least two).
    pub ladder: Vec<String>,
    /// Games each rung plays at every point.
    pub games: usize,
    /// Every agent's default forward-model budget, if given.
    pub budget: Option<usize>,
    /// Game settings that stay as given at every point (`players=2`).
    pub settings: Vec<(String, String)>,
    /// Whether the design metrics are features too (the rungs' results always are).
    pub metrics: bool,
    /// Whether the game's playability constraints ([`super::GameDef::playability`])
    /// hold the search: the problem's space carries them, so a run gets them unless
    /// the user drops them (`playable=false`).
    pub playable: bool,
}

/// A game's own measure of a ladder rung ([`super::GameDef::rung_measure`]): the rung
/// takes `seat`, the game's default line-up for the point takes the other seats, and
/// the rung's result is the mean over its games of the game's summary value `result`
/// ([`super::GameDef::summary`]).
#[derive(Clone, Copy, Debug)]
pub struct RungMeasure {
    /// The seat the rung plays.
    pub seat: usize,
    /// The summary value that is the rung's result.
    pub result: &'static str,
    /// Summary values reported per rung, as (feature, summary name): feature `f` of
    /// rung `mcts` is named `f_mcts`.
    pub features: &'static [(&'static str, &'static str)],
}

/// Problem `design`: for a point's game settings, rung `r` of the ladder plays `games`
/// games against `players - 1` copies of the weakest rung, its seat rotating with the
/// game (game `g`: seat `g % players`), game `g` of rung `r` seeded with
/// `derive_seed(seed, [r, g])`. A rung's result is its mean score, a win counting 1
/// and a win shared by k players 1/k, unless the game has its own [`RungMeasure`]; the
/// fitness is the ladder's skill depth, the smallest gap between neighbouring rungs
/// (`harness::ladder::skill_depth`).
pub struct DesignProblem {
    game: &'static dyn DynGame,
    config: DesignConfig,
    space: Space,
    features: Vec<String>,
    measure: Option<RungMeasure>,
    /// The game's own rules under the settings held fixed: the verdict's baseline.
    own: Vec<(String, String)>,
    /// The same, read once as the game's settings.
    own_values: Values,
    /// The settings held fixed, read once: each point's are put over them.
    fixed: Values,
    /// The ladder's rungs, weakest first, each spec parsed once.
    rungs: Vec<AgentSpec>,
    /// Rungs whose result is known without playing: the weakest rung, and any rung
    /// that is the same agent, meets only copies of itself, so by symmetry its mean
    /// score is `1 / players`. Measuring it would only add noise to the depth.
    known: Vec<bool>,
}

/// The setting that counts a game's players, by convention.
const PLAYERS: &str = "players";

/// The feature holding an evaluation's skill depth's standard error.
pub const DEPTH_SE: &str = "skill_depth_se";

/// The design metrics a design evaluation reports, in order (per-seat win rates are
/// left out: the number of seats may change with the point).
const METRICS: [&str; 8] = [
    "seat_advantage",
    "draw_rate",
    "stalemate_rate",
    "ended_by_rules",
    "mean_length",
    "sd_length",
    "lead_changes",
    "decided_at",
];

/// The lead metrics, unavailable for a game that reports no trace.
pub const LEAD_METRICS: [&str; 2] = ["lead_changes", "decided_at"];

/// The design metrics `game` reports: every one of [`METRICS`], the lead metrics only
/// where its matches are traced, then the game's own features
/// ([`DynGame::own_features`]).
fn metrics_of(game: &dyn DynGame) -> Vec<String> {
    let mut names: Vec<String> = METRICS
        .iter()
        .filter(|m| game.traced() || !LEAD_METRICS.contains(m))
        .map(|m| m.to_string())
        .collect();
    names.extend(game.own_features());
    names
}

/// The mean of the game's own figure `name` over every seat of every game (NaN where
/// no match reported it).
fn own_feature_mean(records: &[super::Record], name: &str) -> f64 {
    let values: Vec<f64> = records
        .iter()
        .flat_map(|r| (0..r.seats.len()).filter_map(|seat| r.seat_feature(name, seat)))
        .collect();
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// The names of the design metrics a game reports: the lead metrics only where its
/// matches are `traced`.
pub fn metric_names(traced: bool) -> Vec<&'static str> {
    METRICS
        .iter()
        .copied()
        .filter(|m| traced || !LEAD_METRICS.contains(m))
        .collect()
}

impl DesignProblem {
    /// The problem over `space` (a --space file), or the game's own design space.
    /// Every dimension must be a game setting; one also given in `config.settings` is
    /// fixed at that value.
    pub fn new(
        game: &'static dyn DynGame,
        config: DesignConfig,
        space: Option<&Space>,
    ) -> Result<DesignProblem, Error> {
        if config.ladder.len() < 2 {
            return Err(Error::field(
                "ladder",
                format!(
                    "give at least two agents, weakest first (got {})",
                    config.ladder.len()
                ),
            ));
        }
        if config.games == 0 {
            return Err(Error::field("games=0", "play at least one game per rung"));
        }
        let mut config = config;
        let own_space = space.is_none();
        let mut space = match space {
            Some(s) => s.clone(),
            None => game.design_space().ok_or_else(|| Error::NoDesignSpace {
                game: game.name().to_string(),
            })?,
        };
        let settings = game.settings();
        for d in &space.dims {
            let Some(setting) = settings.iter().find(|s| s.name == d.name) else {
                return Err(Error::NotASetting {
                    dimension: d.name.clone(),
                    owner: format!("game `{}`", game.name()),
                    known: settings.iter().map(|s| s.name.clone()).collect(),
                });
            };
            // A domain that leaves the game's own range, or takes values it does not
            // (2.5 coins), would fail at play, points into the search: refuse it
            // before any game, the range first (its message says the most).
            if let Some((min, max)) = setting.range {
                let (low, high) = d.domain.bounds();
                if low < min || high > max {
                    return Err(Error::OutsideRange {
                        dimension: d.name.clone(),
                        game: game.name().to_string(),
                        domain: d.domain.describe(),
                        min,
                        max,
                    });
                }
            }
            if let Some(takes) = &setting.values
                && !d.domain.fits_within(takes)
            {
                return Err(Error::OutsideDomain {
                    dimension: d.name.clone(),
                    game: game.name().to_string(),
                    domain: d.domain.describe(),
                    takes: takes.describe(),
                });
            }
        }
        // The game's own rules for the settings held fixed (2-player Splendor's bank,
        // not the 4-player one with `players=2`): the baseline, and the defaults of
        // the game's own design space. The settings given are read once, for these and
        // the playability constraints.
        // Skill depth's ceiling depends on the player count (`(1 - 1/P) / 2`: 0.25 at two,
        // 0.375 at four), and so do the playability bounds: points of different counts
        // are not compared like for like. So the game's own space holds the count at
        // its smallest unless the user fixes another (`players=4`); a space file that
        // names `players` searches it, as asked.
        if own_space
            && !config.settings.iter().any(|(k, _)| k == PLAYERS)
            && let Some(d) = space.dims.iter().find(|d| d.name == PLAYERS)
        {
            let (fewest, _) = d.domain.bounds();
            config
                .settings
                .push((PLAYERS.to_string(), format!("{}", fewest.round() as i64)));
        }
        // A dimension the space holds fixed (a run's space rebuilt from its
        // `config.ron`, a space file's fix) is a setting held fixed like one given: the
        // game's own rules and its playability are those for it, so that a run read
        // back judges against the baseline it was run with.
        let held = space.render(&space.decode(&space.default_indices()));
        for (d, (name, value)) in space.dims.iter().zip(held) {
            if d.fixed && !config.settings.iter().any(|(k, _)| *k == name) {
                config.settings.push((name, value));
            }
        }
        let given = game.settings_values(&config.settings)?;
        let own = game.own_rules(&given)?;
        if own_space {
            for d in space.dims.iter_mut() {
                if let Some(i) = own
                    .iter()
                    .find(|(k, _)| *k == d.name)
                    .and_then(|(_, v)| d.domain.parse_value(v))
                {
                    d.default = i;
                }
            }
        }
        if config.playable {
            for text in game.playability(&given)? {
                let c: playtune_optim::space::Constraint = text.parse().map_err(|e| {
                    Error::field("playable", format!("the game's constraint `{text}`: {e}"))
                })?;
                if !space.constraints.contains(&c) {
                    space.constraints.push(c);
                }
            }
        }
        // A game setting given for a dimension fixes that dimension there: `players=2`
        // searches the 2-player rules.
        let mut fixed = Vec::new();
        config.settings.retain(|(k, v)| {
            if space.position(k).is_some() {
                fixed.push((k.clone(), v.clone()));
                false
            } else {
                true
            }
        });
        for (k, v) in fixed {
            space.fix(&k, &v).map_err(|source| Error::Fix {
                field: "game_settings".into(),
                source: Box::new(source),
            })?;
        }
        let measure = game.rung_measure();
        let mut features: Vec<String> = Vec::new();
        let rungs = AgentSpec::parse_all(&config.ladder)?;
        let agents: Vec<&str> = rungs.iter().map(|r| r.name.as_str()).collect();
        for (i, text) in config.ladder.iter().enumerate() {
            // A rung's feature is named by its agent; two rungs of one agent (MCTS at two
            // budgets) by their whole specs, settings included, so that each name says
            // which rung it is.
            let shared = agents.iter().filter(|a| **a == agents[i]).count() > 1;
            let name = feature_name(if shared { text } else { agents[i] });
            match measure {
                None => features.push(format!("win_rate_{i}_{name}")),
                Some(m) => {
                    for (f, _) in m.features {
                        let feature = format!("{f}_{name}");
                        if features.contains(&feature) {
                            return Err(Error::field(
                                "ladder",
                                format!(
                                    "two rungs are named `{name}` and {} names its features by rung: give each rung another agent",
                                    game.name()
                                ),
                            ));
                        }
                        features.push(feature);
                    }
                }
            }
        }
        if config.metrics {
            features.extend(metrics_of(game));
        }
        let known = config
            .ladder
            .iter()
            .enumerate()
            .map(|(i, rung)| measure.is_none() && (i == 0 || *rung == config.ladder[0]))
            .collect();
        // A game's own measure (Space Battle's, the NTBEA paper's) keeps the features
        // its published runs logged.
        if measure.is_none() {
            features.insert(config.ladder.len(), DEPTH_SE.to_string());
        }
        let own_values = game.settings_values(&own)?;
        let fixed = game.settings_values(&config.settings)?;
        let problem = DesignProblem {
            game,
            config,
            space,
            features,
            measure,
            own,
            own_values,
            fixed,
            rungs,
            known,
        };
        // The game's default point must set up, and every rung must build, before a
        // search starts.
        let x0 = problem.space.decode(&problem.space.default_indices());
        let values = problem.settings_at(&x0)?;
        for rung in 0..problem.config.ladder.len() {
            let (agents, _) = problem.lineup(&values, rung, 0)?;
            game.check(&GameRequest {
                settings: values.clone(),
                agents,
                budget: problem.config.budget,
                seed: 0,
            })
            .map_err(|e| e.context(format!("ladder agent `{}`", problem.config.ladder[rung])))?;
        }
        Ok(problem)
    }

    /// One evaluation of the rules `settings`: every rung not known by symmetry plays
    /// `games` games, game `g` of every rung seeded with `derive_seed(seed, [g])`
    /// (common random numbers: the rungs meet the same deals and seats, so their gaps
    /// are measured paired; a game's own measure keeps its published seeding,
    /// [`ladder::RungSeeds::PerRung`]).
    fn evaluate_settings(&self, values: &Values, seed: u64) -> Result<Evaluation, Error> {
        let players = self.game.players(values)?;
        let games = self.config.games;
        let measure = self.measure;
        // A game's own measure reads its summary values; name them once.
        let summary = |record: &super::Record, name: &str| -> Result<f64, Error> {
            record
                .extra
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| *v)
                .ok_or_else(|| Error::NoSummary {
                    game: self.game.name().to_string(),
                    name: name.to_string(),
                })
        };
        let measured: Vec<usize> = (0..self.config.ladder.len())
            .filter(|&r| !self.known[r])
            .collect();
        // A game's own measure (Space Battle's, the NTBEA paper's) keeps the seeding
        // its published runs replay.
        let seeds = match measure {
            None => ladder::RungSeeds::Common,
            Some(_) => ladder::RungSeeds::PerRung,
        };
        // Each rung's lineups set up once (its seat moves with the game: one lineup a
        // seat), not once a game.
        let lineups = match measure {
            Some(_) => 1,
            None => players.min(games).max(1),
        };
        let mut prepared = Vec::with_capacity(self.config.ladder.len());
        for rung in 0..self.config.ladder.len() {
            let mut seats = Vec::new();
            if !self.known[rung] {
                for g in 0..lineups {
                    let (agents, seat) = self.lineup(values, rung, g)?;
                    let game = self.game.prepare(&GameRequest {
                        settings: values.clone(),
                        agents,
                        budget: self.config.budget,
                        seed,
                    })?;
                    seats.push((game, seat));
                }
            }
            prepared.push(seats);
        }
        let played = ladder::play_rungs(&measured, games, seed, seeds, |rung, g, seed| {
            let (game, seat) = &prepared[rung][g % lineups];
            let seat = *seat;
            let record = game.play(seed)?;
            let score = match measure {
                Some(m) => summary(&record, m.result)?,
                None => record.shared_win(seat),
            };
            Ok::<_, Error>((record, score))
        })?;
        // Each rung's per-game scores: a known rung scores its share of a game among
        // equals in every game.
        let mut chunks = played.chunks(games);
        let mut scores: Vec<Vec<f64>> = Vec::new();
        let mut features = Vec::new();
        for r in 0..self.config.ladder.len() {
            if self.known[r] {
                scores.push(vec![1.0 / players as f64; games]);
                features.push(1.0 / players as f64);
                continue;
            }
            let chunk = chunks.next().unwrap_or_default();
            let s: Vec<f64> = chunk.iter().map(|(_, s)| *s).collect();
            match measure {
                None => features.push(mean(&s)),
                Some(m) => {
                    for (_, key) in m.features {
                        let values: Vec<f64> = chunk
                            .iter()
                            .map(|(rec, _)| summary(rec, key))
                            .collect::<Result<_, _>>()?;
                        features.push(mean(&values));
                    }
                }
            }
            scores.push(s);
        }
        let rungs: Vec<f64> = scores.iter().map(|s| mean(s)).collect();
        if measure.is_none() {
            features.push(ladder::depth_se(&scores));
        }
        if self.config.metrics {
            let records: Vec<_> = played.into_iter().map(|(r, _)| r).collect();
            let metrics = DesignMetrics::of(&records, players).features();
            let own = self.game.own_features();
            features.extend(metrics_of(self.game).iter().map(|m| {
                if own.contains(m) {
                    return own_feature_mean(&records, m);
                }
                metrics
                    .iter()
                    .find(|(k, _)| k == m)
                    .map_or(f64::NAN, |(_, v)| *v)
            }));
        }
        Ok(Evaluation {
            fitness: ladder::skill_depth(&rungs),
            features,
        })
    }

    /// Who plays game `g` of rung `rung` under `settings`, and the rung's seat.
    fn lineup(
        &self,
        settings: &Values,
        rung: usize,
        g: usize,
    ) -> Result<(Vec<AgentSpec>, usize), Error> {
        let ladder = &self.rungs;
        Ok(match self.measure {
            Some(m) => {
                let mut agents = AgentSpec::parse_all(&self.game.default_agents(settings)?)?;
                if m.seat >= agents.len() {
                    return Err(Error::NoSeat {
                        game: self.game.name().to_string(),
                        seat: m.seat,
                    });
                }
                agents[m.seat] = ladder[rung].clone();
                (agents, m.seat)
            }
            None => {
                let players = self.game.players(settings)?;
                let seat = g % players;
                let mut agents = vec![ladder[0].clone(); players];
                agents[seat] = ladder[rung].clone();
                (agents, seat)
            }
        })
    }

    /// The game settings of point `x`: the point's over the fixed ones, read once.
    /// Its values need no reading: the space's domains were checked against the
    /// game's own ranges and values when the problem was made.
    fn settings_at(&self, x: &[f64]) -> Result<Values, Error> {
        Ok(self.fixed.with(&self.space.render(x))?)
    }
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// An agent's name or spec as part of a feature name: letters, digits and underscores.
pub(super) fn feature_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    cleaned.trim_matches('_').to_string()
}

impl Problem for DesignProblem {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        self.features.clone()
    }

    fn fitness_name(&self) -> &str {
        "skill depth"
    }

    /// Each evaluation's gap over the step that sets the depth of the rungs' results
    /// pooled over every evaluation (a game's own measure: its result features).
    fn pooled_terms(&self, evaluations: &[&Evaluation]) -> Option<Vec<f64>> {
        if self.measure.is_some() || evaluations.is_empty() {
            return None;
        }
        let rungs = self.config.ladder.len();
        let pooled: Vec<f64> = (0..rungs)
            .map(|r| {
                evaluations.iter().map(|e| e.features[r]).sum::<f64>() / evaluations.len() as f64
            })
            .collect();
        let step = ladder::depth_step(&pooled)?;
        Some(
            evaluations
                .iter()
                .map(|e| e.features[step + 1] - e.features[step])
                .collect(),
        )
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        self.settings_at(x)
            .and_then(|values| self.evaluate_settings(&values, seed))
            .map_err(|e| EvalError(e.to_string()))
    }

    /// The game's own rules under the settings held fixed.
    fn game_identity(&self) -> Option<playtune_optim::eval::GameIdentity> {
        self.game.identity()
    }

    fn baseline(&self) -> Option<playtune_optim::eval::Baseline> {
        Some(playtune_optim::eval::Baseline {
            label: format!("{}'s own rules", self.game.name()),
            settings: self
                .own
                .iter()
                .filter(|(k, _)| self.space.position(k).is_some())
                .cloned()
                .collect(),
        })
    }

    fn verdict_margin(&self) -> Option<f64> {
        Some(playtune_optim::eval::RATE_MARGIN)
    }

    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, EvalError> {
        self.evaluate_settings(&self.own_values, seed)
            .map_err(|e| EvalError(e.to_string()))
    }

    /// A rung's win rate, and the rates among the metrics, lie in 0 to 1.
    fn feature_range(&self, name: &str) -> Option<(f64, f64)> {
        match name {
            "seat_advantage" | "draw_rate" | "stalemate_rate" | "ended_by_rules" | "decided_at" => {
                Some((0.0, 1.0))
            }
            n if n.starts_with("win_rate_") => Some((0.0, 1.0)),
            _ => None,
        }
    }
}
