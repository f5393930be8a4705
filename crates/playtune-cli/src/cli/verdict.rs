//! The verdict on the command line: `--verdict` and `--baseline`, judging a finished
//! run's recommendations ([`playtune::run::verdict`]) and printing them.

use anyhow::{Result, anyhow, bail};
use clap::Args;
use playtune::eval::Problem;
use playtune::run::verdict::Verdict;
use playtune::run::{self, RunConfig, RunResult};
use playtune::space::Space;
use std::path::Path;

/// How a design or tuning run is judged at its end.
#[derive(Args, Clone, Default)]
#[command(next_help_heading = "Verdict")]
pub(super) struct VerdictArgs {
    /// The most evaluations of the recommendation and of the baseline each, on fresh
    /// seeds common to both, at the end of the run: the verdict plays pairs until it
    /// decides (better or worse by the margin, or equal within it) or reaches N; 0
    /// skips it. Without a margin, exactly N [default: the budget, 40 to 1,000;
    /// without a margin an eighth of the budget, 10 to 200].
    #[arg(long, value_name = "N")]
    pub verdict: Option<u32>,
    /// The smallest difference of the fitness the verdict tells from none (a skill
    /// depth or a win rate: 0.05 by default); it stops once the sides differ by it, or
    /// are equal within it, at error rates of 1% (a difference called where there is
    /// none) and 5% (a difference of the margin missed).
    #[arg(long, value_name = "M")]
    pub margin: Option<f64>,
    /// The baseline to judge against, NAME=VALUE (repeatable; names not given keep
    /// the space's default) [default: the problem's own: the game's own rules for
    /// `design`, the untuned agent for `tune-agent`].
    #[arg(long = "baseline", value_name = "NAME=VALUE")]
    pub baseline: Vec<String>,
}

/// A point of `space` from `items` (`NAME=VALUE` each) over `start`, as `flag` gave
/// them.
pub(super) fn parse_point(
    space: &Space,
    start: Vec<f64>,
    items: &[String],
    flag: &str,
) -> Result<Vec<f64>> {
    let mut values = start;
    // Which item gave each dimension: a second value for one is refused, not taken over
    // the first.
    let mut given: Vec<Option<&str>> = vec![None; space.dims.len()];
    for p in items {
        let (name, text) = p
            .split_once('=')
            .ok_or_else(|| anyhow!("{flag} {p}: write NAME=VALUE"))?;
        let (name, text) = (name.trim(), text.trim());
        let d = space.position(name).ok_or_else(|| {
            let names: Vec<&str> = space.names().collect();
            anyhow!(
                "{flag} {p}: the run's space has no dimension `{name}` (it has {})",
                names.join(", ")
            )
        })?;
        if let Some(first) = given[d].replace(p) {
            bail!(
                "{flag} {p}: `{name}` is given twice (first {flag} {first}): give each dimension once"
            );
        }
        let domain = &space.dims[d].domain;
        values[d] = domain.parse_number(text).ok_or_else(|| {
            anyhow!(
                "{flag} {p}: `{text}` is not a value of {name} ({})",
                domain.describe()
            )
        })?;
    }
    space
        .check_fixed(&values)
        .map_err(|e| anyhow!("{flag}: {e}"))?;
    Ok(values)
}

/// Checks `--baseline` against the run's space before any evaluation: a bad name or
/// value fails at once, not after the search.
pub(super) fn check(args: &VerdictArgs, space: &Space) -> Result<()> {
    baseline_point(&args.baseline, space).map(|_| ())
}

/// The point `--baseline` names (`items`, over the space's defaults), if it names one.
pub(super) fn baseline_point(items: &[String], space: &Space) -> Result<Option<Vec<f64>>> {
    if items.is_empty() {
        return Ok(None);
    }
    let start = space.decode(&space.default_indices());
    parse_point(space, start, items, "--baseline").map(Some)
}

/// Judges a finished run as `--verdict` and `--baseline` ask ([`run::verdict::judge_run`]),
/// with a progress bar when `progress`.
pub(super) fn judge_run(
    dir: &Path,
    config: &RunConfig,
    problem: &dyn Problem,
    result: &mut RunResult,
    args: &VerdictArgs,
    progress: bool,
) -> Result<bool> {
    let run::verdict::Plan {
        evaluations: n,
        baseline: kept,
        ..
    } = run::verdict::planned(config, args.verdict);
    run::verdict::VerdictSettings::check_evaluations(n).map_err(|m| anyhow!("--verdict {m}"))?;
    let point = baseline_point(&args.baseline, &config.space)?.or(kept);
    let bar = playtune_exec::progress::counting_bar(
        progress && n > 0 && (point.is_some() || problem.baseline().is_some()),
        2 * u64::from(n) * result.trials.len() as u64,
        "verdict evaluations (the recommendation and the baseline on fresh seeds)",
    );
    let started = std::time::Instant::now();
    let judged =
        run::verdict::judge_run(dir, config, problem, result, n, point.as_deref(), &|| {
            bar.inc(1)
        })
        .map_err(|e| anyhow!("{}: verdict: {e}", dir.display()))?;
    bar.finish_and_clear();
    // Undecided at the cap: what the pairs that would decide cost at this pace. Pairs
    // taken from the log cost nothing here, so the pace is a guess only when some
    // were played now.
    let verdicts: Vec<&Verdict> = result
        .trials
        .iter()
        .filter_map(|t| t.verdict.as_ref())
        .collect();
    let pairs: u32 = verdicts.iter().map(|v| v.pairs).sum();
    let pace = started.elapsed().as_secs_f64() / f64::from(pairs.max(1));
    for (t, v) in result.trials.iter().zip(&verdicts) {
        if let Some(more) = v
            .sequential
            .as_ref()
            .and_then(|q| q.pairs_to_decide)
            .map(|n| n.saturating_sub(u64::from(v.pairs)))
            .filter(|_| progress && pace > 0.001)
        {
            eprintln!(
                "note: trial {}: about {more} more pairs would decide, about {} at this verdict's pace (`playtune resume {} --verdict {}`)",
                t.trial,
                playtune::run::duration_text(pace * more as f64),
                dir.display(),
                u64::from(v.pairs) + more
            );
        }
    }
    Ok(judged)
}

/// How a verdict that played until it decided was asked to play, for its heading.
fn plan_text(q: &run::verdict::Sequential) -> String {
    format!(
        " (until decided, at most {}: margin {}, error rates {:.0}% and {:.0}%)",
        q.cap,
        q.margin,
        100.0 * q.alpha,
        100.0 * q.beta
    )
}

/// Prints a verdict as a table, the sentence last; `constrained`: the run is held to
/// constraints, whose row it then shows.
pub(super) fn print(v: &Verdict, heading: &str, constrained: bool) {
    println!(
        "{heading}: the recommendation and {} each evaluated {} times on fresh seeds, common to both{}",
        v.baseline.label,
        v.evaluations,
        v.sequential.as_ref().map(plan_text).unwrap_or_default()
    );
    let width = v
        .recommendation
        .features
        .iter()
        .map(|f| f.name.len())
        .chain([v.fitness.len(), 11])
        .max()
        .unwrap_or(11);
    let cell = |mean: f64, se: f64| {
        if mean.is_nan() {
            "-".to_string()
        } else {
            format!("{mean:.3} ± {se:.3}")
        }
    };
    println!(
        "  {:width$}  {:>17}  {:>17}",
        "", "recommendation", "baseline"
    );
    println!(
        "  {:width$}  {:>17}  {:>17}",
        v.fitness,
        cell(v.recommendation.mean, v.recommendation.se),
        cell(v.baseline.mean, v.baseline.se)
    );
    for (r, b) in v.recommendation.features.iter().zip(&v.baseline.features) {
        println!(
            "  {:width$}  {:>17}  {:>17}",
            r.name,
            cell(r.mean, r.se),
            cell(b.mean, b.se)
        );
    }
    let constraints = |broken: &[String]| {
        if broken.is_empty() {
            "met".to_string()
        } else {
            format!("breaks {}", broken.join(", "))
        }
    };
    // A run held to no constraint has no row for them: "met" would claim a check.
    if constrained {
        println!(
            "  {:width$}  {:>17}  {:>17}",
            "constraints",
            constraints(&v.recommendation.broken),
            constraints(&v.baseline.broken)
        );
    }
    let settings = |side: &run::verdict::Side| {
        let s: Vec<String> = side
            .settings
            .iter()
            .map(|(k, x)| format!("{k}={x}"))
            .collect();
        s.join(" ")
    };
    if v.alternative {
        println!(
            "  the search's best other answer: {}",
            settings(&v.recommendation)
        );
    }
    if !v.baseline.settings.is_empty() {
        println!("  the baseline: {}", settings(&v.baseline));
    }
    for side in [&v.recommendation, &v.baseline] {
        let failed = side.fitness.iter().filter(|f| f.is_none()).count();
        if let Some(why) = &side.failure {
            println!(
                "  {} failed {failed} of {} evaluations; first reason: {why}",
                side.label, v.evaluations
            );
        }
    }
    println!("  {}", v.sentence);
}
