//! Games written in Python, played in process: a `playtune.Game` subclass registers
//! itself under its name with its description (RON, as a game description file holds
//! it) and a function that plays one match, request line in, reply line out, the same
//! lines a game process exchanges over the match protocol. Every playtune command that
//! takes a game then takes its name.

use playtune::games::external::{
    self, Description, ExternalGame, Match, MatchPlayer, MatchReport, protocol,
};
use pyo3::prelude::*;
use std::path::PathBuf;

/// Matches played by a Python function, the GIL taken for each.
struct PythonPlayer {
    play: Py<PyAny>,
    features: Vec<String>,
}

impl MatchPlayer for PythonPlayer {
    fn play(&self, m: &Match) -> Result<MatchReport, String> {
        const ID: u64 = 1;
        let line = m.line(ID);
        let reply: String = Python::attach(|py| {
            self.play
                .call1(py, (line.trim_end(),))
                .and_then(|r| r.extract::<String>(py))
                .map_err(|e| format!("its play raised {}", e.value(py)))
        })?;
        match protocol::read_reply(&reply, ID, m.seats.len(), &self.features)? {
            Ok(report) => Ok(report),
            Err(why) => Err(format!("the game refused it: {why}")),
        }
    }
}

/// Registers the game described by `description` (RON; `file` names it in errors),
/// its matches played by `play(request_line) -> reply_line`; returns its name.
#[pyfunction]
pub fn register_game(description: &str, file: &str, play: Py<PyAny>) -> PyResult<String> {
    let d = Description::parse(description, file, PathBuf::from("."))
        .map_err(|e| super::err(e.to_string()))?;
    if playtune::registry::GAMES.iter().any(|g| g.name() == d.name) {
        return Err(super::err(format!(
            "{file}: `{}` is a built-in game's name: give the game another",
            d.name
        )));
    }
    let features = d.features.clone();
    let game = external::register(ExternalGame::with_player(
        d,
        Box::new(PythonPlayer { play, features }),
    ));
    Ok(playtune::harness::DynGame::name(game).to_string())
}

/// Registers the Python game `reference` (`FILE.py:NAME`) described by `description`,
/// its matches played by `workers` processes of `command` (0: one per core), each
/// match `timeout` seconds at most; returns its name. Runs then record the reference,
/// which every command resolves.
#[pyfunction]
pub fn register_game_process(
    description: &str,
    reference: &str,
    command: &str,
    workers: usize,
    timeout: f64,
) -> PyResult<String> {
    let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut d =
        Description::parse(description, reference, dir).map_err(|e| super::err(e.to_string()))?;
    if playtune::registry::GAMES.iter().any(|g| g.name() == d.name) {
        return Err(super::err(format!(
            "{reference}: `{}` is a built-in game's name: give the game another",
            d.name
        )));
    }
    if !(timeout.is_finite() && timeout > 0.0 && timeout <= 86_400.0) {
        return Err(super::err(format!(
            "timeout={timeout}: give the seconds a match may take, above 0 and at most a day"
        )));
    }
    d.command = command.to_string();
    d.workers = workers;
    d.timeout = std::time::Duration::from_secs_f64(timeout);
    d.python = Some(reference.to_string());
    let game = external::register(ExternalGame::new(d));
    Ok(playtune::harness::DynGame::name(game).to_string())
}
