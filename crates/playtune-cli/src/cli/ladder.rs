//! `playtune ladder`: strategy-game bots of graded difficulty, played in a round robin
//! on levels the bots were never set up on; the table says whether every rung beats
//! the one below by more than two standard errors. The rungs come from one of:
//! - the built-in ladder of configurations (`--rungs N` of them),
//! - one agent at budgets spread over a range (`--agent SPEC --budgets LO..HI`),
//! - a list of agents (`--agents A,B,...`), weakest first as intended,
//! - a play-style archive (a MAP-Elites run of strategy-styles): candidate elites play
//!   a round robin among themselves on training levels first, and the rungs are the
//!   largest set of them whose results against each other are an ordered ladder.

use anyhow::{Result, anyhow, bail};
use clap::Args;
use playtune::games::strategy::{training_levels, validation_levels};
use playtune::harness::agents::{AgentSpec, split_agents};
use playtune::harness::ladder::{ordered_subset, subset_averages};
use playtune::optim::map_elites::Archive;
use playtune::registry::read_config;
use playtune::registry::read_result;
use playtune_experiments::strategy::{
    DIFFICULTY_LADDER, StrategyExperiment, ladder, pair_scores, run,
};
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct LadderArgs {
    /// A finished MAP-Elites run of the strategy-styles problem: its elites are the
    /// candidates. Leave it out to grade bots by configuration.
    run: Option<PathBuf>,
    /// Rungs: how many of the built-in configurations (ends included, 2 to 6), or of
    /// --budgets [default: 6 built-in, 5 budgets].
    #[arg(long, conflicts_with_all = ["run", "agents"])]
    rungs: Option<usize>,
    /// One agent (NAME or NAME(KEY=VALUE,...)) at --rungs budgets spread evenly on a
    /// log scale over --budgets.
    #[arg(long, requires = "budgets", conflicts_with_all = ["run", "agents"])]
    agent: Option<String>,
    /// The budget range LO..HI (forward-model calls) for --agent.
    #[arg(long, requires = "agent")]
    budgets: Option<String>,
    /// Agents, comma-separated, weakest first as intended.
    #[arg(long, conflicts_with = "run")]
    agents: Option<String>,
    /// Archive: which trial's archive.
    #[arg(long, default_value_t = 0)]
    trial: usize,
    /// Archive: elites to pick as rungs.
    #[arg(long, default_value_t = 5)]
    pick: usize,
    /// Archive: the column that orders the candidates: fitness (the archive's win rate)
    /// or a feature.
    #[arg(long, default_value = "fitness")]
    by: String,
    /// Archive: candidates, evenly spaced from the lowest to the highest value of --by,
    /// played in a round robin before picking [default: 2 x --pick].
    #[arg(long)]
    candidates: Option<usize>,
    /// Archive: games per pair of candidates and training level in their round robin
    /// (4 x 20 levels: 80 games a pair; with 10 candidates a row average over 720
    /// games, a standard error of at most 1.9 points).
    #[arg(long, default_value_t = 4)]
    candidate_games: usize,
    /// Level set of the round robin: validation (never used in a search) or training.
    #[arg(long, default_value = "validation")]
    levels: String,
    /// How many levels of the set.
    #[arg(long, default_value_t = 20)]
    level_count: usize,
    /// A game setting for the round robin, NAME=VALUE (repeatable; `playtune games`
    /// lists them).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Games per pair and level, seats alternating (10 x 20 levels: 200 games a pair,
    /// enough to separate rungs 5 points apart).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Seed: every game and evaluation derives its seed from it, so the same seed
    /// gives the same results with any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    output: super::OutputArgs,
}

pub(super) fn ladder_cmd(a: LadderArgs) -> Result<()> {
    if a.games == 0 || a.level_count == 0 {
        bail!("--games and --level-count must be at least 1");
    }
    let set = match a.levels.as_str() {
        "validation" => validation_levels(),
        "training" => training_levels(),
        other => bail!("--levels {other}: validation or training"),
    };
    let levels: Vec<u64> = set.into_iter().take(a.level_count).collect();
    let (mut x, heading) = match &a.run {
        Some(run) => from_archive(&a, run, levels)?,
        None => by_configuration(&a, levels)?,
    };
    x.settings = super::name_value_pairs("--set", &a.settings)?;
    let (folder, _lock) = locked_folder(&a.output.runs_dir, &x.name)?;
    if a.run.is_some() {
        // How the candidates' round robin chose the rungs, beside the ladder's summary.
        playtune::run::lock::write_whole(folder.join("candidates.md"), &heading)
            .map_err(|e| anyhow!("{}: {e}", folder.join("candidates.md").display()))?;
    }
    let md = run(
        &x,
        &playtune_exec::Local,
        &a.output.runs_dir,
        &a.output.plots_dir,
        !a.output.quiet,
    )
    .map_err(anyhow::Error::msg)?;
    println!("{heading}\n\n{md}");
    println!(
        "Games: {}/games.csv; picture: {}/round_robin.png",
        folder.display(),
        a.output.plots_dir.join(&x.name).display()
    );
    Ok(())
}

/// The ladder's folder, made if need be and locked: one command at a time writes it.
fn locked_folder(
    runs_dir: &std::path::Path,
    name: &str,
) -> Result<(PathBuf, playtune::run::lock::FolderLock)> {
    let folder = runs_dir.join(super::folder_name(name)?);
    std::fs::create_dir_all(&folder)
        .map_err(|e| anyhow!("{}: cannot create: {e}", folder.display()))?;
    let lock = playtune::run::lock::lock(&folder).map_err(anyhow::Error::msg)?;
    Ok((folder, lock))
}

/// Rungs from configurations: the built-in ladder, one agent over a budget range, or
/// the agents given.
fn by_configuration(a: &LadderArgs, levels: Vec<u64>) -> Result<(StrategyExperiment, String)> {
    let (agents, default_name, heading) = if let Some(list) = &a.agents {
        let agents = split_agents(list);
        if agents.len() < 2 {
            bail!("--agents: give at least two agents, weakest first");
        }
        (
            agents,
            "ladder-agents".to_string(),
            "Ladder of the agents given".to_string(),
        )
    } else if let (Some(agent), Some(range)) = (&a.agent, &a.budgets) {
        let rungs = a.rungs.unwrap_or(5);
        let (lo, hi) = budget_range(range)?;
        if rungs < 2 {
            bail!("--rungs must be at least 2");
        }
        let spec = AgentSpec::parse(agent).map_err(|e| anyhow!("--agent {agent}: {e}"))?;
        let agents = log_spaced(lo, hi, rungs)
            .into_iter()
            .map(|b| with_budget(&spec, b).to_string())
            .collect();
        (
            agents,
            format!("ladder-{}-{lo}-{hi}-r{rungs}", spec.name),
            format!("Ladder of {agent} at {rungs} budgets from {lo} to {hi}"),
        )
    } else {
        let all = DIFFICULTY_LADDER.len();
        let rungs = a.rungs.unwrap_or(all);
        if !(2..=all).contains(&rungs) {
            bail!("--rungs {rungs}: the built-in ladder has 2 to {all} rungs");
        }
        let agents = spread(all, rungs)
            .into_iter()
            .map(|i| DIFFICULTY_LADDER[i].to_string())
            .collect();
        (
            agents,
            format!("ladder-builtin-r{rungs}"),
            format!("Built-in ladder, {rungs} of its {all} rungs"),
        )
    };
    let name = a.output.name.clone().unwrap_or(default_name);
    let x = StrategyExperiment::round_robin(&name, agents, levels, a.games, a.seed);
    Ok((x, heading))
}

/// `k` indices of `0..n` spread evenly, both ends included.
fn spread(n: usize, k: usize) -> Vec<usize> {
    (0..k)
        .map(|i| (i * (n - 1) + (k - 1) / 2) / (k - 1))
        .collect()
}

/// `LO..HI`, whole numbers with 1 <= LO < HI.
fn budget_range(text: &str) -> Result<(u64, u64)> {
    let bad = || anyhow!("--budgets {text}: give LO..HI, whole numbers with 1 <= LO < HI");
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    let (lo, hi): (u64, u64) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim().parse().map_err(|_| bad())?,
    );
    if lo == 0 || lo >= hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// `k` budgets from `lo` to `hi`, evenly spaced on a log scale and rounded.
fn log_spaced(lo: u64, hi: u64, k: usize) -> Vec<u64> {
    let (l, h) = ((lo as f64).ln(), (hi as f64).ln());
    let mut out: Vec<u64> = (0..k)
        .map(|i| (l + (h - l) * i as f64 / (k - 1) as f64).exp().round() as u64)
        .collect();
    out.dedup();
    out
}

/// The agent with its `budget` setting set to `budget` (added when it has none).
fn with_budget(spec: &AgentSpec, budget: u64) -> AgentSpec {
    let mut spec = spec.clone();
    spec.settings.retain(|(k, _)| k != "budget");
    spec.settings.push(("budget".into(), budget.to_string()));
    spec
}

/// Rungs from a play-style archive: candidates spread over the archive by `--by`,
/// re-evaluated with fresh games, then a chain of them each separated from the one
/// below by more than two standard errors of the re-evaluation.
fn from_archive(
    a: &LadderArgs,
    run_dir: &std::path::Path,
    levels: Vec<u64>,
) -> Result<(StrategyExperiment, String)> {
    if a.pick < 2 || a.candidate_games == 0 {
        bail!("--pick must be at least 2 and --candidate-games at least 1");
    }
    let config = read_config(run_dir).map_err(anyhow::Error::msg)?;
    if config.problem.name != "strategy-styles" {
        bail!(
            "{}: a ladder needs a run of the strategy-styles problem (this one is `{}`)",
            run_dir.display(),
            config.problem.name
        );
    }
    let result = read_result(run_dir).map_err(anyhow::Error::msg)?;
    let archive = result
        .trials
        .get(a.trial)
        .and_then(|t| t.archive.as_ref())
        .ok_or_else(|| anyhow!("{}: trial {} has no archive", run_dir.display(), a.trial))?;
    let elites = archive.elites();
    let names: Vec<&str> = archive.axes().iter().map(|x| x.name.as_str()).collect();
    let problem = playtune::registry::build_problem(&config.problem, Some(&config.space))
        .map_err(anyhow::Error::msg)?;
    // The column: None for the fitness, else a feature's index.
    let column = if a.by == "fitness" {
        None
    } else {
        let features = problem.feature_names();
        Some(features.iter().position(|f| *f == a.by).ok_or_else(|| {
            anyhow!(
                "--by {}: no such column (fitness, {})",
                a.by,
                features.join(", ")
            )
        })?)
    };
    let mut order: Vec<(f64, usize)> = elites
        .iter()
        .enumerate()
        .map(|(i, e)| (column.map_or(e.fitness, |c| e.features[c]), i))
        .collect();
    if order.len() < a.pick {
        bail!(
            "the archive has {} elites, fewer than --pick {}",
            order.len(),
            a.pick
        );
    }
    order.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let wanted = a
        .candidates
        .unwrap_or(2 * a.pick)
        .clamp(a.pick, order.len());
    let mut candidate_ids: Vec<usize> = spread(order.len(), wanted)
        .into_iter()
        .map(|k| order[k].1)
        .collect();
    candidate_ids.dedup();
    let values = |ids: &[usize]| -> Vec<Vec<f64>> {
        ids.iter().map(|&id| elites[id].values.clone()).collect()
    };
    // The agents play with the search's own agent budget.
    let budget = config
        .problem
        .settings
        .get("budget")
        .map(|b| format!("budget={b}"))
        .unwrap_or_default();
    let name = a.output.name.clone().unwrap_or_else(|| {
        let base = run_dir
            .file_name()
            .map_or("run".into(), |n| n.to_string_lossy().to_string());
        format!("{base}-ladder")
    });
    // The candidates meet each other first, on training levels: their archive win
    // rates come from a few games against one opponent, and strength against one
    // opponent does not order portfolio bots against each other.
    let training: Vec<u64> = training_levels().into_iter().take(levels.len()).collect();
    let mut pool = ladder(
        &format!("{name}/candidates"),
        &config.space,
        &values(&candidate_ids),
        &budget,
        training,
        a.candidate_games,
        a.seed,
    )
    .map_err(anyhow::Error::msg)?;
    pool.settings = super::name_value_pairs("--set", &a.settings)?;
    let pool_games = pool.levels.len() * a.candidate_games;
    let (_, _lock) = locked_folder(&a.output.runs_dir, &name)?;
    if !a.output.quiet {
        eprintln!(
            "candidates: {} elites in a round robin, {pool_games} games a pair on training levels",
            candidate_ids.len()
        );
    }
    run(
        &pool,
        &playtune_exec::Local,
        &a.output.runs_dir,
        &a.output.plots_dir,
        !a.output.quiet,
    )
    .map_err(anyhow::Error::msg)?;
    let scores = pair_scores(&pool, &a.output.runs_dir);
    let everyone: Vec<usize> = (0..candidate_ids.len()).collect();
    let field = subset_averages(&scores, &everyone)
        .ok_or_else(|| anyhow!("{}: the candidates' round robin is incomplete", name))?;
    let chosen = ordered_subset(&scores, a.pick).ok_or_else(|| {
        anyhow!(
            "no two of the {} candidates are separated by more than 2 standard errors in their round robin ({pool_games} games a pair): give --candidate-games more, or --by another column",
            candidate_ids.len()
        )
    })?;
    let mut heading = format!(
        "Ladder from {} (axes {}): {} candidates by {}, in a round robin of {pool_games} games a pair on training levels (`{name}/candidates/summary.md`). The rungs are the largest set of at most {} whose round robin among themselves is ordered, each rung above the one below by more than 2 standard errors:\n\n| candidate | archive fitness | average against all candidates | se | rung | average against the rungs | se |\n|---|---|---|---|---|---|---|\n",
        run_dir.display(),
        names.join(" x "),
        candidate_ids.len(),
        a.by,
        a.pick
    );
    let mut by_strength: Vec<usize> = everyone.clone();
    by_strength.sort_by(|&i, &j| field[i].0.total_cmp(&field[j].0).then(i.cmp(&j)));
    for i in by_strength {
        let (rung, within) = match chosen.rungs.iter().position(|&r| r == i) {
            Some(r) => (
                r.to_string(),
                format!("{:.3} | {:.3}", chosen.averages[r].0, chosen.averages[r].1),
            ),
            None => (String::new(), " | ".to_string()),
        };
        heading.push_str(&format!(
            "| {i} | {:.3} | {:.3} | {:.3} | {rung} | {within} |\n",
            elites[candidate_ids[i]].fitness, field[i].0, field[i].1
        ));
    }
    if chosen.rungs.len() < a.pick {
        heading.push_str(&format!(
            "\nOnly {} candidates make an ordered ladder with every step above 2 standard errors (asked for {}).\n",
            chosen.rungs.len(),
            a.pick
        ));
    }
    let rung_ids: Vec<usize> = chosen.rungs.iter().map(|&r| candidate_ids[r]).collect();
    let x = ladder(
        &name,
        &config.space,
        &values(&rung_ids),
        &budget,
        levels,
        a.games,
        a.seed,
    )
    .map_err(anyhow::Error::msg)?;
    Ok((x, heading))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_spread_on_a_log_scale_and_ranges_are_checked() {
        assert_eq!(log_spaced(100, 10000, 3), vec![100, 1000, 10000]);
        assert_eq!(budget_range("300..20000").unwrap(), (300, 20000));
        for bad in ["300", "0..10", "10..10", "20..10", "a..b"] {
            assert!(budget_range(bad).is_err(), "{bad}");
        }
        let spec = AgentSpec::parse("hps(depth=1,budget=7)").unwrap();
        assert_eq!(
            with_budget(&spec, 300).to_string(),
            "hps(depth=1,budget=300)"
        );
    }

    #[test]
    fn spread_keeps_both_ends() {
        assert_eq!(spread(6, 6), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(spread(6, 2), vec![0, 5]);
        assert_eq!(spread(6, 3), vec![0, 3, 5]);
    }
}
