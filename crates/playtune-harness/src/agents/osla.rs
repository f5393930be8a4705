//! One-step look-ahead: try own actions for one step, keep the best by the value.

use super::{any_action, state_value};
use crate::game::{Agent, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// Size of the random tie-break noise: far below one point of score.
const TIE_BREAK_NOISE: f64 = 1e-6;

/// One-step look-ahead over the agent's own actions.
///
/// If the game enumerates the player's actions and there are at most `budget` of them,
/// each is tried once; otherwise `budget` actions are sampled (from the enumeration, or
/// with [`Game::random_action`]). In simultaneous games every other player is assumed
/// to play one random action, drawn once per decision in player order (none is drawn
/// for the agent's own slot, so that with two players this is exactly the Space Battle
/// paper's 1SLA); in turn-based games only the own action is played (the spec's OSLA: the heuristic right after the own action).
/// Each try advances a reused copy of the state one step (one forward-model call) and
/// scores it with `state_value`, plus a tiny random tie-break. `budget` counts
/// tries, so it bounds the forward-model calls of a decision.
#[derive(Clone, Debug)]
pub struct Osla<G: Game> {
    /// Own actions tried per decision (at least one is always tried).
    pub budget: usize,
    scratch: Option<G>,
    actions: Vec<G::Action>,
    joint: Vec<G::Action>,
    /// The other players' assumed actions, in player order without the own slot.
    opponents: Vec<G::Action>,
    buf: Vec<G::Action>,
}

impl<G: Game> Osla<G> {
    /// An OSLA agent with `budget` forward-model calls per decision.
    pub fn new(budget: usize) -> Self {
        Osla {
            budget,
            scratch: None,
            actions: Vec::new(),
            joint: Vec::new(),
            opponents: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Advances the scratch copy of `state` with `action` and returns its value.
    fn try_action(&mut self, state: &G, player: usize, action: &G::Action, rng: &mut Rng) -> f64 {
        let scratch = self.scratch.get_or_insert_with(|| state.clone());
        scratch.clone_from(state);
        match state.acting() {
            crate::game::Acting::All => {
                let own = player.min(self.opponents.len());
                self.joint.clear();
                self.joint.extend(self.opponents[..own].iter().cloned());
                self.joint.push(action.clone());
                self.joint.extend(self.opponents[own..].iter().cloned());
                scratch.advance(&self.joint);
            }
            // The paper's one step: the own action alone, scored right after it.
            crate::game::Acting::Player(_) => scratch.advance(std::slice::from_ref(action)),
        }
        state_value(scratch, player) + rng.random::<f64>() * TIE_BREAK_NOISE
    }
}

impl<G: Game> Agent<G> for Osla<G> {
    fn name(&self) -> String {
        format!("OSLA({})", self.budget)
    }

    /// Panics if the game offers `player` no action at all.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        // A game may precompute what every one-step simulation would redo (Space
        // Battle plans its objects' paths); the root plays exactly as `state`.
        let view = state;
        let root = state.search_root(1);
        let state = &root;
        // One assumed action per other player for simultaneous games.
        self.opponents.clear();
        if state.acting() == crate::game::Acting::All {
            for p in (0..state.num_players()).filter(|&p| p != player) {
                let a = any_action(state, p, rng, &mut self.buf)
                    .or_else(|| any_action(view, p, rng, &mut self.buf))
                    .unwrap_or_else(|| panic!("OSLA: player {p} has no action"));
                self.opponents.push(a);
            }
        }
        let budget = self.budget.max(1);
        let mut actions = std::mem::take(&mut self.actions);
        let enumerable = state.legal_actions(player, &mut actions) && !actions.is_empty();
        let mut best: Option<(f64, G::Action)> = None;
        let mut consider = |this: &mut Self, a: G::Action, rng: &mut Rng| {
            let v = this.try_action(state, player, &a, rng);
            if best.as_ref().is_none_or(|(bv, _)| v > *bv) {
                best = Some((v, a));
            }
        };
        if enumerable && actions.len() <= budget {
            for a in actions.iter() {
                consider(self, a.clone(), rng);
            }
        } else {
            for _ in 0..budget {
                let a = if enumerable {
                    actions[rng.random_range(0..actions.len())].clone()
                } else {
                    match any_action(state, player, rng, &mut self.buf) {
                        Some(a) => a,
                        None => break,
                    }
                };
                consider(self, a, rng);
            }
        }
        self.actions = actions;
        // A root the game could not copy (a forward model's clone failed: the match
        // fails with the reason) offers nothing; the view it was made from still does.
        match best {
            Some((_, a)) => a,
            None => any_action(view, player, rng, &mut self.buf)
                .unwrap_or_else(|| panic!("OSLA: the game offers player {player} no action")),
        }
    }

    fn reset(&mut self) {
        self.scratch = None;
    }
}
