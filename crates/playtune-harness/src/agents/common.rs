//! Helpers shared by the rolling-horizon agents: the plan rollout and (1+1) loop of
//! BMRH, SRH and the microbial EA, and (for tests) a game wrapper that counts
//! forward-model calls.

use super::budget::Budget;
use super::opponents::{OpponentModel, Simulator, opponent_calls};
use crate::game::Game;
use playtune_optim::rng::Rng;

/// What the rolling-horizon agents (BMRH, SRH, the microbial EA) share: the opponent
/// simulator and a scratch state that every plan is played on, so that a decision
/// allocates one state however many plans it tries.
#[derive(Clone, Debug)]
pub(crate) struct Rollouts<G: Game> {
    sim: Simulator<G>,
    scratch: Option<G>,
}

impl<G: Game> Rollouts<G> {
    /// For an agent whose other players act by `opponent`, an OSLA opponent spending
    /// `share` of the agent's `budget` per choice.
    pub(crate) fn new(opponent: OpponentModel, budget: usize, share: f64) -> Self {
        Rollouts {
            sim: Simulator::new(opponent, opponent_calls(budget, share)),
            scratch: None,
        }
    }

    /// Sets the opponents for one decision and returns its budget (see
    /// [`Simulator::prepare`]).
    pub(crate) fn prepare(&mut self, opponent: OpponentModel, budget: usize, share: f64) -> Budget {
        self.sim.prepare(opponent, budget, share)
    }

    /// Plays one plan of up to `steps` own steps from a copy of `root`: first the
    /// other players' turns until `player` acts, then for each step `i` the action
    /// `choose(i, state, rng)` (none ends the plan) repeated `repeat` times with the
    /// others acting by the opponent model, calling `stepped(state)` after each step.
    /// Stops early when the game ends. Returns the steps played and, unless the budget
    /// ran out (or the simulation could not go on), `end` of the final state.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn play<V>(
        &mut self,
        root: &G,
        player: usize,
        steps: usize,
        repeat: usize,
        budget: &mut Budget,
        rng: &mut Rng,
        mut choose: impl FnMut(usize, &G, &mut Rng) -> Option<G::Action>,
        mut stepped: impl FnMut(&G),
        end: impl FnOnce(&G) -> V,
    ) -> (usize, Option<V>) {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        let mut ok = self.sim.play_others(&mut state, player, budget, rng);
        let mut i = 0;
        while ok && i < steps && !state.is_over() {
            let Some(action) = choose(i, &state, rng) else {
                break;
            };
            ok = self
                .sim
                .step(&mut state, player, &action, repeat, budget, rng);
            i += 1;
            stepped(&state);
        }
        let value = ok.then(|| end(&state));
        self.scratch = Some(state);
        (i, value)
    }

    /// Forgets the scratch state (between games).
    pub(crate) fn reset(&mut self) {
        self.scratch = None;
    }
}

/// The plan a rolling-horizon decision (BMRH, SRH) starts from, in `child`: with
/// `shift`, the rest of the last decision's `best` (its first action was played),
/// at most `len` long; else nothing. The caller completes it.
pub(crate) fn start_from_best<T: Clone>(best: &[T], child: &mut Vec<T>, shift: bool, len: usize) {
    child.clear();
    if shift {
        child.extend(best.iter().skip(1).take(len).cloned());
    }
}

/// A rolling-horizon agent's name: `NAME(len L, E evals, budget B)`.
pub(crate) fn horizon_name(name: &str, len: usize, evaluations: usize, budget: usize) -> String {
    format!("{name}(len {len}, {evaluations} evals, budget {budget})")
}

/// The (1+1) evolutionary loop of BMRH and SRH: evaluates the plan in `child` (told
/// `first`) and makes it the best; then, up to `evaluations - 1` times, `mutate`
/// changes a copy of the best in `child` and tells `evaluate` what it did; a child
/// that scores at least as well as the best replaces it. Stops at the first
/// evaluation that cannot be paid for (`None`). Returns the best plan's value, `None`
/// if even the first could not be evaluated.
pub(crate) fn one_plus_one<T: Clone, M>(
    best: &mut Vec<T>,
    child: &mut Vec<T>,
    evaluations: usize,
    rng: &mut Rng,
    first: M,
    mut mutate: impl FnMut(&mut Vec<T>, &mut Rng) -> M,
    mut evaluate: impl FnMut(&mut Vec<T>, M, &mut Rng) -> Option<f64>,
) -> Option<f64> {
    let mut best_value = evaluate(child, first, rng);
    std::mem::swap(best, child);
    if best_value.is_some() {
        for _ in 1..evaluations {
            child.clone_from(best);
            let told = mutate(child, rng);
            let Some(v) = evaluate(child, told, rng) else {
                break;
            };
            if best_value.is_none_or(|b| v >= b) {
                best_value = Some(v);
                std::mem::swap(best, child);
            }
        }
    }
    best_value
}
