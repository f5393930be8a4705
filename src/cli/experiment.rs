//! `playtune experiment`: the papers' experiments as presets.

use super::Executor;
use crate::experiments::compare_optimizers::{ExperimentConfig, paper_algorithms, run};
use crate::optim::ntbea::NtbeaConfig;
use crate::registry::build_problem;
use crate::run::ProblemSpec;
use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Preset {
    /// A few minutes or less on 2 cores, to see what an experiment writes. space-battle:
    /// 4 trials of 20 evaluations, 5 re-evaluations, 300-tick games, MCTS with 30
    /// iterations. rinascimento: 10 NTBEA runs at budgets 50-500, 100 games per win
    /// rate. ntbea-defaults: a smoke test. strategy-portfolio, strategy-difficulty: 4
    /// training levels x 2 games a pairing. play-styles: 40 evaluations an archive of
    /// short games. learned-eval: small self-play, training and tables.
    Quick,
    /// space-battle: the paper's design at a smaller game, 50 trials of 100
    /// evaluations, 20 re-evaluations, 400-tick games, MCTS with 40 iterations (about
    /// 50 minutes on 2 cores). rinascimento: 30 NTBEA runs at budgets 50-1000, 300
    /// games per true win rate, tables of 1000 games. ntbea-defaults: the published
    /// run (about 25 minutes). Elsewhere the same as full.
    Medium,
    /// The papers' settings. space-battle: 50 trials of 100 evaluations, 100
    /// re-evaluations, 2000-tick games, MCTS with 175 iterations (roughly 40
    /// core-hours, resumable). rinascimento: 100 NTBEA runs, 1000 games per true win
    /// rate, tables of 10,000 games (117 minutes on 2 cores). Strategy experiments: as
    /// full.
    Paper,
    /// The strategy experiments' published tables (strategy-portfolio,
    /// strategy-difficulty, play-styles, learned-eval): every training level, 10 games
    /// per pairing and level, the full archives and training; elsewhere as paper.
    Full,
}

/// The NTBEA settings an experiment tunes with.
#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum NtbeaSettings {
    /// The paper's (1-tuples and the N-tuple, k = 0.5 x fitness range, epsilon 0.5),
    /// so that the experiment reproduces the paper.
    Paper,
    /// playtune's defaults, as `optimize` uses them.
    Defaults,
}

impl NtbeaSettings {
    fn config(self) -> NtbeaConfig {
        match self {
            NtbeaSettings::Paper => NtbeaConfig::paper(),
            NtbeaSettings::Defaults => NtbeaConfig::default(),
        }
    }
}

impl Preset {
    fn name(self) -> &'static str {
        match self {
            Preset::Quick => "quick",
            Preset::Medium => "medium",
            Preset::Paper => "paper",
            Preset::Full => "full",
        }
    }
}

#[derive(Args)]
pub struct ExperimentArgs {
    /// Which experiment: space-battle (the NTBEA paper's Section V), rinascimento
    /// (the Rinascimento paper's agent tuning, Figure 5 and Table VIII),
    /// ntbea-defaults (NTBEA tunes NTBEA's own defaults over benchmark problems),
    /// strategy-portfolio (portfolio MCTS against MCTS and RHEA, the Tribes paper's
    /// Table I), strategy-difficulty (a round robin of bots by configuration),
    /// play-styles (MAP-Elites archives of P-MCTS(PU) script weights, validated) or
    /// learned-eval (self-play, a trained state evaluator and the Prismata paper's
    /// Tables II and III).
    experiment: String,
    /// How large a run: quick (minutes), medium, paper or full; see each value below.
    #[arg(long, value_enum, default_value = "quick")]
    preset: Preset,
    /// Trials per algorithm [default: the preset's].
    #[arg(long)]
    trials: Option<u64>,
    /// Evaluations per trial [default: the preset's].
    #[arg(long)]
    budget: Option<u64>,
    /// Re-evaluations of each trial's final game [default: the preset's].
    #[arg(long)]
    reevaluations: Option<u64>,
    /// NTBEA's settings (both experiments).
    #[arg(long, value_enum, default_value = "paper")]
    ntbea: NtbeaSettings,
    /// A problem setting over the preset's, NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Fix a parameter, NAME=VALUE (repeatable).
    #[arg(long = "fix", value_name = "NAME=VALUE")]
    fix: Vec<String>,
    /// Experiment seed: every run, game and re-evaluation derives its seed from it, so
    /// the same seed gives the same files with any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder name under --runs-dir and --plots-dir [default: EXPERIMENT-PRESET].
    #[arg(long)]
    name: Option<String>,
    /// Where the experiment's folder goes; an existing folder is resumed from its logs.
    #[arg(long, default_value = "runs")]
    runs_dir: PathBuf,
    /// Where its figures go.
    #[arg(long, default_value = "plots")]
    plots_dir: PathBuf,
    /// The game whose rules rule-design searches.
    #[arg(long, default_value = "rinascimento")]
    game: String,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    cluster: super::ClusterArgs,
    /// With --executor slurm: submit and return without waiting (`playtune status
    /// RUN` shows the tasks; the same command again collects or resubmits).
    #[arg(long)]
    detach: bool,
}

pub fn experiment(a: ExperimentArgs) -> Result<()> {
    a.cluster.check()?;
    if a.cluster.executor == Executor::Local && a.detach {
        bail!("--detach goes with --executor slurm");
    }
    let folder = a.runs_dir.join(a.name.clone().unwrap_or_else(|| {
        if a.experiment == "rule-design" {
            format!("rule-design-{}-{}", a.game, a.preset.name())
        } else {
            format!("{}-{}", a.experiment, a.preset.name())
        }
    }));
    // Where the work runs, picked once: every experiment is handed it and never asks
    // which it is. Slurm's tools are checked before any folder is made.
    let exec = a.cluster.executor(
        &folder,
        crate::exec::SearchUnit::Trials,
        !a.detach,
        !a.quiet,
        true,
    )?;
    super::interrupt::on_interrupt(&format!(
        "what finished is in {}; the same command again goes on from there",
        folder.display()
    ));
    const KNOWN: [&str; 8] = [
        "space-battle",
        "rule-design",
        "rinascimento",
        "ntbea-defaults",
        "strategy-portfolio",
        "strategy-difficulty",
        "learned-eval",
        "play-styles",
    ];
    // One command at a time in an experiment's folder: locked before its first write.
    // A folder made here for a command refused before it wrote anything is removed.
    let (_lock, made) = if KNOWN.contains(&a.experiment.as_str()) {
        let made: Vec<PathBuf> = folder
            .ancestors()
            .filter(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let lock = crate::run::lock::lock_experiment(&folder).map_err(anyhow::Error::msg);
        (Some(lock?), made)
    } else {
        (None, Vec::new())
    };
    let exec = exec.as_ref();
    let outcome = match a.experiment.as_str() {
        "space-battle" => space_battle(&a, exec),
        "rinascimento" => rinascimento(&a, exec),
        "ntbea-defaults" => ntbea_defaults(&a, exec),
        "strategy-portfolio" | "strategy-difficulty" => strategy(&a, exec),
        "learned-eval" => learned_eval(&a, exec),
        "play-styles" => play_styles(&a, exec),
        "rule-design" => rule_design(&a, exec),
        other => bail!(
            "unknown experiment `{other}` (known: space-battle, rule-design, rinascimento, ntbea-defaults, strategy-portfolio, strategy-difficulty, play-styles, learned-eval)"
        ),
    };
    // Work handed to the cluster without waiting for it: where it went.
    let submitted = exec.submitted();
    if outcome.is_err() && !submitted.is_empty() {
        for (dir, tasks, job) in submitted {
            match job {
                Some(job) => println!(
                    "submitted {tasks} task(s) as Slurm job {job} ({}); `playtune status {}` shows them, the same command again collects them",
                    dir.display(),
                    folder.display()
                ),
                None => println!(
                    "nothing new to submit; `playtune status {}` shows where the tasks stand",
                    folder.display()
                ),
            }
        }
        return Ok(());
    }
    if outcome.is_err() && !made.is_empty() {
        let _ = std::fs::remove_file(folder.join(crate::run::lock::LOCK_FILE));
        // Only folders left empty go (remove_dir refuses any other).
        for d in &made {
            let _ = std::fs::remove_dir(d);
        }
    }
    outcome
}

/// The Rinascimento paper's agent experiments (Figure 5, best configurations vs OSLA,
/// Table VIII). Quick: 10 NTBEA runs at budgets 50-500, true win rates over 100 games,
/// tables of 100 games (about 2 minutes on 2 cores). Paper: 100 runs at budgets
/// 50-1000, 1000 games per true win rate, tables of 10,000 games (117 minutes on 2 cores).
fn rinascimento(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    use crate::experiments::rinascimento_tuning::{TuningConfig, run};
    if !a.settings.is_empty() || !a.fix.is_empty() || a.reevaluations.is_some() {
        bail!(
            "the rinascimento experiment takes --trials (NTBEA runs) and --budget (one NTBEA budget instead of the preset's list), not --set, --fix or --reevaluations"
        );
    }
    let (runs, budgets, true_games, table_games): (u64, Vec<u64>, usize, usize) = match a.preset {
        Preset::Quick => (10, vec![50, 100, 200, 500], 100, 100),
        Preset::Medium => (30, vec![50, 100, 200, 500, 1000], 300, 1000),
        Preset::Paper | Preset::Full => (100, vec![50, 100, 200, 500, 1000], 1000, 10_000),
    };
    let preset = a.preset.name();
    let config = TuningConfig {
        name: a
            .name
            .clone()
            .unwrap_or_else(|| format!("rinascimento-{preset}")),
        agents: vec!["bmrh".into(), "srh".into(), "mcts".into()],
        budgets: a.budget.map(|b| vec![b]).unwrap_or(budgets),
        runs: a.trials.unwrap_or(runs),
        true_games,
        decision_budget: crate::games::rinascimento::agents::DEFAULT_BUDGET,
        table_games,
        seed: a.seed,
        ntbea: a.ntbea.config(),
    };
    if config.runs == 0 || config.budgets.contains(&0) {
        bail!("--trials and --budget must be at least 1");
    }
    let started = std::time::Instant::now();
    run(&config, exec, &a.runs_dir, &a.plots_dir, !a.quiet).map_err(anyhow::Error::msg)?;
    print_summary(a, &config.name, started)
}

/// How NTBEA's defaults were chosen: NTBEA tunes NTBEA's settings over the
/// `ntbea-suite` benchmarks, then the recommendations and the usual alternatives are
/// validated with many runs. Quick: a smoke test (seconds). Medium: the published run
/// (runs/published/ntbea-defaults; about 25 minutes on 2 cores).
fn ntbea_defaults(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    use crate::experiments::ntbea_defaults::{DefaultsConfig, run, summary_markdown};
    if !a.settings.is_empty() || !a.fix.is_empty() || a.ntbea != NtbeaSettings::Paper {
        bail!(
            "the ntbea-defaults experiment takes --trials (tuning runs), --budget (evaluations per tuning run) and --reevaluations (validation runs per benchmark), not --set, --fix or --ntbea"
        );
    }
    let (budget, runs, per_eval, validation) = match a.preset {
        Preset::Quick => (30, 2, 2, 10),
        Preset::Medium => (300, 4, 10, 400),
        Preset::Paper | Preset::Full => {
            bail!("ntbea-defaults reproduces no paper: use --preset medium for the published run")
        }
    };
    let config = DefaultsConfig {
        name: a
            .name
            .clone()
            .unwrap_or_else(|| format!("ntbea-defaults-{}", a.preset.name())),
        tuning_budget: a.budget.unwrap_or(budget),
        tuning_runs: a.trials.unwrap_or(runs),
        runs_per_evaluation: per_eval,
        validation_runs: a.reevaluations.unwrap_or(validation),
        seed: a.seed,
    };
    if config.tuning_budget == 0 || config.tuning_runs == 0 || config.validation_runs == 0 {
        bail!("--trials, --budget and --reevaluations must be at least 1");
    }
    let started = std::time::Instant::now();
    let result = run(&config, exec, &a.runs_dir, !a.quiet).map_err(anyhow::Error::msg)?;
    println!("{}", summary_markdown(&result));
    println!(
        "wrote {} in {:.0} s",
        a.runs_dir.join(&config.name).join("summary.md").display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The strategy game's tables: `strategy-portfolio` (the Tribes paper's Table I) and
/// `strategy-difficulty` (the Prismata paper's round robin of bots made by
/// configuration). Quick: 4 training levels x 2 games per pairing (a minute or two on
/// 2 cores). Full (or paper): all 20 training levels x 10 games per pairing for the
/// portfolio table (about 25 minutes on 2 cores) and for the difficulty one (about 7);
/// published in runs/published/.
fn strategy(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    use crate::experiments::strategy::{StrategyExperiment, run};
    if a.trials.is_some() || a.budget.is_some() || a.reevaluations.is_some() || !a.fix.is_empty() {
        bail!(
            "the strategy experiments take --preset, --set (game settings such as turns=20), --seed and --name, not --trials, --budget, --reevaluations or --fix"
        );
    }
    let portfolio = a.experiment == "strategy-portfolio";
    let (levels, games) = match (a.preset, portfolio) {
        (Preset::Quick, _) => (4, 2),
        (Preset::Medium, _) => (10, 4),
        (Preset::Paper | Preset::Full, true) => (20, 10),
        (Preset::Paper | Preset::Full, false) => (20, 10),
    };
    let name = a
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-{}", a.experiment, a.preset.name()));
    let mut x = if portfolio {
        StrategyExperiment::portfolio(&name, levels, games, a.seed)
    } else {
        StrategyExperiment::difficulty(&name, levels, games, a.seed)
    };
    x.settings
        .extend(super::name_value_pairs("--set", &a.settings)?);
    let started = std::time::Instant::now();
    run(&x, exec, &a.runs_dir, &a.plots_dir, !a.quiet).map_err(anyhow::Error::msg)?;
    print_summary(a, &name, started)
}

/// The Prismata learned-evaluation paper's Tables II and III in the strategy game:
/// self-play, training, evaluations per second, and the learned HPS player against the
/// heuristic and playout ones at equal thinking time and equal forward-model budget.
/// Quick: a couple of minutes on 2 cores. Full (or paper): about an hour; published in
/// runs/published/learned-eval-full.
fn learned_eval(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    use crate::experiments::learned_eval::{LearnedEvalConfig, run};
    if a.trials.is_some() || a.budget.is_some() || a.reevaluations.is_some() || !a.fix.is_empty() {
        bail!(
            "the learned-eval experiment takes --preset, --set (game settings such as turns=20), --seed and --name, not --trials, --budget, --reevaluations or --fix"
        );
    }
    let name = a
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-{}", a.experiment, a.preset.name()));
    let mut x = match a.preset {
        Preset::Quick => LearnedEvalConfig::quick(&name, a.seed),
        _ => LearnedEvalConfig::full(&name, a.seed),
    };
    for (k, v) in super::name_value_pairs("--set", &a.settings)? {
        x.settings.retain(|(name, _)| *name != k);
        x.settings.push((k, v));
    }
    let started = std::time::Instant::now();
    run(&x, exec, &a.runs_dir, &a.plots_dir, !a.quiet).map_err(anyhow::Error::msg)?;
    print_summary(a, &name, started)
}

/// The play-styles paper's three archives in the strategy game, their heatmaps and
/// the validation of their corner elites. Quick: short games at 100 calls a decision,
/// 40 evaluations an archive (about a minute on 2 cores). Full (or paper): the
/// problem's defaults (2 levels x 5 games against MCTS at 2000 calls, about 16 s an
/// evaluation on 2 cores), 300 evaluations an archive, corners validated over 200
/// games each on validation levels: about 5 hours on 2 cores, resumable.
fn play_styles(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    use crate::experiments::play_styles::{PlayStyles, paper_pairs, run};
    if a.trials.is_some() || a.reevaluations.is_some() || !a.fix.is_empty() {
        bail!(
            "the play-styles experiment takes --preset, --budget (evaluations per archive), --set (search settings of strategy-styles), --seed and --name"
        );
    }
    let pairs = |v: &[(&str, &str)]| -> std::collections::BTreeMap<String, String> {
        v.iter()
            .map(|(k, w)| (k.to_string(), w.to_string()))
            .collect()
    };
    let (search, evaluations, init_random, batch, validation, validation_evaluations) =
        match a.preset {
            Preset::Quick => (
                pairs(&[
                    ("levels", "1"),
                    ("games", "2"),
                    ("budget", "100"),
                    ("turns", "20"),
                ]),
                40,
                5,
                6,
                pairs(&[("level_set", "validation"), ("levels", "4"), ("games", "2")]),
                2,
            ),
            Preset::Medium => (
                pairs(&[("budget", "500")]),
                100,
                10,
                12,
                pairs(&[
                    ("level_set", "validation"),
                    ("levels", "10"),
                    ("games", "2"),
                ]),
                3,
            ),
            Preset::Paper | Preset::Full => (
                pairs(&[]),
                300,
                20,
                12,
                pairs(&[
                    ("level_set", "validation"),
                    ("levels", "20"),
                    ("games", "2"),
                ]),
                5,
            ),
        };
    let mut search = search;
    search.extend(super::name_value_pairs("--set", &a.settings)?);
    let name = a
        .name
        .clone()
        .unwrap_or_else(|| format!("play-styles-{}", a.preset.name()));
    let x = PlayStyles {
        name: name.clone(),
        pairs: paper_pairs(),
        search,
        evaluations: a.budget.unwrap_or(evaluations),
        init_random,
        batch,
        validation,
        validation_evaluations,
        seed: a.seed,
    };
    if x.evaluations == 0 {
        bail!("--budget must be at least 1");
    }
    let started = std::time::Instant::now();
    let outcomes = run(&x, exec, &a.runs_dir, !a.quiet).map_err(anyhow::Error::msg)?;
    for o in &outcomes {
        let columns = [
            "fitness",
            o.pair.axes[0].name.as_str(),
            o.pair.axes[1].name.as_str(),
        ];
        super::plot::archive_pictures(
            &o.dir,
            &a.plots_dir.join(&name).join(o.pair.name),
            &columns,
        )?;
    }
    print_summary(a, &name, started)
}

fn space_battle(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let (trials, budget, reevaluations, preset_settings): (u64, u64, u64, &[(&str, &str)]) =
        match a.preset {
            Preset::Quick => (4, 20, 5, &[("max_ticks", "300"), ("mcts_iterations", "30")]),
            Preset::Medium => (
                50,
                100,
                20,
                &[("max_ticks", "400"), ("mcts_iterations", "40")],
            ),
            Preset::Paper | Preset::Full => (50, 100, 100, &[]),
        };
    let mut settings: std::collections::BTreeMap<String, String> = preset_settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    settings.extend(super::name_value_pairs("--set", &a.settings)?);
    let spec = ProblemSpec {
        name: "space-battle".into(),
        settings,
    };
    let problem = build_problem(&spec, None).map_err(|e| anyhow!("--set: {e}"))?;
    let mut space = problem.space().clone();
    space.fix_all(&a.fix).map_err(anyhow::Error::msg)?;
    let preset = a.preset.name();
    let config = ExperimentConfig {
        name: a
            .name
            .clone()
            .unwrap_or_else(|| format!("{}-{preset}", a.experiment)),
        problem: spec,
        space,
        algorithms: paper_algorithms(a.ntbea.config()),
        trials: a.trials.unwrap_or(trials),
        budget: a.budget.unwrap_or(budget),
        reevaluations: a.reevaluations.unwrap_or(reevaluations),
        seed: a.seed,
    };
    if config.trials == 0 || config.budget == 0 || config.reevaluations == 0 {
        bail!("--trials, --budget and --reevaluations must be at least 1");
    }
    let started = std::time::Instant::now();
    let result = run(
        &config,
        problem.as_ref(),
        exec,
        &a.runs_dir,
        &a.plots_dir,
        !a.quiet,
    )
    .map_err(anyhow::Error::msg)?;
    let md = crate::experiments::compare_optimizers::summary_markdown(&result);
    println!("{md}");
    println!(
        "wrote {} and {} in {:.0} s",
        a.runs_dir.join(&config.name).join("summary.md").display(),
        a.plots_dir.join(&config.name).join("figure2.png").display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The rule-design study (docs/design.md): quick (minutes) or full (10 runs of NTBEA,
/// random search and RMHC over the rules, the best found rule sets on fresh games).
fn rule_design(a: &ExperimentArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    use crate::experiments::rule_design::{RuleDesignConfig, run};
    let preset = match a.preset {
        Preset::Quick => "quick",
        Preset::Full | Preset::Paper => "full",
        Preset::Medium => bail!("rule-design has the presets quick and full"),
    };
    if !a.settings.is_empty() || !a.fix.is_empty() || a.ntbea != NtbeaSettings::Paper {
        bail!(
            "rule-design takes no --set, --fix or --ntbea: it searches the whole design space with NTBEA at playtune's defaults; `playtune optimize --problem design` takes them"
        );
    }
    let mut config =
        RuleDesignConfig::preset(&a.game, preset, a.seed).map_err(anyhow::Error::msg)?;
    if let Some(name) = &a.name {
        config.name = name.clone();
    }
    if let Some(t) = a.trials {
        config.trials = t;
    }
    if let Some(b) = a.budget {
        config.budget = b;
    }
    if let Some(r) = a.reevaluations {
        config.reevaluations = r;
    }
    if config.trials == 0 || config.budget == 0 || config.reevaluations == 0 {
        bail!("--trials, --budget and --reevaluations must be at least 1");
    }
    let started = std::time::Instant::now();
    run(&config, exec, &a.runs_dir, &a.plots_dir, !a.quiet).map_err(anyhow::Error::msg)?;
    print_summary(a, &config.name, started)
}

/// Prints an experiment's `summary.md` and where its files went.
fn print_summary(a: &ExperimentArgs, name: &str, started: std::time::Instant) -> Result<()> {
    let summary = a.runs_dir.join(name).join("summary.md");
    println!("{}", std::fs::read_to_string(&summary)?);
    println!(
        "wrote {} and {} in {:.0} s",
        summary.display(),
        a.plots_dir.join(name).display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
