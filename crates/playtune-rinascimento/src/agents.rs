//! Rinascimento's own agent pieces: the spec's tuned MCTS* configuration and the random
//! player with the reference framework's settings. The agents themselves are the
//! harness's (`rnd`, `osla`, and the presets `mcts*`, `bmrh*`, `srh*` in `def.rs`).

use super::action::Action;
use super::actions::RandomPlayer;
use super::state::RinState;
use playtune_harness::agents::{MctsConfig, Recommendation};
use playtune_harness::game::Agent;
use playtune_optim::rng::Rng;

/// Forward-model calls per decision unless told otherwise (the paper's 1000 actions).
pub const DEFAULT_BUDGET: usize = 1000;

/// The spec's MCTS* for Rinascimento with `budget` forward-model calls a decision:
/// C = 0, depth 1, pExp 0.4, width 1, secure child, random opponents; iterations
/// bounded only by the budget. A game's tuned presets live with the game, not in the
/// generic agent's code.
pub fn mcts_star(budget: usize) -> MctsConfig {
    MctsConfig {
        iterations: usize::MAX,
        rollout_depth: 1,
        c: 0.0,
        epsilon: 1e-6,
        p_exp: Some(0.4),
        progression_width: 1,
        recommendation: Recommendation::SecureChild,
        budget,
        ..MctsConfig::default()
    }
}

/// A random player with settings. The default settings play as
/// [`playtune_harness::agents::RandomAgent`] does, which the `rnd` agent keeps building under the
/// spec's rules so that its games stay byte-identical.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RinRandom(pub RandomPlayer);

impl Agent<RinState> for RinRandom {
    fn name(&self) -> String {
        "Random".into()
    }

    fn act(&mut self, state: &RinState, player: usize, rng: &mut Rng) -> Action {
        // A game asks only a player who has a legal action (else it ends), so the
        // fallback, an illegal action played as a pass, is never reached.
        state
            .sample_action_with(player, &self.0, rng)
            .unwrap_or(Action::BuyReserved {
                card: super::state::EMPTY,
            })
    }

    fn simulates(&self) -> bool {
        false
    }
}
