//! A persistent worker's pipes, driven from the thread that asks: a request written and
//! its reply read without handing either to another thread. A round trip then wakes one
//! thread on each side, where a writer and a reader thread between the asker and the
//! pipes woke three; for a game whose every search step is a request, those wake-ups
//! were most of the time a decision took. Both of playtune's ends are non-blocking and
//! every wait is a `poll` with the request's deadline, so a worker that stops reading
//! or stops writing still cannot make playtune wait past it. A reply is first looked
//! for without sleeping, for up to [`SPIN`], the core yielded at each look: a reply that
//! comes that soon then costs no wake-up.

use super::process::{Event, MAX_LINE};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{ChildStdin, ChildStdout};
use std::time::Instant;

/// How long a reply is waited for without sleeping (see [`LinePipe::next_event`]).
const SPIN: std::time::Duration = std::time::Duration::from_micros(300);

/// A worker's input and output, as lines.
pub(super) struct LinePipe {
    /// `None` once closed: the worker then reads the end of its input.
    input: Option<ChildStdin>,
    output: ChildStdout,
    /// Bytes read past the last whole line.
    pending: Vec<u8>,
    /// Whether the output has ended (what is pending is then its last, unended line).
    ended: bool,
    /// Where each read lands, made once: a reply is waited for by reading again and
    /// again (see [`LinePipe::next_event`]).
    buf: Box<[u8]>,
}

/// The deadline passed with nothing to read or no room to write.
pub(super) struct TimedOut;

/// Why a request was not written whole.
pub(super) enum Unsent {
    /// The worker read none of it by the deadline.
    TimedOut,
    /// The write failed, or reading what the worker printed meanwhile did.
    Failed(Event),
}

impl LinePipe {
    pub(super) fn new(input: ChildStdin, output: ChildStdout) -> io::Result<LinePipe> {
        non_blocking(input.as_raw_fd())?;
        non_blocking(output.as_raw_fd())?;
        Ok(LinePipe {
            input: Some(input),
            output,
            pending: Vec::new(),
            ended: false,
            buf: vec![0; 16 << 10].into_boxed_slice(),
        })
    }

    /// Closes the worker's input.
    pub(super) fn close_input(&mut self) {
        self.input = None;
    }

    /// What the worker printed (or whether it ended) since it was last read, without
    /// waiting: `None` when there is nothing.
    pub(super) fn idle_event(&mut self) -> Option<Event> {
        match self.fill() {
            Err(e) => Some(Event::ReadFailed(e)),
            Ok(_) => self.take(),
        }
    }

    /// Writes `line` whole, by `deadline`. Output that comes meanwhile is kept for
    /// [`LinePipe::next_event`]: a worker blocked writing must not block this write.
    pub(super) fn send(&mut self, line: &[u8], deadline: Option<Instant>) -> Result<(), Unsent> {
        let mut at = 0;
        while at < line.len() {
            let Some(input) = self.input.as_mut() else {
                return Err(Unsent::Failed(Event::WriteFailed(
                    io::ErrorKind::BrokenPipe.into(),
                )));
            };
            match write_without_sigpipe(input, &line[at..]) {
                Ok(n) => at += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let (_, readable) = self.wait(true, deadline).map_err(|_| Unsent::TimedOut)?;
                    if readable {
                        self.fill()
                            .map_err(|e| Unsent::Failed(Event::ReadFailed(e)))?;
                        // Its output has ended and it reads no more: waiting on would
                        // only see the ended output again, until the deadline.
                        if self.ended {
                            return Err(Unsent::Failed(Event::End));
                        }
                    }
                }
                Err(e) => return Err(Unsent::Failed(Event::WriteFailed(e))),
            }
        }
        Ok(())
    }

    /// The next line the worker prints, or the end of its output, by `deadline`.
    pub(super) fn next_event(&mut self, deadline: Option<Instant>) -> Result<Event, TimedOut> {
        let asked = Instant::now();
        loop {
            if let Some(event) = self.take() {
                return Ok(event);
            }
            // A reply that comes within `SPIN` is taken without sleeping: waking a
            // sleeping process costs a round trip more than most games take to answer
            // (docs/benchmarks.md). Each look yields the core to any other thread or
            // process that wants it, so a busy machine loses nothing to it.
            if asked.elapsed() < SPIN {
                if let Err(e) = self.fill() {
                    return Ok(Event::ReadFailed(e));
                }
                std::thread::yield_now();
                continue;
            }
            let (_, readable) = self.wait(false, deadline)?;
            if readable && let Err(e) = self.fill() {
                return Ok(Event::ReadFailed(e));
            }
        }
    }

    /// Reads all the output there is now; whether any came.
    fn fill(&mut self) -> io::Result<bool> {
        let mut any = false;
        while !self.ended {
            match self.output.read(&mut self.buf) {
                Ok(0) => self.ended = true,
                Ok(n) => {
                    self.pending.extend_from_slice(&self.buf[..n]);
                    any = true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(e),
            }
        }
        Ok(any)
    }

    /// A whole line from what was read, the end, or a runaway line.
    fn take(&mut self) -> Option<Event> {
        if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&self.pending[..i]).into_owned();
            self.pending.drain(..=i);
            return Some(Event::Line(line));
        }
        if self.pending.len() > MAX_LINE {
            let head = String::from_utf8_lossy(&self.pending[..200]).into_owned();
            return Some(Event::TooLong(head));
        }
        if self.ended {
            if self.pending.is_empty() {
                return Some(Event::End);
            }
            let last = String::from_utf8_lossy(&self.pending).into_owned();
            self.pending.clear();
            return Some(Event::Line(last));
        }
        None
    }

    /// Waits for the output to be readable (and, with `write`, the input writable) until
    /// `deadline`; which of them are.
    fn wait(&self, write: bool, deadline: Option<Instant>) -> Result<(bool, bool), TimedOut> {
        let mut fds = [
            libc::pollfd {
                fd: self.output.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.input.as_ref().map_or(-1, AsRawFd::as_raw_fd),
                events: libc::POLLOUT,
                revents: 0,
            },
        ];
        let count = if write { 2 } else { 1 };
        loop {
            let ms = match deadline {
                None => -1,
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(TimedOut);
                    }
                    // Rounded up: a wait of 0 ms would spin until the deadline.
                    i32::try_from(left.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
                }
            };
            // SAFETY: `fds` is a live array of `count` pollfd structures.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), count as libc::nfds_t, ms) };
            if n > 0 {
                // A hang-up or an error reads as readable: the read then says which.
                let readable = fds[0].revents != 0;
                let writable = count == 2 && fds[1].revents != 0;
                return Ok((writable, readable));
            }
            if n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                // poll fails only on bad arguments: read as readable, whose read says why.
                return Ok((false, true));
            }
        }
    }
}

fn non_blocking(fd: i32) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns, with no pointers.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// One write, with SIGPIPE blocked on this thread meanwhile: a worker that has gone then
/// makes the write fail with EPIPE instead of killing playtune, which keeps SIGPIPE's
/// default action elsewhere (`playtune ... | head` ends quietly). The signal such a
/// write raises is directed at this thread and taken off it before the mask is restored.
fn write_without_sigpipe(input: &mut ChildStdin, bytes: &[u8]) -> io::Result<usize> {
    // SAFETY: the sets are initialised by sigemptyset before use; pthread_sigmask and
    // sigtimedwait only touch this thread's mask and pending signals.
    unsafe {
        let mut pipe_only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe_only);
        libc::sigaddset(&mut pipe_only, libc::SIGPIPE);
        let mut before: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe_only, &mut before);
        let written = input.write(bytes);
        if matches!(&written, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            let zero = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::sigtimedwait(&pipe_only, std::ptr::null_mut(), &zero);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
        written
    }
}
