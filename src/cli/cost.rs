//! What a design or tuning run will cost, said before it starts: one evaluation of the
//! problem's own baseline (the game's own rules, the untuned agent) is timed on this
//! machine and scaled to the run's evaluations and its verdict's.

use crate::eval::Problem;
use crate::run::RunConfig;
use std::time::Instant;

/// Added to the run's seed for the timed evaluation: its games are not the run's.
const TIMING_SEED: u64 = 0x7133_c057;
/// Timed evaluations at most, after the first.
const TIMED: u64 = 5;

/// Times one evaluation of `problem`'s baseline and prints what the run of `config`,
/// with `verdict` evaluations a side a trial, will take at that pace. Prints nothing
/// for a problem without a baseline; says so where the evaluation fails.
pub(super) fn announce(problem: &dyn Problem, config: &RunConfig, verdict: u32) {
    if problem.baseline().is_none() {
        return;
    }
    eprintln!("timing evaluations of the baseline before the search ...");
    match time_one(problem, config.seed.wrapping_add(TIMING_SEED)) {
        Ok(one) => {
            let search = config.budget * config.trials;
            let judged = 2 * u64::from(verdict) * config.trials;
            let total = one * (search + judged) as f64;
            eprintln!(
                "cost: one evaluation took {} on this machine; the run's {search} evaluations and the verdict's {judged} come to about {} at that pace",
                if one < 0.1 {
                    format!("{:.1} ms", 1000.0 * one)
                } else {
                    crate::run::duration_text(one)
                },
                crate::run::duration_text(total)
            );
        }
        Err(e) => eprintln!("cost: the baseline's evaluation failed, so no estimate: {e}"),
    }
}

/// Seconds an evaluation of the baseline takes once warm: a first one starts what
/// the game needs (its processes), then up to [`TIMED`] more, until half a second.
fn time_one(problem: &dyn Problem, seed: u64) -> Result<f64, crate::eval::EvalError> {
    problem.evaluate_baseline(seed)?;
    let start = Instant::now();
    let mut n = 0u64;
    while n < TIMED && (n == 0 || start.elapsed().as_secs_f64() < 0.5) {
        n += 1;
        problem.evaluate_baseline(seed.wrapping_add(n))?;
    }
    Ok(start.elapsed().as_secs_f64() / n as f64)
}
