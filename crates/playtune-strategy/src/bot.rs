//! A hand-written rule-based player.

use super::phases::{combat_action, favourable, research_in_order};
use super::rules::*;
use super::scripts::growth_build;
use super::state::{Action, MAX_UNITS, StrategyState};
use playtune_harness::game::Agent;
use playtune_optim::rng::Rng;

/// The order in which [`RuleBased`] researches.
pub(crate) const RULE_RESEARCH: [Tech; 13] = [
    Tech::Organization,
    Tech::Riding,
    Tech::Climbing,
    Tech::Shields,
    Tech::Farming,
    Tech::Mining,
    Tech::Archery,
    Tech::Chivalry,
    Tech::Smithery,
    Tech::Forestry,
    Tech::Construction,
    Tech::Mathematics,
    Tech::Fortification,
];

/// Plays by fixed priorities: take a pending level-up's bonus (growth up to level 3,
/// then military); capture; make a favourable attack (one that kills, or deals more
/// than it takes); build the best population building when it adds 2 or more; train
/// the dearest unit a city can afford while the army is smaller than two per city
/// plus two; research in `RULE_RESEARCH` order keeping 2 stars; build anything that
/// grows a city; move units toward the nearest city or village not its own (captures
/// first, then the enemy's cities); end the turn.
#[derive(Clone, Debug, Default)]
pub struct RuleBased;

impl RuleBased {
    /// The bot (it has no settings).
    pub fn new() -> Self {
        RuleBased
    }

    /// The action the bot plays in `s` for `p` (deterministic).
    pub fn choose(&self, s: &StrategyState, p: usize) -> Action {
        if let Some(c) = s.pending_level_up(p) {
            let bonus = if s.cities()[c].level <= 3 {
                Bonus::Growth
            } else {
                Bonus::Military
            };
            return Action::LevelUp {
                city: c as u8,
                bonus,
            };
        }
        let units =
            || (0..MAX_UNITS).filter(|&id| s.unit(id).alive && s.unit(id).owner as usize == p);
        if let Some(id) = units().find(|&id| s.can_capture(id)) {
            return Action::Capture { unit: id as u8 };
        }
        for id in units() {
            for (t, _) in s.units() {
                if s.can_attack(id, t) && favourable(s, id, t) {
                    return Action::Attack {
                        unit: id as u8,
                        target: t as u8,
                    };
                }
            }
        }
        let build = |min_gain: u8| growth_build(s, p, min_gain);
        if let Some(a) = build(2) {
            return a;
        }
        if s.unit_count(p) < 2 * s.city_count(p) + 2 {
            // The dearest unit it can afford (ties: the stronger attack).
            let spawn = (0..s.cities().len()).find_map(|c| {
                UNIT_KINDS
                    .into_iter()
                    .filter(|&k| s.can_spawn(p, c, k))
                    .max_by_key(|&k| (s.unit_stats(k).cost, s.unit_stats(k).attack))
                    .map(|kind| Action::Spawn {
                        city: c as u8,
                        kind,
                    })
            });
            if let Some(a) = spawn {
                return a;
            }
        }
        if let Some(t) = research_in_order(s, p, &RULE_RESEARCH, 2) {
            return Action::Research(t);
        }
        if let Some(a) = build(1) {
            return a;
        }
        combat_action(s, p, 2).unwrap_or(Action::EndTurn)
    }
}

impl Agent<StrategyState> for RuleBased {
    fn name(&self) -> String {
        "RuleBased".into()
    }

    fn act(&mut self, state: &StrategyState, player: usize, _rng: &mut Rng) -> Action {
        self.choose(state, player)
    }

    fn simulates(&self) -> bool {
        false
    }
}
