//! Hierarchical Portfolio Search (Churchill and Buro's Prismata bot): a turn is split
//! into phases, each phase has a few partial players, and a turn plan picks one
//! partial player per phase. The search runs over whole turns: the distinct turns that
//! the cross product of partial players produces, searched by alpha-beta (minimax with
//! iterative deepening) or by UCT to a depth in turns, leaves valued by the game's
//! heuristic, by a symmetric playout (both sides play the playout partial players
//! for a few turns, then the heuristic) or by a learned [`StateEvaluator`]. The agent
//! then plays the chosen turn one action at a time.
//!
//! Search effort is counted in forward-model calls ([`Game::advance`]), as for every
//! agent, so a game's result does not depend on the machine. A limit on thinking time
//! per turn ([`HpsConfig::time`], the protocol of the Prismata papers) may be added;
//! it is measured in the thread's CPU time, and a timed game is not reproducible.

use super::WIN_BONUS;
use super::budget::{Budget, thread_cpu_time};
use super::evaluator::StateEvaluator;
use super::portfolio::PhasePlayers;
use crate::game::{Acting, Agent, Game};
use playtune_optim::rng::Rng;
use rand::RngExt;
use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

/// How HPS searches the tree of turn plans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HpsSearch {
    /// Minimax with alpha-beta pruning, deepened one turn at a time while the budget
    /// lasts (the deepest finished search decides).
    #[default]
    AlphaBeta,
    /// UCT over turn plans, expanded to `depth` turns.
    Uct,
}

/// How HPS values a leaf.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LeafEvaluation {
    /// The game's [`PhasePlayers::heuristic`].
    #[default]
    Heuristic,
    /// Both sides play their playout partial players for `playout_turns` turns, then
    /// the heuristic.
    Playout,
    /// The agent's [`StateEvaluator`] (see [`Hps::with_evaluator`]), a value from -1
    /// to 1; no forward-model call.
    Learned,
    /// The symmetric playout, then the agent's [`StateEvaluator`] instead of the
    /// heuristic at its end.
    PlayoutLearned,
}

/// Settings of [`Hps`].
#[derive(Clone, Debug, PartialEq)]
pub struct HpsConfig {
    /// How the turn's actions are searched.
    pub search: HpsSearch,
    /// Turns searched ahead (the agent's own turn counts as one); at least 1.
    pub depth: usize,
    /// How the leaves of the search are valued.
    pub leaf: LeafEvaluation,
    /// Turns of a symmetric playout ([`LeafEvaluation::Playout`]).
    pub playout_turns: usize,
    /// Forward-model calls per turn decision.
    pub budget: usize,
    /// UCT's exploration constant (values are normalised to [0, 1]).
    pub c: f64,
    /// Most actions one partial player may take in one phase.
    pub phase_cap: usize,
    /// Thinking time per turn (thread CPU time), if limited; `budget` still applies.
    pub time: Option<Duration>,
}

impl Default for HpsConfig {
    fn default() -> Self {
        HpsConfig {
            search: HpsSearch::AlphaBeta,
            depth: 2,
            leaf: LeafEvaluation::Heuristic,
            playout_turns: 2,
            budget: 20_000,
            c: std::f64::consts::SQRT_2,
            phase_cap: 40,
            time: None,
        }
    }
}

/// A distinct turn found at a search node: the actions the chosen partial players
/// played, and the state after the turn ended.
#[derive(Clone, Debug)]
struct Turn<G: Game> {
    actions: Vec<G::Action>,
    after: G,
}

/// Signals that the forward-model budget ran out mid-search.
struct OutOfBudget;

/// The HPS agent. Clones share the game's partial players.
#[derive(Clone)]
pub struct Hps<G: Game> {
    /// Its settings.
    pub config: HpsConfig,
    players: Arc<dyn PhasePlayers<G>>,
    /// The rest of the chosen turn, and the step count at which its next action is due
    /// (a mismatch means the game moved on without us: plan again).
    queue: VecDeque<G::Action>,
    due: u32,
    legal: Vec<G::Action>,
    evaluator: Option<Arc<dyn StateEvaluator<G>>>,
    /// Leaves valued and CPU time spent searching, over the agent's life.
    leaves: Cell<u64>,
    thinking: Duration,
}

/// What an [`Hps`] agent has done since it was made: for the evaluations-per-second
/// table of the learned-evaluation experiment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HpsWork {
    /// Leaf evaluations.
    pub leaves: u64,
    /// CPU time spent planning turns.
    pub thinking: Duration,
}

impl<G: Game> Hps<G> {
    /// An HPS agent with `config`, its partial players `players`.
    pub fn new(config: HpsConfig, players: Arc<dyn PhasePlayers<G>>) -> Self {
        Hps {
            config,
            players,
            queue: VecDeque::new(),
            due: 0,
            legal: Vec::new(),
            evaluator: None,
            leaves: Cell::new(0),
            thinking: Duration::ZERO,
        }
    }

    /// Values leaves with `evaluator` ([`LeafEvaluation::Learned`]), or the ends of
    /// the playouts with it when the leaf is [`LeafEvaluation::PlayoutLearned`].
    pub fn with_evaluator(mut self, evaluator: Arc<dyn StateEvaluator<G>>) -> Self {
        if self.config.leaf != LeafEvaluation::PlayoutLearned {
            self.config.leaf = LeafEvaluation::Learned;
        }
        self.evaluator = Some(evaluator);
        self
    }

    /// The value this agent gives a leaf `state` for `player` (no budget), as its
    /// search would: for measuring evaluators on their own.
    pub fn leaf_value(&self, state: &G, player: usize, rng: &mut Rng) -> f64 {
        let mut unlimited = Budget::new(usize::MAX);
        self.leaf(state, player, &mut unlimited, rng)
            .unwrap_or(f64::NAN)
    }

    /// Leaves valued and thinking time so far.
    pub fn work(&self) -> HpsWork {
        HpsWork {
            leaves: self.leaves.get(),
            thinking: self.thinking,
        }
    }

    /// Plays `plan` (one partial player per phase) as `player`'s turn on `state`, then
    /// ends the turn; records the actions in `actions` if given. Err when the budget
    /// runs out (`state` is then partway).
    fn play_turn(
        &self,
        state: &mut G,
        player: usize,
        plan: &[usize],
        budget: &mut Budget,
        rng: &mut Rng,
        mut actions: Option<&mut Vec<G::Action>>,
    ) -> Result<(), OutOfBudget> {
        let acting = |s: &G| !s.is_over() && s.acting() == Acting::Player(player);
        for (phase, &option) in plan.iter().enumerate() {
            for _ in 0..self.config.phase_cap {
                if !acting(state) {
                    return Ok(());
                }
                let Some(a) = self.players.next_action(state, player, phase, option, rng) else {
                    break;
                };
                if !budget.advance(state, std::slice::from_ref(&a)) {
                    return Err(OutOfBudget);
                }
                if let Some(rec) = actions.as_deref_mut() {
                    rec.push(a);
                }
            }
        }
        if acting(state) {
            let end = self.players.end_turn(state, player);
            if !budget.advance(state, std::slice::from_ref(&end)) {
                return Err(OutOfBudget);
            }
            if let Some(rec) = actions {
                rec.push(end);
            }
        }
        Ok(())
    }

    /// The distinct turns `player` can play in `state`: every combination of partial
    /// players, with combinations that play the same actions merged (the first kept).
    fn turns(
        &self,
        state: &G,
        player: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> Result<Vec<Turn<G>>, OutOfBudget> {
        let sizes: Vec<usize> = self
            .players
            .phases()
            .iter()
            .map(|(_, options)| options.len().max(1))
            .collect();
        let combinations: usize = sizes.iter().product();
        let mut turns: Vec<Turn<G>> = Vec::new();
        let mut plan = vec![0; sizes.len()];
        for index in 0..combinations {
            let mut rest = index;
            for (slot, &size) in plan.iter_mut().zip(&sizes) {
                *slot = rest % size;
                rest /= size;
            }
            let mut after = state.clone();
            let mut actions = Vec::new();
            self.play_turn(&mut after, player, &plan, budget, rng, Some(&mut actions))?;
            if !turns.iter().any(|t| t.actions == actions) {
                turns.push(Turn { actions, after });
            }
        }
        Ok(turns)
    }

    /// One partial player per phase: those of the game's playouts.
    fn playout_plan(&self) -> Vec<usize> {
        (0..self.players.phases().len())
            .map(|phase| self.players.playout_option(phase))
            .collect()
    }

    /// The player to move in `state`, if one player is.
    fn to_move(state: &G) -> Option<usize> {
        match state.acting() {
            Acting::Player(p) if !state.is_over() => Some(p),
            _ => None,
        }
    }

    /// A leaf's value for `root_player`: the heuristic, after a symmetric playout if
    /// so set, or the learned evaluation; a finished game adds the win bonus for its
    /// outcome.
    fn leaf(
        &self,
        state: &G,
        root_player: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> Result<f64, OutOfBudget> {
        if !budget.in_time() {
            return Err(OutOfBudget);
        }
        self.leaves.set(self.leaves.get() + 1);
        let learned = |state: &G, evaluator: &Arc<dyn StateEvaluator<G>>| {
            let value = if state.is_over() {
                0.0
            } else {
                evaluator.evaluate(state, root_player)
            };
            value + WIN_BONUS * super::outcome(state, root_player)
        };
        if let (LeafEvaluation::Learned, Some(evaluator)) = (self.config.leaf, &self.evaluator) {
            return Ok(learned(state, evaluator));
        }
        let mut end;
        let mut state = state;
        if matches!(
            self.config.leaf,
            LeafEvaluation::Playout | LeafEvaluation::PlayoutLearned
        ) {
            end = state.clone();
            let plan = self.playout_plan();
            for _ in 0..self.config.playout_turns {
                let Some(p) = Self::to_move(&end) else { break };
                self.play_turn(&mut end, p, &plan, budget, rng, None)?;
            }
            state = &end;
        }
        if let (LeafEvaluation::PlayoutLearned, Some(evaluator)) =
            (self.config.leaf, &self.evaluator)
        {
            return Ok(learned(state, evaluator));
        }
        Ok(self.players.heuristic(state, root_player)
            + WIN_BONUS * super::outcome(state, root_player))
    }

    /// Minimax value of `state` for `root_player`, `depth` turns deep.
    #[allow(clippy::too_many_arguments)]
    fn minimax(
        &self,
        state: &G,
        root_player: usize,
        depth: usize,
        mut alpha: f64,
        mut beta: f64,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> Result<f64, OutOfBudget> {
        let Some(p) = Self::to_move(state) else {
            return self.leaf(state, root_player, budget, rng);
        };
        if depth == 0 {
            return self.leaf(state, root_player, budget, rng);
        }
        let maximise = p == root_player;
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for turn in self.turns(state, p, budget, rng)? {
            let v = self.minimax(
                &turn.after,
                root_player,
                depth - 1,
                alpha,
                beta,
                budget,
                rng,
            )?;
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

    /// Alpha-beta with iterative deepening: the index of the root turn to play.
    fn alpha_beta(
        &self,
        turns: &[Turn<G>],
        player: usize,
        budget: &mut Budget,
        rng: &mut Rng,
    ) -> usize {
        // Search order: the best turn of the last finished depth first, so that
        // alpha-beta prunes more and a search cut short still saw the best turn.
        let mut order: Vec<usize> = (0..turns.len()).collect();
        let mut chosen = 0;
        for depth in 1..=self.config.depth.max(1) {
            let mut values: Vec<(f64, usize)> = Vec::with_capacity(turns.len());
            let mut alpha = f64::NEG_INFINITY;
            let mut best = None;
            let mut finished = true;
            for &i in &order {
                match self.minimax(
                    &turns[i].after,
                    player,
                    depth - 1,
                    alpha,
                    f64::INFINITY,
                    budget,
                    rng,
                ) {
                    Ok(v) => {
                        // Strictly better only: a pruned turn's value is a bound that
                        // can equal the best but never beat it.
                        if v > alpha {
                            alpha = v;
                            best = Some(i);
                        }
                        values.push((v, i));
                    }
                    Err(OutOfBudget) => {
                        finished = false;
                        break;
                    }
                }
            }
            if (finished || depth == 1)
                && let Some(i) = best
            {
                chosen = i;
            }
            if !finished {
                break;
            }
            // Stable: ties keep the last order, the best first.
            values.sort_by(|a, b| b.0.total_cmp(&a.0));
            order = values.iter().map(|&(_, i)| i).collect();
        }
        chosen
    }

    /// UCT over turns to `depth` turns: the index of the most visited root turn.
    fn uct(&self, root: Vec<Turn<G>>, player: usize, budget: &mut Budget, rng: &mut Rng) -> usize {
        struct Node<G: Game> {
            state: G,
            /// Children (indices into the arena), built on the first expansion.
            children: Option<Vec<usize>>,
            visits: u32,
            /// Sum of leaf values for the root player.
            total: f64,
            depth: usize,
        }
        let mut nodes: Vec<Node<G>> = Vec::new();
        let count = root.len();
        for turn in root {
            nodes.push(Node {
                state: turn.after,
                children: None,
                visits: 0,
                total: 0.0,
                depth: 1,
            });
        }
        let root_children: Vec<usize> = (0..count).collect();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        // A search whose leaves cost nothing must still stop.
        let max_iterations = self.config.budget.max(count);
        let mut path = Vec::new();
        for iteration in 0..max_iterations {
            path.clear();
            let mut current: Option<usize> = None;
            // Every finished iteration visited the root once.
            let mut parent_visits = u32::try_from(iteration).unwrap_or(u32::MAX);
            let mut mover = player;
            // Descent: unvisited first, then UCB1 for the player to move.
            let leaf = loop {
                let children: &[usize] = match current {
                    None => &root_children,
                    Some(c) => nodes[c].children.as_deref().unwrap_or(&[]),
                };
                let mut best = (f64::NEG_INFINITY, children[0]);
                for &c in children {
                    let n = &nodes[c];
                    let score = if n.visits == 0 {
                        f64::INFINITY
                    } else {
                        let mean = n.total / f64::from(n.visits);
                        let q = if hi > lo {
                            (mean - lo) / (hi - lo)
                        } else {
                            0.5
                        };
                        let q = if mover == player { q } else { 1.0 - q };
                        q + self.config.c
                            * (f64::from(parent_visits.max(1)).ln() / f64::from(n.visits)).sqrt()
                    } + rng.random::<f64>() * 1e-9;
                    if score > best.0 {
                        best = (score, c);
                    }
                }
                let c = best.1;
                path.push(c);
                let n = &nodes[c];
                let Some(next) = Self::to_move(&n.state) else {
                    break c;
                };
                if n.visits == 0 || n.depth >= self.config.depth {
                    break c;
                }
                if n.children.is_none() {
                    let Ok(turns) = self.turns(&n.state, next, budget, rng) else {
                        return Self::most_visited(&nodes, &root_children, |n| n.visits);
                    };
                    let first = nodes.len();
                    let depth = n.depth + 1;
                    for turn in turns {
                        nodes.push(Node {
                            state: turn.after,
                            children: None,
                            visits: 0,
                            total: 0.0,
                            depth,
                        });
                    }
                    nodes[c].children = Some((first..nodes.len()).collect());
                }
                if nodes[c].children.as_ref().is_none_or(|k| k.is_empty()) {
                    break c;
                }
                parent_visits = nodes[c].visits;
                mover = next;
                current = Some(c);
            };
            let Ok(value) = self.leaf(&nodes[leaf].state, player, budget, rng) else {
                break;
            };
            lo = lo.min(value);
            hi = hi.max(value);
            for &c in &path {
                nodes[c].visits += 1;
                nodes[c].total += value;
            }
        }
        Self::most_visited(&nodes, &root_children, |n| n.visits)
    }

    fn most_visited<N>(nodes: &[N], children: &[usize], visits: impl Fn(&N) -> u32) -> usize {
        // Ties: the first (the partial players' order).
        let mut best = 0;
        for (i, &c) in children.iter().enumerate() {
            if visits(&nodes[c]) > visits(&nodes[children[best]]) {
                best = i;
            }
        }
        best
    }

    /// Searches `player`'s turn in `state` and queues its actions.
    fn plan(&mut self, state: &G, player: usize, rng: &mut Rng) {
        let start = thread_cpu_time();
        self.search(state, player, rng);
        self.thinking += thread_cpu_time().saturating_sub(start);
    }

    fn search(&mut self, state: &G, player: usize, rng: &mut Rng) {
        let mut budget = match self.config.time {
            Some(time) => Budget::timed(self.config.budget, time),
            None => Budget::new(self.config.budget),
        };
        self.queue.clear();
        let turns = match self.turns(state, player, &mut budget, rng) {
            Ok(t) if !t.is_empty() => t,
            // Not even every root turn fits the budget: play the playout partial
            // players (the game's default policy).
            _ => {
                let mut unlimited = Budget::new(usize::MAX);
                let mut after = state.clone();
                let mut actions = Vec::new();
                let plan = self.playout_plan();
                let _ = self.play_turn(
                    &mut after,
                    player,
                    &plan,
                    &mut unlimited,
                    rng,
                    Some(&mut actions),
                );
                self.queue.extend(actions);
                return;
            }
        };
        let chosen = if turns.len() == 1 {
            0
        } else {
            match self.config.search {
                HpsSearch::AlphaBeta => self.alpha_beta(&turns, player, &mut budget, rng),
                HpsSearch::Uct => {
                    let actions: Vec<Vec<G::Action>> =
                        turns.iter().map(|t| t.actions.clone()).collect();
                    let i = self.uct(turns, player, &mut budget, rng);
                    self.queue.extend(actions[i].iter().cloned());
                    return;
                }
            }
        };
        self.queue.extend(turns[chosen].actions.iter().cloned());
    }
}

impl<G: Game> Agent<G> for Hps<G> {
    fn name(&self) -> String {
        let search = match self.config.search {
            HpsSearch::AlphaBeta => "alpha-beta",
            HpsSearch::Uct => "UCT",
        };
        let leaf = match (self.config.leaf, &self.evaluator) {
            (LeafEvaluation::Heuristic, _) => "heuristic".to_string(),
            (LeafEvaluation::Playout, _) => "playout".to_string(),
            (LeafEvaluation::Learned, Some(e)) => e.label(),
            (LeafEvaluation::Learned, None) => "heuristic (no evaluator)".to_string(),
            (LeafEvaluation::PlayoutLearned, Some(e)) => format!("playout, then {}", e.label()),
            (LeafEvaluation::PlayoutLearned, None) => "playout".to_string(),
        };
        let limit = match self.config.time {
            Some(t) => format!(
                "{} calls, {:.0} ms",
                self.config.budget,
                t.as_secs_f64() * 1e3
            ),
            None => format!("{} calls", self.config.budget),
        };
        format!(
            "HPS({search}, depth {}, {leaf}, {limit})",
            self.config.depth
        )
    }

    /// Plays the next action of the turn chosen when the turn began; searches again if
    /// the game is not where the plan expected it.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        let on_plan = state.step_count() == self.due
            && self.queue.front().is_some_and(|a| {
                let mut legal = std::mem::take(&mut self.legal);
                let ok = !state.legal_actions(player, &mut legal) || legal.contains(a);
                self.legal = legal;
                ok
            });
        if !on_plan {
            self.plan(state, player, rng);
        }
        self.due = state.step_count() + 1;
        match self.queue.pop_front() {
            Some(a) => a,
            None => self.players.end_turn(state, player),
        }
    }

    fn reset(&mut self) {
        self.queue.clear();
        self.due = 0;
    }
}

#[cfg(test)]
mod tests;
