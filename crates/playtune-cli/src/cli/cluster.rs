//! `playtune status`, `playtune cancel` and the hidden `playtune task` that each Slurm
//! array task runs.

use anyhow::{Result, anyhow};
use clap::Args;
use playtune_exec::slurm as cluster;
use std::path::PathBuf;

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
    for line in playtune_exec::slurm::status_lines(&a.dir)? {
        println!("{line}");
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
    let line = playtune_exec::run_worker(
        playtune_experiments::WORKER_KINDS,
        &a.dir,
        a.submission,
        index,
    )?;
    println!("{line}");
    Ok(())
}
