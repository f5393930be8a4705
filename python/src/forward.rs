//! Games that bring only their rules, in Python: states with OpenSpiel's State API
//! (`current_player`, `legal_actions`, `apply_action`, `is_terminal`, `returns`,
//! `is_chance_node`, `chance_outcomes`, `clone`, and for hidden information
//! `resample_from_infostate`), searched by playtune's bots in Rust. An OpenSpiel game
//! written in Python plugs in unchanged, and so does a plain class with those methods.

use playtune::games::external::forward::{
    self, ForwardBot, Lineup, Node, Rules, RulesError, Setup,
};
use playtune::rng::rng_from_seed;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyDict, PyTuple};
use rand::RngExt;
use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock};

/// OpenSpiel's player ids for a chance node and a finished game.
const CHANCE: i64 = -1;
const TERMINAL: i64 = -4;

thread_local! {
    /// A KeyboardInterrupt or SystemExit raised by the game during a search: the
    /// search ends and it is raised again to the caller, not taken for a failed match.
    static RAISED: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// A Python exception as the reason a match failed; a `BaseException` that is not an
/// `Exception` is kept to raise again.
fn failed(py: Python<'_>, what: &str, e: PyErr) -> RulesError {
    let why = format!(
        "{what} raised {}",
        e.value(py)
            .repr()
            .map_or_else(|_| "an exception".to_string(), |r| r.to_string())
    );
    if !e.is_instance_of::<PyException>(py) {
        RAISED.with(|r| {
            r.borrow_mut().get_or_insert(e);
        });
    }
    RulesError::Game(why)
}

/// A return value that breaks the rules' contract, as a [`RulesError`].
fn answer(why: impl Into<String>) -> RulesError {
    RulesError::Answer(why.into())
}

/// The exception to raise instead of a failed match's message, if one was kept.
fn raised() -> Option<PyErr> {
    RAISED.with(|r| r.borrow_mut().take())
}

/// Rules held by Python objects.
pub(crate) struct PyRules {
    players: usize,
    /// A function `(state, player, seed) -> state` that re-samples (the OpenSpiel
    /// adapter's sampler, for games that give no `resample_from_infostate`); else the
    /// state's own method.
    resampler: Option<Py<PyAny>>,
    /// Whether states have `heuristic_value(player)`.
    heuristic: bool,
    /// Whether states play their own playouts, `playout(seed, max_steps)`: one call a
    /// playout instead of three a move.
    playout: bool,
    /// Whether a player's legal moves are asked of the state's own Python
    /// `_legal_actions(player)` (see [`own_legal_actions`]); known from the first state.
    own_legal: OnceLock<bool>,
}

/// Whether `state` is a game written against pyspiel's Python API: its class gives
/// `_legal_actions(player)` in Python and leaves `legal_actions()` to pyspiel's C++
/// `State`, which answers it by calling back into Python for `current_player()` about
/// three times before `_legal_actions(player)` (2.8 of its 5.0 µs on OpenSpiel's
/// `python_tic_tac_toe`, docs/benchmarks.md). For a seat's turn, which the search
/// knows already, the answer is `_legal_actions(player)`'s.
fn own_legal_actions(state: &Bound<'_, PyAny>) -> bool {
    let py = state.py();
    let Ok(function) = py.import("types").and_then(|t| t.getattr("FunctionType")) else {
        return false;
    };
    let class = state.get_type();
    let python = |name: &str| {
        class
            .getattr(name)
            .is_ok_and(|m| m.is_instance(&function).unwrap_or(false))
    };
    python("_legal_actions") && !python("legal_actions")
}

impl PyRules {
    fn node_of(&self, s: &Bound<'_, PyAny>) -> Result<Node, RulesError> {
        let py = s.py();
        let player: i64 = s
            .call_method0(pyo3::intern!(py, "current_player"))
            .and_then(|p| p.extract())
            .map_err(|e| failed(py, "current_player()", e))?;
        if player >= 0 {
            let player = usize::try_from(player).unwrap_or(usize::MAX);
            if player >= self.players {
                // Its legal moves are not asked for: the seat is wrong already.
                return Err(answer(format!(
                    "current_player(): {}",
                    forward::NodeError::NoSuchSeat {
                        player,
                        last: self.players.saturating_sub(1)
                    }
                )));
            }
            let own = *self.own_legal.get_or_init(|| own_legal_actions(s));
            // pyspiel's `legal_actions()` gives what `_legal_actions(player)` gives; any
            // failure of the direct call is met again, and reported, through it.
            let direct = own
                .then(|| {
                    s.call_method1(pyo3::intern!(py, "_legal_actions"), (player,))
                        .and_then(|l| l.extract::<Vec<i64>>())
                        .ok()
                })
                .flatten();
            let legal: Vec<i64> = match direct {
                Some(legal) => legal,
                None => s
                    .call_method0(pyo3::intern!(py, "legal_actions"))
                    .and_then(|l| l.extract())
                    .map_err(|e| failed(py, "legal_actions()", e))?,
            };
            return Node::Player { player, legal }
                .checked(self.players)
                .map_err(|why| answer(format!("legal_actions(): {why}: a finished game's current_player() is -4, and is_terminal() true")));
        }
        let terminal = player == TERMINAL
            || s.call_method0(pyo3::intern!(py, "is_terminal"))
                .and_then(|t| t.extract::<bool>())
                .map_err(|e| failed(py, "is_terminal()", e))?;
        if terminal {
            let returns: Vec<f64> = s
                .call_method0(pyo3::intern!(py, "returns"))
                .and_then(|r| r.extract())
                .map_err(|e| failed(py, "returns()", e))?;
            return Node::Over(returns)
                .checked(self.players)
                .map_err(|why| answer(format!("returns(): {why}")));
        }
        if player == CHANCE {
            let outcomes: Vec<(i64, f64)> = s
                .call_method0(pyo3::intern!(py, "chance_outcomes"))
                .and_then(|o| o.extract())
                .map_err(|e| failed(py, "chance_outcomes()", e))?;
            return Node::Chance(outcomes)
                .checked(self.players)
                .map_err(|why| answer(format!("chance_outcomes(): {why}")));
        }
        Err(answer(format!(
            "current_player() is {player}: give a seat, -1 for a chance node or -4 once the game is over (simultaneous moves are not searched)"
        )))
    }
}

/// Why the match must end now (see `watch::cut_short`): asked before each call into
/// the game.
fn go_on() -> Result<(), RulesError> {
    crate::watch::cut_short().map_or(Ok(()), |why| Err(RulesError::Lost(why)))
}

impl Rules for PyRules {
    type State = Py<PyAny>;

    fn players(&self) -> usize {
        self.players
    }

    fn node(&self, state: &Py<PyAny>) -> Result<Node, RulesError> {
        go_on()?;
        Python::attach(|py| self.node_of(state.bind(py)))
    }

    fn copy(&self, state: &Py<PyAny>) -> Result<Py<PyAny>, RulesError> {
        go_on()?;
        Python::attach(|py| {
            let s = state.bind(py);
            let copy = s
                .call_method0(pyo3::intern!(py, "clone"))
                .map_err(|e| failed(py, "clone()", e))?;
            if copy.is(s) {
                // A search would play its moves on the match's own state.
                return Err(answer(
                    "clone() returned the state itself: give an independent copy (a new object, every mutable part copied)",
                ));
            }
            Ok(copy.unbind())
        })
    }

    fn apply(&self, state: &mut Py<PyAny>, action: i64) -> Result<Node, RulesError> {
        go_on()?;
        Python::attach(|py| {
            let s = state.bind(py);
            s.call_method1(pyo3::intern!(py, "apply_action"), (action,))
                .map_err(|e| failed(py, "apply_action()", e))?;
            self.node_of(s)
        })
    }

    fn resample(
        &self,
        state: &Py<PyAny>,
        player: usize,
        seed: u64,
    ) -> Result<(Py<PyAny>, Node), RulesError> {
        go_on()?;
        Python::attach(|py| {
            let s = state.bind(py);
            let fresh = match &self.resampler {
                Some(f) => f
                    .bind(py)
                    .call1((s, player, seed))
                    .map_err(|e| failed(py, "the resampler", e))?,
                None => {
                    let rng = Mutex::new(rng_from_seed(seed));
                    let draw = PyCFunction::new_closure(
                        py,
                        None,
                        None,
                        move |_args: &Bound<'_, PyTuple>,
                              _kw: Option<&Bound<'_, PyDict>>|
                              -> PyResult<f64> {
                            Ok(rng
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .random::<f64>())
                        },
                    )
                    .map_err(|e| failed(py, "making the resampler's generator", e))?;
                    s.call_method1(pyo3::intern!(py, "resample_from_infostate"), (player, draw))
                        .map_err(|e| failed(py, "resample_from_infostate()", e))?
                }
            };
            if fresh.is_none() {
                return Err(answer(
                    "the resampler found no state consistent with what the seat has seen",
                ));
            }
            if fresh.is(s) {
                return Err(answer(
                    "the resampler returned the state it was given: give a new state (a clone, what the seat cannot see drawn again)",
                ));
            }
            if !fresh
                .hasattr(pyo3::intern!(py, "current_player"))
                .unwrap_or(false)
            {
                let shown = fresh
                    .repr()
                    .map_or_else(|_| "a value".into(), |r| r.to_string());
                return Err(answer(format!(
                    "the resampler returned {shown}, not a state (an object with current_player(), legal_actions(), ...)"
                )));
            }
            let node = self.node_of(&fresh)?;
            Ok((fresh.unbind(), node))
        })
    }

    fn copies_may_share(&self) -> bool {
        true
    }

    fn features(&self, state: &Py<PyAny>) -> Result<Vec<(String, Vec<f64>)>, RulesError> {
        go_on()?;
        Python::attach(|py| {
            let s = state.bind(py);
            let name = pyo3::intern!(py, "features");
            // A state without the method reports none.
            if !s.hasattr(name).unwrap_or(false) {
                return Ok(Vec::new());
            }
            let reported = s
                .call_method0(name)
                .map_err(|e| failed(py, "features()", e))?;
            let shown = || {
                reported
                    .repr()
                    .map_or_else(|_| "a value".into(), |r| r.to_string())
            };
            let dict = reported.cast::<PyDict>().map_err(|_| {
                answer(format!(
                    "features() returned {}: give a dict of one number a seat by name, {{\"name\": [seat 0's, seat 1's, ...]}}",
                    shown()
                ))
            })?;
            dict.iter()
                .map(|(k, v)| {
                    let k: String = k.extract().map_err(|_| {
                        answer(format!(
                            "features() returned {}: its keys are names",
                            shown()
                        ))
                    })?;
                    let v: Vec<f64> = v.extract().map_err(|_| {
                        answer(format!(
                            "features() returned {}: `{k}` is not a list of numbers, one a seat",
                            shown()
                        ))
                    })?;
                    Ok((k, v))
                })
                .collect()
        })
    }

    fn show(&self, state: &Py<PyAny>) -> Result<Option<String>, RulesError> {
        go_on()?;
        Python::attach(|py| {
            let s = state.bind(py);
            // `object`'s own text says only where the state lies in memory.
            let object = py.get_type::<pyo3::types::PyAny>();
            let own = |method: &Bound<'_, pyo3::types::PyString>| match (
                s.get_type().getattr(method),
                object.getattr(method),
            ) {
                (Ok(mine), Ok(base)) => !mine.is(&base),
                _ => false,
            };
            if !own(pyo3::intern!(py, "__str__")) && !own(pyo3::intern!(py, "__repr__")) {
                return Ok(None);
            }
            s.str()
                .map(|t| Some(t.to_string()))
                .map_err(|e| failed(py, "str(state)", e))
        })
    }

    fn heuristic(&self, state: &Py<PyAny>, player: usize) -> Result<Option<f64>, RulesError> {
        if !self.heuristic {
            return Ok(None);
        }
        go_on()?;
        Python::attach(|py| {
            let v = state
                .bind(py)
                .call_method1(pyo3::intern!(py, "heuristic_value"), (player,))
                .map_err(|e| failed(py, "heuristic_value()", e))?;
            // A bool is a number to Python, and no standing.
            let number = if v.is_instance_of::<pyo3::types::PyBool>() {
                None
            } else {
                v.extract::<f64>().ok().filter(|x| x.is_finite())
            };
            number.map(Some).ok_or_else(|| {
                let shown = v
                    .repr()
                    .map_or_else(|_| "a value".into(), |r| r.to_string());
                answer(format!(
                    "heuristic_value({player}) returned {shown}: give a finite number"
                ))
            })
        })
    }

    fn playout(
        &self,
        state: &mut Py<PyAny>,
        max_steps: u32,
        seed: u64,
    ) -> Result<Option<(u32, Node)>, RulesError> {
        if !self.playout {
            return Ok(None);
        }
        go_on()?;
        Python::attach(|py| {
            let s = state.bind(py);
            let played = s
                .call_method1(pyo3::intern!(py, "playout"), (seed, max_steps))
                .map_err(|e| failed(py, "playout()", e))?;
            // A bool is a number to Python, and no count of moves.
            let steps = (!played.is_instance_of::<pyo3::types::PyBool>())
                .then(|| played.extract::<u32>().ok())
                .flatten()
                .filter(|&n| n <= max_steps)
                .ok_or_else(|| {
                    let shown = played
                        .repr()
                        .map_or_else(|_| "a value".into(), |r| r.to_string());
                    answer(format!(
                        "playout({seed}, {max_steps}) returned {shown}: give the moves it played, 0 to {max_steps}"
                    ))
                })?;
            Ok(Some((steps, self.node_of(s)?)))
        })
    }
}

/// How a Python game is searched, as the Python layer says.
fn rules(
    players: usize,
    resampler: Option<Py<PyAny>>,
    heuristic: bool,
    playout: bool,
) -> PyResult<Arc<PyRules>> {
    if !(1..=64).contains(&players) {
        return Err(crate::err(format!("players is {players}: give 1 to 64")));
    }
    Ok(Arc::new(PyRules {
        players,
        resampler,
        heuristic,
        playout,
        own_legal: OnceLock::new(),
    }))
}

fn setup(
    players: usize,
    hidden: bool,
    searchable: bool,
    max_steps: u32,
    features: Vec<String>,
) -> Setup {
    Setup {
        players,
        hidden,
        searchable,
        max_steps,
        features,
    }
}

/// How a Python game's states are searched, beyond what its description says.
#[derive(Clone, Copy)]
pub(crate) struct Searched {
    /// Whether states have `heuristic_value(player)`.
    pub(crate) heuristic: bool,
    /// Whether states play their own playouts, `playout(seed, max_steps)`.
    pub(crate) playout: bool,
}

/// One match of a Python forward-model game played by playtune's bots on its states,
/// `state` the initial one (it is played on), `seats` the bots, seat 0 first (for
/// `resampler`, see [`PyRules`]). A KeyboardInterrupt or SystemExit the game raised is
/// raised again; any other failure is a PlaytuneError with the reason.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_match(
    game: &str,
    state: Py<PyAny>,
    seats: &[playtune::harness::AgentSpec],
    seed: u64,
    setup: &Setup,
    resampler: Option<Py<PyAny>>,
    searched: Searched,
    show: bool,
) -> PyResult<playtune::games::external::MatchReport> {
    let rules = rules(
        setup.players,
        resampler,
        searched.heuristic,
        searched.playout,
    )?;
    let node = rules
        .node(&state)
        .map_err(|why| raised().unwrap_or_else(|| crate::err(why)))?;
    let played = forward::play(
        game,
        rules,
        (state, node),
        setup,
        &Lineup { seats, seed, show },
    );
    if let Some(e) = raised() {
        return Err(e);
    }
    played.map_err(crate::err)
}

/// One match of a Python forward-model game played by playtune's bots: `state` is the
/// initial state (it is played on), `seats` the bots' specs, seat 0 first. The match
/// protocol's answer, as a dict.
#[pyfunction]
#[pyo3(signature = (game, state, seats, seed, players, hidden=false, searchable=true, max_steps=10_000, resampler=None, heuristic=false, features=Vec::new(), show=false, playout=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_forward(
    py: Python<'_>,
    game: &str,
    state: Py<PyAny>,
    seats: Vec<String>,
    seed: u64,
    players: usize,
    hidden: bool,
    searchable: bool,
    max_steps: u32,
    resampler: Option<Py<PyAny>>,
    heuristic: bool,
    features: Vec<String>,
    show: bool,
    playout: bool,
) -> PyResult<Py<PyAny>> {
    // The seats' specs read once, here where they enter from Python.
    let seats = playtune::harness::AgentSpec::parse_all(&seats).map_err(crate::err)?;
    let setup = setup(players, hidden, searchable, max_steps, features);
    let report = play_match(
        game,
        state,
        &seats,
        seed,
        &setup,
        resampler,
        Searched { heuristic, playout },
        show,
    )?;
    let reply = PyDict::new(py);
    reply.set_item("scores", report.scores)?;
    reply.set_item("winners", report.winners)?;
    reply.set_item("length", report.length)?;
    reply.set_item("ended_by", if report.by_rules { "rules" } else { "cap" })?;
    reply.set_item("trace", report.trace)?;
    let figures = PyDict::new(py);
    for (name, values) in report.features {
        figures.set_item(name, values)?;
    }
    reply.set_item("features", figures)?;
    if show {
        reply.set_item("frames", report.frames)?;
    }
    Ok(reply.into_any().unbind())
}

/// One of playtune's bots for one seat of a Python forward-model game, outside a
/// match: `step(state)` returns its move, from its seed alone, and leaves `state`
/// as it was.
#[pyclass(name = "ForwardBot", module = "playtune._playtune")]
pub(crate) struct PyForwardBot {
    bot: Mutex<ForwardBot<PyRules>>,
    spec: String,
}

#[pymethods]
impl PyForwardBot {
    #[new]
    #[pyo3(signature = (game, spec, seat, seed, players, hidden=false, searchable=true, resampler=None, heuristic=false, playout=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        spec: &str,
        seat: usize,
        seed: u64,
        players: usize,
        hidden: bool,
        searchable: bool,
        resampler: Option<Py<PyAny>>,
        heuristic: bool,
        playout: bool,
    ) -> PyResult<Self> {
        let rules = rules(players, resampler, heuristic, playout)?;
        // The spec read once, here where it enters from Python.
        let parsed = playtune::harness::AgentSpec::parse(spec).map_err(crate::err)?;
        let bot = ForwardBot::new(
            game,
            rules,
            &setup(players, hidden, searchable, u32::MAX, Vec::new()),
            &parsed,
            seat,
            seed,
        )
        .map_err(crate::err)?;
        Ok(PyForwardBot {
            bot: Mutex::new(bot),
            spec: spec.to_string(),
        })
    }

    /// The bot's move in `state`, which is left as it was: the search starts from a
    /// deep copy where the state has one, so that a `clone` sharing what a move
    /// changes cannot move the caller's state (the step then fails saying why).
    fn step(&self, py: Python<'_>, state: Py<PyAny>) -> PyResult<i64> {
        let state = py
            .import("copy")
            .and_then(|c| c.call_method1("deepcopy", (&state,)))
            .map_or(state, Bound::unbind);
        let moved = self
            .bot
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .step(&state);
        if let Some(e) = raised() {
            return Err(e);
        }
        moved.map_err(crate::err)
    }

    /// Nothing to forget between games: each move is searched afresh.
    fn restart(&self) {}

    fn __repr__(&self) -> String {
        format!("ForwardBot({:?})", self.spec)
    }
}

/// A bot as Python reads it: name, one line, and its settings as (name, default,
/// meaning).
type BotInfo = (String, String, Vec<(String, String, String)>);

/// playtune's bots for a forward-model game: (name, about, [(setting, default,
/// meaning)]), and its default ladder.
#[pyfunction]
#[pyo3(signature = (hidden=false, searchable=true))]
pub(crate) fn forward_bots(hidden: bool, searchable: bool) -> (Vec<BotInfo>, Vec<String>) {
    let bots = forward::bots(searchable)
        .into_iter()
        .map(|(n, about, settings)| {
            (
                n.to_string(),
                about.to_string(),
                settings
                    .into_iter()
                    .map(|s| (s.name, s.default, s.about))
                    .collect(),
            )
        })
        .collect();
    (bots, forward::default_ladder(hidden, searchable))
}
