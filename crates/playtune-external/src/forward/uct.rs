//! `uct`: UCT over every seat's moves, the tree's states kept where the rules keep
//! them. Each expansion is a copy of its parent's state with one move applied, and a
//! playout from a copy of that: the path from the root is never played again, and a
//! batch of expansions (chosen with virtual losses, so that they differ) is one call
//! of [`Rules::expand`]: one request to a game process instead of one an operation.
//! A seat's value is its mean return, scaled by the smallest and largest returns seen.

use super::{Expansion, FmState, Node, Rules};
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::{Rng, derive_seed};
use rand::RngExt;

/// UCT's settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UctConfig {
    /// Iterations (expansions and playouts) a decision.
    pub(crate) iterations: usize,
    /// UCB1's exploration constant.
    pub(crate) c: f64,
    /// Expansions asked of the rules at once (0: by where the rules live).
    pub(crate) batch: usize,
}

/// One node of the tree.
struct TreeNode<S> {
    /// `None` while its expansion is asked for, and until it is needed as a parent
    /// where the rules keep no state they were not asked to.
    state: Option<S>,
    /// Whether its expansion is asked for and not yet answered.
    asked: bool,
    node: Node,
    parent: usize,
    action: i64,
    /// Moves played from the root's state (chance outcomes not counted).
    steps: u32,
    children: Vec<usize>,
    /// A player's legal moves not yet expanded.
    untried: Vec<i64>,
    visits: f64,
    /// Iterations through it whose values are not yet backed up.
    pending: f64,
    /// Each seat's summed values.
    sums: Vec<f64>,
}

/// Where one iteration's descent ended.
enum Leaf {
    /// A finished game (or the cap): its values back up at once.
    Done(usize, Vec<f64>),
    /// A new child of this node, by this move.
    Expand(usize, i64),
}

/// The agent.
pub(crate) struct Uct<R: Rules> {
    config: UctConfig,
    tree: Vec<TreeNode<R::State>>,
    /// The smallest and largest value seen: values are scaled by them.
    low: f64,
    high: f64,
}

impl<R: Rules> Uct<R> {
    pub(crate) fn new(config: UctConfig) -> Self {
        Uct {
            config,
            tree: Vec::new(),
            low: f64::INFINITY,
            high: f64::NEG_INFINITY,
        }
    }

    fn scaled(&self, v: f64) -> f64 {
        if self.high > self.low {
            (v - self.low) / (self.high - self.low)
        } else {
            0.5
        }
    }

    /// The child of `i` that UCB1 picks for the seat moving at `i`; a pending
    /// iteration counts as a loss (a virtual loss) until its value is backed up.
    fn best_child(&self, i: usize, seat: usize, rng: &mut Rng) -> usize {
        let parent = &self.tree[i];
        let total = (parent.visits + parent.pending).max(1.0);
        let mut best = (f64::NEG_INFINITY, parent.children[0]);
        for &c in &parent.children {
            let n = &self.tree[c];
            let count = n.visits + n.pending;
            let score = if count == 0.0 {
                f64::INFINITY
            } else {
                // A pending iteration counts as the worst value seen: a virtual loss.
                let low = if self.low.is_finite() { self.low } else { 0.0 };
                let mean = (n.sums[seat] + n.pending * low) / count;
                self.scaled(mean) + self.config.c * (total.ln() / count).sqrt()
            } + rng.random::<f64>() * 1e-9;
            if score > best.0 {
                best = (score, c);
            }
        }
        best.1
    }

    /// Descends from the root to a leaf, counting the iteration as pending on the way.
    /// `None` where it reached a child whose expansion is already asked for.
    fn descend(&mut self, max_steps: u32, players: usize, rng: &mut Rng) -> Option<Leaf> {
        let mut i = 0;
        loop {
            if self.tree[i].asked {
                // Its expansion is in this batch: the descent is taken back.
                let parent = self.tree[i].parent;
                self.unwind(parent);
                return None;
            }
            self.tree[i].pending += 1.0;
            if self.tree[i].steps >= max_steps {
                return Some(Leaf::Done(i, vec![0.0; players]));
            }
            match &self.tree[i].node {
                Node::Over(returns) => return Some(Leaf::Done(i, returns.clone())),
                Node::Player { player, .. } => {
                    let seat = *player;
                    let untried = &mut self.tree[i].untried;
                    if !untried.is_empty() {
                        let k = rng.random_range(0..untried.len());
                        return Some(Leaf::Expand(i, untried.swap_remove(k)));
                    }
                    i = self.best_child(i, seat, rng);
                }
                Node::Chance(outcomes) => {
                    let pick = super::draw_chance(outcomes, rng);
                    match self.tree[i]
                        .children
                        .iter()
                        .find(|&&c| self.tree[c].action == pick)
                    {
                        Some(&c) => i = c,
                        None => return Some(Leaf::Expand(i, pick)),
                    }
                }
            }
        }
    }

    /// Makes node `i`'s state where it has none (a leaf expanded without keeping it,
    /// now a parent): its parent's, made first, copied, its move applied.
    fn materialize(
        &mut self,
        i: usize,
        root: &R::State,
        rules: &R,
    ) -> Result<(), super::RulesError> {
        if i == 0 || self.tree[i].state.is_some() {
            return Ok(());
        }
        let parent = self.tree[i].parent;
        self.materialize(parent, root, rules)?;
        let from = match parent {
            0 => root,
            p => self.tree[p].state.as_ref().expect("made above"),
        };
        let mut state = rules.copy(from)?;
        rules.apply(&mut state, self.tree[i].action)?;
        self.tree[i].state = Some(state);
        Ok(())
    }

    /// Takes back a pending iteration from `i` up to the root.
    fn unwind(&mut self, mut i: usize) {
        loop {
            self.tree[i].pending -= 1.0;
            if i == 0 {
                return;
            }
            i = self.tree[i].parent;
        }
    }

    /// Backs `values` up from `i` to the root, the pending iteration made a visit.
    fn backup(&mut self, mut i: usize, values: &[f64]) {
        for &v in values {
            self.low = self.low.min(v);
            self.high = self.high.max(v);
        }
        loop {
            let n = &mut self.tree[i];
            n.pending -= 1.0;
            n.visits += 1.0;
            for (s, v) in n.sums.iter_mut().zip(values) {
                *s += v;
            }
            if i == 0 {
                return;
            }
            i = n.parent;
        }
    }
}

/// The moves a node's expansions may take: a player's legal moves (a chance node's
/// outcomes are drawn as it is passed).
fn untried(node: &Node) -> Vec<i64> {
    match node {
        Node::Player { legal, .. } => legal.clone(),
        _ => Vec::new(),
    }
}

/// A node as the tree holds it, its legal moves untried.
fn tree_node<S>(
    state: Option<S>,
    node: Node,
    parent: usize,
    action: i64,
    steps: u32,
    players: usize,
) -> TreeNode<S> {
    let untried = untried(&node);
    TreeNode {
        state,
        asked: false,
        node,
        parent,
        action,
        steps,
        children: Vec::new(),
        untried,
        visits: 0.0,
        pending: 0.0,
        sums: vec![0.0; players],
    }
}

impl<R: Rules> Uct<R> {
    /// The search from `root`: false where a call to the rules failed (the match
    /// fails with its reason).
    fn search(&mut self, root: &FmState<R>, rng: &mut Rng) -> bool {
        let rules = root.rules.clone();
        let players = root.shared.players;
        // The root's state is expanded from where it lies, never changed: no copy.
        let Some(root_state) = root.live() else {
            return false;
        };
        self.tree.clear();
        self.low = f64::INFINITY;
        self.high = f64::NEG_INFINITY;
        self.tree
            .push(tree_node(None, root.node.clone(), 0, 0, 0, players));
        let max_steps = root.shared.max_steps.saturating_sub(root.steps);
        let seed: u64 = rng.random();
        let mut done = 0;
        let mut round = 0u64;
        // Measured on tic-tac-toe against `mcts` (docs/benchmarks.md): batches of 32 cost
        // a little strength and save most requests; in process they save nothing.
        let batch = match self.config.batch {
            0 if rules.remote() => 32,
            0 => 1,
            b => b,
        };
        // A game process keeps every new state (a copy there is cheap, a request is
        // not); in this process a leaf's state is made again only if it becomes a
        // parent, which most leaves never do: one copy an iteration saved.
        let keep = rules.remote();
        while done < self.config.iterations {
            let want = batch.min(self.config.iterations - done);
            let mut asked: Vec<(usize, i64)> = Vec::with_capacity(want);
            // A descent that meets a child already asked for is tried again, a few
            // times a batch, so that a batch fills beyond the first collision.
            let mut collisions = 0;
            while asked.len() < want {
                let Some(leaf) = self.descend(max_steps, players, rng) else {
                    collisions += 1;
                    if collisions > want {
                        break;
                    }
                    continue;
                };
                match leaf {
                    Leaf::Done(i, values) => {
                        self.backup(i, &values);
                        done += 1;
                    }
                    Leaf::Expand(i, a) => {
                        // The child stands in the tree at once (without a state), so
                        // that the batch's later descents see it pending.
                        let steps = self.tree[i].steps
                            + u32::from(matches!(self.tree[i].node, Node::Player { .. }));
                        let child = self.tree.len();
                        self.tree.push(tree_node(
                            None,
                            Node::Over(Vec::new()),
                            i,
                            a,
                            steps,
                            players,
                        ));
                        self.tree[i].children.push(child);
                        self.tree[child].pending = 1.0;
                        self.tree[child].asked = true;
                        asked.push((child, a));
                        if let Err(why) = self.materialize(i, root_state, &*rules) {
                            root.shared.fail(why.to_string());
                            return false;
                        }
                    }
                }
                if done + asked.len() >= self.config.iterations {
                    break;
                }
            }
            if asked.is_empty() {
                // Only finished states were reached, each counted above.
                break;
            }
            let batch: Vec<Expansion<'_, R::State>> = asked
                .iter()
                .enumerate()
                .map(|(k, &(child, action))| {
                    let parent = self.tree[child].parent;
                    Expansion {
                        keep,
                        parent: match parent {
                            0 => root_state,
                            p => self.tree[p]
                                .state
                                .as_ref()
                                .expect("an expanded node's state"),
                        },
                        action,
                        seed: derive_seed(seed, &[round, k as u64]),
                        max_steps: max_steps.saturating_sub(self.tree[child].steps),
                    }
                })
                .collect();
            round += 1;
            let expanded = match rules.expand(&batch) {
                Ok(e) if e.len() == batch.len() => e,
                Ok(e) => {
                    root.shared.fail(format!(
                        "expand: {} results for {} expansions",
                        e.len(),
                        batch.len()
                    ));
                    return false;
                }
                Err(why) => {
                    root.shared.fail(why.to_string());
                    return false;
                }
            };
            drop(batch);
            for ((child, _), mut e) in asked.into_iter().zip(expanded) {
                // Where each stands is checked here too: the search indexes by seat.
                let checked = e.node.clone().checked(players).and_then(|n| {
                    if let Some(p) = &e.playout {
                        p.end.clone().checked(players)?;
                    }
                    Ok(n)
                });
                match checked {
                    Ok(n) => e.node = n,
                    Err(why) => {
                        root.shared.fail(format!("expand: {why}"));
                        return false;
                    }
                }
                let values = match (&e.node, e.playout) {
                    (Node::Over(r), _) => r.clone(),
                    (_, Some(p)) => match p.end {
                        Node::Over(r) => r,
                        _ => p.heuristic.unwrap_or_else(|| vec![0.0; players]),
                    },
                    (_, None) => vec![0.0; players],
                };
                if values.len() != players {
                    root.shared.fail(format!(
                        "expand: returns {values:?} for a game of {players} players"
                    ));
                    return false;
                }
                let n = &mut self.tree[child];
                n.asked = false;
                n.untried = untried(&e.node);
                n.state = e.state;
                n.node = e.node;
                self.backup(child, &values);
                done += 1;
            }
        }
        true
    }
}

impl<R: Rules> Agent<FmState<R>> for Uct<R> {
    fn name(&self) -> String {
        format!("UCT({} it, c {})", self.config.iterations, self.config.c)
    }

    /// The match's own state is searched without a copy (the search only copies from
    /// it); where information is hidden, a world drawn from what the seat has seen.
    fn simulates(&self) -> bool {
        false
    }

    fn act(&mut self, state: &FmState<R>, player: usize, rng: &mut Rng) -> i64 {
        let view;
        let state = if state.shared.hidden {
            view = state.observe(player, rng);
            &view
        } else {
            state
        };
        let legal = match &state.node {
            Node::Player { legal, .. } => legal.clone(),
            _ => Vec::new(),
        };
        let fallback = |rng: &mut Rng| {
            if legal.is_empty() {
                0
            } else {
                legal[rng.random_range(0..legal.len())]
            }
        };
        if legal.len() <= 1 || !self.search(state, rng) {
            let pick = fallback(rng);
            self.tree.clear();
            return pick;
        }
        let root = &self.tree[0];
        let best = root
            .children
            .iter()
            .copied()
            .filter(|&c| self.tree[c].visits > 0.0)
            .max_by(|&a, &b| {
                let (x, y) = (&self.tree[a], &self.tree[b]);
                x.visits
                    .total_cmp(&y.visits)
                    .then((x.sums[player] / x.visits).total_cmp(&(y.sums[player] / y.visits)))
            })
            .map(|c| self.tree[c].action);
        // The tree's states go back to the rules now, not at the next decision.
        self.tree.clear();
        best.unwrap_or_else(|| fallback(rng))
    }

    fn reset(&mut self) {
        self.tree.clear();
    }
}
