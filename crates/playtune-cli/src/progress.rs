//! Progress bars on standard error (indicatif), the command line's: a search's bar,
//! the observer a run is handed ([`run::Progress`]), and a bar counting games or
//! evaluations. The floors below draw nothing.

use crate::run::{self, RunConfig};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// A run's progress bar: evaluations done of all its trials' budgets, with the
/// algorithm and the problem beside them.
pub(crate) struct SearchBar(ProgressBar);

impl SearchBar {
    /// A bar drawn once the run starts.
    pub(crate) fn new() -> SearchBar {
        SearchBar(ProgressBar::hidden())
    }
}

impl Default for SearchBar {
    fn default() -> Self {
        SearchBar::new()
    }
}

impl run::Progress for SearchBar {
    fn start(&self, total: u64, config: &RunConfig) {
        let bar = &self.0;
        bar.set_length(total);
        bar.set_style(style("evaluations", " {msg}"));
        // Drawn at once and kept ticking: a first batch can take minutes (MAP-Elites'
        // initial population), and a silent terminal reads as a hung command.
        bar.set_message(format!(
            "({} on {})",
            config.algorithm.name(),
            config.problem.name
        ));
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(Duration::from_millis(500));
    }

    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// A progress bar on standard error counting `len` items of `what` ("games",
/// "verdict evaluations"), hidden unless `show`.
pub(crate) fn counting_bar(show: bool, len: u64, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(style(what, ""));
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The one look of every bar: a spinner, items done of all, `what` they are, time spent
/// and left, then `after`.
fn style(what: &str, after: &str) -> ProgressStyle {
    ProgressStyle::with_template(&format!(
        "{{spinner}} {{pos}}/{{len}} {what} [{{elapsed_precise}} < {{eta_precise}}]{after}"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}
