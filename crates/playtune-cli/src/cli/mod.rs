//! The `playtune` command line. `main` calls [`main`], which prints any error with its
//! chain of causes and exits with status 2.

mod asktell;
mod build_ladder;
mod cluster;
mod compare;
mod declared;
mod examples;
mod experiment;
mod games;
mod interrupt;
mod ladder;
mod ladder_check;
mod learn;
mod optimize;
pub(crate) mod plot;
mod problems;
mod reevaluate;
mod report;
mod spaces;
mod validate;
mod verdict;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "playtune",
    version,
    about = "Design games and tune game-playing bots by watching simulated agents play."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Search a parameter space with random search, RMHC, B-RMHC or NTBEA.
    Optimize(optimize::OptimizeArgs),
    /// Build an archive of diverse, high-fitness points with MAP-Elites.
    MapElites(optimize::MapElitesArgs),
    /// Finish an interrupted run, reusing every evaluation in its log.
    Resume(optimize::ResumeArgs),
    /// Print the candidates a run evaluated outside playtune (--problem manual) waits
    /// for, as JSON lines: {"id", "trial", "seed", "phase", "point"}.
    Ask(asktell::AskArgs),
    /// Give a run evaluated outside playtune the results of asked candidates, as JSON
    /// lines in any order: {"id", "fitness", "features"} or {"id", "error"}.
    Tell(asktell::TellArgs),
    /// Evaluate a run's recommendations (or any point, --point) again N times with
    /// fresh seeds: mean ± standard error beside the optimiser's estimate, which is a
    /// model value and can be far from the truth on noisy problems.
    Reevaluate(reevaluate::ReevaluateArgs),
    /// Check parameter-space files.
    Spaces {
        #[command(subcommand)]
        command: spaces::SpacesCommand,
    },
    /// Compare runs: mean, standard error and two-tailed Mann-Whitney U per pair.
    Compare(compare::CompareArgs),
    /// Play one game of any game (see `games`) between named agents; print the record
    /// (with --show, each state and move as the game writes them).
    Play(games::PlayArgs),
    /// Draw one game of a game that has a picture, at chosen turns and its end, with a
    /// legend: space-battle (map, black holes, trails, missiles) and strategy (terrain,
    /// resources, cities, units by tribe). Rinascimento has no picture.
    Render(games::RenderArgs),
    /// Reproduce a paper's experiment (`playtune experiment NAME --help`: what each
    /// takes).
    Experiment(experiment::ExperimentArgs),
    /// Many games of any game between named agents (one per seat, or a 2-player round
    /// robin): win rates, game lengths and the game's own statistics.
    Tournament(games::TournamentArgs),
    /// List the games, their settings, their own agents and the generic agents; with a
    /// game (a name, or a game description PATH.ron), that game alone.
    Games {
        /// The game to show: a built-in name, a described game's name on the search
        /// path ($PLAYTUNE_GAMES, then ./games), or a description file.
        game: Option<String>,
    },
    /// Draw a finished run: convergence, or MAP-Elites metrics and heatmap.
    Plot(plot::PlotArgs),
    /// One self-contained HTML page of a finished run (configuration, convergence,
    /// recommendation, parameter importance; MAP-Elites' archive) or an experiment.
    Report(report::ReportArgs),
    /// Write the docs' examples (games, evaluators, spaces) into this folder, at their
    /// paths in the repository (examples/NAME/..., spaces/...): the docs' commands
    /// then run as written without a checkout.
    Examples(examples::ExamplesArgs),
    /// List the built-in problems: their settings, the features each evaluation
    /// reports, and the MAP-Elites grid they suggest (FEATURE=LOW:HIGH:BINS, as --axis
    /// takes it).
    Problems,
    /// Evaluate chosen elites of a MAP-Elites run again, under other problem settings
    /// (validation levels, more games): archive against validation values.
    Validate(validate::ValidateArgs),
    /// Where a run or an experiment stands: evaluations so far; for one run with
    /// --executor slurm, its tasks pending, running, done and failed (with log tails).
    Status(cluster::StatusArgs),
    /// Cancel the Slurm tasks of an experiment still in the queue (what they finished
    /// is kept; the next call resubmits the rest).
    Cancel(cluster::CancelArgs),
    /// One work item of an experiment run on Slurm: what each array task runs.
    #[command(hide = true)]
    Task(cluster::TaskArgs),
    /// Strategy-game bots of graded difficulty, by configuration (built-in rungs, one
    /// agent over a budget range, or a list) or from a strategy-styles archive (elites
    /// re-evaluated, then the separated ones); the rungs play a round robin on levels
    /// none was set up on, and each step is checked against two standard errors. The
    /// output folder is RUN's name + "-ladder", or named after the rungs
    /// (`ladder-builtin-r6`), unless --name says otherwise.
    Ladder(ladder::LadderArgs),
    /// Whether a ladder of agents is ordered at a game's rules: a round robin of the
    /// rungs, each step checked against two standard errors, and the largest ordered
    /// set of them proposed where it is not (design runs check their ladder so
    /// before the search).
    CheckLadder(ladder_check::CheckLadderArgs),
    /// Build a ladder that is ordered by construction: from `random`, each next rung
    /// (more search of the rung below's kind, else a stronger kind) shown by a
    /// sequential test to score at least the target against the one below; printed as
    /// `--set ladder="..."` for the design problem, and kept in a cache.
    BuildLadder(build_ladder::BuildLadderArgs),
    /// Record self-play games of a game with a state encoding (the strategy game): one
    /// sample per turn (the state's counts, the player to move) and the winner, for
    /// `train-eval`. Resumable: games already in the file are kept.
    Selfplay(learn::SelfplayArgs),
    /// Train a network that predicts the winner from a state on self-play samples
    /// (candle, CPU): loss and accuracy per epoch, early stopping; the network is then
    /// an agent setting, hps(leaf=learned:FILE). The output folder is named
    /// train-NETWORK unless --name says otherwise.
    TrainEval(learn::TrainEvalArgs),
}

/// Where the work runs: `--executor local|slurm` and the cluster's settings.
#[derive(Args, Clone)]
pub(crate) struct ClusterArgs {
    /// Where work runs: here (local), or as Slurm array tasks submitted with sbatch
    /// from this machine (slurm): an experiment's searches one trial a task and its
    /// games, re-evaluations and validations in chunks (--tasks chunks a step), or a
    /// search's batches (--tasks tasks a batch). Rerunning the command (an experiment)
    /// or `playtune resume RUN --executor slurm` (a search) resubmits only what is
    /// missing.
    #[arg(long, value_enum, default_value = "local")]
    pub executor: ExecutorKind,
    /// Extra sbatch options for --executor slurm, as one string, e.g.
    /// "--partition=cpu --time=02:00:00 --account=game-ai".
    #[arg(
        long,
        value_name = "OPTIONS",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub slurm_args: String,
    /// With --executor slurm: array tasks each batch of a search, or each step of an
    /// experiment's independent work (games, re-evaluations), is cut into [default:
    /// 16].
    #[arg(long, value_name = "N")]
    pub tasks: Option<usize>,
    /// With --executor slurm: the longest wait, in seconds, between two looks at the
    /// queue (the first looks come sooner).
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub poll: f64,
}

#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Debug)]
pub(crate) enum ExecutorKind {
    /// Every evaluation on this machine, in parallel over its cores.
    Local,
    /// Work items as tasks of Slurm arrays (sbatch, squeue, scancel).
    Slurm,
}

/// How a command follows the work it sends to a cluster.
#[derive(Clone, Copy)]
pub(crate) struct Following {
    /// Waits for it to finish (else leaves it queued and says how to collect it).
    pub wait: bool,
    /// Shows its progress.
    pub progress: bool,
    /// Prints the report once it is done.
    pub report: bool,
}

impl ClusterArgs {
    /// Refuses cluster settings without the cluster, and bad numbers.
    pub(crate) fn check(&self) -> anyhow::Result<()> {
        if self.executor == ExecutorKind::Local
            && (!self.slurm_args.is_empty() || self.tasks.is_some())
        {
            anyhow::bail!("--slurm-args and --tasks go with --executor slurm");
        }
        if !(self.poll > 0.0 && self.poll.is_finite()) {
            anyhow::bail!("--poll {}: give a positive number of seconds", self.poll);
        }
        if self.tasks == Some(0) {
            anyhow::bail!("--tasks 0: give at least one task a batch");
        }
        playtune_exec::slurm::sbatch::split_args(&self.slurm_args).map_err(slurm_error)?;
        Ok(())
    }

    /// The executor these settings pick, its cluster state (if any) under `home`;
    /// a search's array task is `unit`; the command follows cluster work as `follow`
    /// says. Slurm's tools are checked here, before any folder is made.
    pub(crate) fn executor(
        &self,
        home: &std::path::Path,
        unit: playtune_exec::SearchUnit,
        follow: Following,
    ) -> anyhow::Result<Box<dyn playtune_exec::Executor>> {
        Ok(match self.executor {
            ExecutorKind::Local => Box::new(playtune_exec::Local),
            ExecutorKind::Slurm => {
                playtune_exec::slurm::sbatch::check_tools().map_err(slurm_error)?;
                let mut s = playtune_exec::Slurm::new(
                    home.to_path_buf(),
                    self.options(follow.wait, follow.progress)?,
                    self.tasks.unwrap_or(16),
                    unit,
                );
                s.report = follow.report;
                Box::new(s)
            }
        })
    }

    /// The cluster settings; the tasks run this very binary.
    pub(crate) fn options(
        &self,
        wait: bool,
        progress: bool,
    ) -> anyhow::Result<playtune_exec::slurm::SlurmOptions> {
        Ok(playtune_exec::slurm::SlurmOptions {
            args: playtune_exec::slurm::sbatch::split_args(&self.slurm_args)
                .map_err(slurm_error)?,
            wait,
            poll: std::time::Duration::from_secs_f64(self.poll),
            program: vec![
                std::env::current_exe()
                    .map_err(|e| anyhow::anyhow!("cannot find this playtune binary: {e}"))?
                    .display()
                    .to_string(),
            ],
            progress,
            stop: None,
        })
    }
}

/// Where a command that writes one output folder puts it (`ladder`, `train-eval`):
/// `--name` under `--runs-dir`, its pictures under `--plots-dir`.
#[derive(Args, Clone)]
pub(crate) struct OutputArgs {
    /// Folder name under --runs-dir and --plots-dir [default: the command's, given in
    /// its description].
    #[arg(long)]
    pub name: Option<String>,
    /// Where the output folder goes.
    #[arg(long, default_value = "runs")]
    pub runs_dir: PathBuf,
    /// Where its pictures go.
    #[arg(long, default_value = "plots")]
    pub plots_dir: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options every run command shares.
#[derive(Args, Clone)]
pub(crate) struct CommonRunArgs {
    /// Problem to optimise (see `playtune problems`) [default: noisy-onemax for
    /// optimize, sphere for map-elites].
    #[arg(long)]
    pub problem: Option<String>,
    /// A problem setting, NAME=VALUE (repeatable), e.g. --set dims=20.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// Space file to search (default: all of the problem's own parameters).
    #[arg(long)]
    pub space: Option<PathBuf>,
    /// Fix a dimension to a value, NAME=VALUE (repeatable); the rest are searched.
    #[arg(long = "fix", value_name = "NAME=VALUE")]
    pub fix: Vec<String>,
    /// What an acceptable point reports, on the problem's features (repeatable; `;`
    /// separates several): `stalemate_rate<=0.05`, `mean_length>=60`,
    /// `mean_length in 60..200`. Added to the space file's `constraints`.
    #[arg(
        long = "constraint",
        value_name = "FEATURE<=V|FEATURE>=V|FEATURE in A..B"
    )]
    pub constraints: Vec<String>,
    /// Independent trials, run in parallel.
    #[arg(long, default_value_t = 1)]
    pub trials: u64,
    /// Run seed: the same seed gives the same files, whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run folder name under --runs-dir (default: PROBLEM-GAME-ALGO-sSEED for a problem that plays a game, else PROBLEM-ALGO-sSEED, made unique).
    #[arg(long)]
    pub name: Option<String>,
    /// Where run folders go.
    #[arg(long, default_value = "runs")]
    pub runs_dir: PathBuf,
    /// Also draw the run's pictures when it finishes, into DIR/<run name>, as
    /// `playtune plot` draws them (the same flag as the experiments').
    // The doc comment is the flag's help, read as text, not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    #[arg(long, value_name = "DIR")]
    pub plots_dir: Option<PathBuf>,
    /// Do not write the evaluation log (faster for cheap problems; nothing to resume).
    #[arg(long)]
    pub no_log: bool,
    #[command(flatten)]
    pub ladder: ladder_check::LadderCheckArgs,
    /// Print one JSON object as the last line of output.
    #[arg(long)]
    pub json: bool,
    /// Evaluations of a failed point again, with the same seed, before it is recorded
    /// as failed (in the run's failures.jsonl) and the run goes on.
    #[arg(long, default_value_t = playtune::run::FaultPolicy::default().retries)]
    pub retries: u32,
    /// Stop the run when more than this share of evaluations has failed (counted over
    /// at least 20 evaluations); 0 stops at the first failure, 1 never.
    #[arg(long, value_name = "SHARE", default_value_t = playtune::run::FaultPolicy::default().max_failures)]
    pub max_failures: f64,
    /// External evaluators (--problem command): seconds an evaluation may take before
    /// the evaluator is killed and the evaluation retried (the `timeout` setting).
    #[arg(long, value_name = "SECONDS")]
    pub eval_timeout: Option<f64>,
    /// External evaluators (--problem command): start N persistent workers that each
    /// serve many evaluations over JSON lines (the settings mode=worker, workers=N).
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// `--game` of the commands that play a run (`resume`, `reevaluate`): the run's game
/// named again on purpose. Without it a run plays its game where the run found it.
#[derive(Args, Clone)]
pub(crate) struct RunGameArgs {
    /// The run's game, named again on purpose: a description file or FILE.py:NAME, for
    /// a run folder moved away from its game, or a game whose code you changed on
    /// purpose. Without it the run plays its game where the run found it, and refuses
    /// it if its code changed; either way its description must be the run's.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
}

impl RunGameArgs {
    /// The problem the run in `dir` plays (`command`: the command playing it, for the
    /// way out of a refusal).
    pub(crate) fn problem(
        &self,
        config: &playtune::run::RunConfig,
        command: &str,
        dir: &std::path::Path,
    ) -> anyhow::Result<Box<dyn playtune::eval::Problem>> {
        use playtune::registry::Error;
        let config_file = dir.join(playtune::run::CONFIG_FILE);
        playtune::registry::run_problem(config, self.game.as_deref()).map_err(|e| match e {
            Error::GameGone { .. } | Error::OtherCode { .. } => anyhow::anyhow!(
                "{}: {e}; if the game moved with the run, or you changed its code on purpose, name it again: `playtune {command} {} --game PATH` (its description file, or FILE.py:NAME)",
                config_file.display(),
                dir.display()
            ),
            Error::NoGameToName { .. } => anyhow::anyhow!("--game: {e}"),
            e if self.game.is_some() => anyhow::anyhow!("--game {}: {e}", self.game.as_deref().unwrap_or_default()),
            e => anyhow::anyhow!("{}: problem: {e}", config_file.display()),
        })
    }
}

/// A folder's name from `--name` (or its default), checked as every command that writes
/// a folder checks it: one plain name, so that the folder lands inside the runs folder.
pub(crate) fn folder_name(name: &str) -> anyhow::Result<&str> {
    playtune::run::check_run_name(name).map_err(|_| {
        anyhow::anyhow!(
            "--name {name:?}: a folder's name is one plain name, without `/`, `..` or control characters (--runs-dir chooses where it goes)"
        )
    })?;
    Ok(name)
}

/// The `playtune` binary: the command line over the process's arguments, its exit
/// status the process's.
pub fn main() -> ExitCode {
    ExitCode::from(run(std::env::args_os()))
}

/// The command line over `args` (the program's name first), as `main` runs it: its
/// exit status, never exiting the process itself except on a signal. The Python
/// package's `playtune` command runs it in process, over the same code.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    restore_sigpipe();
    // Ctrl-C and SIGTERM kill the external evaluators too, whatever the command.
    interrupt::install();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // What `Cli::parse` would print and exit with: 0 after --help or
            // --version, 2 for a refusal.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    let outcome = match cli.command {
        Command::Optimize(a) => optimize::optimize(a),
        Command::MapElites(a) => optimize::map_elites(a),
        Command::Resume(a) => optimize::resume(a),
        Command::Ask(a) => asktell::ask(a),
        Command::Tell(a) => asktell::tell(a),
        Command::Reevaluate(a) => timed(|| reevaluate::run(a)),
        Command::Spaces { command } => spaces::run(command),
        Command::Compare(a) => compare::run(a),
        Command::Plot(a) => timed(|| plot::run(a)),
        Command::Report(a) => timed(|| report::run(a)),
        Command::Tournament(a) => games::tournament_cmd(a),
        Command::Games { game } => games::games_cmd(game.as_deref()),
        Command::Experiment(a) => experiment::experiment(a),
        Command::Play(a) => games::play_cmd(a),
        Command::Render(a) => timed(|| games::render_cmd(a)),
        Command::Validate(a) => timed(|| validate::run(a)),
        Command::Ladder(a) => timed(|| ladder::ladder_cmd(a)),
        Command::CheckLadder(a) => timed(|| ladder_check::check_ladder_cmd(a)),
        Command::BuildLadder(a) => build_ladder::build_ladder_cmd(a),
        Command::Selfplay(a) => learn::selfplay_cmd(a),
        Command::TrainEval(a) => timed(|| learn::train_eval_cmd(a)),
        Command::Status(a) => cluster::status(a),
        Command::Cancel(a) => cluster::cancel(a),
        Command::Task(a) => cluster::task(a),
        Command::Problems => problems::run(),
        Command::Examples(a) => examples::examples_cmd(a),
    };
    // Game processes are pooled for the whole command: a game that does not exit at
    // the end of its input, or a child it left in its group, would outlive playtune.
    // Their groups end with it, as on Ctrl-C.
    playtune::eval::evaluator_groups::kill_all();
    match outcome {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    }
}

/// A refusal of `--executor slurm` or of `--slurm-args`, naming the flag.
fn slurm_error(e: playtune_exec::slurm::sbatch::SlurmError) -> anyhow::Error {
    use playtune_exec::slurm::sbatch::SlurmError;
    match e {
        SlurmError::Missing(tool) => anyhow::anyhow!(
            "`{tool}` is not on the PATH: --executor slurm needs Slurm's command-line tools (sbatch, squeue, scancel) on this machine, the cluster's login node; without a cluster, leave --executor at its default (local), or start the test cluster with scripts/slurm-test-cluster.sh"
        ),
        SlurmError::BadArgs(args) => anyhow::anyhow!("--slurm-args `{args}`: unbalanced quotes"),
        SlurmError::Reserved(option) => anyhow::anyhow!(
            "--slurm-args sets {option}, which playtune sets itself for each array (the work items, the job's name, where task logs go)"
        ),
        SlurmError::NotAnOption(word, why) => {
            anyhow::anyhow!("--slurm-args: `{word}` is not an sbatch option: {why}")
        }
        e => anyhow::Error::msg(e),
    }
}

/// Runs a command that may take minutes and says on stderr how long it took (stdout
/// stays as scripts read it); commands that print their own time are not wrapped.
fn timed(command: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let outcome = command();
    let seconds = started.elapsed().as_secs_f64();
    if outcome.is_ok() && seconds >= 2.0 {
        eprintln!("took {}", playtune::run::duration_text(seconds));
    }
    outcome
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`playtune ... | head`) panics.
/// A command-line tool should end quietly instead, as other Unix tools do.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Fixes the dimensions of `--fix NAME=VALUE` items in `space`; an error names the
/// flag and the item (the space layer names neither).
pub(crate) fn fix_dims(space: &mut playtune::space::Space, items: &[String]) -> anyhow::Result<()> {
    space
        .fix_all(items)
        .map_err(|e| anyhow::anyhow!("--fix {e}"))
}

/// The `NAME=VALUE` items of a repeated option (`--set games=20 --set ladder=a,b`),
/// split at the first `=` only, since values may hold commas and `=` (agent lists,
/// game settings). An empty name or a name given twice is refused: the last value
/// silently winning would hide a typing mistake.
pub(crate) fn name_value_pairs(
    flag: &str,
    items: &[String],
) -> anyhow::Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for item in items {
        let (k, v) = item
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| anyhow::anyhow!("{flag} {item}: expected NAME=VALUE"))?;
        if k.is_empty() {
            anyhow::bail!("{flag} {item}: the NAME before `=` is missing");
        }
        if let Some((_, first)) = out.iter().find(|(n, _)| n == k) {
            anyhow::bail!(
                "{flag} {item}: `{k}` is given twice ({k}={first} and {k}={v}); give each setting once"
            );
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(playtune::run::duration_text(4.31), "4.3 s");
        assert_eq!(playtune::run::duration_text(185.0), "3 min 05 s");
        assert_eq!(playtune::run::duration_text(7620.0), "2 h 07 min");
    }

    /// Every option and argument of every command says what it does in `--help`.
    #[test]
    fn every_option_has_a_description() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" || arg.is_hide_set() {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                if sub.is_hide_set() {
                    continue;
                }
                if sub.get_about().is_none() {
                    missing.push(format!("{path} {} (the command)", sub.get_name()));
                }
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "playtune", &mut missing);
        assert!(missing.is_empty(), "no description: {missing:#?}");
    }
}
