//! What a driven run tells its observer as it goes. The library draws nothing; the
//! command line hands in a progress bar, a caller of its own may count or log.

use crate::RunConfig;

/// An observer of a driven run's evaluations (see [`Options::progress`](crate::Options)).
/// Called from the run's worker threads, hence `Sync`.
pub trait Progress: Sync {
    /// The run starts: `total` evaluations in all (every trial's budget) for `config`.
    fn start(&self, total: u64, config: &RunConfig);
    /// `n` more evaluations are counted, replayed from the log or evaluated.
    fn advance(&self, n: u64);
    /// Every trial has ended, finished or stopped.
    fn finish(&self);
}

/// The observer of a run nobody watches.
pub(crate) struct Unobserved;

impl Progress for Unobserved {
    fn start(&self, _: u64, _: &RunConfig) {}
    fn advance(&self, _: u64) {}
    fn finish(&self) {}
}
