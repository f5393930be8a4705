//! Search agents written once against the generic [`Game`] trait: a random player, a
//! one-step look-ahead, an open-loop Monte Carlo tree search and rolling-horizon
//! evolutionary agents (BMRH, SRH, microbial EA) with opponent models. They work for
//! real-time games in which every player acts at once ([`Acting::All`](crate::game::Acting::All)) and for
//! turn-based ones.
//!
//! All of them draw their randomness from the generator passed to [`crate::game::Agent::act`]
//! and count forward-model work in steps, never wall-clock time, so a seed fixes their
//! choices.

pub mod bmrh;
mod budget;
pub mod common;
#[cfg(test)]
pub(crate) mod duel;
pub mod evaluator;
pub mod hps;
pub mod mcts;
pub mod microbial;
pub mod opponents;
pub mod osla;
pub mod portfolio;
pub mod random;
pub mod srh;

pub use bmrh::{Bmrh, BmrhConfig, MutationPoint};
pub use budget::{Budget, thread_cpu_time};
pub use evaluator::StateEvaluator;
pub use hps::{Hps, HpsConfig, HpsSearch, HpsWork, LeafEvaluation};
pub use mcts::{Mcts, MctsConfig, Recommendation};
pub use microbial::{MicrobialConfig, MicrobialEa};
pub use opponents::{OpponentModel, Simulator};
pub use osla::Osla;
pub use portfolio::{PhasePlayers, Portfolio, PortfolioSearch, ScriptWeights, Suggestion};
pub use random::RandomAgent;
pub use srh::{Srh, SrhConfig};

use crate::game::Game;
use playtune_optim::rng::Rng;

/// Added to the value of a state in which the player is the sole winner, and taken
/// from one the player lost (a draw adds nothing).
pub(crate) const WIN_BONUS: f64 = 1e7;

/// The value search agents maximise: `state.value(player)` (by default the score)
/// plus `WIN_BONUS * outcome(state, player)` (see [`outcome`]).
pub(crate) fn state_value<G: Game>(state: &G, player: usize) -> f64 {
    state.value(player) + WIN_BONUS * outcome(state, player)
}

/// The result of a finished game for `player`: 1 if `player` alone won, 0 for a draw
/// (several winners) or a game still going on, -1 if `player` did not win.
pub fn outcome<G: Game>(state: &G, player: usize) -> f64 {
    if !state.is_over() {
        return 0.0;
    }
    let winners = state.winners();
    if !winners.get(player).copied().unwrap_or(false) {
        -1.0
    } else if winners.iter().filter(|&&w| w).count() == 1 {
        1.0
    } else {
        0.0
    }
}

/// A random legal action for `player`: [`Game::random_action`], else the first action
/// [`Game::legal_actions`] lists, else `None` (the game offers no action at all).
/// `buf` is scratch space.
pub(crate) fn any_action<G: Game>(
    state: &G,
    player: usize,
    rng: &mut Rng,
    buf: &mut Vec<G::Action>,
) -> Option<G::Action> {
    if let Some(a) = state.random_action(player, rng) {
        return Some(a);
    }
    if state.legal_actions(player, buf) {
        return buf.first().cloned();
    }
    None
}
