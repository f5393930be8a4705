//! Games written in Python, played in process: a `playtune.Game` subclass registers
//! itself under its name with its description (RON, as a game description file holds
//! it) and a function that plays one match, request line in, reply line out, the same
//! lines a game process exchanges over the match protocol. Every playtune command that
//! takes a game then takes its name. A game that brings its rules has its matches of
//! playtune's bots played here on its states, with no line between.

use playtune::eval::{WorkerError, WorkerPool};
use playtune::games::external::{
    self, Description, ExternalGame, Match, MatchPlayer, MatchReport, forward, protocol,
};
use playtune::harness::AgentSpec;
use pyo3::prelude::*;
use serde_json::Value;
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Why a match in play was interrupted from outside.
#[derive(Clone, Copy, PartialEq)]
enum Cut {
    Timeout,
    Stop,
}

/// A match being played in process: the Python thread playing it, when it must end,
/// and whether it was interrupted.
struct Playing {
    key: u64,
    thread: std::os::raw::c_long,
    deadline: Instant,
    timeout: Duration,
    cut: Option<Cut>,
}

/// Matches in play. Locked only briefly, and by a thread that holds the GIL or does
/// not wait for it meanwhile: never a lock order against the GIL.
static PLAYING: Mutex<Vec<Playing>> = Mutex::new(Vec::new());
static NEXT_KEY: AtomicU64 = AtomicU64::new(0);
/// A `BaseException` that is not an `Exception` (KeyboardInterrupt, SystemExit)
/// raised by a `play`: it stops what is under way and is raised again to the caller.
static RAISED: Mutex<Option<PyErr>> = Mutex::new(None);

thread_local! {
    /// Whether this thread is inside a game's `play`.
    static IN_PLAY: Cell<bool> = const { Cell::new(false) };
    /// The key in `PLAYING` of the match this thread plays.
    static MATCH: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Why the match this thread plays must end now (its timeout ran out, or a stop is
/// under way), if it must. Asked before each call into a game's rules: the exception
/// the watcher raises in the thread may be caught by the game's own code, and a
/// search would then go on asking the game to the end of the match.
pub(crate) fn cut_short() -> Option<String> {
    let key = MATCH.with(Cell::get)?;
    if stopping() {
        return Some("interrupted".into());
    }
    let playing = PLAYING.lock().unwrap_or_else(|p| p.into_inner());
    let p = playing.iter().find(|p| p.key == key)?;
    (p.cut == Some(Cut::Timeout) || Instant::now() >= p.deadline).then(|| {
        format!(
            "the match's timeout of {} s ran out (the `timeout` of register_game bounds a whole match)",
            p.timeout.as_secs_f64()
        )
    })
}

/// Whether this thread is inside a game's `play`: playtune called from there would
/// wait on the match that called it.
pub(crate) fn in_play() -> bool {
    IN_PLAY.with(Cell::get)
}

/// The KeyboardInterrupt or SystemExit a `play` raised, once.
pub(crate) fn take_raised() -> Option<PyErr> {
    RAISED.lock().unwrap_or_else(|p| p.into_inner()).take()
}

fn stopping() -> bool {
    playtune::eval::evaluator_groups::halted()
        || RAISED.lock().unwrap_or_else(|p| p.into_inner()).is_some()
}

/// Interrupts matches past their timeout (TimeoutError raised in their thread) and,
/// while a stop is under way, every match (KeyboardInterrupt): a `play` that never
/// returns cannot hold a run, a tournament or Ctrl-C. Python delivers such an
/// exception between bytecodes: a `play` blocked in one long C call ends after it.
fn watch() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::spawn(|| {
            loop {
                std::thread::sleep(Duration::from_millis(20));
                let due = {
                    let playing = PLAYING.lock().unwrap_or_else(|p| p.into_inner());
                    let now = Instant::now();
                    let stop = !playing.is_empty() && stopping();
                    playing
                        .iter()
                        .any(|p| p.cut.is_none() && (stop || now >= p.deadline))
                };
                if !due {
                    continue;
                }
                Python::attach(|_py| {
                    let stop = stopping();
                    let now = Instant::now();
                    let mut playing = PLAYING.lock().unwrap_or_else(|p| p.into_inner());
                    for p in playing.iter_mut().filter(|p| p.cut.is_none()) {
                        let cut = if now >= p.deadline {
                            Cut::Timeout
                        } else if stop {
                            Cut::Stop
                        } else {
                            continue;
                        };
                        // SAFETY: the GIL is held (the exception types are read and
                        // set under it); the thread id is one Python gave, and the
                        // entry is in PLAYING, so that thread is inside `play` now.
                        unsafe {
                            let exc = match cut {
                                Cut::Timeout => pyo3::ffi::PyExc_TimeoutError,
                                Cut::Stop => pyo3::ffi::PyExc_KeyboardInterrupt,
                            };
                            pyo3::ffi::PyThreadState_SetAsyncExc(p.thread, exc);
                        }
                        p.cut = Some(cut);
                    }
                });
            }
        });
    });
}

impl PythonPlayer {
    /// Calls `play` on this thread (GIL held), watched: its reply, or why it failed.
    fn call(&self, py: Python<'_>, line: &str) -> Result<String, String> {
        self.watched(py, |py| {
            self.play
                .call1(py, (line,))
                .and_then(|r| r.extract::<String>(py))
        })
    }

    /// Runs `run` on this thread (GIL held) as a match in play, watched (its timeout,
    /// a stop): what it gives, or why it failed.
    fn watched<T>(
        &self,
        py: Python<'_>,
        run: impl FnOnce(Python<'_>) -> PyResult<T>,
    ) -> Result<T, String> {
        let thread: std::os::raw::c_long = py
            .import("threading")
            .and_then(|t| t.call_method0("get_ident"))
            .and_then(|i| i.extract())
            .map_err(|e| format!("cannot name the playing thread: {e}"))?;
        let key = NEXT_KEY.fetch_add(1, Ordering::SeqCst);
        PLAYING
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Playing {
                key,
                thread,
                deadline: Instant::now() + self.timeout,
                timeout: self.timeout,
                cut: None,
            });
        watch();
        IN_PLAY.with(|f| f.set(true));
        MATCH.with(|m| m.set(Some(key)));
        let reply = run(py);
        MATCH.with(|m| m.set(None));
        IN_PLAY.with(|f| f.set(false));
        let cut = {
            let mut playing = PLAYING.lock().unwrap_or_else(|p| p.into_inner());
            let i = playing.iter().position(|p| p.key == key);
            i.and_then(|i| playing.swap_remove(i).cut)
        };
        if cut.is_some() {
            // An exception set as `play` returned is not raised in later code.
            // SAFETY: the GIL is held; a null exception clears the pending one.
            unsafe {
                pyo3::ffi::PyThreadState_SetAsyncExc(thread, std::ptr::null_mut());
            }
        }
        match (reply, cut) {
            (_, Some(Cut::Timeout)) => Err(format!(
                "its play took longer than the match timeout of {} s and was interrupted",
                self.timeout.as_secs_f64()
            )),
            (_, Some(Cut::Stop)) => Err("interrupted".into()),
            (Ok(r), None) => Ok(r),
            (Err(e), None) if !e.is_instance_of::<pyo3::exceptions::PyException>(py) => {
                // KeyboardInterrupt, SystemExit: the caller's to handle, not a failed
                // match to try again.
                let why = format!(
                    "interrupted: its play raised {}",
                    e.value(py)
                        .repr()
                        .map_or_else(|_| "an exception".into(), |r| r.to_string())
                );
                RAISED
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e);
                Err(why)
            }
            (Err(e), None) => Err(format!("its play raised {}", e.value(py))),
        }
    }
}

impl MatchPlayer for PythonPlayer {
    fn play(&self, m: &Match) -> Result<MatchReport, String> {
        const ID: u64 = 1;
        if stopping() {
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
        if stopping() {
            return Some(Err("interrupted".into()));
        }
        Some(Python::attach(|py| {
            self.watched(py, |py| {
                let settings = crate::forward::to_python(py, &Value::Object(m.settings.clone()))?;
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
