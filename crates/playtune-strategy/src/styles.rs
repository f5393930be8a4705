//! The play-style problem `strategy-styles` (issue 18; the play-styles paper's
//! Section IV): a point is the 11 genome weights of P-MCTS(PU) (research and spawn
//! scripts; the other scripts keep 0.5), and an evaluation plays it against a fixed
//! opponent on a few training levels. Fitness is the win rate; the features are the
//! game logs' play-style descriptors of the evaluated agent's seat, averaged over its
//! games, each with its standard error, so that MAP-Elites can place the point by any
//! pair of them and a heatmap can show any of them.
//!
//! The paper breaks win-rate ties by mean score: the problem names `mean_score` as
//! its tie-break ([`Problem::tie_break`]), which `playtune map-elites` turns into the
//! archive's `lexicographic:mean_score` rule unless `--better` says otherwise.

use super::def::{Strategy, configs};
use super::level::{Level, training_levels};
use super::log::{Features, features};
use super::state::StrategyState;
use playtune_harness::game::{Agent, Game};
use playtune_harness::play::{AGENTS, play};
use playtune_harness::{AgentSpec, all_agents, build_agent};
use playtune_harness::{Error, GameDef, Values};
use playtune_optim::eval::{EvalError, Evaluation, FeatureAxis, Problem};
use playtune_optim::rng::derive_seed;
use playtune_optim::space::{Space, parse_space};
use playtune_optim::stats::Summary;
use rayon::prelude::*;

/// The genome space, the very file users pass with `--space`, so the two cannot drift.
const SPACE_FILE: &str = include_str!("../../../spaces/strategy_script_weights.ron");

/// The statistics an evaluation reports, in order; [`FEATURES`] adds each one's
/// standard error as `NAME_se`.
pub(crate) const STATISTICS: [&str; 17] = [
    "win_rate",
    "mean_score",
    "attacks",
    "ranged_minus_melee",
    "defender_spawns",
    "winning_turn",
    "research_slope",
    "tile_dominance_slope",
    "captures",
    "kills",
    "builds",
    "production_slope",
    "expansion_slope",
    "tile_share",
    "rider_spawns",
    "spawns",
    "economy_research",
];

/// Every feature name: the `STATISTICS`, then their standard errors.
pub fn feature_names() -> Vec<String> {
    STATISTICS
        .iter()
        .map(|s| s.to_string())
        .chain(STATISTICS.iter().map(|s| format!("{s}_se")))
        .collect()
}

/// Settings of [`StylesProblem`] (the registry's `--set` names).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StylesConfig {
    /// The first `levels` levels of `level_set` are played (the paper picks a few
    /// representative ones; ours are generated, so the first ones are as good as any).
    pub levels: usize,
    /// `training` (the search's) or `validation` (levels the search never saw, for
    /// validating an archive's elites).
    pub level_set: String,
    /// Games per level; seats alternate over the whole evaluation.
    pub games: usize,
    /// The fixed opponent, an agent of the game as on the command line.
    pub opponent: String,
    /// Forward-model calls per decision of both agents (unless the opponent's spec sets
    /// its own `budget`).
    pub budget: usize,
    /// Turns each before the score decides (the game's `turns` setting).
    pub turns: usize,
}

impl Default for StylesConfig {
    /// The paper's sketch: 2 levels x 5 games against MCTS, 2000 calls a decision.
    fn default() -> Self {
        StylesConfig {
            levels: 2,
            level_set: "training".into(),
            games: 5,
            opponent: "mcts".into(),
            budget: 2000,
            turns: super::state::GameConfig::default().turn_limit as usize,
        }
    }
}

/// P-MCTS(PU) with genome weights against a fixed opponent.
pub(crate) struct StylesProblem {
    config: StylesConfig,
    space: Space,
    game: Values,
    opponent: AgentSpec,
    level_seeds: Vec<u64>,
}

impl StylesProblem {
    /// Checks every setting (the opponent builds, the levels exist) before any game.
    pub(crate) fn new(config: StylesConfig) -> Result<StylesProblem, Error> {
        let space = parse_space(SPACE_FILE, "spaces/strategy_script_weights.ron")?;
        let available = match config.level_set.as_str() {
            "training" => training_levels(),
            "validation" => super::level::validation_levels(),
            other => {
                return Err(Error::value(
                    "level_set",
                    other,
                    "give training or validation",
                ));
            }
        };
        if config.levels == 0 || config.levels > available.len() {
            return Err(Error::value(
                "levels",
                config.levels.to_string(),
                format!(
                    "there are {} {} levels; give 1 to {}",
                    available.len(),
                    config.level_set,
                    available.len()
                ),
            ));
        }
        if config.games == 0 {
            return Err(Error::field("games=0", "play at least one game per level"));
        }
        let game = Values::new(
            "game `strategy`",
            &Strategy.settings(),
            &[("turns".into(), config.turns.to_string())],
        )?;
        if config.turns == 0 || config.turns > super::log::MAX_TURNS {
            return Err(Error::value(
                "turns",
                config.turns.to_string(),
                format!("give 1 to {} turns", super::log::MAX_TURNS),
            ));
        }
        let opponent = AgentSpec::parse(&config.opponent)
            .map_err(|e| e.context(format!("opponent={}", config.opponent)))?;
        let problem = StylesProblem {
            level_seeds: available[..config.levels].to_vec(),
            config,
            space,
            game,
            opponent,
        };
        problem
            .agent(&problem.opponent)
            .map_err(|e| e.context(format!("opponent={}", problem.config.opponent)))?;
        problem.evaluated(&problem.space.decode(&problem.space.default_indices()))?;
        Ok(problem)
    }

    fn agent(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<StrategyState>>, Error> {
        build_agent(
            "strategy",
            &all_agents(Strategy.agents()),
            spec,
            Some(self.config.budget),
            &self.game,
        )
    }

    /// The evaluated agent: P-MCTS(PU) with the point's genome weights, through the
    /// agent registry's `weights=a/b/...` setting so it is the very agent
    /// `playtune play` builds from that spec (Rust prints each f64 so that it parses
    /// back to itself).
    fn evaluated(&self, x: &[f64]) -> Result<AgentSpec, Error> {
        let w = super::scripts::weights_from_point(&self.space, x)?;
        let spec = AgentSpec {
            name: "p-mcts-pu".into(),
            settings: vec![("weights".into(), super::scripts::genome_text(&w))],
        };
        self.agent(&spec)?;
        Ok(spec)
    }

    /// Plays game `i` of an evaluation: level `i / games`, the evaluated agent in seat
    /// `i % 2`, seeded by (evaluation seed, i) alone so that the result depends on
    /// neither the thread count nor the order games finish in.
    fn play_one(&self, me: &AgentSpec, i: usize, seed: u64) -> Result<GameOutcome, Error> {
        let (game_config, level_config) = configs(&self.game)?;
        let level = Level::generate(self.level_seeds[i / self.config.games], &level_config)?;
        let state = StrategyState::new(&level, &game_config)?;
        let (mut a, mut b) = (self.agent(me)?, self.agent(&self.opponent)?);
        let seat = i % 2;
        let mut agents: Vec<&mut dyn Agent<StrategyState>> = vec![a.as_mut(), b.as_mut()];
        let end = play(
            state,
            &mut agents,
            &[seat, 1 - seat],
            AGENTS,
            derive_seed(seed, &[i as u64]),
            &mut |_, _| {},
        )?;
        let w = end.winners();
        Ok(GameOutcome {
            result: match (w[seat], w[1 - seat]) {
                (true, false) => 1.0,
                (true, true) => 0.5,
                _ => 0.0,
            },
            score: end.score(seat),
            features: features(end.log(), seat),
        })
    }
}

/// One game from the evaluated agent's seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GameOutcome {
    /// 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    pub score: f64,
    /// The play-style features of the evaluated seat (`winning_turn`: the round the
    /// game ended in).
    pub features: Features,
}

/// The [`STATISTICS`] (means) and their standard errors over `games`.
///
/// `winning_turn` is the mean end round of the games won outright. With no win it is
/// `turns + 1`, one past any round a game can end in: a bot that never wins sits beyond
/// the slowest winner rather than dropping out of the archive (a NaN would have no
/// cell) or posing as a fast one (0). Its standard error is over the wins (0 with
/// fewer than two).
pub(crate) fn summarise(games: &[GameOutcome], turns: usize) -> Vec<f64> {
    let stat = |f: fn(&GameOutcome) -> f64| Summary::of(&games.iter().map(f).collect::<Vec<_>>());
    let won: Vec<f64> = games
        .iter()
        .filter(|g| g.result == 1.0)
        .map(|g| g.features.winning_turn)
        .collect();
    let winning = if won.is_empty() {
        Summary::of(&[turns as f64 + 1.0])
    } else {
        Summary::of(&won)
    };
    let all = [
        stat(|g| g.result),
        stat(|g| g.score),
        stat(|g| g.features.attacks),
        stat(|g| g.features.ranged_minus_melee),
        stat(|g| g.features.defender_spawns),
        winning,
        stat(|g| g.features.research_slope),
        stat(|g| g.features.tile_dominance_slope),
        stat(|g| g.features.captures),
        stat(|g| g.features.kills),
        stat(|g| g.features.builds),
        stat(|g| g.features.production_slope),
        stat(|g| g.features.expansion_slope),
        stat(|g| g.features.tile_share),
        stat(|g| g.features.rider_spawns),
        stat(|g| g.features.spawns),
        stat(|g| g.features.economy_research),
    ];
    all.iter()
        .map(|s| s.mean)
        .chain(all.iter().map(Summary::se))
        .collect()
}

impl Problem for StylesProblem {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        feature_names()
    }

    /// The paper's first pair, attacks x (ranged - melee) support units, in bins of
    /// one attack and one unit a game. Bounds from a pilot at the default settings
    /// (one-hot points and 19 random ones, seed 3): attacks 5.5 to 12 a game (their
    /// standard error about 1.5), ranged - melee -1.8 to 5.3, with room on both sides
    /// for mutation to spread them; `--overflow-bins` keeps the points beyond apart.
    fn default_axes(&self) -> Vec<FeatureAxis> {
        vec![
            FeatureAxis {
                name: "attacks".into(),
                low: 4.0,
                high: 16.0,
                bins: 12,
            },
            FeatureAxis {
                name: "ranged_minus_melee".into(),
                low: -3.0,
                high: 6.0,
                bins: 9,
            },
        ]
    }

    fn tie_break(&self) -> Option<String> {
        Some("mean_score".into())
    }

    /// The win rate: 1 a win, 1/2 a draw, 0 a loss, averaged over the games.
    fn fitness_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn feature_unit(&self, name: &str) -> Option<String> {
        let stat = name.strip_suffix("_se").unwrap_or(name);
        let unit = match stat {
            "win_rate" => "share of games won, a draw half",
            "mean_score" => "points at the end of a game",
            "attacks" => "attacks a game",
            "ranged_minus_melee" => "ranged minus melee support units spawned a game",
            "defender_spawns" => "defenders spawned a game",
            "winning_turn" => "turn a won game ended in",
            "research_slope" => "technologies a turn",
            "tile_dominance_slope" => "own minus enemy tiles, change a turn",
            "captures" => "cities and villages captured a game",
            "kills" => "enemy units destroyed a game",
            "builds" => "buildings built a game",
            "production_slope" => "stars of production, change a turn",
            "expansion_slope" => "own tiles, change a turn",
            "tile_share" => "share of the owned tiles at the end",
            "rider_spawns" => "riders spawned a game",
            "spawns" => "units spawned a game",
            "economy_research" => "economy share of the first five technologies",
            _ => return None,
        };
        Some(if stat == name {
            unit.to_string()
        } else {
            format!("standard error; {unit}")
        })
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let me = self.evaluated(x).map_err(|e| EvalError(e.to_string()))?;
        let n = self.config.levels * self.config.games;
        let games: Vec<GameOutcome> = (0..n)
            .into_par_iter()
            .map(|i| self.play_one(&me, i, seed))
            .collect::<Result<_, Error>>()
            .map_err(|e| EvalError(e.to_string()))?;
        let features = summarise(&games, self.config.turns);
        Ok(Evaluation {
            fitness: features[0],
            features,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(result: f64, end_turn: f64) -> GameOutcome {
        GameOutcome {
            result,
            score: 10.0 * result,
            features: Features {
                attacks: 2.0,
                ranged_minus_melee: -1.0,
                defender_spawns: 0.0,
                winning_turn: end_turn,
                research_slope: 0.5,
                tile_dominance_slope: 0.0,
                captures: 1.0,
                kills: 3.0,
                builds: 2.0,
                production_slope: 0.25,
                expansion_slope: 0.75,
                tile_share: 0.5,
                rider_spawns: 1.0,
                spawns: 6.0,
                economy_research: 0.4,
            },
        }
    }

    #[test]
    fn winning_turn_is_over_wins_and_past_the_limit_without_one() {
        let s = summarise(
            &[outcome(1.0, 10.0), outcome(0.0, 30.0), outcome(1.0, 14.0)],
            30,
        );
        let at = |name: &str| s[feature_names().iter().position(|f| f == name).unwrap()];
        assert_eq!(at("winning_turn"), 12.0);
        assert!(at("winning_turn_se") > 0.0);
        assert!((at("win_rate") - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(at("attacks_se"), 0.0);
        let s = summarise(&[outcome(0.0, 30.0), outcome(0.5, 30.0)], 30);
        assert_eq!(s[5], 31.0);
        assert_eq!(s[0], 0.25);
    }

    #[test]
    fn the_space_is_the_genome_file() {
        let p = StylesProblem::new(StylesConfig::default()).unwrap();
        assert_eq!(p.space().len(), crate::GENOME_LEN);
        assert_eq!(p.feature_names().len(), 2 * STATISTICS.len());
        for a in p.default_axes() {
            assert!(p.feature_names().contains(&a.name));
        }
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let bad = |c: StylesConfig| StylesProblem::new(c).err().unwrap().to_string();
        let d = StylesConfig::default;
        assert!(bad(StylesConfig { levels: 21, ..d() }).contains("levels=21"));
        assert!(bad(StylesConfig { games: 0, ..d() }).contains("games=0"));
        let e = bad(StylesConfig {
            opponent: "hal".into(),
            ..d()
        });
        assert!(e.contains("opponent=hal") && e.contains("mcts"), "{e}");
        assert!(bad(StylesConfig { turns: 99, ..d() }).contains("turns=99"));
    }

    #[test]
    fn evaluations_are_functions_of_the_seed() {
        let p = StylesProblem::new(StylesConfig {
            levels: 1,
            games: 2,
            budget: 50,
            turns: 6,
            ..StylesConfig::default()
        })
        .unwrap();
        let x = vec![1.0, 0.0, 0.5, 0.25, 0.0, 1.0, 0.0, 0.0, 0.75, 0.0, 1.0];
        let a = p.evaluate(&x, 7).unwrap();
        let b = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| p.evaluate(&x, 7).unwrap());
        assert_eq!(a, b);
        assert_eq!(a.features.len(), 2 * STATISTICS.len());
        assert!((0.0..=1.0).contains(&a.fitness));
    }
}
