//! Open-loop Monte Carlo tree search over the agent's own actions.

use super::any_action;
use super::common::Budget;
use super::evaluator::{SharedEvaluator, StateEvaluator};
use super::opponents::{OpponentModel, Simulator, opponent_calls};
use super::portfolio::{PortfolioSearch, Suggestion, unpruned_children};
use super::{WIN_BONUS, outcome};
use crate::game::{Agent, Game};
use crate::rng::Rng;
use rand::RngExt;

/// Tie-break noise added to UCB scores (scores are normalised to [0, 1]).
const TIE_BREAK_NOISE: f64 = 1e-9;

/// Constant `A` of the secure-child recommendation: `q - A / sqrt(n)` on normalised
/// means `q` (independent of the exploration constant, so that `c = 0` still differs
/// from the max child).
pub(crate) const SECURE_A: f64 = 1.0;

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

    pub(crate) fn from_index(i: usize) -> Option<Self> {
        match i {
            0 => Some(Recommendation::MaxChild),
            1 => Some(Recommendation::RobustChild),
            2 => Some(Recommendation::SecureChild),
            _ => None,
        }
    }
}

/// Settings of [`Mcts`]. The defaults are the Space Battle search; see
/// [`MctsConfig::rinascimento_star`] for the spec's tuned MCTS*.
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
    fn opponent_calls(&self) -> usize {
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

#[derive(Clone, Debug)]
struct Node<A> {
    /// The own action leading here (`None` at the root).
    action: Option<A>,
    parent: usize,
    children: Vec<usize>,
    visits: u32,
    /// Sum of the scores ([`Game::score`]) backed up through this node.
    score: f64,
    /// Sum of the outcomes ([`outcome`]: 1 sole win, -1 loss, 0 otherwise).
    outcome: f64,
    /// `w * value` of the script that suggested the action (P-MCTS; 0 otherwise).
    prior: f64,
}

/// Open-loop MCTS: the tree stores sequences of the agent's own actions, not states;
/// every iteration re-simulates from a copy of the root state. Other players act by
/// the opponent model ([`MctsConfig::opponent`]), at the same step in simultaneous
/// games and on their own turns (after each own action) in turn-based ones.
/// Selection is UCB1 (unvisited children first) on normalised means: the mean score
/// ([`Game::score`]) mapped to [0, 1] by the smallest and largest score seen this
/// decision, plus the mean outcome of finished games (1 sole win, -1 loss), so that
/// the ranking matches [`state_value`](super::state_value) without its win bonus
/// flattening the scores.
/// Expansion: see [`MctsConfig::p_exp`]; children illegal in the current
/// re-simulation are skipped where the game enumerates its actions. The
/// recommendation is [`MctsConfig::recommendation`]. Nodes live in an arena reused
/// across decisions.
#[derive(Clone, Debug)]
pub struct Mcts<G: Game> {
    pub config: MctsConfig,
    nodes: Vec<Node<G::Action>>,
    used: usize,
    scratch: Option<G>,
    legal: Vec<G::Action>,
    candidates: Vec<usize>,
    buf: Vec<G::Action>,
    sim: Simulator<G>,
    roll_sim: Simulator<G>,
    min_value: f64,
    max_value: f64,
    /// P-MCTS: children are the portfolio's suggestions instead of raw actions.
    portfolio: Option<PortfolioSearch<G>>,
    suggestions: Vec<Suggestion<G::Action>>,
    options: Vec<(f64, G::Action)>,
    /// The children the decision's own state offers, found at its first iteration:
    /// every iteration that starts on the agent's turn descends from that very state.
    root_options: Option<Vec<(f64, G::Action)>>,
    root_legal: Option<(bool, Vec<G::Action>)>,
    /// Values the state where the tree ends instead of a random rollout, if set.
    evaluator: Option<SharedEvaluator<G>>,
}

impl<G: Game> Mcts<G> {
    /// Portfolio MCTS: the same search, but a node's children are the distinct actions
    /// that the portfolio's scripts suggest for the player's actors (a portfolio is a
    /// way of generating children, not a second search), optionally steered by the
    /// scripts' weights through progressive bias and progressive unpruning.
    pub fn with_portfolio(config: MctsConfig, portfolio: PortfolioSearch<G>) -> Self {
        Mcts {
            portfolio: Some(portfolio),
            ..Mcts::new(config)
        }
    }

    /// Replaces the random rollout by `evaluator`: an iteration values the state it
    /// reaches after expanding a node (a value from -1 to 1, plus the outcome of a
    /// finished game) instead of playing on to the depth limit.
    pub fn with_evaluator(mut self, evaluator: std::sync::Arc<dyn StateEvaluator<G>>) -> Self {
        self.evaluator = Some(SharedEvaluator(evaluator));
        self
    }

    pub fn new(config: MctsConfig) -> Self {
        Mcts {
            portfolio: None,
            evaluator: None,
            suggestions: Vec::new(),
            options: Vec::new(),
            root_options: None,
            root_legal: None,
            sim: Simulator::new(config.opponent, 1),
            roll_sim: Simulator::new(OpponentModel::Random, 1),
            config,
            nodes: Vec::new(),
            used: 0,
            scratch: None,
            legal: Vec::new(),
            candidates: Vec::new(),
            buf: Vec::new(),
            min_value: f64::INFINITY,
            max_value: f64::NEG_INFINITY,
        }
    }

    fn new_node(&mut self, parent: usize, action: Option<G::Action>) -> usize {
        let id = self.used;
        self.used += 1;
        if id < self.nodes.len() {
            let n = &mut self.nodes[id];
            n.action = action;
            n.parent = parent;
            n.children.clear();
            n.visits = 0;
            n.score = 0.0;
            n.outcome = 0.0;
            n.prior = 0.0;
        } else {
            self.nodes.push(Node {
                action,
                parent,
                children: Vec::new(),
                visits: 0,
                score: 0.0,
                outcome: 0.0,
                prior: 0.0,
            });
        }
        if parent != id {
            self.nodes[parent].children.push(id);
        }
        id
    }

    /// Mean [`state_value`](super::state_value) of a node (0 if unvisited).
    fn mean_value(n: &Node<G::Action>) -> f64 {
        let visits = f64::from(n.visits.max(1));
        (n.score + WIN_BONUS * n.outcome) / visits
    }

    /// Normalised mean of a node: its mean score mapped to [0, 1] by the smallest and
    /// largest score seen this decision, plus its mean outcome (1 sole win, -1 loss).
    /// The win bonus is kept out of the score's range so that one finished game seen
    /// in the search does not squash the differences between all the others.
    fn normalised_mean(&self, n: &Node<G::Action>) -> f64 {
        let span = self.max_value - self.min_value;
        let visits = f64::from(n.visits.max(1));
        let mean = n.score / visits;
        let score = if span > 0.0 {
            (mean - self.min_value) / span
        } else {
            0.5
        };
        score + n.outcome / visits
    }

    /// Adds one result (`score` and `outcome` of the final state) to `node` and its
    /// ancestors, widening the range of scores seen.
    fn backup(&mut self, mut node: usize, score: f64, outcome: f64) {
        self.min_value = self.min_value.min(score);
        self.max_value = self.max_value.max(score);
        loop {
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.score += score;
            n.outcome += outcome;
            if node == 0 {
                break;
            }
            node = n.parent;
        }
    }

    /// The child of `node` reached by `action`, if it has one.
    fn child_with(&self, node: usize, action: &G::Action) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].action.as_ref() == Some(action))
    }

    /// UCB1 choice among `self.candidates` (children of `node`); unvisited first.
    fn select(&self, node: usize, rng: &mut Rng) -> usize {
        let parent_visits = f64::from(self.nodes[node].visits.max(1));
        let noise = self.config.epsilon.max(TIE_BREAK_NOISE);
        let bias = self.portfolio.as_ref().is_some_and(|p| p.bias);
        let mut best = (f64::NEG_INFINITY, self.candidates[0]);
        for &child in &self.candidates {
            let n = &self.nodes[child];
            let mut score = if n.visits == 0 {
                f64::INFINITY
            } else {
                self.normalised_mean(n)
                    + self.config.c
                        * (parent_visits.ln() / (f64::from(n.visits) + self.config.epsilon)).sqrt()
            };
            if bias {
                // Progressive bias: the script's opinion fades as the child is visited.
                score += n.prior / (f64::from(n.visits) + 1.0);
            }
            let score = score + rng.random::<f64>() * noise;
            if score > best.0 {
                best = (score, child);
            }
        }
        best.1
    }

    /// Samples up to `want` distinct random actions of `player` that `node` has no
    /// child for and adds them as children; returns the first one added.
    fn sample_children(
        &mut self,
        node: usize,
        state: &G,
        player: usize,
        want: usize,
        rng: &mut Rng,
    ) -> Option<usize> {
        let want = want.max(1);
        let mut first = None;
        let mut added = 0;
        for _ in 0..want * 4 {
            if added >= want {
                break;
            }
            match any_action(state, player, rng, &mut self.buf) {
                Some(a) => {
                    let known = self.nodes[node]
                        .children
                        .iter()
                        .any(|&c| self.nodes[c].action.as_ref() == Some(&a));
                    if !known {
                        let id = self.new_node(node, Some(a));
                        first.get_or_insert(id);
                        added += 1;
                    }
                }
                None => break,
            }
        }
        first
    }

    /// Chooses (expanding if needed) the child of `node` to follow in `state`, or
    /// `None` if the player has no action. The flag tells whether the child is new.
    /// `at_root`: `state` is the decision's state, where every child is legal.
    /// `pristine`: `state` is the decision's state itself, unchanged (nobody moved
    /// before the agent), so its children are those found the first time.
    fn tree_policy(
        &mut self,
        node: usize,
        state: &G,
        player: usize,
        at_root: bool,
        pristine: bool,
        rng: &mut Rng,
    ) -> Option<(usize, bool)> {
        if self.portfolio.is_some()
            && let Some(choice) = self.portfolio_policy(node, state, player, pristine, rng)
        {
            return Some(choice);
        }
        if let Some(p_exp) = self.config.p_exp {
            return self.widening_policy(node, state, player, p_exp, at_root, rng);
        }
        let mut legal = std::mem::take(&mut self.legal);
        let enumerable = match (&self.root_legal, pristine) {
            (Some((enumerable, cached)), true) => {
                legal.clone_from(cached);
                *enumerable
            }
            _ => {
                let enumerable = state.legal_actions(player, &mut legal);
                if pristine {
                    self.root_legal = Some((enumerable, legal.clone()));
                }
                enumerable
            }
        };
        let result = if enumerable {
            self.candidates.clear();
            let mut untried = 0usize;
            let mut pick: Option<usize> = None;
            for (i, a) in legal.iter().enumerate() {
                match self.child_with(node, a) {
                    Some(c) => self.candidates.push(c),
                    None => {
                        // Reservoir sampling of one untried action.
                        untried += 1;
                        if rng.random_range(0..untried) == 0 {
                            pick = Some(i);
                        }
                    }
                }
            }
            if let Some(i) = pick {
                let a = legal[i].clone();
                Some((self.new_node(node, Some(a)), true))
            } else if self.candidates.is_empty() {
                None
            } else {
                Some((self.select(node, rng), false))
            }
        } else {
            if self.nodes[node].children.is_empty() {
                let want = self.config.max_children_sampled;
                self.sample_children(node, state, player, want, rng);
            }
            self.candidates.clear();
            self.candidates
                .extend_from_slice(&self.nodes[node].children);
            if self.candidates.is_empty() {
                None
            } else {
                let child = self.select(node, rng);
                Some((child, self.nodes[child].visits == 0))
            }
        };
        self.legal = legal;
        result
    }

    /// P-MCTS's tree policy: the children are the portfolio's suggestions in this
    /// re-simulation (other players act between the agent's turns, so they can differ
    /// from one visit to the next), those not yet tried first, then UCB1 (with the
    /// progressive-bias term if set). With progressive unpruning only the best
    /// [`unpruned_children`] by prior are considered, and untried ones are expanded
    /// best prior first; otherwise in random order. `None` if the portfolio suggests
    /// nothing (the raw policy takes over).
    fn portfolio_policy(
        &mut self,
        node: usize,
        state: &G,
        player: usize,
        pristine: bool,
        rng: &mut Rng,
    ) -> Option<(usize, bool)> {
        let search = self.portfolio.as_ref()?;
        let mut options = std::mem::take(&mut self.options);
        match (&self.root_options, pristine) {
            (Some(cached), true) => options.clone_from(cached),
            _ => {
                search.options(state, player, &mut self.suggestions, &mut options);
                if pristine {
                    self.root_options = Some(options.clone());
                }
            }
        }
        let unpruning = search.unpruning;
        let open = if unpruning {
            unpruned_children(options.len(), self.nodes[node].visits)
        } else {
            options.len()
        };
        self.candidates.clear();
        let mut untried = 0usize;
        let mut pick: Option<usize> = None;
        for (i, (prior, a)) in options.iter().take(open).enumerate() {
            match self.child_with(node, a) {
                Some(c) => {
                    self.nodes[c].prior = *prior;
                    self.candidates.push(c);
                }
                None => {
                    untried += 1;
                    // Best prior first under unpruning, else reservoir sampling.
                    if (unpruning && pick.is_none())
                        || (!unpruning && rng.random_range(0..untried) == 0)
                    {
                        pick = Some(i);
                    }
                }
            }
        }
        let result = if let Some(i) = pick {
            let (prior, a) = options[i].clone();
            let id = self.new_node(node, Some(a));
            self.nodes[id].prior = prior;
            Some((id, true))
        } else if self.candidates.is_empty() {
            None
        } else {
            Some((self.select(node, rng), false))
        };
        self.options = options;
        result
    }

    /// The progressive-widening-like policy of [`MctsConfig::p_exp`].
    fn widening_policy(
        &mut self,
        node: usize,
        state: &G,
        player: usize,
        p_exp: f64,
        at_root: bool,
        rng: &mut Rng,
    ) -> Option<(usize, bool)> {
        if self.nodes[node].children.is_empty() || rng.random::<f64>() < p_exp {
            let width = self.config.progression_width;
            if let Some(child) = self.sample_children(node, state, player, width, rng) {
                return Some((child, true));
            }
        }
        self.candidates.clear();
        let mut legal = std::mem::take(&mut self.legal);
        if !at_root && state.legal_actions(player, &mut legal) {
            for &c in &self.nodes[node].children {
                if self.nodes[c]
                    .action
                    .as_ref()
                    .is_some_and(|a| legal.contains(a))
                {
                    self.candidates.push(c);
                }
            }
        } else {
            self.candidates
                .extend_from_slice(&self.nodes[node].children);
        }
        self.legal = legal;
        if self.candidates.is_empty() {
            // No child fits this re-simulation: grow one that does.
            return self
                .sample_children(node, state, player, 1, rng)
                .map(|c| (c, true));
        }
        let child = self.select(node, rng);
        Some((child, self.nodes[child].visits == 0))
    }

    /// One iteration; false if the budget ran out (nothing is backed up then).
    fn iterate(&mut self, root: &G, player: usize, budget: &mut Budget, rng: &mut Rng) -> bool {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        let repeat = self.config.macro_action.max(1);
        let mut node = 0;
        let mut depth = 0;
        let mut out_of_budget = false;
        let before = budget.left();
        let mut alive = self.sim.play_others(&mut state, player, budget, rng);
        // Every forward-model call spends one of the budget: none spent, none made.
        let pristine = alive && budget.left() == before;
        if !alive && budget.left() == 0 {
            out_of_budget = true;
        }
        // Descent through the tree, expanding one node.
        while alive && depth < self.config.rollout_depth && !state.is_over() {
            let Some((child, new)) = self.tree_policy(
                node,
                &state,
                player,
                depth == 0,
                pristine && depth == 0,
                rng,
            ) else {
                alive = false;
                break;
            };
            node = child;
            let action = self.nodes[child]
                .action
                .clone()
                .expect("children carry actions");
            alive = self
                .sim
                .step(&mut state, player, &action, repeat, budget, rng);
            if !alive && budget.left() == 0 {
                out_of_budget = true;
            }
            depth += 1;
            if new {
                break;
            }
        }
        if let Some(evaluator) = &self.evaluator
            && !out_of_budget
        {
            let value = if state.is_over() {
                0.0
            } else {
                evaluator.0.evaluate(&state, player)
            };
            self.backup(node, value, outcome(&state, player));
            self.scratch = Some(state);
            return true;
        }
        // Random rollout to the depth limit.
        while alive && depth < self.config.rollout_depth && !state.is_over() {
            match any_action(&state, player, rng, &mut self.buf) {
                Some(a) => {
                    let sim = if self.config.roll_with_opponents {
                        &mut self.sim
                    } else {
                        &mut self.roll_sim
                    };
                    alive = sim.step(&mut state, player, &a, repeat, budget, rng);
                    if !alive && budget.left() == 0 {
                        out_of_budget = true;
                    }
                }
                None => alive = false,
            }
            depth += 1;
        }
        if out_of_budget {
            self.scratch = Some(state);
            return false;
        }
        self.backup(node, state.value(player), outcome(&state, player));
        self.scratch = Some(state);
        true
    }

    /// The root child to play by [`MctsConfig::recommendation`], if any was visited.
    fn recommend(&self) -> Option<usize> {
        let mut best: Option<(f64, f64, usize)> = None;
        for &child in &self.nodes[0].children {
            let n = &self.nodes[child];
            if n.visits == 0 {
                continue;
            }
            let mean = Self::mean_value(n);
            let key = match self.config.recommendation {
                Recommendation::RobustChild => (f64::from(n.visits), mean),
                Recommendation::MaxChild => (mean, f64::from(n.visits)),
                Recommendation::SecureChild => (
                    self.normalised_mean(n) - SECURE_A / f64::from(n.visits).sqrt(),
                    mean,
                ),
            };
            if best.is_none_or(|(a, b, _)| key.0 > a || (key.0 == a && key.1 > b)) {
                best = Some((key.0, key.1, child));
            }
        }
        best.map(|(_, _, c)| c)
    }
}

impl<G: Game> Default for Mcts<G> {
    fn default() -> Self {
        Mcts::new(MctsConfig::default())
    }
}

impl<G: Game> Agent<G> for Mcts<G> {
    fn name(&self) -> String {
        let kind = self.portfolio.as_ref().map_or("MCTS", |p| p.label());
        let leaf = match &self.evaluator {
            Some(e) => format!(", {}", e.0.label()),
            None => String::new(),
        };
        format!(
            "{kind}({} it, depth {}, macro {}{leaf})",
            self.config.iterations, self.config.rollout_depth, self.config.macro_action
        )
    }

    /// Panics if the search found no action and the game offers `player` none.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        self.used = 0;
        self.root_options = None;
        self.root_legal = None;
        self.min_value = f64::INFINITY;
        self.max_value = f64::NEG_INFINITY;
        self.sim.model = self.config.opponent;
        self.sim.opponent_calls = self.config.opponent_calls();
        let mut budget = Budget::new(self.config.budget);
        self.new_node(0, None);
        // No simulation runs past depth x macro-action steps (one more for an OSLA
        // opponent's look-ahead).
        let horizon = self.config.rollout_depth * self.config.macro_action.max(1) + 1;
        let root = state.search_root(u32::try_from(horizon).unwrap_or(u32::MAX));
        for _ in 0..self.config.iterations {
            let before = budget.left();
            if !self.iterate(&root, player, &mut budget, rng) {
                break;
            }
            // An iteration that costs nothing would repeat forever under a budget.
            if self.config.budget != usize::MAX && budget.left() == before {
                break;
            }
        }
        match self.recommend() {
            Some(child) => self.nodes[child]
                .action
                .clone()
                .expect("children carry actions"),
            None => any_action(state, player, rng, &mut self.buf)
                .unwrap_or_else(|| panic!("MCTS: the game offers player {player} no action")),
        }
    }

    fn reset(&mut self) {
        self.scratch = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{OpponentModel, RandomAgent};
    use crate::games::rinascimento::{self, RinState, Rules};
    use crate::games::space_battle::{DoNothing, SbeParams, SbeState};
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn sbe_config() -> MctsConfig {
        MctsConfig {
            iterations: 60,
            rollout_depth: 10,
            macro_action: 5,
            ..MctsConfig::default()
        }
    }

    use crate::agents::common::test_games::sbe_scores;

    #[test]
    fn mcts_outscores_random_in_space_battle() {
        let (m, r) = sbe_scores(&mut Mcts::new(sbe_config()), &mut RandomAgent);
        println!("MCTS {m} vs Random {r}");
        assert!(m > r, "MCTS {m} vs Random {r}");
    }

    #[test]
    fn mcts_outscores_do_nothing_in_space_battle() {
        let (m, d) = sbe_scores(&mut Mcts::new(sbe_config()), &mut DoNothing);
        println!("MCTS {m} vs DoNothing {d}");
        assert!(m > d, "MCTS {m} vs DoNothing {d}");
    }

    #[test]
    fn mcts_beats_random_in_rinascimento() {
        let rules = Rules::splendor(2);
        let games = 20;
        let mut wins = 0;
        for seed in 0..games {
            let mut mcts = Mcts::<RinState>::new(MctsConfig {
                iterations: 100,
                ..MctsConfig::default()
            });
            let mut random = RandomAgent;
            let record = rinascimento::play_game(&rules, &mut [&mut mcts, &mut random], seed);
            if record.winners[0] && !record.winners[1] {
                wins += 1;
            }
        }
        println!("MCTS(100) vs Random: {wins}/{games} wins");
        assert!(wins * 10 > games * 6, "MCTS won {wins} of {games}");
    }

    #[test]
    fn mcts_star_beats_random_in_two_player_rinascimento() {
        let rules = Rules::splendor(2);
        let games = 20;
        let mut wins = 0;
        for seed in 0..games {
            let mut mcts = Mcts::<RinState>::new(MctsConfig::rinascimento_star(1000));
            let mut random = RandomAgent;
            let record = rinascimento::play_game(&rules, &mut [&mut mcts, &mut random], seed);
            if record.winners[0] && !record.winners[1] {
                wins += 1;
            }
        }
        println!("MCTS* vs Random: {wins}/{games} wins");
        assert!(wins * 10 > games * 6, "MCTS* won {wins} of {games}");
    }

    #[test]
    fn budget_bounds_forward_model_calls_for_every_setting() {
        use crate::agents::common::counted::Counted;
        let state = Counted::new(RinState::new(&Rules::splendor(4), 5).unwrap());
        let mut rng = rng_from_seed(3);
        for (i, rec) in [
            Recommendation::MaxChild,
            Recommendation::RobustChild,
            Recommendation::SecureChild,
        ]
        .into_iter()
        .enumerate()
        {
            assert_eq!(Recommendation::from_index(rec.index()), Some(rec));
            let config = MctsConfig {
                c: 1.41,
                rollout_depth: 5,
                progression_width: 3,
                opponent: OpponentModel::from_index(i).unwrap(),
                opponent_budget: 0.05,
                roll_with_opponents: i != 1,
                recommendation: rec,
                ..MctsConfig::rinascimento_star(300)
            };
            let mut agent = Mcts::<Counted<RinState>>::new(config);
            state.take();
            let a = agent.act(&state, 0, &mut rng);
            assert!(state.inner.is_legal(0, &a));
            let calls = state.take();
            assert!(calls <= 300 && calls > 250, "{calls} calls");
        }
    }

    #[test]
    fn a_finished_game_does_not_flatten_the_other_scores() {
        let mut m = Mcts::<RinState>::new(MctsConfig::rinascimento_star(100));
        let root = m.new_node(0, None);
        let (low, high, lost) = (
            m.new_node(root, None),
            m.new_node(root, None),
            m.new_node(root, None),
        );
        m.backup(low, 3.0, 0.0);
        m.backup(high, 5.0, 0.0);
        m.backup(lost, 4.0, -1.0);
        let q = |c: usize| m.normalised_mean(&m.nodes[c]);
        // Two points apart out of a 3-to-5 range: a full unit, not 2e-7.
        assert!(q(high) - q(low) > 0.99, "{} vs {}", q(high), q(low));
        assert!(q(lost) < q(low), "a loss ranks below every unfinished game");
        assert_eq!(m.recommend(), Some(high));
        assert_eq!(
            Mcts::<RinState>::mean_value(&m.nodes[lost]),
            4.0 - WIN_BONUS
        );
    }

    #[test]
    fn an_evaluator_replaces_the_rollout() {
        use crate::agents::common::counted::Counted;
        use crate::agents::duel::{Duel, DuelEvaluator, wins_against_random};
        let config = MctsConfig {
            iterations: 200,
            rollout_depth: 12,
            ..MctsConfig::default()
        };
        // Forward-model calls of one decision with rollouts and with the evaluator.
        let calls = |evaluator: Option<Arc<DuelEvaluator>>| {
            let mut agent = Mcts::<Counted<Duel>>::new(config.clone());
            if let Some(e) = evaluator {
                struct Wrap(Arc<DuelEvaluator>);
                impl StateEvaluator<Counted<Duel>> for Wrap {
                    fn evaluate(&self, s: &Counted<Duel>, p: usize) -> f64 {
                        self.0.evaluate(&s.inner, p)
                    }
                    fn label(&self) -> String {
                        self.0.label()
                    }
                }
                agent = agent.with_evaluator(Arc::new(Wrap(e)));
            }
            let state = Counted::new(Duel::new());
            agent.act(&state, 0, &mut rng_from_seed(4));
            state.take()
        };
        let evaluator = Arc::new(DuelEvaluator::new(false));
        let (rolled, evaluated) = (calls(None), calls(Some(evaluator.clone())));
        assert_eq!(
            evaluator.calls.load(std::sync::atomic::Ordering::Relaxed),
            200,
            "one evaluation per iteration"
        );
        assert!(
            evaluated * 2 < rolled,
            "{evaluated} calls against {rolled} with rollouts"
        );
        let mut agent = Mcts::<Duel>::new(config).with_evaluator(evaluator);
        assert!(agent.name().contains("duel-margin"));
        let wins = wins_against_random(&mut agent, 20);
        assert!(wins >= 18, "{wins}/20");
    }

    #[test]
    fn same_seed_same_actions() {
        let run = |seed| {
            let mut agent = Mcts::<SbeState>::new(MctsConfig {
                iterations: 30,
                macro_action: 5,
                ..MctsConfig::default()
            });
            crate::agents::common::test_games::sbe_actions(&mut agent, seed, 5)
        };
        let a = run(9);
        assert_eq!(a, run(9));
        assert_ne!(a, run(10), "different seeds should explore differently");
    }

    fn p_mcts(
        bias: bool,
        unpruning: bool,
        iterations: usize,
        weights: [f64; 3],
    ) -> Mcts<crate::agents::duel::Duel> {
        use crate::agents::duel::DuelPortfolio;
        use crate::agents::{PortfolioSearch, ScriptWeights};
        Mcts::with_portfolio(
            MctsConfig {
                iterations,
                rollout_depth: 12,
                ..MctsConfig::default()
            },
            PortfolioSearch {
                portfolio: std::sync::Arc::new(DuelPortfolio),
                weights: ScriptWeights(weights.to_vec()),
                bias,
                unpruning,
            },
        )
    }

    #[test]
    fn every_portfolio_mcts_beats_random_in_a_duel() {
        for (bias, unpruning) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut agent = p_mcts(bias, unpruning, 200, [0.5; 3]);
            let wins = crate::agents::duel::wins_against_random(&mut agent, 10);
            assert!(wins >= 9, "{}: {wins}/10", agent.name());
        }
    }

    /// With progressive unpruning, untried children are expanded best `w * value`
    /// first, so one iteration plays the top-weighted script's action; without it the
    /// weights do not matter.
    #[test]
    fn script_weights_steer_unpruned_expansion() {
        use crate::agents::duel::{Duel, Move};
        let s = Duel::new();
        for (weights, expected) in [([1.0, 0.0, 0.0], Move::Build), ([0.0, 0.0, 1.0], Move::End)] {
            let mut agent = p_mcts(false, true, 1, weights);
            assert_eq!(
                agent.act(&s, 0, &mut rng_from_seed(1)),
                expected,
                "{weights:?}"
            );
        }
        let plays = |weights| {
            let mut agent = p_mcts(false, false, 1, weights);
            (0..20)
                .map(|seed| agent.act(&s, 0, &mut rng_from_seed(seed)))
                .collect::<Vec<_>>()
        };
        assert_eq!(plays([1.0, 0.0, 0.0]), plays([0.0, 0.0, 1.0]));
    }

    /// Pins the decisions MCTS makes: a hash of every action it chooses over a
    /// fixed-seed Space Battle game (8 black holes, twin missiles, vs RotateAndShoot)
    /// and a 2-player Rinascimento game (MCTS* vs random). Any speed-up of the search
    /// or of the forward model must keep these hashes.
    #[test]
    fn decisions_are_pinned_by_hash() {
        use crate::games::space_battle::RotateAndShoot;
        use crate::games::space_battle::params::MissileType;
        use crate::rng::mix64;

        fn feed(h: &mut u64, s: &str) {
            for b in s.bytes() {
                *h = mix64(*h ^ u64::from(b));
            }
            *h = mix64(*h ^ 0xFF);
        }

        /// Hashes the actions of the agent it wraps.
        struct Recorder<G: Game> {
            inner: Mcts<G>,
            hash: u64,
            count: usize,
        }
        impl<G: Game> Agent<G> for Recorder<G> {
            fn name(&self) -> String {
                self.inner.name()
            }
            fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
                let a = self.inner.act(state, player, rng);
                feed(&mut self.hash, &format!("{a:?}"));
                self.count += 1;
                a
            }
            fn reset(&mut self) {
                self.inner.reset();
            }
        }

        // Space Battle: 150 ticks, 8 holes, twin missiles.
        let mut params = SbeParams {
            grid_size: 3,
            missile_type: MissileType::Twin,
            ..SbeParams::default()
        };
        for c in 0..8 {
            params.blackhole_cells[c] = true;
        }
        let mut s = SbeState::new(params, 11);
        let mut mcts = Recorder {
            inner: Mcts::<SbeState>::new(MctsConfig {
                iterations: 175,
                rollout_depth: 10,
                macro_action: 5,
                ..MctsConfig::default()
            }),
            hash: 0,
            count: 0,
        };
        let mut ras = RotateAndShoot;
        let mut rng = rng_from_seed(5);
        let mut ras_rng = rng_from_seed(6);
        for _ in 0..150 {
            let a = mcts.act(&s, 0, &mut rng);
            let b = ras.act(&s, 1, &mut ras_rng);
            s.step([a, b]);
        }
        let sbe = (mcts.hash, mcts.count);

        // Rinascimento: MCTS* (1000 calls) vs random, 2 players.
        let mut star = Recorder {
            inner: Mcts::<RinState>::new(MctsConfig::rinascimento_star(1000)),
            hash: 0,
            count: 0,
        };
        let mut random = RandomAgent;
        rinascimento::play_game(&Rules::splendor(2), &mut [&mut star, &mut random], 7);
        let rin = (star.hash, star.count);

        assert_eq!((sbe, rin), (SBE_EXPECTED, RIN_EXPECTED), "{sbe:?} {rin:?}");
    }

    const SBE_EXPECTED: (u64, usize) = (10459151759792873778, 150);
    const RIN_EXPECTED: (u64, usize) = (7880834537887682175, 40);

    /// MCTS decisions per second on Space Battle at the default 175 iterations, depth
    /// 10, macro 5. Run with `cargo test --release --lib mcts_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn mcts_speed() {
        let mut agent = Mcts::<SbeState>::new(MctsConfig {
            macro_action: 5,
            ..MctsConfig::default()
        });
        let mut rng = rng_from_seed(1);
        let mut s = SbeState::new(SbeParams::default(), 1);
        let start = std::time::Instant::now();
        let decisions = 200;
        for _ in 0..decisions {
            let a = agent.act(&s, 0, &mut rng);
            s.advance(&[a, 5]);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "MCTS 175 it / depth 10 / macro 5: {:.1} decisions/s",
            decisions as f64 / secs
        );
    }
}
