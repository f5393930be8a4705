//! What a game offers to portfolio agents: scripts that each suggest one action with a
//! value ([`Portfolio`], used by P-MCTS), and partial players that each play one phase
//! of a turn ([`PhasePlayers`], used by Hierarchical Portfolio Search).
//!
//! A game writes its scripts once against these traits; the search agents that use
//! them (MCTS with a portfolio, HPS) are generic.

use crate::game::Game;
use crate::rng::Rng;

/// One script's suggestion: the action it would play for one actor, the script's index
/// in [`Portfolio::scripts`], and the script's value for that action in [0, 1]
/// (higher is better by the script's own measure).
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion<A> {
    pub action: A,
    pub script: usize,
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

    /// A heuristic value of `state` for `player` (higher is better), used at HPS's
    /// leaves. It should be antisymmetric-ish (good for one player, bad for the other),
    /// and dominated by the outcome once the game is over.
    fn heuristic(&self, state: &G, player: usize) -> f64;
}
