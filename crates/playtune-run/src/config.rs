//! A run's configuration (`config.ron`): what it holds, how it is read and checked,
//! and the folder it lives in.

use super::*;

/// A run folder's configuration: everything needed to reproduce the run.
pub const CONFIG_FILE: &str = "config.ron";
/// Below this time per evaluation, a batch is evaluated on the calling thread.
pub(crate) const CHEAP_EVALUATION: std::time::Duration = std::time::Duration::from_micros(20);
/// A finished run's recommendations, estimates and budget used.
pub const RESULT_FILE: &str = "result.ron";

/// A problem by registry name and its settings (`--set NAME=VALUE`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// The problem's name in the registry.
    pub name: String,
    /// Its settings by name, as text.
    pub settings: BTreeMap<String, String>,
}

/// Everything needed to reproduce a run. `A` is what names its optimiser: the
/// settings of one of playtune's own ([`AlgoConfig`], every run of the command line),
/// or [`OwnOptimizer`] for an optimiser of a program's own ([`execute_own`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig<A = AlgoConfig> {
    /// The version of playtune that started the run.
    pub playtune_version: String,
    /// What is optimised.
    pub problem: ProblemSpec,
    /// The space searched (fixed dimensions marked), embedded so the run does not
    /// depend on the space file staying unchanged.
    pub space: Space,
    /// Where the space came from, for people.
    pub space_file: Option<String>,
    /// The optimiser and its settings.
    pub algorithm: A,
    /// Evaluations per trial (MAP-Elites: before re-evaluation of elites).
    pub budget: u64,
    /// Independent searches of the same problem, each with seeds of its own.
    pub trials: u64,
    /// The run's seed: every optimiser's and evaluation's seed derives from it.
    pub seed: u64,
    /// Whether evaluations are logged to `evals.csv`.
    pub log: bool,
    /// What happens when an evaluation fails (absent from configs written before it
    /// existed: those runs get the defaults).
    #[serde(default, skip_serializing_if = "FaultPolicy::is_default")]
    pub faults: FaultPolicy,
    /// Racing the strongest candidates with the last share of each trial's budget
    /// ([`playtune_optim::optim::race`]); absent: no race (every run before racing existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<playtune_optim::optim::race::RaceConfig>,
    /// Measuring again, during the search, the points that could beat the best so far
    /// ([`playtune_optim::optim::intensify`]); absent: every point asked is evaluated
    /// once (every run before 2026-11-29).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intensify: Option<playtune_optim::optim::intensify::IntensifyConfig>,
    /// How the run is judged at its end, where its user said (`--verdict`,
    /// `--baseline`); absent: the default size against the problem's own baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<verdict::VerdictSettings>,
    /// What identifies the game the run plays, where the problem plays one named by
    /// a file (a description, a Python game): a resumed run refuses another game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<playtune_optim::eval::GameIdentity>,
}

impl<A> RunConfig<A> {
    /// A plain run: `trials` searches of `budget` evaluations of `problem` over
    /// `space` by `algorithm`, from `seed`, logged, with the default handling of
    /// failures; neither raced, intensified nor judged, as the papers' experiments run
    /// their searches.
    pub fn plain(
        problem: ProblemSpec,
        space: Space,
        algorithm: A,
        budget: u64,
        trials: u64,
        seed: u64,
    ) -> RunConfig<A> {
        RunConfig {
            playtune_version: env!("CARGO_PKG_VERSION").into(),
            problem,
            space,
            space_file: None,
            algorithm,
            budget,
            trials,
            seed,
            log: true,
            faults: FaultPolicy::default(),
            race: None,
            intensify: None,
            verdict: None,
            game: None,
        }
    }
}

/// What a run does when an evaluation fails: it tries again with the same seed, then
/// records the failure in `failures.jsonl`, tells the optimiser, and goes on; it stops
/// only when failures pass a share of the evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultPolicy {
    /// Evaluations of a failed point again, with the same seed, before it counts as
    /// failed: a flaky evaluator's crash costs a retry, not an evaluation.
    pub retries: u32,
    /// The share of failed evaluations above which the run stops, counted over at
    /// least `FAILURE_WINDOW` evaluations so that an evaluator that always fails
    /// stops the run within a few evaluations, and one crash in a hundred does not.
    pub max_failures: f64,
}

/// The fewest evaluations a failure share is counted over.
pub(crate) const FAILURE_WINDOW: u64 = 20;

impl Default for FaultPolicy {
    fn default() -> FaultPolicy {
        FaultPolicy {
            retries: 2,
            max_failures: 0.2,
        }
    }
}

impl FaultPolicy {
    fn is_default(&self) -> bool {
        *self == FaultPolicy::default()
    }

    /// Checks the policy; an error names the setting as `config.ron` does
    /// (`faults`' `max_failures`, `retries`).
    pub fn check(&self) -> Result<(), RunError> {
        if !(0.0..=1.0).contains(&self.max_failures) {
            return Err(RunError::Faults {
                setting: "max_failures",
                value: self.max_failures.to_string(),
                expected: "give a share from 0 (stop at the first failure) to 1 (never stop)"
                    .into(),
            });
        }
        if self.retries > MAX_RETRIES {
            return Err(RunError::Faults {
                setting: "retries",
                value: self.retries.to_string(),
                expected: format!("give 0 to {MAX_RETRIES}"),
            });
        }
        Ok(())
    }

    /// Whether `failed` of `attempted` evaluations is past the share, mid-run: the
    /// share is taken over at least [`FAILURE_WINDOW`] evaluations.
    pub(crate) fn exceeded(&self, failed: u64, attempted: u64) -> bool {
        failed as f64 > self.max_failures * attempted.max(FAILURE_WINDOW) as f64
    }

    /// Whether a finished run failed too often to count as finished: past the share
    /// as mid-run. (A trial in which every evaluation failed found nothing, whatever
    /// the share: see [`RunError::NothingSucceeded`].)
    pub(crate) fn exceeded_at_end(&self, failed: u64, attempted: u64) -> bool {
        self.exceeded(failed, attempted)
    }
}

/// Writes `config.ron` into a new run folder.
pub fn create_run_dir<A: Serialize>(dir: &Path, config: &RunConfig<A>) -> Result<(), RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let text = ron::ser::to_string_pretty(config, ron::ser::PrettyConfig::default()).map_err(io)?;
    // Written whole or not at all: a kill while writing must not leave a half config
    // that `resume` would trip over.
    let path = dir.join(CONFIG_FILE);
    lock::write_whole(&path, text)
        .map_err(|e| RunError::Io(format!("cannot write {}: {e}", path.display())))
}

/// A RON error located in its file: `path:line:column: message`.
pub fn ron_error(path: &Path, e: &ron::error::SpannedError) -> String {
    format!(
        "{}:{}:{}: {}",
        path.display(),
        e.span.start.line,
        e.span.start.col,
        e.code
    )
}

/// Makes `dir` the run folder of `config`: a folder that already holds this config
/// is kept, evaluations and all, so an interrupted experiment resumes; any other is
/// started afresh.
pub fn reuse_or_create_run_dir(dir: &Path, config: &RunConfig) -> Result<(), RunError> {
    if read_config(dir).ok().as_ref() == Some(config) {
        return Ok(());
    }
    create_run_dir(dir, config)
}

/// Reads a run folder's `config.ron`. A run driven by an optimiser of a program's
/// own is refused ([`RunError::OwnOptimizer`]): only that program resumes it.
pub fn read_config(dir: &Path) -> Result<RunConfig, RunError> {
    let (text, path) = config_text(dir)?;
    parse_config(&text, &path)
}

/// The text of a run folder's `config.ron`, and its path.
fn config_text(dir: &Path) -> Result<(String, PathBuf), RunError> {
    let path = dir.join(CONFIG_FILE);
    let text = super::files::read_plain_text(&path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound && dir.is_dir() {
            RunError::NeverStarted(path.clone())
        } else {
            RunError::Io(format!("{}: {e}", path.display()))
        }
    })?;
    Ok((text, path))
}

/// Reads the `config.ron` of a run driven by an optimiser of a program's own; a run
/// of one of playtune's own optimisers is refused ([`RunError::OtherOptimizer`]).
/// `now` is the optimiser the caller drives it with, named in that error.
pub(crate) fn read_own_config(
    dir: &Path,
    now: &OwnOptimizer,
) -> Result<RunConfig<OwnOptimizer>, RunError> {
    let (text, path) = config_text(dir)?;
    parse_config_as::<OwnOptimizer>(&text, &path).map_err(|e| {
        match parse_config_as::<AlgoConfig>(&text, &path) {
            Ok(built_in) => RunError::OtherOptimizer {
                file: path.clone(),
                recorded: format!("playtune's own optimiser `{}`", built_in.algorithm.name()),
                now: now.to_string(),
            },
            Err(_) => e,
        }
    })
}

/// Whether the run's problem is evaluated outside playtune (`ask`/`tell`): such a run
/// is finished by telling results, never by `resume`.
pub fn is_manual(config: &RunConfig) -> bool {
    config.problem.name == "manual"
}

/// What finishes the unfinished run in `dir`, as a command to show: `resume`, or for a
/// run evaluated outside playtune, `ask` and `tell`.
pub fn how_to_finish(dir: &Path) -> String {
    let d = dir.display();
    match read_config(dir) {
        Ok(c) if is_manual(&c) => {
            format!("`playtune ask {d}` and `playtune tell {d}` evaluate what it waits for")
        }
        Err(RunError::OwnOptimizer { name, .. }) => format!(
            "resuming it with its optimiser `{name}` (`playtune::run::resume_own`) completes it"
        ),
        _ => format!("`playtune resume {d}` completes it"),
    }
}

/// The folder under a run or an experiment that holds a cluster's state (`cluster`):
/// a lock walk passes over it, since the tasks there hold folders of their own.
pub const CLUSTER_DIR: &str = "slurm";

/// Parses and checks the text of a `config.ron`; `path` names it in errors. A run
/// driven by an optimiser of a program's own is refused ([`RunError::OwnOptimizer`]).
pub fn parse_config(text: &str, path: &Path) -> Result<RunConfig, RunError> {
    parse_config_as::<AlgoConfig>(text, path).map_err(|e| {
        match (&e, parse_config_as::<OwnOptimizer>(text, path)) {
            // Only where the text is not a run of playtune's own optimisers at all.
            (RunError::Io(_), Ok(own)) => RunError::OwnOptimizer {
                file: path.to_path_buf(),
                name: own.algorithm.name,
            },
            _ => e,
        }
    })
}

/// [`parse_config`] for a run whose optimiser `A` names.
fn parse_config_as<A: Algorithm + serde::de::DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<RunConfig<A>, RunError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Deserialising checks the space as a space file is checked (see `Space`); the
    // algorithm's settings get the checks the command line gives them.
    let config: RunConfig<A> =
        ron::from_str(text).map_err(|e| RunError::Io(ron_error(path, &e)))?;
    // Messages name the file and the field, never a flag: a damaged config is
    // repaired by hand or the run started again, not resumed.
    let damaged = |field: &str, message: String| RunError::Damaged {
        file: path.to_path_buf(),
        field: field.to_string(),
        message,
    };
    check_size(config.budget, config.trials, "budget", "trials")
        .map_err(|(field, m)| damaged(field, m))?;
    // Whether playtune has the problem is the registry's to say (`registry::read_config`
    // above this crate): run folders know no problem by name.
    config
        .algorithm
        .check_settings()
        .map_err(|e| damaged("algorithm", e))?;
    let f = &config.faults;
    if !(0.0..=1.0).contains(&f.max_failures) {
        return Err(damaged(
            "faults",
            format!("max_failures: {}: give a share from 0 to 1", f.max_failures),
        ));
    }
    if f.retries > MAX_RETRIES {
        return Err(damaged(
            "faults",
            format!("retries: {}: give 0 to {MAX_RETRIES}", f.retries),
        ));
    }
    if let Some(v) = &config.verdict {
        verdict::VerdictSettings::check_evaluations(v.evaluations)
            .map_err(|m| damaged("verdict.evaluations", m))?;
        if let Some(b) = &v.baseline {
            if b.len() != config.space.dims.len() {
                return Err(damaged(
                    "verdict.baseline",
                    format!(
                        "{} values for a space of {} dimensions",
                        b.len(),
                        config.space.dims.len()
                    ),
                ));
            }
            // The baseline is played as a point of the space, as `--baseline` gives
            // one: each value on its dimension's domain (a float anywhere within its
            // bounds), never a value no evaluation of the run could have.
            if let Some((d, v)) = config
                .space
                .dims
                .iter()
                .zip(b)
                .find(|(d, v)| !d.domain.admits(**v))
            {
                return Err(damaged(
                    "verdict.baseline",
                    format!(
                        "{}: {v} is not a value of its domain ({})",
                        d.name,
                        d.domain.describe()
                    ),
                ));
            }
            config
                .space
                .check_fixed(b)
                .map_err(|e| damaged("verdict.baseline", e.to_string()))?;
        }
    }
    Ok(config)
}

/// The most evaluations one trial may have (a run's `budget`, `--budget`).
pub(crate) const MAX_BUDGET: u64 = 1_000_000_000;
/// The most trials a run may have (`trials`, `--trials`): every trial holds an
/// optimiser and its result in memory.
pub(crate) const MAX_TRIALS: u64 = 100_000;
/// The most retries of a failed evaluation (`--retries`).
pub(crate) const MAX_RETRIES: u32 = 100;

/// Checks a run's budget and trials against the limits of every run, for the command
/// line and `config.ron` alike: on error, which of the two (named as the caller
/// spells it: `budget_name`, `trials_name`) and why.
pub fn check_size<'a>(
    budget: u64,
    trials: u64,
    budget_name: &'a str,
    trials_name: &'a str,
) -> Result<(), (&'a str, String)> {
    if budget == 0 {
        return Err((budget_name, "0: give at least one evaluation".into()));
    }
    if budget > MAX_BUDGET {
        return Err((
            budget_name,
            format!("{budget}: give at most {MAX_BUDGET} evaluations per trial"),
        ));
    }
    if trials == 0 {
        return Err((trials_name, "0: run at least one trial".into()));
    }
    if trials > MAX_TRIALS {
        return Err((
            trials_name,
            format!("{trials}: give at most {MAX_TRIALS} trials"),
        ));
    }
    Ok(())
}

/// Checks a run folder's name: one plain path component, so that the run lands
/// inside the runs folder (`../x` or `/tmp/x` would not).
pub fn check_run_name(name: &str) -> Result<(), RunError> {
    let mut parts = Path::new(name).components();
    let plain = matches!(parts.next(), Some(std::path::Component::Normal(_)))
        && parts.next().is_none()
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control);
    if !plain {
        return Err(RunError::BadName(name.to_string()));
    }
    Ok(())
}

/// A duration as people read it: `42.0 s`, `3 min 05 s`, `2 h 07 min`.
pub fn duration_text(seconds: f64) -> String {
    let whole = seconds.round() as u64;
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else if whole < 3600 {
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        format!("{} h {:02} min", whole / 3600, whole % 3600 / 60)
    }
}

/// Creates the folder of a new run and locks it: `runs_dir/name`, or `name-2`,
/// `name-3`, ... if taken. Creating the folder is what claims a name, so two commands
/// given one name at once get two folders, never one between them.
pub fn claim_fresh_dir(
    runs_dir: &Path,
    name: &str,
) -> Result<(PathBuf, lock::FolderLock), RunError> {
    std::fs::create_dir_all(runs_dir)
        .map_err(|e| RunError::Io(format!("cannot create {}: {e}", runs_dir.display())))?;
    for i in 1u64.. {
        let dir = if i == 1 {
            runs_dir.join(name)
        } else {
            runs_dir.join(format!("{name}-{i}"))
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                let guard = lock::lock_fresh(&dir)?;
                return Ok((dir, guard));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(RunError::Io(format!(
                    "cannot create {}: {e}",
                    dir.display()
                )));
            }
        }
    }
    unreachable!("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use playtune_optim::optim::random::RandomConfig;

    /// A run over two dimensions, `x0` in 0..=3 and `x1` floats 0..=1, whose verdict
    /// judges against `baseline`, as the text of its `config.ron`.
    fn config_text(baseline: &[f64]) -> String {
        let mut space = playtune_optim::eval::int_space("s", 1, 4);
        space.dims.push(playtune_optim::space::Dimension {
            name: "x1".into(),
            domain: playtune_optim::space::Domain::Float {
                min: 0.0,
                max: 1.0,
                levels: 5,
            },
            default: 0,
            fixed: false,
        });
        let config = RunConfig {
            playtune_version: "0".into(),
            problem: ProblemSpec {
                name: "p".into(),
                settings: BTreeMap::new(),
            },
            space,
            space_file: None,
            algorithm: AlgoConfig::Random(RandomConfig { batch: 1 }),
            budget: 4,
            trials: 1,
            seed: 1,
            log: true,
            faults: FaultPolicy::default(),
            race: None,
            intensify: None,
            verdict: Some(verdict::VerdictSettings {
                evaluations: 10,
                baseline: Some(baseline.to_vec()),
                margin: None,
            }),
            game: None,
        };
        ron::ser::to_string_pretty(&config, ron::ser::PrettyConfig::default()).unwrap()
    }

    /// The verdict's baseline is played as a point of the run's space: a value off a
    /// dimension's domain (99 in 0..=3, 0.5 for an integer, NaN, a float past its
    /// bounds) is refused naming the file, the field, the dimension and its domain.
    #[test]
    fn a_baseline_off_the_space_is_refused_with_the_domain() {
        let path = Path::new("runs/r/config.ron");
        for good in [[2.0, 0.5], [0.0, 0.25], [3.0, 1.0]] {
            parse_config(&config_text(&good), path).unwrap();
        }
        for (bad, says) in [
            (
                [99.0, 0.5],
                "x0: 99 is not a value of its domain (integers 0..=3 step 1)",
            ),
            (
                [0.5, 0.5],
                "x0: 0.5 is not a value of its domain (integers 0..=3 step 1)",
            ),
            ([f64::NAN, 0.5], "x0: NaN is not a value of its domain"),
            (
                [1.0, 1.5],
                "x1: 1.5 is not a value of its domain (floats 0..=1 in 5 levels)",
            ),
            ([1.0, f64::INFINITY], "x1: inf is not a value of its domain"),
        ] {
            let e = parse_config(&config_text(&bad), path)
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("runs/r/config.ron: verdict.baseline: ") && e.contains(says),
                "{bad:?}: {e}"
            );
        }
    }
}
