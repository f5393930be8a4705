//! Space Battle as the harness sees it: its 30 rule parameters and `max_ticks` as
//! settings, its scripts and presets, Eq. 2's T and the ships' statistics per game,
//! and its game map.

use super::agents::{DoNothing, RotateAndShoot};
use super::params::SbeParams;
use super::problem::{SbeAgent, game_t, space};
use super::state::SbeState;
use crate::harness::{AgentEntry, GameDef, Generic, Setting, Values};

/// The Space Battle Evolved descriptor.
pub struct SpaceBattle;

impl GameDef for SpaceBattle {
    type State = SbeState;

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

    fn new_state(&self, settings: &Values, seed: u64) -> Result<SbeState, String> {
        let s = space();
        let mut values = Vec::with_capacity(s.dims.len());
        for d in &s.dims {
            let text = settings.get(&d.name);
            values.push(d.domain.parse_number(text).ok_or_else(|| {
                format!(
                    "{}={text}: not a value of {} ({})",
                    d.name,
                    d.name,
                    d.domain.describe()
                )
            })?);
        }
        let params = SbeParams::from_values(|n| s.position(n).map(|i| values[i]))?;
        let max_ticks = u32::try_from(settings.count("max_ticks")?)
            .map_err(|_| "max_ticks: give a number of ticks, not max".to_string())?;
        Ok(SbeState::new(params, seed).with_max_ticks(max_ticks))
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

    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, String> {
        let enemy = space().dims[space().position("ENEMY_ID").unwrap_or(0)]
            .domain
            .parse_number(settings.get("ENEMY_ID"))
            .ok_or("ENEMY_ID: not an enemy")?;
        Ok(vec![
            "mcts".into(),
            SbeAgent::enemy(enemy as u32)?.name().into(),
        ])
    }

    /// The NTBEA paper's 30 game parameters (Table I).
    fn design_space(&self) -> Option<crate::space::Space> {
        Some(super::problem::space())
    }

    /// The tick limit is the cap; a ship that lost its last life ends it by the rules.
    fn ended_by_rules(&self, state: &SbeState) -> bool {
        state.tick() < state.max_ticks()
    }

    fn summary(&self, state: &SbeState) -> Vec<(String, f64)> {
        let record = super::GameRecord::of(state);
        let mut out = vec![("t".to_string(), game_t(&record))];
        for (s, ship) in record.ships.iter().enumerate() {
            out.extend([
                (format!("kills_{s}"), f64::from(ship.kills)),
                (format!("packs_{s}"), f64::from(ship.collected)),
                (format!("missiles_fired_{s}"), f64::from(ship.shots_fired)),
                (format!("penalty_ticks_{s}"), f64::from(ship.penalty_ticks)),
            ]);
        }
        out
    }

    fn render(
        &self,
        history: &[SbeState],
        at: &[u32],
        title: &str,
        agents: &[String],
        out: &std::path::Path,
    ) -> Option<Result<(), String>> {
        Some(super::render::game_map(history, at, title, agents, out))
    }
}
