//! The verdict: a run's recommendation played beside a baseline (the game's own rules,
//! the untuned agent, or a point the user names) on seeds the search never used, the
//! same seeds for both, so that a designer learns whether the answer is better than
//! what they had, by how much, and how sure that is, not the optimiser's estimate.
//!
//! Evaluation `k` of each side is played with the seed
//! `derive_seed(seed, [VERDICT_STREAM, trial, k])`. One seed plays the same deals,
//! maps and seats for both (common random numbers), so the difference is measured
//! paired. A run started since 2026-11-29 plays pairs until one answer is shown
//! ([`playtune_optim::stats::sequential`]): better by more than a margin, worse by
//! more than it, equal within it, or the cap reached, at stated error rates
//! ([`ALPHA`], [`BETA`]). A run started before plays a fixed `n` pairs and reports a
//! two-sided paired t-test: "better" (deeper, stronger) only when it puts the
//! difference above 0 at the level 0.01, "worse" only below, and otherwise that the
//! recommendation is not shown better than the baseline at this budget.
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
use playtune_optim::stats::sequential::{self, Decision, Sequence, SequentialPlan};
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

/// The chance that a verdict that plays until it decides calls equal sides different,
/// each way: strict, as the fixed verdict's level (0.01) is.
pub const ALPHA: f64 = 0.01;

/// The chance that it misses a difference of the margin, or calls it equal.
pub const BETA: f64 = 0.05;

/// A fixed-size verdict's evaluations of each side when the user gives none (a run
/// started before verdicts played until they decide): an eighth of the search budget,
/// at least 10 and at most 200.
pub(crate) fn default_evaluations(budget: u64) -> u32 {
    (budget / 8).clamp(10, 200) as u32
}

/// The most pairs a verdict that plays until it decides plays when the user gives no
/// cap: as many as the search's budget, at least 40 and at most 1,000, so that the
/// verdict at most doubles a run's games. Most verdicts decide well before it
/// (docs/design.md#the-verdict-the-answer-against-what-you-had).
pub(crate) fn default_cap(budget: u64) -> u32 {
    budget.clamp(40, 1000) as u32
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
    /// Evaluations a side, the most where `margin` is given; 0: no verdict.
    pub evaluations: u32,
    /// The baseline as a point of the run's space; absent: the problem's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Vec<f64>>,
    /// The smallest difference worth telling from none: the verdict plays pairs until
    /// it shows the sides differ by it, or are equal within it, or reaches
    /// `evaluations`. Absent (a run started before 2026-11-29, or a problem with no
    /// margin of its own and none given): a fixed `evaluations` pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
}

/// How a run's verdict plays: its evaluations a side (the most, where it plays until
/// it decides), its margin, and its baseline point.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Evaluations a side: the cap with a margin, else the fixed count.
    pub evaluations: u32,
    /// The margin, where the verdict plays until it decides.
    pub margin: Option<f64>,
    /// The baseline as a point of the run's space; `None`: the problem's own.
    pub baseline: Option<Vec<f64>>,
}

impl VerdictSettings {
    /// A new run's verdict: `evaluations` (the cap) or the default for `budget`, the
    /// `margin` given or the problem's own ([`Problem::verdict_margin`]), the baseline
    /// given. Every front end creates a run's settings here, so that all judge alike.
    pub fn for_new_run(
        problem: &dyn Problem,
        budget: u64,
        evaluations: Option<u32>,
        margin: Option<f64>,
        baseline: Option<Vec<f64>>,
    ) -> Result<VerdictSettings, String> {
        if let Some(m) = margin {
            Self::check_margin(m)?;
        }
        let margin = margin.or_else(|| problem.verdict_margin());
        let evaluations = evaluations.unwrap_or_else(|| match margin {
            Some(_) => default_cap(budget),
            None => default_evaluations(budget),
        });
        Self::check_evaluations(evaluations)?;
        Ok(VerdictSettings {
            evaluations,
            baseline,
            margin,
        })
    }

    /// Checks a margin; the error says what to give.
    pub fn check_margin(m: f64) -> Result<(), String> {
        if m.is_finite() && m > 0.0 && m < 1e6 {
            Ok(())
        } else {
            Err(format!(
                "{m}: give a positive difference of the fitness, such as 0.05"
            ))
        }
    }

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
        let logged = dir.join(super::files::VERDICT_LOG_FILE).exists();
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

/// How a finished run of `config` is judged: `evaluations` where the caller gives them
/// (`resume --verdict N`), else what the run was started with, else the fixed default
/// for its budget (a run started before verdicts played until they decide).
pub fn planned<A>(config: &super::RunConfig<A>, evaluations: Option<u32>) -> Plan {
    let kept = config.verdict.as_ref();
    let margin = kept.and_then(|v| v.margin);
    let n = evaluations
        .or(kept.map(|v| v.evaluations))
        .unwrap_or_else(|| default_evaluations(config.budget));
    Plan {
        evaluations: n,
        margin,
        baseline: kept.and_then(|v| v.baseline.clone()),
    }
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
    /// Equal within the margin, with confidence (a verdict that plays until it
    /// decides).
    Equal,
    /// Neither: not shown better than the baseline at this budget (undecided at the
    /// cap, for a verdict that plays until it decides).
    NoBetter,
}

/// How a verdict that plays until it decides went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sequential {
    /// The smallest difference it tells from none.
    pub margin: f64,
    /// Its chance of calling equal sides different, each way.
    pub alpha: f64,
    /// Its chance of missing a difference of the margin.
    pub beta: f64,
    /// The most pairs it could play.
    pub cap: u32,
    /// Where it stopped undecided: the pairs in all that would decide the difference
    /// seen, at its spread; `None` when decided, or when no count would.
    pub pairs_to_decide: Option<u64>,
}

/// A recommendation judged against a baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What the fitness is ("skill depth", "win rate").
    pub fitness: String,
    /// Evaluations of each side played.
    pub evaluations: u32,
    /// How it played until it decided; absent for a fixed-size verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential: Option<Sequential>,
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
    /// The recommendation was the baseline (a race kept it), and the verdict judged
    /// the search's best other point against it instead: how far the search's best
    /// alternative stands. Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alternative: bool,
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
    /// Evaluations of each side: the most, where `margin` is given.
    pub evaluations: u32,
    /// Plays pairs until the sides are shown to differ by this, or to be equal within
    /// it, or `evaluations` is reached; `None`: `evaluations` pairs.
    pub margin: Option<f64>,
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

    /// The verdict on trial `trial`'s recommendation `values`, as a run's end gives it:
    /// where the race kept the problem's own baseline and left the search's best
    /// other point, `alternative`, that point is judged against the baseline instead
    /// (by a verdict that plays until it decides).
    pub fn recommendation(
        &self,
        values: &[f64],
        alternative: Option<&[f64]>,
        trial: u64,
        baseline: BaselineSource,
        progress: &(dyn Fn() + Sync),
    ) -> Result<Verdict, RunError> {
        self.recommendation_with(values, alternative, trial, baseline, progress, None)
    }

    /// [`Judge::recommendation`] through `log`, as [`Judge::judge_with`].
    fn recommendation_with(
        &self,
        values: &[f64],
        alternative: Option<&[f64]>,
        trial: u64,
        baseline: BaselineSource,
        progress: &(dyn Fn() + Sync),
        log: Option<&VerdictLog>,
    ) -> Result<Verdict, RunError> {
        // A race that kept the baseline leaves nothing to compare: judge the search's
        // best other point against it, so that the designer learns whether it is
        // shallower or as deep within the margin, not only that the race kept theirs.
        let alternative = alternative
            .filter(|_| self.margin.is_some() && matches!(baseline, BaselineSource::Own));
        let mut v = self.judge_with(
            alternative.unwrap_or(values),
            trial,
            baseline,
            progress,
            log,
        )?;
        if alternative.is_some() && !v.same_point {
            v.alternative = true;
            v.recommendation.label = "the search's best other answer".into();
            v.sentence = sentence(&v);
        }
        Ok(v)
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
        let plan = match self.margin {
            Some(m) => Some(SequentialPlan::new(m, ALPHA, BETA).ok_or_else(|| {
                RunError::Config(format!("verdict margin {m}: give a positive number"))
            })?),
            None => None,
        };
        // A fixed verdict looks once, at its size; one that plays until it decides
        // looks at fixed counts, so that it stops at the same pair on any number of
        // threads and after any interruption.
        let looks = match plan {
            Some(_) => sequential::looks(u64::from(self.evaluations)),
            None => vec![u64::from(self.evaluations)],
        };
        let mut sequence = plan.map(Sequence::new);
        // Both sides' evaluations, side 0 the recommendation; one side when they are
        // one point (the same seed plays the same games).
        let sides = if same_point { 1 } else { 2 };
        let mut played: [Vec<Result<Evaluation, String>>; 2] = [Vec::new(), Vec::new()];
        let names = self.problem.feature_names();
        let checks = Check::resolve(&self.space.constraints, &names, |n| {
            self.problem.feature_range(n)
        })
        .map_err(RunError::Optimizer)?;
        let mut judged = None;
        for n in looks {
            let have = played[0].len();
            let jobs: Vec<(usize, usize)> = (0..sides)
                .flat_map(|side| (have..n as usize).map(move |k| (side, k)))
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
            let mut outcomes = outcomes.into_iter();
            for side in played.iter_mut().take(sides) {
                for _ in have..n as usize {
                    side.push(outcomes.next().expect("one outcome a job")?);
                }
            }
            let (rec, base) = if same_point {
                (&played[0], &played[0])
            } else {
                (&played[0], &played[1])
            };
            let recommendation = side(
                "the recommendation".into(),
                self.space.render(values),
                rec,
                &names,
                &checks,
                self.problem,
            );
            let baseline = side(
                base_label.clone(),
                base_settings.clone(),
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
            let decision = sequence.as_mut().map(|q| q.look(&d).decision);
            judged = Some((recommendation, baseline, diffs.len(), d, n));
            if decision.is_some_and(|x| x != Decision::Undecided) {
                break;
            }
        }
        let (recommendation, baseline, pairs, d, n) =
            judged.expect("a verdict looks at least once");
        let p = paired_t_p(&d);
        let outcome = match (&sequence, p) {
            (Some(q), _) => match q.decision() {
                Decision::Better => Outcome::Better,
                Decision::Worse => Outcome::Worse,
                Decision::Equal => Outcome::Equal,
                Decision::Undecided => Outcome::NoBetter,
            },
            (None, Some(p)) if p < LEVEL && d.mean > 0.0 => Outcome::Better,
            (None, Some(p)) if p < LEVEL && d.mean < 0.0 => Outcome::Worse,
            _ => Outcome::NoBetter,
        };
        let sequential = match (plan, &sequence) {
            (Some(plan), Some(q)) => Some(Sequential {
                margin: plan.margin,
                alpha: plan.alpha,
                beta: plan.beta,
                cap: self.evaluations,
                pairs_to_decide: q.pairs_to_decide(&d),
            }),
            _ => None,
        };
        let mut verdict = Verdict {
            fitness: self.problem.fitness_name().to_string(),
            evaluations: n as u32,
            sequential,
            pairs: pairs as u32,
            alternative: false,
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
    let margin = config.verdict.as_ref().and_then(|v| v.margin);
    let log = VerdictLog::open(dir)?;
    for t in result.trials.iter_mut() {
        // A race that ended early (one survivor left) leaves evaluations of the
        // budget: a verdict that plays until it decides gets them, a pair for two.
        let left = config
            .race
            .as_ref()
            .map_or(0, |r| r.race_budget(config.budget))
            .saturating_sub(t.spent.race);
        let judge = Judge {
            space: &config.space,
            problem,
            retries: config.faults.retries,
            seed: config.seed,
            evaluations: match margin {
                Some(_) => evaluations
                    .saturating_add(u32::try_from(left / 2).unwrap_or(u32::MAX))
                    .min(MAX_EVALUATIONS),
                None => evaluations,
            },
            margin,
        };
        let source = match baseline {
            Some(p) => BaselineSource::Point(p),
            None => BaselineSource::Own,
        };
        t.verdict = Some(judge.recommendation_with(
            &t.values,
            t.alternative.as_deref(),
            t.trial,
            source,
            progress,
            Some(&log),
        )?);
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
        match &v.sequential {
            // A sequential test's p is no t-test's: its error rates are the plan's.
            Some(_) => String::new(),
            None =>
                v.p.map(|p| format!(", p = {}", p_text(p)))
                    .unwrap_or_default(),
        },
        v.pairs
    );
    // What a sequential verdict's answer rests on: its margin and error rates.
    let rates = v.sequential.as_ref().map(|q| {
        format!(
            "a sequential test with margin {}: at most {:.0}% of equal rules are called {better} or {worse}, at most {:.0}% of rules {} by the margin are missed",
            q.margin,
            q.alpha * 100.0,
            q.beta * 100.0,
            better
        )
    });
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
            Outcome::Better => match &rates {
                Some(r) => format!(
                    "The recommendation is {better} than {base} by {:.3} ± {:.3} ({figures}; {r}).",
                    v.difference, v.difference_se
                ),
                None => format!(
                    "The recommendation is {better} than {base} by {:.3} ± {:.3} ({figures}).",
                    v.difference, v.difference_se
                ),
            },
            Outcome::Worse => format!(
                "The recommendation is {worse} than {base} by {:.3} ± {:.3} ({figures}{}): keep {base}, or search longer.",
                -v.difference,
                v.difference_se,
                rates.as_ref().map(|r| format!("; {r}")).unwrap_or_default()
            ),
            Outcome::Equal => format!(
                "The recommendation is as {} as {base} within {} ({figures}; {}): what the search found differs from {base} by less than the margin.",
                as_much(&v.fitness),
                v.sequential.as_ref().map_or(0.0, |q| q.margin),
                rates.as_deref().unwrap_or_default()
            ),
            Outcome::NoBetter => match &v.sequential {
                Some(q) => format!(
                    "Undecided at the cap of {} pairs: the recommendation is not shown {better} than {base}, nor equal within {} ({figures}){}.",
                    q.cap,
                    q.margin,
                    match q.pairs_to_decide {
                        Some(n) => format!(
                            "; about {} more paired evaluations would decide a difference of this size (`playtune resume RUN --verdict {n}` plays them, keeping those played)",
                            n.saturating_sub(u64::from(v.pairs))
                        ),
                        None => "; the difference seen sits at half the margin, where no count of pairs decides: a finer margin (--margin) would".into(),
                    }
                ),
                // What the test shows: no difference at LEVEL, which is not "no better"
                // (+0.06 at p = 0.11 may well be better, unshown at this budget).
                None => format!(
                    "The recommendation is not shown {better} than {base} at this budget ({figures}); more evaluations measure more finely."
                ),
            },
        }
    };
    if !v.recommendation.broken.is_empty() {
        out += &format!(
            " On fresh seeds it breaks {}.",
            v.recommendation.broken.join(", ")
        );
    }
    if v.alternative {
        // Judged was the search's best other answer: the recommendation is the
        // baseline, which the race kept.
        out = format!(
            "The recommendation is {base}: the race kept it over the search's answers. {}",
            out.replacen(
                "The recommendation is",
                "The search's best other answer is",
                1
            )
            .replacen(
                "Undecided at the cap",
                "The search's best other answer is undecided at the cap",
                1
            )
            .replacen(": the recommendation is not shown", ": it is not shown", 1)
            .replacen(
                "On fresh seeds it breaks",
                "On fresh seeds that answer breaks",
                1
            )
        );
    }
    out
}

/// The adjective "as ... as" takes for a fitness.
fn as_much(fitness: &str) -> &'static str {
    match fitness {
        "skill depth" => "deep",
        "win rate" => "strong",
        _ => "good",
    }
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
