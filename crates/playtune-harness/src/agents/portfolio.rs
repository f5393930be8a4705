//! What a game offers to portfolio agents: scripts that each suggest one action with a
//! value ([`Portfolio`], used by P-MCTS), and partial players that each play one phase
//! of a turn ([`PhasePlayers`], used by Hierarchical Portfolio Search).
//!
//! A game writes its scripts once against these traits; the search agents that use
//! them (MCTS with a portfolio, HPS) are generic.

use crate::game::Game;
use playtune_optim::rng::Rng;

/// One script's suggestion: the action it would play for one actor, the script's index
/// in [`Portfolio::scripts`], and the script's value for that action in [0, 1]
/// (higher is better by the script's own measure).
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion<A> {
    /// The action suggested.
    pub action: A,
    /// The script's index in [`Portfolio::scripts`].
    pub script: usize,
    /// The script's value for the action, in [0, 1].
    pub value: f64,
}

/// A game's portfolio of scripts. A script, for one actor (a unit, a city, the tribe)
/// and one action type, returns one action and a value; wrapper scripts return the
/// only possible action. Agents weight each script (one weight per script, default
/// 0.5), so a vector of weights is a play style.
pub trait Portfolio<G: Game>: Send + Sync {
    /// The scripts' names, in weight order.
    fn scripts(&self) -> &[&'static str];

    /// Appends every script's suggestion for every actor of `player` in `state` (at
    /// most one per actor and script; the same action may come from several scripts).
    /// When `player` has a legal action, at least one suggestion is made (a wrapper
    /// for ending the turn, say), and every suggested action is legal.
    fn suggest(&self, state: &G, player: usize, out: &mut Vec<Suggestion<G::Action>>);
}

/// Per-script weights, in the order of [`Portfolio::scripts`].
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptWeights(pub Vec<f64>);

impl ScriptWeights {
    /// Every script weighted `w`.
    pub fn uniform(scripts: usize, w: f64) -> Self {
        ScriptWeights(vec![w; scripts])
    }

    /// The weight of script `i` (0.5 for scripts beyond the vector).
    pub fn get(&self, i: usize) -> f64 {
        self.0.get(i).copied().unwrap_or(0.5)
    }
}

/// A game's partial players for Hierarchical Portfolio Search: a turn is split into
/// phases (research, economy, spawning, combat, ...), and each phase has a few partial
/// players, each a complete policy for that phase. A turn plan picks one partial
/// player per phase; HPS searches the cross product of these choices.
pub trait PhasePlayers<G: Game>: Send + Sync {
    /// The phases in turn order, each with its partial players' names.
    fn phases(&self) -> &[(&'static str, &'static [&'static str])];

    /// The next action of partial player `option` of `phase` for `player` in `state`,
    /// or `None` once that partial player is done with the phase. The action must be
    /// legal and must not end the turn; a partial player must be done after finitely
    /// many actions (HPS also caps each phase).
    fn next_action(
        &self,
        state: &G,
        player: usize,
        phase: usize,
        option: usize,
        rng: &mut Rng,
    ) -> Option<G::Action>;

    /// The action that ends `player`'s turn.
    fn end_turn(&self, state: &G, player: usize) -> G::Action;

    /// The partial player of `phase` that both sides use in HPS's symmetric playouts
    /// (by default the first).
    fn playout_option(&self, phase: usize) -> usize {
        let _ = phase;
        0
    }

    /// A heuristic value of `state` for `player` (higher is better), used at HPS's
    /// leaves. It should be antisymmetric-ish (good for one player, bad for the other),
    /// and dominated by the outcome once the game is over.
    fn heuristic(&self, state: &G, player: usize) -> f64;
}

/// How P-MCTS uses its portfolio: the scripts, their weights, and whether the weights
/// steer the search by progressive bias, progressive unpruning, or both. With neither,
/// the weights do not matter: children are the scripts' distinct suggestions, tried in
/// random order, then chosen by UCB1 (plain P-MCTS).
#[derive(Clone)]
pub struct PortfolioSearch<G: Game> {
    /// The scripts.
    pub portfolio: std::sync::Arc<dyn Portfolio<G>>,
    /// The scripts' weights.
    pub weights: ScriptWeights,
    /// Progressive bias: UCB + w * value / (n_child + 1).
    pub bias: bool,
    /// Progressive unpruning by `unpruned_children`.
    pub unpruning: bool,
}

impl<G: Game> std::fmt::Debug for PortfolioSearch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortfolioSearch")
            .field("scripts", &self.portfolio.scripts())
            .field("weights", &self.weights)
            .field("bias", &self.bias)
            .field("unpruning", &self.unpruning)
            .finish()
    }
}

impl<G: Game> PortfolioSearch<G> {
    /// The agent's name suffix: P-MCTS, P-MCTS(B), P-MCTS(PU) or P-MCTS(B+PU).
    pub fn label(&self) -> &'static str {
        match (self.bias, self.unpruning) {
            (false, false) => "P-MCTS",
            (true, false) => "P-MCTS(B)",
            (false, true) => "P-MCTS(PU)",
            (true, true) => "P-MCTS(B+PU)",
        }
    }

    /// The node's children in this state: the distinct suggested actions with their
    /// prior `w * value` (the largest when several scripts suggest one action); best
    /// prior first under progressive unpruning. `scratch` holds the raw suggestions.
    pub fn options(
        &self,
        state: &G,
        player: usize,
        scratch: &mut Vec<Suggestion<G::Action>>,
        out: &mut Vec<(f64, G::Action)>,
    ) {
        scratch.clear();
        out.clear();
        self.portfolio.suggest(state, player, scratch);
        for s in scratch.drain(..) {
            let prior = self.weights.get(s.script) * s.value;
            match out.iter_mut().find(|(_, a)| *a == s.action) {
                Some(known) => known.0 = known.0.max(prior),
                None => out.push((prior, s.action)),
            }
        }
        // Only unpruning ranks children; otherwise the order stays the scripts' own, so
        // that plain P-MCTS does not depend on the weights at all. Stable: equal priors
        // keep the scripts' order.
        if self.unpruning {
            out.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
    }
}

/// How many of a node's `n` children (best prior first) progressive unpruning lets
/// the search consider after `visits` visits, the schedule adapted to the node's own
/// number of children: every child until `T = floor(2n)` visits, then the best
/// `K = max(1, floor(n / 2))`, and one more each time the visits pass
/// `floor(A * 1.3^k)`, `A = floor(1.5 T)`, `k = 1, 2, ...`.
pub(crate) fn unpruned_children(n: usize, visits: u32) -> usize {
    let t = 2 * n as u64;
    let visits = u64::from(visits);
    if visits < t || n <= 1 {
        return n;
    }
    let mut open = (n / 2).max(1);
    let a = (1.5 * t as f64).floor();
    let mut k = 1;
    while open < n {
        let threshold = (a * 1.3f64.powi(k)).floor() as u64;
        if visits < threshold {
            break;
        }
        open += 1;
        k += 1;
    }
    open
}

#[cfg(test)]
mod tests {
    use super::unpruned_children;

    #[test]
    fn unpruning_follows_the_schedule() {
        // n = 10: T = 20, K = 5, A = 30; thresholds 39, 50, 65, 85, 111.
        let n = 10;
        assert_eq!(unpruned_children(n, 0), 10);
        assert_eq!(unpruned_children(n, 19), 10);
        assert_eq!(unpruned_children(n, 20), 5);
        assert_eq!(unpruned_children(n, 38), 5);
        assert_eq!(unpruned_children(n, 39), 6);
        assert_eq!(unpruned_children(n, 50), 7);
        assert_eq!(unpruned_children(n, 64), 7);
        assert_eq!(unpruned_children(n, 65), 8);
        assert_eq!(unpruned_children(n, 110), 9);
        assert_eq!(unpruned_children(n, 111), 10);
        assert_eq!(unpruned_children(n, 100_000), 10);
        // One child is never pruned; none stays none.
        assert_eq!(unpruned_children(1, 1000), 1);
        assert_eq!(unpruned_children(0, 1000), 0);
    }
}
