//! Tuning problems on Rinascimento: an agent's hyper-parameters
//! (`rinascimento-agent`) and the rule vector's skill depth (`rinascimento-rules`).

use super::agents::{RinAgentSpec, TunedAgent};
use super::play::{GameRecord, play_game_seated};
use super::preset::Preset;
use super::rules::Rules;
use super::state::RinState;
use crate::eval::{EvalError, Evaluation, Problem};
use crate::game::Agent;
use crate::harness::ladder::{play_ladder, skill_depth};
use crate::harness::play::rotated_seats;
use crate::rng::derive_seed;
use crate::space::{Dimension, Domain, Space};
use rayon::prelude::*;

/// The rules a rule-vector space searches, with their ranges (inclusive) and
/// Splendor's 4-player defaults; `max_actions` (300) and `content_seed` (0) stay fixed.
const RULE_RANGES: [(&str, i64, i64); 14] = [
    ("players", 2, 4),
    ("token_types", 3, 8),
    ("jokers", 0, 10),
    ("decks", 1, 5),
    ("face_up", 1, 6),
    ("extra_nobles", 0, 6),
    ("coins", 2, 10),
    ("max_tokens", 5, 15),
    ("max_reserved", 0, 5),
    ("end_points", 5, 30),
    ("pick_diff_types", 1, 5),
    ("pick_diff_each", 1, 3),
    ("pick_same", 1, 5),
    ("pick_same_min", 1, 8),
];

/// The rule vector as a space (ranges the game supports; defaults: 4-player Splendor).
pub fn rules_space() -> Space {
    let defaults = Rules::splendor(4);
    Space {
        name: "rinascimento-rules".into(),
        dims: RULE_RANGES
            .iter()
            .map(|&(name, min, max)| {
                let v = defaults.value(name).expect("a rule name") as i64;
                Dimension {
                    name: name.into(),
                    domain: Domain::Int { min, max, step: 1 },
                    default: (v - min) as usize,
                    fixed: false,
                }
            })
            .collect(),
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

/// Reads a rule vector from a point, repairing combinations the game refuses:
/// `pick_diff_types` is capped at `token_types`, `pick_same_min` raised to
/// `pick_same`, `extra_nobles` capped so that players + extra nobles <= 10.
pub fn rules_from_point(lookup: impl Fn(&str) -> Option<f64>) -> Result<Rules, String> {
    let get = |n: &str| lookup(n);
    let players = get("players").unwrap_or(4.0);
    let colours = get("token_types").unwrap_or(5.0);
    let same = get("pick_same").unwrap_or(2.0);
    Rules::from_values(|n| {
        let v = get(n)?;
        Some(match n {
            "pick_diff_types" => v.min(colours),
            "pick_same_min" => v.max(same),
            "extra_nobles" => v.min(super::rules::MAX_NOBLES as f64 - players),
            _ => v,
        })
    })
}

/// Plays one game: `lineup[i]` takes seat `(i + rotation) % players`.
fn play(
    rules: &Rules,
    lineup: &[&RinAgentSpec],
    rotation: usize,
    seed: u64,
) -> Result<GameRecord, String> {
    let players = lineup.len();
    let mut built: Vec<Box<dyn Agent<RinState>>> = lineup.iter().map(|s| s.build()).collect();
    let mut refs: Vec<&mut dyn Agent<RinState>> = Vec::with_capacity(players);
    for b in built.iter_mut() {
        refs.push(b.as_mut());
    }
    play_game_seated(rules, &mut refs, &rotated_seats(players, rotation), seed)
}

/// Means over the records of agent 0's win, points, the length and stalemates.
fn summary(records: &[GameRecord]) -> [f64; 4] {
    let n = records.len().max(1) as f64;
    let mean = |f: &dyn Fn(&GameRecord) -> f64| records.iter().map(f).sum::<f64>() / n;
    [
        mean(&|r| f64::from(u8::from(r.winners[0]))),
        mean(&|r| f64::from(r.points[0])),
        mean(&|r| f64::from(r.length)),
        mean(&|r| f64::from(u8::from(r.stalemate))),
    ]
}

/// Settings of [`AgentProblem`].
#[derive(Clone, Debug, PartialEq)]
pub struct AgentProblemConfig {
    pub agent: TunedAgent,
    /// Players per game (Splendor rules for that count).
    pub players: usize,
    /// What the other `players - 1` seats play.
    pub opponent: RinAgentSpec,
    pub games: usize,
    /// Forward-model calls per decision of the tuned agent.
    pub budget: usize,
}

impl Default for AgentProblemConfig {
    fn default() -> Self {
        AgentProblemConfig {
            agent: TunedAgent::Bmrh,
            players: 4,
            opponent: RinAgentSpec::Osla {
                budget: super::agents::DEFAULT_BUDGET,
            },
            games: 1,
            budget: super::agents::DEFAULT_BUDGET,
        }
    }
}

/// Problem `rinascimento-agent`: fitness is the win rate (ties count as wins) of the
/// agent configured by the point over `games` games against `players - 1` opponents,
/// the agent's seat rotating (game `g`: seat `g % players`); game `g` is seeded with
/// `derive_seed(seed, [g])`. Features: win rate, mean points, mean game length,
/// stalemate rate.
pub struct AgentProblem {
    config: AgentProblemConfig,
    rules: Rules,
    space: Space,
}

impl AgentProblem {
    pub fn new(config: AgentProblemConfig) -> Result<AgentProblem, String> {
        if !(2..=super::rules::MAX_PLAYERS).contains(&config.players) {
            return Err(format!("players: {} outside 2..=4", config.players));
        }
        if config.games == 0 || config.budget == 0 {
            return Err("games and budget must be at least 1".into());
        }
        Ok(AgentProblem {
            rules: Rules::splendor(config.players as u32),
            space: config.agent.space(),
            config,
        })
    }

    /// The same problem with `preset`'s readings of the rules (spec by default). The
    /// opponent is taken as configured: the caller applies [`Preset::agent`] to it.
    pub fn with_preset(self, preset: Preset) -> AgentProblem {
        AgentProblem {
            rules: preset.rules(self.rules),
            ..self
        }
    }

    pub fn config(&self) -> &AgentProblemConfig {
        &self.config
    }
}

impl Problem for AgentProblem {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        ["win_rate", "mean_points", "mean_length", "stalemate_rate"]
            .map(String::from)
            .to_vec()
    }

    /// A win rate.
    fn fitness_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn agent_spec(&self, x: &[f64]) -> Option<String> {
        Some(
            self.config
                .agent
                .agent_spec(x, self.config.budget)
                .to_string(),
        )
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let spec = RinAgentSpec::from_point(
            self.config.agent,
            |n| self.space.position(n).map(|i| x[i]),
            self.config.budget,
        )
        .map_err(EvalError)?;
        let mut lineup = vec![&self.config.opponent; self.config.players];
        lineup[0] = &spec;
        let records: Vec<GameRecord> = (0..self.config.games)
            .into_par_iter()
            .map(|g| play(&self.rules, &lineup, g, derive_seed(seed, &[g as u64])))
            .collect::<Result<_, _>>()
            .map_err(EvalError)?;
        let s = summary(&records);
        Ok(Evaluation {
            fitness: s[0],
            features: s.to_vec(),
        })
    }
}

/// Settings of [`RulesProblem`].
#[derive(Clone, Debug, PartialEq)]
pub struct RulesProblemConfig {
    /// Agents, weakest first; `ladder[0]` also fills the other seats.
    pub ladder: Vec<RinAgentSpec>,
    /// Games per ladder agent per evaluation.
    pub games: usize,
}

impl Default for RulesProblemConfig {
    fn default() -> Self {
        let b = super::agents::DEFAULT_BUDGET;
        RulesProblemConfig {
            ladder: ["rnd", "osla", "mcts*"]
                .iter()
                .map(|n| RinAgentSpec::parse(n, b).expect("a known agent"))
                .collect(),
            games: 1,
        }
    }
}

/// Problem `rinascimento-rules`: the rule vector ([`rules_space`]) is the space. Each
/// ladder agent plays `games` games against `players - 1` copies of the weakest
/// (`ladder[0]`), its seat rotating; fitness is the skill depth, the smallest gap of
/// win rates between neighbours of the ladder, `min_i (w_{i+1} - w_i)` (win rates, not
/// points, so that rules with different end points compare). Game `g` of ladder agent
/// `a` is seeded with `derive_seed(seed, [a, g])`. Features: per ladder agent its win
/// rate and mean points, then the mean game length and stalemate rate over all games.
pub struct RulesProblem {
    config: RulesProblemConfig,
    preset: Preset,
    space: Space,
}

impl RulesProblem {
    pub fn new(config: RulesProblemConfig) -> Result<RulesProblem, String> {
        if config.ladder.len() < 2 {
            return Err("the skill-depth ladder needs at least two agents, weakest first".into());
        }
        if config.games == 0 {
            return Err("games must be at least 1".into());
        }
        Ok(RulesProblem {
            config,
            preset: Preset::Spec,
            space: rules_space(),
        })
    }

    /// The same problem with every point's rules read as `preset` says (spec by
    /// default); the readings are no dimensions of the space. The ladder is taken as
    /// configured: the caller applies [`Preset::agent`] to it.
    pub fn with_preset(self, preset: Preset) -> RulesProblem {
        RulesProblem { preset, ..self }
    }
}

impl Problem for RulesProblem {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .config
            .ladder
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                let tag = format!("{i}_{}", a.name());
                [format!("win_rate_{tag}"), format!("points_{tag}")]
            })
            .collect();
        names.extend(["mean_length".into(), "stalemate_rate".into()]);
        names
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let rules = rules_from_point(|n| self.space.position(n).map(|i| x[i]))
            .map(|r| self.preset.rules(r))
            .map_err(EvalError)?;
        let players = rules.players as usize;
        let games = self.config.games;
        let ladder = &self.config.ladder;
        let records: Vec<GameRecord> = play_ladder(ladder.len(), games, seed, |a, g, seed| {
            let mut lineup = vec![&ladder[0]; players];
            lineup[0] = &ladder[a];
            play(&rules, &lineup, g, seed)
        })
        .map_err(EvalError)?;
        let mut win_rates = Vec::new();
        let mut features = Vec::new();
        for chunk in records.chunks(games) {
            let s = summary(chunk);
            win_rates.push(s[0]);
            features.extend([s[0], s[1]]);
        }
        let all = summary(&records);
        features.extend([all[2], all[3]]);
        Ok(Evaluation {
            fitness: skill_depth(&win_rates),
            features,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_space_defaults_are_splendor_and_the_file_matches() {
        let s = rules_space();
        let x = s.decode(&s.default_indices());
        let rules = rules_from_point(|n| s.position(n).map(|i| x[i])).unwrap();
        assert_eq!(rules, Rules::splendor(4));
        let file = crate::space::load_space(std::path::Path::new("spaces/rinascimento_rules.ron"))
            .unwrap();
        assert_eq!(file, s);
        // Every corner of the space is repaired into valid rules.
        for corner in [0u32, 1] {
            let idx: Vec<u32> = s
                .dims
                .iter()
                .map(|d| corner * (d.domain.len() as u32 - 1))
                .collect();
            let y = s.decode(&idx);
            assert!(rules_from_point(|n| s.position(n).map(|i| y[i])).is_ok());
        }
    }

    #[test]
    fn agent_problem_is_deterministic_with_fitness_in_unit_interval() {
        let p = AgentProblem::new(AgentProblemConfig {
            agent: TunedAgent::Mcts,
            games: 4,
            budget: 300,
            ..AgentProblemConfig::default()
        })
        .unwrap();
        let x = p.space().decode(&p.space().default_indices());
        let a = p.evaluate(&x, 5).unwrap();
        assert_eq!(a, p.evaluate(&x, 5).unwrap());
        assert!((0.0..=1.0).contains(&a.fitness), "{a:?}");
        assert_eq!(a.features.len(), p.feature_names().len());
        assert_eq!(a.fitness, a.features[0]);
        assert!(a.features[2] > 0.0);
    }

    #[test]
    fn rules_problem_evaluates_the_default_rules() {
        let p = RulesProblem::new(RulesProblemConfig {
            ladder: vec![
                RinAgentSpec::Rnd,
                RinAgentSpec::Osla { budget: 200 },
                RinAgentSpec::parse("mcts*", 200).unwrap(),
            ],
            games: 2,
        })
        .unwrap();
        let x = p.space().decode(&p.space().default_indices());
        let a = p.evaluate(&x, 11).unwrap();
        assert_eq!(a, p.evaluate(&x, 11).unwrap());
        assert_eq!(a.features.len(), p.feature_names().len());
        assert_eq!(p.feature_names()[2], "win_rate_1_osla");
        let w = [a.features[0], a.features[2], a.features[4]];
        assert_eq!(a.fitness, (w[1] - w[0]).min(w[2] - w[1]));
        assert!((-1.0..=1.0).contains(&a.fitness));
    }

    #[test]
    fn presets_reach_the_problems_rules() {
        let p = AgentProblem::new(AgentProblemConfig::default()).unwrap();
        assert_eq!(p.rules, Rules::splendor(4));
        let p = p.with_preset(Preset::Reference);
        assert_eq!(p.rules, Preset::Reference.rules(Rules::splendor(4)));
        let p = RulesProblem::new(RulesProblemConfig {
            ladder: vec![RinAgentSpec::Rnd, RinAgentSpec::Osla { budget: 50 }],
            ..RulesProblemConfig::default()
        })
        .unwrap();
        assert_eq!(p.preset, Preset::Spec);
        let x = p.space().decode(&p.space().default_indices());
        let spec = p.evaluate(&x, 3).unwrap();
        let p = p.with_preset(Preset::Reference);
        assert_eq!(p.preset, Preset::Reference);
        assert_eq!(p.evaluate(&x, 3).unwrap(), p.evaluate(&x, 3).unwrap());
        assert_ne!(p.evaluate(&x, 3).unwrap(), spec);
    }

    /// What the rules' space file says of the readings it leaves out.
    const RULES_NOTE: &str = "// The readings where the spec and the reference framework differ (end of game,\n// reserving with a full hand, card colours) are no dimensions: problems take them\n// as --set rules=spec (the default) or --set rules=reference.\n";

    /// Writes the shipped space files. Run with
    /// `cargo test --release --lib export_rinascimento_spaces -- --ignored`.
    #[test]
    #[ignore]
    fn export_rinascimento_spaces() {
        let header = "// Generated from the built-in space (src/games/rinascimento); a test checks they agree.\n";
        let mut spaces = vec![("rules".to_string(), rules_space())];
        for kind in [TunedAgent::Bmrh, TunedAgent::Srh, TunedAgent::Mcts] {
            spaces.push((kind.name().to_string(), kind.space()));
        }
        for (name, space) in spaces {
            let note = if name == "rules" { RULES_NOTE } else { "" };
            let text = format!("{header}{note}{}", crate::space::to_space_file(&space));
            std::fs::write(format!("spaces/rinascimento_{name}.ron"), text).unwrap();
        }
    }
}
