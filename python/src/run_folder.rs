//! `RunFolder`: a run folder driven from Python (ask and tell, or a Python function
//! evaluating in process), and what a run's files say.

use crate::*;
use playtune::run::files::FAILURES_FILE;
use playtune_exec::prepare::start::{self, StartError, UserSpace};

/// The problem of a run and the space searched, checked against each other by the
/// sequence that creates a run.
pub(crate) fn problem_and_space(
    problem: &str,
    settings: BTreeMap<String, String>,
    space: Option<&Space>,
) -> Result<(ProblemSpec, Box<dyn Problem>, Space), String> {
    let spec = ProblemSpec {
        name: problem.into(),
        settings,
    };
    let user = space.map(|s| UserSpace {
        space: s.clone(),
        file: None,
        text: None,
    });
    let (built, space) = start::problem_and_space(&spec, user.as_ref(), &[])
        .map_err(|e| start_error(e, &spec.name))?;
    Ok((spec, built, space))
}

/// Why a run was not created, by the argument of `create_run` that sets what is wrong.
fn start_error(e: StartError, problem: &str) -> String {
    match e {
        StartError::Problem(e) => format!("problem {problem}: {e}"),
        StartError::Race(e) => e.to_string().replacen("race_share", "race", 1),
        StartError::Margin(m) => format!("margin {m}"),
        StartError::Verdict(m) => format!("verdict {m}"),
        e => e.to_string(),
    }
}

/// Creates a run folder as `playtune optimize` (or `map-elites`) does and returns its
/// path: `config.ron` written, nothing evaluated.
#[pyfunction]
#[pyo3(signature = (runs_dir, name, problem, settings, space, algorithm, budget, trials, seed, retries = 2, max_failures = 0.2, log = true, space_file = None, race = None, race_baseline = "entrant", intensify = true, ladder_check = "warn", ladder_check_games = None, quiet = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn create_run(
    py: Python<'_>,
    runs_dir: PathBuf,
    name: Option<String>,
    problem: &str,
    settings: BTreeMap<String, String>,
    space: Option<PySpace>,
    algorithm: &str,
    budget: u64,
    trials: u64,
    seed: u64,
    retries: u32,
    max_failures: f64,
    log: bool,
    space_file: Option<String>,
    race: Option<f64>,
    race_baseline: &str,
    intensify: bool,
    ladder_check: &str,
    ladder_check_games: Option<usize>,
    quiet: bool,
) -> PyResult<String> {
    use playtune_exec::prepare::ladder::{LadderCheckMode, LadderCheckSettings, check_games};
    use playtune_exec::prepare::start::{CreatedRun, Judging, Racing, RunRequest};
    // The modes' names are the command line's `--ladder-check`, from the mode itself.
    let mode: LadderCheckMode = ladder_check.parse().map_err(|_| {
        let names: Vec<String> = LadderCheckMode::ALL
            .iter()
            .map(|m| format!("{:?}", m.name()))
            .collect();
        err(format!(
            "ladder_check={ladder_check:?}: one of {}",
            names.join(", ")
        ))
    })?;
    if let Some(n) = ladder_check_games {
        check_games("ladder_check_games=", n).map_err(|e| err(format!("{e}")))?;
    }
    // Unlocked and interruptible: the ladder check and the cost's timing play games, a
    // game played in this process takes the interpreter's lock for each match, and
    // Ctrl-C, or a KeyboardInterrupt its play raises, stops them and is raised here.
    let space = space.map(|s| s.inner);
    let (problem, algorithm, race_baseline) = (
        problem.to_string(),
        algorithm.to_string(),
        race_baseline.to_string(),
    );
    crate::problems::interruptible(
        py,
        || {},
        move || {
            guard(|| {
                let (spec, built, space) = problem_and_space(&problem, settings, space.as_ref())?;
                let algorithm = parse_algorithm(&algorithm)?;
                use playtune::optim::race::RaceBaseline;
                let baseline = match race_baseline.as_str() {
                    "entrant" => RaceBaseline::Entrant,
                    "incumbent" => RaceBaseline::Incumbent,
                    "none" => RaceBaseline::Absent,
                    other => {
                        return Err(format!(
                            "race_baseline {other:?}: one of \"entrant\", \"incumbent\", \"none\""
                        ));
                    }
                };
                // None: the library's default race, as the command line's; 0: none.
                let racing = Racing {
                    off: race == Some(0.0),
                    share: race.filter(|&s| s != 0.0),
                    baseline,
                    intensify,
                    ..Racing::default()
                };
                // An archive is neither raced nor judged, as `playtune map-elites`'s.
                let archive = matches!(algorithm, playtune::AlgoConfig::MapElites(_));
                let CreatedRun { dir, .. } = start::create_run(RunRequest {
                    runs_dir,
                    name,
                    problem: spec,
                    built,
                    space,
                    space_file,
                    algorithm,
                    budget,
                    trials,
                    seed,
                    log,
                    faults: FaultPolicy {
                        retries,
                        max_failures,
                    },
                    racing: (!archive).then_some(racing),
                    judging: (!archive).then(Judging::default),
                    ladder: LadderCheckSettings {
                        mode,
                        games: ladder_check_games,
                    },
                    quiet,
                    remote: false,
                })
                .map_err(|e| start_error(e, &problem))?;
                Ok(dir.display().to_string())
            })
        },
    )
}

/// An open run folder, locked while open (as a command holds it): replayed from its
/// logs, evaluated here or by Python, told results.
#[pyclass(name = "RunFolder", module = "playtune._playtune")]
pub(crate) struct PyRunFolder {
    dir: PathBuf,
    config: RunConfig,
    problem: Box<dyn Problem>,
    lock: Option<run::lock::FolderLock>,
    /// The candidates waited for at the last replay.
    waiting: Vec<Waiting>,
}

/// Replays of run folders from their logs in this process (see `_replay_count`).
pub(crate) static REPLAYS: AtomicU64 = AtomicU64::new(0);

/// How often the thread driving a run looks for Ctrl-C and updates the progress bar
/// while no evaluation is asked of Python.
pub(crate) const POLL: std::time::Duration = std::time::Duration::from_millis(50);
/// How often it looks whether the run loop has ended, when Python evaluates nothing.
pub(crate) const WAIT: std::time::Duration = std::time::Duration::from_millis(10);

impl PyRunFolder {
    fn replay(&mut self) -> Result<Option<RunResult>, String> {
        REPLAYS.fetch_add(1, Ordering::SeqCst);
        match run::replay(&self.dir, &self.config, self.problem.as_ref())
            .map_err(|e| e.to_string())?
        {
            Driven::Finished(r) => {
                self.waiting.clear();
                Ok(Some(r))
            }
            Driven::Waiting { waiting, .. } => {
                self.waiting = waiting;
                Ok(None)
            }
        }
    }

    fn waiting_json(&self) -> Value {
        Value::Array(
            self.waiting
                .iter()
                .map(|w| {
                    json!({
                        "id": w.index,
                        "trial": w.trial,
                        "seed": w.seed,
                        "phase": w.phase.as_str(),
                        "point": point_json(&self.config.space, &w.values),
                        "values": w.values,
                    })
                })
                .collect(),
        )
    }

    fn record(
        &self,
        results: Vec<(u64, u64, Result<Evaluation, String>, u32)>,
    ) -> Result<(), String> {
        let mut rows = Vec::new();
        let mut failures = Vec::new();
        for (trial, id, result, attempts) in results {
            let Some(w) = self
                .waiting
                .iter()
                .find(|w| w.trial == trial && w.index == id)
            else {
                // The very result the logs hold, told again (a retried cell, a second
                // process), is nothing new: accepted, as `playtune tell` accepts it.
                if self.recorded(trial, id).as_ref() == Some(&result) {
                    continue;
                }
                return Err(self.not_waiting(trial, id));
            };
            match result {
                Ok(e) => rows.push(LogRow {
                    trial,
                    index: id,
                    phase: w.phase,
                    seed: w.seed,
                    values: w.values.clone(),
                    eval: e,
                }),
                Err(reason) => failures.push(FailureRow {
                    trial,
                    index: id,
                    phase: w.phase,
                    seed: w.seed,
                    point: FailureRow::point_by_name(&self.config.space, &w.values),
                    values: w.values.clone(),
                    reason,
                    attempts,
                }),
            }
        }
        let features = self.problem.feature_names();
        run::append_results(&self.dir, &self.config.space, &features, &rows, &failures)
            .map_err(|e| e.to_string())
    }

    /// The result the run's logs hold for (`trial`, `id`): an evaluation, or a
    /// failure's reason; None when they hold none.
    fn recorded(&self, trial: u64, id: u64) -> Option<Result<Evaluation, String>> {
        let features = self.problem.feature_names();
        let path = self.dir.join(run::files::LOG_FILE);
        if let Ok(log) = run::log::read_log(&path, &self.config.space, &features)
            && let Some((_, r)) = log
                .rows
                .into_iter()
                .find(|(_, r)| r.trial == trial && r.index == id)
        {
            return Some(Ok(r.eval));
        }
        read_failures(&self.dir.join(FAILURES_FILE), &self.config)
            .ok()
            .and_then(|(f, _)| f.get(&(trial, id)).map(|f| Err(f.reason.clone())))
    }

    /// Why a result told for (`trial`, `id`), which the run does not wait for, is
    /// refused: its logs hold a result for it already (told twice, or by another
    /// process meanwhile), or it was never asked.
    fn not_waiting(&self, trial: u64, id: u64) -> String {
        let features = self.problem.feature_names();
        let logged = logged(&self.dir, &self.config, &features, "left out")
            .ok()
            .and_then(|(rows, _)| {
                rows.into_iter()
                    .find(|r| r["trial"].as_u64() == Some(trial) && r["index"].as_u64() == Some(id))
            });
        let recorded = match logged {
            Some(r) if features.is_empty() => Some(format!("fitness {}", r["fitness"])),
            Some(r) => Some(format!(
                "fitness {} with features {}",
                r["fitness"], r["features"]
            )),
            None => read_failures(&self.dir.join(FAILURES_FILE), &self.config)
                .ok()
                .and_then(|(f, _)| {
                    f.get(&(trial, id))
                        .map(|f| format!("failed ({:?})", f.reason))
                }),
        };
        match recorded {
            Some(what) => format!(
                "trial {trial} id {id} is not waiting for a result: it was told already (recorded as {what}), and a recorded result is never replaced; nothing was recorded"
            ),
            None => format!(
                "trial {trial} id {id} is not waiting for a result (not asked yet); nothing was recorded"
            ),
        }
    }

    /// Judges a finished run's trials as the command line's `--verdict N` does: `N`
    /// evaluations a side (by default what the run was started with, else the
    /// command line's default), 0 for none. Evaluations the verdict played before
    /// (`verdict.jsonl`) are taken from there, not played again. `tick(k)` is called
    /// with the evaluations done since its last call. Ctrl-C stops the verdict, the
    /// run's result kept without it.
    fn judge(
        &self,
        py: Python<'_>,
        result: &mut RunResult,
        verdict: Option<u32>,
        tick: Option<Bound<'_, PyAny>>,
        begun: playtune::run::verdict::Begun,
        evaluated_now: bool,
    ) -> PyResult<()> {
        // `verdict.jsonl` keeps what the verdict played, so a finished run's verdict
        // comes back as it was and a stopped one goes on.
        if !begun.due(evaluated_now, verdict.is_some()) {
            return Ok(());
        }
        let playtune::run::verdict::Plan {
            evaluations: n,
            baseline: kept,
            ..
        } = playtune::run::verdict::planned(&self.config, verdict);
        playtune::run::verdict::VerdictSettings::check_evaluations(n)
            .map_err(|m| err(format!("verdict {m}")))?;
        let done = AtomicU64::new(0);
        let (dir, config, problem) = (&self.dir, &self.config, self.problem.as_ref());
        let outcome = std::thread::scope(|s| {
            let judge = s.spawn(|| {
                let mut r = result.clone();
                let tick = || {
                    done.fetch_add(1, Ordering::SeqCst);
                };
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run::verdict::judge_run(dir, config, problem, &mut r, n, kept.as_deref(), &tick)
                        .map(|_| r)
                }))
            });
            let mut shown = 0u64;
            let mut raised: Option<PyErr> = None;
            // Held until the verdict's thread ends: its game processes stay killed.
            let mut halted: Option<playtune::eval::evaluator_groups::Halt> = None;
            while !judge.is_finished() {
                py.detach(|| std::thread::sleep(WAIT));
                if raised.is_none()
                    && let Some(e) = py.check_signals().err().or_else(crate::watch::take_raised)
                {
                    halted.get_or_insert_with(playtune::eval::evaluator_groups::halt);
                    raised = Some(e);
                }
                let now = done.load(Ordering::SeqCst);
                if let Some(t) = tick.as_ref().filter(|_| raised.is_none() && now > shown) {
                    if let Err(e) = t.call1((now - shown,)) {
                        raised = Some(e);
                    }
                    shown = now;
                }
            }
            (judge.join(), raised.or_else(crate::watch::take_raised))
        });
        match outcome {
            (_, Some(e)) => Err(e),
            (Ok(Ok(Ok(r))), None) => {
                *result = r;
                Ok(())
            }
            (Ok(Ok(Err(e))), None) => Err(err(format!("{}: verdict: {e}", self.dir.display()))),
            (Ok(Err(p)), None) | (Err(p), None) => Err(panicked(p.as_ref())),
        }
    }

    /// What `drive` does with the folder held mutably: `verdict` kept in
    /// `config.ron` for a fresh run, and the function to evaluate with (`Continue`),
    /// or the result of a manual run driven with none (`Break`).
    fn prepare_drive<'py>(
        &mut self,
        py: Python<'py>,
        func: Option<Bound<'py, PyAny>>,
        verdict: Option<u32>,
    ) -> PyResult<std::ops::ControlFlow<Py<PyAny>, Option<Bound<'py, PyAny>>>> {
        self.check_open()?;
        crate::problems::refuse_in_play()?;
        let manual = self.manual();
        // A fresh run driven with `verdict=N` keeps it in config.ron, as the command
        // line's `--verdict N` does: resume judges as the run was started.
        if let Some(n) = verdict
            && !manual
            && self
                .config
                .verdict
                .as_ref()
                .is_none_or(|v| v.evaluations != n)
            && !self.dir.join(playtune::run::files::LOG_FILE).exists()
        {
            playtune::run::verdict::VerdictSettings::check_evaluations(n)
                .map_err(|m| err(format!("verdict {m}")))?;
            let margin = self.config.verdict.as_ref().and_then(|v| v.margin);
            self.config.verdict = Some(playtune::run::verdict::VerdictSettings {
                evaluations: n,
                baseline: None,
                margin,
            });
            guard(|| run::create_run_dir(&self.dir, &self.config).map_err(|e| e.to_string()))?;
        }
        self.waiting.clear();
        let func = match func {
            Some(f) if manual => Some(f),
            _ if manual => {
                // Finished already (every result told): its result; else nothing to
                // evaluate with.
                return match guard(|| self.replay())? {
                    Some(r) => Ok(std::ops::ControlFlow::Break(to_py(
                        py,
                        &guard(|| self.result_json(&r))?,
                    )?)),
                    None => Err(err(format!(
                        "{}: this run is evaluated outside playtune (problem manual): give run() a Python function, or ask() and tell()",
                        self.dir.display()
                    ))),
                };
            }
            _ => None,
        };
        Ok(std::ops::ControlFlow::Continue(func))
    }

    /// The rest of `drive`, with the folder shared.
    fn drive_prepared(
        &self,
        py: Python<'_>,
        func: Option<Bound<'_, PyAny>>,
        progress: Option<Bound<'_, PyAny>>,
        verdict: Option<u32>,
        verdict_progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let manual = self.manual();
        let features = self.problem.feature_names();
        // Read before the search rewrites result.ron.
        let begun = playtune::run::verdict::Begun::of(&self.dir);
        let stop = run::Stop::default();
        let done = AtomicU64::new(0);
        let (requests, asked) = mpsc::channel::<Request>();
        let asked = Mutex::new(asked);
        let evaluator = Evaluator {
            problem: self.problem.as_ref(),
            python: func.as_ref().map(|_| requests),
            stop: &stop,
            retries: self.config.faults.retries,
            done: &done,
            failing: Mutex::new(HashMap::new()),
        };
        let (dir, config) = (&self.dir, &self.config);
        // The first Python error: raised once the run loop has stopped.
        let mut raised: Option<PyErr> = None;
        let mut shown = 0u64;
        let ended = std::thread::scope(|s| {
            // The evaluator (and the only sender of requests) moves to the run loop's
            // thread: its end closes the channel.
            let driver = s.spawn(move || {
                let evaluator = evaluator;
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run::execute_stoppable(
                        Some(dir),
                        config,
                        &evaluator,
                        run::Options::default(),
                        evaluator.stop,
                    )
                }))
            });
            // Evaluators of a built-in problem (commands, described games) killed at
            // once, their batch dropped, as the command line's Ctrl-C does; a Python
            // function's batch is finished (it answers "interrupted" at once).
            let mut halted: Option<playtune::eval::evaluator_groups::Halt> = None;
            let mut stop_with = |e: PyErr, raised: &mut Option<PyErr>| {
                if manual {
                    stop.now();
                } else if func.is_none() {
                    stop.now();
                    halted.get_or_insert_with(playtune::eval::evaluator_groups::halt);
                } else {
                    stop.after_batch();
                }
                raised.get_or_insert(e);
            };
            let mut last = false;
            while !last {
                let got = py.detach(|| match asked.lock() {
                    Ok(a) => a.recv_timeout(POLL),
                    Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
                });
                match got {
                    Ok(request) => {
                        let answer = match &func {
                            Some(f) if !stop.requested() => {
                                match call_python(py, f, &request, &features) {
                                    Ok(r) => r,
                                    Err(e) => {
                                        stop_with(e, &mut raised);
                                        Err("interrupted".into())
                                    }
                                }
                            }
                            _ => Err("interrupted".into()),
                        };
                        let _ = request.reply.send(answer);
                    }
                    // Nothing asks Python (a built-in problem), or nothing more: the bar
                    // is brought to the last evaluation below, then the loop ends.
                    Err(mpsc::RecvTimeoutError::Disconnected) if driver.is_finished() => {
                        last = true
                    }
                    Err(e) => {
                        if e == mpsc::RecvTimeoutError::Disconnected {
                            py.detach(|| std::thread::sleep(WAIT));
                        }
                        // Ctrl-C while Python runs nothing (a function it calls gets
                        // KeyboardInterrupt itself), or a KeyboardInterrupt or
                        // SystemExit a game's play raised.
                        if let Some(e) = py.check_signals().err().or_else(crate::watch::take_raised)
                        {
                            stop_with(e, &mut raised);
                        }
                    }
                }
                let now = done.load(Ordering::SeqCst);
                if let Some(p) = progress
                    .as_ref()
                    .filter(|_| raised.is_none() && now > shown)
                {
                    if let Err(e) = p.call1((now - shown,)) {
                        stop_with(e, &mut raised);
                    }
                    shown = now;
                }
            }
            driver.join()
        });
        if let Some(e) = raised.or_else(crate::watch::take_raised) {
            return Err(e);
        }
        match ended {
            Ok(Ok(Ok(mut r))) => {
                if !manual {
                    let evaluated_now = r.spent.reused < r.spent.total();
                    self.judge(py, &mut r, verdict, verdict_progress, begun, evaluated_now)?;
                }
                to_py(py, &guard(|| self.result_json(&r))?)
            }
            Ok(Ok(Err(run::RunError::Interrupted))) => Err(
                pyo3::exceptions::PyKeyboardInterrupt::new_err("the run was stopped"),
            ),
            Ok(Ok(Err(e))) => Err(err(e)),
            Ok(Err(p)) | Err(p) => Err(panicked(p.as_ref())),
        }
    }

    fn result_json(&self, r: &RunResult) -> Result<Value, String> {
        let mut v = serde_json::to_value(r).map_err(|e| e.to_string())?;
        v["run_dir"] = json!(self.dir.display().to_string());
        Ok(v)
    }

    fn check_open(&self) -> PyResult<()> {
        if self.lock.is_none() {
            return Err(err(format!("run {} is closed", self.dir.display())));
        }
        Ok(())
    }
}

#[pymethods]
impl PyRunFolder {
    /// Opens (and locks) the run folder `dir`.
    #[new]
    fn new(dir: PathBuf) -> PyResult<PyRunFolder> {
        guard(|| {
            if !dir.is_dir() {
                playtune::registry::read_config(&dir).map_err(|e| e.to_string())?;
            }
            let lock = run::lock::lock(&dir).map_err(|e| e.to_string())?;
            let config = playtune::registry::read_config(&dir).map_err(|e| e.to_string())?;
            // The game the run began with, where it found it, as `resume` plays it.
            let problem = playtune::registry::run_problem(&config, None)
                .map_err(|e| format!("{}: problem: {e}", dir.join(run::CONFIG_FILE).display()))?;
            Ok(PyRunFolder {
                dir,
                config,
                problem,
                lock: Some(lock),
                waiting: Vec::new(),
            })
        })
    }

    #[getter]
    fn path(&self) -> String {
        self.dir.display().to_string()
    }

    #[getter]
    fn space(&self) -> PySpace {
        PySpace {
            inner: self.config.space.clone(),
        }
    }

    #[getter]
    fn features(&self) -> Vec<String> {
        self.problem.feature_names()
    }

    /// Tries of a failing evaluation before it counts as failed (`faults.retries` + 1).
    #[getter]
    fn attempts(&self) -> u32 {
        self.config.faults.retries + 1
    }

    #[getter]
    fn manual(&self) -> bool {
        run::is_manual(&self.config)
    }

    /// The run's `config.ron`, as JSON.
    fn config(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &serde_json::to_value(&self.config).map_err(err)?)
    }

    /// Reads run folder `dir` without opening it, as `playtune report` reads one: no
    /// lock taken and nothing written, so a folder a command is writing, or a
    /// read-only copy, will do. `{"config", "space", "features", "rows", "failures",
    /// "warnings"}`: the rows of `evals.csv` as `read_log` gives them, the failures of
    /// `failures.jsonl` (those a logged row does not supersede) in (trial, index)
    /// order, and a warning for each file naming the damaged lines left out; `then`
    /// says what becomes of those ("not exported").
    #[staticmethod]
    #[pyo3(signature = (dir, then = "left out"))]
    fn read(py: Python<'_>, dir: PathBuf, then: &str) -> PyResult<Py<PyAny>> {
        let (config, out) = guard(|| {
            let config = playtune::registry::read_config(&dir).map_err(|e| e.to_string())?;
            let features = run_features(&dir, &config)?;
            let (rows, mut warnings) = match logged(&dir, &config, &features, then)? {
                (rows, Some(w)) => (rows, vec![w]),
                (rows, None) => (rows, Vec::new()),
            };
            let path = dir.join(FAILURES_FILE);
            let (failures, damaged) = read_failures(&path, &config)?;
            warnings.extend(damage_warning(&path, &damaged, then));
            let logged: std::collections::HashSet<(u64, u64)> = rows
                .iter()
                .map(|r| (r["trial"].as_u64(), r["index"].as_u64()))
                .filter_map(|k| Some((k.0?, k.1?)))
                .collect();
            let failures = failures
                .into_values()
                .filter(|f| !logged.contains(&(f.trial, f.index)))
                .map(|f| {
                    json!({
                        "trial": f.trial, "index": f.index, "phase": f.phase.as_str(),
                        "seed": f.seed, "point": point_json(&config.space, &f.values),
                        "values": f.values, "reason": f.reason, "attempts": f.attempts,
                    })
                })
                .collect::<Vec<_>>();
            let out = json!({
                "config": serde_json::to_value(&config).map_err(|e| e.to_string())?,
                "features": features,
                "rows": rows,
                "failures": failures,
                "warnings": warnings,
            });
            Ok((config, out))
        })?;
        let out = to_py(py, &out)?;
        out.bind(py).set_item(
            "space",
            PySpace {
                inner: config.space,
            },
        )?;
        Ok(out)
    }

    /// Replays the run from its logs: `("finished", result)` or `("waiting",
    /// candidates)`, each candidate `{"id", "trial", "seed", "phase", "point",
    /// "values"}`.
    fn step(&mut self, py: Python<'_>) -> PyResult<(String, Py<PyAny>)> {
        self.check_open()?;
        match guard(|| self.replay())? {
            Some(r) => Ok((
                "finished".into(),
                to_py(py, &guard(|| self.result_json(&r))?)?,
            )),
            None => Ok(("waiting".into(), to_py(py, &self.waiting_json())?)),
        }
    }

    /// Records results of candidates waited for: a list of `(trial, id, result)` or
    /// `(trial, id, result, attempts)`, a result as `Optimizer.tell` takes it, or a
    /// string: the reason it failed.
    fn tell(&mut self, results: &Bound<'_, PyList>) -> PyResult<()> {
        self.check_open()?;
        // What the run waits for now, from its logs: a result told twice, or told for
        // a candidate another process recorded meanwhile, is refused.
        guard(|| self.replay().map(|_| ()))?;
        let features = self.problem.feature_names();
        let mut told = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for item in results.iter() {
            // (trial, id, result) or (trial, id, result, attempts): the tries a failure
            // took, as failures.jsonl records them.
            let (trial, id, result, attempts): (u64, u64, Bound<'_, PyAny>, u32) =
                match item.extract::<(u64, u64, Bound<'_, PyAny>)>() {
                    Ok((t, i, r)) => (t, i, r, 1),
                    Err(_) => item.extract()?,
                };
            if !seen.insert((trial, id)) {
                return Err(err(format!(
                    "trial {trial} id {id} is told twice; nothing was recorded"
                )));
            }
            let r = if let Ok(reason) = result.extract::<String>() {
                Err(reason)
            } else if result.is_none() {
                Err("failed (None)".to_string())
            } else {
                let v = from_py(&result)?;
                Ok(evaluation_of(&v, &features)
                    .map_err(|m| err(format!("trial {trial} id {id}: {m}")))?)
            };
            told.push((trial, id, r, attempts.max(1)));
        }
        guard(|| self.record(told))
    }

    /// Evaluates the candidates waited for with the run's own (built-in) problem, in
    /// parallel, the GIL released, and records them as the run loop does (retries
    /// included). Returns how many were evaluated; 0 when the run is finished.
    fn evaluate_waiting(&mut self, py: Python<'_>) -> PyResult<usize> {
        self.check_open()?;
        if self.manual() {
            return Err(err(format!(
                "{}: this run is evaluated outside playtune (problem manual): give `run` a Python function, or tell its results",
                self.dir.display()
            )));
        }
        if guard(|| self.replay())?.is_some() {
            return Ok(0);
        }
        let binding =
            Binding::new(&self.config.space, self.problem.space()).map_err(|e| err(e.message))?;
        let retries = self.config.faults.retries;
        let problem = self.problem.as_ref();
        let waiting = &self.waiting;
        let outcomes = py.detach(|| {
            guard(|| {
                Ok(waiting
                    .par_iter()
                    .map(|w| {
                        let mut full = Vec::new();
                        binding.full_point(&w.values, &mut full);
                        let (r, attempts) =
                            run::evaluate_with_retries(problem, &full, w.seed, retries);
                        (w.trial, w.index, r, attempts)
                    })
                    .collect::<Vec<_>>())
            })
        })?;
        let n = outcomes.len();
        guard(|| self.record(outcomes))?;
        Ok(n)
    }

    /// Drives the run to its end in one pass, as `playtune optimize` (resume) does, and
    /// returns its result: the run's built-in problem evaluates, in parallel, or for
    /// problem `manual` `func(point, seed)` on this thread, the run loop on another,
    /// the GIL released while it works. An `Exception` in `func` (or a string or None
    /// returned) is a failed evaluation, tried again as `faults.retries` says;
    /// KeyboardInterrupt (Ctrl-C) and any other `BaseException` stop the run, every
    /// batch recorded before kept (for a built-in problem at once: its external
    /// evaluators killed, the batch in flight dropped), and are raised again. `progress(k)` is called with the number
    /// of candidates evaluated since its last call.
    ///
    /// Python code runs while the run is driven (`func`, the progress callbacks, a
    /// game's `play`), and may read the run (`config()`, `default_verdict()`): the
    /// folder is held mutably only while the drive is prepared, then shared.
    #[pyo3(signature = (func = None, progress = None, verdict = None, verdict_progress = None))]
    fn drive<'py>(
        slf: &Bound<'py, Self>,
        func: Option<Bound<'py, PyAny>>,
        progress: Option<Bound<'py, PyAny>>,
        verdict: Option<u32>,
        verdict_progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let func = match slf
            .try_borrow_mut()
            .map_err(|_| driven_already())?
            .prepare_drive(py, func, verdict)?
        {
            std::ops::ControlFlow::Break(result) => return Ok(result),
            std::ops::ControlFlow::Continue(func) => func,
        };
        slf.try_borrow()
            .map_err(|_| driven_already())?
            .drive_prepared(py, func, progress, verdict, verdict_progress)
    }

    /// Drives the run to its end on Slurm, as `playtune optimize --executor slurm`
    /// does: each batch the search waits for is evaluated by a job array of at most
    /// `tasks` tasks, each running `program` (command words, e.g. a Python with the
    /// wheel and `-m playtune`) as `PROGRAM task DIR/slurm --submission K`;
    /// `slurm_args` are extra sbatch options; `poll` the longest time in seconds
    /// between two looks at the queue. The results land in the run's own files, row
    /// for row those of a local run. Its verdict is then played here, as `drive`
    /// judges. Ctrl-C stops the wait at the next look at the queue: the tasks go on,
    /// and the same call again collects them.
    #[pyo3(signature = (program, slurm_args = "", tasks = 16, poll = 10.0, progress = false, verdict = None, verdict_progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn drive_slurm<'py>(
        slf: &Bound<'py, Self>,
        program: Vec<String>,
        slurm_args: &str,
        tasks: usize,
        poll: f64,
        progress: bool,
        verdict: Option<u32>,
        verdict_progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        use playtune_exec::Executor;
        use std::sync::atomic::AtomicBool;
        let py = slf.py();
        if program.is_empty() {
            return Err(err("program: give the command a task runs, as words"));
        }
        if tasks == 0 {
            return Err(err("tasks=0: give at least one task a batch"));
        }
        if !(poll > 0.0 && poll.is_finite()) {
            return Err(err(format!(
                "poll={poll}: give a positive number of seconds"
            )));
        }
        if slf.try_borrow().map_err(|_| driven_already())?.manual() {
            return Err(err(
                "a manual run is evaluated by a Python function here: run it with run(func), not on Slurm",
            ));
        }
        let args = playtune_exec::slurm::sbatch::split_args(slurm_args)
            .map_err(|e| err(format!("slurm_args: {e}")))?;
        playtune_exec::slurm::sbatch::check_tools().map_err(err)?;
        let _prepared = slf
            .try_borrow_mut()
            .map_err(|_| driven_already())?
            .prepare_drive(py, None, verdict)?;
        let this = slf.try_borrow().map_err(|_| driven_already())?;
        let begun = playtune::run::verdict::Begun::of(&this.dir);
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let slurm = playtune_exec::Slurm::new(
            this.dir.clone(),
            playtune_exec::slurm::SlurmOptions {
                args,
                wait: true,
                poll: std::time::Duration::from_secs_f64(poll),
                program,
                progress,
                stop: Some(stop.clone()),
            },
            tasks,
            playtune_exec::SearchUnit::Batches(tasks),
        );
        let search = playtune_exec::Search {
            name: this.dir.display().to_string(),
            dir: this.dir.clone(),
            config: this.config.clone(),
            problem: this.problem.as_ref(),
        };
        let options = playtune_exec::SearchOptions {
            progress,
            retry_failed: false,
        };
        let (ended, raised) = std::thread::scope(|s| {
            let driver = s.spawn(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    slurm.search(std::slice::from_ref(&search), options)
                }))
            });
            let mut raised: Option<PyErr> = None;
            while !driver.is_finished() {
                py.detach(|| std::thread::sleep(WAIT));
                if raised.is_none()
                    && let Err(e) = py.check_signals()
                {
                    stop.store(true, std::sync::atomic::Ordering::SeqCst);
                    raised = Some(e);
                }
            }
            (driver.join(), raised)
        });
        let mut result = match ended {
            Ok(Ok(Ok(mut results))) if raised.is_none() => results
                .pop()
                .ok_or_else(|| err(format!("{}: the search gave no result", this.dir.display())))?,
            Ok(Ok(Err(e))) if raised.is_none() => return Err(err(e)),
            Ok(Err(p)) | Err(p) => return Err(panicked(p.as_ref())),
            _ => {
                return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(format!(
                    "stopped waiting for the cluster: the tasks submitted go on, and run(executor=\"slurm\") again on {} collects them",
                    this.dir.display()
                )));
            }
        };
        let evaluated_now = result.spent.reused < result.spent.total();
        this.judge(
            py,
            &mut result,
            verdict,
            verdict_progress,
            begun,
            evaluated_now,
        )?;
        to_py(py, &guard(|| this.result_json(&result))?)
    }

    /// The search's evaluations the folder's logs hold already: where a resumed run's
    /// progress bar starts.
    fn logged(&self) -> PyResult<u64> {
        guard(|| {
            run::logged_evaluations(&self.dir, &self.config, &self.problem.feature_names())
                .map_err(|e| e.to_string())
        })
    }

    /// The number of verdict evaluations a side at this run's budget when none is
    /// asked for (an eighth of the budget, 10 to 200), as the command line plays.
    fn default_verdict(&self) -> u32 {
        playtune::run::verdict::planned(&self.config, None).evaluations
    }

    /// Unlocks the folder; the object is unusable afterwards.
    fn close(&mut self) {
        self.lock = None;
    }
}

/// Reads a finished or unfinished run's `evals.csv`: its rows as
/// `(trial, index, phase, seed, point, fitness, features)`.
#[pyfunction]
pub(crate) fn read_log(py: Python<'_>, dir: PathBuf) -> PyResult<Py<PyAny>> {
    let out = guard(|| {
        let config = playtune::registry::read_config(&dir).map_err(|e| e.to_string())?;
        let features = run_features(&dir, &config)?;
        let (rows, _) = logged(&dir, &config, &features, "left out")?;
        Ok(Value::Array(rows))
    })?;
    to_py(py, &out)
}

/// The features a run's evaluations report, as its problem names them.
pub(crate) fn run_features(
    dir: &std::path::Path,
    config: &RunConfig,
) -> Result<Vec<String>, String> {
    // Reading a run never runs its game's code: the problem as the folder records it.
    let problem = playtune::registry::recorded_problem(dir, config)
        .map_err(|e| format!("{}: problem: {e}", dir.join(run::CONFIG_FILE).display()))?;
    Ok(problem.feature_names())
}

/// A run's `evals.csv` as every reader reads it (`run::log::read_log`: the header must
/// be the run's, a row used only if its check matches and it parses into a point of
/// the space with finite results, the later of two copies kept): the rows as dicts, in
/// (trial, index) order, and the warning naming the rows left out, if any were.
pub(crate) fn logged(
    dir: &std::path::Path,
    config: &RunConfig,
    features: &[String],
    then: &str,
) -> Result<(Vec<Value>, Option<String>), String> {
    let path = dir.join(run::files::LOG_FILE);
    if !path.exists() {
        return Ok((Vec::new(), None));
    }
    let log = run::log::read_log(&path, &config.space, features).map_err(|e| e.to_string())?;
    let mut rows: Vec<&LogRow> = log.rows.iter().map(|(_, r)| r).collect();
    rows.sort_by_key(|r| (r.trial, r.index));
    let rows = rows
        .into_iter()
        .map(|r| {
            let feats: serde_json::Map<String, Value> = features
                .iter()
                .cloned()
                .zip(r.eval.features.iter().map(|f| json!(f)))
                .collect();
            json!({
                "trial": r.trial, "index": r.index, "phase": r.phase.as_str(), "seed": r.seed,
                "point": point_json(&config.space, &r.values), "values": r.values,
                "fitness": r.eval.fitness, "features": feats,
            })
        })
        .collect();
    Ok((rows, damage_warning(&path, &log.dropped, then)))
}

/// The warning for the lines of `path` left out, as the command line words it (less
/// its `warning: `, which Python's warnings add); `then` says what became of them.
pub(crate) fn damage_warning(
    path: &std::path::Path,
    damaged: &[(usize, String)],
    then: &str,
) -> Option<String> {
    playtune::damage::message(path, damaged, then)
        .map(|m| m.strip_prefix("warning: ").map(str::to_string).unwrap_or(m))
}

/// A run's failures in (trial, index) order and the lines left out, read and checked
/// as the run loop reads them (`run::failures::read_run_failures`).
pub(crate) fn read_failures(
    path: &std::path::Path,
    config: &RunConfig,
) -> Result<FailuresRead, String> {
    let (rows, damaged) =
        run::failures::read_run_failures(path, Some(config)).map_err(|e| e.to_string())?;
    Ok((rows.into_iter().collect(), damaged))
}

pub(crate) type FailuresRead = (BTreeMap<(u64, u64), FailureRow>, Vec<(usize, String)>);

/// How often run folders were replayed from their logs in this process: tests check
/// that `Run.run` reads a folder once, not at every batch.
#[pyfunction]
pub(crate) fn _replay_count() -> u64 {
    REPLAYS.load(Ordering::SeqCst)
}

/// Why a run cannot be driven from inside its own drive (a `func` or progress
/// callback calling `run()` again).
fn driven_already() -> PyErr {
    err("this run is being driven already: run() cannot be called from inside its own run")
}
