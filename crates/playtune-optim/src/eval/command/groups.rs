//! The process groups of the evaluators running now, for a signal handler to kill.
//!
//! Every evaluator sits in a process group of its own (see `super::process::spawn_in`),
//! so Ctrl-C, which the terminal sends to its foreground group, and a SIGTERM sent to
//! playtune alone do not reach it. Playtune's handler for those signals
//! (`cli::interrupt`) calls [`kill_all`] before it exits. Everything here that the
//! handler touches is async-signal-safe: a fixed array of atomics, `kill` and
//! `nanosleep`, no lock and no allocation.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

/// Most groups tracked at once: far more than the workers (1024 at most) and one-shot
/// evaluations (one per thread) a run has running together.
const SLOTS: usize = 4096;

/// Live group ids; 0 marks a free slot.
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
/// Threads between starting an evaluator and registering its group.
static SPAWNING: AtomicUsize = AtomicUsize::new(0);
/// Set once the process is on its way out: no evaluator starts any more.
static EXITING: AtomicBool = AtomicBool::new(false);
/// [`Halt`]s held now: while any is, no evaluator starts (an in-process stop, which
/// does not end the process).
static HALTS: AtomicUsize = AtomicUsize::new(0);

/// The signals that end playtune through its handler, blocked on a thread while it
/// starts an evaluator so that the handler never runs between the start and the
/// registration there (it runs on another thread, which waits for the registration).
const HANDLED: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Starts an evaluator with `spawn` and registers its process group (the id `pid`
/// gives: the leader's pid). Refused once the process is exiting.
pub(crate) fn spawn_registered<C>(
    spawn: impl FnOnce() -> std::io::Result<C>,
    pid: impl FnOnce(&C) -> u32,
) -> std::io::Result<C> {
    // Before the first evaluator: whatever kills playtune, its guardian kills the groups.
    super::guard::ensure();
    let old = block_handled();
    SPAWNING.fetch_add(1, Ordering::SeqCst);
    let started = if EXITING.load(Ordering::SeqCst) || HALTS.load(Ordering::SeqCst) > 0 {
        Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "playtune is exiting (interrupted)",
        ))
    } else {
        spawn()
    };
    if let Ok(child) = &started
        && let Ok(pgid) = i32::try_from(pid(child))
    {
        register(pgid);
    }
    SPAWNING.fetch_sub(1, Ordering::SeqCst);
    restore_mask(&old);
    started
}

fn register(pgid: i32) {
    super::guard::started(pgid);
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
    // Every slot taken: this group is still killed at every evaluation's end, but not
    // by a signal handler.
}

/// Forgets group `pgid`: it is dead (killed by [`super::process::kill_group`]) and its
/// leader about to be reaped, after which the id may be given to another process.
pub(crate) fn unregister(pgid: i32) {
    if pgid <= 0 {
        return;
    }
    super::guard::ended(pgid);
    for slot in &GROUPS {
        if slot
            .compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Kills every registered evaluator's process group (SIGKILL), after any evaluator
/// being started has been registered; from now on none starts. Async-signal-safe: for
/// a signal handler on the way to `_exit`, and for a command's (or a Python
/// interpreter's) normal end.
pub fn kill_all() {
    EXITING.store(true, Ordering::SeqCst);
    kill_registered();
}

/// Waits for every evaluator being started to be registered (a second at most), then
/// kills every registered group. Async-signal-safe.
fn kill_registered() {
    // A thread starting an evaluator registers it within microseconds; a second at
    // most is waited for (it cannot be this thread: it blocks the signals meanwhile).
    for _ in 0..1000 {
        if SPAWNING.load(Ordering::SeqCst) == 0 {
            break;
        }
        let nap = libc::timespec {
            tv_sec: 0,
            tv_nsec: 1_000_000,
        };
        // SAFETY: nanosleep is async-signal-safe; `nap` is a valid timespec.
        unsafe {
            libc::nanosleep(&nap, std::ptr::null_mut());
        }
    }
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: kill is async-signal-safe; a group already gone gives ESRCH.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

/// An in-process stop of every evaluator: [`halt`] killed those running, and while it
/// lives none starts (a start is refused as interrupted). Dropping it lets evaluators
/// start again.
#[must_use = "evaluators start again once the halt is dropped"]
pub struct Halt(());

impl Drop for Halt {
    fn drop(&mut self) {
        HALTS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Kills every evaluator running now, without ending the process, and keeps new ones
/// from starting while the [`Halt`] lives: for a caller that stops its work and goes on
/// living (the Python binding on Ctrl-C), where the command line's handler exits.
/// An evaluation whose evaluator it kills fails; the caller drops those evaluations
/// (they were interrupted, not failed: `run::Stop::now`).
pub fn halt() -> Halt {
    HALTS.fetch_add(1, Ordering::SeqCst);
    kill_registered();
    Halt(())
}

/// Makes SIGTERM and SIGHUP, where they still take their default action (ending the
/// process), kill every evaluator's group first and then end the process by the same
/// signal, as before. For a process whose own code does not handle them (a Python
/// interpreter): evaluators sit in groups of their own, and would outlive it. A signal
/// with a handler of its own, or ignored, is left as it is.
pub fn kill_evaluators_on_termination() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            for signal in [libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: sigaction with zeroed, then filled, structs; the handler calls
                // only async-signal-safe functions (kill, nanosleep, signal, raise).
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                        || old.sa_sigaction != libc::SIG_DFL
                    {
                        continue;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    let handler: extern "C" fn(libc::c_int) = end_by_signal;
                    action.sa_sigaction = handler as libc::sighandler_t;
                    libc::sigemptyset(&mut action.sa_mask);
                    for s in HANDLED {
                        libc::sigaddset(&mut action.sa_mask, s);
                    }
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }
}

#[cfg(unix)]
extern "C" fn end_by_signal(signal: libc::c_int) {
    kill_all();
    // SAFETY: signal and raise are async-signal-safe. The signal raised again waits,
    // blocked, until this handler returns, then ends the process by its default action:
    // the parent sees the same signal it sent.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Whether evaluators are being stopped: a [`Halt`] lives, or the process is on its
/// way out. An evaluator that runs in process (a Python game's `play`) stops then.
pub fn halted() -> bool {
    HALTS.load(Ordering::SeqCst) > 0 || EXITING.load(Ordering::SeqCst)
}

/// Whether the process is on its way out ([`kill_all`] ran).
pub fn exiting() -> bool {
    EXITING.load(Ordering::SeqCst)
}

/// Waits for the exit if the process is on its way out: an evaluation whose evaluator
/// the signal handler killed must not be recorded as failed in the moment before the
/// handler's `_exit` (it was interrupted, and `resume` evaluates it again).
pub(crate) fn hold_if_exiting() {
    while exiting() {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The groups registered now (for tests).
pub fn live() -> Vec<i32> {
    GROUPS
        .iter()
        .map(|s| s.load(Ordering::SeqCst))
        .filter(|&g| g > 0)
        .collect()
}

fn block_handled() -> libc::sigset_t {
    // SAFETY: both sets are initialised by sigemptyset before use; pthread_sigmask
    // only changes the calling thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigemptyset(&mut old);
        for s in HANDLED {
            libc::sigaddset(&mut set, s);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        old
    }
}

fn restore_mask(old: &libc::sigset_t) {
    // SAFETY: `old` is the mask pthread_sigmask returned.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, old, std::ptr::null_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_registered_until_killed() {
        let child = super::super::process::spawn_in(
            "sleep 30",
            None,
            &[],
            &[],
            std::process::Stdio::null(),
        )
        .unwrap();
        let pgid = child.id() as i32;
        assert!(live().contains(&pgid));
        let mut child = child;
        super::super::process::kill_group(&child);
        assert!(!live().contains(&pgid));
        let status = child.wait().unwrap();
        assert!(!status.success());
    }
}
