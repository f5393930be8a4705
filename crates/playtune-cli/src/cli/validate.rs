//! `playtune validate`: chosen elites of a MAP-Elites run evaluated again, many times
//! and under other settings of their problem (the play-styles paper's Table II).

use anyhow::{Result, anyhow, bail};
use clap::Args;
use playtune::registry::build_problem;
use playtune::registry::read_config;
use playtune::registry::read_result;
use playtune_experiments::validation::{CellChoice, choose, markdown, validate};
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct ValidateArgs {
    /// A finished MAP-Elites run folder.
    run: PathBuf,
    /// Which trial's archive.
    #[arg(long, default_value_t = 0)]
    trial: usize,
    /// Elites to validate: corners (nearest each corner of the feature box), best,
    /// all, or cells as I:J,I:J.
    #[arg(long, default_value = "corners")]
    cells: String,
    /// A problem setting over the run's, NAME=VALUE (repeatable): e.g. validation
    /// levels and more games for a game problem.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Evaluations of each elite.
    #[arg(long, default_value_t = 20)]
    evaluations: usize,
    /// Seed: every game and evaluation derives its seed from it, so the same seed
    /// gives the same results with any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub(super) fn run(a: ValidateArgs) -> Result<()> {
    if a.evaluations == 0 {
        bail!("--evaluations must be at least 1");
    }
    let choice = CellChoice::parse(&a.cells).map_err(|e| anyhow::anyhow!("--{e}"))?;
    // It writes validation.md into the run: one command at a time.
    let _lock = super::optimize::lock_run(&a.run)?;
    let config = read_config(&a.run).map_err(anyhow::Error::msg)?;
    let result = read_result(&a.run).map_err(anyhow::Error::msg)?;
    let trial = result.trials.get(a.trial).ok_or_else(|| {
        anyhow!(
            "{}: no trial {} (it has {})",
            a.run.display(),
            a.trial,
            result.trials.len()
        )
    })?;
    let archive = trial
        .archive
        .as_ref()
        .ok_or_else(|| anyhow!("{}: not a MAP-Elites run (no archive)", a.run.display()))?;
    let mut spec = config.problem.clone();
    spec.settings
        .extend(super::name_value_pairs("--set", &a.settings)?);
    let problem = build_problem(&spec, Some(&config.space)).map_err(anyhow::Error::msg)?;
    let picked = choose(archive, &choice).map_err(anyhow::Error::msg)?;
    let elites: Vec<_> = picked.iter().map(|&i| &archive.elites()[i]).collect();
    let rows = validate(
        &playtune_exec::Local,
        "validation",
        &spec,
        Some(&config.space),
        &elites,
        a.evaluations,
        a.seed,
    )
    .map_err(anyhow::Error::msg)?;
    let names = problem.feature_names();
    use playtune::optim::map_elites::Archive;
    let shown: Vec<usize> = archive
        .axes()
        .iter()
        .filter_map(|ax| names.iter().position(|n| *n == ax.name))
        .collect();
    let settings: Vec<String> = spec
        .settings
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let md = format!(
        "Validation of {} (trial {}): {} evaluations per elite, seed {}, problem {} with {}.\n\n{}",
        a.run.display(),
        a.trial,
        a.evaluations,
        a.seed,
        spec.name,
        if settings.is_empty() {
            "its defaults".to_string()
        } else {
            settings.join(" ")
        },
        markdown(&rows, &names, &shown)
    );
    let out = a.run.join("validation.md");
    playtune::run::lock::write_whole(&out, md.as_bytes())
        .map_err(|e| anyhow!("{}: {e}", out.display()))?;
    println!("{md}\nwrote {}", out.display());
    Ok(())
}
