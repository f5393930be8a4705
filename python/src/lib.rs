//! `playtune._playtune`: the Rust side of the Python package. The pure-Python
//! `playtune` package wraps these classes and functions; users import that one.
//!
//! Everything a run folder holds is written by the crate's own `playtune::run` code
//! (the same as `playtune optimize`, `ask` and `tell`), so a run started here
//! resumes, reports and plots from the command line and the other way round.
//! Every error reaches Python as `playtune.PlaytuneError` (a `ValueError`); a panic
//! is caught and raised as one too, never unwinding into the interpreter.

use playtune::eval::{Binding, Evaluation, point_json};
use playtune::optim::constrained::{Check, Constrained};
use playtune::optim::{AlgoConfig, Candidate, Optimizer};
use playtune::run::failures::FailureRow;
use playtune::run::log::LogRow;
use playtune::run::{self, Driven, FaultPolicy, ProblemSpec, RunConfig, RunResult, Waiting};
use playtune::space::{Domain, Space, parse_space, read_space_text};
use playtune::{GameRequest, Problem, build_problem};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::fmt::Display;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};

mod evaluator;
mod forward;
mod game;
mod ntbea;
mod optimizer;
mod problems;
mod run_folder;
mod space;
mod watch;

use evaluator::*;
use optimizer::*;
use run_folder::*;
use space::*;

create_exception!(
    playtune,
    PlaytuneError,
    PyValueError,
    "An error of playtune, with the message the command line gives."
);

pub(crate) fn err(e: impl Display) -> PyErr {
    PlaytuneError::new_err(e.to_string())
}

/// Runs `f`, turning a panic into a `PlaytuneError`.
/// A panic caught at the boundary, as the Python exception it becomes: no panic
/// crosses into Python.
fn panicked(payload: &(dyn std::any::Any + Send)) -> PyErr {
    let what = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown".into());
    err(format!("internal error (a bug in playtune): {what}"))
}

pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(err),
        Err(p) => Err(panicked(p.as_ref())),
    }
}

/// A JSON value as a Python object (through the `json` module: exact and short).
fn to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(v).map_err(err)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A Python object (dict, list, numbers, strings) as a JSON value.
fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let kwargs = pyo3::types::PyDict::new(obj.py());
    kwargs.set_item("allow_nan", false)?;
    let text: String = match obj
        .py()
        .import("json")?
        .call_method("dumps", (obj,), Some(&kwargs))
    {
        Ok(t) => t.extract()?,
        Err(e) if e.is_instance_of::<PyValueError>(obj.py()) => {
            return Err(err(format!(
                "{}: holds NaN or an infinity, not a finite number",
                obj.repr()?
            )));
        }
        Err(e) => return Err(err(format!("{}: not plain data ({e})", obj.repr()?))),
    };
    serde_json::from_str(&text).map_err(err)
}

/// Runs the command line (`argv`, the program's name first) in this process, the GIL
/// released, and returns its exit status: the wheel's `playtune` command and `python
/// -m playtune`. It is for a process that runs the command and ends: it installs the
/// command line's handlers of SIGINT, SIGTERM and SIGHUP in place of Python's (the
/// evaluators killed, the process ended with 130, 143 or 129), as the binary has them.
#[pyfunction]
fn cli(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> u8 {
    // A panic's message is printed by the panic hook; the status is a panicking
    // binary's.
    let code = py.detach(|| std::panic::catch_unwind(|| playtune_cli::run(argv)).unwrap_or(101));
    // Rust's standard output is flushed at a binary's exit, not at a library's return:
    // the command's last line must not wait on Python's exit.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    code
}

#[pymodule]
fn _playtune(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PlaytuneError", m.py().get_type::<PlaytuneError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PySpace>()?;
    m.add_class::<PyOptimizer>()?;
    m.add_class::<PyRunFolder>()?;
    m.add_function(wrap_pyfunction!(optimizer::algorithm_ron, m)?)?;
    m.add_function(wrap_pyfunction!(run_folder::create_run, m)?)?;
    m.add_function(wrap_pyfunction!(problems::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(problems::problem_info, m)?)?;
    m.add_function(wrap_pyfunction!(problems::catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(problems::agent_spec, m)?)?;
    m.add_function(wrap_pyfunction!(problems::tournament, m)?)?;
    m.add_function(wrap_pyfunction!(game::register_game, m)?)?;
    m.add_function(wrap_pyfunction!(forward::play_forward, m)?)?;
    m.add_function(wrap_pyfunction!(forward::forward_bots, m)?)?;
    m.add_class::<forward::PyForwardBot>()?;
    m.add_function(wrap_pyfunction!(game::end_games, m)?)?;
    m.add_function(wrap_pyfunction!(game::register_game_process, m)?)?;
    m.add_class::<ntbea::PyNtbeaModel>()?;
    m.add_function(wrap_pyfunction!(run_folder::read_log, m)?)?;
    m.add_function(wrap_pyfunction!(run_folder::_replay_count, m)?)?;
    m.add_function(wrap_pyfunction!(cli, m)?)?;
    // SIGTERM and SIGHUP end the interpreter as before, but no longer leave the
    // evaluators (in process groups of their own) running.
    playtune::eval::evaluator_groups::kill_evaluators_on_termination();
    Ok(())
}
