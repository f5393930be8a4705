//! Persistent mode: a pool of long-lived evaluator processes, each answering one JSON
//! request line with one JSON reply line.

use super::pipe::{LinePipe, Unsent};
use super::process::{self, Capture, Event};
use super::reply::{self, Reply};
use crate::eval::Evaluation;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Most of a worker's error output kept: only the tail is quoted.
const STDERR_LIMIT: usize = 16 << 10;
/// How long a worker whose output has ended gets to exit on its own, so that the
/// failure can give its exit status rather than the kill's.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// The id of the next request to any worker. Counted from a number drawn at random
/// per process, between 2^24 and 2^30: a line a worker prints that is not its reply
/// (a banner at its start, say) cannot carry the id of a request by chance, as it
/// could when every process counted from 1, and so is never read as the reply to one.
/// Below 2^31 for a billion requests and more: a game that keeps ids in 32-bit
/// integers reads them, and one in JavaScript's numbers does.
fn next_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: OnceLock<AtomicU64> = OnceLock::new();
    NEXT.get_or_init(|| {
        // Random keys, drawn afresh for each process by the standard library.
        let draw = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        AtomicU64::new((1 << 24) + draw % ((1 << 30) - (1 << 24)))
    })
    .fetch_add(1, Ordering::Relaxed)
}

/// One running worker process.
struct Worker {
    child: Child,
    pipe: LinePipe,
    stderr: Arc<Capture>,
    stopped: bool,
    /// Whether it has replied once: until then its start-up is allowed for too.
    answered: bool,
}

/// Why a worker could not answer; it is killed for it.
enum Fault {
    TimedOut,
    /// Its output ended (it exited or closed it).
    Ended,
    /// Its input is closed (it exited or closed it).
    InputClosed(std::io::Error),
    /// It printed what is not a reply, or more than a reply may be.
    Protocol(String),
    /// Its reply does not read.
    Reply(String),
}

/// Why a worker gave no evaluation.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The worker's own error reply: it could not evaluate this point.
    #[error("it replied with an error: {0}")]
    Refused(String),
    /// No worker could be started: the error starting its process.
    #[error("cannot start a worker: {0}")]
    Start(std::io::Error),
    /// The worker failed and was stopped: what went wrong, its exit status and the
    /// tail of its error output, as `Worker::fail` tells it.
    #[error("{0}")]
    Failed(String),
}

impl Worker {
    fn start(command: &str, dir: Option<&Path>) -> std::io::Result<Worker> {
        let mut child = process::spawn_in(
            command,
            dir,
            &[("PLAYTUNE_WORKER", "1".to_string())],
            &[],
            Stdio::piped(),
        )?;
        let started = (|| {
            let stderr = Capture::start(child.stderr.take().expect("piped"), STDERR_LIMIT)?;
            let pipe = LinePipe::new(
                child.stdin.take().expect("piped"),
                child.stdout.take().expect("piped"),
            )?;
            Ok((pipe, stderr))
        })();
        match started {
            Ok((pipe, stderr)) => Ok(Worker {
                child,
                pipe,
                stderr,
                stopped: false,
                answered: false,
            }),
            Err(e) => {
                process::kill_group(&child);
                let _ = child.wait();
                Err(e)
            }
        }
    }

    /// Sends one request line and waits, until `timeout`, for the next non-blank line.
    /// A fresh worker's first request has `startup` more: a process loading its
    /// libraries is not a slow match.
    fn exchange(
        &mut self,
        request: String,
        timeout: Duration,
        startup: Duration,
    ) -> Result<String, Fault> {
        let allowed = if self.answered {
            Some(timeout)
        } else {
            timeout.checked_add(startup)
        };
        let deadline = allowed.and_then(|t| Instant::now().checked_add(t));
        // What came while it was idle: a death is best found before writing to it, and
        // a stray line must not be taken for the next reply. Not before its first reply:
        // what a fresh worker printed first (a banner) is read as the reply would be, and
        // the reply's reader says why it is not one.
        while self.answered
            && let Some(event) = self.pipe.idle_event()
        {
            match Self::reply(event) {
                Ok(None) => {}
                Ok(Some(line)) => {
                    return Err(Fault::Protocol(format!(
                        "it printed {} after its last reply",
                        reply::show(&line)
                    )));
                }
                Err(fault) => return Err(fault),
            }
        }
        match self.pipe.send(request.as_bytes(), deadline) {
            Ok(()) => {}
            Err(Unsent::TimedOut) => return Err(Fault::TimedOut),
            Err(Unsent::Failed(event)) => {
                return Err(Self::reply(event).err().unwrap_or(Fault::Ended));
            }
        }
        loop {
            let event = self
                .pipe
                .next_event(deadline)
                .map_err(|_| Fault::TimedOut)?;
            if let Some(line) = Self::reply(event)? {
                self.answered = true;
                return Ok(line);
            }
        }
    }

    /// An event as a line to read as a reply; `None` for a blank line, which carries
    /// nothing and which an evaluator may well print.
    fn reply(event: Event) -> Result<Option<String>, Fault> {
        match event {
            Event::Line(l) if l.trim().is_empty() => Ok(None),
            Event::Line(l) => Ok(Some(l)),
            Event::TooLong(head) => Err(Fault::Protocol(format!(
                "it printed a line of over a megabyte, {}",
                reply::show(&head)
            ))),
            Event::ReadFailed(e) => Err(Fault::Protocol(format!("cannot read its output: {e}"))),
            // The pipe's far end is closed: it exited, or closed its input.
            Event::WriteFailed(e) => Err(Fault::InputClosed(e)),
            Event::End => Err(Fault::Ended),
        }
    }

    /// Kills the worker for `fault` and says why, with its error output's tail.
    fn fail(mut self, fault: Fault, timeout: Duration, startup: Duration) -> String {
        // Killed by playtune's signal handler: interrupted, not failed.
        super::groups::hold_if_exiting();
        let reason = match fault {
            Fault::TimedOut if process::wait_exit(&self.child, Duration::ZERO) => {
                "it exited without replying, and something it started holds its output open"
                    .to_string()
            }
            Fault::TimedOut if !self.answered && !startup.is_zero() => format!(
                "it did not reply to its first request within {} s (the `timeout` setting, {} s, and the `startup` setting, {} s, for starting)",
                (timeout + startup).as_secs_f64(),
                timeout.as_secs_f64(),
                startup.as_secs_f64()
            ),
            Fault::TimedOut => format!(
                "it did not reply within {} s (the `timeout` setting)",
                timeout.as_secs_f64()
            ),
            Fault::Ended if process::wait_exit(&self.child, EXIT_GRACE) => {
                "it exited without replying".to_string()
            }
            Fault::Ended => "it closed its output without replying".to_string(),
            Fault::InputClosed(_) if process::wait_exit(&self.child, EXIT_GRACE) => {
                "it exited without replying".to_string()
            }
            Fault::InputClosed(e) => format!("it closed its input ({e})"),
            Fault::Protocol(why) => why,
            Fault::Reply(why) => why,
        };
        // Its own exit status says something (a signal that killed it included); the
        // kill's, below, does not.
        let ended_first = process::wait_exit(&self.child, Duration::ZERO);
        let status = match self.stop() {
            Some(s) if ended_first => format!(" ({})", process::exit_text(s)),
            _ => String::new(),
        };
        format!(
            "worker {}{status}: {reason}{}",
            self.child.id(),
            process::with_stderr(&self.stderr.tail())
        )
    }

    /// Kills the worker's process group and reaps it, once; its exit status.
    fn stop(&mut self) -> Option<std::process::ExitStatus> {
        self.pipe.close_input();
        if self.stopped {
            return None;
        }
        self.stopped = true;
        // Not once reaped: the group's id may then belong to someone else.
        process::kill_group(&self.child);
        self.child.wait().ok()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Workers started on first use, up to a fixed number, shared by the threads that
/// evaluate: each evaluation has a worker to itself for its duration.
pub struct WorkerPool {
    command: String,
    /// The folder the workers start in (playtune's own when `None`).
    dir: Option<PathBuf>,
    size: usize,
    /// What a fresh worker's first request has beyond its timeout, to start.
    startup: Duration,
    state: Mutex<PoolState>,
    freed: Condvar,
}

struct PoolState {
    idle: Vec<Worker>,
    /// Workers running, idle or not.
    live: usize,
}

impl WorkerPool {
    /// A pool of at most `size` workers running `command` (`sh -c`), started on first
    /// use; `size` is at least 1.
    pub fn new(command: String, size: usize) -> WorkerPool {
        assert!(size >= 1, "a pool needs a worker");
        WorkerPool {
            command,
            dir: None,
            size,
            startup: Duration::ZERO,
            state: Mutex::new(PoolState {
                idle: Vec::new(),
                live: 0,
            }),
            freed: Condvar::new(),
        }
    }

    /// A fresh worker's first request has `startup` beyond its timeout.
    pub fn with_startup(mut self, startup: Duration) -> WorkerPool {
        self.startup = startup;
        self
    }

    /// Most workers the pool runs at once.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The pool, its workers started in `dir`.
    pub fn in_dir(mut self, dir: PathBuf) -> WorkerPool {
        self.dir = Some(dir);
        self
    }

    /// Evaluates with the next free worker. Any failure but the worker's own error
    /// reply kills the worker; the next evaluation starts a fresh one in its place.
    pub fn evaluate(
        &self,
        request: impl FnOnce(u64) -> String,
        features: &[String],
        timeout: Duration,
    ) -> Result<Evaluation, WorkerError> {
        self.call(request, timeout, |id, line| {
            match reply::parse_reply(features, id, line).map_err(|e| e.to_string())? {
                Reply::Done(e) => Ok(Ok(e)),
                Reply::Refused(why) => Ok(Err(why)),
            }
        })
    }

    /// One exchange with the next free worker: `request(id)` is sent, and `read` reads
    /// the reply line to request `id` as an answer (`Ok(Ok(_))`), the worker's own
    /// refusal of this request (`Ok(Err(why))`, the worker kept), or a reply that does
    /// not read (`Err(why)`, the worker killed). Any other failure kills the worker
    /// too; the next call starts a fresh one in its place.
    pub fn call<T>(
        &self,
        request: impl FnOnce(u64) -> String,
        timeout: Duration,
        read: impl FnOnce(u64, &str) -> Result<Result<T, String>, String>,
    ) -> Result<T, WorkerError> {
        let mut worker = self.take()?;
        let id = next_id();
        let outcome = worker
            .exchange(request(id), timeout, self.startup)
            .and_then(|line| read(id, &line).map_err(Fault::Reply));
        match outcome {
            Ok(Ok(answer)) => {
                self.give_back(worker);
                Ok(answer)
            }
            Ok(Err(why)) => {
                self.give_back(worker);
                Err(WorkerError::Refused(why))
            }
            Err(fault) => {
                let why = worker.fail(fault, timeout, self.startup);
                self.lost();
                Err(WorkerError::Failed(why))
            }
        }
    }

    /// The next free worker, held for a run of exchanges (a match whose every move is
    /// asked of one game process that holds its states) until the session is dropped.
    /// Each exchange is [`WorkerPool::call`]'s; a failed one kills the worker, and the
    /// session's later calls fail at once. `timeout` bounds the whole session, from
    /// the worker's first reply (a fresh worker's start is not the session's time): an
    /// exchange still waited on when it runs out kills the worker.
    pub fn session(
        self: &Arc<WorkerPool>,
        timeout: Duration,
    ) -> Result<WorkerSession, WorkerError> {
        Ok(WorkerSession {
            pool: self.clone(),
            worker: Some(self.take()?),
            timeout,
            deadline: None,
            failed: None,
        })
    }

    fn take(&self) -> Result<Worker, WorkerError> {
        let mut s = process::lock(&self.state);
        loop {
            if let Some(w) = s.idle.pop() {
                // A worker that died while idle (killed with its group by a stop, or
                // ended on its own) is let go, not handed a match it cannot play.
                if process::wait_exit(&w.child, Duration::ZERO) {
                    s.live -= 1;
                    drop(w);
                    continue;
                }
                return Ok(w);
            }
            if s.live < self.size {
                s.live += 1;
                drop(s);
                return Worker::start(&self.command, self.dir.as_deref()).map_err(|e| {
                    self.lost();
                    WorkerError::Start(e)
                });
            }
            s = self.freed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn give_back(&self, w: Worker) {
        process::lock(&self.state).idle.push(w);
        self.freed.notify_one();
    }

    fn lost(&self) {
        process::lock(&self.state).live -= 1;
        self.freed.notify_one();
    }

    /// Process ids of the idle workers, for tests.
    #[cfg(test)]
    pub(crate) fn idle_pids(&self) -> Vec<u32> {
        process::lock(&self.state)
            .idle
            .iter()
            .map(|w| w.child.id())
            .collect()
    }
}

/// A worker held by one caller for several exchanges ([`WorkerPool::session`]).
pub struct WorkerSession {
    pool: Arc<WorkerPool>,
    worker: Option<Worker>,
    timeout: Duration,
    /// When the session's time runs out, counted from the worker's first reply.
    deadline: Option<Instant>,
    /// Why the worker was lost, for the calls after.
    failed: Option<String>,
}

impl WorkerSession {
    /// One exchange, as [`WorkerPool::call`]: `request(id)` sent, the reply read by `read`.
    pub fn call<T>(
        &mut self,
        request: impl FnOnce(u64) -> String,
        read: impl FnOnce(u64, &str) -> Result<Result<T, String>, String>,
    ) -> Result<T, WorkerError> {
        let Some(worker) = self.worker.as_mut() else {
            return Err(WorkerError::Failed(
                self.failed
                    .clone()
                    .unwrap_or_else(|| "its game process was lost".into()),
            ));
        };
        let id = next_id();
        if self.deadline.is_none() && worker.answered {
            self.deadline = Instant::now().checked_add(self.timeout);
        }
        let left = self.deadline.map_or(self.timeout, |d| {
            d.saturating_duration_since(Instant::now())
        });
        let outcome = worker
            .exchange(request(id), left, self.pool.startup)
            .and_then(|line| read(id, &line).map_err(Fault::Reply));
        if self.deadline.is_none() && worker.answered {
            self.deadline = Instant::now().checked_add(self.timeout);
        }
        match outcome {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(why)) => Err(WorkerError::Refused(why)),
            Err(fault) => {
                let worker = self.worker.take().expect("held above");
                let fault = match fault {
                    Fault::TimedOut if left < self.timeout => Fault::Protocol(format!(
                        "the match's timeout of {} s ran out while it was still to reply (the `timeout` setting bounds a whole match)",
                        self.timeout.as_secs_f64()
                    )),
                    other => other,
                };
                let why = worker.fail(fault, self.timeout, self.pool.startup);
                self.pool.lost();
                self.failed = Some(why.clone());
                Err(WorkerError::Failed(why))
            }
        }
    }
}

impl Drop for WorkerSession {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            self.pool.give_back(w);
        }
    }
}
