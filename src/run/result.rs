//! `result.ron`: what a run found.

use super::{RunConfig, Spent};
use crate::eval::{Binding, Problem};
use crate::optim::Optimizer;
use crate::optim::map_elites::{AnyArchive, Metrics};
use crate::space::Space;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The recommendation after some evaluations: one point of a convergence curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub evaluations: u64,
    pub estimate: f64,
    pub true_fitness: Option<f64>,
}

impl Checkpoint {
    pub fn new(
        evaluations: u64,
        opt: &dyn Optimizer,
        problem: &dyn Problem,
        binding: &Binding,
    ) -> Checkpoint {
        let rec = opt.recommend();
        let mut full = Vec::new();
        binding.full_point(&rec.values, &mut full);
        Checkpoint {
            evaluations,
            estimate: rec.estimate,
            true_fitness: problem.true_fitness(&full),
        }
    }
}

/// One trial's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialResult {
    pub trial: u64,
    /// The recommended point by dimension name, as a person reads it.
    pub recommendation: Vec<(String, String)>,
    /// The same point as numbers, in the space's order.
    pub values: Vec<f64>,
    /// The optimiser's estimate of the recommendation's fitness.
    pub estimate: f64,
    pub estimate_se: f64,
    pub estimate_samples: u64,
    /// Noise-free fitness of the recommendation, for benchmarks that know it.
    pub true_fitness: Option<f64>,
    pub optimal: Option<bool>,
    pub spent: Spent,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<AnyArchive>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Metrics>,
    /// The recommendation at about 20 points of the trial.
    #[serde(default)]
    pub trace: Vec<Checkpoint>,
}

impl TrialResult {
    pub fn new(
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
        }
    }

    /// The value `compare` uses: the true fitness when the problem knows it, else the
    /// optimiser's estimate (MAP-Elites: the QD score).
    pub fn final_value(&self) -> f64 {
        if let Some(m) = self.history.last() {
            return m.qd_score;
        }
        self.true_fitness.unwrap_or(self.estimate)
    }
}

/// All trials of a run, with an overview.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub playtune_version: String,
    pub algorithm: String,
    pub problem: String,
    pub trials: Vec<TrialResult>,
    /// Mean and standard error of the trials' final values.
    pub final_value: Summary,
    /// Share of trials whose recommendation is optimal, for benchmarks that know.
    pub success_rate: Option<f64>,
    pub spent: Spent,
    /// Wall-clock seconds of the search itself (asking, evaluating, telling, logging),
    /// not saved: the files of a run do not depend on the machine's speed.
    #[serde(skip)]
    pub search_seconds: f64,
}

impl RunResult {
    pub fn new(config: &RunConfig, trials: Vec<TrialResult>) -> RunResult {
        let values: Vec<f64> = trials.iter().map(|t| t.final_value()).collect();
        let optimal: Vec<bool> = trials.iter().filter_map(|t| t.optimal).collect();
        let success_rate = (optimal.len() == trials.len() && !trials.is_empty())
            .then(|| optimal.iter().filter(|&&o| o).count() as f64 / trials.len() as f64);
        let mut spent = Spent::default();
        for t in &trials {
            spent.search += t.spent.search;
            spent.preprocess += t.spent.preprocess;
            spent.select += t.spent.select;
            spent.reevaluate += t.spent.reevaluate;
            spent.reused += t.spent.reused;
            spent.failed += t.spent.failed;
        }
        RunResult {
            playtune_version: config.playtune_version.clone(),
            algorithm: config.algorithm.name().into(),
            problem: config.problem.name.clone(),
            final_value: Summary::of(&values),
            success_rate,
            spent,
            trials,
            search_seconds: 0.0,
        }
    }

    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text =
            ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default().depth_limit(4))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
        std::fs::write(path, text)
    }
}

/// Reads a run's `result.ron`.
pub fn read_result(dir: &Path) -> Result<RunResult, String> {
    let path = dir.join(super::RESULT_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e} (did the run finish? {})",
            path.display(),
            super::how_to_finish(dir)
        )
    })?;
    let mut r: RunResult = ron::from_str(&text).map_err(|e| super::ron_error(&path, &e))?;
    for t in &mut r.trials {
        if let Some(a) = &mut t.archive {
            a.reindex();
        }
    }
    Ok(r)
}
