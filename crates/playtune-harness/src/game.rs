//! What a game offers to the agents that play it.
//!
//! One trait covers both kinds of game playtune ships: real-time games in which every
//! player acts on every tick (Space Battle Evolved) and turn-based games in which one
//! player acts at a time (Rinascimento, the portfolio strategy game). Search agents
//! (MCTS, rolling horizon, one-step look-ahead) are written once against it.

use playtune_optim::rng::Rng;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Who has to choose an action in the current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acting {
    /// Every player chooses at once; `advance` takes one action per player, in player order.
    All,
    /// Only this player chooses; `advance` takes exactly one action.
    Player(usize),
}

/// A game state with its forward model. Cloning a state and advancing the clone is the
/// hot path of every search agent: implementations keep both allocation-free in steady
/// state.
pub trait Game: Clone + Send + Sync {
    /// One player's action for one step.
    type Action: Clone + PartialEq + Send + Sync + std::fmt::Debug;

    /// Players (seats) in the game.
    fn num_players(&self) -> usize;

    /// Who must act now. Only meaningful while the game is not over.
    fn acting(&self) -> Acting;

    /// True once the game has ended (by its rules, a step limit, or a stalemate).
    fn is_over(&self) -> bool;

    /// Steps played so far (ticks in real-time games, actions in turn-based ones).
    fn step_count(&self) -> u32;

    /// A uniformly random legal action for `player`, or `None` if it has none.
    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<Self::Action>;

    /// Writes every legal action of `player` into `out` (cleared first) and returns
    /// true, or returns false when the game does not enumerate its actions (agents then
    /// sample with [`Game::random_action`]).
    fn legal_actions(&self, player: usize, out: &mut Vec<Self::Action>) -> bool {
        let _ = (player, out);
        false
    }

    /// Applies one step: `actions` holds one action per player if [`Game::acting`] is
    /// [`Acting::All`], else exactly one action for the acting player.
    fn advance(&mut self, actions: &[Self::Action]);

    /// The game's score for `player` (what agents maximise, before win/loss bonuses).
    fn score(&self, player: usize) -> f64;

    /// What search agents maximise for `player` before win and loss bonuses; by
    /// default [`Game::score`]. A game whose score is each player's own tally may
    /// return the margin over the opponents instead: with a horizon of a fixed number
    /// of actions and a score that only counts one's own gains, ending a turn early
    /// (to bring the next turn's income within the horizon) looks better than acting,
    /// and harming the opponent looks worthless.
    fn value(&self, player: usize) -> f64 {
        self.score(player)
    }

    /// Per player, whether they won. Meaningful once the game is over; a draw marks
    /// every tied leader as a winner, a stalemate marks nobody.
    fn winners(&self) -> Vec<bool>;

    /// A copy for a search agent to simulate from many times, no simulation longer than
    /// `horizon` steps. A game may precompute here what every simulation would redo
    /// (Space Battle plans its objects' paths); the copy must play exactly as `self`.
    /// By default, a plain clone.
    fn search_root(&self, horizon: u32) -> Self {
        let _ = horizon;
        self.clone()
    }

    /// The copy an agent of `player` may search from: hidden information (deck order,
    /// opponents' hidden cards) is re-sampled from `rng`. Perfect-information games
    /// return a plain clone.
    fn observe(&self, player: usize, rng: &mut Rng) -> Self {
        let _ = (player, rng);
        self.clone()
    }

    /// Why this state can no longer be played, where its rules failed (a forward
    /// model's operation answered an error, crashed or timed out); `None` for a
    /// state that plays. A match fails with it rather than hand the state to an agent,
    /// which would find no move in it.
    fn failure(&self) -> Option<String> {
        None
    }

    /// Plays up to `max_steps` steps in which every player (and chance) moves
    /// uniformly at random, as a search's rollout does, and returns the steps played;
    /// `None` (the default) where the game leaves that to the caller, one
    /// [`Game::advance`] a step. A game whose every step costs a round trip to another
    /// process plays the whole playout there in one.
    fn playout(&mut self, max_steps: u32, rng: &mut Rng) -> Option<u32> {
        let _ = (max_steps, rng);
        None
    }
}

/// A player: chooses an action for `player` in `state`. Agents count their own
/// forward-model use against a budget in steps, never wall-clock time, so that games
/// are reproducible.
pub trait Agent<G: Game>: Send {
    /// A short name for logs and tables.
    fn name(&self) -> String;

    /// Chooses an action for `player`, who must be acting in `state`.
    fn act(&mut self, state: &G, player: usize, rng: &mut Rng) -> G::Action;

    /// Called before a new game starts, so agents with memory (shift buffers) forget.
    fn reset(&mut self) {}

    /// Whether the agent simulates futures from the state it is given. Agents that do
    /// not (random, scripted) only read the legal actions, which hidden information
    /// does not change, so games hand them the true state instead of a re-sampled
    /// observation: in a random game that copy is most of the cost.
    fn simulates(&self) -> bool {
        true
    }
}

/// A game that counts every [`Game::advance`] made on it or on any of its clones: how a
/// search agent's budget of forward-model calls is checked, in playtune's tests and
/// in an agent of your own.
#[derive(Clone, Debug)]
pub struct Counted<G> {
    /// The game played.
    pub inner: G,
    /// Calls made so far, shared by every clone.
    pub calls: Arc<AtomicUsize>,
}

impl<G> Counted<G> {
    /// `inner`, counted from zero.
    pub fn new(inner: G) -> Self {
        Counted {
            inner,
            calls: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Calls counted so far; resets the count.
    pub fn take(&self) -> usize {
        self.calls.swap(0, Ordering::Relaxed)
    }
}

impl<G: Game> Game for Counted<G> {
    type Action = G::Action;
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    fn acting(&self) -> Acting {
        self.inner.acting()
    }
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    fn step_count(&self) -> u32 {
        self.inner.step_count()
    }
    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<G::Action> {
        self.inner.random_action(player, rng)
    }
    fn legal_actions(&self, player: usize, out: &mut Vec<G::Action>) -> bool {
        self.inner.legal_actions(player, out)
    }
    fn advance(&mut self, actions: &[G::Action]) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.advance(actions);
    }
    fn score(&self, player: usize) -> f64 {
        self.inner.score(player)
    }
    fn value(&self, player: usize) -> f64 {
        self.inner.value(player)
    }
    fn winners(&self) -> Vec<bool> {
        self.inner.winners()
    }
    fn playout(&mut self, max_steps: u32, rng: &mut Rng) -> Option<u32> {
        let steps = self.inner.playout(max_steps, rng)?;
        self.calls.fetch_add(steps as usize, Ordering::Relaxed);
        Some(steps)
    }
}
