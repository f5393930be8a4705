//! The uniformly random player.

use super::any_action;
use crate::game::{Agent, Game};
use crate::rng::Rng;

/// Plays a uniformly random legal action ([`Game::random_action`]); if the game returns
/// none, the first action [`Game::legal_actions`] lists.
///
/// Panics if the game offers no action at all to a player who must act: a game that
/// has acting players without actions must end instead.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl RandomAgent {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rinascimento::{RinState, Rules};
    use crate::games::space_battle::params::SbeParams;
    use crate::games::space_battle::state::SbeState;
    use crate::rng::rng_from_seed;

    #[test]
    fn random_agent_plays_only_legal_actions() {
        let mut rng = rng_from_seed(3);
        let mut agent = RandomAgent;
        let mut s = SbeState::new(SbeParams::default(), 1).with_max_ticks(100);
        let mut legal = Vec::new();
        while !s.is_over() {
            assert!(s.legal_actions(0, &mut legal));
            let a = Agent::<SbeState>::act(&mut agent, &s, 0, &mut rng);
            let b = Agent::<SbeState>::act(&mut agent, &s, 1, &mut rng);
            assert!(legal.contains(&a) && legal.contains(&b));
            s.advance(&[a, b]);
        }
        let mut s = RinState::new(&Rules::splendor(3), 7).unwrap();
        let mut moves = 0;
        while !s.is_over() && moves < 300 {
            let crate::game::Acting::Player(p) = s.acting() else {
                panic!("Rinascimento is turn-based")
            };
            let a = agent.act(&s, p, &mut rng);
            assert!(s.is_legal(p, &a), "{a:?}");
            s.advance(&[a]);
            moves += 1;
        }
    }
}
