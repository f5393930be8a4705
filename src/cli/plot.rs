//! `playtune plot`: the pictures of a finished run.

use crate::plot::run::{Format, RunPictures, RunPicturesError, run_pictures};
use anyhow::{Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct PlotArgs {
    /// The run folder.
    run: PathBuf,
    /// Folder for the pictures [default: plots/<run name>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Picture format: png or svg.
    #[arg(long, default_value = "png")]
    format: String,
    /// MAP-Elites: a heatmap of the elites coloured by this column (`fitness`, any
    /// feature of the problem, or `replay_fitness` / `replay_FEATURE` after
    /// --reevaluate), written as heatmap_COLUMN; repeatable. Default: one heatmap of
    /// fitness, written as heatmap.
    #[arg(long, value_name = "COLUMN")]
    heatmap: Vec<String>,
}

/// Draws a MAP-Elites run's coverage, QD score and a heatmap per column into `out` (for
/// experiments whose archives are run folders).
pub(super) fn archive_pictures(run: &Path, out: &Path, columns: &[&str]) -> Result<()> {
    for format in ["png", "svg"] {
        self::run(PlotArgs {
            run: run.to_path_buf(),
            out: Some(out.to_path_buf()),
            format: format.into(),
            heatmap: columns.iter().map(|c| c.to_string()).collect(),
        })?;
    }
    Ok(())
}

pub fn run(a: PlotArgs) -> Result<()> {
    for w in pictures(&a)? {
        println!("wrote {}", w.display());
    }
    Ok(())
}

/// The flags checked and the run's pictures drawn; errors name the flag they concern.
fn pictures(a: &PlotArgs) -> Result<Vec<PathBuf>> {
    let format = match a.format.as_str() {
        "png" => Format::Png,
        "svg" => Format::Svg,
        other => bail!("--format {other}: use png or svg"),
    };
    let name = a
        .run
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "run".into());
    let request = RunPictures {
        run: a.run.clone(),
        out: a
            .out
            .clone()
            .unwrap_or_else(|| Path::new("plots").join(&name)),
        format,
        heatmaps: a.heatmap.clone(),
    };
    run_pictures(&request).map_err(|e| match e {
        RunPicturesError::NoColumn { .. }
        | RunPicturesError::TooManyAxes(_)
        | RunPicturesError::NotAGrid
        | RunPicturesError::NoArchive(_) => anyhow::anyhow!("--heatmap: {e}"),
        e => e.into(),
    })
}
