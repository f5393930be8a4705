//! Branching mutation rolling horizon (BMRH): a (1+1) evolutionary algorithm over
//! explicit sequences of the agent's own actions.

use super::budget::Budget;
use super::common::{Rollouts, horizon_name, one_plus_one, start_from_best};
use super::opponents::OpponentModel;
use super::{any_action, state_value};
use crate::game::{Agent, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

/// Where the branching mutation cuts a sequence of length `L`: actions before the
/// point are kept, the rest are re-sampled. A point of `L` means "no change" and is
/// only drawn when `flip_at_least_one` is off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MutationPoint {
    /// Uniform over `0..L` (or `0..=L` without flip-at-least-one).
    Uniform,
    /// Point `k` with weight `decay^(k+1)` (p, p², ...): late cuts are likelier when
    /// `decay` > 1, early ones when it is below 1.
    Exponential {
        /// The ratio of each point's weight to the one before.
        decay: f64,
    },
    /// `round((mean + sd·N(0,1)) · L)`, `mean` being a fraction of the sequence;
    /// negative points cut at 0, points past the end mean no change (or cut at `L-1`
    /// with flip-at-least-one).
    Gaussian {
        /// The mean point, as a share of the sequence.
        mean: f64,
        /// The standard deviation, as a share of the sequence.
        sd: f64,
    },
    /// A fresh random sequence (point 0) every time.
    Fresh,
}

impl MutationPoint {
    /// Draws a point for a sequence of `len` actions.
    fn draw(self, len: usize, flip: bool, rng: &mut Rng) -> usize {
        let last = if flip { len.saturating_sub(1) } else { len };
        match self {
            MutationPoint::Uniform => rng.random_range(0..=last),
            MutationPoint::Fresh => 0,
            MutationPoint::Exponential { decay } => {
                let weights: Vec<f64> = (0..=last).map(|k| decay.powi(k as i32 + 1)).collect();
                let total: f64 = weights.iter().sum();
                if !(total.is_finite() && total > 0.0) {
                    return 0;
                }
                let mut x = rng.random::<f64>() * total;
                for (k, w) in weights.iter().enumerate() {
                    if x < *w {
                        return k;
                    }
                    x -= w;
                }
                last
            }
            MutationPoint::Gaussian { mean, sd } => {
                // Box-Muller.
                let u1 = rng.random::<f64>().max(f64::MIN_POSITIVE);
                let u2 = rng.random::<f64>();
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                let x = ((mean + sd * z) * len as f64).round();
                if x <= 0.0 { 0 } else { (x as usize).min(last) }
            }
        }
    }
}

/// Settings of [`Bmrh`]. The defaults are the spec's tuned BMRH*.
#[derive(Clone, Debug, PartialEq)]
pub struct BmrhConfig {
    /// Own actions per sequence (default 2).
    pub sequence_length: usize,
    /// Sequences evaluated per decision, the first included (default 200).
    pub evaluations: usize,
    /// Keep the rest of the last decision's best sequence as the next starting point
    /// (default on).
    pub shift_buffer: bool,
    /// Every mutation re-samples at least one action (default on).
    pub flip_at_least_one: bool,
    /// Where mutations cut the sequence (default uniform).
    pub mutation: MutationPoint,
    /// How other players act in simulations (default do-nothing, which falls back to
    /// random in turn-based games: see [`OpponentModel::DoNothing`]).
    pub opponent: OpponentModel,
    /// Share of `budget` an OSLA opponent may spend on each of its choices
    /// (default 0.01).
    pub opponent_budget: f64,
    /// Forward-model calls ([`Game::advance`], opponents' included) per decision
    /// (default 1000, the spec's budget). The search stops early when it runs out; a
    /// sequence cut short by it is discarded.
    pub budget: usize,
}

impl Default for BmrhConfig {
    fn default() -> Self {
        BmrhConfig {
            sequence_length: 2,
            evaluations: 200,
            shift_buffer: true,
            flip_at_least_one: true,
            mutation: MutationPoint::Uniform,
            opponent: OpponentModel::DoNothing,
            opponent_budget: 0.01,
            budget: 1000,
        }
    }
}

/// Rolling-horizon (1+1) EA over explicit own-action sequences with branching
/// mutation: a child keeps its parent's actions before the mutation point and draws
/// the rest with [`Game::random_action`] while the state is rolled forward, so every
/// action it holds was legal where it was drawn. Each evaluation plays the sequence
/// from a copy of the state (other players acting by the opponent model after each
/// own action) and scores the end with `state_value`; a child replaces its parent
/// if it scores at least as well. The first sequence of a decision is the shifted
/// best of the last one (or a fresh one), with actions the current state does not
/// allow replaced. Plays the first action of the best sequence.
#[derive(Clone, Debug)]
pub struct Bmrh<G: Game> {
    /// Its settings.
    pub config: BmrhConfig,
    rollouts: Rollouts<G>,
    best: Vec<G::Action>,
    child: Vec<G::Action>,
    legal: Vec<G::Action>,
}

impl<G: Game> Bmrh<G> {
    /// A BMRH agent with `config`.
    pub fn new(config: BmrhConfig) -> Self {
        Bmrh {
            rollouts: Rollouts::new(config.opponent, config.budget, config.opponent_budget),
            config,
            best: Vec::new(),
            child: Vec::new(),
            legal: Vec::new(),
        }
    }
}

/// Plays `child` from `root`, keeping actions before `keep`, drawing the rest (and any
/// missing ones) at random and, if `repair`, replacing kept actions the game lists as
/// illegal; `child` ends up holding the actions played. Returns the value, or `None`
/// if the budget ran out.
#[allow(clippy::too_many_arguments)]
fn evaluate<G: Game>(
    rollouts: &mut Rollouts<G>,
    legal: &mut Vec<G::Action>,
    child: &mut Vec<G::Action>,
    root: &G,
    player: usize,
    len: usize,
    (keep, repair): (usize, bool),
    budget: &mut Budget,
    rng: &mut Rng,
) -> Option<f64> {
    let choose = |i: usize, state: &G, rng: &mut Rng| {
        let mut action = if i < keep {
            child.get(i).cloned()
        } else {
            None
        };
        if repair
            && action.is_some()
            && state.legal_actions(player, legal)
            && !legal.iter().any(|l| Some(l) == action.as_ref())
        {
            action = None;
        }
        let action = match action {
            Some(a) => a,
            None => any_action(state, player, rng, legal)?,
        };
        if i < child.len() {
            child[i] = action.clone();
        } else {
            child.push(action.clone());
        }
        Some(action)
    };
    let (played, value) = rollouts.play(
        root,
        player,
        len,
        1,
        budget,
        rng,
        choose,
        |_| {},
        |state| state_value(state, player),
    );
    child.truncate(played);
    value
}

impl<G: Game> Default for Bmrh<G> {
    fn default() -> Self {
        Bmrh::new(BmrhConfig::default())
    }
}

impl<G: Game> Agent<G> for Bmrh<G> {
    fn name(&self) -> String {
        let c = &self.config;
        horizon_name("BMRH", c.sequence_length, c.evaluations, c.budget)
    }

    /// Panics if the game offers `player` no action at all.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let Bmrh {
            config,
            rollouts,
            best,
            child,
            legal,
        } = self;
        let mut budget = rollouts.prepare(config.opponent, config.budget, config.opponent_budget);
        let len = config.sequence_length.max(1);
        // Starting sequence: the shifted best of the last decision, or a fresh one,
        // its actions checked against the current state.
        start_from_best(best, child, config.shift_buffer, len);
        let keep = child.len();
        let best_value = one_plus_one(
            best,
            child,
            config.evaluations,
            rng,
            (keep, true),
            |_, rng| {
                (
                    config.mutation.draw(len, config.flip_at_least_one, rng),
                    false,
                )
            },
            |child, told, rng| {
                evaluate(
                    rollouts,
                    legal,
                    child,
                    state,
                    player,
                    len,
                    told,
                    &mut budget,
                    rng,
                )
            },
        );
        let first = if best_value.is_some() {
            best.first().cloned()
        } else {
            None
        };
        match first {
            Some(a) => a,
            None => {
                best.clear();
                any_action(state, player, rng, legal)
                    .unwrap_or_else(|| panic!("BMRH: the game offers player {player} no action"))
            }
        }
    }

    fn reset(&mut self) {
        self.best.clear();
        self.rollouts.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playtune_optim::rng::rng_from_seed;

    #[test]
    fn mutation_points_stay_in_range() {
        let mut rng = rng_from_seed(2);
        for m in [
            MutationPoint::Uniform,
            MutationPoint::Exponential { decay: 0.5 },
            MutationPoint::Gaussian {
                mean: 0.75,
                sd: 2.0,
            },
            MutationPoint::Fresh,
        ] {
            for _ in 0..200 {
                assert!(m.draw(4, true, &mut rng) < 4);
                assert!(m.draw(4, false, &mut rng) <= 4);
            }
        }
    }
}
