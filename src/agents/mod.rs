//! Search agents written once against the generic [`Game`] trait: a random player, a
//! one-step look-ahead, an open-loop Monte Carlo tree search and rolling-horizon
//! evolutionary agents (BMRH, SRH, microbial EA) with opponent models. They work for
//! real-time games in which every player acts at once ([`Acting::All`]) and for
//! turn-based ones.
//!
//! All of them draw their randomness from the generator passed to [`crate::game::Agent::act`]
//! and count forward-model work in steps, never wall-clock time, so a seed fixes their
//! choices.

pub mod bmrh;
pub mod common;
pub mod mcts;
pub mod microbial;
pub mod opponents;
pub mod osla;
pub mod random;
pub mod srh;

pub use bmrh::{Bmrh, BmrhConfig, MutationPoint};
pub use common::Budget;
pub use mcts::{Mcts, MctsConfig, Recommendation};
pub use microbial::{MicrobialConfig, MicrobialEa};
pub use opponents::{OpponentModel, Simulator};
pub use osla::Osla;
pub use random::RandomAgent;
pub use srh::{Srh, SrhConfig};

use crate::game::{Acting, Game};
use crate::rng::Rng;

/// Added to the value of a state in which the player is the sole winner, and taken
/// from one the player lost (a draw adds nothing).
pub const WIN_BONUS: f64 = 1e7;

/// The value search agents maximise: `state.score(player)`, plus [`WIN_BONUS`] once the
/// game is over if `player` alone won, minus it if `player` did not win.
pub fn state_value<G: Game>(state: &G, player: usize) -> f64 {
    let mut value = state.score(player);
    if state.is_over() {
        let winners = state.winners();
        let won = winners.get(player).copied().unwrap_or(false);
        if !won {
            value -= WIN_BONUS;
        } else if winners.iter().filter(|&&w| w).count() == 1 {
            value += WIN_BONUS;
        }
    }
    value
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

/// In a turn-based game, plays random actions for every other player until it is
/// `player`'s turn or the game is over. Returns false if some player had no action
/// (the simulation cannot go on), true otherwise. Does nothing in simultaneous games.
pub(crate) fn play_others<G: Game>(
    state: &mut G,
    player: usize,
    rng: &mut Rng,
    buf: &mut Vec<G::Action>,
) -> bool {
    while !state.is_over() {
        match state.acting() {
            Acting::Player(p) if p != player => match any_action(state, p, rng, buf) {
                Some(a) => state.advance(std::slice::from_ref(&a)),
                None => return false,
            },
            _ => break,
        }
    }
    true
}

/// Plays one own action for `player` (who must be acting, or the game simultaneous):
/// in simultaneous games every other player plays one random action drawn here, in
/// turn-based games the other players' following turns are played at random. The
/// action is repeated `repeat` times (macro actions), with the same joint action in
/// simultaneous games. Returns false if the simulation could not go on.
pub(crate) fn play_own<G: Game>(
    state: &mut G,
    player: usize,
    action: &G::Action,
    repeat: usize,
    rng: &mut Rng,
    joint: &mut Vec<G::Action>,
    buf: &mut Vec<G::Action>,
) -> bool {
    joint.clear();
    for _ in 0..repeat.max(1) {
        if state.is_over() {
            break;
        }
        match state.acting() {
            Acting::All => {
                if joint.is_empty() {
                    for p in 0..state.num_players() {
                        if p == player {
                            joint.push(action.clone());
                        } else {
                            match any_action(state, p, rng, buf) {
                                Some(a) => joint.push(a),
                                None => return false,
                            }
                        }
                    }
                }
                state.advance(joint);
            }
            Acting::Player(_) => {
                if !play_others(state, player, rng, buf) {
                    return false;
                }
                if state.is_over() {
                    break;
                }
                state.advance(std::slice::from_ref(action));
                if !play_others(state, player, rng, buf) {
                    return false;
                }
            }
        }
    }
    true
}
