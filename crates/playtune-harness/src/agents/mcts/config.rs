//! MCTS's settings and how it picks the action to play.

use super::*;

/// How [`Mcts`] picks the action to play among the root's children (children never
/// visited are skipped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Recommendation {
    /// 0: the highest mean value.
    MaxChild,
    /// 1: the most visits (ties: the higher mean).
    #[default]
    RobustChild,
    /// 2: the highest lower bound `q - SECURE_A / sqrt(n)`, `q` the normalised mean
    /// (the mean score mapped to [0, 1] by the scores seen this decision, plus the
    /// mean outcome).
    SecureChild,
}

impl Recommendation {
    /// The spec's number (0 max, 1 robust, 2 secure).
    pub fn index(self) -> usize {
        match self {
            Recommendation::MaxChild => 0,
            Recommendation::RobustChild => 1,
            Recommendation::SecureChild => 2,
        }
    }

    /// The recommendation of the spec's number (see [`Recommendation::index`]).
    pub fn from_index(i: usize) -> Option<Self> {
        match i {
            0 => Some(Recommendation::MaxChild),
            1 => Some(Recommendation::RobustChild),
            2 => Some(Recommendation::SecureChild),
            _ => None,
        }
    }
}

/// Settings of [`Mcts`]. The defaults are the Space Battle search; see
/// `playtune_rinascimento::mcts_star` for the spec's tuned MCTS*.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations (descent, rollout, back-up) per decision: the budget.
    pub iterations: usize,
    /// Steps per iteration, tree steps included.
    pub rollout_depth: usize,
    /// Ticks each step repeats its action for (Space Battle uses 5). Meant for
    /// real-time games; keep 1 for turn-based ones.
    pub macro_action: usize,
    /// UCB1 exploration constant.
    pub c: f64,
    /// Added to a child's visits in the UCB exploration term,
    /// `c * sqrt(ln N / (n + epsilon))`, and the size of the random tie-break added to
    /// every score (at least 1e-9). Default 0.
    pub epsilon: f64,
    /// For games that do not enumerate their actions (and with `p_exp`): distinct
    /// random actions sampled as a node's children when it is expanded.
    pub max_children_sampled: usize,
    /// Progressive-widening-like expansion: `Some(p)` expands a node that has no
    /// children, and one that has with probability `p`, by sampling
    /// `progression_width` new random actions (the iteration follows the first new
    /// one); otherwise UCB chooses among the children legal in the current
    /// re-simulation. `None` (default) expands one untried action at a time in games
    /// that enumerate their actions, `max_children_sampled` at once in others.
    pub p_exp: Option<f64>,
    /// New random actions per expansion when `p_exp` is set (default 1).
    pub progression_width: usize,
    /// How other players act after the agent's moves (default random).
    pub opponent: OpponentModel,
    /// Share of the budget an OSLA opponent may spend on each choice (default 0.01).
    pub opponent_budget: f64,
    /// Whether other players act by `opponent` in rollouts too (default); if false
    /// they play random actions there (the tree steps always use `opponent`).
    pub roll_with_opponents: bool,
    /// Which root child is played (default robust child).
    pub recommendation: Recommendation,
    /// Forward-model calls ([`Game::advance`], other players' included) per decision;
    /// the search stops when they run out and the iteration cut short is not backed
    /// up. Default unlimited (`usize::MAX`): only `iterations` bounds the search.
    pub budget: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 175,
            rollout_depth: 10,
            macro_action: 1,
            c: std::f64::consts::SQRT_2,
            epsilon: 0.0,
            max_children_sampled: 10,
            p_exp: None,
            progression_width: 1,
            opponent: OpponentModel::Random,
            opponent_budget: 0.01,
            roll_with_opponents: true,
            recommendation: Recommendation::RobustChild,
            budget: usize::MAX,
        }
    }
}

impl MctsConfig {
    /// Calls an OSLA opponent may spend per choice: `opponent_budget` of the budget
    /// (of `iterations * rollout_depth * macro_action` when the budget is unlimited).
    pub(super) fn opponent_calls(&self) -> usize {
        let base = if self.budget == usize::MAX {
            self.iterations
                .saturating_mul(self.rollout_depth)
                .saturating_mul(self.macro_action.max(1))
        } else {
            self.budget
        };
        opponent_calls(base, self.opponent_budget)
    }
}
