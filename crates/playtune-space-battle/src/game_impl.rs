//! Space Battle Evolved seen through the generic [`Game`] trait.

use super::action::{NUM_ACTIONS, SbeAction};
use super::state::SbeState;
use playtune_harness::game::{Acting, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

impl Game for SbeState {
    type Action = SbeAction;

    fn num_players(&self) -> usize {
        2
    }

    fn acting(&self) -> Acting {
        Acting::All
    }

    fn is_over(&self) -> bool {
        self.game_over()
    }

    fn step_count(&self) -> u32 {
        self.tick()
    }

    fn random_action(&self, _player: usize, rng: &mut Rng) -> Option<SbeAction> {
        Some(rng.random_range(0..NUM_ACTIONS))
    }

    fn legal_actions(&self, _player: usize, out: &mut Vec<SbeAction>) -> bool {
        out.clear();
        out.extend(0..NUM_ACTIONS);
        true
    }

    /// Panics unless given exactly one action per ship: anything else is a caller bug.
    fn advance(&mut self, actions: &[SbeAction]) {
        assert_eq!(actions.len(), 2, "Space Battle takes one action per ship");
        self.step([actions[0], actions[1]]);
    }

    fn score(&self, player: usize) -> f64 {
        self.points(player)
    }

    fn winners(&self) -> Vec<bool> {
        self.winner_flags().to_vec()
    }

    fn search_root(&self, horizon: u32) -> Self {
        SbeState::search_root(self, horizon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::SbeParams;
    use playtune_optim::rng::rng_from_seed;

    #[test]
    fn trait_view_of_the_game() {
        let mut s = SbeState::new(SbeParams::default(), 2).with_max_ticks(5);
        let mut actions = Vec::new();
        assert!(s.legal_actions(1, &mut actions));
        assert_eq!(actions, (0..12).collect::<Vec<u8>>());
        assert_eq!((s.num_players(), s.acting()), (2, Acting::All));
        let mut rng = rng_from_seed(9);
        let mut seen = [false; 12];
        for _ in 0..500 {
            seen[s.random_action(0, &mut rng).expect("always an action") as usize] = true;
        }
        assert!(seen.iter().all(|&x| x));
        while !s.is_over() {
            s.advance(&[3, 4]);
        }
        assert_eq!(s.step_count(), 5);
        assert_eq!(s.winners(), vec![true, true]);
        assert_eq!(s.score(0), 0.0);
    }
}
