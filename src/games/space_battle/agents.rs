//! The game-specific agents: do nothing, rotate and shoot, one-step look-ahead.

use super::action::{self, NUM_ACTIONS, SbeAction};
use super::state::SbeState;
use crate::game::{Agent, Game};
use crate::rng::Rng;
use rand::RngExt;

/// Added to the value of a won end state and taken from a lost one.
pub const WIN_BONUS: f64 = 1e7;

/// Size of the random tie-break noise added to each action's value: far below one
/// point, so it only orders actions of equal score.
const TIE_BREAK_NOISE: f64 = 1e-6;

/// The one-step look-ahead heuristic: own score, plus [`WIN_BONUS`] if the game is over
/// and `player` alone won, minus it if `player` lost (a draw adds nothing).
pub fn heuristic(state: &SbeState, player: usize) -> f64 {
    let mut value = state.points(player);
    if state.game_over() {
        let winners = state.winner_flags();
        if !winners[player] {
            value -= WIN_BONUS;
        } else if !winners[1 - player] {
            value += WIN_BONUS;
        }
    }
    value
}

/// Always NIL.
#[derive(Clone, Debug, Default)]
pub struct DoNothing;

impl Agent<SbeState> for DoNothing {
    fn name(&self) -> String {
        "DoNothing".into()
    }

    fn act(&mut self, _state: &SbeState, _player: usize, _rng: &mut Rng) -> SbeAction {
        action::NIL
    }
}

/// Always turns left and fires.
#[derive(Clone, Debug, Default)]
pub struct RotateAndShoot;

impl Agent<SbeState> for RotateAndShoot {
    fn name(&self) -> String {
        "RAS".into()
    }

    fn act(&mut self, _state: &SbeState, _player: usize, _rng: &mut Rng) -> SbeAction {
        action::LF
    }
}

/// Tries each of its 12 actions for one tick against one random opponent action and
/// keeps the best by [`heuristic`], ties broken at random.
#[derive(Clone, Debug, Default)]
pub struct OneStepLookAhead {
    /// Reused copy of the state, so that a decision allocates nothing once warm.
    scratch: Option<SbeState>,
}

impl OneStepLookAhead {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Agent<SbeState> for OneStepLookAhead {
    fn name(&self) -> String {
        "1SLA".into()
    }

    fn act(&mut self, state: &SbeState, player: usize, rng: &mut Rng) -> SbeAction {
        let opponent_action = rng.random_range(0..NUM_ACTIONS);
        let root = state.search_root(1);
        let state = &root;
        let scratch = self.scratch.get_or_insert_with(|| state.clone());
        let mut best = (f64::NEG_INFINITY, action::NIL);
        for own in 0..NUM_ACTIONS {
            scratch.clone_from(state);
            let mut joint = [opponent_action; 2];
            joint[player] = own;
            scratch.advance(&joint);
            let value = heuristic(scratch, player) + rng.random::<f64>() * TIE_BREAK_NOISE;
            if value > best.0 {
                best = (value, own);
            }
        }
        best.1
    }

    fn reset(&mut self) {
        self.scratch = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::space_battle::params::SbeParams;
    use crate::games::space_battle::play::play_game;

    #[test]
    fn simple_agents_pick_their_fixed_actions() {
        let s = SbeState::new(SbeParams::default(), 0);
        let mut rng = crate::rng::rng_from_seed(0);
        assert_eq!(DoNothing.act(&s, 0, &mut rng), action::NIL);
        assert_eq!(RotateAndShoot.act(&s, 1, &mut rng), action::LF);
    }

    #[test]
    fn heuristic_rewards_wins_and_punishes_losses() {
        let s = SbeState::new(SbeParams::default(), 0).with_max_ticks(0);
        assert_eq!(heuristic(&s, 0), 0.0, "a draw adds nothing");
        let mut s = s;
        s.ship_mut(0).kills = 2;
        assert_eq!(heuristic(&s, 0), 200.0 + WIN_BONUS);
        assert_eq!(heuristic(&s, 1), -WIN_BONUS);
    }

    #[test]
    fn one_step_look_ahead_fires_when_the_shot_hits_at_once() {
        let params = SbeParams {
            missile_type: crate::games::space_battle::params::MissileType::Normal,
            ..SbeParams::default()
        };
        let mut s = SbeState::new(params, 0);
        s.ship_mut(1).pos = crate::games::space_battle::geometry::Vec2::new(213.0, 200.0);
        let mut agent = OneStepLookAhead::new();
        let mut rng = crate::rng::rng_from_seed(4);
        for _ in 0..20 {
            let a = agent.act(&s, 0, &mut rng);
            assert!(
                crate::games::space_battle::action::controls(a).fire,
                "chose {a}"
            );
        }
    }

    #[test]
    fn rotate_and_shoot_beats_do_nothing() {
        for seed in 0..4 {
            let record = play_game(
                &SbeParams::default(),
                &mut RotateAndShoot,
                &mut DoNothing,
                seed,
            );
            assert_eq!(record.winners, [true, false], "seed {seed}: {record:?}");
            assert!(record.ships[0].kills > 0);
        }
    }

    #[test]
    fn one_step_look_ahead_outscores_do_nothing() {
        let (mut sla, mut idle) = (0.0, 0.0);
        for seed in 0..4 {
            let record = play_game(
                &SbeParams::default(),
                &mut OneStepLookAhead::new(),
                &mut DoNothing,
                seed,
            );
            sla += record.scores[0];
            idle += record.scores[1];
        }
        assert!(sla > idle, "1SLA {sla} vs DoNothing {idle}");
    }
}
