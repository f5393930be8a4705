//! Spending evaluations where they decide, for any optimiser that recommends one point:
//! every point the optimiser asks is measured once, and only those that could still
//! beat the best point so far (the incumbent, the game's own rules to begin with)
//! are measured more, on the incumbent's own seeds, until they are shown worse or
//! have as many evaluations as it and take its place (SMAC's intensification, Hutter
//! et al. 2011, with a confidence margin in the spirit of racing).
//!
//! Each point's `k`-th evaluation is played on the run's `k`-th common seed
//! ([`Candidate::common`]), so a challenger and the incumbent are compared paired,
//! seed for seed. A challenger is measured on 1, 2, 4, ... seeds; after each stage it
//! goes on while its mean difference from the incumbent over their common seeds is
//! above `-z` standard errors of a paired difference (the standard deviation pooled
//! over every finished challenge), and at the incumbent's count it takes the
//! incumbent's place if its mean is higher. The incumbent gains one seed per batch of
//! the optimiser, up to `max_evaluations`. Constraints are judged as Deb's rules judge
//! them, on the mean features over the common seeds: a feasible point beats an
//! infeasible one, and of two infeasible points the one that violates less.
//!
//! The optimiser is told, once per point it asked, the mean of the evaluations the
//! point got for that ask: a promising point's told fitness is a less noisy one. It
//! is asked again only when every point of its batch is decided, so it stays a
//! deterministic function of what it was told (resume replays it). The run decides
//! how many evaluations, and so how many games, each point gets.

use super::constrained::{Check, key, violation};
use super::{Candidate, Optimizer, Phase, Recommendation};
use crate::eval::Evaluation;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How a run intensifies its search (`config.ron`'s `intensify`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntensifyConfig {
    /// Most evaluations the incumbent gets, and so a challenger (at least 2).
    pub max_evaluations: u64,
    /// How many standard errors of a paired difference below the incumbent a
    /// challenger may measure and still be measured more (0: SMAC's rule, any mean
    /// below the incumbent's ends it).
    pub z: f64,
}

impl Default for IntensifyConfig {
    /// Measured on Rinascimento's design problem at the main job's budget
    /// (docs/design.md#spending-games-where-they-decide).
    fn default() -> IntensifyConfig {
        IntensifyConfig {
            max_evaluations: 8,
            z: 1.0,
        }
    }
}

impl IntensifyConfig {
    /// Checks the settings; the error names the setting as `config.ron` does.
    pub fn check(&self) -> Result<(), super::Error> {
        if !(2..=super::MAX_COUNT).contains(&self.max_evaluations) {
            return Err(super::Error::Setting {
                setting: "intensify_max".into(),
                value: self.max_evaluations.to_string(),
                expected: format!("2 to {} evaluations", super::MAX_COUNT),
            });
        }
        if !(self.z.is_finite() && (0.0..=10.0).contains(&self.z)) {
            return Err(super::Error::Setting {
                setting: "intensify_z".into(),
                value: self.z.to_string(),
                expected: "a number of standard errors from 0 to 10".into(),
            });
        }
        Ok(())
    }
}

/// The intensification a run gets when its user says nothing: NTBEA's, on the noisy
/// problems judged against a baseline of their own (where it races by default,
/// [`super::race::by_default`]). Measured at equal budgets
/// (docs/design.md#spending-games-where-they-decide): it lifts NTBEA's answers from
/// 100 evaluations on, and not random search's nor RMHC's, which resamples its own
/// parent; a deterministic problem would only pay for repeats.
pub fn by_default(has_baseline: bool, algorithm: &super::AlgoConfig) -> Option<IntensifyConfig> {
    (matches!(algorithm, super::AlgoConfig::Ntbea(_))
        && super::race::by_default(has_baseline, algorithm).is_some())
    .then(IntensifyConfig::default)
}

/// A point's evaluations, by common seed.
#[derive(Default)]
struct Record {
    values: Vec<f64>,
    /// Evaluation `k` on common seed `k`; `None` where it failed.
    evals: Vec<Option<Evaluation>>,
}

impl Record {
    fn mean(&self, slots: &[usize]) -> Option<(f64, Vec<f64>)> {
        let got: Vec<&Evaluation> = slots
            .iter()
            .filter_map(|&s| self.evals[s].as_ref())
            .collect();
        mean_of(&got)
    }
}

/// The mean fitness and mean features of `evals`; `None` for none.
fn mean_of(evals: &[&Evaluation]) -> Option<(f64, Vec<f64>)> {
    let n = evals.len();
    if n == 0 {
        return None;
    }
    let width = evals.iter().map(|e| e.features.len()).max().unwrap_or(0);
    let mut features = vec![0.0; width];
    for e in evals {
        for (sum, f) in features.iter_mut().zip(&e.features) {
            *sum += f;
        }
    }
    features.iter_mut().for_each(|f| *f /= n as f64);
    Some((
        evals.iter().map(|e| e.fitness).sum::<f64>() / n as f64,
        features,
    ))
}

/// One point of the optimiser's batch on its way to a decision.
struct Challenge {
    key: Vec<u64>,
    /// Its evaluations when it was asked: the told mean is of those after.
    from: usize,
    /// Evaluations it is to have before the next comparison.
    target: usize,
    done: bool,
}

/// The optimiser's batch being decided.
struct Pending {
    batch: Vec<Candidate>,
    /// `None`: a batch of another phase (pre-processing, selection), evaluated once
    /// and passed on as it is.
    challenges: Option<Vec<Challenge>>,
}

/// Any optimiser, its points measured more where they could beat the incumbent.
pub struct Intensified {
    inner: Box<dyn Optimizer>,
    config: IntensifyConfig,
    checks: Vec<Check>,
    /// Evaluations it may spend, and has spent.
    budget: u64,
    spent: u64,
    points: HashMap<Vec<u64>, Record>,
    incumbent: Option<Vec<u64>>,
    pending: Option<Pending>,
    /// Paired differences from the incumbent pooled over finished challenges: the
    /// sum of squared deviations from each challenge's mean, and its degrees of
    /// freedom.
    pooled_m2: f64,
    pooled_df: u64,
    /// Evaluations that met every constraint and did not (each one, as the run
    /// counts them), and the means told to the optimiser that did and did not (a
    /// held optimiser, [`super::constrained::Constrained`], counts those).
    feasible: [u64; 2],
    told_feasible: [u64; 2],
}

/// Degrees of freedom before the pooled standard deviation is trusted; until then
/// the incumbent's own spread stands in for it.
const POOLED_DF: u64 = 5;

impl Intensified {
    /// `inner` searches; the wrapper spends at most `budget` evaluations. `checks`:
    /// the run's constraints. `baseline`: the problem's baseline as a point of the
    /// search's space, the first incumbent, where the space holds it.
    pub fn new(
        inner: Box<dyn Optimizer>,
        config: IntensifyConfig,
        budget: u64,
        checks: Vec<Check>,
        baseline: Option<Vec<f64>>,
    ) -> Intensified {
        let mut points = HashMap::new();
        let incumbent = baseline.map(|values| {
            let k = key(&values);
            points.insert(
                k.clone(),
                Record {
                    values,
                    evals: Vec::new(),
                },
            );
            k
        });
        Intensified {
            inner,
            config,
            checks,
            budget,
            spent: 0,
            points,
            incumbent,
            pending: None,
            pooled_m2: 0.0,
            pooled_df: 0,
            feasible: [0; 2],
            told_feasible: [0; 2],
        }
    }

    fn count(&self, k: &Vec<u64>) -> usize {
        self.points.get(k).map_or(0, |r| r.evals.len())
    }

    /// Most evaluations of the incumbent, and so of a challenger.
    fn cap(&self) -> usize {
        self.config.max_evaluations as usize
    }

    /// The standard deviation of a paired difference from the incumbent.
    fn sd_difference(&self) -> f64 {
        if self.pooled_df >= POOLED_DF {
            return (self.pooled_m2 / self.pooled_df as f64).sqrt();
        }
        // Two independent evaluations' difference, at the incumbent's own spread.
        let Some(inc) = self.incumbent.as_ref().and_then(|k| self.points.get(k)) else {
            return 0.0;
        };
        let f: Vec<f64> = inc.evals.iter().flatten().map(|e| e.fitness).collect();
        Summary::of(&f).sd() * std::f64::consts::SQRT_2
    }

    /// The evaluations still wanted, as (point, common seed), in a fixed order.
    fn wanted(&self) -> Vec<(Vec<u64>, usize)> {
        let Some(Pending {
            challenges: Some(challenges),
            ..
        }) = &self.pending
        else {
            return Vec::new();
        };
        let mut out: Vec<(Vec<u64>, usize)> = Vec::new();
        for c in challenges.iter().filter(|c| !c.done) {
            for slot in self.count(&c.key)..c.target {
                if !out.contains(&(c.key.clone(), slot)) {
                    out.push((c.key.clone(), slot));
                }
            }
        }
        out
    }

    /// How `a` compares with `b` over their common seeds: `None` where they share no
    /// evaluated seed; else (a's mean minus b's, paired differences, a feasible, b
    /// feasible, a's violation, b's violation).
    fn compare(&self, a: &Vec<u64>, b: &Vec<u64>) -> Option<Comparison> {
        let (ra, rb) = (self.points.get(a)?, self.points.get(b)?);
        let slots: Vec<usize> = (0..ra.evals.len().min(rb.evals.len()))
            .filter(|&s| ra.evals[s].is_some() && rb.evals[s].is_some())
            .collect();
        let (fa, xa) = ra.mean(&slots)?;
        let (fb, xb) = rb.mean(&slots)?;
        let diffs = slots
            .iter()
            .filter_map(|&s| Some(ra.evals[s].as_ref()?.fitness - rb.evals[s].as_ref()?.fitness))
            .collect();
        Some(Comparison {
            difference: fa - fb,
            diffs,
            violation: (violation(&self.checks, &xa), violation(&self.checks, &xb)),
        })
    }

    /// Decides every challenge whose evaluations are in: dropped, measured more, or
    /// the new incumbent.
    fn decide(&mut self) {
        let Some(Pending {
            challenges: Some(mut challenges),
            batch,
        }) = self.pending.take()
        else {
            return;
        };
        // With no incumbent yet (no baseline), the best first point measured is one.
        if self.incumbent.is_none() {
            let mut best: Option<Vec<u64>> = None;
            for c in &challenges {
                if self.points[&c.key].evals.iter().all(Option::is_none) {
                    continue;
                }
                let better = match &best {
                    None => true,
                    Some(b) => self.compare(&c.key, b).is_some_and(|cmp| cmp.beats()),
                };
                if better {
                    best = Some(c.key.clone());
                }
            }
            self.incumbent = best;
        }
        for c in challenges.iter_mut().filter(|c| !c.done) {
            let count = self.count(&c.key);
            if count < c.target {
                continue;
            }
            let Some(inc) = self.incumbent.clone() else {
                c.done = true;
                continue;
            };
            if c.key == inc {
                c.done = true;
                continue;
            }
            let inc_count = self.count(&inc).min(self.cap());
            let Some(cmp) = self.compare(&c.key, &inc) else {
                // No common seed evaluated: a challenger that failed everywhere is
                // dropped; one that stands against an incumbent that failed everywhere
                // takes its place.
                let failed = self.points[&c.key].evals.iter().all(Option::is_none);
                if !failed && self.points[&inc].evals.iter().all(Option::is_none) {
                    self.incumbent = Some(c.key.clone());
                }
                c.done = true;
                continue;
            };
            let sd = self.sd_difference();
            if !cmp.could_beat(self.config.z, sd) {
                self.pool(&cmp);
                c.done = true;
                continue;
            }
            if count >= inc_count {
                self.pool(&cmp);
                if cmp.beats() {
                    self.incumbent = Some(c.key.clone());
                }
                c.done = true;
                continue;
            }
            c.target = (2 * count).clamp(count + 1, inc_count);
        }
        self.pending = Some(Pending {
            batch,
            challenges: Some(challenges),
        });
    }

    fn pool(&mut self, cmp: &Comparison) {
        if cmp.diffs.len() >= 2 {
            let s = Summary::of(&cmp.diffs);
            self.pooled_m2 += s.sd().powi(2) * (s.n - 1) as f64;
            self.pooled_df += s.n - 1;
        }
    }

    /// Tells the optimiser its batch once every point of it is decided.
    fn tell_inner_when_decided(&mut self) {
        let decided = match &self.pending {
            Some(Pending {
                challenges: Some(c),
                ..
            }) => c.iter().all(|c| c.done),
            _ => false,
        };
        if !decided {
            return;
        }
        let Some(Pending {
            batch,
            challenges: Some(challenges),
        }) = self.pending.take()
        else {
            return;
        };
        // The first challenges are the batch's points; the incumbent's own seed, if
        // it gained one, comes after them.
        let results: Vec<Option<Evaluation>> = challenges
            .iter()
            .take(batch.len())
            .map(|c| {
                let r = &self.points[&c.key];
                let new: Vec<&Evaluation> = r.evals[c.from.min(r.evals.len())..]
                    .iter()
                    .flatten()
                    .collect();
                mean_of(&new).map(|(fitness, features)| Evaluation { fitness, features })
            })
            .collect();
        for e in results.iter().flatten() {
            self.told_feasible[usize::from(violation(&self.checks, &e.features) > 0.0)] += 1;
        }
        self.inner.tell(&batch, &results);
    }
}

/// A challenger against the incumbent over their common seeds.
struct Comparison {
    /// The challenger's mean less the incumbent's.
    difference: f64,
    /// The paired differences, seed by seed.
    diffs: Vec<f64>,
    /// (the challenger's, the incumbent's) mean violation of the constraints.
    violation: (f64, f64),
}

impl Comparison {
    /// Whether the challenger could still beat the incumbent: feasible against an
    /// infeasible incumbent, no more violating where both are infeasible, or a mean
    /// no more than `z` standard errors (`sd` a pair) below where both are feasible.
    fn could_beat(&self, z: f64, sd: f64) -> bool {
        let (a, b) = self.violation;
        if a == 0.0 && b == 0.0 {
            let n = self.diffs.len().max(1) as f64;
            self.difference + z * sd / n.sqrt() >= 0.0
        } else {
            a <= b
        }
    }

    /// Whether the challenger beats the incumbent as Deb's rules rank them.
    fn beats(&self) -> bool {
        let (a, b) = self.violation;
        a < b || (a == b && self.difference > 0.0)
    }
}

impl Optimizer for Intensified {
    fn ask(&mut self) -> Vec<Candidate> {
        loop {
            if self.spent >= self.budget {
                return Vec::new();
            }
            if self.pending.is_none() {
                let batch = self.inner.ask();
                if batch.is_empty() {
                    return batch;
                }
                if batch.iter().any(|c| c.phase != Phase::Search) {
                    let asked = batch.clone();
                    self.pending = Some(Pending {
                        batch,
                        challenges: None,
                    });
                    return asked;
                }
                let mut challenges: Vec<Challenge> = Vec::with_capacity(batch.len());
                for c in &batch {
                    let k = key(&c.values);
                    // A point asked twice in a batch (RMHC's resampling) gets a seed
                    // of its own for each ask.
                    let earlier = challenges.iter().filter(|c| c.key == k).count();
                    let r = self.points.entry(k.clone()).or_default();
                    if r.values.is_empty() {
                        r.values = c.values.clone();
                    }
                    let from = r.evals.len() + earlier;
                    challenges.push(Challenge {
                        key: k,
                        from,
                        target: from + 1,
                        done: false,
                    });
                }
                // The incumbent gains a seed for every point of the batch, up to the
                // most: it is measured as often as it is challenged.
                if let Some(inc) = self.incumbent.clone() {
                    let count = self.count(&inc);
                    if count < self.cap() && !challenges.iter().any(|c| c.key == inc) {
                        challenges.push(Challenge {
                            key: inc,
                            from: count,
                            target: (count + batch.len()).min(self.cap()),
                            done: false,
                        });
                    }
                }
                self.pending = Some(Pending {
                    batch,
                    challenges: Some(challenges),
                });
            }
            let wanted = self.wanted();
            if wanted.is_empty() {
                // Every point of the batch is decided (or waits on nothing): tell.
                self.decide();
                self.tell_inner_when_decided();
                if self.pending.is_some() && self.wanted().is_empty() {
                    // Nothing decided and nothing wanted cannot happen; leave rather
                    // than spin.
                    return Vec::new();
                }
                continue;
            }
            let left = (self.budget - self.spent) as usize;
            return wanted
                .into_iter()
                .take(left)
                .map(|(k, slot)| Candidate {
                    values: self.points[&k].values.clone(),
                    phase: Phase::Search,
                    common: Some(slot as u64),
                })
                .collect();
        }
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        self.spent += asked.len() as u64;
        if matches!(
            self.pending,
            Some(Pending {
                challenges: None,
                ..
            })
        ) {
            self.pending = None;
            self.inner.tell(asked, results);
            return;
        }
        for (c, r) in asked.iter().zip(results) {
            if let Some(e) = r {
                self.feasible[usize::from(violation(&self.checks, &e.features) > 0.0)] += 1;
            }
            let r = r.clone();
            let record = self.points.entry(key(&c.values)).or_default();
            if record.values.is_empty() {
                record.values = c.values.clone();
            }
            // Slots are asked in order from a point's count, so each lands next.
            match c.common.map(|s| s as usize) {
                Some(slot) if slot == record.evals.len() => record.evals.push(r),
                Some(slot) if slot < record.evals.len() => record.evals[slot] = r,
                _ => record.evals.push(r),
            }
        }
        self.decide();
        self.tell_inner_when_decided();
    }

    fn recommend(&self) -> Recommendation {
        let measured = self.incumbent.as_ref().and_then(|k| {
            let r = self.points.get(k)?;
            let f: Vec<f64> = r.evals.iter().flatten().map(|e| e.fitness).collect();
            (!f.is_empty()).then(|| (r, Summary::of(&f)))
        });
        match measured {
            Some((r, s)) => Recommendation {
                values: r.values.clone(),
                estimate: s.mean,
                se: s.se(),
                samples: s.n,
            },
            None => self.inner.recommend(),
        }
    }

    fn archive(&self) -> Option<&super::map_elites::AnyArchive> {
        self.inner.archive()
    }

    fn metrics_history(&self) -> &[super::map_elites::Metrics] {
        self.inner.metrics_history()
    }

    /// The held optimiser's counts, of evaluations rather than of the means it was
    /// told.
    fn feasibility(&self) -> Option<super::constrained::Feasibility> {
        let mut f = self.inner.feasibility()?;
        f.feasible = (f.feasible + self.feasible[0]).saturating_sub(self.told_feasible[0]);
        f.infeasible = (f.infeasible + self.feasible[1]).saturating_sub(self.told_feasible[1]);
        if let Some(r) = self.incumbent.as_ref().and_then(|k| self.points.get(k)) {
            let all: Vec<usize> = (0..r.evals.len()).collect();
            if let Some((_, features)) = r.mean(&all) {
                f.recommendation = Some(violation(&self.checks, &features) == 0.0);
            }
        }
        Some(f)
    }

    fn alternative(&self) -> Option<Vec<f64>> {
        self.inner.alternative()
    }
}

#[cfg(test)]
mod tests;
