//! The report of a finished run, as text or as one line of JSON: what ran, the
//! recommendation and its agent, the final values, feasibility and the verdict.

use playtune::eval::{Binding, Problem};
use playtune::run::{self, RunConfig, RunResult};
use std::path::Path;

/// Prints the report of the finished run in `dir` (`json`: one JSON line instead).
pub(in crate::cli) fn report(
    dir: &Path,
    config: &RunConfig,
    problem: &dyn Problem,
    r: &RunResult,
    seconds: f64,
    json: bool,
) {
    let agent = |values: &[f64]| -> Option<String> {
        let binding = Binding::new(&config.space, problem.space()).ok()?;
        let mut full = Vec::new();
        binding.full_point(values, &mut full);
        problem.agent_spec(&full)
    };
    println!(
        "run {} ({} on {}, {} trial(s), seed {})",
        dir.display(),
        r.algorithm,
        r.problem,
        r.trials.len(),
        config.seed
    );
    println!(
        "evaluations: {} search, {} pre-processing, {} selection, {} race, {} re-evaluation ({} reused from the log) in {:.2} s",
        r.spent.search,
        r.spent.preprocess,
        r.spent.select,
        r.spent.race,
        r.spent.reevaluate,
        r.spent.reused,
        seconds
    );
    if r.spent.failed > 0 {
        println!(
            "failed: {} evaluation(s), each with its reason in {}",
            r.spent.failed,
            dir.join(run::files::FAILURES_FILE).display()
        );
    }
    for t in r.trials.iter().take(5) {
        let point: Vec<String> = t
            .recommendation
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut line = if t.history.is_empty() && t.spent.race > 0 {
            // A raced trial's estimate is the race's measurement of its winner.
            format!(
                "trial {}: race mean {:.4} ± {:.4} over {} evaluation(s) on the race's common seeds (the best of the race's entrants, so a little lucky)",
                t.trial, t.estimate, t.estimate_se, t.estimate_samples
            )
        } else if t.history.is_empty() && config.intensify.is_some() && t.estimate_samples > 0 {
            // Intensified, the recommendation is the best point so far, measured on
            // the run's common seeds.
            format!(
                "trial {}: mean {:.4} ± {:.4} over {} search evaluation(s) on the run's common seeds (the best point so far, so a little lucky)",
                t.trial, t.estimate, t.estimate_se, t.estimate_samples
            )
        } else if t.history.is_empty() {
            format!(
                "trial {}: estimate {:.4} (the optimiser's model value)",
                t.trial, t.estimate
            )
        } else {
            // An archive's best elite is measured, but chosen for being best: the
            // luckiest of its cells, not a model.
            format!(
                "trial {}: best elite {:.4} over {} evaluation(s) of it (the luckiest of the archive: `playtune reevaluate` measures it afresh)",
                t.trial, t.estimate, t.estimate_samples
            )
        };
        if let Some(f) = t.true_fitness {
            line += &format!(", true fitness {f} (noise-free, known for this benchmark)");
        }
        if let Some(o) = t.optimal {
            line += if o { " (optimal)" } else { " (not optimal)" };
        }
        if let Some(m) = t.history.last() {
            line += &format!(
                ", coverage {:.2}%, QD score {:.1}, max {:.2}",
                100.0 * m.coverage,
                m.qd_score,
                m.max_fitness
            );
        }
        println!("{line}\n  {}", shorten(&point.join(" "), 400));
        if let Some(spec) = agent(&t.values) {
            println!("  as an agent: {spec}");
        }
    }
    if r.trials.len() > 5 {
        println!(
            "... {} more trials in {}",
            r.trials.len() - 5,
            dir.join(run::RESULT_FILE).display()
        );
    }
    if let Some(s) = r.success_rate {
        println!("optimal in {:.1}% of trials", 100.0 * s);
    }
    if r.trials
        .iter()
        .any(|t| t.true_fitness.is_none() && t.spent.race == 0 && t.history.is_empty())
        && config.intensify.is_none()
        && !run::is_manual(config)
    {
        println!(
            "an estimate is the optimiser's model, not a measurement: `playtune reevaluate {}` plays each recommendation again with fresh seeds",
            dir.display()
        );
    }
    if !config.space.constraints.is_empty() {
        let all: Vec<String> = config
            .space
            .constraints
            .iter()
            .map(|c| c.to_string())
            .collect();
        println!("constraints: {}", all.join("; "));
        for t in &r.trials {
            if let Some(f) = t.feasibility {
                println!(
                    "trial {}: {} feasible and {} infeasible evaluations; recommendation {}",
                    t.trial,
                    f.feasible,
                    f.infeasible,
                    match f.recommendation {
                        Some(true) => "feasible",
                        Some(false) => "INFEASIBLE: no evaluated point met every constraint",
                        None => "never evaluated",
                    }
                );
            }
        }
    }
    for t in r.trials.iter().take(5) {
        if let Some(v) = &t.verdict {
            crate::cli::verdict::print(
                v,
                &format!("verdict, trial {}", t.trial),
                !config.space.constraints.is_empty(),
            );
        }
    }
    println!("{}", final_value_line(&r.final_value));
    if json {
        let first = &r.trials[0];
        let rec: serde_json::Map<String, serde_json::Value> = first
            .recommendation
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        let trials: Vec<_> = r
            .trials
            .iter()
            .map(|t| {
                let mut o = serde_json::json!({
                    "trial": t.trial, "values": t.values, "estimate": t.estimate, "agent": agent(&t.values),
                    "true_fitness": t.true_fitness, "optimal": t.optimal, "evaluations": t.spent.total(),
                });
                if let Some(f) = t.feasibility {
                    o["feasible"] = serde_json::json!(f.feasible);
                    o["infeasible"] = serde_json::json!(f.infeasible);
                    o["recommendation_feasible"] = serde_json::json!(f.recommendation);
                }
                if let Some(v) = &t.verdict {
                    o["verdict"] = serde_json::json!(v);
                }
                if let Some(m) = t.history.last() {
                    o["coverage"] = serde_json::json!(m.coverage);
                    o["qd_score"] = serde_json::json!(m.qd_score);
                    o["max_fitness"] = serde_json::json!(m.max_fitness);
                    o["filled"] = serde_json::json!(m.filled);
                }
                o
            })
            .collect();
        let out = serde_json::json!({
            "run_dir": dir.display().to_string(),
            "algorithm": r.algorithm,
            "problem": r.problem,
            "seed": config.seed,
            "recommendation": rec,
            "agent": agent(&first.values),
            "estimate": first.estimate,
            "true_fitness": first.true_fitness,
            "optimal": first.optimal,
            "evaluations": r.spent.total(),
            "evaluations_search": r.spent.search,
            "evaluations_preprocess": r.spent.preprocess,
            "evaluations_select": r.spent.select,
            "evaluations_race": r.spent.race,
            "evaluations_reevaluate": r.spent.reevaluate,
            "evaluations_reused": r.spent.reused,
            "evaluations_failed": r.spent.failed,
            "success_rate": r.success_rate,
            "mean_final_value": r.final_value.mean,
            "seconds": seconds,
            "search_seconds": r.search_seconds,
            "trials": trials,
        });
        let mut out = out;
        if let Some(v) = &first.verdict {
            out["verdict"] = serde_json::json!(v);
        }
        if let Some(f) = first.feasibility {
            let sum = |g: fn(&playtune::optim::constrained::Feasibility) -> u64| -> u64 {
                r.trials
                    .iter()
                    .filter_map(|t| t.feasibility.as_ref())
                    .map(g)
                    .sum()
            };
            out["constraints"] = serde_json::json!(
                config
                    .space
                    .constraints
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
            );
            out["feasible"] = serde_json::json!(sum(|f| f.feasible));
            out["infeasible"] = serde_json::json!(sum(|f| f.infeasible));
            out["recommendation_feasible"] = serde_json::json!(f.recommendation);
        }
        println!("{out}");
    }
}

fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// The closing line on the trials' final values. One trial has no spread across trials:
/// a standard error of 0 there would read as certainty, so it is not printed.
fn final_value_line(v: &playtune_optim::stats::Summary) -> String {
    if v.n < 2 {
        format!(
            "final value: {:.4} (one trial, so no standard error across trials; --trials N gives one)",
            v.mean
        )
    } else {
        format!(
            "final value: mean {:.4}, se {:.4} over {} trials",
            v.mean,
            v.se(),
            v.n
        )
    }
}
