//! `result.ron`: what a run found.

use super::RunError;
use super::{RunConfig, Spent};
use playtune_optim::eval::{Binding, Problem};
use playtune_optim::optim::Optimizer;
use playtune_optim::optim::map_elites::{AnyArchive, Metrics};
use playtune_optim::space::Space;
use playtune_optim::stats::Summary;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The recommendation after some evaluations: one point of a convergence curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Evaluations of the trial so far.
    pub evaluations: u64,
    /// The optimiser's estimate of its recommendation's fitness.
    pub estimate: f64,
    /// The recommendation's noise-free fitness, for benchmarks that know it.
    pub true_fitness: Option<f64>,
}

impl Checkpoint {
    /// The optimiser's recommendation after `evaluations`; `None` while it has none
    /// with a finite estimate (every evaluation so far failed): a convergence curve
    /// starts at its first measured point, and no file holds an infinite estimate.
    pub fn new(
        evaluations: u64,
        opt: &dyn Optimizer,
        problem: &dyn Problem,
        binding: &Binding,
    ) -> Option<Checkpoint> {
        let rec = opt.recommend();
        if !rec.estimate.is_finite() {
            return None;
        }
        let mut full = Vec::new();
        binding.full_point(&rec.values, &mut full);
        Some(Checkpoint {
            evaluations,
            estimate: rec.estimate,
            true_fitness: problem.true_fitness(&full),
        })
    }
}

/// One trial's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialResult {
    /// The trial, from 0.
    pub trial: u64,
    /// The recommended point by dimension name, as a person reads it.
    pub recommendation: Vec<(String, String)>,
    /// The same point as numbers, in the space's order.
    pub values: Vec<f64>,
    /// The optimiser's estimate of the recommendation's fitness.
    pub estimate: f64,
    /// The estimate's standard error.
    pub estimate_se: f64,
    /// Evaluations the estimate is made of.
    pub estimate_samples: u64,
    /// Noise-free fitness of the recommendation, for benchmarks that know it.
    pub true_fitness: Option<f64>,
    /// Whether the recommendation is optimal, for benchmarks that know.
    pub optimal: Option<bool>,
    /// Evaluations spent, by phase.
    pub spent: Spent,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The archive, for a quality-diversity optimiser.
    pub archive: Option<AnyArchive>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// The archive's metrics after every batch.
    pub history: Vec<Metrics>,
    /// The recommendation at about 20 points of the trial.
    #[serde(default)]
    pub trace: Vec<Checkpoint>,
    /// For a run held to constraints: feasible and infeasible evaluations, and
    /// whether the recommendation is feasible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feasibility: Option<playtune_optim::optim::constrained::Feasibility>,
    /// The recommendation against the baseline on fresh seeds ([`super::verdict`]),
    /// where the run was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<super::verdict::Verdict>,
    /// Where the recommendation is the problem's baseline (a race kept it), the
    /// search's best other point, in the space's order: the verdict judges it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<Vec<f64>>,
}

impl TrialResult {
    /// The outcome of a trial whose optimiser is `opt`.
    pub(crate) fn new(
        trial: u64,
        opt: &dyn Optimizer,
        space: &Space,
        problem: &dyn Problem,
        binding: &Binding,
        spent: Spent,
        trace: Vec<Checkpoint>,
    ) -> TrialResult {
        let rec = opt.recommend();
        let mut full = Vec::new();
        binding.full_point(&rec.values, &mut full);
        TrialResult {
            trial,
            recommendation: space.render(&rec.values),
            true_fitness: problem.true_fitness(&full),
            optimal: problem.is_optimal(&full),
            values: rec.values,
            estimate: rec.estimate,
            estimate_se: rec.se,
            estimate_samples: rec.samples,
            spent,
            archive: opt.archive().cloned(),
            history: opt.metrics_history().to_vec(),
            trace,
            feasibility: opt.feasibility(),
            verdict: None,
            alternative: opt.alternative(),
        }
    }

    /// The value `compare` uses: the true fitness when the problem knows it, else the
    /// verdict's fresh measurement of the recommendation where the run was judged,
    /// else the optimiser's estimate (MAP-Elites: the QD score).
    pub fn final_value(&self) -> f64 {
        if let Some(m) = self.history.last() {
            return m.qd_score;
        }
        if let Some(f) = self.true_fitness {
            return f;
        }
        match &self.verdict {
            Some(v) if v.recommendation.mean.is_finite() => v.recommendation.mean,
            _ => self.estimate,
        }
    }

    /// Whether [`TrialResult::final_value`] is a measurement (a true fitness, a
    /// verdict's fresh mean, a QD score) rather than an optimiser's estimate.
    pub fn final_value_measured(&self) -> bool {
        !self.history.is_empty()
            || self.true_fitness.is_some()
            || self
                .verdict
                .as_ref()
                .is_some_and(|v| v.recommendation.mean.is_finite())
    }
}

/// All trials of a run, with an overview.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// The version of playtune that ran it.
    pub playtune_version: String,
    /// The optimiser's name.
    pub algorithm: String,
    /// The problem's name.
    pub problem: String,
    /// Every trial's outcome, in trial order.
    pub trials: Vec<TrialResult>,
    /// Mean and standard error of the trials' final values.
    pub final_value: Summary,
    /// Share of trials whose recommendation is optimal, for benchmarks that know.
    pub success_rate: Option<f64>,
    /// Evaluations spent over all trials, by phase.
    pub spent: Spent,
    /// Wall-clock seconds of the search itself (asking, evaluating, telling, logging),
    /// not saved: the files of a run do not depend on the machine's speed.
    #[serde(skip)]
    pub search_seconds: f64,
}

impl RunResult {
    pub(crate) fn new<A: super::Algorithm>(
        config: &RunConfig<A>,
        trials: Vec<TrialResult>,
    ) -> RunResult {
        let values: Vec<f64> = trials.iter().map(|t| t.final_value()).collect();
        let optimal: Vec<bool> = trials.iter().filter_map(|t| t.optimal).collect();
        let success_rate = (optimal.len() == trials.len() && !trials.is_empty())
            .then(|| optimal.iter().filter(|&&o| o).count() as f64 / trials.len() as f64);
        let mut spent = Spent::default();
        for t in &trials {
            spent.search += t.spent.search;
            spent.preprocess += t.spent.preprocess;
            spent.select += t.spent.select;
            spent.race += t.spent.race;
            spent.reevaluate += t.spent.reevaluate;
            spent.reused += t.spent.reused;
            spent.failed += t.spent.failed;
        }
        RunResult {
            playtune_version: config.playtune_version.clone(),
            algorithm: config.algorithm.optimizer_name(),
            problem: config.problem.name.clone(),
            final_value: Summary::of(&values),
            success_rate,
            spent,
            trials,
            search_seconds: 0.0,
        }
    }

    /// Recomputes the summary of the trials' final values (after verdicts are added).
    pub(crate) fn refresh_final_value(&mut self) {
        let values: Vec<f64> = self.trials.iter().map(|t| t.final_value()).collect();
        self.final_value = Summary::of(&values);
    }

    /// Writes the result to `path` whole or not at all ([`super::lock::write_whole`]):
    /// a full disk or a kill leaves the file that was there.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text =
            ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default().depth_limit(4))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
        super::lock::write_whole(path, text)
    }
}

/// Reads a run's `result.ron`, checked: every number finite where the run writes a
/// finite one, the archive's cells inside its grid, and the trials those of the run's
/// `config.ron` (when it reads). A damaged file is refused with the field that is
/// wrong.
pub fn read_result(dir: &Path) -> Result<RunResult, RunError> {
    let path = dir.join(super::RESULT_FILE);
    let text = super::files::read_plain_text(&path).map_err(|e| {
        RunError::Io(format!(
            "{}: {e} (did the run finish? {})",
            path.display(),
            super::how_to_finish(dir)
        ))
    })?;
    let mut r: RunResult =
        ron::from_str(&text).map_err(|e| RunError::Io(super::ron_error(&path, &e)))?;
    // A result is read with the configuration it answers: a missing, garbage or edited
    // config.ron is named, never passed over.
    let checked = match super::read_config(dir) {
        Ok(config) => check_result(&r, Some(&config)),
        // A run of an optimiser of a program's own is read as any other.
        Err(RunError::OwnOptimizer { name, .. }) => {
            let own = super::OwnOptimizer {
                name,
                settings: String::new(),
            };
            check_result(&r, Some(&super::read_own_config(dir, &own)?))
        }
        Err(e) => return Err(e),
    };
    checked.map_err(|(field, why)| {
        RunError::Io(format!(
            "{}: {field}: {why} (the file is damaged or was edited: remove it, and {})",
            path.display(),
            super::how_to_finish(dir)
        ))
    })?;
    for t in &mut r.trials {
        if let Some(a) = &mut t.archive {
            a.reindex();
        }
    }
    Ok(r)
}

/// Why a result cannot be what a run wrote: the field, and what is wrong with it.
type Wrong = (String, String);

fn finite(field: impl Fn() -> String, v: f64) -> Result<(), Wrong> {
    if v.is_finite() {
        Ok(())
    } else {
        Err((field(), format!("{v} is not a finite number")))
    }
}

/// Not infinite: NaN stands for "no estimate yet" where a run writes one.
fn not_infinite(field: impl Fn() -> String, v: f64) -> Result<(), Wrong> {
    if v.is_infinite() {
        Err((field(), format!("{v} is not a finite number")))
    } else {
        Ok(())
    }
}

/// The checks of [`read_result`], against `config` when there is one.
pub(crate) fn check_result<A>(r: &RunResult, config: Option<&RunConfig<A>>) -> Result<(), Wrong> {
    if let Some(c) = config
        && r.trials.len() as u64 != c.trials
    {
        return Err((
            "trials".into(),
            format!(
                "{} trial(s), but config.ron has trials: {}",
                r.trials.len(),
                c.trials
            ),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    let mut spent = Spent::default();
    for (k, t) in r.trials.iter().enumerate() {
        let at = |f: &str| format!("trials[{k}].{f}");
        if !seen.insert(t.trial) || t.trial >= r.trials.len() as u64 {
            return Err((
                at("trial"),
                format!(
                    "trial {} twice or beyond the {} trial(s)",
                    t.trial,
                    r.trials.len()
                ),
            ));
        }
        if let Some(c) = config
            && t.values.len() != c.space.len()
        {
            return Err((
                at("values"),
                format!(
                    "{} values for a space of {} dimensions",
                    t.values.len(),
                    c.space.len()
                ),
            ));
        }
        for (i, &v) in t.values.iter().enumerate() {
            finite(|| at(&format!("values[{i}]")), v)?;
        }
        // A recommendation outside the space is no point of this run: nothing may
        // evaluate or report it.
        if let Some(c) = config
            && let Some((i, d)) = t
                .values
                .iter()
                .zip(&c.space.dims)
                .position(|(&v, d)| !d.domain.admits(v))
                .map(|i| (i, &c.space.dims[i]))
        {
            return Err((
                at(&format!("values[{i}]")),
                format!(
                    "{} is not a value of dimension `{}` ({})",
                    t.values[i],
                    d.name,
                    d.domain.describe()
                ),
            ));
        }
        // A NaN estimate is what a trial without a fitness to go by writes: one whose
        // evaluations failed, or with no evaluation of exactly its recommendation.
        let no_estimate = t.spent.failed > 0 || t.estimate_samples == 0;
        if no_estimate {
            not_infinite(|| at("estimate"), t.estimate)?;
            not_infinite(|| at("estimate_se"), t.estimate_se)?;
        } else {
            finite(|| at("estimate"), t.estimate)?;
            finite(|| at("estimate_se"), t.estimate_se)?;
        }
        if t.estimate_se < 0.0 {
            return Err((at("estimate_se"), format!("{} is below 0", t.estimate_se)));
        }
        if let Some(v) = t.true_fitness {
            finite(|| at("true_fitness"), v)?;
        }
        for (i, c) in t.trace.iter().enumerate() {
            not_infinite(|| at(&format!("trace[{i}].estimate")), c.estimate)?;
            if let Some(v) = c.true_fitness {
                finite(|| at(&format!("trace[{i}].true_fitness")), v)?;
            }
        }
        for (i, m) in t.history.iter().enumerate() {
            let h = |f: &str| at(&format!("history[{i}].{f}"));
            finite(|| h("coverage"), m.coverage)?;
            if !(0.0..=1.0).contains(&m.coverage) {
                return Err((
                    h("coverage"),
                    format!("{} is not a share from 0 to 1", m.coverage),
                ));
            }
            finite(|| h("qd_score"), m.qd_score)?;
            not_infinite(|| h("max_fitness"), m.max_fitness)?;
            not_infinite(|| h("mean_fitness"), m.mean_fitness)?;
        }
        if let Some(a) = &t.archive {
            check_archive(a).map_err(|(f, why)| (at(&format!("archive.{f}")), why))?;
        }
        let s = &t.spent;
        if s.failed > s.total() {
            return Err((
                at("spent.failed"),
                format!("{} failed of {} evaluations", s.failed, s.total()),
            ));
        }
        spent.search += s.search;
        spent.preprocess += s.preprocess;
        spent.select += s.select;
        spent.race += s.race;
        spent.reevaluate += s.reevaluate;
        spent.failed += s.failed;
    }
    if spent != r.spent {
        return Err((
            "spent".into(),
            format!("{:?} is not the sum of the trials' {:?}", r.spent, spent),
        ));
    }
    let fv = &r.final_value;
    if fv.n != r.trials.len() as u64 {
        return Err((
            "final_value".into(),
            format!(
                "over {} trial(s), but the file has {}",
                fv.n,
                r.trials.len()
            ),
        ));
    }
    let values: Vec<f64> = r.trials.iter().map(TrialResult::final_value).collect();
    let expected = Summary::of(&values);
    let close = |a: f64, b: f64| {
        (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    };
    if !close(fv.mean, expected.mean) || !close(fv.se(), expected.se()) {
        return Err((
            "final_value".into(),
            format!(
                "mean {} ± {} is not the trials' {} ± {}",
                fv.mean,
                fv.se(),
                expected.mean,
                expected.se()
            ),
        ));
    }
    if let Some(rate) = r.success_rate
        && !(0.0..=1.0).contains(&rate)
    {
        return Err((
            "success_rate".into(),
            format!("{rate} is not a share from 0 to 1"),
        ));
    }
    Ok(())
}

/// An archive's axes, cells and elites: what its index is rebuilt from.
fn check_archive(a: &AnyArchive) -> Result<(), Wrong> {
    use playtune_optim::optim::map_elites::{Archive, check_axis};
    for (i, axis) in a.axes().iter().enumerate() {
        check_axis(axis).map_err(|e| (format!("axes[{i}]"), e.to_string()))?;
    }
    // Cells per coordinate, and the archive's size.
    let (sizes, cells): (Vec<usize>, Option<usize>) = match a {
        AnyArchive::Grid(g) => {
            let extra = if g.overflow_bins { 2 } else { 0 };
            let sizes: Vec<usize> = g.axes.iter().map(|x| x.bins + extra).collect();
            let cells = sizes.iter().try_fold(1usize, |n, &b| n.checked_mul(b));
            (sizes, cells)
        }
        AnyArchive::Cvt(c) => {
            if let Some(i) = c.centroids.iter().position(|p| p.len() != c.axes.len()) {
                return Err((
                    format!("centroids[{i}]"),
                    format!("not {} coordinates", c.axes.len()),
                ));
            }
            (vec![c.centroids.len()], Some(c.centroids.len()))
        }
    };
    if cells.is_none_or(|n| n > 1 << 26) {
        return Err(("axes".into(), "more cells than an archive can have".into()));
    }
    let mut taken = std::collections::HashSet::new();
    for (i, e) in a.elites().iter().enumerate() {
        let at = |f: &str| format!("elites[{i}].{f}");
        if e.cell.len() != sizes.len() || e.cell.iter().zip(&sizes).any(|(&c, &n)| c >= n) {
            return Err((
                at("cell"),
                format!("{:?} is not a cell of the archive", e.cell),
            ));
        }
        if !taken.insert(&e.cell) {
            return Err((at("cell"), format!("{:?} holds two elites", e.cell)));
        }
        finite(|| at("fitness"), e.fitness)?;
        for (k, &v) in e.values.iter().enumerate() {
            finite(|| at(&format!("values[{k}]")), v)?;
        }
        for (k, &v) in e.features.iter().enumerate() {
            finite(|| at(&format!("features[{k}]")), v)?;
        }
    }
    Ok(())
}
