//! `playtune report`: one self-contained HTML page of a run or an experiment.

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReportArgs {
    /// A finished run folder, or an experiment's folder (its *.md tables, figures and
    /// run folders).
    run: PathBuf,
    /// The page to write [default: RUN/report.html].
    #[arg(long)]
    out: Option<PathBuf>,
    /// An experiment's figures (PNG) [default: the plots/ twin of a folder under runs/,
    /// else plots/<name>].
    #[arg(long, value_name = "DIR")]
    plots: Option<PathBuf>,
}

pub fn run(a: ReportArgs) -> Result<()> {
    let page = crate::report::report(&a.run, a.plots.as_deref())?;
    let out = a.out.unwrap_or_else(|| a.run.join("report.html"));
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(&out, page).with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}", out.display());
    Ok(())
}
