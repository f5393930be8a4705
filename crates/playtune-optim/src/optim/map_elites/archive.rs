//! MAP-Elites archives: one elite per cell of a tessellation of the behaviour-feature
//! space. [`GridArchive`] cuts each feature's range into bins; [`CvtArchive`] cuts the
//! feature box into the Voronoi cells of k centroids, so its size does not grow as
//! bins^features (Vassiliades et al. 2018) and it suits more than two or three
//! features. Both keep their elites in an [`EliteStore`], and both answer the
//! [`Archive`] trait that emitters read and the scheduler writes, as pyribs' archives
//! do: `add` says what became of a candidate and by how much it improved the archive.

use crate::eval::FeatureAxis;
use crate::rng::{Rng, rng_from_seed};
use crate::stats::Summary;
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// When a newcomer replaces the elite of its cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Better {
    /// Strictly greater fitness (pyribs).
    Greater,
    /// Fitness first, then the named feature, ties go to the newcomer (the play-styles
    /// paper: win rate first, mean score second).
    Lexicographic {
        /// The feature that breaks fitness ties.
        secondary: String,
    },
}

/// One elite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Elite {
    /// Cell coordinates: one per axis in a grid (0 and bins+1 are the under/overflow
    /// bins when they are enabled); the centroid's index in a CVT archive.
    pub cell: Vec<usize>,
    /// The point, in the search space's order.
    pub values: Vec<f64>,
    /// Its fitness (the best seen in its cell).
    pub fitness: f64,
    /// Its features, in the problem's order.
    pub features: Vec<f64>,
    /// Evaluation index (within its trial) that produced the elite.
    pub found_at: u64,
    /// Re-evaluation of the elite after the search, when asked for: fitness and each
    /// feature over the replays (mean and standard error via `Summary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
}

/// An elite's replays after the search: the fitness and each feature summarised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The fitness over the replays.
    pub fitness: Summary,
    /// Each feature over the replays, in the problem's order.
    pub features: Vec<Summary>,
}

/// Archive metrics after some number of evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Evaluations so far.
    pub evaluations: u64,
    /// Cells that hold an elite.
    pub filled: usize,
    /// Filled cells over all cells.
    pub coverage: f64,
    /// Sum over elites of fitness minus the QD offset.
    pub qd_score: f64,
    /// The greatest fitness among the elites (NaN with none).
    pub max_fitness: f64,
    /// The elites' mean fitness (NaN with none).
    pub mean_fitness: f64,
}

/// What [`Archive::add`] did with a candidate (pyribs' `AddStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AddStatus {
    /// Its cell was empty: it is the cell's first elite.
    New,
    /// It replaced the cell's elite.
    Improved,
    /// The cell's elite stays (or the fitness was NaN).
    NotAdded,
}

/// [`AddStatus`] and the improvement, as pyribs' `add` returns status and value: what
/// improvement-ranking emitters (CMA-ME) sort by.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AddOutcome {
    /// Whether it became its cell's elite, and how.
    pub status: AddStatus,
    /// New: fitness minus the archive's lower bound (the QD offset), i.e. what the cell
    /// adds to the QD score. Improved: fitness minus the old elite's (0 for a
    /// lexicographic tie won on the secondary feature). NotAdded: fitness minus the
    /// elite's (at most 0), NaN for a NaN fitness. So the QD score after an add is the
    /// score before plus the improvement of every New or Improved outcome.
    pub improvement: f64,
}

/// What emitters read and the scheduler writes: one elite per cell.
pub trait Archive {
    /// Offers a candidate: it becomes its cell's elite if the cell is empty or it beats
    /// the elite there by the [`Better`] rule.
    fn add(&mut self, values: &[f64], fitness: f64, features: &[f64], found_at: u64) -> AddOutcome;

    /// The elites' store (elites in order of first insertion into their cell).
    fn store(&self) -> &EliteStore;

    /// The feature axes: names and bounds (and a grid's bins).
    fn axes(&self) -> &[FeatureAxis];

    /// Cells in the archive.
    fn cells(&self) -> usize;

    /// The elites, in order of first insertion into their cell.
    fn elites(&self) -> &[Elite] {
        &self.store().elites
    }

    /// Filled cells over all cells.
    fn coverage(&self) -> f64 {
        self.elites().len() as f64 / self.cells() as f64
    }

    /// Sum over elites of fitness minus the QD offset.
    fn qd_score(&self) -> f64 {
        let s = self.store();
        s.fitness_sum - s.qd_offset * s.elites.len() as f64
    }

    /// The elite of greatest fitness (the last in insertion order on ties).
    fn best(&self) -> Option<&Elite> {
        self.elites()
            .iter()
            .max_by(|a, b| a.fitness.total_cmp(&b.fitness))
    }

    /// The archive's metrics after `evaluations` evaluations.
    fn metrics(&self, evaluations: u64) -> Metrics {
        let s = self.store();
        let filled = s.elites.len();
        let (max_fitness, mean_fitness) = if filled > 0 {
            (s.max_fitness, s.fitness_sum / filled as f64)
        } else {
            (f64::NAN, f64::NAN)
        };
        Metrics {
            evaluations,
            filled,
            coverage: self.coverage(),
            qd_score: self.qd_score(),
            max_fitness,
            mean_fitness,
        }
    }
}

/// The elites of an archive and the rule that admits them, whatever the cells' shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EliteStore {
    /// When a newcomer replaces the elite of its cell.
    pub better: Better,
    /// Feature index of the lexicographic rule's secondary feature.
    pub secondary: Option<usize>,
    /// Subtracted from each elite's fitness in the QD score (the archive's lower bound).
    pub qd_offset: f64,
    /// Elites, in order of first insertion into their cell.
    pub elites: Vec<Elite>,
    /// Elite index of each cell (by flat cell index), [`EMPTY`] where none: rebuilt by
    /// `reindex` after deserialising rather than stored.
    #[serde(skip)]
    cell_to_elite: Vec<u32>,
    /// Running sums, so that metrics after every batch cost nothing.
    fitness_sum: f64,
    max_fitness: f64,
}

const EMPTY: u32 = u32::MAX;

impl EliteStore {
    fn new(better: Better, secondary: Option<usize>, qd_offset: f64, cells: usize) -> Self {
        EliteStore {
            better,
            secondary,
            qd_offset,
            elites: Vec::new(),
            cell_to_elite: vec![EMPTY; cells],
            fitness_sum: 0.0,
            max_fitness: f64::NEG_INFINITY,
        }
    }

    fn beats(&self, fitness: f64, features: &[f64], old: &Elite) -> bool {
        match (&self.better, self.secondary) {
            (Better::Lexicographic { .. }, Some(s)) => {
                fitness > old.fitness || (fitness == old.fitness && features[s] >= old.features[s])
            }
            _ => fitness > old.fitness,
        }
    }

    /// The elite of flat cell `flat`.
    fn get(&self, flat: usize) -> Option<&Elite> {
        let e = self.cell_to_elite[flat];
        (e != EMPTY).then(|| &self.elites[e as usize])
    }

    /// Offers a candidate to flat cell `flat`; `cell` gives its coordinates, asked
    /// only when the cell is new.
    fn add(
        &mut self,
        flat: usize,
        cell: impl FnOnce() -> Vec<usize>,
        values: &[f64],
        fitness: f64,
        features: &[f64],
        found_at: u64,
    ) -> AddOutcome {
        let slot = self.cell_to_elite[flat];
        if fitness.is_nan() {
            return AddOutcome {
                status: AddStatus::NotAdded,
                improvement: f64::NAN,
            };
        }
        let status = if slot != EMPTY {
            let old = &self.elites[slot as usize];
            let gain = fitness - old.fitness;
            if !self.beats(fitness, features, old) {
                return AddOutcome {
                    status: AddStatus::NotAdded,
                    improvement: gain,
                };
            }
            self.fitness_sum += gain;
            let e = &mut self.elites[slot as usize];
            e.values.clear();
            e.values.extend_from_slice(values);
            e.features.clear();
            e.features.extend_from_slice(features);
            e.fitness = fitness;
            e.found_at = found_at;
            AddOutcome {
                status: AddStatus::Improved,
                improvement: gain,
            }
        } else {
            self.cell_to_elite[flat] = self.elites.len() as u32;
            self.elites.push(Elite {
                cell: cell(),
                values: values.to_vec(),
                fitness,
                features: features.to_vec(),
                found_at,
                replay: None,
            });
            self.fitness_sum += fitness;
            AddOutcome {
                status: AddStatus::New,
                improvement: fitness - self.qd_offset,
            }
        };
        self.max_fitness = self.max_fitness.max(fitness);
        status
    }

    fn reindex(&mut self, cells: usize, flat: impl Fn(&[usize]) -> usize) {
        self.cell_to_elite = vec![EMPTY; cells];
        for (i, e) in self.elites.iter().enumerate() {
            self.cell_to_elite[flat(&e.cell)] = i as u32;
        }
    }
}

/// The grid archive: each axis's range cut into equal bins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridArchive {
    /// The grid's axes: features, bounds and bins.
    pub axes: Vec<FeatureAxis>,
    /// Feature index (in the problem's feature list) of each axis.
    pub axis_features: Vec<usize>,
    /// Values beyond an axis's bounds go to an underflow or overflow bin at its ends
    /// (the play-styles paper's option); without, they go to the edge bins.
    pub overflow_bins: bool,
    /// The elites.
    pub store: EliteStore,
}

impl GridArchive {
    /// An empty grid over `axes`, each reading the feature at the same position of
    /// `axis_features`; `secondary` is the lexicographic rule's feature, if any.
    pub fn new(
        axes: Vec<FeatureAxis>,
        axis_features: Vec<usize>,
        overflow_bins: bool,
        better: Better,
        secondary: Option<usize>,
        qd_offset: f64,
    ) -> GridArchive {
        let mut a = GridArchive {
            axes,
            axis_features,
            overflow_bins,
            store: EliteStore::new(better, secondary, qd_offset, 0),
        };
        a.reindex();
        a
    }

    /// Bins along axis `i`, the under/overflow bins included.
    pub fn bins(&self, i: usize) -> usize {
        self.axes[i].bins + if self.overflow_bins { 2 } else { 0 }
    }

    /// The bin of `x` on axis `i`: values outside the bounds go to the under/overflow
    /// bin when enabled, else to the nearest edge bin.
    pub fn bin(&self, i: usize, x: f64) -> usize {
        bin(&self.axes[i], self.overflow_bins, x)
    }

    /// The cell of an evaluation's `features`: one bin per axis.
    pub fn cell_of(&self, features: &[f64]) -> Vec<usize> {
        self.axis_features
            .iter()
            .enumerate()
            .map(|(i, &f)| self.bin(i, features[f]))
            .collect()
    }

    fn flat(&self, cell: &[usize]) -> usize {
        flat(&self.axes, self.overflow_bins, cell)
    }

    /// The flat index of the cell of `features`, without allocating its coordinates.
    fn flat_of(&self, features: &[f64]) -> usize {
        self.axis_features
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &f)| {
                acc * self.bins(i) + self.bin(i, features[f])
            })
    }

    /// The elite of `cell` (one bin per axis), if it has one.
    pub fn get(&self, cell: &[usize]) -> Option<&Elite> {
        self.store.get(self.flat(cell))
    }

    /// Rebuilds the cell index after deserialising.
    pub fn reindex(&mut self) {
        let cells = self.cells();
        let (axes, overflow) = (&self.axes, self.overflow_bins);
        self.store.reindex(cells, |c| flat(axes, overflow, c));
    }
}

/// The bin of `x` on axis `a` (see [`GridArchive::bin`]).
fn bin(a: &FeatureAxis, overflow_bins: bool, x: f64) -> usize {
    let inner = if x.is_nan() {
        0
    } else {
        (((x - a.low) / (a.high - a.low) * a.bins as f64)
            .floor()
            .clamp(0.0, (a.bins - 1) as f64)) as usize
    };
    if !overflow_bins {
        inner
    } else if x < a.low {
        0
    } else if x > a.high {
        a.bins + 1
    } else {
        inner + 1
    }
}

/// Row-major flat index of grid cell `cell`.
fn flat(axes: &[FeatureAxis], overflow_bins: bool, cell: &[usize]) -> usize {
    let extra = if overflow_bins { 2 } else { 0 };
    cell.iter()
        .zip(axes)
        .fold(0, |acc, (&c, a)| acc * (a.bins + extra) + c)
}

impl Archive for GridArchive {
    fn add(&mut self, values: &[f64], fitness: f64, features: &[f64], found_at: u64) -> AddOutcome {
        let flat = self.flat_of(features);
        let (axes, axis_features, overflow) = (&self.axes, &self.axis_features, self.overflow_bins);
        let cell = || {
            axis_features
                .iter()
                .zip(axes)
                .map(|(&f, a)| bin(a, overflow, features[f]))
                .collect()
        };
        self.store
            .add(flat, cell, values, fitness, features, found_at)
    }

    fn store(&self) -> &EliteStore {
        &self.store
    }

    fn axes(&self) -> &[FeatureAxis] {
        &self.axes
    }

    fn cells(&self) -> usize {
        (0..self.axes.len()).map(|i| self.bins(i)).product()
    }
}

/// The CVT archive (Vassiliades, Chatzilygeroudis & Mouret 2018): k cells, the Voronoi
/// cells of k centroids spread evenly over the feature box by k-means. Its size is k
/// whatever the number of features, where a grid's is bins^features.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CvtArchive {
    /// Names and bounds of the features (their `bins` are not used).
    pub axes: Vec<FeatureAxis>,
    /// Feature index (in the problem's feature list) of each axis.
    pub axis_features: Vec<usize>,
    /// The centroids, in feature units. Distances are measured in units of each axis's
    /// range, so that features of different scales count alike; points beyond the
    /// bounds fall in the nearest edge cell.
    pub centroids: Vec<Vec<f64>>,
    /// The elites.
    pub store: EliteStore,
}

/// Lloyd iterations at most when placing centroids: k-means has settled well before.
const LLOYD_ITERATIONS: usize = 30;

impl CvtArchive {
    /// Places `k` centroids by k-means (Lloyd's iterations) over `samples` points drawn
    /// uniformly in the feature box with generator `seed`, starting from the first k
    /// samples: the same arguments give the same cells.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        axes: Vec<FeatureAxis>,
        axis_features: Vec<usize>,
        k: usize,
        samples: usize,
        seed: u64,
        better: Better,
        secondary: Option<usize>,
        qd_offset: f64,
    ) -> CvtArchive {
        let mut rng = rng_from_seed(seed);
        let centroids = kmeans(&axes, k, samples.max(k), &mut rng);
        CvtArchive {
            axes,
            axis_features,
            store: EliteStore::new(better, secondary, qd_offset, centroids.len()),
            centroids,
        }
    }

    /// Index of the centroid nearest the archive's features in `features` (the first
    /// on ties; NaN features count as the low bound).
    pub fn nearest(&self, features: &[f64]) -> usize {
        let x: Vec<f64> = self
            .axis_features
            .iter()
            .zip(&self.axes)
            .map(|(&f, a)| {
                let v = features[f];
                if v.is_nan() { a.low } else { v }
            })
            .collect();
        nearest(&self.axes, &self.centroids, &x)
    }

    /// The elite of the cell of centroid `centroid`, if it has one.
    pub fn get(&self, centroid: usize) -> Option<&Elite> {
        self.store.get(centroid)
    }

    /// Rebuilds the cell index after deserialising.
    pub fn reindex(&mut self) {
        self.store.reindex(self.centroids.len(), |c| c[0]);
    }
}

/// Index of the point of `centroids` nearest `x` (both in feature units), distances in
/// units of each axis's range.
fn nearest(axes: &[FeatureAxis], centroids: &[Vec<f64>], x: &[f64]) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, c) in centroids.iter().enumerate() {
        let d: f64 = c
            .iter()
            .zip(x)
            .zip(axes)
            .map(|((c, x), a)| {
                let t = (c - x) / (a.high - a.low);
                t * t
            })
            .sum();
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}

fn kmeans(axes: &[FeatureAxis], k: usize, samples: usize, rng: &mut Rng) -> Vec<Vec<f64>> {
    let points: Vec<Vec<f64>> = (0..samples)
        .map(|_| {
            axes.iter()
                .map(|a| rng.random_range(a.low..a.high))
                .collect()
        })
        .collect();
    let mut centroids: Vec<Vec<f64>> = points[..k].to_vec();
    let mut assigned = vec![usize::MAX; samples];
    for _ in 0..LLOYD_ITERATIONS {
        let mut changed = false;
        for (p, slot) in points.iter().zip(&mut assigned) {
            let c = nearest(axes, &centroids, p);
            changed |= c != *slot;
            *slot = c;
        }
        if !changed {
            break;
        }
        let mut sums = vec![vec![0.0; axes.len()]; k];
        let mut counts = vec![0usize; k];
        for (p, &c) in points.iter().zip(&assigned) {
            counts[c] += 1;
            sums[c].iter_mut().zip(p).for_each(|(s, x)| *s += x);
        }
        // A centroid that won no sample stays where it is.
        for ((c, s), &n) in centroids.iter_mut().zip(sums).zip(&counts) {
            if n > 0 {
                *c = s.into_iter().map(|v| v / n as f64).collect();
            }
        }
    }
    centroids
}

impl Archive for CvtArchive {
    fn add(&mut self, values: &[f64], fitness: f64, features: &[f64], found_at: u64) -> AddOutcome {
        let c = self.nearest(features);
        self.store
            .add(c, || vec![c], values, fitness, features, found_at)
    }

    fn store(&self) -> &EliteStore {
        &self.store
    }

    fn axes(&self) -> &[FeatureAxis] {
        &self.axes
    }

    fn cells(&self) -> usize {
        self.centroids.len()
    }
}

/// Either archive, as a run's result stores it and the scheduler holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyArchive {
    /// A grid archive.
    Grid(GridArchive),
    /// A CVT archive.
    Cvt(CvtArchive),
}

impl AnyArchive {
    fn inner(&self) -> &dyn Archive {
        match self {
            AnyArchive::Grid(a) => a,
            AnyArchive::Cvt(a) => a,
        }
    }

    /// The elites, to attach re-evaluations to.
    pub(crate) fn elites_mut(&mut self) -> &mut [Elite] {
        match self {
            AnyArchive::Grid(a) => &mut a.store.elites,
            AnyArchive::Cvt(a) => &mut a.store.elites,
        }
    }

    /// Rebuilds the cell index after deserialising.
    pub fn reindex(&mut self) {
        match self {
            AnyArchive::Grid(a) => a.reindex(),
            AnyArchive::Cvt(a) => a.reindex(),
        }
    }
}

impl Archive for AnyArchive {
    fn add(&mut self, values: &[f64], fitness: f64, features: &[f64], found_at: u64) -> AddOutcome {
        match self {
            AnyArchive::Grid(a) => a.add(values, fitness, features, found_at),
            AnyArchive::Cvt(a) => a.add(values, fitness, features, found_at),
        }
    }

    fn store(&self) -> &EliteStore {
        self.inner().store()
    }

    fn axes(&self) -> &[FeatureAxis] {
        self.inner().axes()
    }

    fn cells(&self) -> usize {
        self.inner().cells()
    }
}

#[cfg(test)]
mod tests;
