//! The match protocol's forward-model operations: a game process in any language
//! holds the states, playtune's agents ask it one operation a line.
//!
//! Each request names an operation (`op`) and carries the id its reply gives back;
//! `drop` (optional, on any request) lists states playtune no longer needs:
//!
//! | request | what the game does |
//! | --- | --- |
//! | `{"id": 1, "op": "new", "settings": {...}, "seed": 7}` | makes the initial state |
//! | `{"id": 2, "op": "apply", "state": 0, "action": 4}` | applies a move or a chance outcome, in place |
//! | `{"id": 3, "op": "clone", "state": 0}` | copies a state |
//! | `{"id": 4, "op": "playout", "state": 1, "seed": 9, "max_steps": 200}` | plays uniformly random moves (chance by its probabilities), in place, until the end or `max_steps` |
//! | `{"id": 5, "op": "resample", "state": 0, "player": 1, "seed": 3}` | a new state that `player` cannot tell from this one (hidden information only) |
//! | `{"id": 6, "op": "drop", "drop": [1, 2]}` | forgets states |
//!
//! Every reply that makes or changes a state says where it stands:
//! `{"id": 2, "state": 0, "player": 1, "legal": [0, 3, 5]}` (a player moves),
//! `{"id": 2, "state": 0, "player": "chance", "outcomes": [[1, 0.5], [2, 0.5]]}`, or
//! `{"id": 2, "state": 0, "player": "over", "returns": [1, -1]}`; `playout` adds
//! `"steps"`, and an optional `"heuristic": [...]` gives each seat's standing in an
//! unfinished state. A finished state's reply may carry `"features": {"name": [...]}`,
//! the game's own per-seat figures of the match (declared in its description).
//! `{"id": 2, "error": "why"}` fails the match.
//!
//! Version 2 (`"protocol": 2` in `new`) adds two optional operations. `{"id": 8, "op":
//! "expand", "items": [{"state": 3, "action": 4, "seed": 9, "max_steps": 200}, ...]}`
//! asks a batch of a search's expansions at once: for each item, a new state, a copy of
//! `state` with `action` applied, and a uniformly random playout of a further copy of
//! it; the reply `{"id": 8, "items": [{"state": 12, "player": 1, "legal": [...],
//! "playout": {"player": "over", "returns": [1, -1], "steps": 3}}, ...]}` says where
//! each new state stands and where its playout ended (none where it is over). A game
//! that answers `expand` with an error is asked one operation at a time.
//!
//! The other optional operation shows a match: `{"id": 7, "op": "show", "state": 0}` is
//! answered `{"id": 7, "text": "..."}`, the state in the game's own text form; a game
//! that answers it with an error shows the moves it offers instead.

// One reply to an operation: the state it names, where that stands, and the rest.
use super::wire::Read as Reply;
use super::{Node, Rules, RulesError};
use playtune_optim::eval::{WorkerError, WorkerSession, reply_object};
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The states playtune holds in one game process: those it holds now, and those it
/// let go of that the process is yet to be told of.
#[derive(Default)]
struct Held {
    live: HashSet<u64>,
    dropped: Vec<u64>,
}

/// A state held by the game process: its number there. Dropping it tells the process
/// to forget it, with the next request.
pub(crate) struct Handle {
    id: u64,
    heuristic: Option<Vec<f64>>,
    /// The figures its last reply gave (a finished state's).
    features: Vec<(String, Vec<f64>)>,
    held: Arc<Mutex<Held>>,
}

impl Drop for Handle {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.live.remove(&self.id);
        held.dropped.push(self.id);
    }
}

/// One game process, held for one match, as [`Rules`].
pub(crate) struct ProcessRules {
    session: Mutex<WorkerSession>,
    players: usize,
    /// The features the description declares.
    features: Vec<String>,
    held: Arc<Mutex<Held>>,
    /// Whether the game answered `show` with an error: it is not asked again.
    no_show: std::sync::atomic::AtomicBool,
    /// Whether the game answered `expand` with an error (a game written to the first
    /// version of the operations): its expansions are asked one operation at a time.
    no_expand: std::sync::atomic::AtomicBool,
}

fn number_list(v: &Value, what: &str) -> Result<Vec<f64>, String> {
    v.as_array()
        .ok_or_else(|| format!("`{what}` is not a list"))?
        .iter()
        .map(|x| {
            x.as_f64()
                .filter(|f| f.is_finite())
                .ok_or_else(|| format!("`{what}` holds {x}, not a finite number"))
        })
        .collect()
}

fn action(x: &Value, what: &str) -> Result<i64, String> {
    x.as_i64()
        .ok_or_else(|| format!("`{what}` holds {x}, not a whole number (a move is an integer)"))
}

/// Where a state stands, from a reply's `player` and what goes with it, as read: the
/// checks of what it says are [`Node::checked`]'s.
fn node(obj: &Map<String, Value>) -> Result<Option<Node>, String> {
    let Some(p) = obj.get("player") else {
        return Ok(None);
    };
    match p {
        Value::String(s) if s == "over" => {
            let returns = number_list(obj.get("returns").unwrap_or(&Value::Null), "returns")?;
            Ok(Some(Node::Over(returns)))
        }
        Value::String(s) if s == "chance" => {
            let outcomes = obj
                .get("outcomes")
                .and_then(Value::as_array)
                .ok_or("a chance node's reply needs `outcomes`, [[move, probability], ...]")?;
            let mut out = Vec::with_capacity(outcomes.len());
            for o in outcomes {
                let pair = o
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| format!("outcome {o} is not [move, probability]"))?;
                let prob = pair[1]
                    .as_f64()
                    .filter(|p| p.is_finite() && *p >= 0.0)
                    .ok_or_else(|| format!("outcome {o}: the probability is not a number >= 0"))?;
                out.push((action(&pair[0], "outcomes")?, prob));
            }
            Ok(Some(Node::Chance(out)))
        }
        Value::Number(n) => {
            let player = n
                .as_u64()
                .and_then(|x| usize::try_from(x).ok())
                .ok_or_else(|| {
                    format!("`player` is {n}: give a seat number, \"chance\" or \"over\"")
                })?;
            let legal = obj
                .get("legal")
                .and_then(Value::as_array)
                .ok_or("a player's turn needs `legal`, the moves it may make")?
                .iter()
                .map(|x| action(x, "legal"))
                .collect::<Result<Vec<i64>, String>>()?;
            Ok(Some(Node::Player { player, legal }))
        }
        other => Err(format!(
            "`player` is {other}: give a seat number, \"chance\" or \"over\""
        )),
    }
}

/// The fields of a reply that name a state and where it stands (`id` and `error` read
/// already): every reply's, and each of an `expand` reply's `items` and its `playout`.
fn parse_reply(
    obj: &Map<String, Value>,
    players: usize,
    declared: &[String],
) -> Result<Reply, String> {
    let state = match obj.get("state") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or_else(|| format!("`state` is {v}, not a state number"))?,
        ),
    };
    let node = node(obj)?
        .map(|n| n.checked(players))
        .transpose()
        .map_err(|e| e.to_string())?;
    let steps = match obj.get("steps") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .ok_or_else(|| format!("`steps` is {v}, not a count"))?,
        ),
    };
    let heuristic = match obj.get("heuristic") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let h = number_list(v, "heuristic")?;
            if h.len() != players {
                return Err(format!(
                    "`heuristic` has {} value(s) for a game of {players} players: give one a seat",
                    h.len()
                ));
            }
            Some(h)
        }
    };
    let features = match obj.get("features") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(m)) => {
            let reported = m
                .iter()
                .map(|(name, v)| Ok((name.clone(), number_list(v, name)?)))
                .collect::<Result<Vec<_>, String>>()?;
            super::declared(reported, declared, players)?
        }
        Some(v) => {
            return Err(format!(
                "`features` is {v}: give an object of per-seat lists"
            ));
        }
    };
    let text = match obj.get("text") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(v) => return Err(format!("`text` is {v}, not a text")),
    };
    Ok(Reply {
        state,
        node,
        steps,
        heuristic,
        features,
        text,
        items: Vec::new(),
    })
}

/// An `expand` reply's `items`: each a state reply with its `playout`'s end.
fn parse_items(
    items: &Value,
    players: usize,
    declared: &[String],
) -> Result<Vec<(Reply, Option<Reply>)>, String> {
    let list = items
        .as_array()
        .ok_or_else(|| format!("`items` is {items}, not a list"))?;
    list.iter()
        .enumerate()
        .map(|(k, item)| {
            let obj = item
                .as_object()
                .ok_or_else(|| format!("items[{k}] is {item}, not an object"))?;
            let reply =
                parse_reply(obj, players, declared).map_err(|e| format!("items[{k}]: {e}"))?;
            let playout = match obj.get("playout") {
                None | Some(Value::Null) => None,
                Some(Value::Object(p)) => Some(
                    parse_reply(p, players, declared)
                        .map_err(|e| format!("items[{k}].playout: {e}"))?,
                ),
                Some(v) => return Err(format!("items[{k}].playout is {v}, not an object")),
            };
            Ok((reply, playout))
        })
        .collect()
}

/// `line` read as the reply to request `id`, by the general reader: any reply the
/// protocol allows, and for any other the reason it does not. `Ok(Err(why))` is the
/// game's own error reply.
pub(super) fn read_generally(
    line: &str,
    id: u64,
    players: usize,
    declared: &[String],
) -> Result<Result<Reply, String>, String> {
    let obj = reply_object(line, "reply").map_err(|e| e.to_string())?;
    if obj.get("id").and_then(Value::as_u64) != Some(id) {
        return Err(format!(
            "it carries id {}, not {id}",
            obj.get("id").unwrap_or(&Value::Null)
        ));
    }
    if let Some(e) = obj.get("error") {
        let why = e.as_str().map_or_else(|| e.to_string(), str::to_string);
        // The game's own words, printed: without a terminal's controls.
        return Ok(Err(playtune_optim::eval::printable(&why)));
    }
    let mut reply = parse_reply(&obj, players, declared)?;
    if let Some(items) = obj.get("items") {
        reply.items = parse_items(items, players, declared)?;
    }
    Ok(Ok(reply))
}

/// A reply that breaks the protocol, as a [`RulesError`].
fn answer(why: impl Into<String>) -> RulesError {
    RulesError::Answer(why.into())
}

/// A failed exchange, as a [`RulesError`]: the game's own error reply, or the process
/// lost (it died, timed out, broke the protocol or could not start).
fn failure(e: WorkerError, what: &str) -> RulesError {
    match e {
        WorkerError::Refused(_) => RulesError::Game(crate::worker_failure(e, what)),
        e => RulesError::Lost(crate::worker_failure(e, what)),
    }
}

impl ProcessRules {
    /// Rules asked of the worker `session` holds, for a game of `players` seats.
    pub(crate) fn new(session: WorkerSession, players: usize, features: &[String]) -> ProcessRules {
        ProcessRules {
            session: Mutex::new(session),
            players,
            features: features.to_vec(),
            held: Arc::new(Mutex::new(Held::default())),
            no_show: std::sync::atomic::AtomicBool::new(false),
            no_expand: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn ask(&self, op: &str, fields: &str) -> Result<Reply, RulesError> {
        self.exchange(op, fields)
            .map_err(|e| failure(e, &format!("`{op}`")))
    }

    /// One operation, its fields (`,"name":value` each) written after the request's
    /// `id` and `op`; a reply with an error is [`WorkerError::Refused`].
    fn exchange(&self, op: &str, fields: &str) -> Result<Reply, WorkerError> {
        let dropped: Vec<u64> =
            std::mem::take(&mut self.held.lock().unwrap_or_else(|e| e.into_inner()).dropped);
        let players = self.players;
        let declared = &self.features;
        let mut session = self.session.lock().unwrap_or_else(|e| e.into_inner());
        session.call(
            |id| {
                use std::fmt::Write;
                // One request a line: the game reads up to the newline.
                let mut text = String::with_capacity(32 + fields.len() + 8 * dropped.len());
                let _ = write!(text, "{{\"id\":{id},\"op\":\"{op}\"");
                if !dropped.is_empty() {
                    let _ = write!(text, ",\"drop\":{}", json!(dropped));
                }
                text.push_str(fields);
                text.push_str("}\n");
                text
            },
            |id, line| {
                if let Some(reply) = super::wire::read(line, id, players, declared) {
                    return Ok(Ok(reply));
                }
                read_generally(line, id, players, declared)
                    .map_err(|e| format!("its reply to `{op}`: {e}"))
            },
        )
    }

    /// Tells the game to forget the states dropped since the last request (at the end
    /// of a match, so that a long-lived game process holds none of its states).
    pub(crate) fn flush(&self) -> Result<(), RulesError> {
        if self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .dropped
            .is_empty()
        {
            return Ok(());
        }
        self.ask("drop", "").map(|_| ())
    }

    fn handle(&self, reply: &Reply, op: &str) -> Result<(Handle, Node), RulesError> {
        let id = reply
            .state
            .ok_or_else(|| answer(format!("its reply to `{op}` names no `state`")))?;
        let node = reply
            .node
            .clone()
            .ok_or_else(|| answer(format!("its reply to `{op}` has no `player`")))?;
        if !self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .live
            .insert(id)
        {
            // Two handles on one state: a search would play on the match's own.
            return Err(answer(format!(
                "its reply to `{op}` names state {id}, which playtune holds already: a {op} is a new state, with a number of its own"
            )));
        }
        Ok((
            Handle {
                id,
                heuristic: reply.heuristic.clone(),
                features: reply.features.clone(),
                held: self.held.clone(),
            },
            node,
        ))
    }

    /// The initial state for `settings`, from `seed`.
    pub(crate) fn new_state(
        &self,
        settings: &Map<String, Value>,
        seed: u64,
    ) -> Result<(Handle, Node), RulesError> {
        // The operations' version: 2 adds `expand` and `show`, each optional. The
        // match's seed goes whole: a game reads it as the replay it makes.
        let f = format!(
            ",\"settings\":{},\"seed\":{seed},\"protocol\":2",
            Value::Object(settings.clone())
        );
        let reply = self.ask("new", &f)?;
        self.handle(&reply, "new")
    }

    fn state_field(state: &Handle) -> String {
        format!(",\"state\":{}", state.id)
    }
}

impl Rules for ProcessRules {
    type State = Handle;

    fn players(&self) -> usize {
        self.players
    }

    fn node(&self, state: &Handle) -> Result<Node, RulesError> {
        // Asked only of a bot outside a match; a copy says where its state stands.
        let reply = self.ask("clone", &Self::state_field(state))?;
        Ok(self.handle(&reply, "clone")?.1)
    }

    fn copy(&self, state: &Handle) -> Result<Handle, RulesError> {
        let reply = self.ask("clone", &Self::state_field(state))?;
        let mut h = self.handle(&reply, "clone")?.0;
        h.heuristic = state.heuristic.clone();
        h.features = state.features.clone();
        Ok(h)
    }

    fn apply(&self, state: &mut Handle, action: i64) -> Result<Node, RulesError> {
        let f = format!(",\"state\":{},\"action\":{action}", state.id);
        let reply = self.ask("apply", &f)?;
        state.heuristic = reply.heuristic.clone();
        state.features = reply.features.clone();
        reply
            .node
            .ok_or_else(|| answer("its reply to `apply` has no `player`"))
    }

    fn resample(
        &self,
        state: &Handle,
        player: usize,
        seed: u64,
    ) -> Result<(Handle, Node), RulesError> {
        let f = format!(
            ",\"state\":{},\"player\":{player},\"seed\":{}",
            state.id,
            super::wire::seed(seed)
        );
        let reply = self.ask("resample", &f)?;
        self.handle(&reply, "resample")
    }

    fn heuristic(&self, state: &Handle, player: usize) -> Result<Option<f64>, RulesError> {
        // Its length was checked with the reply.
        Ok(state
            .heuristic
            .as_ref()
            .and_then(|h| h.get(player).copied()))
    }

    fn remote(&self) -> bool {
        true
    }

    fn expand(
        &self,
        batch: &[super::Expansion<'_, Handle>],
    ) -> Result<Vec<super::Expanded<Handle>>, RulesError> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.no_expand.load(Relaxed) {
            return super::expand_each(self, batch);
        }
        let mut f = String::with_capacity(16 + 64 * batch.len());
        f.push_str(",\"items\":[");
        for (k, e) in batch.iter().enumerate() {
            use std::fmt::Write;
            let _ = write!(
                f,
                "{}{{\"state\":{},\"action\":{},\"seed\":{},\"max_steps\":{}}}",
                if k > 0 { "," } else { "" },
                e.parent.id,
                e.action,
                super::wire::seed(e.seed),
                e.max_steps
            );
        }
        f.push(']');
        let reply = match self.exchange("expand", &f) {
            Ok(r) => r,
            // A game that does not know the operation: one at a time from now on.
            Err(WorkerError::Refused(_)) => {
                self.no_expand.store(true, Relaxed);
                return super::expand_each(self, batch);
            }
            Err(e) => return Err(failure(e, "`expand`")),
        };
        if reply.items.len() != batch.len() {
            return Err(answer(format!(
                "its reply to `expand` has {} items for {} expansions",
                reply.items.len(),
                batch.len()
            )));
        }
        reply
            .items
            .into_iter()
            .zip(batch)
            .map(|((item, playout), e)| {
                let (state, node) = self.handle(&item, "expand")?;
                let playout = match playout {
                    _ if matches!(node, Node::Over(_)) => None,
                    None => {
                        return Err(answer(format!(
                            "its reply to `expand`: state {} is not over and has no `playout`",
                            state.id
                        )));
                    }
                    Some(p) => {
                        let end = p.node.ok_or_else(|| {
                            answer("its reply to `expand`: a `playout` has no `player`")
                        })?;
                        let steps = p.steps.ok_or_else(|| {
                            answer("its reply to `expand`: a `playout` has no `steps`")
                        })?;
                        if steps > e.max_steps {
                            return Err(answer(format!(
                                "its reply to `expand`: a playout of {steps} steps, more than max_steps {}",
                                e.max_steps
                            )));
                        }
                        Some(super::Playout {
                            steps,
                            end,
                            heuristic: p.heuristic,
                        })
                    }
                };
                // A game process keeps every new state: it costs it a copy, not a
                // request.
                Ok(super::Expanded {
                    state: Some(state),
                    node,
                    playout,
                })
            })
            .collect()
    }

    fn features(&self, state: &Handle) -> Result<Vec<(String, Vec<f64>)>, RulesError> {
        // Checked against the declared names with the reply.
        Ok(state.features.clone())
    }

    fn show(&self, state: &Handle) -> Result<Option<String>, RulesError> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.no_show.load(Relaxed) {
            return Ok(None);
        }
        match self.exchange("show", &Self::state_field(state)) {
            Ok(reply) => Ok(reply.text),
            // The operation is optional: a game that does not know it says so, and
            // its match is shown by the moves it offers.
            Err(WorkerError::Refused(_)) => {
                self.no_show.store(true, Relaxed);
                Ok(None)
            }
            Err(e) => Err(failure(e, "`show`")),
        }
    }

    fn playout(
        &self,
        state: &mut Handle,
        max_steps: u32,
        seed: u64,
    ) -> Result<Option<(u32, Node)>, RulesError> {
        let f = format!(
            ",\"state\":{},\"seed\":{},\"max_steps\":{max_steps}",
            state.id,
            super::wire::seed(seed)
        );
        let reply = self.ask("playout", &f)?;
        state.heuristic = reply.heuristic.clone();
        state.features = reply.features.clone();
        let node = reply
            .node
            .ok_or_else(|| answer("its reply to `playout` has no `player`"))?;
        let steps = reply
            .steps
            .ok_or_else(|| answer("its reply to `playout` has no `steps`"))?;
        if steps > max_steps {
            return Err(answer(format!(
                "its reply to `playout` played {steps} steps, more than max_steps {max_steps}"
            )));
        }
        Ok(Some((steps, node)))
    }
}
