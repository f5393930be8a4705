//! What Ctrl-C prints: a command that writes a folder says, once it exists, how to go on
//! from what it holds. Every row of a log is written as it finishes, so an interrupted
//! command loses nothing but the evaluations under way; the hint says what to type.

use std::sync::atomic::{AtomicPtr, Ordering};

/// The message for SIGINT, leaked on purpose (a few bytes per command): a signal handler
/// may only read memory that is never freed.
static HINT: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());

/// From now on, Ctrl-C prints `hint` (on its own line, after "interrupted: ") and exits
/// with status 130, as a shell reports a SIGINT.
pub fn on_interrupt(hint: &str) {
    let text = format!("\ninterrupted: {hint}\n").into_bytes();
    HINT.store(Box::into_raw(Box::new(text)), Ordering::SeqCst);
    #[cfg(unix)]
    // SAFETY: the handler calls only async-signal-safe functions (write, _exit) and
    // reads memory that stays valid for the life of the process.
    unsafe {
        let handler: extern "C" fn(libc::c_int) = handle;
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

#[cfg(unix)]
extern "C" fn handle(_signal: libc::c_int) {
    let hint = HINT.load(Ordering::SeqCst);
    // SAFETY: a non-null HINT points to a leaked Vec that is never freed or changed.
    unsafe {
        if !hint.is_null() {
            let bytes = &*hint;
            libc::write(2, bytes.as_ptr().cast(), bytes.len());
        }
        libc::_exit(130);
    }
}
