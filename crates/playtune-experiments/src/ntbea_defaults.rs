//! How playtune chose NTBEA's defaults: NTBEA tunes NTBEA.
//!
//! 1. Tuning: NTBEA searches NTBEA's own settings (the `ntbea-suite` problem: fitness
//!    is the mean score over a suite of noisy benchmarks, a few runs per
//!    benchmark per evaluation). An ordinary, resumable run folder.
//! 2. Validation: every tuning trial's recommendation, today's defaults and the
//!    settings users compare against (the paper's, the Java reference's) run many more
//!    times on every benchmark, all with the same seeds, so the rows differ only by
//!    their settings. The best mean is what the defaults should be.

use super::Error;
use playtune::optim::AlgoConfig;
use playtune::optim::ntbea::suite::{case_scores, config_of, settings_space, standard_suite};
use playtune::optim::ntbea::{FitnessScale, NtbeaConfig, RecommendFrom, TupleSet};
use playtune::registry::build_problem;
use playtune::rng::derive_seed;
use playtune::run::{self, ProblemSpec, RunConfig};
pub use playtune_exec::{BoxError, Executor, Search, SearchOptions, Task, map};
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct DefaultsConfig {
    pub(crate) name: String,
    /// Evaluations of each tuning run.
    pub(crate) tuning_budget: u64,
    /// Independent tuning runs.
    pub(crate) tuning_runs: u64,
    /// NTBEA runs per benchmark behind one tuning evaluation.
    pub(crate) runs_per_evaluation: u64,
    /// NTBEA runs per benchmark behind each validated row.
    pub(crate) validation_runs: u64,
    pub(crate) seed: u64,
}

/// One validated configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ValidationRow {
    pub(crate) label: String,
    pub(crate) config: NtbeaConfig,
    /// Success rate per benchmark, in the suite's order.
    pub(crate) scores: Vec<f64>,
    pub(crate) mean: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct DefaultsResult {
    pub(crate) config: DefaultsConfig,
    pub(crate) benchmarks: Vec<String>,
    pub(crate) rows: Vec<ValidationRow>,
    /// Index of the row with the best mean among the tuned recommendations and the
    /// one-step changes of the best of them: what the defaults should be.
    pub(crate) best: usize,
}

/// Validated rows kept beside the experiment, for the validation runs and seed of `key`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ValidationCache {
    key: (u64, u64),
    rows: Vec<ValidationRow>,
}

/// One NTBEA configuration's scores over the standard suite, `runs` runs per
/// benchmark, seeded from `seed` alone (the same for every configuration).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SuiteValidation {
    pub(crate) config: NtbeaConfig,
    pub(crate) runs: u64,
    pub(crate) seed: u64,
}

impl Task for SuiteValidation {
    const KIND: &'static str = "ntbea-suite-validation";
    type Output = Vec<f64>;
    fn run(&self) -> Result<Vec<f64>, BoxError> {
        Ok(case_scores(
            &standard_suite(),
            &self.config,
            self.runs,
            self.seed,
        )?)
    }
}

/// Each candidate's scores over the suite (the same seeds for every row, so rows
/// differ only by their settings), on `exec`; rows already in `cache` are reused.
fn validate_rows(
    exec: &dyn Executor,
    label: &str,
    candidates: Vec<(String, NtbeaConfig)>,
    cache: &[ValidationRow],
    c: &DefaultsConfig,
) -> Result<Vec<ValidationRow>, Error> {
    let seed = derive_seed(c.seed, &[0xDEF]);
    let todo: Vec<SuiteValidation> = candidates
        .iter()
        .filter(|(_, config)| !cache.iter().any(|r| r.config == *config))
        .map(|(_, config)| SuiteValidation {
            config: config.clone(),
            runs: c.validation_runs,
            seed,
        })
        .collect();
    let mut scores = map(exec, label, &todo)?.into_iter();
    Ok(candidates
        .into_iter()
        .map(|(label, config)| {
            if let Some(hit) = cache.iter().find(|r| r.config == config) {
                return ValidationRow {
                    label,
                    ..hit.clone()
                };
            }
            let scores = scores.next().unwrap_or_default();
            let mean = scores.iter().sum::<f64>() / scores.len() as f64;
            ValidationRow {
                label,
                config,
                scores,
                mean,
            }
        })
        .collect())
}

/// The rows of `validation.ron` validated with `key` (another key's rows are not
/// this experiment's). A file that does not read, and rows that cannot be a
/// validation (not one success rate from 0 to 1 per benchmark of the suite's
/// `benchmarks`, or a mean that is not theirs), are named on standard error and
/// validated again.
fn read_cache(path: &Path, key: (u64, u64), benchmarks: usize) -> Vec<ValidationRow> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let cache = match ron::from_str::<ValidationCache>(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "warning: {}; its rows are validated again",
                run::ron_error(path, &e)
            );
            return Vec::new();
        }
    };
    if cache.key != key {
        return Vec::new();
    }
    let mut rows = Vec::new();
    for (i, r) in cache.rows.into_iter().enumerate() {
        match check_row(&r, benchmarks) {
            None => rows.push(r),
            Some(why) => eprintln!(
                "warning: {}: rows[{i}] ({}): {why}; validated again",
                path.display(),
                r.label
            ),
        }
    }
    rows
}

/// Why a validated row cannot be one, for the warning that sends it to be validated
/// again (see [`read_cache`]); None: it can.
fn check_row(r: &ValidationRow, benchmarks: usize) -> Option<String> {
    if r.scores.len() != benchmarks {
        return Some(format!(
            "scores: {} of them, for {benchmarks} benchmarks",
            r.scores.len()
        ));
    }
    if let Some(v) = r.scores.iter().find(|v| !(0.0..=1.0).contains(*v)) {
        return Some(format!("scores: {v} is not a success rate from 0 to 1"));
    }
    let mean = r.scores.iter().sum::<f64>() / benchmarks.max(1) as f64;
    let off = (r.mean - mean).abs();
    if off.is_nan() || off > 1e-9 {
        return Some(format!("mean {}: its scores give {mean}", r.mean));
    }
    None
}

/// The settings the tuner itself runs with: fixed here, not the defaults it is
/// choosing, so that a change of defaults does not change how they were chosen.
pub(crate) fn tuner() -> NtbeaConfig {
    NtbeaConfig {
        tuples: TupleSet::parse("1+2+N").expect("a fixed tuple set"),
        ..NtbeaConfig::paper()
    }
}

/// The rows every validation compares the tuned settings against.
fn reference_rows() -> Vec<(String, NtbeaConfig)> {
    vec![
        ("playtune's defaults".into(), NtbeaConfig::default()),
        (
            "the paper's: 1+N, k 0.5 x range, epsilon 0.5".into(),
            NtbeaConfig::paper(),
        ),
        ("1+2+N, k 0.5 x range, epsilon 0.5".into(), tuner()),
        (
            "the Java reference's: 1+2+N, k 5 absolute, epsilon 1e-6".into(),
            NtbeaConfig {
                k: 5.0,
                k_relative: false,
                epsilon: 1e-6,
                ..tuner()
            },
        ),
    ]
}

pub(crate) fn run(
    c: &DefaultsConfig,
    exec: &dyn Executor,
    runs_dir: &Path,
    progress: bool,
) -> Result<DefaultsResult, Error> {
    let home = runs_dir.join(&c.name);
    let dir = home.join("tuning");
    let spec = ProblemSpec {
        name: "ntbea-suite".into(),
        settings: [("trials".to_string(), c.runs_per_evaluation.to_string())]
            .into_iter()
            .collect(),
    };
    let problem = build_problem(&spec, None)?;
    let rc = RunConfig::plain(
        spec,
        problem.space().clone(),
        AlgoConfig::Ntbea(tuner()),
        c.tuning_budget,
        c.tuning_runs,
        c.seed,
    );
    run::reuse_or_create_run_dir(&dir, &rc)?;
    if progress {
        eprintln!(
            "tuning: {} NTBEA runs of {} evaluations over NTBEA's settings",
            c.tuning_runs, c.tuning_budget
        );
    }
    let search = Search {
        name: "tuning".into(),
        dir: dir.clone(),
        config: rc,
        problem: problem.as_ref(),
    };
    let tuning = exec
        .search(
            std::slice::from_ref(&search),
            SearchOptions {
                progress,
                retry_failed: false,
            },
        )?
        .pop()
        .ok_or(Error::NoResult("tuning"))?;

    let suite = standard_suite();
    let cache_file = home.join("validation.ron");
    let key = (c.validation_runs, c.seed);
    let mut cache = read_cache(&cache_file, key, suite.len());
    let mut calls = 0;
    let mut validate =
        |candidates: Vec<(String, NtbeaConfig)>| -> Result<Vec<ValidationRow>, Error> {
            if progress {
                eprintln!(
                    "validation: {} settings, {} runs per benchmark each",
                    candidates.len(),
                    c.validation_runs
                );
            }
            calls += 1;
            let label = format!("validation-{calls}");
            let rows = validate_rows(exec, &label, candidates, &cache, c)?;
            for r in &rows {
                if !cache.iter().any(|old| old.config == r.config) {
                    cache.push(r.clone());
                }
            }
            // Kept as it goes: an interrupted experiment does not validate a row twice.
            let text = ron::ser::to_string(&ValidationCache {
                key,
                rows: cache.clone(),
            })?;
            playtune::run::lock::write_whole(&cache_file, text)?;
            Ok(rows)
        };

    let mut candidates = reference_rows();
    let first_tuned = candidates.len();
    for t in &tuning.trials {
        candidates.push((format!("tuning run {}", t.trial), config_of(&t.values)));
    }
    let mut rows = validate(candidates)?;
    // The tuning runs' noisy estimates rank their neighbours only roughly: every
    // one-step change of the best validated tuning result is validated too.
    let best_run = playtune::optim::argmax(rows[first_tuned..].iter().map(|r| r.mean)).unwrap_or(0);
    let centre = &tuning.trials[best_run].values;
    let space = settings_space();
    let mut neighbours = Vec::new();
    for (d, dim) in space.dims.iter().enumerate() {
        for i in 0..dim.domain.len() {
            let v = dim.domain.value(i);
            if v != centre[d] {
                let mut x = centre.clone();
                x[d] = v;
                let label = format!(
                    "tuning run {best_run}, {} = {}",
                    dim.name,
                    dim.domain.render(v)
                );
                neighbours.push((label, config_of(&x)));
            }
        }
    }
    rows.extend(validate(neighbours)?);
    let best = first_tuned
        + playtune::optim::argmax(rows[first_tuned..].iter().map(|r| r.mean)).unwrap_or(0);
    let result = DefaultsResult {
        config: c.clone(),
        benchmarks: suite.iter().map(|s| s.name.to_string()).collect(),
        rows,
        best,
    };
    playtune::run::lock::write_whole(home.join("summary.md"), summary_markdown(&result))?;
    let ron = ron::ser::to_string_pretty(&result, ron::ser::PrettyConfig::default())?;
    playtune::run::lock::write_whole(home.join("summary.ron"), ron)?;
    Ok(result)
}

/// The settings of a row in the words of the command line.
pub(crate) fn describe(c: &NtbeaConfig) -> String {
    let tuples = match &c.tuples {
        TupleSet::Auto => "auto".to_string(),
        TupleSet::Sizes { sizes, full } => {
            let mut parts: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
            if *full {
                parts.push("N".into());
            }
            parts.join("+")
        }
        TupleSet::Explicit(t) => format!("{} explicit", t.len()),
    };
    let k = match (c.k_relative, c.scale) {
        (false, _) => format!("--k {} --k-absolute", c.k),
        (true, FitnessScale::Range) => format!("--k {} --scale range", c.k),
        (true, FitnessScale::Sd) => format!("--k {} --scale sd", c.k),
    };
    let recommend = match c.recommend {
        RecommendFrom::Evaluated => "evaluated",
        RecommendFrom::Neighbourhood => "neighbourhood",
    };
    format!(
        "--tuples {tuples} {k} --epsilon {} --neighbours {} --mutation {} --recommend {recommend}",
        c.epsilon, c.neighbours, c.mutation
    )
}

pub(crate) fn summary_markdown(r: &DefaultsResult) -> String {
    let c = &r.config;
    let mut s = String::new();
    let _ = writeln!(s, "# {}: NTBEA tunes NTBEA's defaults\n", c.name);
    let _ = writeln!(
        s,
        "Tuning: {} NTBEA runs of {} evaluations over NTBEA's settings; each evaluation is \
         the mean score over the suite, {} runs per benchmark (`ntbea-suite`). \
         Validation: {} runs per benchmark for every row, the same seeds for every row. \
         Seed {}.\n",
        c.tuning_runs, c.tuning_budget, c.runs_per_evaluation, c.validation_runs, c.seed
    );
    let _ = writeln!(
        s,
        "Scores: on `winrate` benchmarks, the mean progress of the recommendation's true \
         win rate from a random point's (0) to the optimum's (1); on the others, the share \
         of runs whose recommendation is a global optimum.\n"
    );
    let _ = write!(s, "| settings | mean |");
    for b in &r.benchmarks {
        let _ = write!(s, " {b} |");
    }
    let _ = write!(s, "\n|---|---|");
    for _ in &r.benchmarks {
        let _ = write!(s, "---|");
    }
    s.push('\n');
    for (i, row) in r.rows.iter().enumerate() {
        let mark = if i == r.best { " (best tuned)" } else { "" };
        let _ = write!(s, "| {}{mark} | **{:.3}** |", row.label, row.mean);
        for v in &row.scores {
            let _ = write!(s, " {v:.2} |");
        }
        s.push('\n');
    }
    let _ = writeln!(s, "\n## Settings of each row\n");
    for row in &r.rows {
        let _ = writeln!(s, "- {}: `{}`", row.label, describe(&row.config));
    }
    s
}

/// Each preset: name, meaning, evaluations per tuning run, tuning runs, benchmark
/// runs per evaluation and validation runs per benchmark.
const SIZES: [(&str, &str, u64, u64, u64, u64); 2] = [
    ("quick", "a smoke test (seconds)", 30, 2, 2, 10),
    (
        "medium",
        "the published run (runs/published/ntbea-defaults, about 25 minutes on 2 cores); no paper or full, as no paper is reproduced",
        300,
        4,
        10,
        400,
    ),
];

/// How NTBEA's defaults were chosen, declared for the command line.
pub(crate) static DEF: super::declaration::ExperimentDef = super::declaration::ExperimentDef {
    name: "ntbea-defaults",
    about: "NTBEA tunes NTBEA's own defaults over benchmark problems, then validates them",
    details: "The problem `ntbea-suite` has NTBEA's settings as its space and the mean score over nine noisy benchmarks as fitness; the recommendations and the usual alternatives are then validated with many runs.",
    presets: super::declaration::presets_from!(SIZES),
    settings: || {
        use super::declaration::size_setting;
        vec![
            size_setting("trials", "Tuning runs"),
            size_setting("budget", "Evaluations per tuning run"),
            size_setting("reevaluations", "Validation runs per benchmark"),
        ]
    },
    folder_carries: None,
    run: |request, exec| {
        let &(_, _, budget, runs, per_eval, validation) = SIZES
            .iter()
            .find(|p| p.0 == request.preset)
            .unwrap_or(&SIZES[0]);
        let config = DefaultsConfig {
            name: request.name.clone(),
            tuning_budget: request.size("budget", budget)?,
            tuning_runs: request.size("trials", runs)?,
            runs_per_evaluation: per_eval,
            validation_runs: request.size("reevaluations", validation)?,
            seed: request.seed,
        };
        let result = run(&config, exec, request.runs_dir, request.progress)?;
        Ok(super::declaration::Outcome {
            summary: summary_markdown(&result),
            wrote: vec![request.runs_dir.join(&config.name).join("summary.md")],
        })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_validation_rows_pass_the_checks_and_damaged_ones_do_not() {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("runs/published/ntbea-defaults/validation.ron");
        let text = std::fs::read_to_string(&path).unwrap();
        let cache: ValidationCache = ron::from_str(&text).unwrap();
        let n = cache.rows.len();
        let benchmarks = standard_suite().len();
        assert!(n > 10);
        assert_eq!(read_cache(&path, cache.key, benchmarks).len(), n);
        let mut row = cache.rows[0].clone();
        row.scores[0] = 1.5;
        assert!(check_row(&row, benchmarks).unwrap().contains("1.5"));
        let mut row = cache.rows[0].clone();
        row.mean += 0.1;
        assert!(check_row(&row, benchmarks).unwrap().contains("mean"));
        let mut row = cache.rows[0].clone();
        row.scores.pop();
        assert!(check_row(&row, benchmarks).unwrap().contains("scores"));
        // A damaged file is named and its rows validated again.
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("validation.ron");
        std::fs::write(&bad, text.replacen("scores:[", "scores:[1.5,", 1)).unwrap();
        assert_eq!(read_cache(&bad, cache.key, benchmarks).len(), n - 1);
        std::fs::write(&bad, &text[..text.len() / 2]).unwrap();
        assert!(read_cache(&bad, cache.key, benchmarks).is_empty());
    }

    #[test]
    fn the_defaults_are_what_the_published_experiment_validated() {
        let path = concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/runs/published/ntbea-defaults/summary.ron"
        );
        let result: DefaultsResult =
            ron::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let row = result
            .rows
            .iter()
            .find(|r| r.label == "playtune's defaults")
            .unwrap();
        assert_eq!(row.config, NtbeaConfig::default());
        let best = result.rows[result.best].mean;
        assert!(
            row.mean >= best - 0.02,
            "defaults {} vs best tuned {best}",
            row.mean
        );
    }
}
