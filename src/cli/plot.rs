//! `playtune plot`: the pictures of a finished run.

use crate::optim::map_elites::{AnyArchive, Archive};
use crate::plot::{Heatmap, Series, bucket_labels, heatmaps, line_chart};
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

/// The statistics an elite can be coloured by, by name: its fitness, its features
/// (named by the problem) and, when the run re-evaluated its elites, the replays'
/// means of both.
fn elite_columns(feature_names: &[String], replayed: bool) -> Vec<String> {
    let own = std::iter::once("fitness".to_string()).chain(feature_names.iter().cloned());
    let replays: Vec<String> = if replayed {
        own.clone().map(|c| format!("replay_{c}")).collect()
    } else {
        Vec::new()
    };
    own.chain(replays).collect()
}

/// Column `index` of [`elite_columns`] for `e` (NaN where a replay lacks it).
fn elite_value(e: &crate::optim::map_elites::Elite, index: usize, features: usize) -> f64 {
    let own = 1 + features;
    let pick = |i: usize, fitness: f64, feats: &dyn Fn(usize) -> Option<f64>| {
        if i == 0 {
            fitness
        } else {
            feats(i - 1).unwrap_or(f64::NAN)
        }
    };
    if index < own {
        pick(index, e.fitness, &|i| e.features.get(i).copied())
    } else {
        match &e.replay {
            Some(r) => pick(index - own, r.fitness.mean, &|i| {
                r.features.get(i).map(|s| s.mean)
            }),
            None => f64::NAN,
        }
    }
}

pub fn run(a: PlotArgs) -> Result<()> {
    for w in pictures(&a)? {
        println!("wrote {}", w.display());
    }
    Ok(())
}

/// Draws the pictures of a finished run as `plot` does, printing nothing; returns the
/// files written (`playtune report` embeds them).
pub(crate) fn draw(run: &Path, out: &Path, format: &str) -> Result<Vec<PathBuf>> {
    pictures(&PlotArgs {
        run: run.to_path_buf(),
        out: Some(out.to_path_buf()),
        format: format.into(),
        heatmap: Vec::new(),
    })
}

fn pictures(a: &PlotArgs) -> Result<Vec<PathBuf>> {
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
        // The problem names the features; a run whose problem no longer builds still
        // plots, its features numbered.
        let n_features = t
            .archive
            .as_ref()
            .and_then(|a| a.elites().first())
            .map_or(0, |e| e.features.len());
        let feature_names = crate::registry::build_problem(&config.problem, Some(&config.space))
            .map(|p| p.feature_names())
            .ok()
            .filter(|n| n.len() == n_features)
            .unwrap_or_else(|| (0..n_features).map(|i| format!("feature_{i}")).collect());
        let replayed = t
            .archive
            .as_ref()
            .is_some_and(|a| a.elites().iter().any(|e| e.replay.is_some()));
        let columns = elite_columns(&feature_names, replayed);
        let wanted: Vec<(usize, String)> = if a.heatmap.is_empty() {
            vec![(0, "heatmap".to_string())]
        } else {
            a.heatmap
                .iter()
                .map(|c| match columns.iter().position(|k| k == c.trim()) {
                    Some(i) => Ok((i, format!("heatmap_{}", file_safe(c.trim())))),
                    None => Err(anyhow::anyhow!(
                        "--heatmap {c}: the elites have no column `{c}` (columns: {})",
                        columns.join(", ")
                    )),
                })
                .collect::<Result<_>>()?
        };
        // A grid's heatmap; a CVT archive's cells are not rectangles, so it has none.
        if let Some(AnyArchive::Grid(archive)) = &t.archive {
            if archive.axes.len() > 3 && !a.heatmap.is_empty() {
                bail!(
                    "--heatmap: the archive has {} axes; a heatmap shows one to three (the third as slices side by side)",
                    archive.axes.len()
                );
            }
            if archive.axes.len() <= 3 {
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
                let (y_edges, ny) = if archive.axes.len() >= 2 {
                    (axis_edges(1), archive.bins(1))
                } else {
                    (vec![0.0, 1.0], 1)
                };
                let nx = archive.bins(0);
                // A third axis: one panel per bucket of it, side by side.
                let (z_labels, nz) = if archive.axes.len() == 3 {
                    (bucket_labels(&axis_edges(2)), archive.bins(2))
                } else {
                    (vec![String::new()], 1)
                };
                for (column, stem) in &wanted {
                    let mut panels = Vec::with_capacity(nz);
                    for (z, z_label) in z_labels.iter().enumerate().take(nz) {
                        let mut values = vec![vec![None; nx]; ny];
                        for e in archive
                            .store
                            .elites
                            .iter()
                            .filter(|e| e.cell.len() < 3 || e.cell[2] == z)
                        {
                            let y = if e.cell.len() > 1 { e.cell[1] } else { 0 };
                            values[y][e.cell[0]] = Some(elite_value(e, *column, n_features));
                        }
                        let slice = if nz > 1 {
                            format!(", {} {}", archive.axes[2].name, z_label)
                        } else {
                            String::new()
                        };
                        let h = Heatmap {
                            title: format!("{name}: elites' {} (trial 0{slice})", columns[*column]),
                            x_label: archive.axes[0].name.clone(),
                            y_label: archive
                                .axes
                                .get(1)
                                .map(|a| a.name.clone())
                                .unwrap_or_default(),
                            x_buckets: bucket_labels(&x_edges),
                            y_buckets: if archive.axes.len() >= 2 {
                                bucket_labels(&y_edges)
                            } else {
                                vec![String::new()]
                            },
                            values,
                            value_label: columns[*column].clone(),
                            range: None,
                            annotate: true,
                        };
                        panels.push(h);
                    }
                    heatmaps(&file(stem), &panels)?;
                    written.push(file(stem));
                }
            }
        } else if !a.heatmap.is_empty() {
            bail!(
                "--heatmap: trial 0's archive is not a grid (a CVT archive's cells are not rectangles)"
            );
        }
    } else if !a.heatmap.is_empty() {
        bail!(
            "--heatmap: {} is not a MAP-Elites run (it has no archive)",
            a.run.display()
        );
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
    Ok(written)
}

/// A column name as part of a file name: anything but letters, digits, `_` and `-`
/// becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
