//! Evaluator processes: started in process groups of their own, read without blocking, waited
//! for with deadlines and killed group and all, so that no evaluator (nor anything it
//! leaves running in the background) can make playtune wait forever.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How many lines of an evaluator's error output a failure message quotes.
const TAIL_LINES: usize = 10;
/// How many bytes of them, at most: a message is read by people and written to logs.
const TAIL_BYTES: usize = 2048;
/// How long to wait, once a process group is dead, for the readers to see the end of
/// its output. Longer only if something escaped the group and holds a pipe open: its
/// output is then abandoned rather than waited for.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Starts `sh -c command` in `dir` (playtune's own folder when `None`) as the leader
/// of a new process group, so that [`kill_group`] also reaches whatever it starts in
/// the background. The group is registered (see [`super::groups`]) until
/// [`kill_group`] kills it, so that Ctrl-C or SIGTERM, which do not reach a group of
/// its own, kill it on the way out, and so does playtune's guardian
/// ([`super::guard`]) when playtune is killed outright.
pub(crate) fn spawn_in(
    command: &str,
    dir: Option<&std::path::Path>,
    env: &[(&str, String)],
    unset: &[&str],
    stdin: Stdio,
) -> io::Result<Child> {
    let mut c = Command::new("sh");
    if let Some(dir) = dir {
        c.current_dir(dir);
    }
    c.arg("-c")
        .arg(command)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    for (k, v) in env {
        c.env(k, v);
    }
    for k in unset {
        c.env_remove(k);
    }
    super::groups::spawn_registered(|| c.spawn(), |child: &Child| child.id())
}

/// Kills every process in the group that `leader` leads. Call it before reaping the
/// leader: its zombie keeps the group id reserved, so the signal cannot reach a group
/// that a later process has taken the same id for.
pub(crate) fn kill_group(leader: &Child) {
    let Ok(pgid) = libc::pid_t::try_from(leader.id()) else {
        return;
    };
    // SAFETY: kill has no memory-safety preconditions; a group that is already gone
    // gives ESRCH, which is fine.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
    // Dead now, and about to be reaped, after which its id may be another's.
    super::groups::unregister(pgid);
}

/// Whether `pid` (a child of ours) has exited, without reaping it.
fn has_exited(pid: libc::pid_t, block: bool) -> bool {
    let mut flags = libc::WEXITED | libc::WNOWAIT;
    if !block {
        flags |= libc::WNOHANG;
    }
    loop {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` outlives the call; P_PID with a child's pid.
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
        if r == 0 {
            // SAFETY: waitid filled `info` (or left it zeroed under WNOHANG).
            return unsafe { info.si_pid() } != 0;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            // No such child: already reaped, so certainly not running.
            return true;
        }
    }
}

/// Waits until `child` exits or `timeout` passes, without reaping it; true if it exited.
pub(crate) fn wait_exit(child: &Child, timeout: Duration) -> bool {
    let pid = child.id() as libc::pid_t;
    if has_exited(pid, false) {
        return true;
    }
    // No wait asked: no thread left blocked on a process that lives on.
    if timeout.is_zero() {
        return false;
    }
    let (tx, rx) = mpsc::channel();
    // A blocking wait on a thread rather than polling: the evaluation ends the moment
    // the evaluator does. The thread ends when the process does, which the caller
    // brings about by killing it if the deadline passes.
    let spawned = std::thread::Builder::new()
        .name("playtune-eval-wait".into())
        .spawn(move || {
            let _ = tx.send(has_exited(pid, true));
        });
    if spawned.is_err() {
        return poll_exit(pid, timeout);
    }
    rx.recv_timeout(timeout) == Ok(true)
}

/// [`wait_exit`] without a thread, for when no thread can be started.
fn poll_exit(pid: libc::pid_t, timeout: Duration) -> bool {
    let start = Instant::now();
    let mut nap = Duration::from_micros(200);
    loop {
        if has_exited(pid, false) {
            return true;
        }
        if start.elapsed() >= timeout {
            return false;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// The last bytes a stream gave, read to its end on a thread of its own.
pub(super) struct Capture {
    state: Mutex<CaptureState>,
    finished: Condvar,
}

struct CaptureState {
    bytes: VecDeque<u8>,
    limit: usize,
    done: bool,
}

impl Capture {
    /// Reads `from` to its end, keeping the last `limit` bytes.
    pub(super) fn start(
        from: impl Read + Send + 'static,
        limit: usize,
    ) -> io::Result<Arc<Capture>> {
        let capture = Arc::new(Capture {
            state: Mutex::new(CaptureState {
                bytes: VecDeque::new(),
                limit,
                done: false,
            }),
            finished: Condvar::new(),
        });
        let c = Arc::clone(&capture);
        std::thread::Builder::new()
            .name("playtune-eval-read".into())
            .spawn(move || c.run(from))?;
        Ok(capture)
    }

    fn run(&self, mut from: impl Read) {
        let mut buf = [0u8; 8192];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let mut s = lock(&self.state);
            s.bytes.extend(&buf[..n]);
            let excess = s.bytes.len().saturating_sub(s.limit);
            s.bytes.drain(..excess);
        }
        lock(&self.state).done = true;
        self.finished.notify_all();
    }

    /// Waits (a short while at most) for the stream's end, then gives what was read.
    pub(crate) fn drained(&self) -> Vec<u8> {
        let deadline = Instant::now() + DRAIN_GRACE;
        let mut s = lock(&self.state);
        while !s.done {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            s = self
                .finished
                .wait_timeout(s, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        s.bytes.iter().copied().collect()
    }

    /// The last lines read so far, on one line (see [`tail`]).
    pub(super) fn tail(&self) -> String {
        tail(&self.drained())
    }
}

/// The last `TAIL_LINES` non-blank lines of `bytes`, joined with ` | `, at most
/// `TAIL_BYTES` long: one line, so that it fits one row of a log.
pub fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            l.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
                .trim()
                .to_string()
        })
        .filter(|l| !l.is_empty())
        .collect();
    let joined = lines[lines.len().saturating_sub(TAIL_LINES)..].join(" | ");
    if joined.len() <= TAIL_BYTES {
        return joined;
    }
    let mut cut = joined.len() - TAIL_BYTES;
    while !joined.is_char_boundary(cut) {
        cut += 1;
    }
    format!("...{}", &joined[cut..])
}

/// The usual name of signal `n` (`SIGSEGV`), for the signals that end processes.
fn signal_name(n: i32) -> Option<&'static str> {
    Some(match n {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

/// How a process ended, as a message says it: `exit status: 3`, `killed by signal 11
/// (SIGSEGV)`, or, for the status 128 + N by which a shell (`sh -c`) reports a command
/// that signal N killed, `exit status: 139, as a shell reports a command killed by
/// signal 11 (SIGSEGV)`.
pub fn exit_text(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    let signal = |n: i32| match signal_name(n) {
        Some(name) => format!("signal {n} ({name})"),
        None => format!("signal {n}"),
    };
    if let Some(n) = status.signal() {
        let core = if status.core_dumped() {
            ", core dumped"
        } else {
            ""
        };
        return format!("killed by {}{core}", signal(n));
    }
    match status.code() {
        Some(code) if code > 128 && signal_name(code - 128).is_some() => format!(
            "exit status: {code}, as a shell reports a command killed by {}",
            signal(code - 128)
        ),
        Some(code) => format!("exit status: {code}"),
        None => status.to_string(),
    }
}

/// A failure message's ending: the evaluator's last words on stderr, or that it had none.
pub(crate) fn with_stderr(tail: &str) -> String {
    if tail.is_empty() {
        "; it wrote nothing to stderr".to_string()
    } else {
        format!("; its stderr ended: {tail}")
    }
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere does not make the state unusable: it is only counts and bytes.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a persistent worker's pipes give (see `pipe::LinePipe`).
pub(crate) enum Event {
    Line(String),
    /// A line longer than the limit, by its first characters.
    TooLong(String),
    /// The request could not be written (the worker closed its input or exited).
    WriteFailed(io::Error),
    ReadFailed(io::Error),
    /// The end of its output.
    End,
}

/// The most a worker's reply line may take: more is a runaway, not a reply.
pub(super) const MAX_LINE: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_ten_lines_within_two_kilobytes() {
        let text: String = (0..30).map(|i| format!("line {i}\n")).collect();
        let t = tail(text.as_bytes());
        assert!(t.starts_with("line 20 | ") && t.ends_with("line 29"), "{t}");
        let long = "é".repeat(5000);
        let t = tail(long.as_bytes());
        assert!(
            t.len() <= TAIL_BYTES + 3 && t.starts_with("...é"),
            "{}",
            t.len()
        );
        assert_eq!(tail(b"\n  \n"), "");
        assert_eq!(tail(b"a\x1b[31mred\r\n"), "a [31mred");
    }

    #[test]
    fn a_capture_keeps_only_the_last_bytes() {
        let c = Capture::start(io::Cursor::new(vec![7u8; 10_000]), 100).unwrap();
        assert_eq!(c.drained(), vec![7u8; 100]);
    }
}
