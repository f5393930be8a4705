//! The MAP-Elites grid archive: one elite per cell of a grid over behaviour features.

use crate::eval::FeatureAxis;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};

/// When a newcomer replaces the elite of its cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Better {
    /// Strictly greater fitness (pyribs).
    Greater,
    /// Fitness first, then the named feature, ties go to the newcomer (the play-styles
    /// paper: win rate first, mean score second).
    Lexicographic { secondary: String },
}

/// One elite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elite {
    /// Cell coordinates, one per axis (0 and bins+1 are the under/overflow bins when
    /// they are enabled).
    pub cell: Vec<usize>,
    /// The point, in the search space's order.
    pub values: Vec<f64>,
    pub fitness: f64,
    pub features: Vec<f64>,
    /// Evaluation index (within its trial) that produced the elite.
    pub found_at: u64,
    /// Re-evaluation of the elite after the search, when asked for: fitness and each
    /// feature over the replays (mean and standard error via `Summary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub fitness: Summary,
    pub features: Vec<Summary>,
}

/// Archive metrics after some number of evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub evaluations: u64,
    pub filled: usize,
    pub coverage: f64,
    pub qd_score: f64,
    pub max_fitness: f64,
    pub mean_fitness: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Archive {
    pub axes: Vec<FeatureAxis>,
    /// Feature index (in the problem's feature list) of each axis.
    pub axis_features: Vec<usize>,
    pub overflow_bins: bool,
    pub better: Better,
    secondary: Option<usize>,
    pub qd_offset: f64,
    /// Elites, in order of first insertion into their cell.
    pub elites: Vec<Elite>,
    #[serde(skip)]
    cell_to_elite: Vec<u32>,
    fitness_sum: f64,
    max_fitness: f64,
}

const EMPTY: u32 = u32::MAX;

impl Archive {
    pub fn new(
        axes: Vec<FeatureAxis>,
        axis_features: Vec<usize>,
        overflow_bins: bool,
        better: Better,
        secondary: Option<usize>,
        qd_offset: f64,
    ) -> Archive {
        let mut a = Archive {
            axes,
            axis_features,
            overflow_bins,
            better,
            secondary,
            qd_offset,
            elites: Vec::new(),
            cell_to_elite: Vec::new(),
            fitness_sum: 0.0,
            max_fitness: f64::NEG_INFINITY,
        };
        a.cell_to_elite = vec![EMPTY; a.cells()];
        a
    }

    /// Bins along axis `i`, the under/overflow bins included.
    pub fn bins(&self, i: usize) -> usize {
        self.axes[i].bins + if self.overflow_bins { 2 } else { 0 }
    }

    pub fn cells(&self) -> usize {
        (0..self.axes.len()).map(|i| self.bins(i)).product()
    }

    /// The bin of `x` on axis `i`: values outside the bounds go to the under/overflow
    /// bin when enabled, else to the nearest edge bin.
    pub fn bin(&self, i: usize, x: f64) -> usize {
        let a = &self.axes[i];
        let inner = if x.is_nan() {
            0
        } else {
            (((x - a.low) / (a.high - a.low) * a.bins as f64)
                .floor()
                .clamp(0.0, (a.bins - 1) as f64)) as usize
        };
        if !self.overflow_bins {
            inner
        } else if x < a.low {
            0
        } else if x > a.high {
            a.bins + 1
        } else {
            inner + 1
        }
    }

    pub fn cell_of(&self, features: &[f64]) -> Vec<usize> {
        self.axis_features
            .iter()
            .enumerate()
            .map(|(i, &f)| self.bin(i, features[f]))
            .collect()
    }

    fn flat(&self, cell: &[usize]) -> usize {
        cell.iter()
            .enumerate()
            .fold(0, |acc, (i, &c)| acc * self.bins(i) + c)
    }

    pub fn get(&self, cell: &[usize]) -> Option<&Elite> {
        let e = self.cell_to_elite[self.flat(cell)];
        (e != EMPTY).then(|| &self.elites[e as usize])
    }

    fn beats(&self, fitness: f64, features: &[f64], old: &Elite) -> bool {
        match (&self.better, self.secondary) {
            (Better::Lexicographic { .. }, Some(s)) => {
                fitness > old.fitness || (fitness == old.fitness && features[s] >= old.features[s])
            }
            _ => fitness > old.fitness,
        }
    }

    /// Inserts a candidate if its cell is empty or it beats the elite there; returns
    /// whether it was inserted.
    pub fn insert(
        &mut self,
        values: &[f64],
        fitness: f64,
        features: &[f64],
        found_at: u64,
    ) -> bool {
        if fitness.is_nan() {
            return false;
        }
        let cell = self.cell_of(features);
        let flat = self.flat(&cell);
        let slot = self.cell_to_elite[flat];
        if slot != EMPTY {
            let old = &self.elites[slot as usize];
            if !self.beats(fitness, features, old) {
                return false;
            }
            self.fitness_sum += fitness - old.fitness;
            let e = &mut self.elites[slot as usize];
            e.values.clear();
            e.values.extend_from_slice(values);
            e.features.clear();
            e.features.extend_from_slice(features);
            e.fitness = fitness;
            e.found_at = found_at;
        } else {
            self.cell_to_elite[flat] = self.elites.len() as u32;
            self.elites.push(Elite {
                cell,
                values: values.to_vec(),
                fitness,
                features: features.to_vec(),
                found_at,
                replay: None,
            });
            self.fitness_sum += fitness;
        }
        self.max_fitness = self.max_fitness.max(fitness);
        true
    }

    pub fn metrics(&self, evaluations: u64) -> Metrics {
        let filled = self.elites.len();
        Metrics {
            evaluations,
            filled,
            coverage: filled as f64 / self.cells() as f64,
            qd_score: self.fitness_sum - self.qd_offset * filled as f64,
            max_fitness: if filled > 0 {
                self.max_fitness
            } else {
                f64::NAN
            },
            mean_fitness: if filled > 0 {
                self.fitness_sum / filled as f64
            } else {
                f64::NAN
            },
        }
    }

    /// Rebuilds the cell index after deserialising.
    pub fn reindex(&mut self) {
        self.cell_to_elite = vec![EMPTY; self.cells()];
        for (i, e) in self.elites.iter().enumerate() {
            let flat = self.flat(&e.cell);
            self.cell_to_elite[flat] = i as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(bins: usize) -> FeatureAxis {
        FeatureAxis {
            name: "f".into(),
            low: 0.0,
            high: 10.0,
            bins,
        }
    }

    #[test]
    fn bins_clip_or_overflow() {
        let a = Archive::new(vec![axis(10)], vec![0], false, Better::Greater, None, 0.0);
        assert_eq!(
            (
                a.bin(0, -5.0),
                a.bin(0, 0.0),
                a.bin(0, 9.99),
                a.bin(0, 10.0),
                a.bin(0, 50.0)
            ),
            (0, 0, 9, 9, 9)
        );
        let o = Archive::new(vec![axis(10)], vec![0], true, Better::Greater, None, 0.0);
        assert_eq!(
            (
                o.bin(0, -5.0),
                o.bin(0, 0.0),
                o.bin(0, 10.0),
                o.bin(0, 50.0)
            ),
            (0, 1, 10, 11)
        );
        assert_eq!(o.cells(), 12);
    }

    #[test]
    fn insertion_rules_and_metrics() {
        let mut a = Archive::new(
            vec![axis(2), axis(2)],
            vec![0, 1],
            false,
            Better::Greater,
            None,
            0.0,
        );
        assert!(a.insert(&[1.0], 5.0, &[1.0, 1.0], 0));
        assert!(
            !a.insert(&[2.0], 5.0, &[1.0, 1.0], 1),
            "equal fitness does not replace under Greater"
        );
        assert!(a.insert(&[3.0], 7.0, &[2.0, 2.0], 2));
        assert!(a.insert(&[4.0], 1.0, &[9.0, 9.0], 3));
        let m = a.metrics(4);
        assert_eq!(
            (m.filled, m.coverage, m.qd_score, m.max_fitness),
            (2, 0.5, 8.0, 7.0)
        );
        assert_eq!(a.get(&[0, 0]).unwrap().values, vec![3.0]);

        let mut l = Archive::new(
            vec![axis(1)],
            vec![0],
            false,
            Better::Lexicographic {
                secondary: "s".into(),
            },
            Some(1),
            0.0,
        );
        assert!(l.insert(&[1.0], 0.5, &[1.0, 10.0], 0));
        assert!(!l.insert(&[2.0], 0.5, &[1.0, 9.0], 1));
        assert!(
            l.insert(&[3.0], 0.5, &[1.0, 10.0], 2),
            "ties go to the newcomer"
        );
        assert!(l.insert(&[4.0], 0.6, &[1.0, 0.0], 3));
    }
}
