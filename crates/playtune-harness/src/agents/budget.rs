//! A decision's forward-model budget: the calls still allowed, and optionally a limit
//! on thinking time, measured as the deciding thread's CPU time.

use crate::game::Game;

/// Forward-model calls ([`Game::advance`]) still allowed in one decision, and
/// optionally a limit on thinking time.
///
/// Thinking time is the deciding thread's CPU time, not the wall clock: games run in
/// parallel, one per thread, and a build or another game sharing a core must not take
/// thinking time from an agent. It is still a measurement, so a timed decision is not
/// reproducible from its seed; call budgets are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    left: usize,
    /// The thread CPU time at which thinking stops, if timed.
    deadline: Option<std::time::Duration>,
    /// Calls until the clock is read again (reading it is a system call).
    until_check: u32,
}

/// Calls between two readings of the clock of a timed budget.
const CHECK_EVERY: u32 = 16;

/// CPU time used so far by the calling thread.
pub fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux and
    // macOS both define. On failure `ts` stays zero, which only ends thinking early.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    std::time::Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

impl Budget {
    /// `calls` forward-model calls, untimed.
    pub fn new(calls: usize) -> Self {
        Budget {
            left: calls,
            deadline: None,
            until_check: CHECK_EVERY,
        }
    }

    /// `calls` calls, and at most `time` of this thread's CPU time from now.
    pub fn timed(calls: usize, time: std::time::Duration) -> Self {
        Budget {
            deadline: Some(thread_cpu_time() + time),
            ..Budget::new(calls)
        }
    }

    /// Calls still allowed.
    pub fn left(&self) -> usize {
        self.left
    }

    /// Whether thinking may go on: calls are left and the time limit, if any, has not
    /// passed (the clock is read every few checks). Work that costs no forward-model
    /// call, such as a learned evaluation, checks here.
    pub fn check(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        if let Some(deadline) = self.deadline {
            self.until_check = self.until_check.saturating_sub(1);
            if self.until_check == 0 {
                self.until_check = CHECK_EVERY;
                if thread_cpu_time() >= deadline {
                    self.left = 0;
                    return false;
                }
            }
        }
        true
    }

    /// Whether the time limit, if any, still allows thinking (it does not spend a
    /// call): for work that costs no forward-model call, such as a learned leaf
    /// evaluation. An untimed budget always answers true.
    pub(crate) fn in_time(&mut self) -> bool {
        self.deadline.is_none() || self.check()
    }

    /// Applies `actions` to `state` if a call is left (and spends it); returns false,
    /// leaving `state` untouched, if the budget is spent.
    pub fn advance<G: Game>(&mut self, state: &mut G, actions: &[G::Action]) -> bool {
        if !self.check() {
            return false;
        }
        self.left -= 1;
        state.advance(actions);
        true
    }
}
