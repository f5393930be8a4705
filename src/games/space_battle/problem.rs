//! Skill-depth fitness for Space Battle Evolved (the NTBEA paper's Eq. 2-3).
//!
//! A game instance (a point of the 30 parameters) is played by a ladder of agents,
//! weakest first, each flying ship 0 against the enemy the instance's ENEMY_ID picks.
//! For each game, T = (S1/100 + W1) - (S2/100 + W2), W = 1000 for the winner (0 on a
//! draw); an agent's T is its mean over its games. Fitness is the smallest gap between
//! neighbours of the ladder, min_i (T_{i+1} - T_i): a good game separates weak, middle
//! and strong players (for the default ladder 1SLA < RAS < MCTS it is the paper's
//! min(T3 - T2, T2 - T1)).

use super::agents::{DoNothing, OneStepLookAhead, RotateAndShoot};
use super::params::{NUM_PARAMS, PARAM_DOMAINS, PARAM_NAMES, SbeParams};
use super::play::{GameRecord, play_from};
use super::state::SbeState;
use crate::agents::{Mcts, MctsConfig, MicrobialConfig, MicrobialEa, RandomAgent};
use crate::eval::{EvalError, Evaluation, Problem};
use crate::game::Agent;
use crate::harness::ladder::play_ladder;
use crate::rng::derive_seed;
use crate::space::{Dimension, Domain, Group, Space};

/// Points for a win in Eq. 2.
pub const WIN_POINTS: f64 = 1000.0;

/// The agents the ladder and ENEMY_ID can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbeAgent {
    DoNothing,
    Random,
    RotateAndShoot,
    OneStepLookAhead,
    Microbial,
    Mcts,
}

impl SbeAgent {
    pub const NAMES: [&'static str; 6] = ["nothing", "random", "ras", "1sla", "microbial", "mcts"];

    pub fn parse(name: &str) -> Result<SbeAgent, String> {
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "nothing" | "do-nothing" | "donothing" => SbeAgent::DoNothing,
            "random" => SbeAgent::Random,
            "ras" | "rotate-and-shoot" => SbeAgent::RotateAndShoot,
            "1sla" | "osla" | "one-step-look-ahead" => SbeAgent::OneStepLookAhead,
            "mcts" => SbeAgent::Mcts,
            "microbial" | "microbial-ea" | "rhea" => SbeAgent::Microbial,
            other => {
                return Err(format!(
                    "unknown Space Battle agent `{other}` (known: {})",
                    Self::NAMES.join(", ")
                ));
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            SbeAgent::DoNothing => "nothing",
            SbeAgent::Random => "random",
            SbeAgent::RotateAndShoot => "ras",
            SbeAgent::OneStepLookAhead => "1sla",
            SbeAgent::Microbial => "microbial",
            SbeAgent::Mcts => "mcts",
        }
    }

    /// The controller ENEMY_ID selects: 0 RAS, 1 do-nothing, 2 random, 3 1SLA,
    /// 4 microbial EA, 5 MCTS.
    pub fn enemy(id: u32) -> Result<SbeAgent, String> {
        Ok(match id {
            0 => SbeAgent::RotateAndShoot,
            1 => SbeAgent::DoNothing,
            2 => SbeAgent::Random,
            3 => SbeAgent::OneStepLookAhead,
            4 => SbeAgent::Microbial,
            5 => SbeAgent::Mcts,
            _ => return Err(format!("ENEMY_ID {id} is outside 0..=5")),
        })
    }

    pub fn build(self, mcts: &MctsConfig) -> Box<dyn Agent<SbeState>> {
        match self {
            SbeAgent::DoNothing => Box::new(DoNothing),
            SbeAgent::Random => Box::new(RandomAgent),
            SbeAgent::RotateAndShoot => Box::new(RotateAndShoot),
            SbeAgent::OneStepLookAhead => Box::new(OneStepLookAhead::new()),
            SbeAgent::Mcts => Box::new(Mcts::new(mcts.clone())),
            // The same forward-model budget as MCTS, with its macro-action length: the
            // reference gives both 10 ms a decision.
            SbeAgent::Microbial => Box::new(MicrobialEa::new(MicrobialConfig {
                macro_action: mcts.macro_action,
                budget: mcts.iterations * mcts.rollout_depth * mcts.macro_action,
                ..MicrobialConfig::default()
            })),
        }
    }
}

/// The 30 parameters of Table I as a space, with the spec's defaults and the 16
/// black-hole cells as a layout group. MISSILE_TYPE and ENEMY_ID are categories.
pub fn space() -> Space {
    let defaults = SbeParams::default().to_values();
    let dims = (0..NUM_PARAMS)
        .map(|i| {
            let name = PARAM_NAMES[i];
            let values = PARAM_DOMAINS[i];
            let domain = match name {
                "MISSILE_TYPE" => {
                    Domain::Categories(vec!["normal".into(), "twin".into(), "bomb".into()])
                }
                "ENEMY_ID" => Domain::Categories(
                    ["ras", "nothing", "random", "1sla", "microbial", "mcts"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                ),
                n if n.starts_with("BLACKHOLE_CELL_") => Domain::Bool,
                _ => contiguous(values).unwrap_or_else(|| Domain::List(values.to_vec())),
            };
            let default = domain.index_of(defaults[i]).unwrap_or(0);
            Dimension {
                name: name.into(),
                domain,
                default,
                fixed: false,
            }
        })
        .collect();
    let cells = (0..16).map(|i| format!("BLACKHOLE_CELL_{i}")).collect();
    Space {
        name: "space-battle-evolved".into(),
        dims,
        groups: vec![Group {
            name: "black_hole_cells".into(),
            dims: cells,
        }],
        constraints: Vec::new(),
    }
}

/// An evenly spaced integer list as an Int domain (so space files read naturally).
fn contiguous(values: &[f64]) -> Option<Domain> {
    let step = (values.get(1)? - values[0]) as i64;
    let ok = step > 0
        && values.windows(2).all(|w| (w[1] - w[0]) as i64 == step)
        && values.iter().all(|v| v.fract() == 0.0);
    ok.then(|| Domain::Int {
        min: values[0] as i64,
        max: *values.last().unwrap_or(&values[0]) as i64,
        step,
    })
}

/// Settings of the skill-depth problem.
#[derive(Clone, Debug)]
pub struct SkillDepthConfig {
    /// Agents flying ship 0, weakest first.
    pub ladder: Vec<SbeAgent>,
    /// Games per ladder agent per evaluation.
    pub games: usize,
    pub max_ticks: u32,
    pub mcts: MctsConfig,
}

impl Default for SkillDepthConfig {
    fn default() -> Self {
        SkillDepthConfig {
            ladder: vec![
                SbeAgent::OneStepLookAhead,
                SbeAgent::RotateAndShoot,
                SbeAgent::Mcts,
            ],
            games: 1,
            max_ticks: 2000,
            mcts: MctsConfig {
                iterations: 175,
                rollout_depth: 10,
                macro_action: 5,
                ..MctsConfig::default()
            },
        }
    }
}

/// Problem `space-battle`.
pub struct SkillDepth {
    space: Space,
    config: SkillDepthConfig,
}

/// T of Eq. 2 for one game, from ship 0's side.
pub fn game_t(record: &GameRecord) -> f64 {
    let w = |p: usize| {
        if record.winner() == Some(p) {
            WIN_POINTS
        } else {
            0.0
        }
    };
    (record.scores[0] / 100.0 + w(0)) - (record.scores[1] / 100.0 + w(1))
}

/// Fitness of Eq. 3 generalised to any ladder: the smallest gap between neighbours.
pub use crate::harness::ladder::skill_depth;

impl SkillDepth {
    pub fn new(config: SkillDepthConfig) -> Result<SkillDepth, String> {
        if config.ladder.len() < 2 {
            return Err("the skill-depth ladder needs at least two agents, weakest first".into());
        }
        if config.games == 0 || config.max_ticks == 0 {
            return Err("games and max_ticks must be at least 1".into());
        }
        Ok(SkillDepth {
            space: space(),
            config,
        })
    }

    /// Plays one game of ladder agent `agent` on `params`.
    pub fn play(
        &self,
        params: &SbeParams,
        agent: SbeAgent,
        seed: u64,
    ) -> Result<GameRecord, String> {
        let enemy = SbeAgent::enemy(params.enemy_id)?;
        let mut p0 = agent.build(&self.config.mcts);
        let mut p1 = enemy.build(&self.config.mcts);
        let state = SbeState::new(params.clone(), derive_seed(seed, &[0]))
            .with_max_ticks(self.config.max_ticks);
        Ok(play_from(
            state,
            p0.as_mut(),
            p1.as_mut(),
            seed,
            &mut |_, _| {},
        ))
    }
}

const PER_AGENT: [&str; 6] = [
    "t",
    "score",
    "enemy_score",
    "win_rate",
    "missiles_fired",
    "penalty_ticks",
];

impl Problem for SkillDepth {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        self.config
            .ladder
            .iter()
            .flat_map(|a| PER_AGENT.iter().map(move |f| format!("{f}_{}", a.name())))
            .collect()
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let params =
            SbeParams::from_values(|n| self.space.position(n).map(|i| x[i])).map_err(EvalError)?;
        let games = self.config.games;
        let records: Vec<GameRecord> =
            play_ladder(self.config.ladder.len(), games, seed, |a, _, seed| {
                self.play(&params, self.config.ladder[a], seed)
            })
            .map_err(EvalError)?;
        let mut t = Vec::new();
        let mut features = Vec::new();
        for chunk in records.chunks(games) {
            let n = chunk.len() as f64;
            let mean = |f: &dyn Fn(&GameRecord) -> f64| chunk.iter().map(f).sum::<f64>() / n;
            let ta = mean(&game_t);
            t.push(ta);
            features.extend([
                ta,
                mean(&|r| r.scores[0]),
                mean(&|r| r.scores[1]),
                mean(&|r| (r.winner() == Some(0)) as u8 as f64),
                mean(&|r| r.ships[0].shots_fired as f64),
                mean(&|r| r.ships[0].penalty_ticks as f64),
            ]);
        }
        Ok(Evaluation {
            fitness: skill_depth(&t),
            features,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::space_battle::ShipStats;

    fn record(scores: [f64; 2]) -> GameRecord {
        let winners = [scores[0] >= scores[1], scores[1] >= scores[0]];
        GameRecord {
            scores,
            winners,
            ships: [ShipStats::default(), ShipStats::default()],
            ticks: 2000,
        }
    }

    #[test]
    fn every_enemy_id_has_a_controller() {
        let names: Vec<&str> = (0..6).map(|i| SbeAgent::enemy(i).unwrap().name()).collect();
        assert_eq!(
            names,
            ["ras", "nothing", "random", "1sla", "microbial", "mcts"]
        );
        assert!(SbeAgent::enemy(6).is_err());
        // The space's ENEMY_ID categories name the same controllers, in order.
        let s = space();
        let d = &s.dims[s.position("ENEMY_ID").unwrap()].domain;
        assert_eq!(
            (0..6).map(|i| d.render(i as f64)).collect::<Vec<_>>(),
            names
        );
    }

    #[test]
    fn eq_2_and_3_on_hand_made_outcomes() {
        // Win 500 to 200: (5 + 1000) - (2 + 0).
        assert_eq!(game_t(&record([500.0, 200.0])), 1003.0);
        // Loss 100 to 300: (1 + 0) - (3 + 1000).
        assert_eq!(game_t(&record([100.0, 300.0])), -1002.0);
        // Draw 200 to 200: no winner, T = 0.
        assert_eq!(game_t(&record([200.0, 200.0])), 0.0);
        // T1 = -1002 (1SLA loses), T2 = 0 (RAS draws), T3 = 1003 (MCTS wins).
        assert_eq!(skill_depth(&[-1002.0, 0.0, 1003.0]), 1002.0);
        // An inverted ladder is penalised: min(T3 - T2, T2 - T1) < 0.
        assert_eq!(skill_depth(&[0.0, 1003.0, -1002.0]), -2005.0);
    }

    #[test]
    fn the_space_holds_table_one_with_defaults() {
        let s = space();
        assert_eq!(s.len(), 30);
        assert_eq!(s.groups[0].dims.len(), 16);
        let p =
            SbeParams::from_values(|n| s.position(n).map(|i| s.decode(&s.default_indices())[i]))
                .unwrap();
        assert_eq!(p, SbeParams::default());
        assert_eq!(
            s.dims[s.position("MISSILE_TYPE").unwrap()]
                .domain
                .render(1.0),
            "twin"
        );
        // The shipped space file is this space.
        let file =
            crate::space::load_space(std::path::Path::new("spaces/space_battle_evolved.ron"))
                .unwrap();
        assert_eq!(file, s);
    }

    #[test]
    fn evaluation_is_deterministic_and_reports_features() {
        let cfg = SkillDepthConfig {
            ladder: vec![SbeAgent::DoNothing, SbeAgent::RotateAndShoot],
            max_ticks: 300,
            ..SkillDepthConfig::default()
        };
        let p = SkillDepth::new(cfg).unwrap();
        let x = p.space().decode(&p.space().default_indices());
        let a = p.evaluate(&x, 9).unwrap();
        assert_eq!(a, p.evaluate(&x, 9).unwrap());
        assert_eq!(a.features.len(), 12);
        assert_eq!(p.feature_names()[0], "t_nothing");
        // Against RAS, doing nothing loses and RAS draws its mirror image: a positive gap.
        assert!(a.fitness > 0.0, "{a:?}");
        assert_eq!(a.fitness, a.features[6] - a.features[0]);
    }
}
