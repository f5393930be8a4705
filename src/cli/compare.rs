//! `playtune compare`: final values of two or more runs side by side.

use crate::run::read_result;
use crate::stats::{Summary, mann_whitney};
use anyhow::{Result, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct CompareArgs {
    /// Run folders (two or more).
    #[arg(required = true, num_args = 2..)]
    runs: Vec<PathBuf>,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
}

pub fn run(a: CompareArgs) -> Result<()> {
    if a.runs.len() < 2 {
        bail!("compare needs at least two runs");
    }
    let mut groups = Vec::new();
    for dir in &a.runs {
        let r = read_result(dir).map_err(anyhow::Error::msg)?;
        let values: Vec<f64> = r.trials.iter().map(|t| t.final_value()).collect();
        groups.push((dir.display().to_string(), r, values));
    }
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
                serde_json::json!({"run": name, "algorithm": r.algorithm, "n": s.n, "mean": s.mean, "se": s.se(), "success_rate": r.success_rate})
            })
            .collect();
        println!("{}", serde_json::json!({"runs": runs, "pairs": pairs}));
    }
    Ok(())
}
