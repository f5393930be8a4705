//! The rule-design study: does playtune find a game's rules under which skill matters
//! more than under the designers' own, while the game stays playable?
//!
//! 1. NTBEA (playtune's defaults), random search and RMHC search the game's design space
//!    with the `design` problem (fitness: the skill depth of a ladder of agents) held
//!    to playability constraints, `trials` runs each at the same number of games; each
//!    run's recommendation is re-evaluated and the algorithms compared with
//!    Mann-Whitney U tests (the `compare_optimizers` experiment does this part).
//! 2. Each algorithm's best feasible rule set (the highest re-evaluated mean among the
//!    runs whose recommendation met the constraints) and the game's own rules are
//!    played again on fresh seeds, `fresh_games` games per ladder rung: skill depth with
//!    its standard error, length, stalemates, seat advantage, and whether the
//!    constraints still hold.
//! 3. The parameters that mattered most: 1-tuple statistics over random search's
//!    evaluations (uniform over the space, so a value's mean is a main effect).

use super::Error;
use super::compare_optimizers::{self, ExperimentConfig, ExperimentResult};
use playtune::optim::AlgoConfig;
use playtune::optim::constrained::{Check, violation};
use playtune::optim::ntbea::NtbeaConfig;
use playtune::optim::random::RandomConfig;
use playtune::optim::rmhc::RmhcConfig;
use playtune::registry::build_problem;
use playtune::rng::derive_seed;
use playtune::run::{self, ProblemSpec};
use playtune::space::{Constraint, Space};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// What the study runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleDesignConfig {
    pub(crate) name: String,
    pub(crate) game: String,
    /// Agent specs, weakest first.
    pub(crate) ladder: String,
    /// Game settings that stay fixed (`players=2`).
    pub(crate) game_settings: String,
    /// The game's own rules where they differ from the design space's defaults at
    /// the fixed settings (2-player Splendor has 4 coins a colour, not 7):
    /// `NAME=VALUE` separated by spaces. The baseline of the fresh table.
    pub(crate) baseline: String,
    /// What the table calls the game's own rules (`Splendor`).
    pub(crate) baseline_name: String,
    /// Games per rung at every evaluation of the search.
    pub(crate) games: usize,
    pub(crate) constraints: Vec<Constraint>,
    /// Runs per algorithm.
    pub(crate) trials: u64,
    /// Evaluations per run.
    pub(crate) budget: u64,
    /// Re-evaluations of each run's recommendation.
    pub(crate) reevaluations: u64,
    /// Games per rung on fresh seeds for the final table.
    pub(crate) fresh_games: usize,
    pub(crate) seed: u64,
}

/// Splendor's own rules at two players, measured with the ladder `rnd,osla,mcts` (200
/// games a pairing, 2026-11-25): 66 to 70 steps a game, 0 to 3% of games without a
/// winner, seat win rates within 0.02. The constraints keep a found game near a game
/// people play: nearly always won (`stalemate_rate <= 0.05`), neither a sprint nor a
/// slog (`mean_length in 40..120`: about 40% shorter to 75% longer than Splendor), and
/// no seat decisive (`seat_advantage <= 0.3`; loose, because over one evaluation's 60
/// or 90 games a fair game's seat advantage is itself about 0.1 +- 0.1).
pub(crate) fn playable_constraints() -> Vec<Constraint> {
    [
        "stalemate_rate <= 0.05",
        "mean_length in 40..120",
        "seat_advantage <= 0.3",
    ]
    .iter()
    .map(|c| c.parse().expect("the built-in constraints parse"))
    .collect()
}

/// The study's presets: name, meaning, then games a rung, runs per algorithm,
/// evaluations per run, re-evaluations and fresh games a rung.
pub(crate) const SIZES: [(&str, &str, usize, u64, u64, u64, usize); 3] = [
    (
        "quick",
        "3 runs of each algorithm of 40 evaluations, 10 games a rung, 100 fresh games a rung (a few minutes on 2 cores)",
        10,
        3,
        40,
        3,
        100,
    ),
    (
        "full",
        "10 runs of each algorithm of 400 evaluations, 30 games a rung, 10 re-evaluations, 1,000 fresh games a rung (the published run)",
        30,
        10,
        400,
        10,
        1000,
    ),
    ("paper", "the same as full", 30, 10, 400, 10, 1000),
];

impl RuleDesignConfig {
    /// The study on `game` at one of its presets ([`SIZES`]).
    pub(crate) fn preset(game: &str, preset: &str, seed: u64) -> Result<RuleDesignConfig, Error> {
        let (ladder, game_settings, baseline, baseline_name) = match game {
            "rinascimento" => (
                "rnd,osla,mcts(budget=1000)",
                "players=2",
                "coins=4",
                "Splendor",
            ),
            // Ten turns each keep a game near 80 steps; MCTS at 300 calls a decision
            // sits between random play and the rule-based bot.
            "strategy" => ("random,mcts(budget=300),rule", "turns=10", "", "published"),
            other => return Err(Error::NoStudyPreset(other.to_string())),
        };
        let &(_, _, games, trials, budget, reevaluations, fresh_games) = SIZES
            .iter()
            .find(|p| p.0 == preset)
            .ok_or_else(|| Error::NoSuchPreset {
                experiment: "rule-design",
                presets: "quick, full and paper",
                preset: preset.to_string(),
            })?;
        Ok(RuleDesignConfig {
            name: format!("rule-design-{game}-{preset}"),
            game: game.into(),
            ladder: ladder.into(),
            game_settings: game_settings.into(),
            baseline: baseline.into(),
            baseline_name: baseline_name.into(),
            games,
            constraints: playable_constraints(),
            trials,
            budget,
            reevaluations,
            fresh_games,
            seed,
        })
    }

    fn problem_spec(&self, games: usize) -> ProblemSpec {
        let settings = [
            ("game", self.game.clone()),
            ("ladder", self.ladder.clone()),
            ("games", games.to_string()),
            ("game_settings", self.game_settings.clone()),
        ];
        ProblemSpec {
            name: "design".into(),
            settings: settings
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        }
    }
}

/// A rule set played on fresh seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct FreshRow {
    /// `Splendor` (the game's own rules) or the algorithm that found it.
    pub(crate) source: String,
    /// The run it came from (`None` for the game's own rules).
    pub(crate) trial: Option<usize>,
    pub(crate) point: Vec<(String, String)>,
    pub(crate) values: Vec<f64>,
    /// Each rung's mean score against the weakest.
    pub(crate) rungs: Vec<f64>,
    pub(crate) depth: f64,
    pub(crate) depth_se: f64,
    pub(crate) mean_length: f64,
    pub(crate) stalemate_rate: f64,
    pub(crate) seat_advantage: f64,
    pub(crate) feasible: bool,
}

/// Everything the study found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RuleDesignResult {
    pub(crate) config: RuleDesignConfig,
    pub(crate) search: ExperimentResult,
    pub(crate) fresh: Vec<FreshRow>,
    /// Per searched parameter: its spread of 1-tuple means, and its best and worst
    /// values, widest spread first.
    pub(crate) importance: Vec<(String, f64, String, String)>,
}

const FRESH_FILE: &str = "fresh.ron";

/// Runs (or resumes) the study into `runs_dir/NAME` and `plots_dir/NAME`.
pub(crate) fn run(
    config: &RuleDesignConfig,
    exec: &dyn playtune_exec::Executor,
    runs_dir: &Path,
    plots_dir: &Path,
    progress: bool,
) -> Result<RuleDesignResult, Error> {
    let spec = config.problem_spec(config.games);
    let problem = build_problem(&spec, None)?;
    let features = problem.feature_names();
    let checks = Check::resolve(&config.constraints, &features, |n| problem.feature_range(n))?;
    let mut space: Space = problem.space().clone();
    space.constraints = config.constraints.clone();
    for pair in config.baseline.split_whitespace() {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| Error::BaselineNotAPair(pair.to_string()))?;
        let d = space
            .position(name)
            .ok_or_else(|| Error::BaselineNotADimension(name.to_string()))?;
        let dim = &mut space.dims[d];
        dim.default =
            dim.domain
                .parse_value(value)
                .ok_or_else(|| Error::BaselineOutsideDomain {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
    }
    let search = ExperimentConfig {
        name: config.name.clone(),
        problem: spec,
        space: space.clone(),
        algorithms: vec![
            ("NTBEA".into(), AlgoConfig::Ntbea(NtbeaConfig::default())),
            (
                "Random".into(),
                AlgoConfig::Random(RandomConfig { batch: 32 }),
            ),
            ("RMHC".into(), AlgoConfig::Rmhc(RmhcConfig::default())),
        ],
        trials: config.trials,
        budget: config.budget,
        reevaluations: config.reevaluations,
        seed: config.seed,
    };
    let home = runs_dir.join(&config.name);
    let searched = compare_optimizers::run(
        &search,
        problem.as_ref(),
        exec,
        runs_dir,
        plots_dir,
        progress,
    )?;

    // Each algorithm's best feasible recommendation, and the game's own rules.
    let mut candidates: Vec<(String, Option<usize>, Vec<f64>)> = vec![(
        config.baseline_name.clone(),
        None,
        space.decode(&space.default_indices()),
    )];
    for (ai, outcome) in searched.algorithms.iter().enumerate() {
        let dir = home.join(compare_optimizers::algorithm_folder(
            &search.algorithms[ai].0,
        ));
        let result = run::read_result(&dir)?;
        let means = outcome.means();
        let best = result
            .trials
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                t.feasibility
                    .is_some_and(|f| f.recommendation == Some(true))
            })
            .max_by(|a, b| means[a.0].mean.total_cmp(&means[b.0].mean));
        if let Some((t, tr)) = best {
            candidates.push((outcome.name.clone(), Some(t), tr.values.clone()));
        }
    }
    let fresh_path = home.join(FRESH_FILE);
    let kept: Option<(RuleDesignConfig, Vec<FreshRow>)> = std::fs::read_to_string(&fresh_path)
        .ok()
        .and_then(|t| ron::from_str(&t).ok());
    let fresh = match kept {
        Some((c, rows))
            if c == *config
                && rows.len() == candidates.len()
                && rows.iter().zip(&candidates).all(|(r, c)| r.values == c.2) =>
        {
            rows
        }
        _ => {
            if progress {
                eprintln!(
                    "{} rule sets on fresh seeds, {} games a rung",
                    candidates.len(),
                    config.fresh_games
                );
            }
            let big = config.problem_spec(config.fresh_games);
            build_problem(&big, None)?;
            let tasks: Vec<playtune_exec::Evaluate> = candidates
                .iter()
                .enumerate()
                .map(|(i, (source, _, values))| playtune_exec::Evaluate {
                    problem: big.clone(),
                    space: None,
                    point: values.clone(),
                    seed: derive_seed(config.seed, &[u64::MAX - 1, i as u64]),
                    what: format!("{source} on fresh seeds"),
                })
                .collect();
            let evaluations = playtune_exec::map(exec, "fresh", &tasks)?;
            let rows: Vec<FreshRow> = candidates
                .iter()
                .zip(&evaluations)
                .map(|((source, trial, values), e)| {
                    fresh_row(
                        source, *trial, values, &space, &features, e, &checks, config,
                    )
                })
                .collect();
            let text = ron::ser::to_string_pretty(
                &(config.clone(), rows.clone()),
                ron::ser::PrettyConfig::default(),
            )?;
            run::lock::write_whole(&fresh_path, text).map_err(|source| Error::CannotWrite {
                path: fresh_path.clone(),
                source,
            })?;
            rows
        }
    };

    // Importance from random search's evaluations.
    let random_dir = home.join(compare_optimizers::algorithm_folder("Random"));
    let log = run::log::read_log(&random_dir.join(run::files::LOG_FILE), &space, &features)?;
    let rows: Vec<_> = log.rows.into_iter().map(|(_, r)| r).collect();
    let importance = playtune_report::importance::one_tuple_stats(&space, &rows)
        .into_iter()
        .filter_map(|d| {
            let (best, worst) = d.best_and_worst()?;
            Some((
                d.name.clone(),
                d.spread,
                best.label.clone(),
                worst.label.clone(),
            ))
        })
        .collect();

    let result = RuleDesignResult {
        config: config.clone(),
        search: searched,
        fresh,
        importance,
    };
    let groups: Vec<(String, Vec<(f64, f64)>)> = result
        .fresh
        .iter()
        .map(|r| (r.source.clone(), vec![(r.depth, r.depth_se)]))
        .collect();
    playtune_report::plot::sorted_error_bars(
        &plots_dir.join(&config.name).join("fresh_depth.png"),
        &format!(
            "{}: skill depth on fresh seeds ({} games a rung), +- se",
            config.game, config.fresh_games
        ),
        "skill depth",
        &groups,
    )?;
    let mut md = compare_optimizers::summary_markdown(&result.search);
    md.push_str(&fresh_markdown(&result));
    run::lock::write_whole(home.join("summary.md"), md)?;
    // summary.ron stays the search comparison's (what `report` and `status` read).
    let ron = ron::ser::to_string_pretty(&result, ron::ser::PrettyConfig::default())?;
    run::lock::write_whole(home.join("rule-design.ron"), ron)?;
    Ok(result)
}

/// One fresh evaluation as a table row: the rungs' scores from the features, and the
/// standard error of the skill depth from the pair of rungs that sets it (each rung's
/// score a mean over `fresh_games` games, the rungs independent).
#[allow(clippy::too_many_arguments)]
fn fresh_row(
    source: &str,
    trial: Option<usize>,
    values: &[f64],
    space: &Space,
    features: &[String],
    e: &playtune::eval::Evaluation,
    checks: &[Check],
    config: &RuleDesignConfig,
) -> FreshRow {
    let feature = |name: &str| {
        features
            .iter()
            .position(|f| f == name)
            .map_or(f64::NAN, |i| e.features[i])
    };
    let rungs: Vec<f64> = features
        .iter()
        .zip(&e.features)
        .filter(|(n, _)| n.starts_with("win_rate_"))
        .map(|(_, v)| *v)
        .collect();
    let n = config.fresh_games as f64;
    let se = |p: f64| (p * (1.0 - p) / n).max(0.0).sqrt();
    let (mut depth, mut depth_se) = (f64::INFINITY, 0.0);
    for w in rungs.windows(2) {
        let gap = w[1] - w[0];
        if gap < depth {
            depth = gap;
            depth_se = (se(w[0]).powi(2) + se(w[1]).powi(2)).sqrt();
        }
    }
    FreshRow {
        source: source.into(),
        trial,
        point: space.render(values),
        values: values.to_vec(),
        rungs,
        depth,
        depth_se,
        mean_length: feature("mean_length"),
        stalemate_rate: feature("stalemate_rate"),
        seat_advantage: feature("seat_advantage"),
        feasible: violation(checks, &e.features) == 0.0,
    }
}

fn fresh_markdown(r: &RuleDesignResult) -> String {
    let c = &r.config;
    let mut out = String::new();
    let constraints: Vec<String> = c.constraints.iter().map(|x| format!("`{x}`")).collect();
    let _ = writeln!(
        out,
        "\n## Rule sets on fresh seeds\n\nLadder `{}` ({}), {} games a rung on seeds the search never used; constraints {}.\n",
        c.ladder,
        c.game_settings,
        c.fresh_games,
        constraints.join(", ")
    );
    let _ = writeln!(
        out,
        "| rule set | rung scores | skill depth +- se | mean length | stalemates | seat advantage | feasible |\n|---|---|---|---|---|---|---|"
    );
    for row in &r.fresh {
        let source = match row.trial {
            Some(t) => format!("{} (run {t})", row.source),
            None => format!("{} (its own rules)", row.source),
        };
        let rungs: Vec<String> = row.rungs.iter().map(|x| format!("{x:.3}")).collect();
        let _ = writeln!(
            out,
            "| {source} | {} | {:.3} +- {:.3} | {:.1} | {:.3} | {:.3} | {} |",
            rungs.join(" / "),
            row.depth,
            row.depth_se,
            row.mean_length,
            row.stalemate_rate,
            row.seat_advantage,
            if row.feasible { "yes" } else { "no" }
        );
    }
    if let Some(base) = r.fresh.iter().find(|x| x.trial.is_none()) {
        let _ = writeln!(
            out,
            "\nAgainst the game's own rules (difference in skill depth, in standard errors of the difference):\n"
        );
        for row in r.fresh.iter().filter(|x| x.trial.is_some()) {
            let diff = row.depth - base.depth;
            let se = (row.depth_se.powi(2) + base.depth_se.powi(2)).sqrt();
            let z = if se > 0.0 { diff / se } else { f64::NAN };
            let _ = writeln!(
                out,
                "- {}: {:+.3} +- {:.3}, {:.1} se{}",
                row.source,
                diff,
                se,
                z,
                if row.feasible && z >= 3.0 {
                    " (feasible and at least 3 se deeper: the aim is met)"
                } else if !row.feasible {
                    " (infeasible on fresh games)"
                } else {
                    ""
                }
            );
        }
        let changed = |row: &FreshRow| -> Vec<String> {
            row.point
                .iter()
                .zip(&base.point)
                .filter(|(a, b)| a.1 != b.1)
                .map(|(a, b)| format!("{} {} (was {})", a.0, a.1, b.1))
                .collect()
        };
        let _ = writeln!(out, "\nWhat each found rule set changes:\n");
        for row in r.fresh.iter().filter(|x| x.trial.is_some()) {
            let _ = writeln!(out, "- {}: {}", row.source, changed(row).join(", "));
        }
    }
    if !r.importance.is_empty() {
        let _ = writeln!(
            out,
            "\n## The parameters that mattered most\n\nFrom random search's evaluations (uniform over the space, so each value's mean fitness is a main effect): the spread of the mean skill depth over a parameter's values, widest first.\n\n| parameter | spread | best value | worst value |\n|---|---|---|---|"
        );
        for (name, spread, best, worst) in r.importance.iter().take(8) {
            let _ = writeln!(out, "| {name} | {spread:.3} | {best} | {worst} |");
        }
    }
    out
}

/// The rule-design study, declared for the command line.
pub(crate) static DEF: super::declaration::ExperimentDef = super::declaration::ExperimentDef {
    name: "rule-design",
    about: "The rule-design study (docs/design.md): NTBEA, random search and RMHC over a game's rules, the best rule sets played again on fresh games",
    details: "Games with a study preset: rinascimento (against 2-player Splendor) and strategy; `playtune optimize --problem design --set game=GAME` designs any game.",
    presets: super::declaration::presets_from!(SIZES),
    settings: || {
        use super::declaration::size_setting;
        vec![
            size_setting("trials", "Runs per algorithm"),
            size_setting("budget", "Evaluations per run"),
            size_setting(
                "reevaluations",
                "Re-evaluations of each trial's final rule set",
            ),
            playtune::settings::Setting::new(
                "game",
                playtune::registry::DEFAULT_GAME,
                "The game whose rules the study searches",
            ),
        ]
    },
    folder_carries: Some("game"),
    run: |request, exec| {
        let mut config =
            RuleDesignConfig::preset(request.get("game"), request.preset, request.seed)?;
        config.name = request.name.clone();
        config.trials = request.size("trials", config.trials)?;
        config.budget = request.size("budget", config.budget)?;
        config.reevaluations = request.size("reevaluations", config.reevaluations)?;
        super::declaration::Outcome::after(request, |runs, plots, progress| {
            run(&config, exec, runs, plots, progress)
        })
    },
};

#[cfg(test)]
mod published;
