//! Space Battle as the harness sees it: its 30 rule parameters (the NTBEA paper's
//! design space) and `max_ticks` as settings, its scripts and presets, Eq. 2's T and
//! the ships' statistics per game, the skill-depth rung measure of the paper (ship 0
//! against the controller ENEMY_ID names), and its game map.

use super::agents::{DoNothing, RotateAndShoot};
use super::params::{NUM_PARAMS, PARAM_DOMAINS, PARAM_NAMES, SbeParams};
use super::state::SbeState;
use playtune_harness::design::RungMeasure;
use playtune_harness::{AgentEntry, Error, GameDef, Generic, Setting, Values};
use playtune_optim::space::{Dimension, Domain, Group, Space};

/// Points for a win in Eq. 2.
pub(crate) const WIN_POINTS: f64 = 1000.0;

/// T of Eq. 2 for one game, from ship 0's side: T = (S1/100 + W1) - (S2/100 + W2),
/// W = [`WIN_POINTS`] for the single winner (0 on a draw). The skill-depth fitness of
/// Eq. 3 is the smallest gap of the ladder's mean T (`harness::ladder::skill_depth`).
pub(crate) fn game_t(scores: [f64; 2], winner: Option<usize>) -> f64 {
    let w = |p: usize| if winner == Some(p) { WIN_POINTS } else { 0.0 };
    (scores[0] / 100.0 + w(0)) - (scores[1] / 100.0 + w(1))
}

/// The single winner of a finished game, or `None` on a draw.
fn single_winner(state: &SbeState) -> Option<usize> {
    match state.winner_flags() {
        [true, false] => Some(0),
        [false, true] => Some(1),
        _ => None,
    }
}

/// The controller ENEMY_ID's value `id` names (0 RAS, 1 do-nothing, 2 random, 3 1SLA,
/// 4 microbial EA, 5 MCTS): the names of the space's ENEMY_ID categories, each an agent
/// of the game.
pub fn enemy(id: f64) -> Result<String, super::Error> {
    let s = space();
    let domain = &s.dims[s
        .position("ENEMY_ID")
        .ok_or(super::Error::NoEnemyDimension)?]
    .domain;
    if id.fract() != 0.0 || !(0.0..domain.len() as f64).contains(&id) {
        return Err(super::Error::Enemy {
            id,
            max: domain.len().saturating_sub(1),
        });
    }
    Ok(domain.render(id))
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

/// The Space Battle Evolved descriptor.
pub struct SpaceBattle;

/// Space Battle's rules as its settings set them: the 30 parameters and the tick cap.
#[derive(Clone, Debug)]
pub struct SbeRules {
    params: SbeParams,
    max_ticks: u32,
}

impl GameDef for SpaceBattle {
    type State = SbeState;
    type Rules = SbeRules;

    /// Space Battle's agents drew from `[1, i]` before the harness existed; keeping it
    /// keeps the published runs' games.
    const AGENT_STREAM: u64 = 1;

    fn name(&self) -> &'static str {
        "space-battle"
    }

    fn title(&self) -> &'static str {
        "Space Battle"
    }

    fn about(&self) -> &'static str {
        "Space Battle Evolved: a two-ship real-time duel on a torus with black holes (NTBEA paper)"
    }

    fn settings(&self) -> Vec<Setting> {
        let s = space();
        let defaults = s.decode(&s.default_indices());
        let mut out: Vec<Setting> = s
            .dims
            .iter()
            .zip(&defaults)
            .map(|(d, &v)| Setting::new(&d.name, &d.domain.render(v), &d.domain.describe()))
            .collect();
        out.push(Setting::new(
            "max_ticks",
            "2000",
            "ticks before the game ends",
        ));
        out
    }

    fn rules(&self, settings: &Values) -> Result<SbeRules, Error> {
        let s = space();
        let mut values = Vec::with_capacity(s.dims.len());
        for d in &s.dims {
            let text = settings.get(&d.name);
            values.push(d.domain.parse_number(text).ok_or_else(|| {
                Error::value(
                    &d.name,
                    text,
                    format!("not a value of {} ({})", d.name, d.domain.describe()),
                )
            })?);
        }
        let params = SbeParams::from_values(|n| s.position(n).map(|i| values[i]))
            .map_err(super::Error::from)?;
        let max_ticks = u32::try_from(settings.count("max_ticks")?)
            .map_err(|_| Error::field("max_ticks", "give a number of ticks, not max"))?;
        Ok(SbeRules { params, max_ticks })
    }

    fn new_state(&self, rules: &SbeRules, seed: u64) -> Result<SbeState, Error> {
        Ok(SbeState::new(rules.params.clone(), seed).with_max_ticks(rules.max_ticks))
    }

    fn agents(&self) -> Vec<AgentEntry<SbeState>> {
        vec![
            AgentEntry::own(
                &["nothing", "do-nothing", "donothing"],
                "always NIL",
                Vec::new(),
                |_, _| Ok(Box::new(DoNothing)),
            ),
            AgentEntry::own(
                &["ras", "rotate-and-shoot"],
                "always turns left and fires",
                Vec::new(),
                |_, _| Ok(Box::new(RotateAndShoot)),
            ),
            AgentEntry::preset(
                &["1sla", "one-step-look-ahead"],
                "the paper's one-step look-ahead: osla over all 12 actions",
                Generic::Osla,
                &[("budget", "12")],
            ),
            AgentEntry::preset(
                &["mcts"],
                "MCTS with the paper's search: 175 iterations, depth 10, macro-actions of 5",
                Generic::Mcts,
                &[("iterations", "175"), ("depth", "10"), ("macro", "5")],
            ),
            AgentEntry::preset(
                &["microbial", "microbial-ea", "rhea"],
                "microbial EA with MCTS's forward-model budget and macro-actions",
                Generic::Microbial,
                &[("macro", "5"), ("budget", "8750")],
            ),
        ]
    }

    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, Error> {
        let enemy = space().dims[space().position("ENEMY_ID").unwrap_or(0)]
            .domain
            .parse_number(settings.get("ENEMY_ID"))
            .ok_or_else(|| Error::field("ENEMY_ID", "not an enemy"))?;
        Ok(vec!["mcts".into(), self::enemy(enemy)?])
    }

    /// The NTBEA paper's 30 game parameters (Table I).
    fn design_space(&self) -> Option<playtune_optim::space::Space> {
        Some(space())
    }

    /// The NTBEA paper's measure: each rung flies ship 0 against the controller
    /// ENEMY_ID names, and its result is its mean T (Eq. 2).
    fn rung_measure(&self) -> Option<RungMeasure> {
        Some(RungMeasure {
            seat: 0,
            result: "t",
            features: &[
                ("t", "t"),
                ("score", "score_0"),
                ("enemy_score", "score_1"),
                ("win_rate", "won_0"),
                ("missiles_fired", "missiles_fired_0"),
                ("penalty_ticks", "penalty_ticks_0"),
            ],
        })
    }

    /// The tick limit is the cap; a ship that lost its last life ends it by the rules.
    fn ended_by_rules(&self, state: &SbeState) -> bool {
        state.tick() < state.max_ticks()
    }

    fn summary(&self, state: &SbeState) -> Vec<(String, f64)> {
        let scores = [state.points(0), state.points(1)];
        let winner = single_winner(state);
        let mut out = vec![("t".to_string(), game_t(scores, winner))];
        for (s, score) in scores.into_iter().enumerate() {
            let ship = state.ship_stats(s);
            out.extend([
                (format!("score_{s}"), score),
                (format!("won_{s}"), f64::from(u8::from(winner == Some(s)))),
                (format!("kills_{s}"), f64::from(ship.kills)),
                (format!("packs_{s}"), f64::from(ship.collected)),
                (format!("missiles_fired_{s}"), f64::from(ship.shots_fired)),
                (format!("penalty_ticks_{s}"), f64::from(ship.penalty_ticks)),
            ]);
        }
        out
    }

    #[cfg(feature = "draw")]
    fn render(
        &self,
        history: &[SbeState],
        at: &[u32],
        title: &str,
        agents: &[String],
        out: &std::path::Path,
    ) -> Option<Result<(), Error>> {
        Some(super::render::game_map(history, at, title, agents, out).map_err(Error::from))
    }
}

/// Problem `space-battle`, the NTBEA paper's: `design` on Space Battle with the game's
/// rung measure (each rung flies ship 0 against ENEMY_ID's controller; Eq. 2's T) and
/// the paper's features only; the `mcts_*` settings set every `mcts` rung (the enemy
/// keeps the game's presets).
pub const SKILL_DEPTH: playtune_optim::eval::ProblemDef = playtune_optim::eval::ProblemDef {
    name: "space-battle",
    about: "design on Space Battle Evolved with the NTBEA paper's defaults: min gap of T (Eq. 2-3) between ladder agents, weakest first, each flying ship 0 against ENEMY_ID's controller; mcts_* set every mcts rung",
    settings: &[
        (
            "ladder",
            "1sla,ras,mcts",
            "agents flying ship 0, weakest first",
        ),
        ("games", "1", "games per ladder agent per evaluation"),
        ("max_ticks", "2000", "ticks before a game ends"),
        (
            "mcts_iterations",
            "175",
            "iterations per decision of every mcts rung",
        ),
        ("mcts_depth", "10", "steps per iteration of every mcts rung"),
        (
            "mcts_macro",
            "5",
            "ticks each step repeats its action, every mcts rung",
        ),
    ],
    build: |v, space| {
        use playtune_harness::design::{DesignConfig, DesignProblem};
        let mcts = format!(
            "mcts(iterations={},depth={},macro={})",
            v.count("mcts_iterations")?,
            v.count("mcts_depth")?,
            v.count("mcts_macro")?
        );
        let ladder = playtune_harness::split_agents(v.get("ladder"))
            .into_iter()
            .map(|rung| {
                if rung.eq_ignore_ascii_case("mcts") {
                    mcts.clone()
                } else {
                    rung
                }
            })
            .collect();
        Ok(Box::new(DesignProblem::new(
            &SpaceBattle,
            DesignConfig {
                ladder,
                games: v.count("games")?,
                budget: None,
                settings: vec![("max_ticks".into(), v.count("max_ticks")?.to_string())],
                metrics: false,
                playable: false,
            },
            space,
        )?))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use playtune_harness::DynGame;

    #[test]
    fn every_enemy_id_names_an_agent_of_the_game() {
        let names: Vec<String> = (0..6).map(|i| enemy(f64::from(i)).unwrap()).collect();
        assert_eq!(
            names,
            ["ras", "nothing", "random", "1sla", "microbial", "mcts"]
        );
        assert!(enemy(6.0).is_err() && enemy(0.5).is_err());
        let known: Vec<String> = DynGame::own_agents(&SpaceBattle)
            .into_iter()
            .flat_map(|a| a.names.into_iter().map(String::from))
            .chain(["random".to_string()])
            .collect();
        for n in &names {
            assert!(known.contains(n), "{n} is no agent of the game: {known:?}");
        }
    }

    #[test]
    fn eq_2_on_hand_made_outcomes() {
        // Win 500 to 200: (5 + 1000) - (2 + 0).
        assert_eq!(game_t([500.0, 200.0], Some(0)), 1003.0);
        // Loss 100 to 300: (1 + 0) - (3 + 1000).
        assert_eq!(game_t([100.0, 300.0], Some(1)), -1002.0);
        // Draw 200 to 200: no winner, T = 0.
        assert_eq!(game_t([200.0, 200.0], None), 0.0);
        // Eq. 3: T1 = -1002 (1SLA loses), T2 = 0 (RAS draws), T3 = 1003 (MCTS wins);
        // an inverted ladder is penalised.
        use playtune_harness::ladder::skill_depth;
        assert_eq!(skill_depth(&[-1002.0, 0.0, 1003.0]), 1002.0);
        assert_eq!(skill_depth(&[0.0, 1003.0, -1002.0]), -2005.0);
    }

    #[test]
    fn the_space_holds_table_one_with_defaults() {
        let s = space();
        assert_eq!(s.len(), 30);
        assert_eq!(s.groups[0].dims.len(), 16);
        let x = s.decode(&s.default_indices());
        let p = SbeParams::from_values(|n| s.position(n).map(|i| x[i])).unwrap();
        assert_eq!(p, SbeParams::default());
        assert_eq!(
            s.dims[s.position("MISSILE_TYPE").unwrap()]
                .domain
                .render(1.0),
            "twin"
        );
        // The shipped space file is this space.
        let file = playtune_optim::space::load_space(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spaces/space_battle_evolved.ron"
        )))
        .unwrap();
        assert_eq!(file, s);
    }
}
