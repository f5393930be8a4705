//! Opponent models used inside the simulations of rolling-horizon agents, and the
//! step that plays one own action with them against a forward-model budget.

use super::budget::Budget;
use super::{any_action, state_value};
use crate::game::{Acting, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// How an agent assumes the other players act in its simulations (Rinascimento's
/// opponent models 0, 1 and 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpponentModel {
    /// 0: the opponent does nothing. In simultaneous games this is the first action
    /// [`Game::legal_actions`] lists (Space Battle's NIL). Turn-based games such as
    /// Rinascimento have no "do nothing" action and must be advanced on the
    /// opponent's turn, so there (and in games that do not enumerate actions) it
    /// falls back to [`OpponentModel::Random`].
    DoNothing,
    /// 1: a uniformly random legal action.
    #[default]
    Random,
    /// 2: one-step look-ahead: samples random actions for the opponent, advances a
    /// copy with each (one forward-model call apiece, out of the agent's budget) and
    /// keeps the best by the opponent's own `state_value`.
    Osla,
}

impl OpponentModel {
    /// The spec's number (0, 1, 2) for this model.
    pub fn index(self) -> usize {
        match self {
            OpponentModel::DoNothing => 0,
            OpponentModel::Random => 1,
            OpponentModel::Osla => 2,
        }
    }

    /// The model with the spec's number, if any.
    pub fn from_index(i: usize) -> Option<Self> {
        match i {
            0 => Some(OpponentModel::DoNothing),
            1 => Some(OpponentModel::Random),
            2 => Some(OpponentModel::Osla),
            _ => None,
        }
    }
}

/// Forward-model calls an [`OpponentModel::Osla`] opponent may spend per choice: the
/// fraction `share` of the agent's `budget`, at least one.
pub(crate) fn opponent_calls(budget: usize, share: f64) -> usize {
    ((budget as f64 * share.max(0.0)).floor() as usize).max(1)
}

/// Plays simulations for one agent: owns the scratch space of the opponent model.
#[derive(Clone, Debug)]
pub struct Simulator<G: Game> {
    /// How the other players act in simulations.
    pub model: OpponentModel,
    /// Calls an OSLA opponent may spend per choice (see `opponent_calls`).
    pub opponent_calls: usize,
    scratch: Option<G>,
    joint: Vec<G::Action>,
    buf: Vec<G::Action>,
}

impl<G: Game> Simulator<G> {
    /// Sets the opponents for one decision of an agent with `budget` forward-model
    /// calls, `share` of which an OSLA opponent may spend per choice, and returns that
    /// decision's budget.
    pub(crate) fn prepare(&mut self, model: OpponentModel, budget: usize, share: f64) -> Budget {
        self.model = model;
        self.opponent_calls = opponent_calls(budget, share);
        Budget::new(budget)
    }

    /// A simulator of opponents acting by `model`, an OSLA opponent spending `opponent_calls` per choice.
    pub fn new(model: OpponentModel, opponent_calls: usize) -> Self {
        Simulator {
            model,
            opponent_calls,
            scratch: None,
            joint: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Chooses an action for opponent `p` in `state` by the model. In simultaneous
    /// games `joint` holds the other players' intended actions (slot `p` is
    /// overwritten) and is what an OSLA opponent assumes of them. Look-ahead calls
    /// come out of `budget`, keeping one call for the step itself. `None` if `p` has
    /// no action.
    pub fn opponent_action(
        &mut self,
        state: &G,
        p: usize,
        joint: &[G::Action],
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> Option<G::Action> {
        let simultaneous = state.acting() == Acting::All;
        match self.model {
            OpponentModel::DoNothing if simultaneous => {
                let idle = if state.legal_actions(p, &mut self.buf) {
                    self.buf.first().cloned()
                } else {
                    None
                };
                idle.or_else(|| any_action(state, p, rng, &mut self.buf))
            }
            OpponentModel::DoNothing | OpponentModel::Random => {
                any_action(state, p, rng, &mut self.buf)
            }
            OpponentModel::Osla => {
                let tries = self.opponent_calls.min(budget.left().saturating_sub(1));
                let mut best: Option<(f64, G::Action)> = None;
                let mut trial = std::mem::take(&mut self.joint);
                for _ in 0..tries.max(1) {
                    let Some(a) = any_action(state, p, rng, &mut self.buf) else {
                        break;
                    };
                    if tries == 0 {
                        best = Some((0.0, a));
                        break;
                    }
                    let scratch = self.scratch.get_or_insert_with(|| state.clone());
                    scratch.clone_from(state);
                    if simultaneous {
                        trial.clear();
                        trial.extend_from_slice(joint);
                        trial[p] = a.clone();
                    } else {
                        trial.clear();
                        trial.push(a.clone());
                    }
                    if !budget.advance(scratch, &trial) {
                        break;
                    }
                    let v = state_value(scratch, p) + rng.random::<f64>() * 1e-6;
                    if best.as_ref().is_none_or(|(bv, _)| v > *bv) {
                        best = Some((v, a));
                    }
                }
                self.joint = trial;
                best.map(|(_, a)| a)
                    .or_else(|| any_action(state, p, rng, &mut self.buf))
            }
        }
    }

    /// Plays the other players' turns (turn-based games) until `player` must act or
    /// the game is over. False if the budget ran out or someone had no action.
    pub(crate) fn play_others(
        &mut self,
        state: &mut G,
        player: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> bool {
        while !state.is_over() {
            match state.acting() {
                Acting::Player(p) if p != player => {
                    let Some(a) = self.opponent_action(state, p, &[], budget, rng) else {
                        return false;
                    };
                    if !budget.advance(state, std::slice::from_ref(&a)) {
                        return false;
                    }
                }
                _ => break,
            }
        }
        true
    }

    /// Plays one own step: `action` for `player` (who must be acting, or the game
    /// simultaneous), the others by the opponent model, repeated `repeat` times with
    /// the same joint action in simultaneous games (macro actions). In turn-based
    /// games the others' turns before and after the own action are played too.
    /// False if the budget ran out or the simulation could not go on.
    pub fn step(
        &mut self,
        state: &mut G,
        player: usize,
        action: &G::Action,
        repeat: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> bool {
        let mut joint = std::mem::take(&mut self.joint);
        joint.clear();
        let mut ok = true;
        for _ in 0..repeat.max(1) {
            if state.is_over() {
                break;
            }
            match state.acting() {
                Acting::All => {
                    if joint.is_empty() {
                        ok = self.fill_joint(state, player, action, &mut joint, budget, rng);
                        if !ok {
                            break;
                        }
                    }
                    if !budget.advance(state, &joint) {
                        ok = false;
                        break;
                    }
                }
                Acting::Player(_) => {
                    if !self.play_others(state, player, budget, rng) {
                        ok = false;
                        break;
                    }
                    if state.is_over() {
                        break;
                    }
                    if !budget.advance(state, std::slice::from_ref(action))
                        || !self.play_others(state, player, budget, rng)
                    {
                        ok = false;
                        break;
                    }
                }
            }
        }
        joint.clear();
        self.joint = joint;
        ok
    }

    /// The joint action of a simultaneous step: `action` for `player`, the model's
    /// choice for everyone else (each assuming "do nothing" of players not yet chosen).
    fn fill_joint(
        &mut self,
        state: &G,
        player: usize,
        action: &G::Action,
        joint: &mut Vec<G::Action>,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> bool {
        for p in 0..state.num_players() {
            if p == player {
                joint.push(action.clone());
            } else {
                let idle = if state.legal_actions(p, &mut self.buf) {
                    self.buf.first().cloned()
                } else {
                    None
                };
                match idle.or_else(|| any_action(state, p, rng, &mut self.buf)) {
                    Some(a) => joint.push(a),
                    None => return false,
                }
            }
        }
        for p in 0..state.num_players() {
            if p != player {
                match self.opponent_action(state, p, joint, budget, rng) {
                    Some(a) => joint[p] = a,
                    None => return false,
                }
            }
        }
        true
    }
}
