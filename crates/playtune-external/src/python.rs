//! Python games named by a reference, `FILE.py:NAME` or `package.module:NAME`: the game
//! describes itself (`python -m playtune.worker describe REF`) and its processes serve
//! the match protocol (`python -m playtune.worker serve REF`), so that a Python class
//! or an OpenSpiel game is reached by every command, as a description file is.
//!
//! The interpreter is `$PLAYTUNE_PYTHON`, else `python3`: the one with the `playtune`
//! package (and the game's own imports) installed.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// How long a game may take to describe itself (its imports included).
const DESCRIBE_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest description read: a description file's limit.
const DESCRIPTION_LIMIT: usize = 1 << 20;
/// The most of a worker's reason for giving no description that a message quotes.
const REASON_CHARS: usize = 2000;

/// The Python interpreter that runs Python games.
pub fn interpreter() -> String {
    std::env::var("PLAYTUNE_PYTHON")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "python3".to_string())
}

/// Whether a game's name is a Python reference (a game's own name holds no `:`).
pub fn is_reference(name: &str) -> bool {
    let name = name.trim();
    name.contains(':') && !name.ends_with(".ron")
}

/// `reference` with its file made absolute (relative to `dir`), so that it names the
/// same game from any folder; a module reference as it is.
pub fn absolute(reference: &str, dir: &Path) -> String {
    let reference = reference.trim();
    match reference.rsplit_once(':') {
        Some((file, name)) if file.ends_with(".py") => {
            let path = dir.join(file);
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            format!("{}:{name}", path.display())
        }
        _ => reference.to_string(),
    }
}

/// `s` quoted for `sh -c`.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The command whose processes serve the game's matches. `exec`: the interpreter is
/// the game process, not a child of the shell, so that a signal that ends it is told
/// as that signal.
pub(crate) fn serve_command(reference: &str) -> String {
    format!(
        "exec {} -m playtune.worker serve {}",
        quoted(&interpreter()),
        quoted(reference)
    )
}

/// The game's description (RON), as the game gives it, or why it gives none.
///
/// The describing process runs as a game process does (a process group of its own,
/// killed by Ctrl-C, SIGTERM and playtune's guardian), and once it has exited, what it
/// left running in its group is killed and its output read only a short while more:
/// a helper the game's module started at import cannot hold up the command. The
/// worker writes the description, or why it has none, on a channel the game's own
/// printing does not reach (`python/playtune/worker.py`).
pub fn describe(reference: &str, dir: &Path) -> Result<String, String> {
    let python = interpreter();
    // `exec`: the interpreter is the process, so that its own end (a signal's) is told.
    let command = format!(
        "exec {} -m playtune.worker describe {}",
        quoted(&python),
        quoted(reference)
    );
    let cannot = |why: String| {
        format!("the Python game `{reference}` cannot be loaded by `{python}`: {why}")
    };
    let ended = playtune_optim::eval::run_to_end(
        &command,
        Some(dir),
        &[("PLAYTUNE_WORKER", "1".to_string())],
        &[],
        Stdio::null(),
        DESCRIBE_TIMEOUT,
        DESCRIPTION_LIMIT + 1,
    )
    .map_err(cannot)?;
    if ended.stdout.len() > DESCRIPTION_LIMIT {
        return Err(cannot(format!(
            "its description is over {} MiB",
            DESCRIPTION_LIMIT >> 20
        )));
    }
    let out = String::from_utf8_lossy(&ended.stdout).into_owned();
    let stderr = if ended.stderr.is_empty() {
        "; it wrote nothing to stderr".to_string()
    } else {
        format!("; its stderr ended: {}", ended.stderr)
    };
    // Where no worker said why (the interpreter is no Python with playtune, or not
    // there at all), the likely fix.
    let hint = format!(
        " (is `{python}` the Python interpreter that has playtune installed? PLAYTUNE_PYTHON names it)"
    );
    let status = match ended.status {
        None => {
            return Err(format!(
                "the Python game `{reference}` did not describe itself within {} s{stderr}",
                DESCRIBE_TIMEOUT.as_secs()
            ));
        }
        Some(Err(e)) => return Err(cannot(format!("cannot wait for it: {e}"))),
        Some(Ok(status)) => status,
    };
    if status.success() {
        if out.trim().is_empty() {
            return Err(cannot(format!(
                "it ended ({}) and printed no description{stderr}{hint}",
                playtune_optim::eval::exit_text(status)
            )));
        }
        return Ok(out);
    }
    // The worker's own reason, on its channel, else how the process ended.
    let reason = out.trim();
    if !reason.is_empty() {
        // On one line, without a terminal's controls, and of a readable length.
        let reason = playtune_optim::eval::printable(reason);
        let reason = match reason.char_indices().nth(REASON_CHARS) {
            Some((cut, _)) => format!("{}...", &reason[..cut]),
            None => reason,
        };
        return Err(cannot(reason));
    }
    Err(cannot(format!(
        "it ended ({}) without describing the game{stderr}{hint}",
        playtune_optim::eval::exit_text(status)
    )))
}
