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
    /// Minutes or less on 2 cores, to see what the experiment writes.
    Quick,
    /// Between quick and the paper's size.
    Medium,
    /// The paper's settings.
    Paper,
    /// The published run's settings.
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
    #[command(subcommand)]
    which: Which,
}

/// The experiments: each takes the shared options and its own.
#[derive(clap::Subcommand)]
enum Which {
    /// The NTBEA paper's Section V: RMHC, B-RMHC and NTBEA tune Space Battle's rules,
    /// each trial's final game re-evaluated (Figure 2, Table II).
    ///
    /// Presets: quick, 4 trials of 20 evaluations, 5 re-evaluations, 300-tick games,
    /// MCTS with 30 iterations; medium, 50 trials of 100 evaluations, 20
    /// re-evaluations, 400-tick games, MCTS with 40 iterations (about 50 minutes on 2
    /// cores); paper and full, 50 trials of 100 evaluations, 100 re-evaluations,
    /// 2000-tick games, MCTS with 175 iterations (roughly 40 core-hours, resumable).
    SpaceBattle(SpaceBattleArgs),
    /// The rule-design study (docs/design.md): NTBEA, random search and RMHC over a
    /// game's rules, the best rule sets played again on fresh games.
    ///
    /// Presets: quick, minutes; full (or paper), 10 runs of each algorithm over the
    /// rules, the best rule sets on fresh games; no medium.
    RuleDesign(RuleDesignArgs),
    /// The Rinascimento paper's agent tuning (Figure 5 and Table VIII).
    ///
    /// Presets: quick, 10 NTBEA runs at budgets 50-500, 100 games per true win rate,
    /// tables of 100 games (about 2 minutes on 2 cores); medium, 30 runs at budgets
    /// 50-1000, 300 games per true win rate, tables of 1000 games; paper and full, 100
    /// runs at budgets 50-1000, 1000 games per true win rate, tables of 10,000 games
    /// (117 minutes on 2 cores).
    Rinascimento(RinascimentoArgs),
    /// NTBEA tunes NTBEA's own defaults over benchmark problems, then validates them.
    ///
    /// Presets: quick, a smoke test (seconds); medium, the published run
    /// (runs/published/ntbea-defaults, about 25 minutes on 2 cores); no paper or full,
    /// as no paper is reproduced.
    NtbeaDefaults(NtbeaDefaultsArgs),
    /// Portfolio MCTS against MCTS and RHEA in the strategy game (the Tribes paper's
    /// Table I).
    ///
    /// Presets: quick, 4 training levels x 2 games a pairing (a minute or two on 2
    /// cores); medium, 10 levels x 4 games; paper and full, all 20 training levels x 10
    /// games a pairing, seats alternating (about 25 minutes on 2 cores, published).
    StrategyPortfolio(GameSettingsArgs),
    /// A round robin of strategy-game bots made by configuration alone.
    ///
    /// Six bots, weakest first as intended, on the validation levels; each step of the
    /// ladder is checked against two standard errors. Presets: quick, 4 levels x 2
    /// games a pair; medium, 10 levels x 4 games; paper and full, all 20 validation
    /// levels x 10 games, 200 games a pair (about 12 minutes on 2 cores, published).
    StrategyDifficulty(GameSettingsArgs),
    /// MAP-Elites archives of P-MCTS(PU) script weights, their corners validated.
    ///
    /// Presets: quick, short games at 100 calls a decision, 40 evaluations an archive
    /// (about a minute on 2 cores); medium, 500 calls, 100 evaluations an archive;
    /// paper and full, the problem's defaults, 300
    /// evaluations an archive, corners validated over 200 games each on validation
    /// levels (about an hour on 2 cores since the issue-31 speed-up, resumable).
    PlayStyles(PlayStylesArgs),
    /// Self-play, a trained state evaluator and the Prismata paper's Tables II and III.
    ///
    /// Presets: quick, small self-play, a 64-64 network and small tables (a couple of
    /// minutes on 2 cores); paper and full, 8000 self-play games, the paper's 512-512
    /// network, Table III from 300 games a pairing at 25 ms a turn and 500 at 20,000
    /// calls (about 90 minutes on 2 cores, published).
    LearnedEval(GameSettingsArgs),
    /// Any other name: refused with the list of experiments.
    #[command(external_subcommand)]
    Other(Vec<String>),
}

/// What every experiment takes.
#[derive(Args)]
struct Common {
    /// How large a run: the presets this experiment has, and what each means for it,
    /// are listed above (not every experiment has all of quick, medium, paper and full).
    #[arg(long, value_enum, default_value = "quick", hide_possible_values = true)]
    preset: Preset,
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
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    cluster: super::ClusterArgs,
    /// With --executor slurm: submit the next step and return without waiting
    /// (`playtune status RUN` shows the tasks; the same command again collects or
    /// resubmits).
    #[arg(long)]
    detach: bool,
}

/// An experiment's sizes over its preset's. The help says what a space-battle run
/// counts; an experiment whose sizes count other things says so with `mut_arg`.
#[derive(Args)]
struct Sizes {
    /// Trials per algorithm [default: the preset's].
    #[arg(long)]
    trials: Option<u64>,
    /// Evaluations per trial [default: the preset's].
    #[arg(long)]
    budget: Option<u64>,
    /// Re-evaluations of each trial's final game [default: the preset's].
    #[arg(long)]
    reevaluations: Option<u64>,
}

impl Sizes {
    /// Puts the sizes given over the preset's `trials`, `budget` and `reevaluations`,
    /// and refuses any that is 0.
    fn over(&self, trials: &mut u64, budget: &mut u64, reevaluations: &mut u64) -> Result<()> {
        for (given, size) in [
            (self.trials, &mut *trials),
            (self.budget, &mut *budget),
            (self.reevaluations, &mut *reevaluations),
        ] {
            if let Some(v) = given {
                *size = v;
            }
        }
        if *trials == 0 || *budget == 0 || *reevaluations == 0 {
            bail!("--trials, --budget and --reevaluations must be at least 1");
        }
        Ok(())
    }
}

#[derive(Args)]
struct SpaceBattleArgs {
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    sizes: Sizes,
    /// NTBEA's settings.
    #[arg(long, value_enum, default_value = "paper")]
    ntbea: NtbeaSettings,
    /// A problem setting over the preset's, NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
    /// Fix a parameter, NAME=VALUE (repeatable).
    #[arg(long = "fix", value_name = "NAME=VALUE")]
    fix: Vec<String>,
}

#[derive(Args)]
#[command(mut_arg("reevaluations", |a| a.help(
    "Re-evaluations of each trial's final rule set [default: the preset's]"
)))]
struct RuleDesignArgs {
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    sizes: Sizes,
    /// The game whose rules the study searches.
    #[arg(long, default_value = crate::registry::DEFAULT_GAME)]
    game: String,
}

#[derive(Args)]
struct RinascimentoArgs {
    #[command(flatten)]
    common: Common,
    /// NTBEA runs per agent and budget [default: the preset's].
    #[arg(long)]
    trials: Option<u64>,
    /// One NTBEA budget (games) instead of the preset's list.
    #[arg(long)]
    budget: Option<u64>,
    /// NTBEA's settings.
    #[arg(long, value_enum, default_value = "paper")]
    ntbea: NtbeaSettings,
}

#[derive(Args)]
#[command(
    mut_arg("trials", |a| a.help("Tuning runs [default: the preset's]")),
    mut_arg("budget", |a| a.help("Evaluations per tuning run [default: the preset's]")),
    mut_arg("reevaluations", |a| a.help("Validation runs per benchmark [default: the preset's]"))
)]
struct NtbeaDefaultsArgs {
    #[command(flatten)]
    common: Common,
    #[command(flatten)]
    sizes: Sizes,
}

#[derive(Args)]
struct GameSettingsArgs {
    #[command(flatten)]
    common: Common,
    /// A game setting over the preset's, NAME=VALUE (repeatable), e.g. turns=20.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
}

#[derive(Args)]
struct PlayStylesArgs {
    #[command(flatten)]
    common: Common,
    /// Evaluations per archive [default: the preset's].
    #[arg(long)]
    budget: Option<u64>,
    /// A setting of the strategy-styles search over the preset's, NAME=VALUE
    /// (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    settings: Vec<String>,
}

/// The refusal of a name that is no experiment.
fn unknown(words: &[String]) -> anyhow::Error {
    anyhow!(
        "unknown experiment `{}` (known: {KNOWN})",
        words.first().map_or("", String::as_str)
    )
}

const KNOWN: &str = "space-battle, rule-design, rinascimento, ntbea-defaults, strategy-portfolio, strategy-difficulty, play-styles, learned-eval";

pub fn experiment(a: ExperimentArgs) -> Result<()> {
    let (experiment, c) = match &a.which {
        Which::SpaceBattle(x) => ("space-battle", &x.common),
        Which::RuleDesign(x) => ("rule-design", &x.common),
        Which::Rinascimento(x) => ("rinascimento", &x.common),
        Which::NtbeaDefaults(x) => ("ntbea-defaults", &x.common),
        Which::StrategyPortfolio(x) => ("strategy-portfolio", &x.common),
        Which::StrategyDifficulty(x) => ("strategy-difficulty", &x.common),
        Which::PlayStyles(x) => ("play-styles", &x.common),
        Which::LearnedEval(x) => ("learned-eval", &x.common),
        Which::Other(words) => return Err(unknown(words)),
    };
    c.cluster.check()?;
    if let Some(name) = &c.name {
        super::folder_name(name)?;
    }
    if c.cluster.executor == Executor::Local && c.detach {
        bail!("--detach goes with --executor slurm");
    }
    let folder = c
        .runs_dir
        .join(c.name.clone().unwrap_or_else(|| match &a.which {
            Which::RuleDesign(x) => format!("rule-design-{}-{}", x.game, c.preset.name()),
            _ => format!("{experiment}-{}", c.preset.name()),
        }));
    // Where the work runs, picked once: every experiment is handed it and never asks
    // which it is. Slurm's tools are checked before any folder is made.
    let exec = c.cluster.executor(
        &folder,
        crate::exec::SearchUnit::Trials,
        !c.detach,
        !c.quiet,
        true,
    )?;
    super::interrupt::on_interrupt(&format!(
        "what finished is in {}; the same command again goes on from there",
        folder.display()
    ));
    // One command at a time in an experiment's folder: locked before its first write.
    // A folder made here for a command refused before it wrote anything is removed.
    let made: Vec<PathBuf> = folder
        .ancestors()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let _lock = crate::run::lock::lock_experiment(&folder).map_err(anyhow::Error::msg)?;
    let exec = exec.as_ref();
    let outcome = match &a.which {
        Which::SpaceBattle(x) => space_battle(x, exec),
        Which::Rinascimento(x) => rinascimento(x, exec),
        Which::NtbeaDefaults(x) => ntbea_defaults(x, exec),
        Which::StrategyPortfolio(x) => strategy(x, true, exec),
        Which::StrategyDifficulty(x) => strategy(x, false, exec),
        Which::LearnedEval(x) => learned_eval(x, exec),
        Which::PlayStyles(x) => play_styles(x, exec),
        Which::RuleDesign(x) => rule_design(x, exec),
        Which::Other(words) => Err(unknown(words)),
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
fn rinascimento(args: &RinascimentoArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let c = &args.common;
    use crate::experiments::rinascimento_tuning::{TuningConfig, run};
    let (runs, budgets, true_games, table_games): (u64, Vec<u64>, usize, usize) = match c.preset {
        Preset::Quick => (10, vec![50, 100, 200, 500], 100, 100),
        Preset::Medium => (30, vec![50, 100, 200, 500, 1000], 300, 1000),
        Preset::Paper | Preset::Full => (100, vec![50, 100, 200, 500, 1000], 1000, 10_000),
    };
    let preset = c.preset.name();
    let config = TuningConfig {
        name: c
            .name
            .clone()
            .unwrap_or_else(|| format!("rinascimento-{preset}")),
        agents: vec!["bmrh".into(), "srh".into(), "mcts".into()],
        budgets: args.budget.map(|b| vec![b]).unwrap_or(budgets),
        runs: args.trials.unwrap_or(runs),
        true_games,
        decision_budget: crate::games::rinascimento::agents::DEFAULT_BUDGET,
        table_games,
        seed: c.seed,
        ntbea: args.ntbea.config(),
    };
    if config.runs == 0 || config.budgets.contains(&0) {
        bail!("--trials and --budget must be at least 1");
    }
    let started = std::time::Instant::now();
    run(&config, exec, &c.runs_dir, &c.plots_dir, !c.quiet).map_err(anyhow::Error::msg)?;
    print_summary(c, &config.name, started)
}

/// How NTBEA's defaults were chosen: NTBEA tunes NTBEA's settings over the
/// `ntbea-suite` benchmarks, then the recommendations and the usual alternatives are
/// validated with many runs. Quick: a smoke test (seconds). Medium: the published run
/// (runs/published/ntbea-defaults; about 25 minutes on 2 cores).
fn ntbea_defaults(args: &NtbeaDefaultsArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let c = &args.common;
    use crate::experiments::ntbea_defaults::{DefaultsConfig, run, summary_markdown};
    let (budget, runs, per_eval, validation) = match c.preset {
        Preset::Quick => (30, 2, 2, 10),
        Preset::Medium => (300, 4, 10, 400),
        Preset::Paper | Preset::Full => {
            bail!("ntbea-defaults reproduces no paper: use --preset medium for the published run")
        }
    };
    let mut config = DefaultsConfig {
        name: c
            .name
            .clone()
            .unwrap_or_else(|| format!("ntbea-defaults-{}", c.preset.name())),
        tuning_budget: budget,
        tuning_runs: runs,
        runs_per_evaluation: per_eval,
        validation_runs: validation,
        seed: c.seed,
    };
    args.sizes.over(
        &mut config.tuning_runs,
        &mut config.tuning_budget,
        &mut config.validation_runs,
    )?;
    let started = std::time::Instant::now();
    let result = run(&config, exec, &c.runs_dir, !c.quiet).map_err(anyhow::Error::msg)?;
    println!("{}", summary_markdown(&result));
    println!(
        "wrote {} in {:.0} s",
        c.runs_dir.join(&config.name).join("summary.md").display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The strategy game's tables: `strategy-portfolio` (the Tribes paper's Table I) and
/// `strategy-difficulty` (the Prismata paper's round robin of bots made by
/// configuration, on the validation levels). Quick: 4 levels x 2 games per pairing (a
/// minute or two on 2 cores). Full (or paper): all 20 levels x 10 games per pairing
/// for the portfolio table (about 25 minutes on 2 cores) and for the difficulty one
/// (about 12); published in runs/published/.
fn strategy(
    args: &GameSettingsArgs,
    portfolio: bool,
    exec: &dyn crate::exec::Executor,
) -> Result<()> {
    let c = &args.common;
    use crate::experiments::strategy::{StrategyExperiment, run};
    let (levels, games) = match (c.preset, portfolio) {
        (Preset::Quick, _) => (4, 2),
        (Preset::Medium, _) => (10, 4),
        (Preset::Paper | Preset::Full, true) => (20, 10),
        (Preset::Paper | Preset::Full, false) => (20, 10),
    };
    let name = c.name.clone().unwrap_or_else(|| {
        format!(
            "{}-{}",
            if portfolio {
                "strategy-portfolio"
            } else {
                "strategy-difficulty"
            },
            c.preset.name()
        )
    });
    let mut x = if portfolio {
        StrategyExperiment::portfolio(&name, levels, games, c.seed)
    } else {
        StrategyExperiment::difficulty(&name, levels, games, c.seed)
    };
    x.settings
        .extend(super::name_value_pairs("--set", &args.settings)?);
    let started = std::time::Instant::now();
    run(&x, exec, &c.runs_dir, &c.plots_dir, !c.quiet).map_err(anyhow::Error::msg)?;
    print_summary(c, &name, started)
}

/// The Prismata learned-evaluation paper's Tables II and III in the strategy game:
/// self-play, training, evaluations per second, and the learned HPS player against the
/// heuristic and playout ones at equal thinking time and equal forward-model budget.
/// Quick: a couple of minutes on 2 cores. Full (or paper): about an hour; published in
/// runs/published/learned-eval-full.
fn learned_eval(args: &GameSettingsArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let c = &args.common;
    use crate::experiments::learned_eval::{LearnedEvalConfig, run};
    let name = c
        .name
        .clone()
        .unwrap_or_else(|| format!("learned-eval-{}", c.preset.name()));
    let mut x = match c.preset {
        Preset::Quick => LearnedEvalConfig::quick(&name, c.seed),
        _ => LearnedEvalConfig::full(&name, c.seed),
    };
    for (k, v) in super::name_value_pairs("--set", &args.settings)? {
        x.settings.retain(|(name, _)| *name != k);
        x.settings.push((k, v));
    }
    let started = std::time::Instant::now();
    run(&x, exec, &c.runs_dir, &c.plots_dir, !c.quiet).map_err(anyhow::Error::msg)?;
    print_summary(c, &name, started)
}

/// The play-styles paper's three archives in the strategy game, their heatmaps and
/// the validation of their corner elites. Quick: short games at 100 calls a decision,
/// 40 evaluations an archive (about a minute on 2 cores). Full (or paper): the
/// problem's defaults (2 levels x 5 games against MCTS at 2000 calls, about 16 s an
/// evaluation on 2 cores), 300 evaluations an archive, corners validated over 200
/// games each on validation levels: about 5 hours on 2 cores, resumable.
fn play_styles(args: &PlayStylesArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let c = &args.common;
    use crate::experiments::play_styles::{PlayStyles, paper_pairs, run};
    let pairs = |v: &[(&str, &str)]| -> std::collections::BTreeMap<String, String> {
        v.iter()
            .map(|(k, w)| (k.to_string(), w.to_string()))
            .collect()
    };
    let (search, evaluations, init_random, batch, validation, validation_evaluations) =
        match c.preset {
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
    search.extend(super::name_value_pairs("--set", &args.settings)?);
    let name = c
        .name
        .clone()
        .unwrap_or_else(|| format!("play-styles-{}", c.preset.name()));
    let x = PlayStyles {
        name: name.clone(),
        pairs: paper_pairs(),
        search,
        evaluations: args.budget.unwrap_or(evaluations),
        init_random,
        batch,
        validation,
        validation_evaluations,
        seed: c.seed,
    };
    if x.evaluations == 0 {
        bail!("--budget must be at least 1");
    }
    let started = std::time::Instant::now();
    let outcomes = run(&x, exec, &c.runs_dir, !c.quiet).map_err(anyhow::Error::msg)?;
    for o in &outcomes {
        let columns = [
            "fitness",
            o.pair.axes[0].name.as_str(),
            o.pair.axes[1].name.as_str(),
        ];
        super::plot::archive_pictures(
            &o.dir,
            &c.plots_dir.join(&name).join(o.pair.name),
            &columns,
        )?;
    }
    print_summary(c, &name, started)
}

fn space_battle(args: &SpaceBattleArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let c = &args.common;
    let (trials, budget, reevaluations, preset_settings): (u64, u64, u64, &[(&str, &str)]) =
        match c.preset {
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
    settings.extend(super::name_value_pairs("--set", &args.settings)?);
    let spec = ProblemSpec {
        name: "space-battle".into(),
        settings,
    };
    let problem = build_problem(&spec, None).map_err(|e| anyhow!("--set: {e}"))?;
    let mut space = problem.space().clone();
    super::fix_dims(&mut space, &args.fix)?;
    let preset = c.preset.name();
    let mut config = ExperimentConfig {
        name: c
            .name
            .clone()
            .unwrap_or_else(|| format!("space-battle-{preset}")),
        problem: spec,
        space,
        algorithms: paper_algorithms(args.ntbea.config()),
        trials,
        budget,
        reevaluations,
        seed: c.seed,
    };
    args.sizes.over(
        &mut config.trials,
        &mut config.budget,
        &mut config.reevaluations,
    )?;
    let started = std::time::Instant::now();
    let result = run(
        &config,
        problem.as_ref(),
        exec,
        &c.runs_dir,
        &c.plots_dir,
        !c.quiet,
    )
    .map_err(anyhow::Error::msg)?;
    let md = crate::experiments::compare_optimizers::summary_markdown(&result);
    println!("{md}");
    println!(
        "wrote {} and {} in {:.0} s",
        c.runs_dir.join(&config.name).join("summary.md").display(),
        c.plots_dir.join(&config.name).join("figure2.png").display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The rule-design study (docs/design.md): quick (minutes) or full (10 runs of NTBEA,
/// random search and RMHC over the rules, the best found rule sets on fresh games).
fn rule_design(args: &RuleDesignArgs, exec: &dyn crate::exec::Executor) -> Result<()> {
    let c = &args.common;
    use crate::experiments::rule_design::{RuleDesignConfig, run};
    let preset = match c.preset {
        Preset::Quick => "quick",
        Preset::Full | Preset::Paper => "full",
        Preset::Medium => bail!("rule-design has the presets quick and full"),
    };
    let mut config =
        RuleDesignConfig::preset(&args.game, preset, c.seed).map_err(|e| match &e {
            // Where to go instead is a command to type: the command line says it.
            crate::experiments::Error::NoStudyPreset(game) => anyhow!(
                "{e}; `playtune optimize --problem design --set game={game}` designs any game"
            ),
            _ => anyhow::Error::msg(e),
        })?;
    if let Some(name) = &c.name {
        config.name = name.clone();
    }
    args.sizes.over(
        &mut config.trials,
        &mut config.budget,
        &mut config.reevaluations,
    )?;
    let started = std::time::Instant::now();
    run(&config, exec, &c.runs_dir, &c.plots_dir, !c.quiet).map_err(anyhow::Error::msg)?;
    print_summary(c, &config.name, started)
}

/// Prints an experiment's `summary.md` and where its files went.
fn print_summary(c: &Common, name: &str, started: std::time::Instant) -> Result<()> {
    let summary = c.runs_dir.join(name).join("summary.md");
    println!("{}", std::fs::read_to_string(&summary)?);
    println!(
        "wrote {} and {} in {:.0} s",
        summary.display(),
        c.plots_dir.join(name).display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
