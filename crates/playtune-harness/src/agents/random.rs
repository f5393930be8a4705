//! The uniformly random player.

use super::any_action;
use crate::game::{Agent, Game};
use playtune_optim::rng::Rng;

/// Plays a uniformly random legal action ([`Game::random_action`]); if the game returns
/// none, the first action [`Game::legal_actions`] lists.
///
/// Panics if the game offers no action at all to a player who must act: a game that
/// has acting players without actions must end instead.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl RandomAgent {
    /// A random agent.
    pub fn new() -> Self {
        RandomAgent
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "Random".into()
    }

    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let mut buf = Vec::new();
        any_action(state, player, rng, &mut buf)
            .unwrap_or_else(|| panic!("RandomAgent: the game offers player {player} no action"))
    }

    fn simulates(&self) -> bool {
        false
    }
}
