//! MAP-Elites (Mouret & Clune 2015), split the way pyribs splits it: an archive
//! ([`GridArchive`] or [`CvtArchive`], behind [`Archive`]) whose `add` says what became
//! of a candidate; emitters (the `Emitter` trait) that propose candidates from the archive's
//! elites; and a [`Scheduler`] that runs the emitters over one archive and is the
//! [`Optimizer`](super::Optimizer). New emitters (CMA-ME's improvement ranking) or
//! archives plug in without touching the others.
//!
//! Initialisation: optionally the one-hot points of a weight vector and G random
//! points; while the archive is still empty, emitters mutate the space's default point
//! (pyribs' x0). Metrics are recorded after every batch.

mod archive;
pub mod def;
mod emitters;
mod scheduler;

pub use archive::{
    AddOutcome, AddStatus, AnyArchive, Archive, Better, CvtArchive, Elite, EliteStore, GridArchive,
    Metrics, Replay,
};
pub use emitters::Mutation;
pub use scheduler::Scheduler;

use crate::eval::FeatureAxis;
use crate::space::Space;
use serde::{Deserialize, Serialize};

/// Which archive a run fills.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum ArchiveConfig {
    /// A grid over the axes' bins.
    #[default]
    Grid,
    /// `centroids` Voronoi cells placed by k-means over `samples` uniform points of the
    /// axes' box (their bins unused), drawn with generator `seed`: fixed by the
    /// configuration rather than the trial, so every trial of a run fills the same cells.
    Cvt {
        /// The cells.
        centroids: usize,
        /// The uniform points k-means places them by.
        samples: usize,
        /// The seed of the generator that draws the samples.
        seed: u64,
    },
}

impl ArchiveConfig {
    /// A CVT archive of `k` centroids with the default sampling: 20 samples a centroid
    /// (at most 100,000, at least k), seed 0.
    pub fn cvt(k: usize) -> ArchiveConfig {
        ArchiveConfig::Cvt {
            centroids: k,
            samples: (20 * k).min(100_000).max(k),
            seed: 0,
        }
    }
}

/// MAP-Elites' settings, as `config.ron` records them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapElitesConfig {
    /// The grid; empty means the problem's default axes.
    pub axes: Vec<FeatureAxis>,
    /// Values beyond an axis's bounds go to an underflow or overflow bin at its ends
    /// (the play-styles paper's option); without, they go to the edge bins.
    pub overflow_bins: bool,
    /// When a newcomer replaces the elite of its cell.
    pub better: Better,
    /// The first emitter.
    pub mutation: Mutation,
    /// Further emitters: batches go to `mutation` and these in turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_emitters: Vec<Mutation>,
    /// Which archive the run fills: a grid (the default, not written) or CVT cells.
    #[serde(default, skip_serializing_if = "is_grid")]
    pub archive: ArchiveConfig,
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

fn is_grid(a: &ArchiveConfig) -> bool {
    *a == ArchiveConfig::Grid
}

impl Default for MapElitesConfig {
    fn default() -> Self {
        MapElitesConfig {
            axes: Vec::new(),
            overflow_bins: false,
            better: Better::Greater,
            mutation: Mutation::HillClimber,
            more_emitters: Vec::new(),
            archive: ArchiveConfig::Grid,
            batch: 36,
            init_one_hot: false,
            init_random: 0,
            qd_offset: 0.0,
            reevaluate: 0,
        }
    }
}

/// The emitters a run gets when it names none: every kind of free dimension must move.
/// Gaussian mutation moves only Float dimensions and one-weight mutation moves every
/// dimension one level at a time, so a space of only Floats gets Gaussian (pyribs'
/// default), a space without Floats one-weight, and a mixed space both in turn (on a
/// five-dimension space with one Float, Gaussian alone filled 8% of the grid and the
/// pair 53%).
pub(crate) fn default_emitters(space: &Space, sigma: f64) -> Vec<Mutation> {
    let free = space.free_dims();
    let floats = free
        .iter()
        .filter(|&&d| space.dims[d].domain.is_continuous())
        .count();
    match (floats, free.len() - floats) {
        (0, _) => vec![Mutation::HillClimber],
        (_, 0) => vec![Mutation::Gaussian { sigma }],
        _ => vec![Mutation::HillClimber, Mutation::Gaussian { sigma }],
    }
}

/// The free dimensions that none of `emitters` ever moves (Gaussian and iso-line leave
/// every non-Float dimension where it is), by name: what a run would search in vain.
pub fn unmoved_dims(space: &Space, emitters: &[Mutation]) -> Vec<String> {
    if emitters.iter().any(|m| matches!(m, Mutation::HillClimber)) {
        return Vec::new();
    }
    space
        .free_dims()
        .into_iter()
        .filter(|&d| !space.dims[d].domain.is_continuous())
        .map(|d| space.dims[d].name.clone())
        .collect()
}

impl MapElitesConfig {
    /// Every emitter, the first one first.
    pub fn emitters(&self) -> impl Iterator<Item = &Mutation> {
        std::iter::once(&self.mutation).chain(&self.more_emitters)
    }

    /// Checks what does not depend on the problem; an error names the setting.
    pub fn check(&self) -> Result<(), crate::optim::Error> {
        self.emitters().try_for_each(Mutation::check)?;
        self.axes.iter().try_for_each(check_axis)?;
        // Bounded before anything is sized: the initial points are made up front.
        if self.init_random > MAX_INIT_RANDOM {
            return Err(crate::optim::Error::Setting {
                setting: "init_random".into(),
                value: self.init_random.to_string(),
                expected: format!(
                    "give 0 to {MAX_INIT_RANDOM} (random points before the emitters start)"
                ),
            });
        }
        if let ArchiveConfig::Cvt {
            centroids, samples, ..
        } = self.archive
        {
            if centroids == 0 || centroids > MAX_CENTROIDS {
                return Err(crate::optim::Error::Setting {
                    setting: "centroids".into(),
                    value: centroids.to_string(),
                    expected: format!("give 1 to {MAX_CENTROIDS} (cells of the CVT archive)"),
                });
            }
            if samples < centroids || samples > MAX_CVT_SAMPLES {
                return Err(crate::optim::Error::Setting {
                    setting: "samples".into(),
                    value: samples.to_string(),
                    expected: format!("give {centroids} (the centroids) to {MAX_CVT_SAMPLES}"),
                });
            }
        }
        Ok(())
    }
}

/// Most random initial points: they are made before the first batch.
const MAX_INIT_RANDOM: usize = 1_000_000;
/// Most cells of an archive's grid: the grid is allocated whole (4 bytes a cell).
const MAX_CELLS: usize = 1 << 26;
/// Most CVT centroids: placing them costs samples x centroids per Lloyd iteration, and
/// every insertion scans them all.
const MAX_CENTROIDS: usize = 100_000;
const MAX_CVT_SAMPLES: usize = 1 << 22;

/// Checks one feature axis: finite bounds, low < high, some bins.
pub fn check_axis(a: &FeatureAxis) -> Result<(), crate::optim::Error> {
    if !(a.low.is_finite() && a.high.is_finite() && a.low < a.high) || a.bins == 0 {
        return Err(crate::optim::Error::Axis {
            axis: a.name.clone(),
            problem: format!(
                " needs finite LOW < HIGH and at least one bin (got {}:{}:{})",
                a.low, a.high, a.bins
            ),
        });
    }
    if a.bins > MAX_CELLS {
        return Err(crate::optim::Error::Axis {
            axis: a.name.clone(),
            problem: format!(": {} bins, at most {MAX_CELLS}", a.bins),
        });
    }
    Ok(())
}
