//! The NTBEA paper's Section V, for any problem: run RMHC, B-RMHC and NTBEA for T
//! trials each, re-evaluate every trial's final recommendation R times, and report
//! - Figure 2: per algorithm, the T mean fitnesses sorted, with standard errors;
//! - two-tailed Mann-Whitney U between algorithms, over all trials' means and over the
//!   R re-evaluations of each algorithm's worst-average game (our reading of the
//!   paper's "comparing the worst average games of each algorithm");
//! - Table II: the parameters of each algorithm's highest- and lowest-average game.
//!
//! Each algorithm's search is an ordinary run folder (resumable); the re-evaluations
//! are seeded per (algorithm, trial, repeat), so the whole experiment is reproducible.

use super::Error;
use playtune::eval::{Binding, Evaluation, Problem};
use playtune::optim::AlgoConfig;
use playtune::optim::brmhc::BrmhcConfig;
use playtune::optim::ntbea::NtbeaConfig;
use playtune::optim::rmhc::RmhcConfig;
use playtune::rng::derive_seed;
use playtune::run::{self, ProblemSpec, RunConfig, RunResult};
use playtune::space::Space;
use playtune_exec::{Evaluate, ExecError, Executor, Search, SearchOptions, map_each};
use playtune_optim::stats::{MannWhitney, Summary, mann_whitney};
use playtune_report::plot::sorted_error_bars;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What to run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ExperimentConfig {
    pub(crate) name: String,
    pub(crate) problem: ProblemSpec,
    pub(crate) space: Space,
    pub(crate) algorithms: Vec<(String, AlgoConfig)>,
    pub(crate) trials: u64,
    pub(crate) budget: u64,
    pub(crate) reevaluations: u64,
    pub(crate) seed: u64,
}

/// The paper's three algorithms with the settings the experiment uses. B-RMHC's
/// pre-processing does not count against the budget (the paper gives every algorithm
/// 100 evaluations of evolution); the summary reports how many it spent.
pub(crate) fn paper_algorithms(ntbea: NtbeaConfig) -> Vec<(String, AlgoConfig)> {
    vec![
        ("RMHC".into(), AlgoConfig::Rmhc(RmhcConfig::default())),
        (
            "B-RMHC".into(),
            AlgoConfig::Brmhc(BrmhcConfig {
                free_preprocessing: true,
                ..Default::default()
            }),
        ),
        ("NTBEA".into(), AlgoConfig::Ntbea(ntbea)),
    ]
}

/// One trial's final game: its parameters and the fitness of each re-evaluation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ReevaluatedGame {
    pub(crate) point: Vec<(String, String)>,
    pub(crate) fitness: Vec<f64>,
}

/// One algorithm's outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct AlgorithmOutcome {
    pub(crate) name: String,
    /// Per trial, its final game.
    pub(crate) games: Vec<ReevaluatedGame>,
    pub(crate) evaluations_search: u64,
    pub(crate) evaluations_preprocess: u64,
}

impl AlgorithmOutcome {
    pub(crate) fn means(&self) -> Vec<Summary> {
        self.games.iter().map(|g| Summary::of(&g.fitness)).collect()
    }
    fn extreme(&self, best: bool) -> usize {
        let means = self.means();
        let mut idx: Vec<usize> = (0..means.len()).collect();
        idx.sort_by(|&a, &b| means[a].mean.total_cmp(&means[b].mean));
        if best {
            *idx.last().unwrap_or(&0)
        } else {
            idx[0]
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct PairTest {
    pub(crate) a: String,
    pub(crate) b: String,
    pub(crate) all_trials: Option<MannWhitney>,
    pub(crate) worst_games: Option<MannWhitney>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ExperimentResult {
    pub(crate) config: ExperimentConfig,
    pub(crate) algorithms: Vec<AlgorithmOutcome>,
    pub(crate) tests: Vec<PairTest>,
}

/// Runs the experiment on `exec`; run folders go to `runs_dir/name/<algorithm>`, the
/// summary to `runs_dir/name/summary.{md,ron}` and Figure 2 to
/// `plots_dir/name/figure2.png`.
pub(crate) fn run(
    config: &ExperimentConfig,
    problem: &dyn Problem,
    exec: &dyn Executor,
    runs_dir: &Path,
    plots_dir: &Path,
    progress: bool,
) -> Result<ExperimentResult, Error> {
    let home = runs_dir.join(&config.name);
    let binding = Binding::new(&config.space, problem.space())?;
    let mut searches = Vec::new();
    for ai in 0..config.algorithms.len() {
        let (name, rc) = algorithm_run(config, ai);
        let dir = home.join(algorithm_folder(&name));
        run::reuse_or_create_run_dir(&dir, &rc)?;
        if progress {
            eprintln!(
                "{name}: {} trials of {} evaluations",
                config.trials, config.budget
            );
        }
        searches.push(Search {
            name,
            dir,
            config: rc,
            problem,
        });
    }
    let options = SearchOptions {
        progress,
        retry_failed: false,
    };
    let results: Vec<RunResult> = exec.search(&searches, options)?;
    // Re-evaluations cost as much as the search: each is logged as it finishes, with
    // the game it re-plays, so an interrupted experiment only redoes the rest.
    let mut points = Vec::new();
    let mut done = Vec::new();
    let mut jobs = Vec::new();
    for (ai, result) in results.iter().enumerate() {
        let keys: Vec<String> = result.trials.iter().map(|t| point_key(&t.values)).collect();
        let log_path = searches[ai].dir.join(REEVALUATION_LOG);
        let log = read_reevaluation_log(&log_path, &keys, config.reevaluations);
        playtune::damage::warn(&log_path, &log.damaged, "evaluated again");
        drop_lines(&log_path, &log.damaged)?;
        let missing = (0..result.trials.len())
            .flat_map(|t| (0..config.reevaluations).map(move |r| (t, r)))
            .filter(|job| !log.done.contains_key(job))
            .count();
        if progress && missing > 0 {
            eprintln!("{}: {missing} re-evaluations", searches[ai].name);
        }
        points.push(keys);
        done.push(log.done);
    }
    for (ai, result) in results.iter().enumerate() {
        jobs.extend(
            (0..result.trials.len())
                .flat_map(|t| (0..config.reevaluations).map(move |r| (t, r)))
                .filter(|job| !done[ai].contains_key(job))
                .map(|(t, r)| Reevaluation {
                    algorithm: ai,
                    trial: t,
                    repeat: r,
                    values: &result.trials[t].values,
                    point: &points[ai][t],
                }),
        );
    }
    let logs: Vec<PathBuf> = searches
        .iter()
        .map(|s| s.dir.join(REEVALUATION_LOG))
        .collect();
    for ((ai, key), fitness) in reevaluate(config, exec, &binding, &logs, &jobs)? {
        done[ai].insert(key, fitness);
    }
    let mut outcomes = Vec::new();
    for (ai, result) in results.iter().enumerate() {
        let fitness: Vec<f64> = (0..result.trials.len())
            .flat_map(|t| (0..config.reevaluations).map(move |r| (t, r)))
            .map(|job| done[ai][&job])
            .collect();
        let per = config.reevaluations as usize;
        let games = result
            .trials
            .iter()
            .enumerate()
            .map(|(t, tr)| ReevaluatedGame {
                point: tr.recommendation.clone(),
                fitness: fitness[t * per..(t + 1) * per].to_vec(),
            })
            .collect();
        outcomes.push(AlgorithmOutcome {
            name: searches[ai].name.clone(),
            games,
            evaluations_search: result.spent.search,
            evaluations_preprocess: result.spent.preprocess,
        });
    }
    let mut tests = Vec::new();
    for i in 0..outcomes.len() {
        for j in i + 1..outcomes.len() {
            let (a, b) = (&outcomes[i], &outcomes[j]);
            let means = |o: &AlgorithmOutcome| o.means().iter().map(|s| s.mean).collect::<Vec<_>>();
            let worst = |o: &AlgorithmOutcome| o.games[o.extreme(false)].fitness.clone();
            tests.push(PairTest {
                a: a.name.clone(),
                b: b.name.clone(),
                all_trials: mann_whitney(&means(a), &means(b)),
                worst_games: mann_whitney(&worst(a), &worst(b)),
            });
        }
    }
    let result = ExperimentResult {
        config: config.clone(),
        algorithms: outcomes,
        tests,
    };
    let groups: Vec<(String, Vec<(f64, f64)>)> = result
        .algorithms
        .iter()
        .map(|o| {
            (
                o.name.clone(),
                o.means().iter().map(|s| (s.mean, s.se())).collect(),
            )
        })
        .collect();
    let title = format!(
        "{}: mean fitness of each trial's game over {} re-evaluations, sorted",
        config.problem.name, config.reevaluations
    );
    sorted_error_bars(
        &plots_dir.join(&config.name).join("figure2.png"),
        &title,
        "fitness",
        &groups,
    )?;
    playtune::run::lock::write_whole(home.join("summary.md"), summary_markdown(&result))?;
    let ron = ron::ser::to_string_pretty(&result, ron::ser::PrettyConfig::default())?;
    playtune::run::lock::write_whole(home.join("summary.ron"), ron)?;
    Ok(result)
}

/// The folder of an algorithm's search under the experiment: its name in lower case.
pub(crate) fn algorithm_folder(name: &str) -> String {
    name.to_lowercase()
}

/// Algorithm `ai`'s name and the configuration of its search's run folder
/// (`<experiment>/<name in lower case>`): its seed is derived from the experiment's
/// seed and the algorithm's position, so a cluster task builds the same run.
pub(crate) fn algorithm_run(config: &ExperimentConfig, ai: usize) -> (String, RunConfig) {
    let (name, algorithm) = &config.algorithms[ai];
    let rc = RunConfig::plain(
        config.problem.clone(),
        config.space.clone(),
        algorithm.clone(),
        config.budget,
        config.trials,
        derive_seed(config.seed, &[ai as u64]),
    );
    (name.clone(), rc)
}

/// A re-evaluation by (trial, repeat).
pub(crate) type ReevaluationKey = (usize, u64);

/// A re-evaluation's fitness by (algorithm, (trial, repeat)).
pub(crate) type Reevaluated = ((usize, ReevaluationKey), f64);

/// One re-evaluation of a trial's final game.
pub(crate) struct Reevaluation<'a> {
    /// The algorithm's position in the experiment's list.
    pub(crate) algorithm: usize,
    pub(crate) trial: usize,
    pub(crate) repeat: u64,
    /// The final game in the experiment's space.
    pub(crate) values: &'a [f64],
    /// The same as the log names it (`point_key`).
    pub(crate) point: &'a str,
}

/// Plays `jobs` on `exec`, each seeded by (algorithm, trial, repeat), appending each
/// to its algorithm's re-evaluation log (`logs[algorithm]`) as it arrives.
pub(crate) fn reevaluate(
    config: &ExperimentConfig,
    exec: &dyn Executor,
    binding: &Binding,
    logs: &[PathBuf],
    jobs: &[Reevaluation],
) -> Result<Vec<Reevaluated>, Error> {
    if jobs.is_empty() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for log_path in logs {
        // A line an interruption cut short (no newline) is dropped before appending.
        playtune::run::failures::cut_half_line(log_path).map_err(|e| Error::file(log_path, e))?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log_path)
            .map_err(|e| Error::file(log_path, e))?;
        files.push(std::sync::Mutex::new(file));
    }
    let tasks: Vec<Evaluate> = jobs
        .iter()
        .map(|job| {
            let (ai, t, r) = (job.algorithm, job.trial, job.repeat);
            let mut full = Vec::new();
            binding.full_point(job.values, &mut full);
            Evaluate {
                problem: config.problem.clone(),
                space: None,
                point: full,
                seed: derive_seed(config.seed, &[0xEE, ai as u64, t as u64, r]),
                what: format!("{}, trial {t}, re-evaluation {r}", config.algorithms[ai].0),
            }
        })
        .collect();
    let keep = |i: usize, e: &Evaluation| -> Result<(), ExecError> {
        let job = &jobs[i];
        // One write per line: a line an interruption cuts short has no newline.
        let line = format!("{},{},{},{}\n", job.trial, job.repeat, job.point, e.fitness);
        let mut file = files[job.algorithm]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| ExecError::file(&logs[job.algorithm], e))
    };
    let evaluations = map_each(exec, "reevaluations", &tasks, &keep)?;
    Ok(jobs
        .iter()
        .zip(evaluations)
        .map(|(job, e)| ((job.algorithm, (job.trial, job.repeat)), e.fitness))
        .collect())
}

/// Each trial's re-evaluations, one line each: `trial,repeat,point,fitness`.
pub(crate) const REEVALUATION_LOG: &str = "reevaluations.csv";

/// A point as the re-evaluation log names it: its values joined by `;`.
pub(crate) fn point_key(values: &[f64]) -> String {
    let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    v.join(";")
}

/// A re-evaluation log read back: what it holds, and its damaged lines (line from 1,
/// why).
#[derive(Debug, Default)]
pub(crate) struct ReevaluationLog {
    pub(crate) done: HashMap<ReevaluationKey, f64>,
    pub(crate) damaged: Vec<(usize, String)>,
}

/// The logged re-evaluations whose point is still that trial's final game, of
/// repeats `0..repeats`. A line left from another search (another point) is
/// ignored; a line cut short by an interruption is dropped; a damaged line (not
/// `trial,repeat,point,fitness`, a trial or repeat the experiment does not have, a
/// fitness that is not a finite number, or a second copy of a re-evaluation with
/// another fitness: all copies go) is kept with its reason, for the caller to name
/// and evaluate again.
pub(crate) fn read_reevaluation_log(
    path: &Path,
    points: &[String],
    repeats: u64,
) -> ReevaluationLog {
    let Ok(bytes) = std::fs::read(path) else {
        return ReevaluationLog::default();
    };
    let mut out = ReevaluationLog::default();
    let mut line_of: HashMap<ReevaluationKey, usize> = HashMap::new();
    let mut conflicting = std::collections::HashSet::new();
    for (number, line) in playtune::damage::lines(&bytes) {
        let line = String::from_utf8_lossy(line);
        let fields: Vec<&str> = line.split(',').collect();
        let [t, r, point, fitness] = fields[..] else {
            out.damaged
                .push((number, "not trial,repeat,point,fitness".into()));
            continue;
        };
        let (Ok(t), Ok(r), Ok(fitness)) =
            (t.parse::<usize>(), r.parse::<u64>(), fitness.parse::<f64>())
        else {
            out.damaged.push((
                number,
                "a trial, repeat or fitness that is not a number".into(),
            ));
            continue;
        };
        if t >= points.len() {
            out.damaged.push((
                number,
                format!("trial {t}: the experiment has {}", points.len()),
            ));
            continue;
        }
        if r >= repeats {
            out.damaged.push((
                number,
                format!("repeat {r}: the experiment re-evaluates {repeats} times"),
            ));
            continue;
        }
        if !fitness.is_finite() {
            out.damaged
                .push((number, format!("fitness {fitness}: not a finite number")));
            continue;
        }
        if point.is_empty() || points[t] != point {
            continue; // another search's final game
        }
        match out.done.get(&(t, r)) {
            None => {
                out.done.insert((t, r), fitness);
                line_of.insert((t, r), number);
            }
            Some(&old) if old.to_bits() == fitness.to_bits() => {}
            Some(_) => {
                conflicting.insert((t, r));
                out.damaged.push((
                    number,
                    format!(
                        "trial {t}, repeat {r} again with another fitness than line {}: evaluated again",
                        line_of[&(t, r)]
                    ),
                ));
            }
        }
    }
    for key in conflicting {
        out.done.remove(&key);
        out.damaged.push((
            line_of[&key],
            format!(
                "trial {}, repeat {} logged twice with different fitnesses",
                key.0, key.1
            ),
        ));
    }
    out.damaged.sort_by_key(|d| d.0);
    out
}

/// Rewrites the log at `path` without `lines` (numbers from 1), through a temporary
/// file: damaged lines go once they have been named.
pub(crate) fn drop_lines(path: &Path, lines: &[(usize, String)]) -> Result<(), Error> {
    if lines.is_empty() {
        return Ok(());
    }
    let bytes = std::fs::read(path).map_err(|e| Error::file(path, e))?;
    let gone: std::collections::HashSet<usize> = lines.iter().map(|l| l.0).collect();
    let mut kept = Vec::with_capacity(bytes.len());
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if !gone.contains(&(i + 1)) {
            kept.extend_from_slice(line);
        }
    }
    let tmp = path.with_extension("csv.tmp");
    std::fs::write(&tmp, kept)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| Error::file(path, e))
}

fn p_text(m: &Option<MannWhitney>) -> String {
    match m {
        Some(m) => format!("U = {}, p = {:.3e}", m.u, m.p),
        None => "not testable".into(),
    }
}

/// The human-readable summary: per-algorithm statistics, the tests, Table II.
pub(crate) fn summary_markdown(r: &ExperimentResult) -> String {
    let c = &r.config;
    let mut s = format!(
        "# {}: {} on `{}`\n\n{} trials per algorithm, {} evaluations each, every final game re-evaluated {} times; seed {}.\n\n",
        c.name,
        c.algorithms
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(" vs "),
        c.problem.name,
        c.trials,
        c.budget,
        c.reevaluations,
        c.seed
    );
    let settings: Vec<String> = c
        .problem
        .settings
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if !settings.is_empty() {
        let _ = writeln!(s, "Problem settings: {}.\n", settings.join(", "));
    }
    s += "| algorithm | mean of trial means | se | best trial | worst trial | trials with mean > 0 | evaluations (search + pre-processing) |\n|---|---|---|---|---|---|---|\n";
    for o in &r.algorithms {
        let m = o.means();
        let all = Summary::of(&m.iter().map(|x| x.mean).collect::<Vec<_>>());
        let positive = m.iter().filter(|x| x.mean > 0.0).count();
        let _ = writeln!(
            s,
            "| {} | {:.2} | {:.2} | {:.2} | {:.2} | {}/{} | {} + {} |",
            o.name,
            all.mean,
            all.se(),
            m[o.extreme(true)].mean,
            m[o.extreme(false)].mean,
            positive,
            m.len(),
            o.evaluations_search,
            o.evaluations_preprocess
        );
    }
    s += "\n## Two-tailed Mann-Whitney U\n\n| pair | over all trials' means | over the worst games' re-evaluations |\n|---|---|---|\n";
    for t in &r.tests {
        let _ = writeln!(
            s,
            "| {} vs {} | {} | {} |",
            t.a,
            t.b,
            p_text(&t.all_trials),
            p_text(&t.worst_games)
        );
    }
    s += "\n## Table II: the highest- and lowest-average game of each algorithm\n\n";
    if let Some(first) = r.algorithms.first().and_then(|o| o.games.first()) {
        let names: Vec<&String> = first.point.iter().map(|(n, _)| n).collect();
        let mut header = "| parameter |".to_string();
        let mut rule = "|---|".to_string();
        let mut cols = Vec::new();
        for o in &r.algorithms {
            for best in [true, false] {
                let i = o.extreme(best);
                let m = Summary::of(&o.games[i].fitness);
                let _ = write!(
                    header,
                    " {} {} ({:.1}) |",
                    o.name,
                    if best { "highest" } else { "lowest" },
                    m.mean
                );
                rule += "---|";
                cols.push(&o.games[i].point);
            }
        }
        let _ = writeln!(s, "{header}\n{rule}");
        for (k, n) in names.iter().enumerate() {
            let _ = write!(s, "| {n} |");
            for c in &cols {
                let _ = write!(s, " {} |", c.get(k).map(|x| x.1.as_str()).unwrap_or("-"));
            }
            s.push('\n');
        }
    }
    s
}

/// The NTBEA paper's Section V on Space Battle Evolved's rules (Figure 2, Table II).
pub(crate) static SPACE_BATTLE: super::declaration::ExperimentDef =
    super::declaration::ExperimentDef {
        name: "space-battle",
        about: "The NTBEA paper's Section V: RMHC, B-RMHC and NTBEA tune Space Battle's rules, each trial's final game re-evaluated (Figure 2, Table II)",
        details: "Each algorithm's search is a run folder under the experiment's (resumable); the summary gives the sorted re-evaluated fitnesses, Mann-Whitney U tests and the best and worst games' parameters.",
        presets: super::declaration::presets_from!(SPACE_BATTLE_SIZES),
        settings: space_battle_settings,
        folder_carries: None,
        run: space_battle,
    };

/// A preset's name, meaning, trials, evaluations, re-evaluations and problem settings.
type SpaceBattleSizes = (
    &'static str,
    &'static str,
    u64,
    u64,
    u64,
    &'static [(&'static str, &'static str)],
);

const SPACE_BATTLE_SIZES: [SpaceBattleSizes; 4] = [
    (
        "quick",
        "4 trials of 20 evaluations, 5 re-evaluations, 300-tick games, MCTS with 30 iterations (about 4 minutes on 2 cores)",
        4,
        20,
        5,
        &[("max_ticks", "300"), ("mcts_iterations", "30")],
    ),
    (
        "medium",
        "50 trials of 100 evaluations, 20 re-evaluations, 400-tick games, MCTS with 40 iterations (about 50 minutes on 2 cores)",
        50,
        100,
        20,
        &[("max_ticks", "400"), ("mcts_iterations", "40")],
    ),
    (
        "paper",
        "50 trials of 100 evaluations, 100 re-evaluations, 2000-tick games, MCTS with 175 iterations (about 22 hours on 2 cores, resumable)",
        50,
        100,
        100,
        &[],
    ),
    ("full", "as paper", 50, 100, 100, &[]),
];

fn space_battle_settings() -> Vec<playtune::settings::Setting> {
    use super::declaration::{ntbea_setting, size_setting};
    use playtune::settings::Setting;
    vec![
        size_setting("trials", "Trials per algorithm"),
        size_setting("budget", "Evaluations per trial"),
        size_setting("reevaluations", "Re-evaluations of each trial's final game"),
        ntbea_setting(),
        super::declaration::set_setting("problem", ""),
        Setting::new("fix", "", "Fix a parameter, NAME=VALUE").repeatable(),
    ]
}

fn space_battle(
    request: &super::declaration::Request<'_>,
    exec: &dyn Executor,
) -> Result<super::declaration::Outcome, Error> {
    let (_, _, trials, budget, reevaluations, preset_settings) = SPACE_BATTLE_SIZES
        .iter()
        .find(|p| p.0 == request.preset)
        .copied()
        .unwrap_or(SPACE_BATTLE_SIZES[0]);
    let mut settings: std::collections::BTreeMap<String, String> = preset_settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    settings.extend(request.pairs("set")?);
    let spec = ProblemSpec {
        name: "space-battle".into(),
        settings,
    };
    let problem = playtune::registry::build_problem(&spec, None)?;
    let mut space = problem.space().clone();
    space.fix_all(request.list("fix"))?;
    let config = ExperimentConfig {
        name: request.name.clone(),
        problem: spec,
        space,
        algorithms: paper_algorithms(super::declaration::ntbea_config(request)?),
        trials: request.size("trials", trials)?,
        budget: request.size("budget", budget)?,
        reevaluations: request.size("reevaluations", reevaluations)?,
        seed: request.seed,
    };
    let result = run(
        &config,
        problem.as_ref(),
        exec,
        request.runs_dir,
        request.plots_dir,
        request.progress,
    )?;
    Ok(super::declaration::Outcome {
        summary: summary_markdown(&result),
        wrote: vec![
            request.runs_dir.join(&config.name).join("summary.md"),
            request.plots_dir.join(&config.name).join("figure2.png"),
        ],
    })
}
