//! The verdict: a run's recommendation played beside a baseline (the game's own rules,
//! the untuned agent, or a point the user names) on seeds the search never used, the
//! same seeds for both, so that a designer learns whether the answer is better than
//! what they had, by how much, and how sure that is, not the optimiser's estimate.
//!
//! Both sides are evaluated `n` times: evaluation `k` of each with the seed
//! `derive_seed(seed, [VERDICT_STREAM, trial, k])`. One seed plays the same deals,
//! maps and seats for both (common random numbers), so the difference is measured
//! paired: its mean over the pairs, the standard error of that mean, and a two-sided
//! paired t-test. The sentence says "better" (deeper, stronger) only when the test
//! puts the difference above 0 at the level 0.01, "worse" only below, and otherwise that
//! the recommendation is not shown better than the baseline at this budget.
//!
//! A skill depth is compared pooled: each side's depth is the smallest gap between its
//! rungs' results over all its evaluations, not the mean of each evaluation's smallest
//! gap, which noise biases low and by an amount that depends on the rules
//! ([`Problem::pooled_terms`]).

use super::verdict_log::VerdictLog;
use super::{RunError, evaluate_with_retries, with_retries};
use playtune_optim::eval::{Binding, Evaluation, Problem};
use playtune_optim::optim::constrained::{Check, violation};
use playtune_optim::rng::derive_seed;
use playtune_optim::space::Space;
use playtune_optim::stats::Summary;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The first coordinate of a verdict's seed path: runs seed evaluations with `[trial,
/// i]`, optimisers with `[trial, u64::MAX]` and re-evaluations with `[u64::MAX - 1,
/// ...]`, so a verdict's seeds are none of those.
pub(crate) const VERDICT_STREAM: u64 = u64::MAX - 2;

/// The two-sided significance level below which the verdict calls a difference.
/// Strict on purpose: a designer acts on "deeper", so over ten runs of equal rules
/// it should almost never be said.
pub(crate) const LEVEL: f64 = 0.01;

/// The verdict's evaluations of each side when the user gives none: an eighth of the
/// search budget, at least 10 and at most 200.
pub fn default_evaluations(budget: u64) -> u32 {
    (budget / 8).clamp(10, 200) as u32
}

/// The most verdict evaluations a side (`--verdict`): each is kept in memory, and a
/// verdict that large is a study of its own (`playtune reevaluate`).
pub const MAX_EVALUATIONS: u32 = 100_000;

/// How a run is judged at its end, where the user said (`--verdict N`, `--baseline`):
/// kept in `config.ron` so that `resume` judges as the run was started. Absent: the
/// default size against the problem's own baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerdictSettings {
    /// Evaluations a side; 0: no verdict.
    pub evaluations: u32,
    /// The baseline as a point of the run's space; absent: the problem's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Vec<f64>>,
}

impl VerdictSettings {
    /// Checks the size; the error says what to give.
    pub fn check_evaluations(n: u32) -> Result<(), String> {
        match n {
            1 => Err("1: a verdict compares at least 2 evaluations a side (0 skips it)".into()),
            n if n > MAX_EVALUATIONS => Err(format!(
                "{n}: give at most {MAX_EVALUATIONS} evaluations a side"
            )),
            _ => Ok(()),
        }
    }
}

/// What a run folder says of its verdict before a resumed search rewrites its files:
/// whether a verdict was begun (its log exists) or finished (`result.ron` holds one).
#[derive(Clone, Copy, Debug, Default)]
pub struct Begun(bool);

impl Begun {
    /// Reads `dir` (before its search is resumed).
    pub fn of(dir: &std::path::Path) -> Begun {
        let logged = dir.join(super::verdict_log::VERDICT_LOG_FILE).exists();
        let judged = super::read_result(dir)
            .map(|r| r.trials.iter().any(|t| t.verdict.is_some()))
            .unwrap_or(false);
        Begun(logged || judged)
    }

    /// Whether the run is judged now that its search is over: always where the search
    /// evaluated anything (the verdict is the run's end), where the caller asks
    /// (`explicit`: `resume --verdict N`), and where a verdict was begun or given
    /// before, so that none is lost; a run finished before verdicts existed (a
    /// published run) is left as it was.
    pub fn due(self, evaluated_now: bool, explicit: bool) -> bool {
        evaluated_now || explicit || self.0
    }
}

/// The evaluations a side and the baseline point a finished run of `config` is judged
/// with: `evaluations` where the caller gives them (`resume --verdict N`), else what
/// the run was started with, else the default for its budget.
pub fn planned<A>(
    config: &super::RunConfig<A>,
    evaluations: Option<u32>,
) -> (u32, Option<Vec<f64>>) {
    let kept = config.verdict.as_ref();
    let n = evaluations
        .or(kept.map(|v| v.evaluations))
        .unwrap_or_else(|| default_evaluations(config.budget));
    (n, kept.and_then(|v| v.baseline.clone()))
}

/// A feature's mean over one side's evaluations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureMean {
    /// The feature's name.
    pub name: String,
    /// Its mean; NaN where no evaluation gave it.
    pub mean: f64,
    /// The mean's standard error.
    pub se: f64,
}

/// One side of a verdict: the recommendation or the baseline, on fresh seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// What it is ("the recommendation", "rinascimento's own rules").
    pub label: String,
    /// Its values of the search's dimensions, as text.
    pub settings: Vec<(String, String)>,
    /// Every evaluation's share of the side's pooled fitness, in seed order (its
    /// fitness, or for a skill depth its gap over the step that sets the pooled
    /// depth: [`Problem::pooled_terms`]); `None` where it failed. Their mean is `mean`.
    pub fitness: Vec<Option<f64>>,
    /// The mean of `fitness`; NaN where every evaluation failed.
    pub mean: f64,
    /// Its standard error.
    pub se: f64,
    /// Every feature's mean and standard error (the rungs' results, design metrics).
    pub features: Vec<FeatureMean>,
    /// The constraints its mean features break, as text; empty when it meets them all
    /// (or there are none).
    pub broken: Vec<String>,
    /// The first failure's reason, where any evaluation failed.
    pub failure: Option<String>,
}

/// How the recommendation compares with the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Better with confidence (p < 0.01, difference above 0).
    Better,
    /// Worse with confidence.
    Worse,
    /// Neither: not shown better than the baseline at this budget.
    NoBetter,
}

/// A recommendation judged against a baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What the fitness is ("skill depth", "win rate").
    pub fitness: String,
    /// Evaluations of each side.
    pub evaluations: u32,
    /// The trial's recommendation.
    pub recommendation: Side,
    /// What it is judged against.
    pub baseline: Side,
    /// Pairs where both sides' evaluations succeeded.
    pub pairs: u32,
    /// Mean of recommendation minus baseline over the pairs.
    pub difference: f64,
    /// The difference's standard error.
    pub difference_se: f64,
    /// Two-sided paired t-test; `None` with fewer than two pairs.
    pub p: Option<f64>,
    /// The recommendation is the baseline itself (a race kept it): one side was
    /// evaluated and stands for both. Written only when true, so that a verdict's
    /// file reads as before otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_point: bool,
    /// How the recommendation compares.
    pub outcome: Outcome,
    /// The verdict in one plain sentence.
    pub sentence: String,
}

/// What the baseline is: the problem's own, or a point of the run's space.
pub enum BaselineSource<'a> {
    /// The problem's own ([`Problem::baseline`]).
    Own,
    /// A point of the run's space.
    Point(&'a [f64]),
}

/// Everything the verdict needs to know of a run.
pub struct Judge<'a> {
    /// The run's search space (a user space binds to the problem's).
    pub space: &'a Space,
    /// The problem evaluated.
    pub problem: &'a dyn Problem,
    /// Evaluations of a failed point again before it counts as failed.
    pub retries: u32,
    /// The run's seed; the verdict's seeds derive from it.
    pub seed: u64,
    /// Evaluations of each side.
    pub evaluations: u32,
}

impl Judge<'_> {
    /// The verdict on `values` (a point of the run's space), trial `trial`'s
    /// recommendation, against `baseline`.
    pub fn judge(
        &self,
        values: &[f64],
        trial: u64,
        baseline: BaselineSource,
        progress: &(dyn Fn() + Sync),
    ) -> Result<Verdict, RunError> {
        self.judge_with(values, trial, baseline, progress, None)
    }

    /// [`Judge::judge`], taking every evaluation `log` holds from it and appending
    /// every other to it as it finishes.
    fn judge_with(
        &self,
        values: &[f64],
        trial: u64,
        baseline: BaselineSource,
        progress: &(dyn Fn() + Sync),
        log: Option<&VerdictLog>,
    ) -> Result<Verdict, RunError> {
        if self.evaluations == 0 {
            return Err(RunError::Config(
                "a verdict needs at least one evaluation of each side".into(),
            ));
        }
        let binding = Binding::new(self.space, self.problem.space())
            .map_err(|e| RunError::Config(e.message))?;
        let full = |v: &[f64]| {
            let mut out = Vec::new();
            binding.full_point(v, &mut out);
            out
        };
        let rec_point = full(values);
        let same_point = match baseline {
            BaselineSource::Own => {
                playtune_optim::eval::own_baseline_point(self.problem, self.space, &binding)
                    .is_some_and(|b| b == values)
            }
            BaselineSource::Point(p) => p == values,
        };
        let (base_label, base_settings, base_point) = match baseline {
            BaselineSource::Own => {
                let b = self.problem.baseline().ok_or_else(|| {
                    RunError::Config(
                        "this problem has no baseline of its own: name a point to judge against"
                            .into(),
                    )
                })?;
                (b.label, b.settings, None)
            }
            BaselineSource::Point(p) => (
                "the baseline point".to_string(),
                self.space.render(p),
                Some(full(p)),
            ),
        };
        let seeds: Vec<u64> = (0..u64::from(self.evaluations))
            .map(|k| derive_seed(self.seed, &[VERDICT_STREAM, trial, k]))
            .collect();
        // Both sides' evaluations at once: (side, k), side 0 the recommendation; one
        // side when they are one point (the same seed plays the same games).
        let sides = if same_point { 1 } else { 2 };
        let jobs: Vec<(usize, usize)> = (0..sides)
            .flat_map(|side| (0..seeds.len()).map(move |k| (side, k)))
            .collect();
        let outcomes: Vec<Result<Result<Evaluation, String>, RunError>> = jobs
            .par_iter()
            .map(|&(side, k)| {
                let point = match side {
                    0 => Some(rec_point.as_slice()),
                    _ => base_point.as_deref(),
                };
                let logged = log.and_then(|l| l.get(trial, k as u64, self.seed, point));
                let out = match (logged, point) {
                    (Some(out), _) => out,
                    (None, point) => {
                        let out = match point {
                            Some(p) => {
                                evaluate_with_retries(self.problem, p, seeds[k], self.retries).0
                            }
                            None => {
                                with_retries(self.retries, || {
                                    self.problem.evaluate_baseline(seeds[k])
                                })
                                .0
                            }
                        };
                        if let Some(l) = log {
                            l.append(trial, k as u64, self.seed, point, &out)?;
                        }
                        out
                    }
                };
                for _ in sides..=2 {
                    progress();
                }
                Ok(out)
            })
            .collect();
        let outcomes: Vec<Result<Evaluation, String>> =
            outcomes.into_iter().collect::<Result<_, _>>()?;
        let (rec, base) = if same_point {
            (&outcomes[..], &outcomes[..])
        } else {
            outcomes.split_at(seeds.len())
        };
        let names = self.problem.feature_names();
        let checks = Check::resolve(&self.space.constraints, &names, |n| {
            self.problem.feature_range(n)
        })
        .map_err(RunError::Optimizer)?;
        let recommendation = side(
            "the recommendation".into(),
            self.space.render(values),
            rec,
            &names,
            &checks,
            self.problem,
        );
        let baseline = side(
            base_label,
            base_settings,
            base,
            &names,
            &checks,
            self.problem,
        );
        let diffs: Vec<f64> = recommendation
            .fitness
            .iter()
            .zip(&baseline.fitness)
            .filter_map(|(a, b)| Some((*a)? - (*b)?))
            .collect();
        let d = Summary::of(&diffs);
        let p = paired_t_p(&d);
        let outcome = match p {
            Some(p) if p < LEVEL && d.mean > 0.0 => Outcome::Better,
            Some(p) if p < LEVEL && d.mean < 0.0 => Outcome::Worse,
            _ => Outcome::NoBetter,
        };
        let mut verdict = Verdict {
            fitness: self.problem.fitness_name().to_string(),
            evaluations: self.evaluations,
            pairs: diffs.len() as u32,
            difference: d.mean,
            difference_se: d.se(),
            p,
            same_point,
            outcome,
            sentence: String::new(),
            recommendation,
            baseline,
        };
        verdict.sentence = sentence(&verdict);
        Ok(verdict)
    }
}

/// Judges every trial of a finished run in folder `dir` against `baseline` (a point of
/// the run's space, or the problem's own with `None`) with `evaluations` a side, stores
/// each verdict in its trial and the run's `result.ron`, and returns whether it judged:
/// a MAP-Elites archive, a problem without a baseline, or 0 evaluations are not.
/// `progress` is called after every evaluation.
pub fn judge_run(
    dir: &std::path::Path,
    config: &super::RunConfig,
    problem: &dyn Problem,
    result: &mut super::RunResult,
    evaluations: u32,
    baseline: Option<&[f64]>,
    progress: &(dyn Fn() + Sync),
) -> Result<bool, RunError> {
    judge_run_as(
        dir,
        config,
        problem,
        result,
        evaluations,
        baseline,
        progress,
    )
}

/// [`judge_run`] of a run whatever its optimiser.
pub(crate) fn judge_run_as<A: super::Algorithm>(
    dir: &std::path::Path,
    config: &super::RunConfig<A>,
    problem: &dyn Problem,
    result: &mut super::RunResult,
    evaluations: u32,
    baseline: Option<&[f64]>,
    progress: &(dyn Fn() + Sync),
) -> Result<bool, RunError> {
    super::check_game(config, problem)?;
    if evaluations == 0
        || !config.algorithm.judged()
        || (baseline.is_none() && problem.baseline().is_none())
    {
        return Ok(false);
    }
    let judge = Judge {
        space: &config.space,
        problem,
        retries: config.faults.retries,
        seed: config.seed,
        evaluations,
    };
    let log = VerdictLog::open(dir)?;
    for t in result.trials.iter_mut() {
        let source = match baseline {
            Some(p) => BaselineSource::Point(p),
            None => BaselineSource::Own,
        };
        t.verdict = Some(judge.judge_with(&t.values, t.trial, source, progress, Some(&log))?);
    }
    result.refresh_final_value();
    let path = dir.join(super::RESULT_FILE);
    result
        .write(&path)
        .map_err(|e| RunError::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(true)
}

/// One side from its outcomes.
fn side(
    label: String,
    settings: Vec<(String, String)>,
    outcomes: &[Result<Evaluation, String>],
    names: &[String],
    checks: &[Check],
    problem: &dyn Problem,
) -> Side {
    let ok: Vec<&Evaluation> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
    // The pooled fitness's terms where the problem pools otherwise than by the mean
    // (a skill depth), each evaluation's fitness elsewhere.
    let mut terms = problem
        .pooled_terms(&ok)
        .unwrap_or_else(|| ok.iter().map(|e| e.fitness).collect())
        .into_iter();
    let fitness: Vec<Option<f64>> = outcomes
        .iter()
        .map(|o| o.as_ref().ok().and_then(|_| terms.next()))
        .collect();
    let s = Summary::of(&fitness.iter().flatten().copied().collect::<Vec<_>>());
    let features: Vec<FeatureMean> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let values: Vec<f64> = ok
                .iter()
                .filter_map(|e| e.features.get(i).copied())
                .filter(|v| !v.is_nan())
                .collect();
            let f = Summary::of(&values);
            FeatureMean {
                name: name.clone(),
                mean: if values.is_empty() { f64::NAN } else { f.mean },
                se: f.se(),
            }
        })
        .collect();
    let means: Vec<f64> = features.iter().map(|f| f.mean).collect();
    let broken = if ok.is_empty() {
        Vec::new()
    } else {
        checks
            .iter()
            .filter(|c| violation(std::slice::from_ref(c), &means) > 0.0)
            .map(|c| c.constraint.to_string())
            .collect()
    };
    Side {
        label,
        settings,
        mean: if ok.is_empty() { f64::NAN } else { s.mean },
        se: s.se(),
        fitness,
        features,
        broken,
        failure: outcomes.iter().find_map(|o| o.as_ref().err().cloned()),
    }
}

/// Two-sided p of a paired t-test of mean 0 over the differences summarised in `d`;
/// `None` with fewer than two. Differences all 0: p 1.
fn paired_t_p(d: &Summary) -> Option<f64> {
    if d.n >= 2 && d.se() == 0.0 && d.mean == 0.0 {
        return Some(1.0);
    }
    let above = playtune_optim::stats::t_test_above_zero(d)?;
    Some((2.0 * above.min(1.0 - above)).min(1.0))
}

/// The words for better and worse of a fitness.
fn comparatives(fitness: &str) -> (&'static str, &'static str) {
    match fitness {
        "skill depth" => ("deeper", "shallower"),
        "win rate" => ("stronger", "weaker"),
        _ => ("better", "worse"),
    }
}

/// The verdict in one plain sentence.
fn sentence(v: &Verdict) -> String {
    let (better, worse) = comparatives(&v.fitness);
    let base = &v.baseline.label;
    let figures = format!(
        "{} {:.3} ± {:.3} against {:.3} ± {:.3}, difference {:+.3} ± {:.3}{} over {} paired evaluations on fresh seeds",
        v.fitness,
        v.recommendation.mean,
        v.recommendation.se,
        v.baseline.mean,
        v.baseline.se,
        v.difference,
        v.difference_se,
        v.p.map(|p| format!(", p = {}", p_text(p)))
            .unwrap_or_default(),
        v.pairs
    );
    let mut out = if v.pairs == 0 {
        format!(
            "No verdict: no evaluation of both the recommendation and {base} succeeded ({}).",
            v.recommendation
                .failure
                .as_ref()
                .or(v.baseline.failure.as_ref())
                .map_or("no reason given", |s| s.as_str())
        )
    } else {
        match v.outcome {
            _ if v.same_point => format!(
                "The recommendation is {base}: the search measured nothing better at this budget ({} {:.3} ± {:.3} over {} evaluations on fresh seeds).",
                v.fitness, v.recommendation.mean, v.recommendation.se, v.pairs
            ),
            Outcome::Better => format!(
                "The recommendation is {better} than {base} by {:.3} ± {:.3} ({figures}).",
                v.difference, v.difference_se
            ),
            Outcome::Worse => format!(
                "The recommendation is {worse} than {base} by {:.3} ± {:.3} ({figures}): keep {base}, or search longer.",
                -v.difference, v.difference_se
            ),
            Outcome::NoBetter => {
                // What the test shows: no difference at LEVEL, which is not "no better"
                // (+0.06 at p = 0.11 may well be better, unshown at this budget).
                format!(
                    "The recommendation is not shown {better} than {base} at this budget ({figures}); more evaluations measure more finely."
                )
            }
        }
    };
    if !v.recommendation.broken.is_empty() {
        out += &format!(
            " On fresh seeds it breaks {}.",
            v.recommendation.broken.join(", ")
        );
    }
    out
}

fn p_text(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

#[cfg(test)]
mod tests;
