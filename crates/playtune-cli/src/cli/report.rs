//! `playtune report`: one self-contained HTML page of a run or an experiment.

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(super) struct ReportArgs {
    /// A finished run folder, or an experiment's folder (its *.md tables, figures and
    /// run folders).
    run: PathBuf,
    /// The page to write [default: RUN/report.html].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Where an experiment's figures (PNG) are: DIR/<name>, as the command that drew
    /// them was given it [default: the plots/ twin of a folder under runs/, else
    /// plots/<name>].
    #[arg(long, value_name = "DIR")]
    plots_dir: Option<PathBuf>,
    /// The figures' folder itself, in place of --plots-dir's DIR/<name>.
    #[arg(long, value_name = "DIR", conflicts_with = "plots_dir")]
    plots: Option<PathBuf>,
}

pub(super) fn run(a: ReportArgs) -> Result<()> {
    let name = a.run.file_name().map(PathBuf::from).unwrap_or_default();
    let plots = a.plots.or_else(|| a.plots_dir.map(|d| d.join(name)));
    let page = playtune_report::report(&a.run, plots.as_deref())?;
    let out = a.out.unwrap_or_else(|| a.run.join("report.html"));
    check_out(&a.run, &out)?;
    let _lock = playtune::run::lock::lock_for_output(&a.run, &out).map_err(anyhow::Error::msg)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    write_page(&out, page.as_bytes())?;
    println!("{}", out.display());
    Ok(())
}

/// Refuses an output path that would overwrite a file of the run itself (its
/// `config.ron`, `evals.csv`, `result.ron`, ...: anything in its folder but a page),
/// that is a symbolic link (the page would land wherever it points) or that is not a
/// regular file.
fn check_out(run: &Path, out: &Path) -> Result<()> {
    let inside = match (
        out.parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .and_then(|p| std::fs::canonicalize(p).ok()),
        std::fs::canonicalize(run).ok(),
    ) {
        (Some(parent), Some(run)) => parent.starts_with(run),
        _ => false,
    };
    let page = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if inside && !page {
        bail!(
            "--out {}: inside {} only a page (NAME.html) is written, never one of the folder's own files (config.ron, evals.csv, result.ron, ...)",
            out.display(),
            run.display()
        );
    }
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(()); // a new file
    };
    if meta.file_type().is_symlink() {
        bail!(
            "--out {}: it is a symbolic link, and report does not write through one (remove it, or give another --out)",
            out.display()
        );
    }
    if !meta.is_file() {
        bail!(
            "--out {}: it exists and is not a regular file (a folder, a device or a pipe); give a file name",
            out.display()
        );
    }
    Ok(())
}

/// Writes the page whole or not at all: a new file (never a link followed) renamed
/// over `out`, so that a full disk leaves no empty or half page, and nothing of it.
fn write_page(out: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let name = out
        .file_name()
        .ok_or_else(|| anyhow!("--out {}: not a file name", out.display()))?;
    let tmp = out.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, out)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        bail!("cannot write {}: {e}", out.display());
    }
    Ok(())
}
