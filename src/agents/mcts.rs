//! Open-loop Monte Carlo tree search over the agent's own actions.

use super::{any_action, play_others, play_own, state_value};
use crate::game::{Agent, Game};
use crate::rng::Rng;
use rand::RngExt;

/// Tie-break noise added to UCB scores (values are normalised to [0, 1]).
const TIE_BREAK_NOISE: f64 = 1e-9;

/// Settings of [`Mcts`].
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
    /// For games that do not enumerate their actions: distinct random actions sampled
    /// as a node's children when it is expanded.
    pub max_children_sampled: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 175,
            rollout_depth: 10,
            macro_action: 1,
            c: std::f64::consts::SQRT_2,
            max_children_sampled: 10,
        }
    }
}

#[derive(Clone, Debug)]
struct Node<A> {
    /// The own action leading here (`None` at the root).
    action: Option<A>,
    parent: usize,
    children: Vec<usize>,
    visits: u32,
    total: f64,
}

/// Open-loop MCTS: the tree stores sequences of the agent's own actions, not states;
/// every iteration re-simulates from a copy of the root state. Other players play
/// random actions, at the same step in simultaneous games and on their own turns
/// (after each own action) in turn-based ones. Selection is UCB1 on mean values
/// normalised to [0, 1] by the smallest and largest value seen this decision; values
/// are [`state_value`]. Expansion adds one untried legal action when the game
/// enumerates its actions (children illegal in the current re-simulation are skipped),
/// else samples up to `max_children_sampled` distinct random actions at once. The
/// recommendation is the most visited root child. Nodes live in an arena reused
/// across decisions.
#[derive(Clone, Debug)]
pub struct Mcts<G: Game> {
    pub config: MctsConfig,
    nodes: Vec<Node<G::Action>>,
    used: usize,
    scratch: Option<G>,
    legal: Vec<G::Action>,
    candidates: Vec<usize>,
    joint: Vec<G::Action>,
    buf: Vec<G::Action>,
    min_value: f64,
    max_value: f64,
}

impl<G: Game> Mcts<G> {
    pub fn new(config: MctsConfig) -> Self {
        Mcts {
            config,
            nodes: Vec::new(),
            used: 0,
            scratch: None,
            legal: Vec::new(),
            candidates: Vec::new(),
            joint: Vec::new(),
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
            n.total = 0.0;
        } else {
            self.nodes.push(Node {
                action,
                parent,
                children: Vec::new(),
                visits: 0,
                total: 0.0,
            });
        }
        if parent != id {
            self.nodes[parent].children.push(id);
        }
        id
    }

    /// UCB1 choice among `self.candidates` (children of `node`); unvisited first.
    fn select(&self, node: usize, rng: &mut Rng) -> usize {
        let parent_visits = f64::from(self.nodes[node].visits.max(1));
        let span = self.max_value - self.min_value;
        let mut best = (f64::NEG_INFINITY, self.candidates[0]);
        for &child in &self.candidates {
            let n = &self.nodes[child];
            let score = if n.visits == 0 {
                f64::INFINITY
            } else {
                let mean = n.total / f64::from(n.visits);
                let q = if span > 0.0 {
                    (mean - self.min_value) / span
                } else {
                    0.5
                };
                q + self.config.c * (parent_visits.ln() / f64::from(n.visits)).sqrt()
            } + rng.random::<f64>() * TIE_BREAK_NOISE;
            if score > best.0 {
                best = (score, child);
            }
        }
        best.1
    }

    /// Chooses (expanding if needed) the child of `node` to follow in `state`, or
    /// `None` if the player has no action. The flag tells whether the child is new.
    fn tree_policy(
        &mut self,
        node: usize,
        state: &G,
        player: usize,
        rng: &mut Rng,
    ) -> Option<(usize, bool)> {
        let mut legal = std::mem::take(&mut self.legal);
        let enumerable = state.legal_actions(player, &mut legal);
        let result = if enumerable {
            self.candidates.clear();
            let mut untried = 0usize;
            let mut pick: Option<usize> = None;
            for (i, a) in legal.iter().enumerate() {
                let child = self.nodes[node]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c].action.as_ref() == Some(a));
                match child {
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
                let want = self.config.max_children_sampled.max(1);
                let mut sampled: Vec<G::Action> = Vec::new();
                for _ in 0..want * 4 {
                    if sampled.len() >= want {
                        break;
                    }
                    match any_action(state, player, rng, &mut self.buf) {
                        Some(a) if !sampled.contains(&a) => sampled.push(a),
                        Some(_) => {}
                        None => break,
                    }
                }
                for a in sampled {
                    self.new_node(node, Some(a));
                }
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

    fn iterate(&mut self, root: &G, player: usize, rng: &mut Rng) {
        let mut state = self.scratch.take().unwrap_or_else(|| root.clone());
        state.clone_from(root);
        let repeat = self.config.macro_action.max(1);
        let mut node = 0;
        let mut depth = 0;
        let mut alive = play_others(&mut state, player, rng, &mut self.buf);
        // Descent through the tree, expanding one node.
        while alive && depth < self.config.rollout_depth && !state.is_over() {
            let Some((child, new)) = self.tree_policy(node, &state, player, rng) else {
                alive = false;
                break;
            };
            node = child;
            let action = self.nodes[child]
                .action
                .clone()
                .expect("children carry actions");
            alive = play_own(
                &mut state,
                player,
                &action,
                repeat,
                rng,
                &mut self.joint,
                &mut self.buf,
            );
            depth += 1;
            if new {
                break;
            }
        }
        // Random rollout to the depth limit.
        while alive && depth < self.config.rollout_depth && !state.is_over() {
            match any_action(&state, player, rng, &mut self.buf) {
                Some(a) => {
                    alive = play_own(
                        &mut state,
                        player,
                        &a,
                        repeat,
                        rng,
                        &mut self.joint,
                        &mut self.buf,
                    );
                }
                None => alive = false,
            }
            depth += 1;
        }
        let value = state_value(&state, player);
        self.min_value = self.min_value.min(value);
        self.max_value = self.max_value.max(value);
        loop {
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.total += value;
            if node == 0 {
                break;
            }
            node = n.parent;
        }
        self.scratch = Some(state);
    }
}

impl<G: Game> Default for Mcts<G> {
    fn default() -> Self {
        Mcts::new(MctsConfig::default())
    }
}

impl<G: Game> Agent<G> for Mcts<G> {
    fn name(&self) -> String {
        format!(
            "MCTS({} it, depth {}, macro {})",
            self.config.iterations, self.config.rollout_depth, self.config.macro_action
        )
    }

    /// Panics if the search found no action and the game offers `player` none.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action {
        self.used = 0;
        self.min_value = f64::INFINITY;
        self.max_value = f64::NEG_INFINITY;
        self.new_node(0, None);
        for _ in 0..self.config.iterations {
            self.iterate(state, player, rng);
        }
        let mut best: Option<(u32, f64, usize)> = None;
        for &child in &self.nodes[0].children {
            let n = &self.nodes[child];
            let key = (n.visits, n.total / f64::from(n.visits.max(1)));
            if best.is_none_or(|(v, m, _)| key.0 > v || (key.0 == v && key.1 > m)) {
                best = Some((key.0, key.1, child));
            }
        }
        match best {
            Some((_, _, child)) => self.nodes[child]
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
    use crate::agents::RandomAgent;
    use crate::games::rinascimento::{self, RinState, Rules};
    use crate::games::space_battle::{self, DoNothing, SbeParams, SbeState};
    use crate::rng::{derive_seed, rng_from_seed};

    fn sbe_config() -> MctsConfig {
        MctsConfig {
            iterations: 60,
            rollout_depth: 10,
            macro_action: 5,
            ..MctsConfig::default()
        }
    }

    /// Total score of ship 0 (`a`) and ship 1 (`b`) over four short games.
    fn sbe_scores(a: &mut dyn Agent<SbeState>, b: &mut dyn Agent<SbeState>) -> (f64, f64) {
        let (mut sa, mut sb) = (0.0, 0.0);
        for seed in 0..4 {
            let state =
                SbeState::new(SbeParams::default(), derive_seed(seed, &[0])).with_max_ticks(300);
            let record = space_battle::play_from(state, a, b, seed, &mut |_, _| {});
            sa += record.scores[0];
            sb += record.scores[1];
        }
        (sa, sb)
    }

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
    fn same_seed_same_actions() {
        let run = |seed| {
            let mut agent = Mcts::<SbeState>::new(MctsConfig {
                iterations: 30,
                macro_action: 5,
                ..MctsConfig::default()
            });
            let mut rng = rng_from_seed(seed);
            let mut s = SbeState::new(SbeParams::default(), 3).with_max_ticks(40);
            let mut seq = Vec::new();
            while !s.is_over() {
                let a = agent.act(&s, 0, &mut rng);
                seq.push(a);
                s.advance(&[a, 5]);
            }
            seq
        };
        let a = run(9);
        assert_eq!(a, run(9));
        assert_ne!(a, run(10), "different seeds should explore differently");
    }

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
