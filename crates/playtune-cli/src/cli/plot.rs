//! `playtune plot`: the pictures of a finished run.

use anyhow::{Result, bail};
use clap::Args;
use playtune_report::plot::run::{Format, RunPictures, RunPicturesError, run_pictures};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(crate) struct PlotArgs {
    /// The run folder.
    run: PathBuf,
    /// Where the pictures go: DIR/<run name> (the flag every command that draws takes).
    #[arg(long, value_name = "DIR", default_value = "plots")]
    plots_dir: PathBuf,
    /// The pictures' folder itself, in place of --plots-dir's DIR/<run name>.
    #[arg(long, conflicts_with = "plots_dir")]
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

/// Draws a finished run's pictures (PNG) into `plots_dir/<run name>`, as `playtune plot
/// RUN --plots-dir DIR` does: for `optimize --plots-dir`.
pub(super) fn into_plots_dir(run: &Path, plots_dir: &Path) -> Result<Vec<PathBuf>> {
    pictures(&PlotArgs {
        run: run.to_path_buf(),
        plots_dir: plots_dir.to_path_buf(),
        out: None,
        format: "png".into(),
        heatmap: Vec::new(),
    })
}

pub(crate) fn run(a: PlotArgs) -> Result<()> {
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
        out: a.out.clone().unwrap_or_else(|| a.plots_dir.join(&name)),
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
