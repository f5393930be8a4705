//! Matches in play in this process, watched: a match past its timeout is interrupted
//! (TimeoutError raised in its thread), every match when a stop is under way
//! (KeyboardInterrupt), and a KeyboardInterrupt or SystemExit a game raised is kept
//! to raise again to whoever called playtune. Both ways of playing a Python game's
//! match in process go through [`watched`]: its `play`, and its rules searched here.

use pyo3::prelude::*;
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

pub(crate) fn stopping() -> bool {
    playtune::eval::evaluator_groups::halted()
        || RAISED.lock().unwrap_or_else(|p| p.into_inner()).is_some()
}

/// Interrupts matches past their timeout (TimeoutError raised in their thread) and,
/// while a stop is under way, every match (KeyboardInterrupt): a `play` that never
/// returns cannot hold a run, a tournament or Ctrl-C. Python delivers such an
/// exception between bytecodes: a `play` blocked in one long C call ends after it.
fn start_watcher() {
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

/// Runs `run` on this thread (GIL held) as a match in play, watched (`timeout`, and
/// a stop): what it gives, or why it failed.
pub(crate) fn watched<T>(
    py: Python<'_>,
    timeout: Duration,
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
            deadline: Instant::now() + timeout,
            timeout,
            cut: None,
        });
    start_watcher();
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
            timeout.as_secs_f64()
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
