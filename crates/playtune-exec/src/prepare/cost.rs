//! What a design or tuning run will cost, said before it starts. The baseline (the
//! game's own rules, the untuned agent) is timed on this machine, and so are a few
//! points drawn across the space: rules change the length of a game, so the baseline
//! alone can be several times off. The estimate is given with the range those paces
//! span.

use playtune::eval::Problem;
use playtune::run::RunConfig;
use playtune::space::{Space, random_point};
use std::time::Instant;

/// Added to the run's seed for the timed evaluations: their games are not the run's.
const TIMING_SEED: u64 = 0x7133_c057;
/// Timed evaluations of the baseline at most, after the first.
const TIMED: u64 = 5;
/// Points of the space timed, one evaluation each.
const POINTS: usize = 4;
/// Seconds the points' timing may take before it stops early (after one point).
const POINTS_TIME: f64 = 3.0;

/// Seconds an evaluation took at the baseline and at points across the space.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Paces {
    pub(crate) baseline: f64,
    /// One entry a point whose evaluation succeeded.
    pub(crate) points: Vec<f64>,
    /// Points whose evaluation failed.
    pub(crate) failed: usize,
}

impl Paces {
    /// Seconds the run's `search` evaluations and the verdict's `judged` ones (half of
    /// them the baseline) take: the middle estimate, then the lowest and highest.
    pub(crate) fn estimate(&self, search: u64, judged: u64) -> (f64, f64, f64) {
        let mut paces = self.points.clone();
        if paces.is_empty() {
            paces.push(self.baseline);
        }
        let mean = paces.iter().sum::<f64>() / paces.len() as f64;
        let lo = paces.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = paces.iter().copied().fold(0.0, f64::max);
        let at = |pace: f64| {
            search as f64 * pace
                + (judged / 2) as f64 * (self.baseline + pace)
                + (judged % 2) as f64 * self.baseline
        };
        (at(mean), at(lo), at(hi))
    }
}

/// Times the baseline and a few points of `problem` and prints what the run of
/// `config`, with `verdict` evaluations a side a trial, will take. Prints nothing for a
/// problem without a baseline; says so where the baseline's evaluation fails.
pub(crate) fn announce(problem: &dyn Problem, config: &RunConfig, verdict: u32, up_to: bool) {
    if problem.baseline().is_none() {
        return;
    }
    eprintln!(
        "timing evaluations of the baseline and of up to {POINTS} points across the space ..."
    );
    let seed = config.seed.wrapping_add(TIMING_SEED);
    let paces = match time_baseline(problem, seed) {
        Ok((baseline, features)) => {
            warn_if_unplayable(problem, config, &features);
            let (points, failed) = time_points(problem, &config.space, seed);
            Paces {
                baseline,
                points,
                failed,
            }
        }
        Err(e) => {
            eprintln!("cost: the baseline's evaluation failed, so no estimate: {e}");
            return;
        }
    };
    let search = config.budget * config.trials;
    let judged = 2 * u64::from(verdict) * config.trials;
    eprintln!("{}", cost_line(&paces, search, judged, up_to));
}

/// The evaluations a trial whose search, and a verdict played to its cap (as many pairs
/// as the budget, where `judged`), fit in `seconds` at the paces measured on this
/// machine: `seconds / (2 p + b)` with `p` the mean pace across the space and `b` the
/// baseline's (search `B p`, verdict `B (p + b)`); without a verdict `seconds / p`.
/// The error says why no budget fits.
pub fn budget_for(
    problem: &dyn Problem,
    space: &Space,
    seed: u64,
    seconds: f64,
    judged: bool,
) -> Result<u64, String> {
    let seed = seed.wrapping_add(TIMING_SEED);
    let (points, _) = time_points(problem, space, seed);
    let baseline = if judged {
        Some(
            time_baseline(problem, seed)
                .map_err(|e| format!("the baseline's evaluation failed: {e}"))?
                .0,
        )
    } else {
        None
    };
    let p = if points.is_empty() {
        baseline.ok_or("no point of the space could be evaluated to time it")?
    } else {
        points.iter().sum::<f64>() / points.len() as f64
    };
    let per = match baseline {
        Some(b) => 2.0 * p + b,
        None => p,
    };
    let n = (seconds / per.max(1e-9)).floor();
    if n < 5.0 {
        return Err(format!(
            "an evaluation takes about {} here, so it holds fewer than 5 evaluations a trial: give more time or --budget",
            pace_text(p)
        ));
    }
    Ok(n.min(1e9) as u64)
}

/// The cost, in one line: the paces measured, then the run's time with its range.
/// `up_to`: the verdict plays until it decides, `judged` at most.
pub(crate) fn cost_line(paces: &Paces, search: u64, judged: u64, up_to: bool) -> String {
    let (mid, lo, hi) = paces.estimate(search, judged);
    let points = if paces.points.is_empty() {
        "no point of the space could be timed".to_string()
    } else {
        let lo = paces.points.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = paces.points.iter().copied().fold(0.0, f64::max);
        let n = paces.points.len();
        let failed = match paces.failed {
            0 => String::new(),
            f => format!(" ({f} more failed to evaluate)"),
        };
        format!(
            "{} to {} at {n} point{} across the space{failed}",
            pace_text(lo),
            pace_text(hi),
            if n == 1 { "" } else { "s" }
        )
    };
    format!(
        "cost: an evaluation took {} at the baseline and {points}; the run's {search} evaluations and the verdict's {}{judged} come to {}about {} ({} to {} at those paces)",
        pace_text(paces.baseline),
        if up_to { "at most " } else { "" },
        if up_to { "at most " } else { "" },
        pace_text(mid),
        pace_text(lo),
        pace_text(hi),
    )
}

fn pace_text(seconds: f64) -> String {
    if seconds < 0.1 {
        format!("{:.1} ms", 1000.0 * seconds)
    } else {
        playtune::run::duration_text(seconds)
    }
}

/// Seconds an evaluation of the baseline takes once warm: a first one starts what
/// the game needs (its processes), then up to [`TIMED`] more, until half a second;
/// with the mean of every feature over all of them.
fn time_baseline(
    problem: &dyn Problem,
    seed: u64,
) -> Result<(f64, Vec<f64>), playtune::eval::EvalError> {
    let first = problem.evaluate_baseline(seed)?;
    let mut sums = first.features.clone();
    let start = Instant::now();
    let mut n = 0u64;
    while n < TIMED && (n == 0 || start.elapsed().as_secs_f64() < 0.5) {
        n += 1;
        let e = problem.evaluate_baseline(seed.wrapping_add(n))?;
        sums.iter_mut().zip(&e.features).for_each(|(s, f)| *s += f);
    }
    let means = sums.iter().map(|s| s / (n + 1) as f64).collect();
    Ok((start.elapsed().as_secs_f64() / n as f64, means))
}

/// Says, before the search, where the baseline itself breaks the run's constraints on
/// the timing's evaluations: the verdict would judge the answer against rules that
/// are not playable by the run's own measure (4-player Splendor's stalemates broke the
/// default `stalemate_rate <= 0.05` until the design problem held 2 players).
fn warn_if_unplayable(problem: &dyn Problem, config: &RunConfig, features: &[f64]) {
    use playtune::optim::constrained::{Check, violation};
    let names = problem.feature_names();
    let Ok(checks) = Check::resolve(&config.space.constraints, &names, |n| {
        problem.feature_range(n)
    }) else {
        return;
    };
    let broken: Vec<String> = checks
        .iter()
        .filter(|c| violation(std::slice::from_ref(c), features) > 0.0)
        .map(|c| c.constraint.to_string())
        .collect();
    if let Some(label) = problem.baseline().map(|b| b.label)
        && !broken.is_empty()
    {
        eprintln!(
            "note: {label} break {} over the timing's few evaluations: the search holds its answers to constraints the baseline may not meet itself; the verdict says whether each side meets them on its fresh seeds",
            broken.join(", ")
        );
    }
}

/// Seconds of one evaluation at each of up to [`POINTS`] points drawn from the space
/// with `seed` (the same points for the same run). A point whose evaluation fails (an
/// unplayable corner) is left out: the search's own evaluations there fail too.
/// Seconds each point's evaluation took (those that succeeded), and how many failed.
fn time_points(problem: &dyn Problem, space: &Space, seed: u64) -> (Vec<f64>, usize) {
    let mut rng = playtune::rng::rng_from_seed(seed);
    let start = Instant::now();
    let mut paces = Vec::new();
    let mut failed = 0;
    for i in 0..POINTS {
        if i > 0 && start.elapsed().as_secs_f64() > POINTS_TIME {
            break;
        }
        let x = space.decode(&random_point(space, &mut rng));
        let at = Instant::now();
        if problem
            .evaluate(&x, seed.wrapping_add(100 + i as u64))
            .is_ok()
        {
            paces.push(at.elapsed().as_secs_f64());
        } else {
            failed += 1;
        }
    }
    (paces, failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_spans_the_paces_of_the_points() {
        let p = Paces {
            baseline: 0.01,
            points: vec![0.01, 0.04],
            failed: 2,
        };
        // 100 search evaluations and 20 of the verdict (10 a side).
        let (mid, lo, hi) = p.estimate(100, 20);
        assert!((lo - (100.0 * 0.01 + 10.0 * 0.02)).abs() < 1e-12);
        assert!((hi - (100.0 * 0.04 + 10.0 * 0.05)).abs() < 1e-12);
        assert!(lo < mid && mid < hi);
        let line = cost_line(&p, 100, 20, false);
        assert!(
            line.contains(
                "10.0 ms to 40.0 ms at 2 points across the space (2 more failed to evaluate)"
            ),
            "{line}"
        );
    }

    #[test]
    fn without_points_the_baseline_sets_the_pace() {
        let p = Paces {
            baseline: 0.02,
            points: vec![],
            failed: 0,
        };
        let (mid, lo, hi) = p.estimate(10, 4);
        for v in [mid, lo, hi] {
            assert!((v - 0.28).abs() < 1e-12, "{v}");
        }
        assert!(cost_line(&p, 10, 4, true).contains("no point of the space could be timed"));
    }
}
