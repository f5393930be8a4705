//! Open-loop Monte Carlo tree search over the agent's own actions.

use super::any_action;
use super::budget::Budget;
use super::evaluator::{SharedEvaluator, StateEvaluator};
use super::opponents::{OpponentModel, Simulator, opponent_calls};
use super::portfolio::{PortfolioSearch, Suggestion, unpruned_children};
use super::{WIN_BONUS, outcome};
use crate::game::{Agent, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;

mod config;
pub use config::{MctsConfig, Recommendation};

/// Tie-break noise added to UCB scores (scores are normalised to [0, 1]).
const TIE_BREAK_NOISE: f64 = 1e-9;

/// Constant `A` of the secure-child recommendation: `q - A / sqrt(n)` on normalised
/// means `q` (independent of the exploration constant, so that `c = 0` still differs
/// from the max child).
pub(crate) const SECURE_A: f64 = 1.0;

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
/// the ranking matches `state_value` without its win bonus
/// flattening the scores.
/// Expansion: see [`MctsConfig::p_exp`]; children illegal in the current
/// re-simulation are skipped where the game enumerates its actions. The
/// recommendation is [`MctsConfig::recommendation`]. Nodes live in an arena reused
/// across decisions.
#[derive(Clone, Debug)]
pub struct Mcts<G: Game> {
    /// Its settings.
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
    /// Information-set search: every iteration starts from a fresh
    /// [`Game::observe`] of the root (a world re-sampled from what the player has
    /// seen) instead of one copy of it.
    resample: bool,
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

    /// Information-set MCTS: the same open-loop search over the player's own
    /// actions, each iteration in a world re-sampled by [`Game::observe`] from what the
    /// player has seen, so that the tree's statistics average over the worlds the
    /// player cannot tell apart instead of trusting one of them.
    pub(crate) fn information_set(config: MctsConfig) -> Self {
        Mcts {
            resample: true,
            ..Mcts::new(config)
        }
    }

    /// An MCTS agent with `config`.
    pub fn new(config: MctsConfig) -> Self {
        Mcts {
            resample: false,
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
        let mut state = if self.resample {
            root.observe(player, rng)
        } else {
            let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
            state.clone_from(root);
            state
        };
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
        // Random rollout to the depth limit: played by the game itself where every
        // move of it is uniformly random and the game can (a game in another process
        // plays it in one request instead of one a step).
        // Only an unlimited budget: a playout's steps are not counted one by one.
        let uniform = !self.config.roll_with_opponents
            || matches!(self.config.opponent, OpponentModel::Random);
        if alive
            && uniform
            && repeat == 1
            && self.config.budget == usize::MAX
            && depth < self.config.rollout_depth
            && !state.is_over()
        {
            let left = u32::try_from(self.config.rollout_depth - depth).unwrap_or(u32::MAX);
            if state.playout(left, rng).is_some() {
                depth = self.config.rollout_depth;
            }
        }
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
        let plain = if self.resample { "ISMCTS" } else { "MCTS" };
        let kind = self.portfolio.as_ref().map_or(plain, |p| p.label());
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
mod tests;
