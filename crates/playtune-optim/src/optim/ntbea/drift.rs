//! How far the model's means can have risen since the last recommendation: bounds that
//! let the neighbourhood recommendation skip an evaluated point without reading its
//! tuples.
//!
//! The neighbourhood recommendation scores every evaluated point and its one-dimension
//! neighbours (the point's *neighbourhood*). A scan leaves, per point, an upper bound U
//! on the model mean of everything in its neighbourhood. Until the next scan the model
//! takes some evaluations, each changing one pattern per tuple. A candidate's mean is
//! the average of its seen patterns' means, n terms it had and m it gains (patterns
//! seen for the first time). Its old terms sum to at most n U; together they rose by at
//! most R, the sum over tuples of the largest rise of any pattern of the tuple; each
//! new term is at most β, the largest mean among the new patterns it may hold. So its
//! mean now is at most
//!
//!   (n U + R + m β) / (n + m) = U + (R + m (β - U)) / (n + m),
//!
//! which for n at least n_min (every tuple but those of one dimension: a neighbour
//! shares the others with its evaluated point) and m up to m_max is largest at m = 0
//! or m = m_max. A new pattern of tuple t, taken from evaluation e, can be held by a
//! candidate of point p's neighbourhood only if p differs from e in at most one of t's
//! dimensions, so β and m_max are taken per point over those alone: the N-tuple's
//! pattern of each new point, the largest of all, is out of reach of most points.
//!
//! A point whose bound lies below the floor (the last pick's mean now, which the
//! choice cannot fall under) is skipped and its bound carried forward. The bounds hold
//! while every neighbourhood is the same set: a dimension that gains a value gives
//! every point new neighbours, and drops every bound.

use super::model::{Stat, TupleModel};

/// Evaluations learnt between two recommendations beyond which the log is dropped,
/// with every bound: a run that recommends rarely keeps no long log.
const MAX_LOGGED: usize = 1024;

/// A pattern's statistics as they were when an evaluation first changed them since
/// the last recommendation, that is, as that recommendation saw them.
#[derive(Clone, Copy)]
struct Touch {
    tuple: u32,
    /// Which logged evaluation: the pattern is that point's values in the tuple.
    point: u32,
    old_n: u32,
    old_mean: f64,
}

/// A pattern seen for the first time since the last recommendation, and its mean.
#[derive(Clone, Copy)]
struct Fresh {
    mean: f64,
    tuple: u32,
    point: u32,
}

/// The log of evaluations since the last recommendation, and the bounds it carries.
#[derive(Default)]
pub(crate) struct Drift {
    /// Off: nothing is logged and every recommendation scans every point.
    track: bool,
    dims: usize,
    /// The points learnt since the last recommendation, one after another.
    points: Vec<u32>,
    touches: Vec<Touch>,
    /// The mark a pattern takes when first logged since the last recommendation.
    epoch: u32,
    /// The bounds no longer hold: a dimension gained a value, or the log overflowed.
    stale: bool,
    /// Per evaluated point, in the order of first evaluation: an upper bound on the
    /// model mean of every candidate in its neighbourhood (+inf: unknown).
    bounds: Vec<f64>,
    /// Per tuple, the largest rise of a pattern mean since the last recommendation.
    rise: Vec<f64>,
    /// R: the rises summed over the tuples.
    rises: f64,
    fresh: Vec<Fresh>,
    /// n_min: the fewest old terms a candidate's mean has (0: no bound holds).
    fewest_terms: f64,
    /// What rounding may add to a bound carried over one recommendation.
    slack: f64,
    /// Points skipped so far, for the tests to see that the bounds are used.
    #[cfg(test)]
    pub skipped: usize,
}

impl Drift {
    /// Nothing is logged before the first recommendation: there is no bound yet to
    /// carry (a run that recommends once, at its end, pays nothing).
    pub(super) fn new(track: bool) -> Drift {
        Drift {
            track,
            stale: true,
            epoch: 1,
            ..Drift::default()
        }
    }

    /// Adds an evaluation to `model`, logging the patterns it changes. Nothing is
    /// logged while the bounds are stale (always, when not tracking).
    pub(super) fn learn(&mut self, model: &mut TupleModel, point: &[u32], fitness: f64) {
        let dims = point.len().max(1);
        if self.points.len() >= MAX_LOGGED * dims {
            self.drop_bounds();
        }
        if self.stale {
            model.add(point, fitness);
            return;
        }
        let index = (self.points.len() / dims) as u32;
        self.dims = dims;
        self.points.extend_from_slice(point);
        let (touches, epoch) = (&mut self.touches, self.epoch);
        model.add_seeing(point, fitness, |t, s: &mut Stat| {
            if s.noted != epoch {
                s.noted = epoch;
                touches.push(Touch {
                    tuple: t as u32,
                    point: index,
                    old_n: s.n,
                    old_mean: s.mean(),
                });
            }
        });
    }

    /// Every bound is void until the next recommendation has scanned every point.
    pub(crate) fn drop_bounds(&mut self) {
        self.stale = true;
        self.points.clear();
        self.touches.clear();
    }

    /// Readies the bounds for a recommendation over `evaluated` points under `model`,
    /// every fitness learnt being at most `scale` in magnitude.
    pub(super) fn begin(&mut self, model: &TupleModel, evaluated: usize, scale: f64) {
        if self.stale {
            self.bounds.clear();
        }
        self.bounds.resize(evaluated, f64::INFINITY);
        self.rise.clear();
        self.rise.resize(model.tuple_count(), 0.0);
        self.fresh.clear();
        let dims = self.dims;
        for touch in &self.touches {
            let tuple = touch.tuple as usize;
            let point = &self.points[touch.point as usize * dims..][..dims];
            let Some(now) = model.stat(tuple, point) else {
                continue;
            };
            if touch.old_n == 0 {
                self.fresh.push(Fresh {
                    mean: now.mean(),
                    tuple: touch.tuple,
                    point: touch.point,
                });
            } else {
                let rise = &mut self.rise[tuple];
                *rise = rise.max(now.mean() - touch.old_mean);
            }
        }
        self.rises = self.rise.iter().sum();
        self.fresh.sort_by(|a, b| b.mean.total_cmp(&a.mean));
        let tuples = model.tuple_count();
        self.fewest_terms = tuples.saturating_sub(model.most_tuples_of_a_dim()) as f64;
        // A mean of T pattern means, each at most `scale`, is computed within
        // T^2 x scale x eps of its exact value (every partial sum is below T x scale);
        // a bound carried over takes that error once from the last scan's mean and
        // once from this one's, and the rises their own rounding.
        let t = tuples as f64;
        self.slack = 8.0 * t * t * scale * f64::EPSILON;
    }

    /// Whether evaluated point `i`, `point`, and every candidate of its neighbourhood
    /// have model means below `floor` now; if so its bound is carried forward (if not,
    /// the scan that follows sets it).
    pub(super) fn below(
        &mut self,
        model: &TupleModel,
        i: usize,
        point: &[u32],
        floor: f64,
    ) -> bool {
        let old = self.bounds[i];
        if !old.is_finite() || self.fewest_terms < 1.0 {
            return false;
        }
        let n = self.fewest_terms;
        let settled = old + (self.rises / n).max(0.0);
        let mut bound = settled + self.slack;
        if bound >= floor {
            // Scanned: the scan sets the bound.
            return false;
        }
        // The new patterns some candidate of the neighbourhood may hold: `point`
        // differs from each in at most one of its tuple's dimensions. A new term no
        // higher than the bound without it cannot raise an average past that bound,
        // so only the higher ones count; with each one counted the bound only rises.
        let dims = self.dims;
        let (mut gained, mut highest) = (0.0, f64::NEG_INFINITY);
        for c in self.fresh.iter().take_while(|c| c.mean > settled) {
            let e = &self.points[c.point as usize * dims..][..dims];
            let mut apart = 0;
            let reaches = model.tuple(c.tuple as usize).iter().all(|&d| {
                apart += usize::from(point[d as usize] != e[d as usize]);
                apart <= 1
            });
            if reaches {
                gained += 1.0;
                highest = f64::max(highest, c.mean);
                let rise = (self.rises + gained * (highest - old)) / (n + gained);
                bound = bound.max(old + rise + self.slack);
                if bound >= floor {
                    return false;
                }
            }
        }
        self.bounds[i] = bound;
        #[cfg(test)]
        {
            self.skipped += 1;
        }
        true
    }

    /// Evaluated point `i`'s bound (+inf: unknown).
    #[cfg(test)]
    pub(super) fn bound(&self, i: usize) -> f64 {
        self.bounds.get(i).copied().unwrap_or(f64::INFINITY)
    }

    /// The bound a scan of point `i` found.
    pub(super) fn set(&mut self, i: usize, bound: f64) {
        self.bounds[i] = bound;
    }

    /// The recommendation is made: the next one's changes start here.
    pub(super) fn end(&mut self) {
        self.points.clear();
        self.touches.clear();
        // A pattern's mark tells this log from the last; after 2^32 - 1 logs a mark
        // could repeat, and the bounds are given up rather than risked.
        match self.epoch.checked_add(1) {
            Some(next) => self.epoch = next,
            None => self.track = false,
        }
        self.stale = !self.track;
    }
}
