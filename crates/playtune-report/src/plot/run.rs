//! The pictures of a finished run, as `playtune plot` draws them and `playtune report`
//! embeds them: a MAP-Elites run's coverage, QD score and heatmaps, any other run's
//! convergence curve.

use super::{Heatmap, PlotError, Series, bucket_labels, heatmaps, line_chart};
use playtune::eval::Problem;
use playtune::optim::map_elites::{AnyArchive, Archive};
use playtune::registry::read_result;
use playtune::run;
use playtune_optim::stats::Summary;
use std::path::PathBuf;

/// A picture format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PNG (`.png`).
    Png,
    /// SVG (`.svg`).
    Svg,
}

impl Format {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
        }
    }
}

/// What to draw: the run, where to, in which format, and which elite columns as
/// heatmaps (empty: fitness).
pub struct RunPictures {
    /// The run folder.
    pub run: PathBuf,
    /// The folder the pictures go to.
    pub out: PathBuf,
    /// The pictures' format.
    pub format: Format,
    /// Elite columns to draw as heatmaps.
    pub heatmaps: Vec<String>,
}

/// Why a run's pictures could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RunPicturesError {
    /// The run's files do not read.
    #[error(transparent)]
    Run(#[from] playtune::run::RunError),
    /// A heatmap asked of a column the elites do not have.
    #[error("the elites have no column `{column}` (columns: {columns})")]
    NoColumn {
        /// The column asked for.
        column: String,
        /// The columns the elites have.
        columns: String,
    },
    #[error(
        "the archive has {0} axes; a heatmap shows one to three (the third as slices side by side)"
    )]
    /// An archive of more axes than a heatmap shows.
    TooManyAxes(usize),
    /// An archive that is not a grid.
    #[error("trial 0's archive is not a grid (a CVT archive's cells are not rectangles)")]
    NotAGrid,
    /// A run that is not MAP-Elites.
    #[error("{}: not a MAP-Elites run (it has no archive)", .0.display())]
    NoArchive(PathBuf),
    /// A run without a recommendation trace.
    #[error("{}: the run has no recommendation trace", .0.display())]
    NoTrace(PathBuf),
    /// A picture that could not be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
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
fn elite_value(e: &playtune::optim::map_elites::Elite, index: usize, features: usize) -> f64 {
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

/// Draws the pictures of the finished run `a.run` into `a.out`: a MAP-Elites run's
/// coverage, QD score and heatmaps (one per column of `a.heatmaps`, fitness when
/// none), any other run's convergence curve. Returns the files written.
pub fn run_pictures(a: &RunPictures) -> Result<Vec<PathBuf>, RunPicturesError> {
    let name = a
        .run
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "run".into());
    let config = playtune::registry::read_config(&a.run)?;
    let result = read_result(&a.run)?;
    let out = a.out.clone();
    let file = |stem: &str| out.join(format!("{stem}.{}", a.format.extension()));
    let picture = Picture {
        request: a,
        name: &name,
        config: &config,
        result: &result,
        file: &file,
    };
    if result.trials.iter().any(|t| t.archive.is_some()) {
        picture.archive()
    } else if !a.heatmaps.is_empty() {
        Err(RunPicturesError::NoArchive(a.run.clone()))
    } else {
        picture.convergence()
    }
}

/// What a run's pictures are drawn from.
struct Picture<'a> {
    request: &'a RunPictures,
    /// The run's folder name, the pictures' titles begin with.
    name: &'a str,
    config: &'a run::RunConfig,
    result: &'a run::RunResult,
    /// The file a picture of a stem goes to.
    file: &'a dyn Fn(&str) -> PathBuf,
}

impl Picture<'_> {
    /// A MAP-Elites run's coverage, QD score and its grid's heatmaps.
    fn archive(&self) -> Result<Vec<PathBuf>, RunPicturesError> {
        let (a, name, config, result, file) =
            (self.request, self.name, self.config, self.result, self.file);
        let mut written = Vec::new();
        let metrics = |pick: fn(&playtune::optim::map_elites::Metrics) -> f64| -> Vec<Series> {
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
                    ..Series::default()
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
        // Built from what the folder records: drawing a run runs none of its game's code.
        let problem = playtune::registry::recorded_problem(&a.run, config)
            .ok()
            .filter(|p| p.feature_names().len() == n_features);
        let feature_names = problem
            .as_ref()
            .map(|p| p.feature_names())
            .unwrap_or_else(|| (0..n_features).map(|i| format!("feature_{i}")).collect());
        let problem = problem.as_deref();
        let replayed = t
            .archive
            .as_ref()
            .is_some_and(|a| a.elites().iter().any(|e| e.replay.is_some()));
        let columns = elite_columns(&feature_names, replayed);
        let wanted: Vec<(usize, String)> = if a.heatmaps.is_empty() {
            vec![(0, "heatmap".to_string())]
        } else {
            a.heatmaps
                .iter()
                .map(|c| match columns.iter().position(|k| k == c.trim()) {
                    Some(i) => Ok((i, format!("heatmap_{}", file_safe(c.trim())))),
                    None => Err(RunPicturesError::NoColumn {
                        column: c.clone(),
                        columns: columns.join(", "),
                    }),
                })
                .collect::<Result<_, _>>()?
        };
        match &t.archive {
            Some(AnyArchive::Grid(archive)) => {
                written
                    .extend(self.grid_heatmaps(archive, &columns, &wanted, n_features, problem)?);
            }
            _ if !a.heatmaps.is_empty() => return Err(RunPicturesError::NotAGrid),
            _ => {}
        }
        Ok(written)
    }

    /// One heatmap a wanted column of a grid archive's elites (trial 0), a third axis
    /// as panels side by side; a CVT archive's cells are not rectangles, so it has none.
    fn grid_heatmaps(
        &self,
        archive: &playtune::optim::map_elites::GridArchive,
        columns: &[String],
        wanted: &[(usize, String)],
        n_features: usize,
        problem: Option<&dyn Problem>,
    ) -> Result<Vec<PathBuf>, RunPicturesError> {
        let (a, name, file) = (self.request, self.name, self.file);
        let mut written = Vec::new();
        if archive.axes.len() > 3 && !a.heatmaps.is_empty() {
            return Err(RunPicturesError::TooManyAxes(archive.axes.len()));
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
            let axes = archive.axes.len();
            let note = cell_note(axes);
            for (column, stem) in wanted {
                let mut panels = Vec::with_capacity(nz);
                for (z, z_label) in z_labels.iter().enumerate().take(nz) {
                    let mut values = vec![vec![None; nx]; ny];
                    let mut labels = vec![vec![None; nx]; ny];
                    for e in archive
                        .store
                        .elites
                        .iter()
                        .filter(|e| e.cell.len() < 3 || e.cell[2] == z)
                    {
                        let y = if e.cell.len() > 1 { e.cell[1] } else { 0 };
                        values[y][e.cell[0]] = Some(elite_value(e, *column, n_features));
                        labels[y][e.cell[0]] = Some(cell_id(&e.cell));
                    }
                    let slice = if nz > 1 {
                        format!(
                            ", {} {z}: {z_label}",
                            axis_title(problem, &archive.axes[2].name, 'K', axes)
                        )
                    } else {
                        String::new()
                    };
                    let h = Heatmap {
                        title: format!("{name}: elites' {} (trial 0{slice})", columns[*column]),
                        note: note.clone(),
                        x_label: axis_title(problem, &archive.axes[0].name, 'I', axes),
                        y_label: archive
                            .axes
                            .get(1)
                            .map(|a| axis_title(problem, &a.name, 'J', axes))
                            .unwrap_or_default(),
                        x_buckets: bucket_labels(&x_edges),
                        y_buckets: if axes >= 2 {
                            bucket_labels(&y_edges)
                        } else {
                            vec![String::new()]
                        },
                        numbered: true,
                        values,
                        value_label: columns[*column].clone(),
                        range: problem.and_then(|p| column_range(p, &columns[*column])),
                        annotate: true,
                        labels,
                    };
                    panels.push(h);
                }
                heatmaps(&file(stem), &panels)?;
                written.push(file(stem));
            }
        }
        Ok(written)
    }

    /// Any other run's convergence curve: the mean over trials of the recommendation's
    /// estimate (and true fitness, where the problem knows it) at each checkpoint, with
    /// a band of one standard error.
    fn convergence(&self) -> Result<Vec<PathBuf>, RunPicturesError> {
        let (a, name, config, result, file) =
            (self.request, self.name, self.config, self.result, self.file);
        let mut written = Vec::new();
        // Mean over trials of the recommendation's estimate (and true fitness, where the
        // problem knows it) at each checkpoint, with a band of one standard error.
        let trials = result.trials.len();
        let curve = |name: &str,
                     pick: &dyn Fn(&playtune::run::Checkpoint) -> Option<f64>|
         -> Option<Series> {
            let len = result.trials.iter().map(|t| t.trace.len()).max()?;
            let mut s = Series {
                name: if trials > 1 {
                    format!("{name} (mean of {trials} trials)")
                } else {
                    format!("{name} (one trial)")
                },
                band_name: band_name(name, trials),
                ..Default::default()
            };
            for i in 0..len {
                let at: Vec<&playtune::run::Checkpoint> = result
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
        series.extend(curve("estimate of the recommendation", &|c| {
            Some(c.estimate)
        }));
        series.extend(curve("true fitness of the recommendation", &|c| {
            c.true_fitness
        }));
        if series.is_empty() {
            return Err(RunPicturesError::NoTrace(a.run.clone()));
        }
        // Where the race takes over: the curve's last stretch is the race's, not the
        // search's.
        let raced = config
            .race
            .as_ref()
            .map(|r| r.race_budget(config.budget))
            .filter(|&n| n > 0);
        if let Some(n) = raced {
            let ys = series.iter().flat_map(|s| {
                s.points
                    .iter()
                    .map(|p| p.1)
                    .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
            });
            let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
                (lo.min(y), hi.max(y))
            });
            let x = (config.budget - n) as f64;
            series.push(Series {
                name: format!("the race starts: its last {n} evaluations race the candidates"),
                points: vec![(x, lo), (x, hi)],
                ..Default::default()
            });
        }
        let title = format!(
            "{name}: {} on {}, mean of {} trial(s)",
            config.algorithm.name(),
            config.problem.name,
            config.trials
        );
        // The axis names what the fitness is (skill depth, win rate) where the run's
        // problem still builds.
        let fitness = playtune::registry::recorded_problem(&a.run, config)
            .map(|p| p.fitness_name().to_string())
            .unwrap_or_else(|_| "fitness".to_string());
        line_chart(
            &file("convergence"),
            &title,
            "evaluations",
            &fitness,
            &series,
        )?;
        written.push(file("convergence"));
        Ok(written)
    }
}

/// The range a heatmap column is known to lie in: the problem's fitness range for
/// `fitness` (and its replays' mean), its feature's for a feature.
pub(crate) fn column_range(problem: &dyn Problem, column: &str) -> Option<(f64, f64)> {
    let own = column.strip_prefix("replay_").unwrap_or(column);
    if own == "fitness" {
        problem.fitness_range()
    } else {
        problem.feature_range(own)
    }
}

/// An axis's title: the feature, its unit where the problem gives one, and which part
/// of a cell's id (`I` of `I:J`) counts along it.
fn axis_title(problem: Option<&dyn Problem>, feature: &str, part: char, axes: usize) -> String {
    let unit = problem
        .and_then(|p| p.feature_unit(feature))
        .map(|u| format!(" ({u})"))
        .unwrap_or_default();
    let id = ["I", "J", "K"][..axes.clamp(1, 3)].join(":");
    format!("{feature}{unit}: {part} of cell {id}")
}

/// A cell's id as `playtune validate --cells` takes it and prints it: `I:J`.
pub(crate) fn cell_id(cell: &[usize]) -> String {
    cell.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// The line under a heatmap saying how its cells are named.
fn cell_note(axes: usize) -> String {
    let id = ["I", "J", "K"][..axes.clamp(1, 3)].join(":");
    format!(
        "Cell id {id}: written at the top of each elite's cell where it fits, its parts the buckets' numbers on the axes (from 0).\n\
         `playtune validate RUN --cells {id}` takes these ids and prints them. Hatched cells hold no elite."
    )
}

/// What a convergence curve's shaded band is (none with one trial).
pub(crate) fn band_name(curve: &str, trials: usize) -> String {
    if trials > 1 {
        format!("{curve}: band = mean ± 1 standard error over {trials} trials")
    } else {
        String::new()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::heatmap::colour_range;
    use playtune::eval::{NoisyWinRate, Sphere};

    /// A win-rate fitness (and a rate feature, and their replays) is coloured on 0 to
    /// 1 whatever the elites reached; a fitness with no known range on the data's.
    #[test]
    fn win_rates_are_coloured_on_zero_to_one() {
        let wins = NoisyWinRate::new(4, 3, 0.2, 0.8);
        for column in [
            "fitness",
            "replay_fitness",
            "win_rate",
            "replay_stalemate_rate",
        ] {
            let known = column_range(&wins, column);
            assert_eq!(known, Some((0.0, 1.0)), "{column}");
            assert_eq!(colour_range(known, [0.35, 0.6].into_iter()), (0.0, 1.0));
        }
        assert_eq!(column_range(&wins, "win_rate_se"), None);
        assert_eq!(column_range(&wins, "attacks"), None);
        assert_eq!(column_range(&Sphere::new(4), "fitness"), Some((0.0, 100.0)));
        assert_eq!(column_range(&Sphere::new(4), "measure_0"), None);
    }

    #[test]
    fn cells_are_named_as_validate_names_them() {
        assert_eq!(cell_id(&[3, 7]), "3:7");
        assert_eq!(cell_id(&[1, 0, 2]), "1:0:2");
        assert!(axis_title(None, "attacks", 'I', 2).ends_with("I of cell I:J"));
        assert!(cell_note(2).contains("--cells I:J"));
    }

    #[test]
    fn the_convergence_band_says_what_it_is() {
        assert_eq!(
            band_name("estimate of the recommendation", 5),
            "estimate of the recommendation: band = mean ± 1 standard error over 5 trials"
        );
        assert_eq!(band_name("estimate", 1), "", "one trial has no band");
    }
}
