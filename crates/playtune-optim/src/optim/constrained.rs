//! Constraints for every optimiser: a wrapper that sits between the run loop and any
//! optimiser, so that no optimiser carries constraint code of its own.
//!
//! Points are compared as Deb's feasibility rules (and Optuna's `constraints_func`)
//! compare them: a feasible point before an infeasible one, and of two infeasible
//! points the one with less violation first. Optimisers that rank points by one number
//! (random search, RMHC, B-RMHC, NTBEA) are told, for an infeasible evaluation, a
//! fitness below every feasible one: the fitness floor (the problem's known lowest
//! fitness, else the lowest fitness seen so far) less the violation. An archive
//! (MAP-Elites) is told nothing of an infeasible evaluation (as of a failed one), so
//! it holds feasible points only. Re-evaluations of elites pass unchanged.
//!
//! The recommendation is the optimiser's own when that point was evaluated and is
//! feasible; otherwise the evaluated point the same rules put first (the feasible point
//! with the best mean fitness, or with nothing feasible the least violating one), so a
//! constrained run always recommends a point it measured. Feasibility of a point is
//! judged on the mean of its features over all its evaluations, since game features
//! are noisy.

use super::{Candidate, Optimizer, Phase, Recommendation};
use crate::eval::Evaluation;
use crate::space::Constraint;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How many of a trial's evaluations met every constraint, and whether the
/// recommendation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Feasibility {
    /// Evaluations (search and selection) that met every constraint.
    pub feasible: u64,
    /// Evaluations that did not.
    pub infeasible: u64,
    /// Whether the recommended point's evaluations met every constraint on average;
    /// `None` when it was never evaluated.
    pub recommendation: Option<bool>,
}

/// One constraint, resolved against the problem's features.
#[derive(Clone, Debug)]
pub struct Check {
    /// The constraint.
    pub constraint: Constraint,
    /// Position of the feature among the problem's features.
    pub feature: usize,
    /// The feature's known range, which scales the violation.
    pub range: Option<(f64, f64)>,
}

impl Check {
    /// Resolves `constraints` against the problem's feature names; `range` gives a
    /// feature's known range. An unknown feature is an error naming the known ones.
    pub fn resolve(
        constraints: &[Constraint],
        features: &[String],
        range: impl Fn(&str) -> Option<(f64, f64)>,
    ) -> Result<Vec<Check>, super::Error> {
        constraints
            .iter()
            .map(|c| {
                let feature = features
                    .iter()
                    .position(|f| *f == c.feature)
                    .ok_or_else(|| super::Error::ConstraintFeature {
                        constraint: c.to_string(),
                        feature: c.feature.clone(),
                        known: if features.is_empty() {
                            "it reports no features".to_string()
                        } else {
                            format!("its features: {}", features.join(", "))
                        },
                    })?;
                Ok(Check {
                    constraint: c.clone(),
                    feature,
                    range: range(&c.feature),
                })
            })
            .collect()
    }
}

/// Total violation of `features` (0: feasible).
pub fn violation(checks: &[Check], features: &[f64]) -> f64 {
    checks
        .iter()
        .map(|c| {
            c.constraint.violation(
                features.get(c.feature).copied().unwrap_or(f64::NAN),
                c.range,
            )
        })
        .sum()
}

#[derive(Default)]
struct PointStats {
    n: u64,
    fitness: f64,
    fitness_sq: f64,
    features: Vec<f64>,
}

impl PointStats {
    fn mean_features(&self) -> Vec<f64> {
        self.features.iter().map(|f| f / self.n as f64).collect()
    }
}

/// Any optimiser, held to constraints.
pub struct Constrained {
    inner: Box<dyn Optimizer>,
    checks: Vec<Check>,
    /// The problem's known lowest fitness, if any.
    floor: Option<f64>,
    /// The lowest fitness seen so far.
    lowest: f64,
    /// Whether the inner optimiser keeps an archive (then infeasible points are not
    /// told to it at all).
    archive: bool,
    points: HashMap<Vec<u64>, PointStats>,
    /// The order points were first seen in, so that ties break the same way on every
    /// run (a hash map's order is not fixed).
    order: Vec<Vec<u64>>,
    feasible: u64,
    infeasible: u64,
}

/// A point as a hashable key: its values' bits (what one evaluation asked exactly).
pub(super) fn key(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

impl Constrained {
    /// `inner` held to `checks`; `floor` is the problem's known lowest fitness, if any
    /// (infeasible evaluations are told a fitness below it).
    pub fn new(inner: Box<dyn Optimizer>, checks: Vec<Check>, floor: Option<f64>) -> Constrained {
        let archive = inner.archive().is_some();
        Constrained {
            inner,
            checks,
            floor,
            lowest: f64::INFINITY,
            archive,
            points: HashMap::new(),
            order: Vec::new(),
            feasible: 0,
            infeasible: 0,
        }
    }

    fn point_feasible(&self, s: &PointStats) -> bool {
        violation(&self.checks, &s.mean_features()) == 0.0
    }

    /// The evaluated point the rules put first: feasible before infeasible, then the
    /// least mean violation, then the best mean fitness (first seen on ties).
    fn best_evaluated(&self) -> Option<(&Vec<u64>, &PointStats, f64)> {
        let mut best: Option<(&Vec<u64>, &PointStats, f64)> = None;
        for k in &self.order {
            let s = &self.points[k];
            let v = violation(&self.checks, &s.mean_features());
            let mean = s.fitness / s.n as f64;
            let better = match best {
                None => true,
                Some((_, b, bv)) => v < bv || (v == bv && mean > b.fitness / b.n as f64),
            };
            if better {
                best = Some((k, s, v));
            }
        }
        best
    }
}

impl Optimizer for Constrained {
    fn ask(&mut self) -> Vec<Candidate> {
        self.inner.ask()
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        // The floor moves with the whole batch before any result is adjusted, so the
        // order of results in a batch changes nothing.
        for e in results.iter().flatten() {
            if e.fitness < self.lowest {
                self.lowest = e.fitness;
            }
        }
        let floor = self.floor.unwrap_or(self.lowest);
        let mut told = Vec::with_capacity(results.len());
        for (c, r) in asked.iter().zip(results) {
            let Some(e) = r else {
                told.push(None);
                continue;
            };
            if c.phase == Phase::Reevaluate {
                told.push(Some(e.clone()));
                continue;
            }
            let k = key(&c.values);
            if !self.points.contains_key(&k) {
                self.order.push(k.clone());
            }
            let s = self.points.entry(k).or_default();
            s.n += 1;
            s.fitness += e.fitness;
            s.fitness_sq += e.fitness * e.fitness;
            if s.features.len() < e.features.len() {
                s.features.resize(e.features.len(), 0.0);
            }
            for (sum, f) in s.features.iter_mut().zip(&e.features) {
                *sum += f;
            }
            let v = violation(&self.checks, &e.features);
            if v == 0.0 {
                self.feasible += 1;
                told.push(Some(e.clone()));
            } else {
                self.infeasible += 1;
                told.push((!self.archive).then(|| Evaluation {
                    fitness: floor.min(e.fitness) - v,
                    features: e.features.clone(),
                }));
            }
        }
        self.inner.tell(asked, &told);
    }

    fn recommend(&self) -> Recommendation {
        let r = self.inner.recommend();
        if self
            .points
            .get(&key(&r.values))
            .is_some_and(|s| self.point_feasible(s))
        {
            return r;
        }
        // The optimiser's choice is infeasible or was never evaluated: the evaluated
        // point the rules put first, its estimate its mean fitness as measured.
        let Some((k, s, _)) = self.best_evaluated() else {
            return r;
        };
        let n = s.n as f64;
        let mean = s.fitness / n;
        let se = if s.n > 1 {
            ((s.fitness_sq - n * mean * mean).max(0.0) / (n - 1.0) / n).sqrt()
        } else {
            0.0
        };
        Recommendation {
            values: k.iter().map(|b| f64::from_bits(*b)).collect(),
            estimate: mean,
            se,
            samples: s.n,
        }
    }

    fn archive(&self) -> Option<&super::map_elites::AnyArchive> {
        self.inner.archive()
    }

    fn metrics_history(&self) -> &[super::map_elites::Metrics] {
        self.inner.metrics_history()
    }

    fn alternative(&self) -> Option<Vec<f64>> {
        self.inner.alternative()
    }

    fn feasibility(&self) -> Option<Feasibility> {
        let r = self.recommend();
        Some(Feasibility {
            feasible: self.feasible,
            infeasible: self.infeasible,
            recommendation: self
                .points
                .get(&key(&r.values))
                .map(|s| self.point_feasible(s)),
        })
    }
}
