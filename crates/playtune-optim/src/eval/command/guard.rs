//! The guardian: a process that outlives playtune by an instant, to kill the process
//! groups of the evaluators and game processes still running when playtune dies
//! without a chance to (SIGKILL, the kernel's out-of-memory killer, a crash).
//!
//! Playtune's own handlers (Ctrl-C, SIGTERM, SIGHUP) and its normal end kill every
//! group it started ([`super::groups`]); a process killed with SIGKILL runs nothing,
//! and the groups, which sit apart from playtune's own so that a deadline can kill
//! them whole, would run on, a hung one for ever. A parent-death signal
//! (`PR_SET_PDEATHSIG`) is no help: it is sent when the *thread* that started a
//! process ends, not the process (evaluators are started from threads that come and
//! go), and it reaches only that process, not the game a `sh -c` runs, nor its
//! children.
//!
//! So at the first evaluator, playtune forks a guardian that holds one end of a
//! socket pair; playtune keeps the other (close-on-exec, so no evaluator holds it).
//! Playtune tells it each group it starts and each it has killed; when playtune's end
//! closes, which the kernel does however playtune dies, the guardian's read ends, and
//! it kills every group it was told of and not told was gone, then exits. Linux only;
//! elsewhere nothing outlives playtune to do so.

/// Tells the guardian (started at the first call) that group `pgid` has started.
pub(crate) fn started(pgid: i32) {
    #[cfg(target_os = "linux")]
    linux::tell(pgid);
    #[cfg(not(target_os = "linux"))]
    let _ = pgid;
}

/// Tells the guardian that group `pgid` was killed: its leader is about to be reaped,
/// after which the id may be another's, which the guardian must then not kill.
pub(crate) fn ended(pgid: i32) {
    #[cfg(target_os = "linux")]
    if pgid > 0 {
        linux::tell(-pgid);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pgid;
}

/// Starts the guardian if it is not running yet; a process that cannot start one
/// goes on without (it only loses the clean-up after a SIGKILL).
pub(crate) fn ensure() {
    #[cfg(target_os = "linux")]
    linux::ensure();
}

/// The guardian's process id, if one was started (for tests).
#[cfg(test)]
pub(crate) fn pid() -> Option<i32> {
    #[cfg(target_os = "linux")]
    return linux::pid();
    #[cfg(not(target_os = "linux"))]
    None
}

#[cfg(target_os = "linux")]
mod linux {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Playtune's end of the socket pair; -1 while there is no guardian.
    static SOCKET: AtomicI32 = AtomicI32::new(-1);
    static GUARDIAN: AtomicI32 = AtomicI32::new(-1);
    static START: Once = Once::new();
    /// Most groups the guardian keeps: as many as playtune tracks for its handlers.
    const SLOTS: usize = 4096;

    #[cfg(test)]
    pub(super) fn pid() -> Option<i32> {
        Some(GUARDIAN.load(Ordering::SeqCst)).filter(|&p| p > 0)
    }

    pub(super) fn ensure() {
        START.call_once(|| {
            let mut fds = [0 as libc::c_int; 2];
            // SAFETY: `fds` has room for the two descriptors socketpair writes.
            let made = unsafe {
                libc::socketpair(
                    libc::AF_UNIX,
                    libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
                    0,
                    fds.as_mut_ptr(),
                )
            };
            if made != 0 {
                return;
            }
            let [ours, theirs] = fds;
            // SAFETY: fork in a process with threads: the child runs only
            // async-signal-safe calls (see `guard`) and never returns.
            match unsafe { libc::fork() } {
                0 => unsafe { guard(theirs) },
                -1 => {
                    // SAFETY: both descriptors are ours and open.
                    unsafe {
                        libc::close(ours);
                        libc::close(theirs);
                    }
                }
                child => {
                    // SAFETY: the guardian holds its own copy.
                    unsafe {
                        libc::close(theirs);
                    }
                    GUARDIAN.store(child, Ordering::SeqCst);
                    SOCKET.store(ours, Ordering::SeqCst);
                }
            }
        });
    }

    /// Sends one record: a group started (its id) or ended (minus its id).
    pub(super) fn tell(record: i32) {
        let fd = SOCKET.load(Ordering::SeqCst);
        if fd < 0 {
            return;
        }
        let bytes = record.to_ne_bytes();
        let mut sent = 0;
        while sent < bytes.len() {
            // SAFETY: the slice outlives the call. MSG_NOSIGNAL: a guardian gone makes
            // the send fail with EPIPE rather than raise SIGPIPE, which would end
            // playtune (it keeps SIGPIPE's default action). Four bytes go in one piece
            // on a Unix socket, so records from several threads do not interleave.
            let n = unsafe {
                libc::send(
                    fd,
                    bytes[sent..].as_ptr().cast(),
                    bytes.len() - sent,
                    libc::MSG_NOSIGNAL,
                )
            };
            if n > 0 {
                sent += n as usize;
            } else if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                // The guardian is gone: nobody is left to tell.
                return;
            }
        }
    }

    /// The guardian's life: reads records until playtune's end of the socket closes,
    /// then kills every group still live. Only async-signal-safe calls (the process
    /// was forked from one with threads), on a fixed table: no allocation, no lock.
    unsafe fn guard(socket: libc::c_int) -> ! {
        // SAFETY (the whole body): each call is async-signal-safe and given valid
        // arguments: descriptors of this process, zeroed and then filled structs,
        // buffers that outlive the calls.
        unsafe {
            // A group of its own: the terminal's Ctrl-C, meant for playtune (which
            // handles it), must not end the guardian first, which would then be gone
            // for a later SIGKILL of a playtune that lives on (the Python binding).
            libc::setpgid(0, 0);
            for s in [libc::SIGINT, libc::SIGHUP, libc::SIGQUIT, libc::SIGPIPE] {
                libc::signal(s, libc::SIG_IGN);
            }
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            libc::prctl(libc::PR_SET_NAME, c"playtune-guard".as_ptr());
            // Hold nothing of playtune's but the socket: not its standard streams (a
            // reader of playtune's output would wait on the guardian too), nor the
            // pipes of the evaluators running now (one would never see its input end).
            let fd = socket as libc::c_uint;
            if fd > 0 {
                close_range(0, fd - 1);
            }
            close_range(fd + 1, libc::c_uint::MAX);
            let mut groups = [0i32; SLOTS];
            let mut record = [0u8; 4];
            let mut have = 0usize;
            loop {
                let n = libc::read(
                    socket,
                    record[have..].as_mut_ptr().cast(),
                    record.len() - have,
                );
                if n < 0 && *libc::__errno_location() == libc::EINTR {
                    continue;
                }
                if n <= 0 {
                    break;
                }
                have += n as usize;
                if have < record.len() {
                    continue;
                }
                have = 0;
                let r = i32::from_ne_bytes(record);
                if r > 0 {
                    if let Some(slot) = groups.iter_mut().find(|g| **g == 0) {
                        *slot = r;
                    }
                } else if let Some(slot) = groups.iter_mut().find(|g| **g == -r) {
                    *slot = 0;
                }
            }
            for &g in &groups {
                if g > 0 {
                    libc::kill(-g, libc::SIGKILL);
                }
            }
            libc::_exit(0)
        }
    }

    /// Closes descriptors `from..=to`: close_range where the kernel has it (5.9 on),
    /// else one by one up to the limit on open files.
    unsafe fn close_range(from: libc::c_uint, to: libc::c_uint) {
        // SAFETY: closing descriptors is async-signal-safe; a closed one gives EBADF.
        unsafe {
            if libc::syscall(libc::SYS_close_range, from, to, 0) == 0 {
                return;
            }
            let mut limit: libc::rlimit = std::mem::zeroed();
            let most = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
                limit.rlim_cur.min(1 << 20) as libc::c_uint
            } else {
                1024
            };
            let mut fd = from;
            while fd <= to && fd < most {
                libc::close(fd as libc::c_int);
                fd += 1;
            }
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The guardian holds nothing of playtune's but its socket: no standard stream, no
    /// evaluator's pipe (which would keep it from seeing its input end).
    #[test]
    fn the_guardian_holds_only_its_socket() {
        super::ensure();
        let pid = super::pid().expect("a guardian");
        let look = || {
            let fds: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap();
            (fds, comm.trim().to_string())
        };
        // It closes them as it starts: waited for (30 s at most), not timed.
        let start = std::time::Instant::now();
        let mut seen = look();
        while (seen.0.len() != 1 || seen.1 != "playtune-guard")
            && start.elapsed() < std::time::Duration::from_secs(30)
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
            seen = look();
        }
        assert_eq!(seen.0.len(), 1, "{seen:?}");
        assert_eq!(seen.1, "playtune-guard");
    }
}
