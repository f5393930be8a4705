//! Python games named by a reference, `FILE.py:NAME` or `package.module:NAME`: the game
//! describes itself (`python -m playtune.worker describe REF`) and its processes serve
//! the match protocol (`python -m playtune.worker serve REF`), so that a Python class
//! or an OpenSpiel game is reached by every command, as a description file is.
//!
//! The interpreter is `$PLAYTUNE_PYTHON`, else `python3`: the one with the `playtune`
//! package (and the game's own imports) installed.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a game may take to describe itself (its imports included).
const DESCRIBE_TIMEOUT: Duration = Duration::from_secs(120);

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

/// The command whose processes serve the game's matches.
pub fn serve_command(reference: &str) -> String {
    format!(
        "{} -m playtune.worker serve {}",
        quoted(&interpreter()),
        quoted(reference)
    )
}

/// The game's description (RON), as the game gives it, or why it gives none.
pub fn describe(reference: &str, dir: &Path) -> Result<String, String> {
    let python = interpreter();
    let mut child = Command::new(&python)
        .args(["-m", "playtune.worker", "describe", reference])
        .current_dir(dir)
        .env("PLAYTUNE_WORKER", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("cannot start `{python}` to describe the Python game `{reference}`: {e} (set PLAYTUNE_PYTHON to the interpreter that has playtune installed)")
        })?;
    // Read both pipes on threads: a game that writes much to one must not block.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > DESCRIBE_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "the Python game `{reference}` did not describe itself within {} s",
                DESCRIBE_TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    if status.success() {
        return Ok(out);
    }
    let hint = if err.contains("No module named 'playtune'") {
        " (set PLAYTUNE_PYTHON to the interpreter that has playtune installed)"
    } else {
        ""
    };
    Err(format!(
        "the Python game `{reference}` cannot be loaded by `{python}`: {}{hint}",
        playtune_optim::eval::stderr_tail(err.as_bytes())
    ))
}
