//! Games that bring only their rules: a forward model (the initial state, whose turn
//! it is or a chance node, the legal moves, a move applied, the end and the returns,
//! and for hidden information a state re-sampled from what a seat has seen), and no
//! bots. playtune's generic agents ([`bots`]) play them, in Rust, wherever the rules
//! live: in a Python object (the OpenSpiel State API, in the Python binding) or in a
//! game process over the match protocol's forward-model operations (`process`).
//!
//! [`Rules`] is what a place that holds states does; `FmState` makes any of them a
//! [`Game`] for the agents; [`play`] plays one match and [`ForwardBot`] one seat's
//! moves outside a match.

pub(crate) mod process;
mod uct;
mod wire;

use crate::protocol::MatchReport;
use playtune_harness::game::{Acting, Agent, Game};
use playtune_harness::play::{AGENTS, STATE};
use playtune_harness::{AgentEntry, AgentSpec, Generic, all_agents, build_agent};
use playtune_harness::{Error, Setting, Values};
use playtune_optim::rng::{Rng, derive_seed, rng_from_seed};
use rand::RngExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The stream of what a bot observes, as the harness's play loop names it.
const OBSERVE: u64 = 3;

/// Where a state stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// `player` moves, choosing among `legal`.
    Player {
        /// The seat to move.
        player: usize,
        /// The moves it may make.
        legal: Vec<i64>,
    },
    /// Chance moves: each outcome with its probability.
    Chance(Vec<(i64, f64)>),
    /// The game is over: each seat's return.
    Over(Vec<f64>),
}

/// Why where a state stands, as its rules say, is no place a search can stand: the one
/// check of every place that holds states (a Python object, a game process, a Rust
/// [`Rules`]), each naming what it asked in front of it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NodeError {
    /// A seat the game does not have is to move.
    #[error("seat {player} is to move, and the game has seats 0 to {last}")]
    NoSuchSeat {
        /// The seat said to move.
        player: usize,
        /// The game's last seat.
        last: usize,
    },
    /// A player's turn without a move.
    #[error(
        "seat {player} moves and has no legal move (a finished game is over, not a turn without moves)"
    )]
    NoMove {
        /// The seat to move.
        player: usize,
    },
    /// Chance outcomes that cannot be drawn.
    #[error(
        "a chance node whose outcomes cannot be drawn ({outcomes:?}): give [(outcome, probability), ...], probabilities finite, at least 0, summing to a finite number above 0"
    )]
    Chance {
        /// The outcomes given.
        outcomes: Vec<(i64, f64)>,
    },
    /// Returns of the wrong length, or not finite.
    #[error("returns {returns:?}: give one finite number a seat ({players} seats)")]
    Returns {
        /// The returns given.
        returns: Vec<f64>,
        /// The game's seats.
        players: usize,
    },
}

impl Node {
    /// The node where a search can stand on it in a game of `players` seats, else
    /// why not: a seat of the game with moves, chance outcomes that can be drawn
    /// (probabilities finite, at least 0, summing to a finite number above 0), one
    /// finite return a seat.
    pub fn checked(self, players: usize) -> Result<Node, NodeError> {
        match &self {
            Node::Player { player, .. } if *player >= players => Err(NodeError::NoSuchSeat {
                player: *player,
                last: players.saturating_sub(1),
            }),
            Node::Player { player, legal } if legal.is_empty() => {
                Err(NodeError::NoMove { player: *player })
            }
            Node::Chance(outcomes) => {
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                if outcomes.is_empty()
                    || outcomes.iter().any(|(_, p)| !(p.is_finite() && *p >= 0.0))
                    || !(total.is_finite() && total > 0.0)
                {
                    return Err(NodeError::Chance {
                        outcomes: outcomes.clone(),
                    });
                }
                Ok(self)
            }
            Node::Over(returns)
                if returns.len() != players || returns.iter().any(|r| !r.is_finite()) =>
            {
                Err(NodeError::Returns {
                    returns: returns.clone(),
                    players,
                })
            }
            _ => Ok(self),
        }
    }
}

/// Why a call to a game's rules failed: each [`Rules`] says which kind, in the words of
/// what failed, and a match adds what it asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RulesError {
    /// The game's own error, in its words: a Python exception, a game process's error
    /// reply.
    #[error("{0}")]
    Game(String),
    /// An answer that breaks the rules' contract: a return value or a reply that does
    /// not read, or a state number that is not new.
    #[error("{0}")]
    Answer(String),
    /// Where a state stands, as the rules said it, is no place a search can stand.
    #[error(transparent)]
    Node(#[from] NodeError),
    /// The place that holds the states is gone: a game process that died, timed out or
    /// could not start, with its last words.
    #[error("{0}")]
    Lost(String),
}

/// One expansion of a search's tree: a copy of `parent` with `action` applied, and a
/// uniformly random playout of a further copy, from `seed`, of up to `max_steps` moves.
pub struct Expansion<'a, S> {
    /// The state expanded (not changed).
    pub parent: &'a S,
    /// Whether the new state is kept (else the playout may play on it and none is
    /// returned: the search makes it again where it needs it).
    pub keep: bool,
    /// The move, or chance outcome, applied to its copy.
    pub action: i64,
    /// The playout's seed.
    pub seed: u64,
    /// The playout's most moves.
    pub max_steps: u32,
}

/// What an [`Expansion`] made: the new state, where it stands, and its playout's end
/// (`None` where the new state is over).
pub struct Expanded<S> {
    /// The copy with the move applied, where it was kept.
    pub state: Option<S>,
    /// Where it stands.
    pub node: Node,
    /// Its playout's end.
    pub playout: Option<Playout>,
}

/// Where a playout ended.
pub struct Playout {
    /// Moves played.
    pub steps: u32,
    /// Where it stands at its end.
    pub end: Node,
    /// Each seat's heuristic at an unfinished end, where the game gives one.
    pub heuristic: Option<Vec<f64>>,
}

/// [`Rules::expand`] one operation at a time: a copy, the move, a copy, the playout
/// (played by the search itself where the rules play none).
pub fn expand_each<R: Rules + ?Sized>(
    rules: &R,
    batch: &[Expansion<'_, R::State>],
) -> Result<Vec<Expanded<R::State>>, RulesError> {
    batch
        .iter()
        .map(|e| {
            let mut child = rules.copy(e.parent)?;
            let node = rules
                .apply(&mut child, e.action)?
                .checked(rules.players())?;
            let playout = if matches!(node, Node::Over(_)) {
                None
            } else {
                let mut copy;
                let sim = if e.keep {
                    copy = rules.copy(&child)?;
                    &mut copy
                } else {
                    &mut child
                };
                let (steps, end) = match rules.playout(sim, e.max_steps, e.seed)? {
                    Some(p) => p,
                    None => random_playout(node.clone(), e.max_steps, e.seed, |a| {
                        Ok(rules.apply(sim, a)?.checked(rules.players())?)
                    })?,
                };
                Some(Playout {
                    steps,
                    end,
                    heuristic: None,
                })
            };
            Ok(Expanded {
                state: e.keep.then_some(child),
                node,
                playout,
            })
        })
        .collect()
}

/// A uniformly random playout played by the search itself (for rules that play none),
/// from where a state stands (`node`), each move given to `apply` (which plays it and
/// says where the state stands then), chance by its probabilities, up to `max_steps`
/// moves, from `seed`: the moves played and where it ended.
fn random_playout(
    mut node: Node,
    max_steps: u32,
    seed: u64,
    mut apply: impl FnMut(i64) -> Result<Node, RulesError>,
) -> Result<(u32, Node), RulesError> {
    let mut rng = rng_from_seed(seed);
    let mut steps = 0;
    loop {
        let action = match &node {
            Node::Over(_) => break,
            Node::Player { legal, .. } => {
                if steps >= max_steps {
                    break;
                }
                steps += 1;
                legal[rng.random_range(0..legal.len())]
            }
            Node::Chance(outcomes) => draw_chance(outcomes, &mut rng),
        };
        node = apply(action)?;
    }
    Ok((steps, node))
}

/// One outcome of a chance node, drawn by its probabilities (a negative one as 0): the
/// one draw of the match's chance nodes, the search's and the playouts'.
pub(crate) fn draw_chance(outcomes: &[(i64, f64)], rng: &mut Rng) -> i64 {
    let total: f64 = outcomes.iter().map(|(_, p)| p.max(0.0)).sum();
    let mut x = rng.random::<f64>() * total;
    for (a, p) in outcomes {
        x -= p.max(0.0);
        if x < 0.0 {
            return *a;
        }
    }
    outcomes[outcomes.len() - 1].0
}

/// A place that holds a game's states and applies its rules to them. Every call may
/// fail (a Python exception, a game process that died): a [`RulesError`] says how.
pub trait Rules: Send + Sync + 'static {
    /// A state as the place holds it.
    type State: Send + Sync;
    /// The game's seats.
    fn players(&self) -> usize;
    /// Where `state` stands.
    fn node(&self, state: &Self::State) -> Result<Node, RulesError>;
    /// An independent copy.
    fn copy(&self, state: &Self::State) -> Result<Self::State, RulesError>;
    /// Applies `action` (a legal move, or a chance outcome) in place; where it stands now.
    fn apply(&self, state: &mut Self::State, action: i64) -> Result<Node, RulesError>;
    /// A state `player` cannot tell from `state`, hidden information drawn from `seed`
    /// (the game's resampler), and where it stands.
    fn resample(
        &self,
        state: &Self::State,
        player: usize,
        seed: u64,
    ) -> Result<(Self::State, Node), RulesError>;
    /// The game's own estimate of `player`'s standing in an unfinished state, if it
    /// gives one; an estimate it gives that is no finite number is an error.
    fn heuristic(&self, state: &Self::State, player: usize) -> Result<Option<f64>, RulesError> {
        let _ = (state, player);
        Ok(None)
    }
    /// Whether a copy may share what a move changes with its original (a Python
    /// object's `clone` can; a game process's numbered states cannot): then a match
    /// checks, before each move, that the search left its state where it stood.
    fn copies_may_share(&self) -> bool {
        false
    }
    /// The game's own figures of a finished match, by name, one number a seat:
    /// numbers it computes from the final state, or counts it kept along the way.
    /// None by default.
    fn features(&self, state: &Self::State) -> Result<Vec<(String, Vec<f64>)>, RulesError> {
        let _ = state;
        Ok(Vec::new())
    }
    /// The state in the game's own text form, if it gives one (a match to watch).
    fn show(&self, state: &Self::State) -> Result<Option<String>, RulesError> {
        let _ = state;
        Ok(None)
    }
    /// Whether the states live in another process, where a batch of expansions is
    /// one request instead of many (so `uct` batches them by default).
    fn remote(&self) -> bool {
        false
    }
    /// A batch of a search's expansions, in order ([`expand_each`] by default; a game
    /// process answers a batch in one request).
    fn expand(
        &self,
        batch: &[Expansion<'_, Self::State>],
    ) -> Result<Vec<Expanded<Self::State>>, RulesError> {
        expand_each(self, batch)
    }
    /// Plays up to `max_steps` uniformly random moves (chance by its probabilities)
    /// in place, from `seed`: the steps played and where it stands, or `None` where the
    /// game does not play playouts itself.
    fn playout(
        &self,
        state: &mut Self::State,
        max_steps: u32,
        seed: u64,
    ) -> Result<Option<(u32, Node)>, RulesError> {
        let _ = (state, max_steps, seed);
        Ok(None)
    }
}

/// What the copies of one match's states share.
#[derive(Debug)]
struct Shared {
    players: usize,
    /// Whether a seat may not see everything (search then re-samples).
    hidden: bool,
    max_steps: u32,
    /// The first failure of a call to the rules: the match fails with it.
    error: Mutex<Option<String>>,
}

impl Shared {
    fn fail(&self, why: String) {
        let mut e = self.error.lock().unwrap_or_else(|e| e.into_inner());
        if e.is_none() {
            *e = Some(why);
        }
    }

    fn failure(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn failed(&self) -> bool {
        self.error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

/// A state of a forward-model game, as playtune's agents see a game: its rules'
/// state, where it stands, the moves played, and its own generator for chance nodes.
/// A failed call to the rules ends the state (it reads as over) and is kept for the
/// match to fail with.
pub(crate) struct FmState<R: Rules> {
    rules: Arc<R>,
    shared: Arc<Shared>,
    /// `None` once a call failed.
    state: Option<R::State>,
    node: Node,
    steps: u32,
    /// Draws the chance outcomes of this state's line of play.
    chance: Rng,
    /// In a search's copies: every copy draws a chance stream of its own from this
    /// counter, so that two simulations through one chance node need not agree.
    streams: Option<(u64, Arc<AtomicU64>)>,
}

impl<R: Rules> FmState<R> {
    fn new(
        rules: Arc<R>,
        shared: Arc<Shared>,
        state: R::State,
        node: Node,
        chance: Rng,
    ) -> FmState<R> {
        let mut s = FmState {
            rules,
            shared,
            state: Some(state),
            node,
            steps: 0,
            chance,
            streams: None,
        };
        s.resolve_chance();
        s
    }

    /// The rules' state, while the match has not failed: after a failure no call
    /// reaches the rules, so that a game past its timeout, or stopped, is not searched
    /// on to the end of the match by the copies a search still holds.
    fn live(&self) -> Option<&R::State> {
        self.state.as_ref().filter(|_| !self.shared.failed())
    }

    fn fail(&mut self, why: String) {
        self.shared.fail(why);
        self.state = None;
        self.node = Node::Over(vec![0.0; self.shared.players]);
    }

    /// Plays chance nodes until a player moves or the game ends.
    fn resolve_chance(&mut self) {
        let mut guard = 0u32;
        while let Node::Chance(outcomes) = &self.node {
            guard += 1;
            if outcomes.is_empty() || guard > 100_000 {
                self.fail(
                    "a chance node with no outcomes (or 100,000 chance nodes in a row)".into(),
                );
                return;
            }
            let total: f64 = outcomes.iter().map(|(_, p)| p.max(0.0)).sum();
            // Probabilities that are all 0 or sum past the largest number cannot be
            // sampled: drawn anyway, the last outcome would always be played.
            if !(total.is_finite() && total > 0.0) {
                self.fail(format!(
                    "a chance node whose probabilities sum to {total}: give outcomes whose probabilities are > 0 and sum to a finite number ({outcomes:?})"
                ));
                return;
            }
            let pick = draw_chance(outcomes, &mut self.chance);
            self.apply_raw(pick);
        }
    }

    fn apply_raw(&mut self, action: i64) {
        if self.shared.failed() {
            self.fail(String::new());
            return;
        }
        let Some(state) = self.state.as_mut() else {
            return;
        };
        match self
            .rules
            .apply(state, action)
            .map(|n| n.checked(self.shared.players))
        {
            Ok(Ok(node)) => self.node = node,
            Ok(Err(e)) => self.fail(format!("apply {action}: {e}")),
            Err(why) => self.fail(why.to_string()),
        }
    }

    /// Why this state no longer stands where it did, if it does not: a search's moves,
    /// played on copies that share the original's parts, moved it.
    fn moved_by_search(&self) -> Option<String> {
        let state = self.state.as_ref()?;
        match self.rules.node(state) {
            Ok(now) if now == self.node => None,
            Ok(now) => Some(format!(
                "the search's moves changed the state it searched from (it stood at {:?}, now at {now:?}): clone() must copy every part a move changes, not share it",
                self.node
            )),
            Err(why) => Some(why.to_string()),
        }
    }

    /// A copy for a search: its chance outcomes drawn from streams of its own.
    fn searched(&self, seed: u64) -> FmState<R> {
        let mut copy = self.clone();
        let counter = Arc::new(AtomicU64::new(0));
        copy.chance = rng_from_seed(derive_seed(seed, &[u64::MAX]));
        copy.streams = Some((seed, counter));
        copy
    }

    /// This state and the move chosen in it (`joint`; none at the end) as text: the
    /// game's own form where it gives one, else the moves it offers.
    fn frame(&self, joint: &[i64]) -> String {
        let text = match self.live().map(|s| self.rules.show(s)) {
            Some(Ok(Some(text))) => text,
            Some(Err(why)) => {
                self.shared.fail(why.to_string());
                String::new()
            }
            _ => match &self.node {
                Node::Player { legal, .. } => format!("moves: {legal:?}"),
                _ => String::new(),
            },
        };
        let text = crate::protocol::printable_lines(text.trim_end());
        match (&self.node, joint.first()) {
            (Node::Player { player, .. }, Some(a)) if !self.is_over() => format!(
                "move {}: seat {player} to move\n{text}\nseat {player} plays {a}",
                self.steps + 1
            ),
            (Node::Over(returns), _) => {
                format!(
                    "the end, after {} moves: returns {returns:?}\n{text}",
                    self.steps
                )
            }
            _ => format!("the end, by the cap of {} moves\n{text}", self.steps),
        }
    }

    fn returns(&self) -> Option<&[f64]> {
        match &self.node {
            Node::Over(r) => Some(r),
            _ => None,
        }
    }
}

impl<R: Rules> Clone for FmState<R> {
    fn clone(&self) -> Self {
        let mut chance = self.chance.clone();
        if let Some((seed, counter)) = &self.streams {
            let n = counter.fetch_add(1, Ordering::Relaxed);
            chance = rng_from_seed(derive_seed(*seed, &[n]));
        }
        let mut copy = FmState {
            rules: self.rules.clone(),
            shared: self.shared.clone(),
            state: None,
            node: self.node.clone(),
            steps: self.steps,
            chance,
            streams: self.streams.clone(),
        };
        match self.live() {
            Some(s) => match self.rules.copy(s) {
                Ok(s) => copy.state = Some(s),
                Err(why) => copy.fail(why.to_string()),
            },
            // The first failure is the match's: this one adds nothing to it.
            None if self.state.is_some() => copy.fail(String::new()),
            None => {}
        }
        copy
    }
}

impl<R: Rules> Game for FmState<R> {
    type Action = i64;

    fn num_players(&self) -> usize {
        self.shared.players
    }

    fn acting(&self) -> Acting {
        match &self.node {
            Node::Player { player, .. } => Acting::Player(*player),
            _ => Acting::Player(0),
        }
    }

    fn is_over(&self) -> bool {
        !matches!(self.node, Node::Player { .. }) || self.steps >= self.shared.max_steps
    }

    fn step_count(&self) -> u32 {
        self.steps
    }

    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<i64> {
        match &self.node {
            Node::Player { player: p, legal } if *p == player && !legal.is_empty() => {
                Some(legal[rng.random_range(0..legal.len())])
            }
            _ => None,
        }
    }

    fn legal_actions(&self, player: usize, out: &mut Vec<i64>) -> bool {
        out.clear();
        if let Node::Player { player: p, legal } = &self.node
            && *p == player
        {
            out.extend_from_slice(legal);
        }
        true
    }

    fn advance(&mut self, actions: &[i64]) {
        // The match's own state (not a search's copy): where copies may share what a
        // move changes, the search's moves must have left it where it stood.
        if self.streams.is_none()
            && self.rules.copies_may_share()
            && self.live().is_some()
            && let Some(why) = self.moved_by_search()
        {
            self.fail(why);
            return;
        }
        if let Some(&a) = actions.first() {
            self.apply_raw(a);
            self.steps += 1;
            self.resolve_chance();
        }
    }

    fn score(&self, player: usize) -> f64 {
        if let Some(r) = self.returns() {
            return r.get(player).copied().unwrap_or(0.0);
        }
        let Some(s) = self.live() else {
            return 0.0;
        };
        match self.rules.heuristic(s, player) {
            Ok(h) => h.unwrap_or(0.0),
            Err(why) => {
                self.shared.fail(why.to_string());
                0.0
            }
        }
    }

    fn winners(&self) -> Vec<bool> {
        let players = self.shared.players;
        match self.returns() {
            Some(r) if !r.is_empty() => {
                let best = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                (0..players)
                    .map(|s| r.get(s).is_some_and(|&x| x == best))
                    .collect()
            }
            _ => vec![false; players],
        }
    }

    fn search_root(&self, _horizon: u32) -> Self {
        if self.streams.is_some() {
            return self.clone();
        }
        let seed = derive_seed(
            self.chance.clone().random::<u64>(),
            &[u64::from(self.steps)],
        );
        self.searched(seed)
    }

    fn observe(&self, player: usize, rng: &mut Rng) -> Self {
        let seed: u64 = rng.random();
        if !self.shared.hidden {
            return self.searched(seed);
        }
        let mut view = self.searched(seed);
        if let Some(s) = self.live() {
            match self.rules.resample(s, player, seed) {
                Ok((state, node)) => {
                    view.state = Some(state);
                    view.node = node;
                    view.resolve_chance();
                    // The world drawn must be the one the seat is to move in.
                    let wrong = match &view.node {
                        Node::Player { player: p, legal } if *p == player && !legal.is_empty() => {
                            None
                        }
                        Node::Player { player: p, .. } if *p == player => {
                            Some(format!("no legal move for seat {player}"))
                        }
                        Node::Player { player: p, .. } => {
                            Some(format!("seat {p} to move, where seat {player} moves"))
                        }
                        Node::Over(_) => Some("a finished game".to_string()),
                        Node::Chance(_) => Some("a chance node".to_string()),
                    };
                    if let Some(what) = wrong
                        && view.shared.failure().is_none()
                    {
                        // A world drawn from a state that a search moved, through a
                        // clone sharing its parts, is wrong for that reason.
                        let moved = self
                            .rules
                            .copies_may_share()
                            .then(|| self.moved_by_search())
                            .flatten();
                        view.fail(moved.unwrap_or_else(|| {
                            format!(
                                "resample gave {what}: a resampled world must be the seat's own turn"
                            )
                        }));
                    }
                }
                Err(why) => view.fail(why.to_string()),
            }
        }
        view
    }

    fn failure(&self) -> Option<String> {
        self.shared.failure()
    }

    fn playout(&mut self, max_steps: u32, rng: &mut Rng) -> Option<u32> {
        let seed: u64 = rng.random();
        if self.shared.failed() {
            return None;
        }
        let state = self.state.as_mut()?;
        let cap = max_steps.min(self.shared.max_steps.saturating_sub(self.steps));
        match self.rules.playout(state, cap, seed) {
            Ok(Some((steps, node))) => {
                self.node = node;
                self.steps += steps;
                // A playout cut by its length may stop at a chance node.
                self.resolve_chance();
                Some(steps)
            }
            Ok(None) => None,
            Err(why) => {
                self.fail(why.to_string());
                Some(0)
            }
        }
    }
}

/// The forward-model agents: the generic agents with search deep enough to reach the
/// end of a short game (a forward-model game's states are valued by its returns, and
/// by its heuristic only where it gives one).
const DEEP: &[(&str, &str)] = &[("depth", "200")];

/// The agents playtune offers a forward-model game: `random`, `osla`, `mcts`,
/// `ismcts`, and the rolling-horizon agents (`bmrh`, `srh`, `microbial`, the RHEA of
/// the papers). A game that hides information and gives no resampler gets `random`
/// only: search would have to read the true state.
fn entries<R: Rules>(searchable: bool) -> Vec<AgentEntry<FmState<R>>> {
    let all = all_agents::<FmState<R>>(vec![
        AgentEntry::preset(&["mcts"], Generic::Mcts.about(), Generic::Mcts, DEEP),
        AgentEntry::preset(&["ismcts"], Generic::Ismcts.about(), Generic::Ismcts, DEEP),
        AgentEntry::own(
            &["uct"],
            "UCT over every seat's moves on the game's own states, kept where the rules keep them: no path is played twice, and a batch of expansions is one request to a game process (a world drawn once a move where information is hidden)",
            vec![
                Setting::new("iterations", "100", "expansions and playouts a decision"),
                Setting::new("c", "1.4142135623730951", "UCB1's exploration constant"),
                Setting::new(
                    "batch",
                    "0",
                    "expansions asked of the rules at once, virtual losses keeping them apart; 0: 32 where the game is another process (one request a batch), 1 where it is this one (no batch is stronger)",
                ),
            ],
            |s, _| {
                let iterations = s.count("iterations")?;
                let batch = s.whole("batch")?;
                let c = s.real("c")?;
                if iterations == 0 || !(c.is_finite() && c >= 0.0) {
                    return Err(Error::field(
                        "uct",
                        "iterations is at least 1, c a number at least 0",
                    ));
                }
                Ok(Box::new(uct::Uct::<R>::new(uct::UctConfig {
                    iterations,
                    c,
                    batch,
                })))
            },
        ),
    ]);
    all.into_iter()
        .filter(|e| searchable || e.names[0] == "random")
        .collect()
}

/// A forward-model game's bots, as `playtune games` lists them: names, one line each,
/// settings with defaults.
pub fn bots(searchable: bool) -> Vec<(&'static str, &'static str, Vec<Setting>)> {
    entries::<Never>(searchable)
        .into_iter()
        .map(|e| (e.names[0], e.about, e.settings))
        .collect()
}

/// Whether `name` is one of the forward-model bots.
pub(crate) fn is_bot(name: &str) -> bool {
    name.eq_ignore_ascii_case("uct")
        || Generic::ALL
            .iter()
            .any(|g| g.name().eq_ignore_ascii_case(name))
}

/// The ladder playtune builds for a forward-model game with none of its own: random,
/// one-step look-ahead, then MCTS (information-set MCTS where information is hidden)
/// at budgets growing by a factor of 8.
pub fn default_ladder(hidden: bool, searchable: bool) -> Vec<String> {
    if !searchable {
        return vec!["random".into()];
    }
    let search = if hidden { "ismcts" } else { "mcts" };
    vec![
        "random".into(),
        "osla".into(),
        format!("{search}(iterations=16)"),
        format!("{search}(iterations=128)"),
    ]
}

/// Why a game that hides information gets no search bot without a resampler.
pub(crate) const NO_RESAMPLER: &str = "the game hides information and gives no resampler (`resample_from_infostate`, or the `resample` operation): a search bot would read the true state, so only `random` plays it";

/// A spec naming a search bot of a game that cannot be searched fairly, refused with
/// the reason.
fn refuse_unsearchable(game: &str, parsed: &AgentSpec, searchable: bool) -> Result<(), Error> {
    if !searchable && parsed.name != "random" && is_bot(&parsed.name) {
        return Err(Error::Spec {
            spec: parsed.to_string(),
            why: format!("game `{game}`: {NO_RESAMPLER}"),
        });
    }
    Ok(())
}

/// Checks `spec` as a forward-model bot: its name and settings.
pub(crate) fn check_spec(game: &str, spec: &AgentSpec, searchable: bool) -> Result<(), Error> {
    refuse_unsearchable(game, spec, searchable)?;
    build_agent(
        game,
        &entries::<Never>(searchable),
        spec,
        None,
        &no_settings(),
    )?;
    Ok(())
}

/// Why a match over a game's rules, or a bot's move outside one, could not be played.
#[derive(Debug, thiserror::Error)]
pub enum ForwardError {
    /// A bot spec that does not build for this game: an unknown bot or setting, or a
    /// search bot for a game it cannot search fairly.
    #[error(transparent)]
    Bot(#[from] Error),
    /// A lineup that does not fill the game's seats.
    #[error("{given} seats given for a game of {players} players")]
    Seats {
        /// The bots given.
        given: usize,
        /// The game's seats.
        players: usize,
    },
    /// A bot for a seat the game does not have.
    #[error("seat {seat}: the game has seats 0 to {last}")]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// The game's last seat.
        last: usize,
    },
    /// A call to the rules failed, outside a match's play.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The match failed: its first failure (a call to the rules, with what was asked,
    /// or a search that moved the state it was given).
    #[error("{0}")]
    Failed(String),
    /// The play loop refused a move or a game: the harness's reason.
    #[error(transparent)]
    Play(Error),
    /// A state given to a bot outside a match that is not its seat's move.
    #[error("{0}")]
    NotItsTurn(String),
}

impl From<String> for ForwardError {
    fn from(why: String) -> Self {
        ForwardError::Failed(why)
    }
}

/// One match's seats and seed, for [`play`].
pub struct Lineup<'a> {
    /// The agent spec in each seat, seat 0 first, parsed where it was given.
    pub seats: &'a [AgentSpec],
    /// The match's seed: each bot's generator comes from it.
    pub seed: u64,
    /// Whether the report keeps each state and move as text ([`MatchReport::frames`]).
    pub show: bool,
}

/// How a forward-model game is set up for one match.
pub struct Setup {
    /// Seats a match has.
    pub players: usize,
    /// Whether the game hides information from its players.
    pub hidden: bool,
    /// Whether the game resamples (search bots are offered).
    pub searchable: bool,
    /// A match that reaches this many moves ends by the cap.
    pub max_steps: u32,
    /// The names of the figures the game declares ([`Rules::features`]): a match
    /// that reports another is refused.
    pub features: Vec<String>,
}

/// Plays one match of `rules` from `initial` (where it stands: `node`), the agents
/// in `lineup`'s seats built by the registry, and reports it as the match protocol
/// does: scores are the returns, winners the seats with the highest return (none when
/// the cap ended it), length the moves played (chance outcomes not counted), the
/// trace every seat's score before each move and at the end (the game's heuristic
/// where it gives one, else 0, until the returns), the features the game reports of
/// the final state, and where `lineup.show`, each state and move as text.
pub fn play<R: Rules>(
    game: &str,
    rules: Arc<R>,
    initial: (R::State, Node),
    setup: &Setup,
    lineup: &Lineup,
) -> Result<MatchReport, ForwardError> {
    if lineup.seats.len() != setup.players {
        return Err(ForwardError::Seats {
            given: lineup.seats.len(),
            players: setup.players,
        });
    }
    let shared = Arc::new(Shared {
        players: setup.players,
        hidden: setup.hidden,
        max_steps: setup.max_steps,
        error: Mutex::new(None),
    });
    let entries = entries::<R>(setup.searchable);
    let mut agents: Vec<Box<dyn Agent<FmState<R>>>> = Vec::new();
    for spec in lineup.seats {
        refuse_unsearchable(game, spec, setup.searchable)?;
        agents.push(build_agent(game, &entries, spec, None, &no_settings())?);
    }
    let chance = rng_from_seed(derive_seed(lineup.seed, &[STATE]));
    let state = FmState::new(rules.clone(), shared.clone(), initial.0, initial.1, chance);
    let mut refs: Vec<&mut dyn Agent<FmState<R>>> =
        agents.iter_mut().map(|a| a.as_mut() as _).collect();
    let seats: Vec<usize> = (0..setup.players).collect();
    let row = |s: &FmState<R>| -> Vec<f64> { (0..setup.players).map(|p| s.score(p)).collect() };
    let mut trace = Vec::new();
    let mut frames = Vec::new();
    let end = playtune_harness::play::play(
        state,
        &mut refs,
        &seats,
        AGENTS,
        lineup.seed,
        &mut |s, joint| {
            trace.push(row(s));
            if lineup.show {
                frames.push(s.frame(joint));
            }
        },
    )
    .map_err(ForwardError::Play)?;
    if let Some(why) = shared.failure() {
        return Err(why.into());
    }
    let by_rules = matches!(end.node, Node::Over(_));
    let scores: Vec<f64> = row(&end);
    trace.push(scores.clone());
    if lineup.show {
        frames.push(end.frame(&[]));
    }
    let features = match end.live() {
        Some(s) => declared(rules.features(s)?, &setup.features, setup.players)?,
        None => Vec::new(),
    };
    if let Some(why) = shared.failure() {
        return Err(why.into());
    }
    let winners = if by_rules {
        end.winners()
            .iter()
            .enumerate()
            .filter(|(_, w)| **w)
            .map(|(s, _)| s)
            .collect()
    } else {
        Vec::new()
    };
    Ok(MatchReport {
        scores,
        winners,
        length: end.steps,
        by_rules,
        trace: Some(trace),
        features,
        frames,
    })
}

/// The features a game reported, checked against those it declares: each a declared
/// name, once, with one finite number a seat.
pub(crate) fn declared(
    reported: Vec<(String, Vec<f64>)>,
    declared: &[String],
    players: usize,
) -> Result<Vec<(String, Vec<f64>)>, String> {
    for (i, (name, values)) in reported.iter().enumerate() {
        if !declared.contains(name) {
            return Err(format!(
                "features: the game reports `{}`, which it does not declare (it declares: {})",
                playtune_optim::eval::printable(name),
                if declared.is_empty() {
                    "none".to_string()
                } else {
                    declared.join(", ")
                }
            ));
        }
        if reported[..i].iter().any(|(n, _)| n == name) {
            return Err(format!("features: `{name}` is reported twice"));
        }
        if values.len() != players || values.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "features: `{name}` is {values:?}: give one finite number a seat ({players})"
            ));
        }
    }
    Ok(reported)
}

/// One seat's playtune bot outside a match: give it a state, it gives a move. Its
/// generator comes from the seed and the seat alone, so the same seed and the same
/// states give the same moves.
pub struct ForwardBot<R: Rules> {
    rules: Arc<R>,
    shared: Arc<Shared>,
    agent: Box<dyn Agent<FmState<R>>>,
    seat: usize,
    rng: Rng,
    observe: Rng,
    chance: Rng,
}

impl<R: Rules> ForwardBot<R> {
    /// The bot `spec` for `seat`, its generators from `seed`.
    pub fn new(
        game: &str,
        rules: Arc<R>,
        setup: &Setup,
        spec: &AgentSpec,
        seat: usize,
        seed: u64,
    ) -> Result<ForwardBot<R>, ForwardError> {
        if seat >= setup.players {
            return Err(ForwardError::NoSuchSeat {
                seat,
                last: setup.players.saturating_sub(1),
            });
        }
        refuse_unsearchable(game, spec, setup.searchable)?;
        let agent = build_agent(
            game,
            &entries::<R>(setup.searchable),
            spec,
            None,
            &no_settings(),
        )?;
        Ok(ForwardBot {
            rules,
            shared: Arc::new(Shared {
                players: setup.players,
                hidden: setup.hidden,
                max_steps: setup.max_steps,
                error: Mutex::new(None),
            }),
            agent,
            seat,
            rng: rng_from_seed(derive_seed(seed, &[AGENTS, seat as u64])),
            observe: rng_from_seed(derive_seed(seed, &[OBSERVE, seat as u64])),
            chance: rng_from_seed(derive_seed(seed, &[STATE, seat as u64])),
        })
    }

    /// The bot's move in `state` (a copy is searched; `state` is not changed).
    pub fn step(&mut self, state: &R::State) -> Result<i64, ForwardError> {
        let node = self.rules.node(state)?;
        match &node {
            Node::Player { player, legal } => {
                if *player != self.seat {
                    return Err(ForwardError::NotItsTurn(format!(
                        "it is seat {player}'s move, and this bot plays seat {}",
                        self.seat
                    )));
                }
                if legal.is_empty() {
                    return Err(ForwardError::NotItsTurn(
                        "the state offers no legal move".into(),
                    ));
                }
            }
            Node::Chance(_) => {
                return Err(ForwardError::NotItsTurn(
                    "the state is a chance node".into(),
                ));
            }
            Node::Over(_) => {
                return Err(ForwardError::NotItsTurn("the game is over".into()));
            }
        }
        *self.shared.error.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let node_before = node.clone();
        let copy = self.rules.copy(state)?;
        let root = FmState::new(
            self.rules.clone(),
            self.shared.clone(),
            copy,
            node,
            self.chance.clone(),
        );
        let action = if self.agent.simulates() {
            let view = root.observe(self.seat, &mut self.observe);
            if let Some(why) = view.failure() {
                return Err(why.into());
            }
            self.agent.act(&view, self.seat, &mut self.rng)
        } else {
            self.agent.act(&root, self.seat, &mut self.rng)
        };
        if let Some(why) = self.shared.failure() {
            return Err(why.into());
        }
        // The caller's state is left as it was, or the reason it was not.
        if self.rules.copies_may_share() {
            let now = self.rules.node(state)?;
            if now != node_before {
                return Err(ForwardError::Failed(format!(
                    "the search changed the state it was given (it stood at {node_before:?}, now at {now:?}): clone() must copy every part a move changes, not share it"
                )));
            }
        }
        Ok(action)
    }
}

/// The game settings an agent's builder reads: a forward-model game's bots read none.
fn no_settings() -> Values {
    Values::new("game", &[], &[]).expect("no settings, none given")
}

/// A type that holds no state, for listing the bots without a game.
struct Never;

impl Rules for Never {
    type State = ();
    fn players(&self) -> usize {
        0
    }
    fn node(&self, _: &()) -> Result<Node, RulesError> {
        Err(RulesError::Game("no game".into()))
    }
    fn copy(&self, _: &()) -> Result<(), RulesError> {
        Ok(())
    }
    fn apply(&self, _: &mut (), _: i64) -> Result<Node, RulesError> {
        Err(RulesError::Game("no game".into()))
    }
    fn resample(&self, _: &(), _: usize, _: u64) -> Result<((), Node), RulesError> {
        Err(RulesError::Game("no game".into()))
    }
}

#[cfg(test)]
mod node_tests {
    use super::*;

    /// One check of where a state stands, for every place that holds states (issue 74,
    /// item 4): each way of being no place to search is its own error.
    #[test]
    fn where_a_state_stands_is_checked_in_one_place() {
        let ok = Node::Player {
            player: 1,
            legal: vec![3],
        };
        assert_eq!(ok.clone().checked(2), Ok(ok));
        let cases = [
            (
                Node::Player {
                    player: 2,
                    legal: vec![0],
                },
                NodeError::NoSuchSeat { player: 2, last: 1 },
            ),
            (
                Node::Player {
                    player: 0,
                    legal: vec![],
                },
                NodeError::NoMove { player: 0 },
            ),
            (
                Node::Chance(vec![(0, 0.0)]),
                NodeError::Chance {
                    outcomes: vec![(0, 0.0)],
                },
            ),
            (
                Node::Over(vec![1.0]),
                NodeError::Returns {
                    returns: vec![1.0],
                    players: 2,
                },
            ),
            (
                Node::Over(vec![f64::NAN, 0.0]),
                NodeError::Returns {
                    returns: vec![f64::NAN, 0.0],
                    players: 2,
                },
            ),
        ];
        for (node, expected) in cases {
            let got = node.clone().checked(2).unwrap_err();
            // NaN is not equal to itself: compare the words.
            assert_eq!(got.to_string(), expected.to_string(), "{node:?}");
        }
    }
}
