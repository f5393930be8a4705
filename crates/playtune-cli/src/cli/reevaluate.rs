//! `playtune reevaluate`: a run's recommendations, or any point, evaluated again with
//! fresh seeds, to set the optimiser's estimate beside a measurement.

use playtune::run::reevaluate::{Beside, Reevaluation, reevaluate};
use playtune::run::verdict::{BaselineSource, Judge};
use playtune::run::{self, RunConfig};

/// Most evaluations a point `reevaluate` plays (`--n`).
const MAX_EVALUATIONS: u32 = 1_000_000;
use anyhow::{Result, anyhow, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ReevaluateArgs {
    /// The run folder.
    run: PathBuf,
    /// Evaluations of each point, each with a seed the run never used.
    #[arg(long, short, default_value_t = 30)]
    n: u32,
    /// Only this trial's recommendation [default: every trial's].
    #[arg(long)]
    trial: Option<u64>,
    /// Evaluate this point instead of a recommendation, NAME=VALUE (repeatable): names
    /// not given keep the recommendation's value (trial 0's, or --trial's), or the
    /// space's default where the run has not finished.
    #[arg(long = "point", value_name = "NAME=VALUE")]
    point: Vec<String>,
    /// Seed the fresh evaluations derive from [default: the run's seed]; their seeds
    /// never coincide with the run's own.
    #[arg(long)]
    seed: Option<u64>,
    /// Print one JSON object as the last line of output.
    #[arg(long)]
    json: bool,
    /// The baseline to judge each recommendation against, NAME=VALUE (repeatable)
    /// [default: the problem's own: the game's own rules for `design`, the untuned
    /// agent for `tune-agent`; none for a benchmark].
    #[arg(long = "baseline", value_name = "NAME=VALUE")]
    baseline: Vec<String>,
    /// A verdict of exactly --n pairs with a paired t-test at 0.01, as runs were judged
    /// before 2026-11-29, rather than one that plays until it decides.
    #[arg(long)]
    fixed: bool,
    /// No verdict: only the fresh evaluations of each point.
    #[arg(long)]
    no_verdict: bool,
    #[command(flatten)]
    game: super::RunGameArgs,
}

/// One point to evaluate: where it comes from, its values, and the run's estimate.
struct Target {
    label: String,
    trial: u64,
    values: Vec<f64>,
    /// The search's best other point, where the race kept the baseline: the verdict
    /// judges it, as the run's did.
    alternative: Option<Vec<f64>>,
    estimate: Option<(f64, f64, u64)>,
    true_fitness: Option<f64>,
}

pub(super) fn run(a: ReevaluateArgs) -> Result<()> {
    if a.n == 0 {
        bail!("--n 0: give at least one evaluation");
    }
    // Bounded before anything is sized: each evaluation's result is kept in memory.
    if a.n > MAX_EVALUATIONS {
        bail!(
            "--n {}: give at most {MAX_EVALUATIONS} evaluations a point",
            a.n
        );
    }
    let config = playtune::registry::read_config(&a.run).map_err(anyhow::Error::msg)?;
    if config.problem.name == "manual" {
        bail!(
            "{}: problem `manual` is evaluated outside playtune, so playtune cannot evaluate its points again; `playtune ask` and `playtune tell` are the way to evaluate them",
            a.run.display()
        );
    }
    let problem = a.game.problem(&config, "reevaluate", &a.run)?;
    run::check_game(&config, problem.as_ref())
        .map_err(|e| anyhow!("{}: {e}", a.run.join(run::CONFIG_FILE).display()))?;
    let mut targets = targets(&a, &config)?;
    let seed = a.seed.unwrap_or(config.seed);
    let mut rows = Vec::new();
    let binding = playtune::eval::Binding::new(&config.space, problem.space())
        .map_err(|e| anyhow!("{}: {}", a.run.display(), e.message))?;
    let baseline = super::verdict::baseline_point(&a.baseline, &config.space)?;
    // The verdict: each point beside the baseline on the same fresh seeds.
    let judged = !a.no_verdict && (baseline.is_some() || problem.baseline().is_some());
    if judged && a.n < 2 && !a.json {
        println!(
            "no verdict: it compares at least 2 evaluations a side (--n {} gives 1)",
            a.n
        );
    }
    let judge = (judged && a.n >= 2).then(|| Judge {
        space: &config.space,
        problem: problem.as_ref(),
        retries: config.faults.retries,
        seed,
        evaluations: a.n,
        // As the run was judged: until it decides, --n at most, where it has a margin;
        // --fixed plays --n pairs and tests them as runs before 2026-11-29 were.
        margin: config
            .verdict
            .as_ref()
            .and_then(|v| v.margin)
            .filter(|_| !a.fixed),
    });
    for t in targets.iter_mut() {
        if t.true_fitness.is_none() {
            let mut full = Vec::new();
            binding.full_point(&t.values, &mut full);
            t.true_fitness = problem.true_fitness(&full);
        }
        let r = reevaluate(
            &config.space,
            problem.as_ref(),
            config.faults.retries,
            &t.values,
            t.trial,
            a.n,
            seed,
        )
        .map_err(|e| anyhow!("{}: {e}", a.run.display()))?;
        print_target(&config, t, &r, a.n);
        let verdict = match &judge {
            Some(judge) => {
                let baseline = match &baseline {
                    Some(p) => BaselineSource::Point(p),
                    None => BaselineSource::Own,
                };
                let bar = playtune_exec::progress::counting_bar(
                    !a.json,
                    2 * u64::from(a.n),
                    "verdict evaluations (the point and the baseline on fresh seeds)",
                );
                let v = judge
                    .recommendation(
                        &t.values,
                        t.alternative.as_deref(),
                        t.trial,
                        baseline,
                        &|| bar.inc(1),
                    )
                    .map_err(|e| anyhow!("{}: verdict: {e}", a.run.display()))?;
                bar.finish_and_clear();
                super::verdict::print(&v, "  verdict", !config.space.constraints.is_empty());
                Some(v)
            }
            None => None,
        };
        rows.push(serde_json::json!({
            "verdict": verdict,
            "trial": t.trial,
            "point": playtune::eval::point_json(&config.space, &t.values),
            "estimate": t.estimate.map(|e| e.0),
            "estimate_se": t.estimate.map(|e| e.1),
            "mean": r.summary.mean,
            "se": r.summary.se(),
            "sd": r.summary.sd(),
            "evaluations": r.fitness.len(),
            "failed": r.failures.len(),
            "true_fitness": t.true_fitness,
        }));
    }
    if a.json {
        println!(
            "{}",
            serde_json::json!({
                "run_dir": a.run.display().to_string(),
                "seed": seed,
                "n": a.n,
                "points": rows,
            })
        );
    }
    Ok(())
}

fn targets(a: &ReevaluateArgs, config: &RunConfig) -> Result<Vec<Target>> {
    let result = if a.run.join(run::RESULT_FILE).is_file() {
        Some(playtune::registry::read_result(&a.run).map_err(anyhow::Error::msg)?)
    } else {
        None
    };
    let trials: Vec<&run::TrialResult> = match &result {
        Some(r) => r
            .trials
            .iter()
            .filter(|t| a.trial.is_none_or(|k| t.trial == k))
            .collect(),
        None => Vec::new(),
    };
    if let (Some(k), Some(r)) = (a.trial, &result)
        && trials.is_empty()
    {
        bail!(
            "--trial {k}: the run has trials 0 to {}",
            r.trials.len().saturating_sub(1)
        );
    }
    if a.point.is_empty() {
        if result.is_none() {
            bail!(
                "{}: the run has not finished, so it has no recommendation yet; finish it, or name a point with --point NAME=VALUE",
                a.run.display()
            );
        }
        return Ok(trials
            .into_iter()
            .map(|t| Target {
                label: format!("trial {} recommendation", t.trial),
                trial: t.trial,
                values: t.values.clone(),
                alternative: t.alternative.clone(),
                estimate: Some((t.estimate, t.estimate_se, t.estimate_samples)),
                true_fitness: t.true_fitness,
            })
            .collect());
    }
    let space = &config.space;
    let values = match trials.first() {
        Some(t) => t.values.clone(),
        None => space.decode(&space.default_indices()),
    };
    let values = super::verdict::parse_point(space, values, &a.point, "--point")?;
    Ok(vec![Target {
        label: "point".into(),
        trial: a.trial.unwrap_or(0),
        values,
        alternative: None,
        estimate: None,
        true_fitness: None,
    }])
}

fn print_target(config: &RunConfig, t: &Target, r: &Reevaluation, n: u32) {
    let point: Vec<String> = config
        .space
        .render(&t.values)
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    println!("{}: {}", t.label, point.join(" "));
    if let Some((estimate, se, samples)) = t.estimate {
        if samples >= 2 {
            println!(
                "  estimate        {estimate:.4} ± {se:.4}  (the optimiser's model of this point, from {samples} samples: not a measurement)"
            );
        } else {
            println!(
                "  estimate        {estimate:.4}  (the optimiser's model of this point, from {samples} sample, so no standard error: not a measurement)"
            );
        }
    }
    match r.fitness.len() {
        0 => println!("  re-evaluated    every one of {n} evaluation(s) failed"),
        // One evaluation has no spread: a standard error of 0 would read as certainty.
        1 => println!(
            "  re-evaluated    {:.4}  (one fresh evaluation, so no standard error: --n 2 or more measures one)",
            r.summary.mean
        ),
        k => {
            let min = r.fitness.iter().copied().fold(f64::INFINITY, f64::min);
            let max = r.fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            println!(
                "  re-evaluated    {:.4} ± {:.4}  (mean ± standard error of {k} fresh evaluations; sd {:.4}, min {:.4}, max {:.4})",
                r.summary.mean,
                r.summary.se(),
                r.summary.sd(),
                min,
                max
            );
        }
    }
    if let Some(f) = t.true_fitness {
        println!("  true fitness    {f}  (noise-free, known for this benchmark)");
    }
    if !r.failures.is_empty() {
        println!(
            "  failed          {} of {n} evaluation(s); first reason: {}",
            r.failures.len(),
            r.failures[0]
        );
    }
    let Some((estimate, _, _)) = t.estimate else {
        return;
    };
    match r.beside(estimate) {
        Beside::Unmeasured => {}
        // Their standard error is 0 (or rounding's): a gap counted in it means nothing.
        Beside::Agree { value, gap: 0.0 } => println!(
            "  the {} re-evaluations all agree at {value:.4}, and so does the estimate",
            r.fitness.len()
        ),
        Beside::Agree { value, gap } => println!(
            "  the {} re-evaluations all agree at {value:.4}; the estimate is {:.4} {} them: trust the re-evaluation",
            r.fitness.len(),
            gap.abs(),
            if gap > 0.0 { "above" } else { "below" }
        ),
        Beside::StandardErrors { gap, se } if gap.abs() > 3.0 * se => println!(
            "  the estimate is {:.1} standard errors {} the re-evaluated mean: trust the re-evaluation",
            gap.abs() / se,
            if gap > 0.0 { "above" } else { "below" }
        ),
        Beside::StandardErrors { .. } => {}
    }
}
