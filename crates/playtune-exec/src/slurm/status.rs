//! What `playtune status` prints for a folder: a line for each run (evaluations
//! logged against the budget, failures, finished or not), the state of searches run
//! a trial a task or a batch a chunk, and each step of independent tasks. The same
//! lines for a Python or Rust user who sent work to the cluster.

use super::{CLUSTER_DIR, search, trials};
use crate::ExecError;
use std::path::{Path, PathBuf};

/// The state of the work under `dir`, a line each: a run folder, an experiment's
/// folder (its runs and its cluster work) or a cluster home.
pub fn status_lines(dir: &Path) -> Result<Vec<String>, ExecError> {
    if !dir.is_dir() {
        return Err(ExecError::file(dir, "no such folder"));
    }
    let mut lines = Vec::new();
    if trials::is_home(dir) {
        lines.extend(trials_lines(dir)?);
    } else if dir.join(playtune::run::CONFIG_FILE).exists() {
        lines.push(run_line(dir)?);
        if dir.join(CLUSTER_DIR).is_dir() {
            lines.extend(search::status(dir)?);
        }
        return Ok(lines);
    } else {
        let mut runs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| ExecError::file(dir, e))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join(playtune::run::CONFIG_FILE).exists())
            .collect();
        if runs.is_empty() && !super::has_maps(dir) {
            return Err(ExecError::file(
                dir,
                "neither a run folder (no config.ron) nor an experiment folder (no run folders, no slurm/)",
            ));
        }
        runs.sort();
        for r in runs {
            lines.push(run_line(&r)?);
        }
    }
    lines.extend(super::map_status(dir)?);
    Ok(lines)
}

/// One line for a run folder: evaluations logged against the budget, failures,
/// finished or not.
fn run_line(dir: &Path) -> Result<String, ExecError> {
    let config = playtune::registry::read_config(dir).map_err(|e| ExecError::Cluster(e.into()))?;
    let log = dir.join(playtune::run::files::LOG_FILE);
    // Whole lines only: a writer may be halfway through the last one.
    let rows = match playtune::run::files::read_plain_text(&log) {
        Ok(t) => t.matches('\n').count().saturating_sub(1),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(ExecError::file(&log, e)),
    };
    // Failures as the run reads them: damaged lines are named, not counted.
    let failed = playtune::run::failures::read_failures(
        &dir.join(playtune::run::files::FAILURES_FILE),
        Some(&config),
    )
    .map_err(|e| ExecError::Cluster(e.into()))?
    .len();
    let result = dir.join(playtune::run::RESULT_FILE);
    let finished =
        playtune::run::files::present(&result).map_err(|e| ExecError::file(&result, e))?;
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

/// The lines of a home whose searches run a trial a task.
fn trials_lines(dir: &Path) -> Result<Vec<String>, ExecError> {
    let s = trials::status(dir)?;
    let c = &s.counts;
    let mut lines = vec![
        format!(
            "{}: {} work items (one trial of one search each)",
            dir.display(),
            c.items
        ),
        format!(
            "tasks: {} done, {} running, {} pending, {} failed, {} not submitted",
            c.done, c.running, c.pending, c.failed, c.not_submitted
        ),
        format!(
            "evaluations logged: {} (budget {}; B-RMHC's pre-processing adds to it)",
            s.progress.evaluations, s.planned_evaluations,
        ),
    ];
    for (item, q) in &s.queue {
        lines.push(format!(
            "  {item}: job {} task {} {} ({})",
            q.job, q.task, q.state, q.reason
        ));
    }
    if !s.failed.is_empty() {
        lines.push(
            "failed or cancelled (resubmitted by the next `playtune experiment ... --executor slurm`):"
                .into(),
        );
        for f in &s.failed {
            lines.push(format!("  {}", f.heading()));
            for l in f.tail.lines() {
                lines.push(format!("    | {l}"));
            }
        }
    }
    if c.done == c.items {
        lines.push(
            "every item is done: the next `playtune experiment ... --executor slurm` collects them and writes the summary".into(),
        );
    }
    Ok(lines)
}
