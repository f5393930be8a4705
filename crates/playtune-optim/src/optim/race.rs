//! Racing before recommending, for any optimiser: the last share of a trial's budget
//! plays the strongest candidates against each other on common fresh seeds and drops
//! those that are worse with confidence, so that the recommendation is the best
//! measured candidate, not the luckiest evaluation of the search (in the spirit of
//! F-race, Birattari et al. 2002, and SMAC's intensification).
//!
//! The candidates: the inner optimiser's own recommendation (NTBEA's model choice,
//! RMHC's parent), the problem's baseline where the run's space holds it (the game's
//! own rules: [`RaceBaseline`]), then the evaluated points with the best mean fitness,
//! the points that break the run's constraints on average left out while any other is
//! left. On Rinascimento's design problem, where 2-player Splendor's rules are deeper
//! than nearly every other rule set, racing them lifts the answers' fresh skill depth
//! from 0.149 to 0.180 (NTBEA) and from 0.129 to 0.191 (random search).
//! Round `r` evaluates every survivor once, all of them on one seed (the run loop gives
//! a [`Phase::Race`] batch a common seed), so that after each round the survivors are
//! compared paired: from round 5 on, a survivor whose paired difference
//! from the leader (the best mean) is below 0 with a one-sided paired t-test at
//! `level` is dropped. The race ends when one survivor is left or the next round does
//! not fit in the budget; the recommendation is the survivor with the best race mean.
//! A model's choice (NTBEA's) gets no favour over the points measured best: on
//! Rinascimento's design problem its 1-tuple means rank depth poorly (a cross-validated
//! correlation of 0.25 on precise measurements), and a race it must win lifts NTBEA's fresh skill depth from 0.094 to 0.149
//! (docs/design.md#racing-before-recommending).

use super::constrained::{Check, key, violation};
use super::{Candidate, Optimizer, Phase, Recommendation};
use crate::eval::Evaluation;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Rounds every candidate plays before any is dropped: a t-test on fewer pairs is
/// too easily fooled by one lucky game.
pub(crate) const MIN_ROUNDS: usize = 5;

/// How a run races its candidates (`config.ron`'s `race`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceConfig {
    /// The share of each trial's budget the race spends, in (0, 1).
    pub share: f64,
    /// Most candidates that enter the race (at least 2).
    pub candidates: usize,
    /// One-sided significance level at which a candidate is dropped.
    pub level: f64,
    /// Whether the problem's baseline enters the race, where the run's space holds it
    /// (the game's own rules on a design problem). A `config.ron` written before it
    /// could (2026-11-27) has none.
    #[serde(default)]
    pub baseline: RaceBaseline,
}

/// How the problem's own baseline takes part in a race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RaceBaseline {
    /// It does not enter.
    #[default]
    Absent,
    /// It enters like any candidate: the recommendation is the best race mean.
    Entrant,
    /// It enters and is recommended unless a survivor beats it with confidence:
    /// rules change only on evidence, at the risk of keeping a weak baseline when the
    /// race is too short to show a better one.
    Incumbent,
}

impl Default for RaceConfig {
    /// A quarter of the budget, 5 candidates, dropped at 0.05: measured on the
    /// synthetic design benchmark; the baseline an entrant: measured on Rinascimento's
    /// design problem (docs/design.md#racing-before-recommending).
    fn default() -> RaceConfig {
        RaceConfig {
            share: 0.25,
            candidates: 5,
            level: 0.05,
            baseline: RaceBaseline::Entrant,
        }
    }
}

impl RaceConfig {
    /// Checks the settings; the error names the setting as `config.ron` does.
    pub fn check(&self) -> Result<(), super::Error> {
        let bad = |setting: &'static str, value: String, expected: &str| super::Error::Setting {
            setting: setting.into(),
            value,
            expected: expected.to_string(),
        };
        if !(self.share > 0.0 && self.share < 1.0) {
            return Err(bad(
                "race_share",
                self.share.to_string(),
                "a share of the budget strictly between 0 and 1",
            ));
        }
        if !(2..=1000).contains(&self.candidates) {
            return Err(bad(
                "race_candidates",
                self.candidates.to_string(),
                "2 to 1000 candidates",
            ));
        }
        if !(self.level > 0.0 && self.level < 0.5) {
            return Err(bad(
                "race_level",
                self.level.to_string(),
                "a significance level strictly between 0 and 0.5",
            ));
        }
        Ok(())
    }

    /// Checks that a trial's `budget` holds both a race at this share and a search:
    /// a share the budget cannot honour is refused, never silently dropped.
    pub fn check_budget(&self, budget: u64) -> Result<(), super::Error> {
        if self.race_budget(budget) > 0 {
            return Ok(());
        }
        let b = budget as f64;
        let expected = if budget < 5 {
            format!(
                "a budget of {budget} holds no race (it needs at least 4 evaluations and the search 1): give a budget of at least 5, or no race"
            )
        } else {
            format!(
                "at a budget of {budget} the race would get {} evaluations and the search {}; give a share from {:.3} to {:.3} (the race needs at least 4, the search 1)",
                (b * self.share).round() as u64,
                budget.saturating_sub((b * self.share).round() as u64),
                3.5 / b,
                (b - 1.5) / b
            )
        };
        Err(super::Error::Setting {
            setting: "race_share".into(),
            value: self.share.to_string(),
            expected,
        })
    }

    /// The evaluations of a trial's `budget` the race keeps for itself; the search
    /// gets the rest. At least two rounds of two candidates, or no race at all when
    /// the budget is too small for one.
    pub fn race_budget(&self, budget: u64) -> u64 {
        let share = (budget as f64 * self.share).round() as u64;
        if share < 4 || budget - share < 1 {
            0
        } else {
            share
        }
    }
}

/// The race a run gets when its user says nothing: on problems whose answer is judged
/// against a baseline of their own (`design`, `tune-agent`, `synthetic-design`: noisy
/// games a designer acts on), every optimiser that recommends one point races with
/// the defaults (docs/design.md#racing-before-recommending); MAP-Elites, whose answer
/// is an archive, and the other benchmarks do not race.
pub fn by_default(has_baseline: bool, algorithm: &super::AlgoConfig) -> Option<RaceConfig> {
    use super::AlgoConfig;
    (has_baseline && !matches!(algorithm, AlgoConfig::MapElites(_))).then(RaceConfig::default)
}

/// One candidate's search record and race results.
#[derive(Default)]
struct Entry {
    values: Vec<f64>,
    fitness: Summary,
    features: Vec<f64>,
    /// Race results, one per round it played; `None` where its evaluation failed.
    race: Vec<Option<f64>>,
}

impl Entry {
    fn mean_features(&self) -> Vec<f64> {
        let n = self.fitness.n.max(1) as f64;
        self.features.iter().map(|f| f / n).collect()
    }
}

/// Any optimiser, followed by a race among its strongest candidates.
pub struct Raced {
    inner: Box<dyn Optimizer>,
    config: RaceConfig,
    checks: Vec<Check>,
    /// Evaluations the race may spend.
    budget: u64,
    spent: u64,
    /// Every point the search evaluated, in the order first seen.
    points: HashMap<Vec<u64>, Entry>,
    order: Vec<Vec<u64>>,
    /// The race's survivors (keys into `points`), once it started.
    survivors: Option<Vec<Vec<u64>>>,
    done: bool,
    /// The baseline as a point of the search's space, when it enters the race.
    baseline: Option<Vec<f64>>,
}

impl Raced {
    /// `inner` searches with its own budget; the race then spends `race_budget`
    /// evaluations. `checks`: the run's constraints, to leave infeasible points out.
    pub fn new(
        inner: Box<dyn Optimizer>,
        config: RaceConfig,
        race_budget: u64,
        checks: Vec<Check>,
    ) -> Raced {
        Raced {
            inner,
            config,
            checks,
            budget: race_budget,
            spent: 0,
            points: HashMap::new(),
            order: Vec::new(),
            survivors: None,
            done: race_budget == 0,
            baseline: None,
        }
    }

    /// Enters the baseline, `values` (a point of the search's space), in the race as
    /// the run's [`RaceConfig::baseline`] says; a problem with no baseline in the
    /// search's space races without one.
    pub fn with_baseline(mut self, values: Option<Vec<f64>>) -> Raced {
        if self.config.baseline != RaceBaseline::Absent {
            self.baseline = values;
        }
        self
    }

    /// The race's entrants: the inner recommendation (evaluated or not), the baseline,
    /// then the best measured points.
    fn entrants(&mut self) -> Vec<Vec<u64>> {
        let rec = self.inner.recommend().values;
        let rec_key = key(&rec);
        let feasible = |k: &Vec<u64>| {
            self.checks.is_empty()
                || violation(&self.checks, &self.points[k].mean_features()) == 0.0
        };
        let mut ranked: Vec<&Vec<u64>> = self.order.iter().collect();
        // Feasible before infeasible, then the best mean; ties keep the order first
        // seen (the sort is stable).
        ranked.sort_by(|a, b| {
            feasible(b).cmp(&feasible(a)).then(
                self.points[*b]
                    .fitness
                    .mean
                    .total_cmp(&self.points[*a].fitness.mean),
            )
        });
        let mut out: Vec<Vec<u64>> = vec![rec_key.clone()];
        let base = self.baseline.as_ref().map(|v| (key(v), v.clone()));
        if let Some((k, _)) = &base
            && *k != rec_key
        {
            out.push(k.clone());
        }
        let room = self.config.candidates.saturating_sub(out.len());
        let taken: Vec<Vec<u64>> = ranked
            .into_iter()
            .filter(|k| !out.contains(k))
            .take(room)
            .cloned()
            .collect();
        out.extend(taken);
        for (k, v) in [(rec_key, rec)].into_iter().chain(base) {
            let entry = self.points.entry(k).or_default();
            if entry.values.is_empty() {
                entry.values = v;
            }
        }
        out
    }

    /// Rounds every survivor has played.
    fn rounds(&self) -> usize {
        self.survivors
            .as_ref()
            .and_then(|s| s.first())
            .map_or(0, |k| self.points[k].race.len())
    }

    /// The survivor with the best race mean (the first entrant on ties).
    fn leader(&self) -> Option<&Vec<u64>> {
        let survivors = self.survivors.as_ref()?;
        let mean = |k: &Vec<u64>| race_mean(&self.points[k].race);
        survivors
            .iter()
            .fold(None, |best: Option<&Vec<u64>>, k| match best {
                Some(b) if mean(b) >= mean(k) => Some(b),
                _ => Some(k),
            })
    }

    /// The recommendation among the survivors: the leader, unless the baseline is the
    /// incumbent, survives, and the leader does not beat it with confidence.
    fn chosen(&self) -> Option<&Vec<u64>> {
        let leader = self.leader()?;
        if self.config.baseline != RaceBaseline::Incumbent {
            return Some(leader);
        }
        let survivors = self.survivors.as_ref()?;
        let Some(incumbent) = self
            .baseline
            .as_ref()
            .and_then(|v| survivors.iter().find(|k| **k == key(v)))
        else {
            return Some(leader);
        };
        let results =
            |k: &Vec<u64>| -> Vec<f64> { self.points[k].race.iter().flatten().copied().collect() };
        let diffs: Vec<f64> = results(leader)
            .iter()
            .zip(&results(incumbent))
            .map(|(a, b)| a - b)
            .collect();
        Some(if worse_with_confidence(&diffs, self.config.level) {
            leader
        } else {
            incumbent
        })
    }

    /// Drops the survivors worse than the leader with confidence, and those whose
    /// race evaluation failed.
    fn eliminate(&mut self) {
        let Some(survivors) = self.survivors.clone() else {
            return;
        };
        let mut kept: Vec<Vec<u64>> = survivors
            .into_iter()
            .filter(|k| self.points[k].race.iter().all(Option::is_some))
            .collect();
        if kept.is_empty() {
            self.survivors = Some(kept);
            return;
        }
        self.survivors = Some(kept.clone());
        if self.rounds() >= MIN_ROUNDS
            && let Some(leader) = self.leader().cloned()
        {
            let lead: Vec<f64> = self.points[&leader]
                .race
                .iter()
                .flatten()
                .copied()
                .collect();
            kept.retain(|k| {
                if *k == leader {
                    return true;
                }
                let other: Vec<f64> = self.points[k].race.iter().flatten().copied().collect();
                let diffs: Vec<f64> = lead.iter().zip(&other).map(|(a, b)| a - b).collect();
                !worse_with_confidence(&diffs, self.config.level)
            });
        }
        self.survivors = Some(kept);
    }
}

fn race_mean(race: &[Option<f64>]) -> f64 {
    let values: Vec<f64> = race.iter().flatten().copied().collect();
    if values.is_empty() {
        f64::NEG_INFINITY
    } else {
        Summary::of(&values).mean
    }
}

/// Whether paired differences leader minus other are above 0 with a one-sided t-test
/// at `level`.
fn worse_with_confidence(diffs: &[f64], level: f64) -> bool {
    crate::stats::t_test_above_zero(&Summary::of(diffs)).is_some_and(|p| p < level)
}

impl Optimizer for Raced {
    fn ask(&mut self) -> Vec<Candidate> {
        if self.survivors.is_none() {
            let batch = self.inner.ask();
            if !batch.is_empty() || self.done {
                return batch;
            }
            self.survivors = Some(self.entrants());
        }
        if self.done {
            return Vec::new();
        }
        let survivors = self.survivors.as_ref().map_or(&[][..], |s| s.as_slice());
        let left = self.budget - self.spent;
        if survivors.len() < 2 || survivors.len() as u64 > left {
            self.done = true;
            return Vec::new();
        }
        survivors
            .iter()
            .map(|k| Candidate {
                values: self.points[k].values.clone(),
                phase: Phase::Race,
                common: None,
            })
            .collect()
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        if asked.iter().all(|c| c.phase != Phase::Race) {
            for (c, r) in asked.iter().zip(results) {
                let Some(e) = r else { continue };
                let k = key(&c.values);
                if !self.points.contains_key(&k) {
                    self.order.push(k.clone());
                }
                let entry = self.points.entry(k).or_default();
                if entry.values.is_empty() {
                    entry.values = c.values.clone();
                    entry.features = vec![0.0; e.features.len()];
                }
                entry.fitness.add(e.fitness);
                for (sum, f) in entry.features.iter_mut().zip(&e.features) {
                    *sum += f;
                }
            }
            self.inner.tell(asked, results);
            return;
        }
        self.spent += asked.len() as u64;
        for (c, r) in asked.iter().zip(results) {
            let k = key(&c.values);
            let entry = self.points.entry(k).or_default();
            if entry.values.is_empty() {
                // The inner recommendation the search never evaluated.
                entry.values = c.values.clone();
            }
            entry.race.push(r.as_ref().map(|e| e.fitness));
        }
        self.eliminate();
    }

    fn recommend(&self) -> Recommendation {
        match (self.chosen(), self.rounds()) {
            (Some(k), rounds) if rounds > 0 => {
                let race: Vec<f64> = self.points[k].race.iter().flatten().copied().collect();
                let s = Summary::of(&race);
                Recommendation {
                    values: self.points[k].values.clone(),
                    estimate: s.mean,
                    se: s.se(),
                    samples: s.n,
                }
            }
            _ => self.inner.recommend(),
        }
    }

    fn archive(&self) -> Option<&super::map_elites::AnyArchive> {
        self.inner.archive()
    }

    fn metrics_history(&self) -> &[super::map_elites::Metrics] {
        self.inner.metrics_history()
    }

    fn feasibility(&self) -> Option<super::constrained::Feasibility> {
        self.inner.feasibility()
    }

    /// Where the race kept the baseline: the other raced point with the best race
    /// mean, survivor or not (one dropped late is still the search's best other
    /// answer).
    fn alternative(&self) -> Option<Vec<f64>> {
        let base = key(self.baseline.as_ref()?);
        if self.chosen()? != &base {
            return None;
        }
        // In the order first seen, the first of equal means: the same on every run.
        let mut best: Option<(f64, &Entry)> = None;
        for k in self.order.iter().filter(|k| **k != base) {
            let e = &self.points[k];
            let m = race_mean(&e.race);
            if m.is_finite() && best.is_none_or(|(b, _)| m > b) {
                best = Some((m, e));
            }
        }
        best.map(|(_, e)| e.values.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every optimiser that recommends one point races on a problem with a baseline
    /// (NTBEA too, since 2026-11-27); MAP-Elites and the other benchmarks do not.
    #[test]
    fn optimisers_of_one_point_race_by_default_where_a_baseline_judges() {
        use crate::optim::AlgoConfig;
        let one_point = [
            AlgoConfig::Random(Default::default()),
            AlgoConfig::Rmhc(Default::default()),
            AlgoConfig::Brmhc(Default::default()),
            AlgoConfig::Ntbea(Default::default()),
        ];
        for a in &one_point {
            assert_eq!(by_default(true, a), Some(RaceConfig::default()), "{a:?}");
            assert_eq!(by_default(false, a), None, "{a:?}");
        }
        let archive = AlgoConfig::MapElites(Default::default());
        assert_eq!(by_default(true, &archive), None);
    }

    #[test]
    fn the_race_budget_is_a_share_or_nothing() {
        let c = RaceConfig::default();
        assert_eq!(c.race_budget(200), 50);
        assert_eq!(c.race_budget(10), 0, "2.5 rounds of nothing");
        assert_eq!(c.race_budget(16), 4);
        assert!(c.check().is_ok());
        for bad in [
            RaceConfig {
                share: 1.0,
                ..c.clone()
            },
            RaceConfig {
                candidates: 1,
                ..c.clone()
            },
            RaceConfig {
                level: 0.0,
                ..c.clone()
            },
        ] {
            assert!(bad.check().is_err());
        }
    }

    #[test]
    fn a_clearly_worse_candidate_is_dropped_and_a_close_one_kept() {
        // 0.3 better in every round but with noise: dropped after MIN_ROUNDS.
        let diffs = [0.2, 0.4, 0.3, 0.25, 0.35];
        assert!(worse_with_confidence(&diffs, 0.05));
        let close = [0.2, -0.3, 0.1, -0.1, 0.05];
        assert!(!worse_with_confidence(&close, 0.05));
        assert!(
            !worse_with_confidence(&[1.0], 0.05),
            "one pair decides nothing"
        );
    }

    /// Drives random search on 3 rules of 4 levels, fitness the rules' mean level
    /// (0 to 1) plus Gaussian noise of `noise`, then a race of `race_budget`
    /// evaluations with the baseline `baseline` entered as `how`. Returns every point
    /// the race played and the recommendation.
    fn race_with_baseline(
        how: RaceBaseline,
        baseline: &[f64],
        noise: f64,
        race_budget: u64,
    ) -> (Vec<Vec<f64>>, Vec<f64>) {
        let raced = raced(how, baseline, noise, race_budget);
        let played = raced
            .points
            .values()
            .flat_map(|e| std::iter::repeat_n(e.values.clone(), e.race.len()))
            .collect();
        (played, raced.recommend().values)
    }

    /// The race [`race_with_baseline`] runs, to ask it more than its answer.
    fn raced(how: RaceBaseline, baseline: &[f64], noise: f64, race_budget: u64) -> Raced {
        use crate::rng::{derive_seed, rng_from_seed};
        use rand_distr::{Distribution, Normal};
        let space = crate::eval::int_space("rules", 3, 4);
        let inner = crate::optim::AlgoConfig::Random(Default::default())
            .build(&space, 12, 7, &[], &[])
            .unwrap();
        let config = RaceConfig {
            candidates: 3,
            baseline: how,
            ..RaceConfig::default()
        };
        let mut raced = Raced::new(inner, config, race_budget, Vec::new())
            .with_baseline(Some(baseline.to_vec()));
        for round in 0u64.. {
            let asked = raced.ask();
            if asked.is_empty() {
                break;
            }
            let mut rng = rng_from_seed(derive_seed(11, &[round]));
            let results: Vec<Option<Evaluation>> = asked
                .iter()
                .map(|c| {
                    let e: f64 = Normal::new(0.0, noise).unwrap().sample(&mut rng);
                    Some(Evaluation::fitness(c.values.iter().sum::<f64>() / 9.0 + e))
                })
                .collect();
            raced.tell(&asked, &results);
        }
        raced
    }

    /// Where the race keeps the baseline, its best other raced point is the
    /// alternative a verdict judges; where another point wins, there is none.
    #[test]
    fn a_race_that_keeps_the_baseline_names_its_best_other_point() {
        let best = [3.0, 3.0, 3.0];
        let kept = raced(RaceBaseline::Entrant, &best, 0.01, 12);
        assert_eq!(kept.recommend().values, best);
        let other = kept.alternative().expect("an alternative");
        assert_ne!(other, best);
        // It is the raced point with the best race mean other than the baseline.
        let mean = |v: &[f64]| race_mean(&kept.points[&key(v)].race);
        for (k, e) in &kept.points {
            if *k != key(&best) && !e.race.is_empty() {
                assert!(mean(&other) >= race_mean(&e.race));
            }
        }
        let weak = [0.0, 0.0, 0.0];
        let beaten = raced(RaceBaseline::Entrant, &weak, 0.01, 12);
        assert_ne!(beaten.recommend().values, weak);
        assert_eq!(beaten.alternative(), None);
    }

    #[test]
    fn the_baseline_enters_the_race_and_wins_it_when_it_measures_best() {
        // Every rule at its top, most likely never drawn by 12 random evaluations.
        let best = [3.0, 3.0, 3.0];
        let (played, chosen) = race_with_baseline(RaceBaseline::Entrant, &best, 0.01, 12);
        assert!(played.contains(&best.to_vec()), "the baseline raced");
        assert_eq!(played.len(), 12, "4 rounds of 3 entrants");
        assert_eq!(chosen, best);
        let (played, chosen) = race_with_baseline(RaceBaseline::Absent, &best, 0.01, 12);
        assert!(!played.contains(&best.to_vec()));
        assert_ne!(chosen, best);
    }

    #[test]
    fn an_incumbent_baseline_is_kept_unless_beaten_with_confidence() {
        // A weak baseline (mean level 1/3): with noise 0.5 and 2 rounds nothing is
        // shown better than it, so it is kept, though another entrant leads the race.
        let weak = [1.0, 1.0, 1.0];
        let (played, chosen) = race_with_baseline(RaceBaseline::Incumbent, &weak, 0.5, 6);
        assert!(played.contains(&weak.to_vec()));
        assert_eq!(chosen, weak, "kept: two noisy rounds show nothing");
        let (_, led) = race_with_baseline(RaceBaseline::Entrant, &weak, 0.5, 6);
        assert_ne!(led, weak, "as an entrant it loses the same race");
        // With little noise and enough rounds the better entrant is shown better.
        let (_, chosen) = race_with_baseline(RaceBaseline::Incumbent, &weak, 0.01, 30);
        assert_ne!(chosen, weak);
        assert!(chosen.iter().sum::<f64>() > 3.0);
    }

    #[test]
    fn a_config_written_before_the_baseline_raced_reads_without_it() {
        let old = "(share: 0.25, candidates: 5, level: 0.05)";
        let c: RaceConfig = ron::from_str(old).unwrap();
        assert_eq!(c.baseline, RaceBaseline::Absent);
        assert_eq!(RaceConfig::default().baseline, RaceBaseline::Entrant);
    }
}
