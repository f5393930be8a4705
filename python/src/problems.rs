//! The built-in problems, games and agents from Python: one evaluation, a problem's
//! space and features, an agent spec, the catalogue, a tournament.

use crate::*;

/// Evaluates a point (by name; missing dimensions take their defaults) of a built-in
/// problem with a seed: `{"fitness", "features"}`; `space` as `problem_info` takes
/// it. The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (problem, point, seed = 0, settings = BTreeMap::new(), space = None))]
pub(crate) fn evaluate(
    py: Python<'_>,
    problem: &str,
    point: &Bound<'_, PyAny>,
    seed: u64,
    settings: BTreeMap<String, String>,
    space: Option<PySpace>,
) -> PyResult<Py<PyAny>> {
    let given = from_py(point)?;
    let space = space.map(|s| s.inner);
    let problem = problem.to_string();
    let out = interruptible(
        py,
        || {},
        move || {
            guard(|| {
                let (_, built, space) = problem_and_space(&problem, settings, space.as_ref())?;
                let mut full = point_json(&space, &space.decode(&space.default_indices()));
                match &given {
                    Value::Object(o) => {
                        for (k, v) in o {
                            full.insert(k.clone(), v.clone());
                        }
                    }
                    Value::Null => {}
                    _ => return Err("a point is a dict by dimension name".into()),
                }
                let x = values_of(&space, &Value::Object(full))?;
                let e = built.evaluate(&x, seed).map_err(|e| e.0)?;
                let features: serde_json::Map<String, Value> = built
                    .feature_names()
                    .into_iter()
                    .zip(e.features.iter().map(|f| finite_or_null(*f)))
                    .collect();
                Ok(json!({"fitness": finite_or_null(e.fitness), "features": features}))
            })
        },
    )?;
    to_py(py, &out)
}

/// A problem's space, features, tie-break feature and default axes.
pub(crate) type ProblemInfo = (PySpace, Vec<String>, Option<String>, Py<PyAny>);
/// Names with what they are.
pub(crate) type Named = Vec<(String, String)>;

/// A built-in problem's space, features and default axes; `space`, the space searched
/// (a problem that takes its space from the user, `command` or `manual`, needs one).
#[pyfunction]
#[pyo3(signature = (problem, settings = BTreeMap::new(), space = None))]
pub(crate) fn problem_info(
    py: Python<'_>,
    problem: &str,
    settings: BTreeMap<String, String>,
    space: Option<PySpace>,
) -> PyResult<ProblemInfo> {
    let (_, built, space) =
        guard(|| problem_and_space(problem, settings, space.as_ref().map(|s| &s.inner)))?;
    let axes = serde_json::to_value(built.default_axes()).map_err(err)?;
    Ok((
        PySpace { inner: space },
        built.feature_names(),
        built.tie_break(),
        to_py(py, &axes)?,
    ))
}

/// A point of a built-in problem that tunes an agent as the agent spec `playtune play`
/// and `tournament` take (`mcts(depth=5,c=1.41,...)`); None for other problems.
#[pyfunction]
#[pyo3(signature = (problem, point, settings = BTreeMap::new()))]
pub(crate) fn agent_spec(
    problem: &str,
    point: &Bound<'_, PyAny>,
    settings: BTreeMap<String, String>,
) -> PyResult<Option<String>> {
    let given = from_py(point)?;
    guard(|| {
        let (_, built, space) = problem_and_space(problem, settings, None)?;
        let mut full = point_json(&space, &space.decode(&space.default_indices()));
        if let Value::Object(o) = &given {
            for (k, v) in o {
                full.insert(k.clone(), v.clone());
            }
        }
        let x = values_of(&space, &Value::Object(full))?;
        Ok(built.agent_spec(&x))
    })
}

/// The built-in problems and games: `(problems, games)` as lists of `(name, about)`.
#[pyfunction]
pub(crate) fn catalogue() -> (Named, Named) {
    let problems = playtune::registry::PROBLEMS
        .iter()
        .map(|p| (p.name.to_string(), p.about.to_string()))
        .collect();
    let games = playtune::registry::GAMES
        .iter()
        .map(|g| (g.name().to_string(), g.about().to_string()))
        .collect();
    (problems, games)
}

/// Runs `work` on a thread of its own, the GIL released, while this thread answers
/// Ctrl-C (and any signal Python handles). On one, `stop` asks the work to end, every
/// external evaluator running is killed (and none starts) while the work is awaited
/// for up to two seconds, and Python's exception (KeyboardInterrupt) is raised. Work
/// that cannot stop midway (a built-in evaluation, the games in flight) finishes on its
/// thread, its result dropped.
pub(crate) fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    stop: impl FnOnce(),
    work: impl FnOnce() -> PyResult<T> + Send + 'static,
) -> PyResult<T> {
    refuse_in_play()?;
    let (done, result) = mpsc::sync_channel(1);
    // A receiver is not Sync: it crosses into `detach` behind a lock.
    let result = Mutex::new(result);
    let wait = |d: std::time::Duration| {
        result
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .recv_timeout(d)
    };
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        let _ = done.send(r);
    });
    loop {
        match py.detach(|| wait(POLL)) {
            // A KeyboardInterrupt or SystemExit a game's play raised is raised again,
            // whatever the work made of the match it stopped.
            Ok(Ok(r)) => return crate::watch::take_raised().map_or(r, Err),
            Ok(Err(p)) => return Err(panicked(p.as_ref())),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(err("the work's thread ended without a result"));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        // Ctrl-C, or a KeyboardInterrupt or SystemExit a game's play raised.
        if let Some(e) = py.check_signals().err().or_else(crate::watch::take_raised) {
            stop();
            let _halt = playtune::eval::evaluator_groups::halt();
            let _ = py.detach(|| wait(std::time::Duration::from_secs(2)));
            return Err(e);
        }
    }
}

/// Refuses a call made from inside a game's `play`: it would wait on the match that
/// made it.
pub(crate) fn refuse_in_play() -> PyResult<()> {
    if crate::watch::in_play() {
        return Err(err(
            "a game's play called playtune, which would wait on that very match: play the match in play itself, without playtune",
        ));
    }
    Ok(())
}

/// Plays a tournament of `games` games between agent specs (`playtune tournament`):
/// the result with every agent's win rate and the games' design metrics.
#[pyfunction]
#[pyo3(signature = (game, agents, games = 10, seed = 0, settings = Vec::new(), budget = None))]
pub(crate) fn tournament(
    py: Python<'_>,
    game: &str,
    agents: Vec<String>,
    games: usize,
    seed: u64,
    settings: Vec<(String, String)>,
    budget: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let g = guard(|| playtune::find_game(game).map_err(|e| e.to_string()))?;
    if games == 0 {
        return Err(err("games 0: play at least one game"));
    }
    // The settings and the bots read once, here where they enter from Python.
    let req = GameRequest {
        settings: g.settings_values(&settings).map_err(err)?,
        agents: playtune::harness::AgentSpec::parse_all(&agents).map_err(err)?,
        budget,
        seed,
    };
    let watch = std::sync::Arc::new(playtune::harness::Watch::default());
    let watching = watch.clone();
    let out = interruptible(
        py,
        || watch.stop(),
        move || {
            guard(|| {
                let r = g
                    .tournament_watched(&req, games, &watching)
                    .map_err(|e| e.to_string())?;
                serde_json::to_value(&r).map_err(|e| e.to_string())
            })
        },
    )?;
    to_py(py, &out)
}
