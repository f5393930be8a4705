//! How playtune chose NTBEA's defaults: NTBEA tunes NTBEA.
//!
//! 1. Tuning: NTBEA searches NTBEA's own settings (the `ntbea-suite` problem: fitness
//!    is the mean success rate over a suite of noisy benchmarks, a few runs per
//!    benchmark per evaluation). An ordinary, resumable run folder.
//! 2. Validation: every tuning trial's recommendation, today's defaults and the
//!    settings users compare against (the paper's, the Java reference's) run many more
//!    times on every benchmark, all with the same seeds, so the rows differ only by
//!    their settings. The best mean is what the defaults should be.

use crate::optim::AlgoConfig;
use crate::optim::ntbea::suite::{config_of, standard_suite, success_rates};
use crate::optim::ntbea::{NtbeaConfig, TupleSet};
use crate::registry::build_problem;
use crate::rng::derive_seed;
use crate::run::{self, ProblemSpec, RunConfig};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DefaultsConfig {
    pub name: String,
    /// Evaluations of each tuning run.
    pub tuning_budget: u64,
    /// Independent tuning runs.
    pub tuning_runs: u64,
    /// NTBEA runs per benchmark behind one tuning evaluation.
    pub runs_per_evaluation: u64,
    /// NTBEA runs per benchmark behind each validated row.
    pub validation_runs: u64,
    pub seed: u64,
}

/// One validated configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ValidationRow {
    pub label: String,
    pub config: NtbeaConfig,
    /// Success rate per benchmark, in the suite's order.
    pub success: Vec<f64>,
    pub mean: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DefaultsResult {
    pub config: DefaultsConfig,
    pub benchmarks: Vec<String>,
    pub rows: Vec<ValidationRow>,
    /// Index of the row with the best mean among the tuned recommendations.
    pub best_tuned: usize,
}

/// The settings the tuner itself runs with: fixed here, not the defaults it is
/// choosing, so that a change of defaults does not change how they were chosen.
pub fn tuner() -> NtbeaConfig {
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

pub fn run(c: &DefaultsConfig, runs_dir: &Path, progress: bool) -> Result<DefaultsResult, String> {
    let home = runs_dir.join(&c.name);
    let dir = home.join("tuning");
    let spec = ProblemSpec {
        name: "ntbea-suite".into(),
        settings: [("trials".to_string(), c.runs_per_evaluation.to_string())]
            .into_iter()
            .collect(),
    };
    let problem = build_problem(&spec, None)?;
    let rc = RunConfig {
        playtune_version: env!("CARGO_PKG_VERSION").into(),
        problem: spec,
        space: problem.space().clone(),
        space_file: None,
        algorithm: AlgoConfig::Ntbea(tuner()),
        budget: c.tuning_budget,
        trials: c.tuning_runs,
        seed: c.seed,
        log: true,
    };
    if run::read_config(&dir).ok().as_ref() != Some(&rc) {
        run::create_run_dir(&dir, &rc).map_err(|e| e.to_string())?;
    }
    if progress {
        eprintln!(
            "tuning: {} NTBEA runs of {} evaluations over NTBEA's settings",
            c.tuning_runs, c.tuning_budget
        );
    }
    let tuning = run::execute(Some(&dir), &rc, problem.as_ref(), progress)
        .map_err(|e| format!("tuning: {e}"))?;

    let mut candidates = reference_rows();
    let first_tuned = candidates.len();
    for t in &tuning.trials {
        candidates.push((format!("tuning run {}", t.trial), config_of(&t.values)));
    }
    if progress {
        eprintln!(
            "validation: {} settings, {} runs per benchmark each",
            candidates.len(),
            c.validation_runs
        );
    }
    let suite = standard_suite();
    // The same seeds for every row: rows differ only by their settings.
    let seed = derive_seed(c.seed, &[0xDEF]);
    let rows: Vec<ValidationRow> = candidates
        .into_par_iter()
        .map(|(label, config)| {
            let success = success_rates(&suite, &config, c.validation_runs, seed)
                .map_err(|e| e.to_string())?;
            let mean = success.iter().sum::<f64>() / success.len() as f64;
            Ok(ValidationRow {
                label,
                config,
                success,
                mean,
            })
        })
        .collect::<Result<_, String>>()?;
    let best_tuned =
        first_tuned + crate::optim::argmax(rows[first_tuned..].iter().map(|r| r.mean)).unwrap_or(0);
    let result = DefaultsResult {
        config: c.clone(),
        benchmarks: suite.iter().map(|s| s.name.to_string()).collect(),
        rows,
        best_tuned,
    };
    std::fs::write(home.join("summary.md"), summary_markdown(&result))
        .map_err(|e| e.to_string())?;
    let ron = ron::ser::to_string_pretty(&result, ron::ser::PrettyConfig::default())
        .map_err(|e| e.to_string())?;
    std::fs::write(home.join("summary.ron"), ron).map_err(|e| e.to_string())?;
    Ok(result)
}

/// The settings of a row in the words of the command line.
pub fn describe(c: &NtbeaConfig) -> String {
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
    let k = if c.k_relative {
        format!("--k {} --scale {:?}", c.k, c.scale).to_lowercase()
    } else {
        format!("--k {} --k-absolute", c.k)
    };
    format!(
        "--tuples {tuples} {k} --epsilon {} --neighbours {} --mutation {} --recommend {:?}",
        c.epsilon, c.neighbours, c.mutation, c.recommend
    )
    .replace("Evaluated", "evaluated")
    .replace("Neighbourhood", "neighbourhood")
}

pub fn summary_markdown(r: &DefaultsResult) -> String {
    let c = &r.config;
    let mut s = String::new();
    let _ = writeln!(s, "# {}: NTBEA tunes NTBEA's defaults\n", c.name);
    let _ = writeln!(
        s,
        "Tuning: {} NTBEA runs of {} evaluations over NTBEA's settings; each evaluation is \
         the mean success rate over the suite, {} runs per benchmark (`ntbea-suite`). \
         Validation: {} runs per benchmark for every row, the same seeds for every row. \
         Seed {}.\n",
        c.tuning_runs, c.tuning_budget, c.runs_per_evaluation, c.validation_runs, c.seed
    );
    let _ = writeln!(
        s,
        "Success rate: share of runs whose recommendation is a global optimum.\n"
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
        let mark = if i == r.best_tuned {
            " (best tuned)"
        } else {
            ""
        };
        let _ = write!(s, "| {}{mark} | **{:.3}** |", row.label, row.mean);
        for v in &row.success {
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
