//! The Rinascimento paper's agent experiments:
//! - tuning: NTBEA tunes each agent's hyper-parameters (win rate in 4-player games
//!   against 3 OSLA) at several budgets, R runs each; every recommendation's true win
//!   rate is measured over G fresh games; box plots per agent (the paper's Figure 5);
//! - the best tuned configuration of each agent against 3 OSLA;
//! - the framework's tuned configurations (BMRH*, SRH*, MCTS*) with OSLA in one
//!   4-player game, and in a 2-player round robin (the paper's Table VIII).
//!
//! Every tuning is an ordinary, resumable run folder; all games are seeded per game.

use super::Error;
use playtune::harness::{AgentSpec, GameRequest, TournamentResult};
use playtune::optim::AlgoConfig;
use playtune::optim::ntbea::NtbeaConfig;
use playtune::registry::build_problem;
use playtune::rng::derive_seed;
use playtune::run::{self, ProblemSpec, RunConfig};
use playtune_exec::{Evaluate, Executor, Search, SearchOptions, map};
use playtune_optim::stats::Summary;
use playtune_report::plot::box_plot;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct TuningConfig {
    pub(crate) name: String,
    pub(crate) agents: Vec<String>,
    /// NTBEA budgets (evaluations; one game each).
    pub(crate) budgets: Vec<u64>,
    /// NTBEA runs per agent and budget.
    pub(crate) runs: u64,
    /// Games behind each recommendation's true win rate.
    pub(crate) true_games: usize,
    /// Forward-model budget per decision, in actions.
    pub(crate) decision_budget: usize,
    /// Games of the tables (best configurations, starred agents).
    pub(crate) table_games: usize,
    pub(crate) seed: u64,
    /// The tuner's settings. Summaries written before this setting existed used the
    /// paper's, which are therefore not written (old summaries reproduce byte for byte).
    #[serde(default = "NtbeaConfig::paper", skip_serializing_if = "is_paper")]
    pub(crate) ntbea: NtbeaConfig,
}

fn is_paper(c: &NtbeaConfig) -> bool {
    *c == NtbeaConfig::paper()
}

/// One agent at one NTBEA budget: each run's recommendation and its true win rate.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct TuningCell {
    pub(crate) agent: String,
    pub(crate) budget: u64,
    pub(crate) recommendations: Vec<Vec<(String, String)>>,
    pub(crate) true_win_rates: Vec<f64>,
}

/// The recommendation with the highest true win rate for one agent.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct BestConfig {
    pub(crate) agent: String,
    pub(crate) win_rate: f64,
    /// The configuration as an agent spec `playtune play` takes.
    pub(crate) spec: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct TableRow {
    pub(crate) lineup: String,
    pub(crate) agent: String,
    pub(crate) games: usize,
    pub(crate) win_rate: f64,
    pub(crate) se: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct TuningResult {
    pub(crate) config: TuningConfig,
    pub(crate) cells: Vec<TuningCell>,
    pub(crate) tables: Vec<TableRow>,
    pub(crate) stalemate_rate_4way: f64,
}

/// What a cell's true win rates depend on besides the tuning run itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TruthKey {
    true_games: usize,
    decision_budget: usize,
    seed: u64,
    points: Vec<Vec<f64>>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct TruthCache {
    key: TruthKey,
    true_win_rates: Vec<f64>,
}

/// The true win rates kept in `path` for `key` (another key's are not these runs').
/// A file that does not read, or rates that cannot be (not one win rate from 0 to 1
/// per run), is named on standard error and measured again.
fn read_truth(path: &Path, key: &TruthKey) -> Option<Vec<f64>> {
    let text = std::fs::read_to_string(path).ok()?;
    let cache = match ron::from_str::<TruthCache>(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "warning: {}; the true win rates are measured again",
                run::ron_error(path, &e)
            );
            return None;
        }
    };
    if cache.key != *key {
        return None;
    }
    let rates = &cache.true_win_rates;
    let why = if rates.len() != key.points.len() {
        Some(format!(
            "{} rates for {} runs",
            rates.len(),
            key.points.len()
        ))
    } else {
        rates
            .iter()
            .position(|v| !(0.0..=1.0).contains(v))
            .map(|i| {
                format!(
                    "true_win_rates[{i}]: {} is not a win rate from 0 to 1",
                    rates[i]
                )
            })
    };
    if let Some(why) = why {
        eprintln!(
            "warning: {}: {why}; the true win rates are measured again",
            path.display()
        );
        return None;
    }
    Some(cache.true_win_rates)
}

/// The agents the experiment tunes: the spec's, each over the spec's grid.
const TUNED: [&str; 3] = ["bmrh", "srh", "mcts"];

/// An agent spec's name without its settings, as the tables print it.
fn short_name(spec: &str) -> String {
    AgentSpec::parse(spec).map_or_else(|_| spec.to_string(), |s| s.name)
}

fn spec(agent: &str, settings: &[(&str, String)]) -> ProblemSpec {
    let mut s: std::collections::BTreeMap<String, String> = settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    s.insert("agent".into(), agent.into());
    ProblemSpec {
        name: "rinascimento-agent".into(),
        settings: s,
    }
}

/// One tuning run: which agent and budget, the search's problem (an index into the
/// problems built) and the problem its recommendations' true win rates are measured on.
struct Cell {
    ai: usize,
    bi: usize,
    budget: u64,
    problem: usize,
    truth: ProblemSpec,
}

/// A tuning run's name, folder and configuration.
type PlannedRun = (String, std::path::PathBuf, RunConfig);

/// Every tuning run's folder (made or reused) and configuration, one a tuned agent and
/// budget, with the problems their searches and true win rates play.
#[allow(clippy::type_complexity)]
fn plan_runs(
    c: &TuningConfig,
    home: &Path,
) -> Result<
    (
        Vec<Box<dyn playtune::eval::Problem>>,
        Vec<Cell>,
        Vec<PlannedRun>,
    ),
    Error,
> {
    let mut problems = Vec::new();
    let mut cells = Vec::new();
    let mut runs = Vec::new();
    for (ai, agent) in c.agents.iter().enumerate() {
        if !TUNED.contains(&agent.as_str()) {
            return Err(Error::NotTuned {
                agent: agent.clone(),
                tuned: TUNED.join(", "),
            });
        }
        let budget_setting = ("budget", c.decision_budget.to_string());
        let search = spec(agent, std::slice::from_ref(&budget_setting));
        let problem = build_problem(&search, None)?;
        let truth = spec(
            agent,
            &[budget_setting, ("games", c.true_games.to_string())],
        );
        build_problem(&truth, None)?;
        for (bi, &budget) in c.budgets.iter().enumerate() {
            let dir = home.join(format!("{agent}-b{budget}"));
            let rc = RunConfig::plain(
                search.clone(),
                problem.space().clone(),
                AlgoConfig::Ntbea(c.ntbea.clone()),
                budget,
                c.runs,
                derive_seed(c.seed, &[ai as u64, bi as u64]),
            );
            run::reuse_or_create_run_dir(&dir, &rc)?;
            runs.push((format!("{agent}, budget {budget}"), dir, rc));
            cells.push(Cell {
                ai,
                bi,
                budget,
                problem: problems.len(),
                truth: truth.clone(),
            });
        }
        problems.push(problem);
    }
    Ok((problems, cells, runs))
}

/// The true win rates of a tuning run's recommendations (`dir`, its result `r`), over
/// `true_games` games each. They cost more games than the tuning itself, so they are
/// kept beside the run: an interrupted experiment resumes past them.
fn true_win_rates(
    c: &TuningConfig,
    exec: &dyn Executor,
    cell: &Cell,
    r: &playtune::run::RunResult,
    dir: &Path,
    progress: bool,
) -> Result<Vec<f64>, Error> {
    let (ai, bi, budget) = (cell.ai, cell.bi, cell.budget);
    let agent = &c.agents[ai];
    let truth_file = dir.join("true_win_rates.ron");
    let key = TruthKey {
        true_games: c.true_games,
        decision_budget: c.decision_budget,
        seed: c.seed,
        points: r.trials.iter().map(|t| t.values.clone()).collect(),
    };
    if let Some(v) = read_truth(&truth_file, &key) {
        return Ok(v);
    }
    if progress {
        eprintln!(
            "{agent}, budget {budget}: true win rates over {} games each",
            c.true_games
        );
    }
    let tasks: Vec<Evaluate> = r
        .trials
        .iter()
        .map(|t| Evaluate {
            problem: cell.truth.clone(),
            space: None,
            point: t.values.clone(),
            seed: derive_seed(c.seed, &[0x7E, ai as u64, bi as u64, t.trial]),
            what: format!("{agent}, budget {budget}, run {}", t.trial),
        })
        .collect();
    let v: Vec<f64> = map(exec, &format!("truth-{agent}-b{budget}"), &tasks)?
        .into_iter()
        .map(|e| e.fitness)
        .collect();
    let cache = TruthCache {
        key,
        true_win_rates: v.clone(),
    };
    let text = ron::ser::to_string(&cache)?;
    playtune::run::lock::write_whole(&truth_file, text)?;
    Ok(v)
}

/// Runs the tuning and the tables; writes `runs_dir/name/summary.{md,ron}` and
/// `plots_dir/name/figure5_<agent>.png`.
pub(crate) fn run(
    c: &TuningConfig,
    exec: &dyn Executor,
    runs_dir: &Path,
    plots_dir: &Path,
    progress: bool,
) -> Result<TuningResult, Error> {
    let home = runs_dir.join(&c.name);
    // Every tuning run first (on a cluster: one array of all their trials), then the
    // true win rates of their recommendations.
    let (problems, cells_todo, runs) = plan_runs(c, &home)?;
    let searches: Vec<Search> = runs
        .into_iter()
        .zip(&cells_todo)
        .map(|((name, dir, config), cell)| Search {
            name,
            dir,
            config,
            problem: problems[cell.problem].as_ref(),
        })
        .collect();
    if progress {
        eprintln!(
            "{} agents x {} budgets: {} NTBEA runs each",
            c.agents.len(),
            c.budgets.len(),
            c.runs
        );
    }
    let results = exec.search(
        &searches,
        SearchOptions {
            progress,
            retry_failed: false,
        },
    )?;
    let mut cells = Vec::new();
    let mut best: Vec<BestConfig> = Vec::new();
    for ((cell, r), s) in cells_todo.iter().zip(&results).zip(&searches) {
        let agent = &c.agents[cell.ai];
        let problem = problems[cell.problem].as_ref();
        let true_win_rates = true_win_rates(c, exec, cell, r, &s.dir, progress)?;
        for (t, &w) in r.trials.iter().zip(&true_win_rates) {
            if best.iter().all(|b| b.agent != *agent)
                || best.iter().any(|b| b.agent == *agent && w > b.win_rate)
            {
                best.retain(|b| b.agent != *agent);
                best.push(BestConfig {
                    agent: agent.clone(),
                    win_rate: w,
                    spec: problem.agent_spec(&t.values).ok_or(Error::NoAgent)?,
                });
            }
        }
        cells.push(TuningCell {
            agent: agent.clone(),
            budget: cell.budget,
            recommendations: r.trials.iter().map(|t| t.recommendation.clone()).collect(),
            true_win_rates,
        });
        if cell.bi + 1 == c.budgets.len() {
            figure5(c, plots_dir, agent, &cells)?;
        }
    }
    let (tables, stalemate_rate_4way) = tables(c, exec, &best)?;
    let result = TuningResult {
        config: c.clone(),
        cells,
        tables,
        stalemate_rate_4way,
    };
    std::fs::create_dir_all(&home)?;
    playtune::run::lock::write_whole(home.join("summary.md"), summary_markdown(&result, &best))?;
    let ron = ron::ser::to_string_pretty(&result, ron::ser::PrettyConfig::default())?;
    playtune::run::lock::write_whole(home.join("summary.ron"), ron)?;
    Ok(result)
}

/// Figure 5 for `agent`: the true win rates of its recommendations, a box a budget.
fn figure5(
    c: &TuningConfig,
    plots_dir: &Path,
    agent: &str,
    cells: &[TuningCell],
) -> Result<(), Error> {
    let groups: Vec<(String, Vec<f64>)> = cells
        .iter()
        .filter(|x| x.agent == *agent)
        .map(|x| (x.budget.to_string(), x.true_win_rates.clone()))
        .collect();
    let title = format!(
        "{agent}: true win rate vs 3 OSLA of NTBEA's recommendation ({} games each)",
        c.true_games
    );
    box_plot(
        &plots_dir.join(&c.name).join(format!("figure5_{agent}.png")),
        &title,
        "NTBEA budget (games)",
        "win rate",
        &groups,
    )?;
    Ok(())
}

/// The tables: the best tuned configuration of each agent against 3 OSLA, then the
/// starred configurations together and in a 2-player round robin, every agent at the
/// decision budget. Returns the rows and the 4-player game's stalemate rate.
fn tables(
    c: &TuningConfig,
    exec: &dyn Executor,
    best: &[BestConfig],
) -> Result<(Vec<TableRow>, f64), Error> {
    let with_budget = |name: &str| format!("{name}(budget={})", c.decision_budget);
    let osla = with_budget("osla");
    let play = |label: &str, agents: Vec<String>, players: usize, seed: u64| {
        playtune_exec::tournament(
            exec,
            label,
            "rinascimento",
            &GameRequest {
                settings: playtune::registry::game("rinascimento")?
                    .settings_values(&[("players".into(), players.to_string())])?,
                agents: AgentSpec::parse_all(&agents)?,
                budget: Some(c.decision_budget),
                seed,
            },
            c.table_games,
        )
    };
    let mut tables = Vec::new();
    let mut push = |lineup: &str, r: &TournamentResult, only_first: bool| {
        for a in r
            .agents
            .iter()
            .take(if only_first { 1 } else { r.agents.len() })
        {
            tables.push(TableRow {
                lineup: lineup.into(),
                agent: short_name(&a.name),
                games: a.games,
                win_rate: a.win_rate,
                se: a.win_rate_se,
            });
        }
    };
    for (i, b) in best.iter().enumerate() {
        let r = play(
            &format!("best-{i}"),
            vec![b.spec.clone(), osla.clone(), osla.clone(), osla.clone()],
            4,
            derive_seed(c.seed, &[0xB0, i as u64]),
        )?;
        push(&format!("best tuned {} vs 3 OSLA", b.agent), &r, true);
    }
    let stars: Vec<String> = ["mcts*", "bmrh*", "srh*"]
        .iter()
        .map(|n| with_budget(n))
        .collect();
    for (i, s) in stars.iter().enumerate() {
        let r = play(
            &format!("star-{i}"),
            vec![s.clone(), osla.clone(), osla.clone(), osla.clone()],
            4,
            derive_seed(c.seed, &[0xB1, i as u64]),
        )?;
        push(&format!("{} vs 3 OSLA", short_name(s)), &r, true);
    }
    let mut four = stars.clone();
    four.push(osla.clone());
    let r4 = play("four-players", four, 4, derive_seed(c.seed, &[0xB2]))?;
    push("MCTS*, BMRH*, SRH*, OSLA (4 players)", &r4, false);
    let rr = play("round-robin", stars, 2, derive_seed(c.seed, &[0xB3]))?;
    for p in &rr.pairs {
        let (a, b) = (
            short_name(&rr.agents[p.a].name),
            short_name(&rr.agents[p.b].name),
        );
        let lineup = format!("{a} vs {b} (2 players)");
        let g = p.games as f64;
        for (name, w) in [(a, p.wins_a), (b, p.wins_b)] {
            let rate = w as f64 / g;
            tables.push(TableRow {
                lineup: lineup.clone(),
                agent: name,
                games: p.games,
                win_rate: rate,
                se: (rate * (1.0 - rate) / g).sqrt(),
            });
        }
    }
    let stalemate_rate_4way = r4
        .extra
        .iter()
        .find(|(k, _)| k == "stalemate_rate")
        .map_or(f64::NAN, |(_, v)| *v);
    Ok((tables, stalemate_rate_4way))
}

fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = p * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

pub(crate) fn summary_markdown(r: &TuningResult, best: &[BestConfig]) -> String {
    let c = &r.config;
    let mut s = format!(
        "# {}: NTBEA tuning of Rinascimento agents\n\n{} NTBEA runs per agent and budget; each evaluation is one 4-player game against 3 OSLA; each recommendation's true win rate over {} games; {} forward-model actions per decision; seed {}.\n\n",
        c.name, c.runs, c.true_games, c.decision_budget, c.seed
    );
    s += "| agent | NTBEA budget | runs | median | q1 | q3 | mean | se |\n|---|---|---|---|---|---|---|---|\n";
    for cell in &r.cells {
        let mut v = cell.true_win_rates.clone();
        v.sort_by(f64::total_cmp);
        let m = Summary::of(&v);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            cell.agent,
            cell.budget,
            v.len(),
            quantile(&v, 0.5),
            quantile(&v, 0.25),
            quantile(&v, 0.75),
            m.mean,
            m.se()
        );
    }
    s += "\n## Best configuration found per agent\n\n";
    for b in best {
        let _ = writeln!(
            s,
            "- {} (true win rate {:.3}): `{}`",
            b.agent, b.win_rate, b.spec
        );
    }
    s += "\n## Tables\n\n| line-up | agent | games | win rate | se |\n|---|---|---|---|---|\n";
    for t in &r.tables {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.3} | {:.3} |",
            t.lineup, t.agent, t.games, t.win_rate, t.se
        );
    }
    let _ = writeln!(
        s,
        "\nStalemates in the 4-player game of starred agents: {:.2}%.",
        100.0 * r.stalemate_rate_4way
    );
    s
}

/// A preset's sizes: name, meaning, NTBEA runs per agent and budget, the budgets,
/// games per true win rate and games per table.
type Sizes = (
    &'static str,
    &'static str,
    u64,
    &'static [u64],
    usize,
    usize,
);

const SIZES: [Sizes; 4] = [
    (
        "quick",
        "10 NTBEA runs at budgets 50-500, 100 games per true win rate, tables of 100 games (about 2 minutes on 2 cores)",
        10,
        &[50, 100, 200, 500],
        100,
        100,
    ),
    (
        "medium",
        "30 runs at budgets 50-1000, 300 games per true win rate, tables of 1000 games",
        30,
        &[50, 100, 200, 500, 1000],
        300,
        1000,
    ),
    (
        "paper",
        "100 runs at budgets 50-1000, 1000 games per true win rate, tables of 10,000 games (117 minutes on 2 cores)",
        100,
        &[50, 100, 200, 500, 1000],
        1000,
        10_000,
    ),
    (
        "full",
        "the same as paper",
        100,
        &[50, 100, 200, 500, 1000],
        1000,
        10_000,
    ),
];

/// The Rinascimento paper's agent tuning, declared for the command line.
pub(crate) static DEF: super::declaration::ExperimentDef = super::declaration::ExperimentDef {
    name: "rinascimento",
    about: "The Rinascimento paper's agent tuning (Figure 5 and Table VIII)",
    details: "NTBEA tunes BMRH, SRH and MCTS at each budget; the best configurations play OSLA, and each agent's tuned and default settings meet in Table VIII.",
    presets: super::declaration::presets_from!(SIZES),
    settings: || {
        use super::declaration::{ntbea_setting, size_setting};
        vec![
            size_setting("trials", "NTBEA runs per agent and budget"),
            playtune::settings::Setting::new(
                "budget",
                "",
                "One NTBEA budget (games) instead of the preset's list",
            ),
            ntbea_setting(),
        ]
    },
    folder_carries: None,
    run: |request, exec| {
        let &(_, _, runs, budgets, true_games, table_games) = SIZES
            .iter()
            .find(|p| p.0 == request.preset)
            .unwrap_or(&SIZES[0]);
        let config = TuningConfig {
            name: request.name.clone(),
            agents: vec!["bmrh".into(), "srh".into(), "mcts".into()],
            budgets: match request.optional_size("budget")? {
                Some(b) => vec![b],
                None => budgets.to_vec(),
            },
            runs: request.size("trials", runs)?,
            true_games,
            decision_budget: playtune::games::rinascimento::agents::DEFAULT_BUDGET,
            table_games,
            seed: request.seed,
            ntbea: super::declaration::ntbea_config(request)?,
        };
        super::declaration::Outcome::after(request, |runs, plots, progress| {
            run(&config, exec, runs, plots, progress)
        })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_true_win_rates_are_checked() {
        let key = TruthKey {
            true_games: 10,
            decision_budget: 100,
            seed: 1,
            points: vec![vec![1.0], vec![2.0]],
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("true_win_rates.ron");
        let write = |rates: Vec<f64>| {
            let cache = TruthCache {
                key: key.clone(),
                true_win_rates: rates,
            };
            std::fs::write(&path, ron::ser::to_string(&cache).unwrap()).unwrap();
        };
        write(vec![0.25, 1.0]);
        assert_eq!(read_truth(&path, &key), Some(vec![0.25, 1.0]));
        for bad in [vec![0.25, 7.0], vec![0.25, f64::NAN], vec![0.5]] {
            write(bad);
            assert_eq!(read_truth(&path, &key), None);
        }
        std::fs::write(&path, "(key: (true_games: 1").unwrap();
        assert_eq!(read_truth(&path, &key), None);
        let other = TruthKey {
            seed: 2,
            ..key.clone()
        };
        write(vec![0.25, 1.0]);
        assert_eq!(read_truth(&path, &other), None);
    }
}
