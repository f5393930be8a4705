//! `playtune optimize`, `playtune map-elites` and `playtune resume`.

mod report;

use super::CommonRunArgs;
use anyhow::{Result, anyhow, bail};
use clap::Args;
use playtune::eval::Problem;
use playtune::optim::AlgoConfig;
use playtune::optim::map_elites::{Mutation, unmoved_dims};
use playtune::run::{self, ProblemSpec, RunConfig};
use playtune::space::{Space, constraint, parse_space};
use playtune_exec::prepare::start::{
    self, CreatedRun, Judging, Racing, RunRequest, StartError, UserSpace,
};
use std::path::{Path, PathBuf};

pub(super) use report::report;

#[derive(Args)]
pub(super) struct OptimizeArgs {
    #[command(flatten)]
    common: CommonRunArgs,
    /// Optimiser: its own options are listed under its name below.
    #[arg(long, default_value = "ntbea", value_parser = algo_names(), help_heading = "Optimiser")]
    algo: String,
    /// Evaluations per trial (B-RMHC's pre-processing included unless --free-preprocessing).
    #[arg(long, default_value_t = 200, help_heading = "Optimiser")]
    budget: u64,
    /// A time budget instead (`90s`, `5m`, `1h30m`): the budget is set from the
    /// paces measured on this machine before the search, so that each trial's search
    /// and a verdict played to its cap fit in it, and is kept in `config.ron` as
    /// `--budget` would be (the run replays from it on any machine).
    #[arg(long, value_name = "DURATION", conflicts_with = "budget", value_parser = parse_duration, help_heading = "Optimiser")]
    time: Option<f64>,
    #[command(flatten)]
    settings: super::declared::OptimizerFlags,
    #[command(flatten)]
    verdict: super::verdict::VerdictArgs,
    #[command(flatten)]
    race: RaceArgs,
}

/// Racing before recommending, for every optimiser.
#[derive(Args)]
#[command(next_help_heading = "Racing")]
struct RaceArgs {
    /// Race the strongest candidates with this share of each trial's budget: the
    /// search gets the rest, the race plays the candidates on common fresh seeds and
    /// drops those worse with confidence [default: 0.25 with every optimiser but
    /// MAP-Elites on problems judged against a baseline of their own (design,
    /// tune-agent, synthetic-design); no race on the other benchmarks].
    #[arg(long, value_name = "SHARE", conflicts_with = "no_race")]
    race: Option<f64>,
    /// Candidates that enter the race: the optimiser's recommendation and the best
    /// measured points.
    #[arg(long, value_name = "N", default_value_t = playtune::optim::race::RaceConfig::default().candidates)]
    race_candidates: usize,
    /// How the problem's own baseline (the game's own rules on a design problem, where
    /// the run's space holds them) takes part: `entrant`, one candidate like the
    /// others; `incumbent`, recommended unless a candidate beats it with confidence;
    /// `none`, left out.
    #[arg(long, value_name = "HOW", value_enum, default_value_t = RaceBaselineArg::Entrant)]
    race_baseline: RaceBaselineArg,
    /// No race: the optimiser's own recommendation, on the whole budget.
    #[arg(long)]
    no_race: bool,
    /// Evaluate every point the optimiser asks once, instead of measuring again, on
    /// the best point's seeds, those that could still beat it [default: measured
    /// again with NTBEA on problems judged against a baseline of their own (design,
    /// tune-agent, synthetic-design)].
    #[arg(long)]
    no_intensify: bool,
    /// Most evaluations of the best point so far, and so of any point measured again.
    #[arg(long, value_name = "N", conflicts_with = "no_intensify")]
    intensify_max: Option<u64>,
}

/// `--race-baseline`'s values.
#[derive(Clone, Copy, clap::ValueEnum)]
enum RaceBaselineArg {
    None,
    Entrant,
    Incumbent,
}

impl From<RaceBaselineArg> for playtune::optim::race::RaceBaseline {
    fn from(a: RaceBaselineArg) -> Self {
        use playtune::optim::race::RaceBaseline;
        match a {
            RaceBaselineArg::None => RaceBaseline::Absent,
            RaceBaselineArg::Entrant => RaceBaseline::Entrant,
            RaceBaselineArg::Incumbent => RaceBaseline::Incumbent,
        }
    }
}

#[derive(Args)]
pub(super) struct MapElitesArgs {
    #[command(flatten)]
    common: CommonRunArgs,
    /// Evaluations per trial.
    #[arg(long, default_value_t = 10_000, help_heading = "MAP-Elites")]
    evaluations: u64,
    #[command(flatten)]
    settings: super::declared::MapElitesFlags,
}

#[derive(Args)]
pub(super) struct ResumeArgs {
    /// The run folder.
    run: PathBuf,
    /// Print one JSON object as the last line of output.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Evaluate again the evaluations the run recorded as failed (after fixing the
    /// evaluator), instead of replaying them as failures.
    #[arg(long)]
    retry_failed: bool,
    #[command(flatten)]
    game: super::RunGameArgs,
    #[command(flatten)]
    cluster: super::ClusterArgs,
    #[command(flatten)]
    verdict: super::verdict::VerdictArgs,
}

/// What a run is about: the problem's spec, the problem, the space searched and the
/// space file it came from.
type RunInputs = (ProblemSpec, Box<dyn Problem>, Space, Option<String>);

/// The problem and the search space of a run, checked against each other.
/// The problem and space a run's flags name.
fn problem_and_space(common: &CommonRunArgs, default_problem: &str) -> Result<RunInputs> {
    let mut settings = std::collections::BTreeMap::new();
    settings.extend(super::name_value_pairs("--set", &common.settings)?);
    let name = common
        .problem
        .clone()
        .unwrap_or_else(|| default_problem.into());
    // Deadlines and workers are settings of the external evaluator, which alone can
    // be killed mid-evaluation; the flags are the way users find them.
    for (flag, given, setting) in [
        (
            "--eval-timeout",
            common.eval_timeout.map(|t| t.to_string()),
            "timeout",
        ),
        (
            "--workers",
            common.workers.map(|n| n.to_string()),
            "workers",
        ),
    ] {
        if let Some(value) = given {
            if name != "command" {
                bail!(
                    "{flag} is for --problem command (an external evaluator); problem `{name}` evaluates in-process"
                );
            }
            settings.insert(setting.into(), value);
            if setting == "workers" {
                settings.insert("mode".into(), "worker".into());
            }
        }
    }
    let spec = ProblemSpec { name, settings };
    let user = match &common.space {
        Some(path) => {
            let text = playtune::space::read_space_text(path)?;
            let file = path.display().to_string();
            let space = parse_space(&text, &file)?;
            Some(UserSpace {
                space,
                file: Some(file),
                text: Some(text),
            })
        }
        None => None,
    };
    let mut constraints = Vec::new();
    for text in &common.constraints {
        constraints.extend(constraint::parse_list(text).map_err(|e| anyhow!("--constraint: {e}"))?);
    }
    let (problem, mut space) = start::problem_and_space(&spec, user.as_ref(), &constraints)
        .map_err(|e| start_error(e, &spec.name))?;
    super::fix_dims(&mut space, &common.fix)?;
    Ok((spec, problem, space, user.and_then(|u| u.file)))
}

/// Why a run was not created, by the flag that sets what is wrong.
fn start_error(e: StartError, problem: &str) -> anyhow::Error {
    match e {
        StartError::Problem(e) => anyhow!("--problem {problem} --set: {e}"),
        StartError::Constraint(m) => anyhow!("--constraint: {m}"),
        StartError::Race(playtune::optim::Error::Setting {
            setting,
            value,
            expected,
        }) if setting == "race_share" => {
            anyhow!("--race {value}: {expected} (--no-race runs none)")
        }
        StartError::Race(e) | StartError::Intensify(e) => setting_flag(e),
        StartError::Margin(m) => anyhow!("--margin {m}"),
        StartError::Verdict(m) => anyhow!("--verdict {m}"),
        StartError::Faults(e) | StartError::Name(e) => run_error(e),
        StartError::Size { which, message } => anyhow!("--{which} {message}"),
        StartError::Algorithm(e) => optim_error(e),
        StartError::Ladder(e) => e,
        StartError::Folder(e) => anyhow!("{e}"),
        e @ (StartError::SpaceFile(_)
        | StartError::Dimension { .. }
        | StartError::LadderFeatures(_)) => anyhow!(e),
    }
}

/// A setting refused, named by its flag (`intensify_max` is `--intensify-max`).
fn setting_flag(e: playtune::optim::Error) -> anyhow::Error {
    match e {
        playtune::optim::Error::Setting {
            setting,
            value,
            expected,
        } => anyhow!("--{} {value}: {expected}", setting.replace('_', "-")),
        other => anyhow!(other),
    }
}

fn start(
    common: &CommonRunArgs,
    default_problem: &str,
    algorithm: AlgoConfig,
    budget: Budget,
    verdict: Option<&super::verdict::VerdictArgs>,
    race: Option<&RaceArgs>,
) -> Result<()> {
    let (spec, problem, space, space_file) = problem_and_space(common, default_problem)?;
    let budget = match budget {
        Budget::Evaluations(n) => n,
        Budget::Time(seconds) => {
            let judged = verdict.is_some_and(|v| v.verdict != Some(0))
                && problem.baseline().is_some()
                && problem.verdict_margin().is_some();
            let n = playtune_exec::prepare::cost::budget_for(
                problem.as_ref(),
                &space,
                common.seed,
                seconds / common.trials.max(1) as f64,
                judged,
            )
            .map_err(|m| anyhow!("--time {}: {m}", playtune::run::duration_text(seconds)))?;
            if !common.quiet && !common.json {
                eprintln!(
                    "--time {}: a budget of {n} evaluations a trial{} (`--budget {n}` replays it)",
                    playtune::run::duration_text(seconds),
                    if judged {
                        ", the search and a verdict played to its cap fitting in it"
                    } else {
                        ""
                    }
                );
            }
            n
        }
    };
    common.cluster.check()?;
    if let Some(v) = verdict {
        super::verdict::check(v, &space)?;
    }
    if common.cluster.executor == super::ExecutorKind::Slurm
        && (common.no_log || spec.name == "manual")
    {
        bail!(
            "--executor slurm records every result in the run's log: it goes without --no-log and --problem manual"
        );
    }
    let judging = match verdict {
        Some(v) => Some(Judging {
            evaluations: v.verdict,
            margin: v.margin,
            baseline: super::verdict::baseline_point(&v.baseline, &space)?,
        }),
        None => None,
    };
    let racing = race.map(|r| Racing {
        off: r.no_race,
        share: r.race,
        candidates: r.race_candidates,
        baseline: r.race_baseline.into(),
        intensify: !r.no_intensify,
        intensify_max: r.intensify_max,
    });
    super::interrupt::on_interrupt(
        "interrupted before the search began (choosing or checking its ladder, or timing its cost): no run folder was made; run the command again",
    );
    let name = spec.name.clone();
    // Locked from its creation: a `resume` or `ask` started meanwhile is refused.
    let CreatedRun {
        dir,
        lock: _lock,
        config,
        problem,
    } = start::create_run(RunRequest {
        runs_dir: common.runs_dir.clone(),
        name: common.name.clone(),
        problem: spec,
        built: problem,
        space,
        space_file,
        algorithm,
        budget,
        trials: common.trials,
        seed: common.seed,
        log: !common.no_log,
        faults: run::FaultPolicy {
            retries: common.retries,
            max_failures: common.max_failures,
        },
        racing,
        judging,
        ladder: common.ladder.settings()?,
        quiet: common.quiet || common.json,
        remote: common.cluster.executor != super::ExecutorKind::Local,
    })
    .map_err(|e| start_error(e, &name))?;
    if config.problem.name == "manual" {
        println!(
            "run {d} created: `playtune ask {d} --n K` prints candidates to evaluate, `playtune tell {d} < results.jsonl` takes their results",
            d = dir.display()
        );
        return Ok(());
    }
    finish(
        &dir,
        &config,
        problem.as_ref(),
        Ending {
            json: common.json,
            quiet: common.quiet,
            verdict,
            plots_dir: common.plots_dir.as_deref(),
        },
        Start::Fresh,
        &common.cluster,
    )
}

/// An optimiser's error as the command line says it: a setting by the flag that sets
/// it (`--line-sigma 0: ...`), with the flag that would help where there is one.
pub(super) fn optim_error(e: playtune::optim::Error) -> anyhow::Error {
    use playtune::optim::Error;
    match &e {
        Error::Setting {
            setting,
            value,
            expected,
        } if setting == "samples" => anyhow!("CVT samples {value}: {expected}"),
        Error::Setting {
            setting,
            value,
            expected,
        } => anyhow!("{} {value}: {expected}", optim_flag(setting)),
        Error::Tuples { text, problem } => anyhow!("--tuples {text}: {problem}"),
        Error::PreprocessingLeavesNothing { .. } => anyhow!("{e} (--free-preprocessing)"),
        Error::NoAxes => anyhow!("{e}, so give --axes NAME=LOW:HIGH:BINS"),
        _ => anyhow!(e),
    }
}

/// The flag that sets an optimiser's setting (as `config.ron` names it).
fn optim_flag(setting: &str) -> String {
    match setting {
        "sigma_iso" => "--sigma".into(),
        "sigma_line" => "--line-sigma".into(),
        other => format!("--{}", other.replace('_', "-")),
    }
}

/// A run's error as the command line says it: settings by their flags.
pub(super) fn run_error(e: run::RunError) -> anyhow::Error {
    run_error_from(e, None)
}

/// A run's error naming where its settings came from: the flags of this command, or
/// (`config`: `resume` reads them there) the fields of the run's `config.ron`.
fn run_error_from(e: run::RunError, config: Option<&Path>) -> anyhow::Error {
    use run::RunError;
    let max_failures = |share: f64| match config {
        None => format!("--max-failures {share}"),
        Some(file) => format!("{}'s faults.max_failures {share}", file.display()),
    };
    let whatever = match config {
        None => "--max-failures",
        Some(_) => "faults.max_failures",
    };
    match e {
        RunError::Optimizer(e) => match config {
            None => optim_error(e),
            Some(file) => anyhow!("{}: algorithm: {e}", file.display()),
        },
        RunError::Faults {
            setting,
            value,
            expected,
        } => match config {
            None => anyhow!("--{} {value}: {expected}", setting.replace('_', "-")),
            Some(file) => anyhow!("{}: faults: {setting}: {value}: {expected}", file.display()),
        },
        RunError::BadName(name) => anyhow!(
            "--name {name:?}: a run folder's name is one plain name, without `/`, `..` or control characters (--runs-dir chooses where it goes)"
        ),
        RunError::NoTrials if config.is_none() => {
            anyhow!("--trials is 0: run at least one trial")
        }
        RunError::TooManyFailures {
            failed,
            attempted,
            share,
            trial,
            index,
            last,
        } => anyhow!(
            "{failed} of {attempted} evaluations failed, more than {} allows; the last (trial {trial}, evaluation {index}): {last}",
            max_failures(share)
        ),
        RunError::NothingSucceeded {
            attempted,
            trial,
            index,
            last,
        } => anyhow!(
            "every one of the {attempted} evaluations of trial {trial} failed, so it has nothing to recommend (whatever {whatever} allows); the last (evaluation {index}): {last}"
        ),
        e => anyhow!(e),
    }
}

/// How [`finish`] found the run: just created, or resumed (its settings then come
/// from `config.ron`, and messages name its fields, not flags).
enum Start {
    Fresh,
    Resume { retry_failed: bool },
}

/// How a finished run speaks (`--json`, `--quiet`) and is judged (`--verdict`,
/// `--baseline`; `None`: never, as a MAP-Elites archive).
struct Ending<'a> {
    json: bool,
    quiet: bool,
    verdict: Option<&'a super::verdict::VerdictArgs>,
    /// Where the run's pictures go when it finishes (`--plots-dir`), if anywhere.
    plots_dir: Option<&'a Path>,
}

fn finish(
    dir: &Path,
    config: &RunConfig,
    problem: &dyn Problem,
    ending: Ending,
    start: Start,
    cluster: &super::ClusterArgs,
) -> Result<()> {
    let Ending {
        json,
        quiet,
        verdict,
        plots_dir,
    } = ending;
    let (retry_failed, resumed) = match start {
        Start::Fresh => (false, false),
        Start::Resume { retry_failed } => (retry_failed, true),
    };
    let started = std::time::Instant::now();
    // Read before the search rewrites result.ron.
    let begun = run::verdict::Begun::of(dir);
    super::interrupt::on_interrupt(&format!(
        "every evaluation done is in {d}; `playtune resume {d}{}` goes on from there",
        if cluster.executor == super::ExecutorKind::Slurm {
            " --executor slurm"
        } else {
            ""
        },
        d = dir.display()
    ));
    if cluster.executor == super::ExecutorKind::Slurm && retry_failed {
        bail!(
            "--retry-failed goes with the local executor: `playtune resume RUN --retry-failed` evaluates the failures here"
        );
    }
    let exec = cluster.executor(
        dir,
        playtune_exec::SearchUnit::Batches(cluster.tasks.unwrap_or(16)),
        super::Following {
            wait: true,
            progress: !quiet && !json,
            report: !json,
        },
    )?;
    let search = playtune_exec::Search {
        name: dir.display().to_string(),
        dir: dir.to_path_buf(),
        config: config.clone(),
        problem,
    };
    let options = playtune_exec::SearchOptions {
        progress: !quiet && !json,
        retry_failed,
    };
    let result = exec
        .search(std::slice::from_ref(&search), options)
        .map_err(|e| match e {
            playtune_exec::ExecError::Run {
                source: source @ run::RunError::OtherGame { .. },
                ..
            } => anyhow!("{}: {source}", dir.join(run::CONFIG_FILE).display()),
            playtune_exec::ExecError::Run { source, .. } => {
                let how = match source {
                    run::RunError::TooManyFailures { .. } | run::RunError::NothingSucceeded { .. } => format!(
                        "every failure is in {}; fix the evaluator, then `playtune resume {} --retry-failed` evaluates them again and goes on",
                        dir.join(run::files::FAILURES_FILE).display(),
                        dir.display()
                    ),
                    _ => format!("`playtune resume {}` goes on from there", dir.display()),
                };
                let from = resumed.then(|| dir.join(run::CONFIG_FILE));
                run_error_from(source, from.as_deref()).context(format!(
                    "run {} stopped; its log keeps every evaluation done: {how}",
                    dir.display()
                ))
            }
            other => anyhow!(other),
        })?
        .pop()
        .ok_or_else(|| anyhow!("{}: the search gave no result", dir.display()))?;
    let mut result = result;
    // The verdict's log (`verdict.jsonl`) holds every evaluation it played, so a
    // finished run's verdict comes back as it was, and an interrupted one goes on
    // where it stopped.
    let evaluated_now = !resumed || result.spent.reused < result.spent.total();
    if let Some(v) = verdict
        && begun.due(evaluated_now, v.verdict.is_some())
    {
        super::verdict::judge_run(dir, config, problem, &mut result, v, !quiet && !json)?;
    }
    report(
        dir,
        config,
        problem,
        &result,
        started.elapsed().as_secs_f64(),
        json,
    );
    if let Some(plots) = plots_dir {
        for w in super::plot::into_plots_dir(dir, plots)? {
            if !json {
                println!("wrote {}", w.display());
            }
        }
    } else if matches!(config.algorithm, playtune::AlgoConfig::MapElites(_)) && !json {
        // An archive is read as a picture: say where it comes from.
        println!(
            "the archive's heatmap: `playtune plot {}` draws it (or add --plots-dir plots to the run)",
            dir.display()
        );
    }
    Ok(())
}

/// `--algo`'s values: the declared optimisers.
fn algo_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(playtune::optim::def::OPTIMIZERS.iter().map(|d| {
        clap::builder::PossibleValue::new(d.name)
            .aliases(d.aliases.iter().copied())
            .help(d.about)
    }))
}

pub(super) fn optimize(a: OptimizeArgs) -> Result<()> {
    let def = playtune::optim::def::optimizer(&a.algo)
        .ok_or_else(|| anyhow!("--algo {}: no such optimiser", a.algo))?;
    let algorithm = def
        .configure(&a.settings.for_optimizer(def)?)
        .map_err(optim_error)?;
    start(
        &a.common,
        "noisy-onemax",
        algorithm,
        match a.time {
            Some(seconds) => Budget::Time(seconds),
            None => Budget::Evaluations(a.budget),
        },
        Some(&a.verdict),
        Some(&a.race),
    )
}

/// Seconds in a duration written `90s`, `5m`, `1h30m` or `2.5m` (a bare number is
/// seconds).
fn parse_duration(text: &str) -> Result<f64, String> {
    let bad = || format!("`{text}`: write a duration such as 90s, 5m or 1h30m");
    let mut total = 0.0;
    let mut number = String::new();
    for c in text.trim().chars() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1.0,
            'm' => 60.0,
            'h' => 3600.0,
            _ => return Err(bad()),
        };
        total += number.parse::<f64>().map_err(|_| bad())? * unit;
        number.clear();
    }
    if !number.is_empty() {
        total += number.parse::<f64>().map_err(|_| bad())?;
    }
    if total.is_finite() && total > 0.0 && total <= 365.0 * 86400.0 {
        Ok(total)
    } else {
        Err(bad())
    }
}

/// A run's budget as its user gave it.
#[derive(Clone, Copy)]
enum Budget {
    /// Evaluations a trial.
    Evaluations(u64),
    /// Seconds in all, turned into evaluations from the paces measured.
    Time(f64),
}

pub(super) fn map_elites(a: MapElitesArgs) -> Result<()> {
    let common = &a.common;
    let (_, problem, space, _) = problem_and_space(common, "sphere")?;
    let def = playtune::optim::def::MAP_ELITES;
    let tie_break = problem.tie_break();
    let context = playtune::optim::def::Context {
        space: Some(&space),
        tie_break: tie_break.as_deref(),
    };
    let config = def
        .configure_for(&a.settings.for_optimizer(def)?, &context)
        .map_err(optim_error)?;
    if let AlgoConfig::MapElites(c) = &config {
        let emitters: Vec<Mutation> = c.emitters().cloned().collect();
        let unmoved = unmoved_dims(&space, &emitters);
        if !unmoved.is_empty() {
            eprintln!(
                "warning: the chosen emitters move only Float dimensions; {} stay at their defaults (add one-weight: --emitters one-weight,gaussian)",
                unmoved.join(", ")
            );
        }
    }
    if a.evaluations == 0 {
        bail!("--evaluations 0: give at least one evaluation");
    }
    start(
        common,
        "sphere",
        config,
        Budget::Evaluations(a.evaluations),
        None,
        None,
    )
}

pub(super) fn resume(a: ResumeArgs) -> Result<()> {
    a.cluster.check()?;
    let _lock = lock_run(&a.run)?;
    let config = playtune::registry::read_config(&a.run).map_err(anyhow::Error::msg)?;
    if run::is_manual(&config) {
        // Every result told, but the last `tell` could not finish (a full disk): the
        // replay writes what it left unwritten.
        let problem = a.game.problem(&config, "resume", &a.run)?;
        let started = std::time::Instant::now();
        if let run::Driven::Finished(r) = run::replay(&a.run, &config, problem.as_ref())? {
            report(
                &a.run,
                &config,
                problem.as_ref(),
                &r,
                started.elapsed().as_secs_f64(),
                a.json,
            );
            return Ok(());
        }
        // Resuming would evaluate the candidates here, where a manual problem can only
        // fail, and record every one of them as failed.
        bail!(
            "{}: this run is evaluated outside playtune (--problem manual), so `resume` cannot evaluate it; `playtune ask {d}` prints the candidates it waits for and `playtune tell {d} < results.jsonl` takes their results",
            a.run.display(),
            d = a.run.display()
        );
    }
    let problem = a.game.problem(&config, "resume", &a.run)?;
    // The verdict's flags are checked before the search goes on, not after it.
    if let Some(n) = a.verdict.verdict {
        run::verdict::VerdictSettings::check_evaluations(n)
            .map_err(|m| anyhow!("--verdict {m}"))?;
    }
    super::verdict::check(&a.verdict, &config.space)?;
    finish(
        &a.run,
        &config,
        problem.as_ref(),
        Ending {
            json: a.json,
            quiet: a.quiet,
            verdict: Some(&a.verdict),
            plots_dir: None,
        },
        Start::Resume {
            retry_failed: a.retry_failed,
        },
        &a.cluster,
    )
}

/// Locks a run folder a command writes (see `run::lock`); a folder that does not exist
/// gets the message reading its `config.ron` gives.
pub(super) fn lock_run(dir: &Path) -> Result<run::lock::FolderLock> {
    if !dir.is_dir() {
        // No run here: reading its config.ron says so in the usual words. If that read
        // succeeds, the folder appeared in the meantime (an `optimize` creating it):
        // it is locked as any other, never read unlocked while its creator writes.
        playtune::registry::read_config(dir).map_err(anyhow::Error::msg)?;
    }
    run::lock::lock(dir).map_err(anyhow::Error::msg)
}
