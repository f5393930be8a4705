//! Partial players for Hierarchical Portfolio Search ([`StrategyPhases`]): a turn is
//! research, then economy (buildings and level-up bonuses), then spawning, then
//! combat and movement; each phase has a few complete policies to choose from.

use super::rules::*;
use super::scripts::{
    AttackStyle, MoveStyle, Places, SpawnStyle, attack_choice, attack_value, best_builds,
    best_step, growth_build, move_choice, move_choice_with, nearest_city, spawn_choice,
};
use super::state::{Action, StrategyState};
use playtune_harness::agents::portfolio::PhasePlayers;
use playtune_harness::game::Game;
use playtune_optim::rng::Rng;

/// The phases and their partial players, in turn order.
pub(crate) const PHASES: [(&str, &[&str]); 4] = [
    ("research", &["none", "cheapest", "economy", "military"]),
    ("economy", &["none", "growth", "military"]),
    ("spawn", &["none", "cheapest", "strongest", "defensive"]),
    ("combat", &["aggressive", "defensive", "capture_first"]),
];

/// Research orders of the `economy` and `military` research players.
pub(crate) const ECONOMY_RESEARCH: [Tech; 7] = [
    Tech::Organization,
    Tech::Farming,
    Tech::Climbing,
    Tech::Mining,
    Tech::Archery,
    Tech::Forestry,
    Tech::Construction,
];
pub(crate) const MILITARY_RESEARCH: [Tech; 8] = [
    Tech::Riding,
    Tech::Shields,
    Tech::Archery,
    Tech::Chivalry,
    Tech::Climbing,
    Tech::Mining,
    Tech::Smithery,
    Tech::Mathematics,
];

/// Stars a research player leaves for spawning.
const RESEARCH_RESERVE: u16 = 2;

/// Whether an attack is worth making: it kills, or deals more than it costs.
pub(crate) fn favourable(s: &StrategyState, id: usize, target: usize) -> bool {
    let c = s.combat(id, target);
    c.dealt >= s.unit(target).hp || attack_value(s, id, target) > 0.5
}

/// The first technology of `order` that `p` can research keeping `reserve` stars.
pub(crate) fn research_in_order(
    s: &StrategyState,
    p: usize,
    order: &[Tech],
    reserve: u16,
) -> Option<Tech> {
    order
        .iter()
        .copied()
        .find(|&t| s.can_research(p, t) && s.stars(p) >= s.tech_cost(p, t) + reserve)
}

/// The combat and movement action of a unit of `p` under a combat player: captures
/// first, then favourable attacks (the defensive player only on enemies near its
/// cities), then moves in the player's style.
pub(crate) fn combat_action(s: &StrategyState, p: usize, option: usize) -> Option<Action> {
    let units = || s.units_of(p).map(|(id, _)| id);
    if let Some(id) = units().find(|&id| s.can_capture(id)) {
        return Some(Action::Capture { unit: id as u8 });
    }
    if option == 2 {
        if let Some(a) = units().find_map(|id| move_choice(s, id, MoveStyle::ToCapture)) {
            return Some(a.0);
        }
    }
    let near_home = |t: usize| nearest_city(s, t, |o| o as usize == p).is_some_and(|d| d <= 2);
    for id in units() {
        if let Some((Action::Attack { target, .. }, _)) =
            attack_choice(s, id, AttackStyle::MostDamaged)
        {
            let target = target as usize;
            if favourable(s, id, target) && (option != 1 || near_home(s.unit(target).pos as usize))
            {
                return Some(Action::Attack {
                    unit: id as u8,
                    target: target as u8,
                });
            }
        }
    }
    let places = || Places::of(s, p as u8);
    match option {
        0 => {
            let places = places();
            units().find_map(|id| {
                move_choice_with(s, id, MoveStyle::Offensively, &places).map(|m| m.0)
            })
        }
        1 => {
            let places = places();
            units().find_map(|id| {
                move_choice_with(s, id, MoveStyle::Defensively, &places).map(|m| m.0)
            })
        }
        // Toward the nearest city or village not the tribe's own.
        _ => units().find_map(|id| {
            best_step(s, id, |t| {
                nearest_city(s, t, |o| o as usize != p).map_or(1e9, |d| d as f64)
            })
            .map(|(to, _)| Action::Move { unit: id as u8, to })
        }),
    }
}

/// The game's partial players (see `PHASES`); the heuristic is the score difference
/// plus stars and production, and ±10^6 once the game is over.
#[derive(Clone, Copy, Debug, Default)]
pub struct StrategyPhases;

/// The heuristic value of `s` for `p` (see [`StrategyPhases`]).
pub fn heuristic(s: &StrategyState, p: usize) -> f64 {
    let eval = |q: usize| {
        let army: f64 = s
            .units_of(q)
            .map(|(_, u)| {
                let k = s.unit_stats(u.kind);
                k.cost as f64 * u.hp as f64 / k.hp as f64
            })
            .sum();
        s.score_of(q) as f64 + 2.0 * s.stars(q) as f64 + 10.0 * s.production(q) as f64 + 5.0 * army
    };
    let diff = eval(p) - eval(1 - p);
    if s.is_over() {
        let w = s.winners();
        let sign = match (w[p], w[1 - p]) {
            (true, false) => 1.0,
            (false, true) => -1.0,
            _ => 0.0,
        };
        return 1e6 * sign + diff;
    }
    diff
}

impl PhasePlayers<StrategyState> for StrategyPhases {
    fn phases(&self) -> &[(&'static str, &'static [&'static str])] {
        &PHASES
    }

    fn next_action(
        &self,
        s: &StrategyState,
        p: usize,
        phase: usize,
        option: usize,
        _rng: &mut Rng,
    ) -> Option<Action> {
        if s.is_over() || s.current() != p {
            return None;
        }
        // A level-up bonus must be chosen before anything else.
        if let Some(c) = s.pending_level_up(p) {
            let bonus = if phase == 1 && option == 2 {
                Bonus::Military
            } else {
                Bonus::Growth
            };
            return Some(Action::LevelUp {
                city: c as u8,
                bonus,
            });
        }
        match (phase, option) {
            (0, 1) => ALL_TECHS
                .into_iter()
                .filter(|&t| {
                    s.can_research(p, t) && s.stars(p) >= s.tech_cost(p, t) + RESEARCH_RESERVE
                })
                .min_by_key(|&t| s.tech_cost(p, t))
                .map(Action::Research),
            (0, 2) => {
                research_in_order(s, p, &ECONOMY_RESEARCH, RESEARCH_RESERVE).map(Action::Research)
            }
            (0, 3) => {
                research_in_order(s, p, &MILITARY_RESEARCH, RESEARCH_RESERVE).map(Action::Research)
            }
            (1, 1) => growth_build(s, p, 1),
            (1, 2) => {
                let best = best_builds(s, p);
                best.iter()
                    .take(s.cities().len())
                    .find_map(|row| row[Building::Walls as usize])
                    .map(|(tile, _)| Action::Build {
                        tile,
                        building: Building::Walls,
                    })
            }
            (2, o @ 1..=3) => {
                let style = [
                    SpawnStyle::Cheapest,
                    SpawnStyle::Strongest,
                    SpawnStyle::Defensive,
                ][o - 1];
                (0..s.cities().len()).find_map(|c| {
                    spawn_choice(s, p, c, style).map(|(kind, _)| Action::Spawn {
                        city: c as u8,
                        kind,
                    })
                })
            }
            (3, o) => combat_action(s, p, o),
            _ => None,
        }
    }

    fn end_turn(&self, _s: &StrategyState, _p: usize) -> Action {
        Action::EndTurn
    }

    /// Playouts, and HPS when its budget cannot search a turn, play the economy
    /// research order, growth buildings, the strongest affordable units and the
    /// aggressive combat player: the `none` players come first in each phase (so that
    /// HPS considers skipping a phase) but would make a passive default.
    fn playout_option(&self, phase: usize) -> usize {
        [2, 1, 2, 0][phase.min(3)]
    }

    fn heuristic(&self, s: &StrategyState, p: usize) -> f64 {
        heuristic(s, p)
    }
}
