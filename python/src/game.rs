//! Games written in Python, played in process: a `playtune.Game` subclass registers
//! itself under its name with its description (RON, as a game description file holds
//! it) and a function that plays one match, request line in, reply line out, the same
//! lines a game process exchanges over the match protocol. Every playtune command that
//! takes a game then takes its name. A game that brings its rules has its matches of
//! playtune's bots played here on its states, with no line between.

use crate::watch;
use playtune::eval::{WorkerError, WorkerPool};
use playtune::games::external::{
    self, Description, ExternalGame, Match, MatchPlayer, MatchReport, forward, protocol,
};
use playtune::harness::AgentSpec;
use pyo3::prelude::*;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Matches played by a Python function, the GIL taken for each.
struct PythonPlayer {
    play: Py<PyAny>,
    features: Vec<String>,
    /// The most a match may take: then its `play` is interrupted.
    timeout: Duration,
    /// For a game that brings its rules: `start(settings) -> (state, heuristic,
    /// playout)`, the match's initial state and how its states are searched. A match
    /// of playtune's bots alone is then played here, on those states, with no request
    /// line and no reply line between Rust and Python.
    start: Option<Py<PyAny>>,
}

impl PythonPlayer {
    /// Calls `play` on this thread (GIL held), watched: its reply, or why it failed.
    fn call(&self, py: Python<'_>, line: &str) -> Result<String, String> {
        watch::watched(py, self.timeout, |py| {
            self.play
                .call1(py, (line,))
                .and_then(|r| r.extract::<String>(py))
        })
    }
}

impl MatchPlayer for PythonPlayer {
    fn play(&self, m: &Match) -> Result<MatchReport, String> {
        const ID: u64 = 1;
        if watch::stopping() {
            return Err("interrupted".into());
        }
        let line = m.line(ID);
        let reply = Python::attach(|py| self.call(py, line.trim_end()))?;
        match protocol::read_reply(&reply, ID, m.seats.len(), &self.features)? {
            Ok(report) => Ok(report),
            Err(why) => Err(format!("the game refused it: {why}")),
        }
    }

    /// A match of playtune's bots alone, played here on the game's states: what the
    /// game's `play` would do with the request (`games.py`'s `_play_forward`), less
    /// the request line, its reading and the reply line.
    fn play_forward(
        &self,
        game: &str,
        m: &Match,
        seats: &[AgentSpec],
        setup: &forward::Setup,
    ) -> Option<Result<MatchReport, String>> {
        let start = self.start.as_ref()?;
        if watch::stopping() {
            return Some(Err("interrupted".into()));
        }
        Some(Python::attach(|py| {
            watch::watched(py, self.timeout, |py| {
                let settings = crate::to_py(py, &Value::Object(m.settings.clone()))?;
                let (state, heuristic, playout): (Py<PyAny>, bool, bool) =
                    start.call1(py, (settings,))?.extract(py)?;
                crate::forward::play_match(
                    game,
                    state,
                    seats,
                    m.seed,
                    setup,
                    None,
                    crate::forward::Searched { heuristic, playout },
                    m.show,
                )
            })
        }))
    }
}

/// Registers the game described by `description` (RON; `file` names it in errors),
/// its matches played by `play(request_line) -> reply_line`, each `timeout` seconds
/// at most (then interrupted); returns its name.
#[pyfunction]
#[pyo3(signature = (description, file, play, timeout = 60.0, start = None))]
pub(crate) fn register_game(
    description: &str,
    file: &str,
    play: Py<PyAny>,
    timeout: f64,
    start: Option<Py<PyAny>>,
) -> PyResult<String> {
    check_timeout(timeout)?;
    // The text is the class's, written by playtune: its errors name the field.
    let d = Description::parse(description, file, PathBuf::from("."))
        .map_err(|e| super::err(e.of_generated().to_string()))?;
    if playtune::registry::GAMES.iter().any(|g| g.name() == d.name) {
        return Err(super::err(format!(
            "{file}: `{}` is a built-in game's name: give the game another",
            d.name
        )));
    }
    let features = d.features.clone();
    let name = d.name.clone();
    let game = external::register(ExternalGame::with_player(
        d,
        Box::new(PythonPlayer {
            play,
            features,
            timeout: Duration::from_secs_f64(timeout),
            start,
        }),
    ));
    // Its game processes, if it was registered to play in them before, end.
    retire(&name, None);
    Ok(playtune::harness::DynGame::name(game).to_string())
}

/// Registers the Python game `reference` (`FILE.py:NAME`) described by `description`,
/// its matches played by `workers` processes of `command` (0: one per core), each
/// match `timeout` seconds at most; returns its name. Runs then record the reference,
/// which every command resolves.
#[pyfunction]
pub(crate) fn register_game_process(
    description: &str,
    reference: &str,
    command: &str,
    workers: usize,
    timeout: f64,
) -> PyResult<String> {
    let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut d = Description::parse(description, reference, dir)
        .map_err(|e| super::err(e.of_generated().to_string()))?;
    if playtune::registry::GAMES.iter().any(|g| g.name() == d.name) {
        return Err(super::err(format!(
            "{reference}: `{}` is a built-in game's name: give the game another",
            d.name
        )));
    }
    check_timeout(timeout)?;
    d.command = command.to_string();
    d.workers = workers;
    d.timeout = std::time::Duration::from_secs_f64(timeout);
    d.python = Some(reference.to_string());
    let player = ProcessPlayer::new(&d);
    let pool = player.pool.clone();
    let name = d.name.clone();
    let game = external::register(ExternalGame::with_player(d, Box::new(player)));
    retire(&name, Some(pool));
    Ok(playtune::harness::DynGame::name(game).to_string())
}

/// The game processes of a game registered from Python, `None` once the game is
/// registered again: the registry keeps a replaced game (a run in flight may hold it),
/// but not its processes.
type Processes = Arc<Mutex<Option<Arc<WorkerPool>>>>;

/// The processes of each game registered from Python to play in game processes, by
/// the game's name.
static PROCESSES: Mutex<Vec<(String, Processes)>> = Mutex::new(Vec::new());

/// Ends the game processes of every earlier registration of `name` (an idle one at
/// once, one playing a match when it is done), then keeps `now`'s, if any: the game
/// registered again replaces its processes, instead of adding to them.
fn retire(name: &str, now: Option<Processes>) {
    let ended: Vec<Arc<WorkerPool>> = {
        let mut all = PROCESSES.lock().unwrap_or_else(|p| p.into_inner());
        let mut ended = Vec::new();
        all.retain(|(n, p)| {
            if n != name {
                return true;
            }
            ended.extend(p.lock().unwrap_or_else(|e| e.into_inner()).take());
            false
        });
        all.extend(now.map(|p| (name.to_string(), p)));
        ended
    };
    // Dropped outside the lock: the last reference to a pool kills and reaps its
    // workers.
    drop(ended);
}

/// Matches played by the game processes of a game registered from Python, as
/// `ExternalGame::new` plays them, its pool the registration's own (see `retire`).
struct ProcessPlayer {
    name: String,
    pool: Processes,
    timeout: Duration,
    features: Vec<String>,
}

impl ProcessPlayer {
    fn new(d: &Description) -> ProcessPlayer {
        let workers = match d.workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let pool = WorkerPool::new(d.command.clone(), workers)
            .in_dir(d.dir.clone())
            .with_startup(d.startup);
        ProcessPlayer {
            name: d.name.clone(),
            pool: Arc::new(Mutex::new(Some(Arc::new(pool)))),
            timeout: d.timeout,
            features: d.features.clone(),
        }
    }
}

impl MatchPlayer for ProcessPlayer {
    fn play(&self, m: &Match) -> Result<MatchReport, String> {
        // Held for this match only: a game registered again meanwhile ends this
        // process once the match is done.
        let pool = self
            .pool
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or_else(|| {
                format!(
                    "the game `{}` was registered again since: this registration plays no more matches",
                    self.name
                )
            })?;
        let seats = m.seats.len();
        pool.call(
            |id| m.line(id),
            self.timeout,
            |id, line| protocol::read_reply(line, id, seats, &self.features),
        )
        .map_err(|e| match e {
            WorkerError::Refused(why) => format!("the game refused it: {why}"),
            WorkerError::Start(e) => format!("cannot start the game: {e}"),
            WorkerError::Failed(why) => why,
        })
    }
}

/// Ends every game process playtune started in this interpreter, with its process
/// group: called at the interpreter's exit, so that a game that does not exit at the
/// end of its input, or a child it left behind, does not outlive Python.
#[pyfunction]
pub(crate) fn end_games() {
    playtune::eval::evaluator_groups::kill_all();
}

fn check_timeout(timeout: f64) -> PyResult<()> {
    if !(timeout.is_finite() && timeout > 0.0 && timeout <= 86_400.0) {
        return Err(super::err(format!(
            "timeout={timeout}: give the seconds a match may take, above 0 and at most a day"
        )));
    }
    Ok(())
}
