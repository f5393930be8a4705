//! MAP-Elites (Mouret & Clune 2015) with a grid archive.
//!
//! Initialisation: optionally the one-hot points of a weight vector and G random
//! points; while the archive is still empty, mutants of the space's default point
//! (pyribs' x0). Then every batch picks occupied cells uniformly and mutates their
//! elites: the stochastic hill climber changes one dimension to a different value;
//! Gaussian mutation adds N(0, sigma^2) to every continuous dimension, clipped to its
//! bounds. Metrics are recorded after every batch.

mod archive;

pub use archive::{Archive, Better, Elite, Metrics, Replay};

use super::{Candidate, Optimizer, Phase, Recommendation};
use crate::eval::{Evaluation, FeatureAxis};
use crate::rng::{Rng, rng_from_seed};
use crate::space::{Space, mutate_one, random_point};
use crate::stats::Summary;
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Mutation {
    /// Change one dimension to a different value of its domain.
    HillClimber,
    /// Add Gaussian noise of this standard deviation to every continuous dimension.
    Gaussian { sigma: f64 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapElitesConfig {
    /// The grid; empty means the problem's default axes.
    pub axes: Vec<FeatureAxis>,
    pub overflow_bins: bool,
    pub better: Better,
    pub mutation: Mutation,
    /// Candidates per batch (evaluated in parallel).
    pub batch: usize,
    /// Start with the one-hot points (dimension i at its largest value, the others at
    /// their smallest): the play-styles paper's initialisation for weight vectors.
    pub init_one_hot: bool,
    /// Random points evaluated before mutation starts.
    pub init_random: usize,
    /// Subtracted from each elite's fitness in the QD score.
    pub qd_offset: f64,
    /// Evaluations of every elite after the search (0: none).
    pub reevaluate: u32,
}

impl Default for MapElitesConfig {
    fn default() -> Self {
        MapElitesConfig {
            axes: Vec::new(),
            overflow_bins: false,
            better: Better::Greater,
            mutation: Mutation::HillClimber,
            batch: 36,
            init_one_hot: false,
            init_random: 0,
            qd_offset: 0.0,
            reevaluate: 0,
        }
    }
}

pub struct MapElites {
    config: MapElitesConfig,
    space: Space,
    free: Vec<usize>,
    continuous: Vec<usize>,
    rng: Rng,
    archive: Archive,
    remaining: u64,
    evaluations: u64,
    init: Vec<Vec<f64>>,
    history: Vec<Metrics>,
    replaying: bool,
    replay_done: bool,
}

impl MapElites {
    pub fn new(
        config: MapElitesConfig,
        space: Space,
        budget: u64,
        seed: u64,
        features: &[String],
        default_axes: &[FeatureAxis],
    ) -> Result<MapElites, String> {
        let axes = if config.axes.is_empty() {
            default_axes.to_vec()
        } else {
            config.axes.clone()
        };
        if axes.is_empty() {
            return Err("MAP-Elites needs feature axes: the problem suggests none, so give --axis NAME=LOW:HIGH:BINS".into());
        }
        let mut axis_features = Vec::new();
        for a in &axes {
            let f = features.iter().position(|n| *n == a.name).ok_or_else(|| {
                format!(
                    "axis `{}` is not a feature of the problem (its features: {})",
                    a.name,
                    features.join(", ")
                )
            })?;
            check_axis(a)?;
            axis_features.push(f);
        }
        let cells = axes.iter().try_fold(1usize, |n, a| {
            n.checked_mul(a.bins + if config.overflow_bins { 2 } else { 0 })
        });
        if cells.is_none_or(|n| n > MAX_CELLS) {
            return Err(format!(
                "the archive's grid has more than {MAX_CELLS} cells: use fewer bins"
            ));
        }
        let secondary = match &config.better {
            Better::Greater => None,
            Better::Lexicographic { secondary } => Some(
                features
                    .iter()
                    .position(|n| n == secondary)
                    .ok_or_else(|| {
                        format!(
                            "lexicographic secondary `{secondary}` is not a feature of the problem"
                        )
                    })?,
            ),
        };
        let continuous: Vec<usize> = space
            .free_dims()
            .into_iter()
            .filter(|&d| space.dims[d].domain.is_continuous())
            .collect();
        if let Mutation::Gaussian { sigma } = config.mutation {
            if continuous.is_empty() {
                return Err("Gaussian mutation needs Float dimensions; use the hill climber for discrete spaces".into());
            }
            if sigma.is_nan() || sigma <= 0.0 {
                return Err("Gaussian mutation needs sigma > 0".into());
            }
        }
        let archive = Archive::new(
            axes,
            axis_features,
            config.overflow_bins,
            config.better.clone(),
            secondary,
            config.qd_offset,
        );
        let mut rng = rng_from_seed(seed);
        let mut init = Vec::new();
        if config.init_one_hot {
            for &d in &space.free_dims() {
                let mut p: Vec<u32> = space
                    .dims
                    .iter()
                    .map(|x| if x.fixed { x.default as u32 } else { 0 })
                    .collect();
                p[d] = space.dims[d].arity() as u32 - 1;
                init.push(space.decode(&p));
            }
        }
        for _ in 0..config.init_random {
            init.push(space.decode(&random_point(&space, &mut rng)));
        }
        init.reverse(); // asked by popping
        Ok(MapElites {
            free: space.free_dims(),
            continuous,
            space,
            rng,
            archive,
            remaining: budget,
            evaluations: 0,
            init,
            history: Vec::new(),
            config,
            replaying: false,
            replay_done: false,
        })
    }

    /// A mutant of elite `parent` (an index into the archive) or, with `None`, of the
    /// space's default point.
    fn mutant(&mut self, parent: Option<usize>) -> Vec<f64> {
        let default;
        let parent: &[f64] = match parent {
            Some(i) => &self.archive.elites[i].values,
            None => {
                default = self.space.decode(&self.space.default_indices());
                &default
            }
        };
        match self.config.mutation {
            Mutation::Gaussian { sigma } => {
                let mut x = parent.to_vec();
                for &d in &self.continuous {
                    let (lo, hi) = self.space.dims[d].domain.bounds();
                    let step: f64 = StandardNormal.sample(&mut self.rng);
                    x[d] = (x[d] + sigma * step).clamp(lo, hi);
                }
                x
            }
            Mutation::HillClimber => {
                // Continuous values off the grid snap to the nearest level first.
                let mut idx: Vec<u32> = self
                    .space
                    .dims
                    .iter()
                    .zip(parent)
                    .map(|(d, &v)| nearest_index(&d.domain, v))
                    .collect();
                mutate_one(&self.space, &self.free, &mut idx, &mut self.rng);
                self.space.decode(&idx)
            }
        }
    }
}

/// Most cells of an archive's grid: the grid is allocated whole (4 bytes a cell).
const MAX_CELLS: usize = 1 << 26;

/// Checks one feature axis: finite bounds, low < high, some bins.
pub(crate) fn check_axis(a: &FeatureAxis) -> Result<(), String> {
    if !(a.low.is_finite() && a.high.is_finite() && a.low < a.high) || a.bins == 0 {
        return Err(format!(
            "axis `{}` needs finite LOW < HIGH and at least one bin (got {}:{}:{})",
            a.name, a.low, a.high, a.bins
        ));
    }
    if a.bins > MAX_CELLS {
        return Err(format!(
            "axis `{}`: {} bins, at most {MAX_CELLS}",
            a.name, a.bins
        ));
    }
    Ok(())
}

fn nearest_index(domain: &crate::space::Domain, v: f64) -> u32 {
    if let Some(i) = domain.index_of(v) {
        return i as u32;
    }
    domain
        .levels_near(v)
        .min_by(|&a, &b| {
            (domain.value(a) - v)
                .abs()
                .total_cmp(&(domain.value(b) - v).abs())
        })
        .unwrap_or(0) as u32
}

impl Optimizer for MapElites {
    fn ask(&mut self) -> Vec<Candidate> {
        if self.remaining == 0 {
            if self.config.reevaluate == 0 || self.replay_done || self.archive.elites.is_empty() {
                return Vec::new();
            }
            self.replaying = true;
            let r = self.config.reevaluate as usize;
            return self
                .archive
                .elites
                .iter()
                .flat_map(|e| {
                    std::iter::repeat_n(
                        Candidate {
                            values: e.values.clone(),
                            phase: Phase::Reevaluate,
                        },
                        r,
                    )
                })
                .collect();
        }
        let n = (self.config.batch.max(1) as u64).min(self.remaining) as usize;
        self.remaining -= n as u64;
        let mut batch = Vec::with_capacity(n);
        for _ in 0..n {
            let values = if let Some(x) = self.init.pop() {
                x
            } else if self.archive.elites.is_empty() {
                self.mutant(None)
            } else {
                let i = self.rng.random_range(0..self.archive.elites.len());
                self.mutant(Some(i))
            };
            batch.push(Candidate {
                values,
                phase: Phase::Search,
            });
        }
        batch
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Evaluation]) {
        if self.replaying {
            let r = self.config.reevaluate as usize;
            for (e, chunk) in self.archive.elites.iter_mut().zip(results.chunks(r)) {
                let fitness = Summary::of(&chunk.iter().map(|x| x.fitness).collect::<Vec<_>>());
                let features = (0..e.features.len())
                    .map(|f| Summary::of(&chunk.iter().map(|x| x.features[f]).collect::<Vec<_>>()))
                    .collect();
                e.replay = Some(Replay { fitness, features });
            }
            self.replaying = false;
            self.replay_done = true;
            return;
        }
        for (c, e) in asked.iter().zip(results) {
            self.archive
                .insert(&c.values, e.fitness, &e.features, self.evaluations);
            self.evaluations += 1;
        }
        self.history.push(self.archive.metrics(self.evaluations));
    }

    fn recommend(&self) -> Recommendation {
        let best = self
            .archive
            .elites
            .iter()
            .max_by(|a, b| a.fitness.total_cmp(&b.fitness));
        match best {
            Some(e) => Recommendation {
                values: e.values.clone(),
                estimate: e.fitness,
                se: 0.0,
                samples: 1,
            },
            None => Recommendation {
                values: self.space.decode(&self.space.default_indices()),
                estimate: f64::NAN,
                se: 0.0,
                samples: 0,
            },
        }
    }

    fn archive(&self) -> Option<&Archive> {
        Some(&self.archive)
    }

    fn metrics_history(&self) -> &[Metrics] {
        &self.history
    }
}
