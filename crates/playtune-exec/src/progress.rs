//! Progress bars on standard error (indicatif), the command line's: a search's bar,
//! the observer a run is handed ([`run::Progress`]), and a bar counting games or
//! evaluations. The floors below draw nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use playtune::run::{self, RunConfig};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A run's progress on standard error: its folder first, then on a terminal a bar of
/// evaluations done of all its trials' budgets, with the algorithm and the problem
/// beside it; elsewhere (a log, a pipe) a plain line at every tenth done and at least
/// once a minute, which a log can follow.
pub(crate) struct SearchBar {
    bar: ProgressBar,
    dir: PathBuf,
    /// Where standard error is not a terminal: the plain lines' count.
    plain: Option<Mutex<Plain>>,
}

/// What the plain lines have said so far.
struct Plain {
    start: Instant,
    last: Instant,
    done: u64,
    total: u64,
    tenths: u64,
}

/// The longest a log waits for a plain line while evaluations go on.
const PLAIN_EVERY: Duration = Duration::from_secs(60);

impl SearchBar {
    /// The progress of the run in `dir`, drawn once the run starts.
    pub(crate) fn new(dir: &Path) -> SearchBar {
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            Mutex::new(Plain {
                start: Instant::now(),
                last: Instant::now(),
                done: 0,
                total: 0,
                tenths: 0,
            })
        });
        SearchBar {
            bar: ProgressBar::hidden(),
            dir: dir.to_path_buf(),
            plain,
        }
    }
}

impl run::Progress for SearchBar {
    fn start(&self, total: u64, config: &RunConfig) {
        // The folder first, so that a log names it before minutes of search.
        eprintln!(
            "run {}: {total} evaluations ({} on {})",
            self.dir.display(),
            config.algorithm.name(),
            config.problem.name
        );
        if let Some(p) = &self.plain {
            if let Ok(mut p) = p.lock() {
                p.total = total;
                p.start = Instant::now();
                p.last = p.start;
            }
            return;
        }
        let bar = &self.bar;
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
        let Some(p) = &self.plain else {
            self.bar.inc(n);
            return;
        };
        let Ok(mut p) = p.lock() else {
            return;
        };
        p.done += n;
        let tenths = p.done * 10 / p.total.max(1);
        let now = Instant::now();
        if tenths > p.tenths || now - p.last >= PLAIN_EVERY {
            let elapsed = (now - p.start).as_secs_f64();
            let left = if p.done > 0 && p.done < p.total {
                format!(
                    ", about {} left",
                    run::duration_text(elapsed * (p.total - p.done) as f64 / p.done as f64)
                )
            } else {
                String::new()
            };
            eprintln!(
                "progress: {} of {} evaluations ({}%) in {}{left}",
                p.done,
                p.total,
                p.done * 100 / p.total.max(1),
                run::duration_text(elapsed)
            );
            p.tenths = tenths;
            p.last = now;
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A progress bar on standard error counting `len` items of `what` ("games",
/// "verdict evaluations"), hidden unless `show`.
pub fn counting_bar(show: bool, len: u64, what: &str) -> ProgressBar {
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

/// Runs `play` on a thread of its own while a progress bar on a terminal counts the
/// games its `Watch` has seen played, of `total`.
pub fn with_games_bar<T: Send>(
    total: u64,
    play: impl FnOnce(&playtune::harness::Watch) -> Result<T, playtune::harness::Error> + Send,
) -> anyhow::Result<T> {
    let watch = playtune::harness::Watch::default();
    let bar = crate::progress::counting_bar(true, total, "games");
    let r = std::thread::scope(|s| {
        let playing = s.spawn(|| play(&watch));
        while !playing.is_finished() {
            bar.set_position(watch.played() as u64);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        playing.join()
    });
    bar.finish_and_clear();
    match r {
        Ok(r) => r.map_err(anyhow::Error::msg),
        Err(p) => std::panic::resume_unwind(p),
    }
}
