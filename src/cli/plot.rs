//! `playtune plot`: the pictures of a finished run.

use crate::optim::map_elites::AnyArchive;
use crate::plot::{Heatmap, Series, heatmap, line_chart};
use crate::run::{self, read_result};
use crate::stats::Summary;
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
}

pub fn run(a: PlotArgs) -> Result<()> {
    if a.format != "png" && a.format != "svg" {
        bail!("--format {}: use png or svg", a.format);
    }
    let name = a
        .run
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "run".into());
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| Path::new("plots").join(&name));
    let config = run::read_config(&a.run).map_err(anyhow::Error::msg)?;
    let result = read_result(&a.run).map_err(anyhow::Error::msg)?;
    let file = |stem: &str| out.join(format!("{stem}.{}", a.format));
    let mut written = Vec::new();
    if result.trials.iter().any(|t| t.archive.is_some()) {
        let metrics = |pick: fn(&crate::optim::map_elites::Metrics) -> f64| -> Vec<Series> {
            result
                .trials
                .iter()
                .map(|t| Series {
                    name: format!("trial {}", t.trial),
                    points: t
                        .history
                        .iter()
                        .map(|m| (m.evaluations as f64, pick(m)))
                        .collect(),
                    band: Vec::new(),
                })
                .collect()
        };
        let coverage = metrics(|m| 100.0 * m.coverage);
        line_chart(
            &file("coverage"),
            &format!("{name}: archive coverage"),
            "evaluations",
            "coverage (%)",
            &coverage,
        )?;
        let qd = metrics(|m| m.qd_score);
        line_chart(
            &file("qd_score"),
            &format!("{name}: QD score"),
            "evaluations",
            "QD score",
            &qd,
        )?;
        written.extend([file("coverage"), file("qd_score")]);
        let t = &result.trials[0];
        // A grid's heatmap; a CVT archive's cells are not rectangles, so it has none.
        if let Some(AnyArchive::Grid(archive)) = &t.archive {
            if archive.axes.len() <= 2 {
                let axis_edges = |i: usize| -> Vec<f64> {
                    let a = &archive.axes[i];
                    let step = (a.high - a.low) / a.bins as f64;
                    let mut e: Vec<f64> = (0..=a.bins).map(|k| a.low + step * k as f64).collect();
                    if archive.overflow_bins {
                        e.insert(0, f64::NEG_INFINITY);
                        e.push(f64::INFINITY);
                    }
                    e
                };
                let x_edges = axis_edges(0);
                let (y_edges, ny) = if archive.axes.len() == 2 {
                    (axis_edges(1), archive.bins(1))
                } else {
                    (vec![0.0, 1.0], 1)
                };
                let nx = archive.bins(0);
                let mut values = vec![vec![None; nx]; ny];
                for e in &archive.store.elites {
                    let y = if e.cell.len() > 1 { e.cell[1] } else { 0 };
                    values[y][e.cell[0]] = Some(e.fitness);
                }
                let h = Heatmap {
                    title: format!("{name}: elite fitness (trial 0)"),
                    x_label: archive.axes[0].name.clone(),
                    y_label: archive
                        .axes
                        .get(1)
                        .map(|a| a.name.clone())
                        .unwrap_or_default(),
                    x_edges,
                    y_edges,
                    values,
                    range: None,
                    annotate: nx * ny <= 400,
                };
                heatmap(&file("heatmap"), &h)?;
                written.push(file("heatmap"));
            }
        }
    } else {
        // Mean over trials of the recommendation's estimate (and true fitness, where the
        // problem knows it) at each checkpoint, with a band of one standard error.
        let curve =
            |name: &str, pick: &dyn Fn(&crate::run::Checkpoint) -> Option<f64>| -> Option<Series> {
                let len = result.trials.iter().map(|t| t.trace.len()).max()?;
                let mut s = Series {
                    name: name.into(),
                    ..Default::default()
                };
                for i in 0..len {
                    let at: Vec<&crate::run::Checkpoint> = result
                        .trials
                        .iter()
                        .filter_map(|t| t.trace.get(i))
                        .collect();
                    let values: Vec<f64> = at
                        .iter()
                        .filter_map(|c| pick(c))
                        .filter(|v| v.is_finite())
                        .collect();
                    if values.is_empty() {
                        continue;
                    }
                    let x = at[0].evaluations as f64;
                    let m = Summary::of(&values);
                    s.points.push((x, m.mean));
                    s.band.push((x, m.mean - m.se(), m.mean + m.se()));
                }
                (!s.points.is_empty()).then_some(s)
            };
        let mut series: Vec<Series> = Vec::new();
        series.extend(curve("recommendation: the optimiser's estimate", &|c| {
            Some(c.estimate)
        }));
        series.extend(curve("recommendation: true fitness", &|c| c.true_fitness));
        if series.is_empty() {
            bail!("{}: the run has no recommendation trace", a.run.display());
        }
        let title = format!(
            "{name}: {} on {}, mean of {} trial(s)",
            config.algorithm.name(),
            config.problem.name,
            config.trials
        );
        line_chart(
            &file("convergence"),
            &title,
            "evaluations",
            "fitness",
            &series,
        )?;
        written.push(file("convergence"));
    }
    for w in written {
        println!("wrote {}", w.display());
    }
    Ok(())
}
