//! What Ctrl-C and SIGTERM do: kill the external evaluators running now, say how to go
//! on, exit.
//!
//! Evaluators sit in process groups of their own, so the terminal's SIGINT (sent to
//! its foreground group) and a SIGTERM sent to playtune alone never reach them: the
//! handler kills their groups (`eval::evaluator_groups`), then exits with status 130
//! (SIGINT), 143 (SIGTERM) or 129 (SIGHUP), as a shell reports those signals. Every
//! row of a log is written as it finishes, so an interrupted command loses nothing but
//! the evaluations under way; a command that writes a folder says, once it exists, how
//! to go on from what it holds. A signal the parent set to be ignored (`nohup`, a
//! background job of a script) stays ignored.

use std::sync::atomic::{AtomicPtr, Ordering};

/// The hint, leaked on purpose (a few bytes per command): a signal handler may only
/// read memory that is never freed.
static HINT: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());

/// From now on, Ctrl-C prints `hint` (on its own line, after "interrupted: "; after
/// "terminated: " for SIGTERM) and exits with status 130 (143), having killed the
/// evaluators.
pub(super) fn on_interrupt(hint: &str) {
    let text = format!("{hint}\n").into_bytes();
    HINT.store(Box::into_raw(Box::new(text)), Ordering::SeqCst);
    install();
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (once; `main` does it for every
/// command, so that no command leaves evaluators behind).
pub(super) fn install() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: sigaction with a zeroed, then filled, struct; the handler
                // calls only async-signal-safe functions (kill, nanosleep, write,
                // _exit) and reads memory that stays valid for the life of the
                // process.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                        || old.sa_sigaction == libc::SIG_IGN
                    {
                        continue;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    let handler: extern "C" fn(libc::c_int) = handle;
                    action.sa_sigaction = handler as libc::sighandler_t;
                    // The other signals wait while one is handled: one exit, one hint.
                    libc::sigemptyset(&mut action.sa_mask);
                    for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                        libc::sigaddset(&mut action.sa_mask, s);
                    }
                    action.sa_flags = libc::SA_RESTART;
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }
}

#[cfg(unix)]
extern "C" fn handle(signal: libc::c_int) {
    playtune::eval::evaluator_groups::kill_all();
    let hint = HINT.load(Ordering::SeqCst);
    let what: &[u8] = match signal {
        libc::SIGTERM => b"\nterminated: ",
        libc::SIGHUP => b"\nhung up: ",
        _ => b"\ninterrupted: ",
    };
    // SAFETY: a non-null HINT points to a leaked Vec that is never freed or changed;
    // write and _exit are async-signal-safe.
    unsafe {
        if !hint.is_null() {
            let bytes = &*hint;
            libc::write(2, what.as_ptr().cast(), what.len());
            libc::write(2, bytes.as_ptr().cast(), bytes.len());
        }
        libc::_exit(128 + signal);
    }
}
