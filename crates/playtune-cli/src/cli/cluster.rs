//! `playtune status`, `playtune cancel` and the hidden `playtune task` that each Slurm
//! array task runs.

use crate::exec::slurm::{self as cluster, CLUSTER_DIR};
use crate::exec::{self, ExecError, Kind};
use anyhow::{Result, anyhow, bail};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(super) struct StatusArgs {
    /// A run folder, or an experiment folder (local or run with --executor slurm).
    dir: PathBuf,
}

#[derive(Args)]
pub(super) struct CancelArgs {
    /// An experiment or run folder run with --executor slurm.
    dir: PathBuf,
}

#[derive(Args)]
pub(super) struct TaskArgs {
    /// The folder of the submission (`slurm/` of an experiment or a run, or a folder
    /// under `slurm/maps/`).
    dir: PathBuf,
    /// Which submission (slurm/submission-K.ron).
    #[arg(long)]
    submission: usize,
    /// Which task of it [default: $SLURM_ARRAY_TASK_ID].
    #[arg(long)]
    index: Option<usize>,
}

pub(super) fn status(a: StatusArgs) -> Result<()> {
    if !a.dir.is_dir() {
        bail!("{}: no such folder", a.dir.display());
    }
    if cluster::trials::is_home(&a.dir) {
        cluster_status(&a.dir)?;
        return map_status(&a.dir);
    }
    if a.dir.join(playtune::run::CONFIG_FILE).exists() {
        println!("{}", run_line(&a.dir)?);
        if a.dir.join(CLUSTER_DIR).is_dir() {
            for line in cluster::search::status(&a.dir).map_err(anyhow::Error::msg)? {
                println!("{line}");
            }
        }
        return Ok(());
    }
    let mut runs: Vec<PathBuf> = std::fs::read_dir(&a.dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(playtune::run::CONFIG_FILE).exists())
        .collect();
    if runs.is_empty() && exec::slurm::has_maps(&a.dir) {
        return map_status(&a.dir);
    }
    if runs.is_empty() {
        bail!(
            "{}: neither a run folder (no config.ron) nor an experiment folder (no run folders, no slurm/)",
            a.dir.display()
        );
    }
    runs.sort();
    for r in runs {
        println!("{}", run_line(&r)?);
    }
    map_status(&a.dir)
}

/// A line for each step of independent tasks run on the cluster.
fn map_status(dir: &Path) -> Result<()> {
    for line in exec::slurm::map_status(dir)? {
        println!("{line}");
    }
    Ok(())
}

/// One line for a run folder: evaluations logged against the budget, failures,
/// finished or not.
fn run_line(dir: &Path) -> Result<String> {
    let config = crate::registry::read_config(dir).map_err(anyhow::Error::msg)?;
    let log = dir.join(playtune::run::files::LOG_FILE);
    // Whole lines only: a writer may be halfway through the last one.
    let rows = match playtune::run::files::read_plain_text(&log) {
        Ok(t) => t.matches('\n').count().saturating_sub(1),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => anyhow::bail!("{}: {e}", log.display()),
    };
    // Failures as the run reads them: damaged lines are named, not counted.
    let failed = playtune::run::failures::read_failures(
        &dir.join(playtune::run::files::FAILURES_FILE),
        Some(&config),
    )
    .map_err(anyhow::Error::msg)?
    .len();
    let result = dir.join(playtune::run::RESULT_FILE);
    let finished = playtune::run::files::present(&result)
        .map_err(|e| anyhow::anyhow!("{}: {e}", result.display()))?;
    Ok(format!(
        "{}: {rows} evaluations logged (budget {} = {} trial(s) x {}; pre-processing, selection and re-evaluation phases add to it){}, {}",
        dir.display(),
        config.budget * config.trials,
        config.trials,
        config.budget,
        if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        },
        if finished { "finished" } else { "not finished" }
    ))
}

fn cluster_status(dir: &Path) -> Result<()> {
    let s = cluster::trials::status(dir).map_err(anyhow::Error::msg)?;
    let c = &s.counts;
    println!(
        "{}: {} work items (one trial of one search each)",
        dir.display(),
        c.items
    );
    println!(
        "tasks: {} done, {} running, {} pending, {} failed, {} not submitted",
        c.done, c.running, c.pending, c.failed, c.not_submitted
    );
    println!(
        "evaluations logged: {} (budget {}; B-RMHC's pre-processing adds to it)",
        s.progress.evaluations, s.planned_evaluations,
    );
    for (item, q) in &s.queue {
        println!(
            "  {item}: job {} task {} {} ({})",
            q.job, q.task, q.state, q.reason
        );
    }
    if !s.failed.is_empty() {
        println!(
            "failed or cancelled (resubmitted by the next `playtune experiment ... --executor slurm`):"
        );
        for f in &s.failed {
            println!("  {}", f.heading());
            for l in f.tail.lines() {
                println!("    | {l}");
            }
        }
    }
    if c.done == c.items {
        println!(
            "every item is done: the next `playtune experiment ... --executor slurm` collects them and writes the summary"
        );
    }
    Ok(())
}

pub(super) fn cancel(a: CancelArgs) -> Result<()> {
    let jobs = cluster::trials::cancel(&a.dir).map_err(anyhow::Error::msg)?;
    if jobs.is_empty() {
        println!("{}: no task in the queue", a.dir.display());
    } else {
        println!(
            "cancelled Slurm job(s) {}; what they finished is kept, the rest is resubmitted by the next call",
            jobs.join(", ")
        );
    }
    Ok(())
}

pub(super) fn task(a: TaskArgs) -> Result<()> {
    let index = match a.index {
        Some(i) => i,
        None => std::env::var("SLURM_ARRAY_TASK_ID")
            .map_err(|_| anyhow!("no --index and no SLURM_ARRAY_TASK_ID: which task is this?"))?
            .parse()
            .map_err(|e| anyhow!("SLURM_ARRAY_TASK_ID: {e}"))?,
    };
    // A task uses the CPUs Slurm gave it, not every core of the node.
    if std::env::var_os("RAYON_NUM_THREADS").is_none() && std::env::var_os("SLURM_JOB_ID").is_some()
    {
        let cpus = std::env::var("SLURM_CPUS_PER_TASK")
            .ok()
            .and_then(|c| c.parse::<usize>().ok())
            .unwrap_or(1);
        rayon::ThreadPoolBuilder::new()
            .num_threads(cpus.max(1))
            .build_global()
            .map_err(|e| anyhow!("cannot start {cpus} threads: {e}"))?;
    }
    let line = exec::run_worker(KINDS, &a.dir, a.submission, index)?;
    println!("{line}");
    Ok(())
}

/// Every task kind a cluster's worker runs: one line a kind.
const KINDS: &[Kind] = &[
    Kind {
        name: cluster::trials::KIND,
        run: search_trial,
    },
    Kind {
        name: cluster::search::KIND,
        run: search_batch,
    },
    Kind::of::<exec::Evaluate>(),
    Kind::of::<exec::TournamentGame>(),
    Kind::of::<crate::experiments::strategy::StrategyGame>(),
    Kind::of::<crate::experiments::ntbea_defaults::SuiteValidation>(),
];

fn search_trial(dir: &Path, k: usize, index: usize) -> Result<String, ExecError> {
    cluster::trials::run_task(dir, k, index).map_err(ExecError::Cluster)
}

fn search_batch(dir: &Path, k: usize, index: usize) -> Result<String, ExecError> {
    cluster::search::run_batch_task(dir, k, index).map_err(ExecError::Cluster)
}
