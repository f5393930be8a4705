//! The N-tuple landscape model: per tuple of dimensions, statistics of the fitness of
//! every pattern of values seen.
//!
//! Data structure. Scoring 50 neighbours against 1+2+N tuples (211 tuples at D = 20)
//! is NTBEA's hot loop, so a lookup must be a few arithmetic operations and one memory
//! read, never an allocation:
//! - a pattern's key is its mixed-radix number (value index times the product of the
//!   arities of the tuple's earlier dimensions), computed from the point in place;
//! - tuples with at most 2^16 patterns (every 1- and 2-tuple of ordinary spaces) keep a
//!   dense array indexed by the key;
//! - larger tuples (the N-tuple) keep a hash map from key to statistics, hashed with a
//!   64-bit mixer; when the radix product does not fit in 64 bits, the key is a 64-bit
//!   hash of the pattern instead (collisions then have probability ~ n^2 / 2^64);
//! - tuple dimensions and radices are stored flat, one slice per tuple.

use crate::rng::mix64;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Statistics of one pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Stat {
    pub n: u32,
    pub sum: f64,
    pub sum_sq: f64,
    /// `sum / n`, kept with them: scoring reads a mean far more often than it adds.
    mean: f64,
    /// Which recommendation's log last noted this pattern (see `drift`); it fills
    /// the struct's padding.
    pub noted: u32,
}

impl Stat {
    /// Adds one fitness value.
    #[inline]
    fn add(&mut self, fitness: f64) {
        self.n += 1;
        self.sum += fitness;
        self.sum_sq += fitness * fitness;
        self.mean = self.sum / self.n as f64;
    }
    #[inline]
    pub(super) fn mean(&self) -> f64 {
        self.mean
    }
    pub(super) fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0))
            .max(0.0)
            .sqrt()
    }
    pub(super) fn se(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.sd() / (self.n as f64).sqrt()
        }
    }
}

/// Hasher for keys that are already integers: one multiply-xorshift mix.
#[derive(Default)]
pub(crate) struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix64(self.0 ^ b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = mix64(x);
    }
}

/// Where one tuple's statistics live and how its key is made.
#[derive(Clone, Copy)]
enum Slot {
    /// At most two dimensions, dense: the statistics sit at `offset + point[d0] +
    /// point[d1] * r1` of the shared dense array (a 1-tuple has `d1 = d0`, `r1 = 0`),
    /// the mixed-radix key without a loop. Every 1- and 2-tuple of ordinary spaces.
    Small {
        d0: u32,
        d1: u32,
        r1: u32,
        offset: u32,
    },
    /// More dimensions, dense: `offset + key`.
    Dense { offset: usize },
    /// A hash map of its own (`maps[map]`), keyed by the mixed-radix key or, when
    /// `hashed`, a hash of the pattern.
    Sparse { map: usize, hashed: bool },
}

type StatMap = HashMap<u64, Stat, BuildHasherDefault<MixHasher>>;

const DENSE_LIMIT: u64 = 1 << 16;

/// The model: a list of tuples (each a list of dimension positions).
pub(crate) struct TupleModel {
    /// For each dimension, the tuples that contain it.
    tuples_of_dim: Vec<Vec<u32>>,
    dims: Vec<u32>,
    radix: Vec<u64>,
    starts: Vec<usize>,
    slots: Vec<Slot>,
    /// Each dense tuple's pattern count (0 for a sparse one).
    sizes: Vec<usize>,
    /// Every dense tuple's statistics, one after another.
    dense: Vec<Stat>,
    maps: Vec<StatMap>,
    evaluations: u64,
}

impl TupleModel {
    /// `arity[d]` is the number of values of dimension d.
    pub(super) fn new(tuples: &[Vec<usize>], arity: &[usize]) -> TupleModel {
        let mut m = TupleModel {
            tuples_of_dim: vec![Vec::new(); arity.len()],
            dims: Vec::new(),
            radix: Vec::new(),
            starts: vec![0],
            slots: Vec::new(),
            sizes: Vec::new(),
            dense: Vec::new(),
            maps: Vec::new(),
            evaluations: 0,
        };
        for (i, t) in tuples.iter().enumerate() {
            for &d in t {
                m.tuples_of_dim[d].push(i as u32);
            }
            let mut product: Option<u64> = Some(1);
            for &d in t {
                m.dims.push(d as u32);
                m.radix.push(product.unwrap_or(0));
                product = product.and_then(|p| p.checked_mul(arity[d] as u64));
            }
            m.starts.push(m.dims.len());
            let offset = m.dense.len();
            let slot = match product {
                Some(p) if p <= DENSE_LIMIT => {
                    m.dense.resize(offset + p as usize, Stat::default());
                    match t[..] {
                        [d0] if offset <= u32::MAX as usize => Slot::Small {
                            d0: d0 as u32,
                            d1: d0 as u32,
                            r1: 0,
                            offset: offset as u32,
                        },
                        [d0, d1] if offset <= u32::MAX as usize => Slot::Small {
                            d0: d0 as u32,
                            d1: d1 as u32,
                            r1: arity[d0] as u32,
                            offset: offset as u32,
                        },
                        _ => Slot::Dense { offset },
                    }
                }
                _ => {
                    m.maps.push(StatMap::default());
                    Slot::Sparse {
                        map: m.maps.len() - 1,
                        hashed: product.is_none(),
                    }
                }
            };
            m.sizes.push(m.dense.len() - offset);
            m.slots.push(slot);
        }
        m
    }

    pub(crate) fn tuple_count(&self) -> usize {
        self.slots.len()
    }

    /// The most tuples any one dimension is in.
    pub(crate) fn most_tuples_of_a_dim(&self) -> usize {
        self.tuples_of_dim.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Evaluations added so far (N_i for every tuple: each point is added to all).
    #[cfg(test)]
    pub(crate) fn evaluations(&self) -> u64 {
        self.evaluations
    }

    pub(super) fn tuple(&self, t: usize) -> &[u32] {
        &self.dims[self.starts[t]..self.starts[t + 1]]
    }

    /// The key of `point`'s pattern in a tuple that is not `Small`.
    #[inline]
    fn key(&self, t: usize, point: &[u32], hashed: bool) -> u64 {
        let (a, b) = (self.starts[t], self.starts[t + 1]);
        if hashed {
            self.dims[a..b].iter().fold(0x9E37_79B9_7F4A_7C15, |h, &d| {
                mix64(h ^ point[d as usize] as u64)
            })
        } else {
            self.dims[a..b]
                .iter()
                .zip(&self.radix[a..b])
                .map(|(&d, &r)| point[d as usize] as u64 * r)
                .sum()
        }
    }

    /// The statistics of `point`'s pattern in tuple `t`, if seen.
    ///
    /// Inlined into the scoring loops for the small tuples (most of them), so their
    /// running sums stay in registers; larger tuples take an out-of-line call.
    #[inline(always)]
    pub(super) fn stat(&self, t: usize, point: &[u32]) -> Option<&Stat> {
        match self.slots[t] {
            Slot::Small { d0, d1, r1, offset } => {
                let i = point[d0 as usize] + point[d1 as usize] * r1;
                let s = &self.dense[offset as usize + i as usize];
                (s.n > 0).then_some(s)
            }
            _ => self.large_stat(t, point),
        }
    }

    #[inline(never)]
    fn large_stat(&self, t: usize, point: &[u32]) -> Option<&Stat> {
        let s = match self.slots[t] {
            Slot::Small { .. } => unreachable!("small tuples are read inline"),
            Slot::Dense { offset } => &self.dense[offset + self.key(t, point, false) as usize],
            Slot::Sparse { map, hashed } => self.maps[map].get(&self.key(t, point, hashed))?,
        };
        (s.n > 0).then_some(s)
    }

    /// Adds one evaluation of `point` to every tuple.
    pub(super) fn add(&mut self, point: &[u32], fitness: f64) {
        self.add_seeing(point, fitness, |_, _| {});
    }

    /// [`TupleModel::add`], handing `before` each tuple's statistics of `point`'s
    /// pattern as they were before the addition (n = 0: the pattern is new).
    #[inline]
    pub(crate) fn add_seeing(
        &mut self,
        point: &[u32],
        fitness: f64,
        mut before: impl FnMut(usize, &mut Stat),
    ) {
        for t in 0..self.slots.len() {
            let s = match self.slots[t] {
                Slot::Small { d0, d1, r1, offset } => {
                    let i = point[d0 as usize] + point[d1 as usize] * r1;
                    &mut self.dense[offset as usize + i as usize]
                }
                Slot::Dense { offset } => {
                    let key = self.key(t, point, false) as usize;
                    &mut self.dense[offset + key]
                }
                Slot::Sparse { map, hashed } => {
                    let key = self.key(t, point, hashed);
                    self.maps[map].entry(key).or_default()
                }
            };
            before(t, s);
            s.add(fitness);
        }
        self.evaluations += 1;
    }

    /// The model's mean for `point`: the average of the pattern means over the tuples
    /// where its pattern was seen; `None` if none was.
    pub(super) fn mean(&self, point: &[u32]) -> Option<f64> {
        let (mut total, mut seen) = (0.0, 0u32);
        for t in 0..self.slots.len() {
            if let Some(s) = self.stat(t, point) {
                total += s.mean();
                seen += 1;
            }
        }
        (seen > 0).then(|| total / seen as f64)
    }

    /// UCB score: mean term (0 if unseen) + k * the average over all tuples of
    /// `explore[n]`, where `explore[n] = sqrt(ln(1 + N) / (eps + n))` is precomputed
    /// for n = 0..=N by [`TupleModel::exploration_table`]. The formula written out,
    /// which the tests hold [`NeighbourScorer`]'s incremental scores to.
    #[cfg(test)]
    pub(crate) fn ucb(&self, point: &[u32], k: f64, explore: &[f64]) -> f64 {
        let (mut total, mut seen, mut exploration) = (0.0, 0u32, 0.0);
        for t in 0..self.slots.len() {
            match self.stat(t, point) {
                Some(s) => {
                    total += s.mean;
                    seen += 1;
                    exploration += explore[s.n as usize];
                }
                None => exploration += explore[0],
            }
        }
        let mean = if seen > 0 { total / seen as f64 } else { 0.0 };
        mean + k * exploration / self.slots.len() as f64
    }

    /// One tuple's part of the UCB sums for `point`: (mean or 0, seen 0/1, exploration).
    #[inline]
    fn contribution(&self, t: usize, point: &[u32], explore: &[f64]) -> (f64, f64, f64) {
        match self.stat(t, point) {
            Some(s) => (s.mean, 1.0, explore[s.n as usize]),
            None => (0.0, 0.0, explore[0]),
        }
    }

    /// Per tuple, the highest mean among its seen patterns (`None`: none seen), the
    /// ceilings [`MeanScorer::ceiling`] bounds a neighbourhood with. One pass over the
    /// model's tables, once per recommendation.
    pub(crate) fn mean_ceilings(&self) -> Vec<Option<f64>> {
        let highest = |best: Option<f64>, s: &Stat| {
            if s.n == 0 {
                best
            } else {
                Some(best.map_or(s.mean(), |b: f64| b.max(s.mean())))
            }
        };
        (0..self.slots.len())
            .map(|t| match self.slots[t] {
                Slot::Sparse { map, .. } => self.maps[map].values().fold(None, highest),
                Slot::Small { offset, .. } => self
                    .dense_table(t, offset as usize)
                    .iter()
                    .fold(None, highest),
                Slot::Dense { offset } => self.dense_table(t, offset).iter().fold(None, highest),
            })
            .collect()
    }

    /// A dense tuple's statistics.
    fn dense_table(&self, t: usize, offset: usize) -> &[Stat] {
        &self.dense[offset..offset + self.sizes[t]]
    }

    /// For each dimension, the ceilings of the tuples that hold it, highest first.
    pub(crate) fn ceilings_by_dim(&self, ceilings: &[Option<f64>]) -> Vec<Vec<f64>> {
        self.tuples_of_dim
            .iter()
            .map(|tuples| {
                let mut c: Vec<f64> = tuples
                    .iter()
                    .filter_map(|&t| ceilings[t as usize])
                    .collect();
                c.sort_by(|a, b| b.total_cmp(a));
                c
            })
            .collect()
    }

    /// Fills `out` with sqrt(ln(1 + N) / (eps + n)) for n = 0..=N (N = evaluations so
    /// far), reusing its allocation: one table per step instead of a logarithm and a
    /// division per lookup.
    pub(crate) fn exploration_table(&self, eps: f64, out: &mut Vec<f64>) {
        let ln = (1.0 + self.evaluations as f64).ln();
        out.clear();
        out.extend((0..=self.evaluations).map(|n| (ln / (eps + n as f64)).sqrt()));
    }
}

/// Scores neighbours of one point incrementally: the UCB sums of the current point are
/// computed once per step, and a neighbour only re-reads the tuples that contain one of
/// its mutated dimensions (about 40 of 211 tuples for two mutations at D = 20 with
/// 1+2+N tuples). The result equals [`TupleModel::ucb`] up to rounding.
#[derive(Default)]
pub(crate) struct NeighbourScorer {
    parts: Vec<(f64, f64, f64)>,
    totals: (f64, f64, f64),
    stamp: Vec<u32>,
    round: u32,
}

impl NeighbourScorer {
    /// Prepares for neighbours of `current`.
    pub(super) fn prepare(&mut self, model: &TupleModel, current: &[u32], explore: &[f64]) {
        let n = model.tuple_count();
        self.parts.clear();
        self.parts
            .extend((0..n).map(|t| model.contribution(t, current, explore)));
        self.totals = self
            .parts
            .iter()
            .fold((0.0, 0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1, a.2 + p.2));
        self.stamp.resize(n, 0);
    }

    /// UCB score of `point`, which differs from the prepared point in `changed` dimensions.
    pub(super) fn score(
        &mut self,
        model: &TupleModel,
        point: &[u32],
        changed: &[usize],
        k: f64,
        explore: &[f64],
    ) -> f64 {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.round = 1;
        }
        let (mut mean, mut seen, mut exploration) = self.totals;
        for &d in changed {
            for &t in &model.tuples_of_dim[d] {
                let t = t as usize;
                if self.stamp[t] == self.round {
                    continue;
                }
                self.stamp[t] = self.round;
                let old = self.parts[t];
                let new = model.contribution(t, point, explore);
                mean += new.0 - old.0;
                seen += new.1 - old.1;
                exploration += new.2 - old.2;
            }
        }
        let m = if seen > 0.5 { mean / seen } else { 0.0 };
        m + k * exploration / model.tuple_count() as f64
    }
}

/// Model means of one point's one-dimension neighbours, incrementally: the pattern
/// means of the point are read once, and a neighbour re-reads only the tuples holding
/// the dimension it changes (21 of 211 for 1+2+N tuples at D = 20). The sums are
/// taken in another order than [`TupleModel::mean`]'s, so a mean here may differ from
/// it in the last bits: it is an estimate with a bound on that difference, to rule
/// neighbours out with; a neighbour that may win is scored again exactly.
#[derive(Default)]
pub(crate) struct MeanScorer {
    parts: Vec<(f64, f64)>,
    /// The sum of the parts' means, kept up to date as parts change: within `drift`
    /// of the sum [`TupleModel::mean`] takes.
    total: f64,
    seen: f64,
    /// An upper bound on every part's mean in magnitude, for the bounds.
    scale: f64,
    /// Additions and subtractions `total` took since it was last summed in order.
    updates: f64,
    /// Per dimension, the sums of the means and seen counts of the parts of the
    /// tuples holding it, kept up to date with the parts (within the same drift).
    held: Vec<(f64, f64)>,
    /// The point the parts are of (empty before the first).
    point: Vec<u32>,
    /// The dimensions where the next point differs (a buffer kept between calls).
    changed: Vec<usize>,
    /// Which tuples this preparation read already: those stamped `round`.
    stamp: Vec<u32>,
    round: u32,
}

impl MeanScorer {
    /// Prepares for neighbours of `point`. Only the tuples holding a dimension where
    /// `point` differs from the previously prepared point are read again (NTBEA's
    /// evaluated points follow one another a few mutations apart), when that is fewer
    /// than all of them; the parts are the same numbers either way. The reuse holds
    /// while the model is the same: after the model takes an evaluation, start from a
    /// fresh scorer (as each recommendation does).
    pub(super) fn prepare(&mut self, model: &TupleModel, point: &[u32]) {
        let part = |t: usize| model.stat(t, point).map_or((0.0, 0.0), |s| (s.mean, 1.0));
        let tuples = model.tuple_count();
        let mut changed = std::mem::take(&mut self.changed);
        changed.clear();
        let mut reads = 0;
        let incremental = self.point.len() == point.len() && self.parts.len() == tuples && {
            for d in (0..point.len()).filter(|&d| point[d] != self.point[d]) {
                reads += model.tuples_of_dim[d].len();
                changed.push(d);
            }
            reads < tuples
        };
        if incremental {
            // A tuple holding two changed dimensions is read once.
            self.round = self.round.wrapping_add(1);
            if self.round == 0 {
                self.stamp.iter_mut().for_each(|s| *s = 0);
                self.round = 1;
            }
            self.stamp.resize(tuples, 0);
            for &d in &changed {
                for &t in &model.tuples_of_dim[d] {
                    let t = t as usize;
                    if self.stamp[t] == self.round {
                        continue;
                    }
                    self.stamp[t] = self.round;
                    let (old, new) = (self.parts[t], part(t));
                    if new == old {
                        continue;
                    }
                    let delta = (new.0 - old.0, new.1 - old.1);
                    self.total += delta.0;
                    self.seen += delta.1;
                    self.scale = self.scale.max(new.0.abs());
                    self.parts[t] = new;
                    for &e in model.tuple(t) {
                        let h = &mut self.held[e as usize];
                        h.0 += delta.0;
                        h.1 += delta.1;
                    }
                }
                self.updates += 2.0 * model.tuples_of_dim[d].len() as f64;
            }
        } else {
            self.parts.clear();
            self.parts.extend((0..tuples).map(part));
            self.total = self.ordered_total();
            self.seen = self.parts.iter().map(|p| p.1).sum();
            self.scale = self.parts.iter().fold(0.0, |m, p| m.max(p.0.abs()));
            self.updates = 0.0;
            self.held.clear();
            self.held.resize(point.len(), (0.0, 0.0));
            for (t, p) in self.parts.iter().enumerate() {
                for &e in model.tuple(t) {
                    let h = &mut self.held[e as usize];
                    h.0 += p.0;
                    h.1 += p.1;
                }
            }
        }
        self.changed = changed;
        self.point.clear();
        self.point.extend_from_slice(point);
    }

    /// The parts' means summed in tuple order, as [`TupleModel::mean`] sums them.
    fn ordered_total(&self) -> f64 {
        self.parts.iter().map(|p| p.0).sum()
    }

    /// How far a mean over `seen` tuples made from `total`, with up to `extra` more
    /// additions, may be from [`TupleModel::mean`]'s, generously: every addition's
    /// rounding is at most 2^-52 of a partial sum, and partial sums stay below
    /// T x scale (T tuples); `total` took `updates` additions since it was summed in
    /// order, and the in-order sum itself takes T.
    fn slack(&self, tuples: usize, seen: f64, extra: f64, scale: f64) -> f64 {
        let t = tuples as f64;
        4.0 * (self.updates + extra + 2.0 * t) * t * scale * f64::EPSILON / seen.max(1.0)
    }

    /// The prepared point's own model mean, bit for bit [`TupleModel::mean`]'s: the
    /// same terms added in the same tuple order (an unseen tuple adds 0.0, which
    /// changes no sum but a zero's sign, and `+ 0.0` gives that back); `None` if no
    /// tuple saw it.
    pub(crate) fn point_mean(&self) -> Option<f64> {
        (self.seen > 0.5).then(|| (self.ordered_total() + 0.0) / self.seen)
    }

    /// The prepared point's model mean from the running total, and how far it may be
    /// from [`TupleModel::mean`]'s: enough to rule the point out without summing.
    pub(crate) fn point_estimate(&self) -> Option<(f64, f64)> {
        let slack = self.slack(self.parts.len(), self.seen, 0.0, self.scale);
        (self.seen > 0.5).then(|| (self.total / self.seen, slack))
    }

    /// An upper bound on the model mean of every neighbour of the prepared point that
    /// changes dimension `dim` only, whatever value it takes there; `None` if no such
    /// neighbour can have been seen. `ceilings` are the tuples holding `dim`, highest
    /// first ([`TupleModel::ceilings_by_dim`]).
    ///
    /// A neighbour keeps the point's parts outside the tuples holding `dim` (sum `a`
    /// over `s` seen tuples) and takes, in some `k` of those tuples, pattern means at
    /// most their ceilings. `(a + x) / (s + k)` is largest when `x` is the sum of the
    /// `k` highest ceilings; adding the next ceiling raises that mean only while the
    /// ceiling is above it, so the walk stops at the first that is not. The bound adds
    /// the rounding slack of this sum and of [`TupleModel::mean`]'s, so no neighbour
    /// whose computed mean exceeds it is ever ruled out.
    pub(crate) fn ceiling(&self, model: &TupleModel, dim: usize, ceilings: &[f64]) -> Option<f64> {
        let held = &model.tuples_of_dim[dim];
        let (mut sum, mut count) = (self.total - self.held[dim].0, self.seen - self.held[dim].1);
        // `c <= sum / count`, without a division per ceiling.
        let mut any = count > 0.5;
        for &c in ceilings {
            if any && c * count <= sum {
                break;
            }
            sum += c;
            count += 1.0;
            any = true;
        }
        let best = any.then(|| sum / count);
        // The ceilings are sorted: the largest in magnitude is at one end.
        let ends = ceilings
            .first()
            .map_or(0.0, |c| c.abs())
            .max(ceilings.last().map_or(0.0, |c| c.abs()));
        let scale = self.scale.max(ends);
        // The held sums drift as the total does: count their updates twice.
        let extra = self.updates + 2.0 * held.len() as f64;
        best.map(|b| b + self.slack(model.tuple_count(), count, extra, scale))
    }

    /// The model mean of `neighbour`, which differs from the prepared point in
    /// dimension `dim` only, and how far it may be from [`TupleModel::mean`]'s; `None`
    /// if no tuple saw it.
    ///
    /// The bound is `MeanScorer::slack` with the neighbour's own additions counted.
    pub(super) fn mean(
        &self,
        model: &TupleModel,
        neighbour: &[u32],
        dim: usize,
    ) -> Option<(f64, f64)> {
        let (mut total, mut seen, mut scale) = (self.total, self.seen, self.scale);
        for &t in &model.tuples_of_dim[dim] {
            let t = t as usize;
            let old = self.parts[t];
            let new = model
                .stat(t, neighbour)
                .map_or((0.0, 0.0), |s| (s.mean, 1.0));
            total += new.0 - old.0;
            seen += new.1 - old.1;
            scale = scale.max(new.0.abs());
        }
        let extra = 2.0 * model.tuples_of_dim[dim].len() as f64;
        let bound = self.slack(model.tuple_count(), seen, extra, scale);
        (seen > 0.5).then(|| (total / seen, bound))
    }
}

#[cfg(test)]
mod tests;
