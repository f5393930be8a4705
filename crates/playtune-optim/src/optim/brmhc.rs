//! Biased-mutation RMHC (the NTBEA paper's Algorithm 2, with softmax dimension choice).
//!
//! Pre-processing measures how much each dimension moves fitness:
//! - group A (every free dimension outside a layout group): the other dimensions set
//!   at random, the dimension evaluated at each of its values; importance = standard
//!   deviation of those fitnesses;
//! - group B (layout cells, the space's `groups`): a random base point with every cell
//!   of the group off, then each cell switched on alone; importance = |change|.
//!
//! Evolution is RMHC with the dimension drawn by softmax over importance. Importances
//! are divided by the largest one before the softmax so that the temperature does not
//! depend on the fitness scale: with the default temperature 0.5, the most important
//! dimension is e^2 = 7.4 times as likely to mutate as one that never moved fitness.

use super::declaration::{self, OptimizerDef};
use super::rmhc::{DimensionChooser, HillClimber};
use super::{Candidate, Optimizer, Phase, Recommendation};
use crate::eval::Evaluation;
use crate::rng::{Rng, rng_from_seed};
use crate::settings::Setting;
use crate::space::Domain;
use crate::space::{Space, random_point};
use crate::stats::Summary;
use serde::{Deserialize, Serialize};

/// B-RMHC's settings, as `config.ron` records them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrmhcConfig {
    /// Evaluations of the parent and of the mutant per generation (r), as in RMHC.
    pub resample: u32,
    /// Softmax temperature over importances scaled to [0, 1].
    pub temperature: f64,
    /// When true, pre-processing evaluations do not count against the budget.
    pub free_preprocessing: bool,
}

/// B-RMHC, declared ([`super::def`]).
pub static DEF: OptimizerDef = OptimizerDef {
    name: "brmhc",
    aliases: &["b-rmhc"],
    about: "Biased-mutation RMHC: the dimension to mutate drawn by its measured importance",
    settings: || {
        vec![
            super::rmhc::resample_setting(),
            Setting::new(
                "temperature",
                "0.5",
                "B-RMHC: softmax temperature over importances scaled to [0, 1]",
            ),
            Setting::new(
                "free_preprocessing",
                "false",
                "B-RMHC: pre-processing evaluations do not count against the budget",
            )
            .taking(Domain::Bool),
        ]
    },
    configure: |v, _| {
        Ok(super::AlgoConfig::Brmhc(BrmhcConfig {
            resample: super::rmhc::resample(v)?,
            temperature: declaration::real(v, "temperature", |t| t > 0.0, "above 0")?,
            free_preprocessing: declaration::switch(v, "free_preprocessing")?,
        }))
    },
    values: |c| match c {
        super::AlgoConfig::Brmhc(c) => Some(vec![
            ("resample".into(), declaration::text(c.resample)),
            ("temperature".into(), declaration::text(c.temperature)),
            (
                "free_preprocessing".into(),
                declaration::text(c.free_preprocessing),
            ),
        ]),
        _ => None,
    },
};

impl Default for BrmhcConfig {
    fn default() -> Self {
        BrmhcConfig {
            resample: 1,
            temperature: 0.5,
            free_preprocessing: false,
        }
    }
}

/// One pre-processing measurement: which evaluations of the batch it reads.
enum Probe {
    /// Dimension `dim` evaluated at every value: results[start..start+len].
    Sweep {
        dim: usize,
        start: usize,
        len: usize,
    },
    /// Layout cells: results[base] with all off, results[base+1+i] with cell i on.
    Cells { dims: Vec<usize>, base: usize },
}

/// Biased-mutation RMHC: pre-processing, then RMHC with the dimension drawn by
/// importance (the module's description).
pub struct Brmhc {
    config: BrmhcConfig,
    space: Space,
    climber: HillClimber,
    probes: Vec<Probe>,
    batch: Vec<Candidate>,
    importance: Vec<f64>,
    preprocessed: bool,
}

/// Number of pre-processing evaluations B-RMHC needs for `space`.
/// Counted, not planned: a dimension of 2^32 values must be refused before its sweep
/// is built.
pub(crate) fn preprocessing_cost(space: &Space) -> u64 {
    let (free, in_group) = membership(space);
    let sweeps: u64 = (0..space.len())
        .filter(|&d| free[d] && !in_group[d])
        .map(|d| space.dims[d].arity() as u64)
        .sum();
    let groups: u64 = space
        .group_members()
        .iter()
        .map(|g| g.iter().filter(|&&d| free[d]).count() as u64)
        .filter(|&cells| cells > 0)
        .map(|cells| 1 + cells)
        .sum();
    sweeps + groups
}

/// Which dimensions are free, and which belong to a group, by position: lookups that
/// stay linear however many groups a space has.
fn membership(space: &Space) -> (Vec<bool>, Vec<bool>) {
    let mut free = vec![false; space.len()];
    space.free_dims().into_iter().for_each(|d| free[d] = true);
    let mut in_group = vec![false; space.len()];
    space
        .group_members()
        .iter()
        .flatten()
        .for_each(|&d| in_group[d] = true);
    (free, in_group)
}

/// Most pre-processing evaluations: they are planned as one batch in memory.
const MAX_PREPROCESSING: u64 = 1 << 22;

fn plan(space: &Space, rng: &mut Rng) -> (Vec<Probe>, Vec<Candidate>) {
    let free = space.free_dims();
    let groups = space.group_members();
    let (is_free, in_group) = membership(space);
    let in_group = |d: usize| in_group[d];
    let mut probes = Vec::new();
    let mut batch = Vec::new();
    for &dim in free.iter().filter(|&&d| !in_group(d)) {
        let mut point = random_point(space, rng);
        let start = batch.len();
        for v in 0..space.dims[dim].arity() as u32 {
            point[dim] = v;
            batch.push(Candidate {
                values: space.decode(&point),
                phase: Phase::Preprocess,
                common: None,
            });
        }
        probes.push(Probe::Sweep {
            dim,
            start,
            len: batch.len() - start,
        });
    }
    for group in &groups {
        let cells: Vec<usize> = group.iter().copied().filter(|&d| is_free[d]).collect();
        if cells.is_empty() {
            continue;
        }
        let mut base = random_point(space, rng);
        cells.iter().for_each(|&c| base[c] = 0);
        let at = batch.len();
        batch.push(Candidate {
            values: space.decode(&base),
            phase: Phase::Preprocess,
            common: None,
        });
        for &c in &cells {
            base[c] = 1;
            batch.push(Candidate {
                values: space.decode(&base),
                phase: Phase::Preprocess,
                common: None,
            });
            base[c] = 0;
        }
        probes.push(Probe::Cells {
            dims: cells,
            base: at,
        });
    }
    (probes, batch)
}

/// Cumulative softmax probabilities over `importance` scaled by its maximum.
fn softmax_cumulative(importance: &[f64], temperature: f64) -> Vec<f64> {
    let max = importance.iter().cloned().fold(0.0, f64::max);
    let scaled: Vec<f64> = importance
        .iter()
        .map(|&x| {
            if max > 0.0 {
                ((x / max) / temperature.max(1e-9)).exp()
            } else {
                1.0
            }
        })
        .collect();
    let total: f64 = scaled.iter().sum();
    let mut acc = 0.0;
    let mut cum: Vec<f64> = scaled
        .iter()
        .map(|s| {
            acc += s / total;
            acc
        })
        .collect();
    if let Some(last) = cum.last_mut() {
        *last = 1.0;
    }
    cum
}

impl Brmhc {
    /// B-RMHC over `space` with `budget` evaluations (pre-processing included unless it
    /// is free), seeded by `seed`; refused when pre-processing would be too long or
    /// leave no budget for a generation.
    pub fn new(
        config: BrmhcConfig,
        space: Space,
        budget: u64,
        seed: u64,
    ) -> Result<Brmhc, super::Error> {
        let cost = preprocessing_cost(&space);
        if cost > MAX_PREPROCESSING {
            return Err(super::Error::PreprocessingTooLong {
                cost,
                most: MAX_PREPROCESSING,
            });
        }
        let mut rng = rng_from_seed(seed);
        let (probes, batch) = plan(&space, &mut rng);
        debug_assert_eq!(cost, batch.len() as u64);
        let generation = 2 * config.resample.max(1) as u64;
        let left = if config.free_preprocessing {
            budget
        } else {
            budget.saturating_sub(cost)
        };
        if left < generation {
            return Err(super::Error::PreprocessingLeavesNothing {
                budget,
                left,
                cost,
                generation,
            });
        }
        let free = space.free_dims();
        let climber = HillClimber::new(
            space.clone(),
            config.resample,
            left,
            rng,
            DimensionChooser::Uniform(free),
        );
        Ok(Brmhc {
            config,
            space,
            climber,
            probes,
            batch,
            importance: Vec::new(),
            preprocessed: false,
        })
    }

    /// Importance of each free dimension, once pre-processing is done.
    pub fn importance(&self) -> &[f64] {
        &self.importance
    }
}

impl Optimizer for Brmhc {
    fn ask(&mut self) -> Vec<Candidate> {
        if !self.preprocessed && !self.batch.is_empty() {
            return self.batch.clone();
        }
        self.climber.ask()
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        if self.preprocessed || self.batch.is_empty() {
            self.preprocessed = true;
            return self.climber.tell(asked, results);
        }
        // A failed probe tells nothing about its dimension: a sweep uses the values
        // that were evaluated, a cell whose probe or base failed gets importance 0.
        let f = |i: usize| results[i].as_ref().map(|e| e.fitness);
        let mut importance = vec![0.0; self.space.len()];
        for probe in &self.probes {
            match probe {
                Probe::Sweep { dim, start, len } => {
                    let fits: Vec<f64> = (*start..start + len).filter_map(f).collect();
                    importance[*dim] = if fits.len() > 1 {
                        Summary::of(&fits).sd()
                    } else {
                        0.0
                    };
                }
                Probe::Cells { dims, base } => {
                    for (i, &d) in dims.iter().enumerate() {
                        if let (Some(probe), Some(base)) = (f(base + 1 + i), f(*base)) {
                            importance[d] = (probe - base).abs();
                        }
                    }
                }
            }
        }
        let free = self.space.free_dims();
        let imp: Vec<f64> = free.iter().map(|&d| importance[d]).collect();
        self.climber.set_chooser(DimensionChooser::Weighted(
            free,
            softmax_cumulative(&imp, self.config.temperature),
        ));
        self.importance = importance;
        self.preprocessed = true;
        self.batch.clear();
    }

    fn recommend(&self) -> Recommendation {
        self.climber.recommend()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_prefers_important_dimensions() {
        let cum = softmax_cumulative(&[0.0, 2.0, 1.0], 0.5);
        let p: Vec<f64> = cum
            .iter()
            .scan(0.0, |prev, &c| {
                let p = c - *prev;
                *prev = c;
                Some(p)
            })
            .collect();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(p[1] > p[2] && p[2] > p[0]);
        assert!((p[1] / p[0] - 2f64.exp()).abs() < 1e-9);
        let flat = softmax_cumulative(&[0.0, 0.0], 0.5);
        assert!((flat[0] - 0.5).abs() < 1e-12);
    }
}
