//! `playtune compare`: final values of two or more runs side by side.

use anyhow::{Result, bail};
use clap::Args;
use playtune::registry::read_result;
use playtune_optim::stats::{Summary, mann_whitney};
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct CompareArgs {
    /// Run folders (two or more).
    #[arg(required = true, num_args = 2..)]
    runs: Vec<PathBuf>,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(a: CompareArgs) -> Result<()> {
    if a.runs.len() < 2 {
        bail!("compare needs at least two runs");
    }
    let mut groups = Vec::new();
    for dir in &a.runs {
        let r = read_result(dir).map_err(anyhow::Error::msg)?;
        let values: Vec<f64> = r.trials.iter().map(|t| t.final_value()).collect();
        groups.push((dir.display().to_string(), r, values));
    }
    // Ranked best first, by what was measured: a true fitness, a verdict's fresh
    // mean, a QD score; an optimiser's estimate only where nothing was measured, and
    // then the table says so.
    groups.sort_by(|a, b| Summary::of(&b.2).mean.total_cmp(&Summary::of(&a.2).mean));
    let estimated: Vec<&str> = groups
        .iter()
        .filter(|(_, r, _)| r.trials.iter().any(|t| !t.final_value_measured()))
        .map(|(name, _, _)| name.as_str())
        .collect();
    println!(
        "{:40} {:>8} {:>6} {:>12} {:>10} {:>8}",
        "run", "algo", "n", "mean", "se", "success"
    );
    for (name, r, v) in &groups {
        let s = Summary::of(v);
        let success = r
            .success_rate
            .map(|x| format!("{:.1}%", 100.0 * x))
            .unwrap_or_else(|| "-".into());
        println!(
            "{name:40} {:>8} {:>6} {:>12.4} {:>10.4} {:>8}",
            r.algorithm,
            s.n,
            s.mean,
            s.se(),
            success
        );
    }
    if !estimated.is_empty() {
        println!(
            "\nestimates, not measurements, for {}: the optimiser's model of its own answer can be far from it; `playtune reevaluate RUN` measures it on fresh seeds",
            estimated.join(", ")
        );
    }
    println!("\ntwo-tailed Mann-Whitney U:");
    let mut pairs = Vec::new();
    for i in 0..groups.len() {
        for j in i + 1..groups.len() {
            match mann_whitney(&groups[i].2, &groups[j].2) {
                Some(m) => {
                    println!(
                        "  {} vs {}: U = {}, p = {:.3e}",
                        groups[i].0, groups[j].0, m.u, m.p
                    );
                    pairs.push(
                        serde_json::json!({"a": groups[i].0, "b": groups[j].0, "u": m.u, "p": m.p}),
                    );
                }
                None => println!(
                    "  {} vs {}: not testable (empty or NaN values)",
                    groups[i].0, groups[j].0
                ),
            }
        }
    }
    if a.json {
        let runs: Vec<_> = groups
            .iter()
            .map(|(name, r, v)| {
                let s = Summary::of(v);
                let measured = r.trials.iter().all(|t| t.final_value_measured());
                serde_json::json!({"run": name, "algorithm": r.algorithm, "n": s.n, "mean": s.mean, "se": s.se(), "success_rate": r.success_rate, "measured": measured})
            })
            .collect();
        println!("{}", serde_json::json!({"runs": runs, "pairs": pairs}));
    }
    Ok(())
}
