//! One-shot mode: a fresh process per evaluation.

use super::process::{self, Capture};
use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

/// Most of a one-shot evaluator's output kept: only its last line is read.
const STDOUT_LIMIT: usize = 1 << 20;
/// Most of its error output kept: only the tail is quoted.
const STDERR_LIMIT: usize = 16 << 10;

/// Why a run gave no output to read, with the tail of its error output if it ran.
pub(super) struct Failure {
    pub reason: String,
    pub stderr: Option<String>,
}

/// A successful run's standard output, and its error output's tail.
pub(super) struct Output {
    pub stdout: String,
    pub stderr: String,
}

/// How a process run by [`run_to_end`] ended.
pub struct ProcessEnded {
    /// Its exit status; `None` when it did not exit within its time (it was killed).
    pub status: Option<std::io::Result<std::process::ExitStatus>>,
    /// Its standard output, up to the limit asked for (the last bytes).
    pub stdout: Vec<u8>,
    /// The tail of its standard error ([`process::tail`]).
    pub stderr: String,
}

/// Runs `sh -c command` (in `dir`, playtune's folder when `None`, with `env` set and
/// `unset` removed) in a process group of its own, for at most `timeout`, keeping the
/// last `stdout_limit` bytes of its standard output. Once it has exited, whatever it
/// left running in its group is killed, and its output is read only a short while
/// more: a background process (a helper it started, even one that left its group)
/// holding its output open cannot hold up the caller. `Err`: it could not be started
/// or read.
pub fn run_to_end(
    command: &str,
    dir: Option<&std::path::Path>,
    env: &[(&str, String)],
    unset: &[&str],
    stdin: Stdio,
    timeout: Duration,
    stdout_limit: usize,
) -> Result<ProcessEnded, String> {
    let mut child = process::spawn_in(command, dir, env, unset, stdin)
        .map_err(|e| format!("cannot start it: {e}"))?;
    let captures = (|| -> std::io::Result<_> {
        let out = Capture::start(child.stdout.take().expect("piped"), stdout_limit)?;
        let err = Capture::start(child.stderr.take().expect("piped"), STDERR_LIMIT)?;
        Ok((out, err))
    })();
    let exited = captures.is_ok() && process::wait_exit(&child, timeout);
    // Killed by playtune's signal handler: interrupted, not failed.
    super::groups::hold_if_exiting();
    process::kill_group(&child);
    let status = child.wait();
    let (out, err) = captures.map_err(|e| format!("cannot read its output: {e}"))?;
    Ok(ProcessEnded {
        status: exited.then_some(status),
        stdout: out.drained(),
        stderr: err.tail(),
    })
}

/// Runs `sh -c command` with `request` on its standard input, for at most `timeout`.
/// Whatever it leaves running is killed when it exits, so a background process that
/// holds its output open cannot hold up the evaluation.
pub(super) fn run(
    command: &str,
    request: &str,
    seed: u64,
    timeout: Duration,
) -> Result<Output, Failure> {
    let failure = |reason: String| Failure {
        reason,
        stderr: None,
    };
    let stdin =
        request_file(request).map_err(|e| failure(format!("cannot write its request: {e}")))?;
    let ended = run_to_end(
        command,
        None,
        &[("PLAYTUNE_SEED", seed.to_string())],
        // Inherited from a parent that is itself a worker, it would say the wrong mode.
        &["PLAYTUNE_WORKER"],
        Stdio::from(stdin),
        timeout,
        // One byte over the limit: whether the output was cut shows.
        STDOUT_LIMIT + 1,
    )
    .map_err(failure)?;
    let stderr = ended.stderr;
    let fail = |reason: String| Failure {
        reason,
        stderr: Some(stderr.clone()),
    };
    match ended.status {
        None => {
            return Err(fail(format!(
                "it did not finish within {} s (the `timeout` setting)",
                timeout.as_secs_f64()
            )));
        }
        Some(Ok(s)) if s.success() => {}
        Some(Ok(s)) => return Err(fail(format!("it failed ({})", process::exit_text(s)))),
        Some(Err(e)) => return Err(fail(format!("cannot wait for it: {e}"))),
    }
    let mut stdout = ended.stdout;
    if stdout.len() > STDOUT_LIMIT {
        // Cut: the reply can be read only if its last line lies whole within the tail
        // kept (a line break before it), else it would read as nothing or as garbage.
        stdout.remove(0);
        let kept = String::from_utf8_lossy(&stdout);
        if !kept.trim_end().contains('\n') {
            return Err(fail(format!(
                "its output is over the {} MiB read from a one-shot evaluator and its last line does not fit (cut, or only blank lines): print the reply last, on a line of its own, under 1 MiB",
                STDOUT_LIMIT >> 20
            )));
        }
    }
    Ok(Output {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr,
    })
}

/// The request as an open, already unlinked file for the command's standard input.
/// Not a pipe: a command that exits without reading its input (`echo 1`) would make
/// the write raise SIGPIPE, which kills playtune (it restores the default action so
/// that `playtune ... | head` ends quietly).
fn request_file(request: &str) -> std::io::Result<std::fs::File> {
    use std::io::{Seek, SeekFrom};
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "playtune-request-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    writeln!(file, "{request}")?;
    file.seek(SeekFrom::Start(0))?;
    Ok(file)
}
