//! `playtune ladder`: bots of graded difficulty from a play-style archive. Elites of
//! increasing archive win rate (or any feature) play a round robin on levels the
//! search never used; the table says whether the ordering holds.

use crate::experiments::strategy::{ladder, run};
use crate::games::strategy::{training_levels, validation_levels};
use crate::optim::map_elites::Archive;
use crate::run::{read_config, read_result};
use anyhow::{Result, anyhow, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct LadderArgs {
    /// A finished MAP-Elites run of the strategy-styles problem.
    run: PathBuf,
    /// Which trial's archive.
    #[arg(long, default_value_t = 0)]
    trial: usize,
    /// Elites to pick, evenly spaced from the lowest to the highest value of --by.
    #[arg(long, default_value_t = 5)]
    pick: usize,
    /// The column that orders them: fitness (the archive's win rate) or a feature.
    #[arg(long, default_value = "fitness")]
    by: String,
    /// Level set: validation (never used in the search) or training.
    #[arg(long, default_value = "validation")]
    levels: String,
    /// How many levels of the set.
    #[arg(long, default_value_t = 20)]
    level_count: usize,
    /// Games per pair and level, seats alternating.
    #[arg(long, default_value_t = 4)]
    games: usize,
    /// Seed: every game and evaluation derives its seed from it, so the same seed
    /// gives the same results with any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    output: super::OutputArgs,
}

pub fn ladder_cmd(a: LadderArgs) -> Result<()> {
    if a.pick < 2 || a.games == 0 || a.level_count == 0 {
        bail!("--pick must be at least 2, --games and --level-count at least 1");
    }
    let config = read_config(&a.run).map_err(anyhow::Error::msg)?;
    if config.problem.name != "strategy-styles" {
        bail!(
            "{}: a ladder needs a run of the strategy-styles problem (this one is `{}`)",
            a.run.display(),
            config.problem.name
        );
    }
    let result = read_result(&a.run).map_err(anyhow::Error::msg)?;
    let archive = result
        .trials
        .get(a.trial)
        .and_then(|t| t.archive.as_ref())
        .ok_or_else(|| anyhow!("{}: trial {} has no archive", a.run.display(), a.trial))?;
    let elites = archive.elites();
    let names: Vec<&str> = archive.axes().iter().map(|x| x.name.as_str()).collect();
    // The column: None for the fitness, else a feature's index.
    let column = if a.by == "fitness" {
        None
    } else {
        let problem = crate::registry::build_problem(&config.problem, Some(&config.space))
            .map_err(anyhow::Error::msg)?;
        let features = problem.feature_names();
        Some(features.iter().position(|f| *f == a.by).ok_or_else(|| {
            anyhow!(
                "--by {}: no such column (fitness, {})",
                a.by,
                features.join(", ")
            )
        })?)
    };
    let mut order: Vec<(f64, usize)> = elites
        .iter()
        .enumerate()
        .map(|(i, e)| (column.map_or(e.fitness, |c| e.features[c]), i))
        .collect();
    if order.len() < a.pick {
        bail!(
            "the archive has {} elites, fewer than --pick {}",
            order.len(),
            a.pick
        );
    }
    order.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let picked: Vec<Vec<f64>> = (0..a.pick)
        .map(|k| {
            let at = (k * (order.len() - 1) + (a.pick - 1) / 2) / (a.pick - 1);
            elites[order[at].1].values.clone()
        })
        .collect();
    let set = match a.levels.as_str() {
        "validation" => validation_levels(),
        "training" => training_levels(),
        other => bail!("--levels {other}: validation or training"),
    };
    let levels: Vec<u64> = set.into_iter().take(a.level_count).collect();
    // The agents play with the search's own agent budget.
    let budget = config
        .problem
        .settings
        .get("budget")
        .map(|b| format!("budget={b}"))
        .unwrap_or_default();
    let name = a.output.name.clone().unwrap_or_else(|| {
        let base = a
            .run
            .file_name()
            .map_or("run".into(), |n| n.to_string_lossy().to_string());
        format!("{base}-ladder")
    });
    let x = ladder(
        &name,
        &config.space,
        &picked,
        &budget,
        levels,
        a.games,
        a.seed,
    )
    .map_err(anyhow::Error::msg)?;
    // One command at a time writes the ladder's folder.
    let folder = a.output.runs_dir.join(&name);
    std::fs::create_dir_all(&folder)
        .map_err(|e| anyhow!("{}: cannot create: {e}", folder.display()))?;
    let _lock = crate::run::lock::lock(&folder).map_err(anyhow::Error::msg)?;
    let md = run(&x, &a.output.runs_dir, &a.output.plots_dir, !a.output.quiet)
        .map_err(anyhow::Error::msg)?;
    println!(
        "Ladder from {} (axes {}), elites ordered by {}:\n\n{md}",
        a.run.display(),
        names.join(" x "),
        a.by
    );
    Ok(())
}
