//! Validation of a MAP-Elites archive (the play-styles paper's Table II): chosen
//! elites are evaluated again, many times and under other settings of their problem
//! (validation levels instead of training ones, more games), and their archive values
//! of fitness and features are set beside the validation values with standard errors.
//! An elite's archive value is one noisy evaluation that won its cell, so it is biased
//! upwards; validation says how much of the style and the strength is real.

use super::Error;
use playtune::optim::map_elites::{AnyArchive, Archive, Elite};
use playtune::rng::derive_seed;
use playtune::run::ProblemSpec;
use playtune::space::Space;
use playtune_exec::{Evaluate, Executor, map};
use playtune_optim::stats::Summary;

/// Which elites to validate.
#[derive(Clone, Debug, PartialEq)]
pub enum CellChoice {
    /// The elites nearest each corner of the feature box (the paper's opposite
    /// corners), distinct.
    Corners,
    /// The elite of greatest fitness.
    Best,
    /// Every elite.
    All,
    /// These cells (grid coordinates, or a CVT centroid's index).
    Cells(Vec<Vec<usize>>),
}

impl CellChoice {
    /// `corners`, `best`, `all`, or cells as `I:J` separated by commas.
    pub fn parse(text: &str) -> Result<CellChoice, Error> {
        match text {
            "corners" => Ok(CellChoice::Corners),
            "best" => Ok(CellChoice::Best),
            "all" => Ok(CellChoice::All),
            cells => cells
                .split(',')
                .map(|c| {
                    c.split(':')
                        .map(|i| i.trim().parse::<usize>())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| Error::BadCells {
                            text: text.to_string(),
                            cell: c.to_string(),
                        })
                })
                .collect::<Result<Vec<_>, _>>()
                .map(CellChoice::Cells),
        }
    }
}

/// The indices (into the archive's elites) of the chosen elites.
pub fn choose(archive: &AnyArchive, choice: &CellChoice) -> Result<Vec<usize>, Error> {
    let elites = archive.elites();
    if elites.is_empty() {
        return Err(Error::NoElites);
    }
    Ok(match choice {
        CellChoice::All => (0..elites.len()).collect(),
        CellChoice::Best => {
            let best = (0..elites.len())
                .max_by(|&a, &b| elites[a].fitness.total_cmp(&elites[b].fitness))
                .expect("not empty");
            vec![best]
        }
        CellChoice::Cells(cells) => cells
            .iter()
            .map(|c| {
                elites
                    .iter()
                    .position(|e| &e.cell == c)
                    .ok_or_else(|| Error::EmptyCell {
                        cell: c.clone(),
                        elites: elites.len(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?,
        CellChoice::Corners => {
            let axes = archive.axes();
            // Where each axis's feature sits among the elite's features (the problem
            // may report more features than the archive has axes).
            let columns = axis_features(archive);
            // Feature value of an axis mapped to [0, 1] over the axis's bounds.
            let unit = |e: &Elite, a: usize| {
                let ax = &axes[a];
                let span = ax.high - ax.low;
                let v = e.features.get(columns[a]).copied().unwrap_or(ax.low);
                if span > 0.0 {
                    ((v - ax.low) / span).clamp(0.0, 1.0)
                } else {
                    0.5
                }
            };
            let mut chosen: Vec<usize> = Vec::new();
            for corner in 0..(1usize << axes.len()) {
                let distance = |e: &Elite| -> f64 {
                    (0..axes.len())
                        .map(|a| (unit(e, a) - ((corner >> a) & 1) as f64).abs())
                        .sum()
                };
                let nearest = (0..elites.len())
                    .min_by(|&x, &y| distance(&elites[x]).total_cmp(&distance(&elites[y])))
                    .expect("not empty");
                if !chosen.contains(&nearest) {
                    chosen.push(nearest);
                }
            }
            chosen
        }
    })
}

/// The feature index of each of the archive's axes.
fn axis_features(archive: &AnyArchive) -> Vec<usize> {
    match archive {
        AnyArchive::Grid(a) => a.axis_features.clone(),
        AnyArchive::Cvt(a) => a.axis_features.clone(),
    }
}

/// One validated elite.
#[derive(Clone, Debug)]
pub struct ValidationRow {
    pub(crate) cell: Vec<usize>,
    pub(crate) archive_fitness: f64,
    pub(crate) archive_features: Vec<f64>,
    /// Over the validation evaluations.
    pub(crate) fitness: Summary,
    pub(crate) features: Vec<Summary>,
}

/// Evaluates each elite `evaluations` times with the problem `spec` builds (with
/// `space`, an external evaluator's), on `exec`: evaluation `k` of elite `i` seeded from
/// `(seed, i, k)`, so the result does not depend on where or beside what it runs.
pub fn validate(
    exec: &dyn Executor,
    label: &str,
    spec: &ProblemSpec,
    space: Option<&Space>,
    elites: &[&Elite],
    evaluations: usize,
    seed: u64,
) -> Result<Vec<ValidationRow>, Error> {
    let tasks: Vec<Evaluate> = (0..elites.len())
        .flat_map(|i| (0..evaluations).map(move |k| (i, k)))
        .map(|(i, k)| Evaluate {
            problem: spec.clone(),
            space: space.cloned(),
            point: elites[i].values.clone(),
            seed: derive_seed(seed, &[i as u64, k as u64]),
            what: format!("elite {:?}", elites[i].cell),
        })
        .collect();
    let results = map(exec, label, &tasks)?;
    let features = results.first().map_or(0, |r| r.features.len());
    Ok(elites
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mine = &results[i * evaluations..(i + 1) * evaluations];
            let mut fitness = Summary::default();
            let mut feats = vec![Summary::default(); features];
            for r in mine {
                fitness.add(r.fitness);
                for (s, &v) in feats.iter_mut().zip(&r.features) {
                    s.add(v);
                }
            }
            ValidationRow {
                cell: e.cell.clone(),
                archive_fitness: e.fitness,
                archive_features: e.features.clone(),
                fitness,
                features: feats,
            }
        })
        .collect())
}

/// The Table II layout: per elite, archive value and validation mean ± s.e. of the
/// fitness and of the `shown` features (indices into `names`).
pub fn markdown(rows: &[ValidationRow], names: &[String], shown: &[usize]) -> String {
    let mut md = String::from("| cell | fitness: archive | validation |");
    for &f in shown {
        md.push_str(&format!(" {}: archive | validation |", names[f]));
    }
    md.push_str("\n|---|---|---|");
    md.push_str(&"---|---|".repeat(shown.len()));
    md.push('\n');
    for r in rows {
        let cell: Vec<String> = r.cell.iter().map(|c| c.to_string()).collect();
        md.push_str(&format!(
            "| {} | {:.3} | {:.3} ± {:.3} |",
            cell.join(":"),
            r.archive_fitness,
            r.fitness.mean,
            r.fitness.se()
        ));
        for &f in shown {
            let s = &r.features[f];
            md.push_str(&format!(
                " {:.3} | {:.3} ± {:.3} |",
                r.archive_features.get(f).copied().unwrap_or(f64::NAN),
                s.mean,
                s.se()
            ));
        }
        md.push('\n');
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Corners are found on the axes' own features, wherever they sit among the
    /// elite's features (here the axes are features 2 and 0 of three).
    #[test]
    fn corners_use_the_axes_features() {
        use playtune::eval::FeatureAxis;
        use playtune::optim::map_elites::{Better, GridArchive};
        let axis = |name: &str| FeatureAxis {
            name: name.into(),
            low: 0.0,
            high: 10.0,
            bins: 10,
        };
        let mut grid = GridArchive::new(
            vec![axis("c"), axis("a")],
            vec![2, 0],
            false,
            Better::Greater,
            None,
            0.0,
        );
        // features (a, b, c): b is not an axis and must not matter.
        for (i, f) in [
            [0.5, 9.0, 0.5],
            [9.5, 0.0, 0.5],
            [0.5, 5.0, 9.5],
            [9.5, 1.0, 9.5],
            [5.0, 5.0, 5.0],
        ]
        .iter()
        .enumerate()
        {
            grid.add(&[i as f64], 1.0, f, i as u64);
        }
        let archive = AnyArchive::Grid(grid);
        let mut picked = choose(&archive, &CellChoice::Corners).unwrap();
        picked.sort();
        assert_eq!(picked, [0, 1, 2, 3], "the four corners, not the centre");
    }

    #[test]
    fn cell_choices_parse() {
        assert_eq!(CellChoice::parse("corners").unwrap(), CellChoice::Corners);
        assert_eq!(
            CellChoice::parse("3:4,0:9").unwrap(),
            CellChoice::Cells(vec![vec![3, 4], vec![0, 9]])
        );
        assert!(
            CellChoice::parse("3:x")
                .unwrap_err()
                .to_string()
                .contains("not a cell")
        );
    }
}
