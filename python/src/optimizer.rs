//! `Optimizer`: an optimiser in memory, driven by ask and tell; the algorithm
//! configurations Python names by the command line's settings.

use crate::*;

/// An optimiser's settings: `name` (random, rmhc, brmhc, ntbea, map-elites) and its
/// settings by the names `config.ron` gives them, over the command line's defaults.
pub(crate) fn algorithm(
    name: &str,
    settings: &Value,
    space: &Space,
    tie_break: Option<String>,
) -> Result<AlgoConfig, String> {
    let empty = serde_json::Map::new();
    let given = match settings {
        Value::Null => &empty,
        Value::Object(m) => m,
        _ => return Err("the optimiser's settings are a dict".into()),
    };
    use playtune::optim::def::{Context, MAP_ELITES, optimizer};
    let def = optimizer(name)
        .or_else(|| {
            (name == MAP_ELITES.name || MAP_ELITES.aliases.contains(&name)).then_some(MAP_ELITES)
        })
        .ok_or_else(|| {
            format!("unknown optimiser `{name}` (use random, rmhc, brmhc, ntbea or map-elites)")
        })?;
    // A declared optimiser takes its settings by their declared names, as text: a list
    // is its items joined by commas, as the command line's repeated flag gives them.
    fn text(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(","),
            other => other.to_string(),
        }
    }
    let pairs: Vec<(String, String)> = given.iter().map(|(k, v)| (k.clone(), text(v))).collect();
    let context = Context {
        space: Some(space),
        tie_break: tie_break.as_deref(),
    };
    def.configure_for(&pairs, &context)
        .map_err(|e| e.to_string())
}

/// `FEATURE=LOW:HIGH:BINS`, as `--axis` takes it.
pub(crate) fn parse_axis(text: &str) -> Result<Value, String> {
    let axis: playtune::eval::FeatureAxis = text.parse().map_err(|e| format!("{e}"))?;
    serde_json::to_value(axis).map_err(|e| e.to_string())
}

/// The optimiser's configuration as `config.ron` records it (RON), from a name and
/// settings: what `Optimizer` and `create_run` are given.
#[pyfunction]
#[pyo3(signature = (name, settings, space, tie_break = None))]
pub(crate) fn algorithm_ron(
    name: &str,
    settings: &Bound<'_, PyAny>,
    space: &PySpace,
    tie_break: Option<String>,
) -> PyResult<String> {
    let settings = from_py(settings)?;
    let config = guard(|| algorithm(name, &settings, &space.inner, tie_break))?;
    ron::ser::to_string_pretty(&config, ron::ser::PrettyConfig::default()).map_err(err)
}

pub(crate) fn parse_algorithm(text: &str) -> Result<AlgoConfig, String> {
    let config: AlgoConfig = ron::from_str(text).map_err(|e| format!("algorithm: {e}"))?;
    config.check().map_err(|e| e.to_string())?;
    Ok(config)
}

/// An evaluation from what Python hands back: a number, `(fitness, features)` or
/// `{"fitness": f, "features": {...}}` (features by name, or a list in order).
pub(crate) fn evaluation_of(v: &Value, features: &[String]) -> Result<Evaluation, String> {
    let number = |v: &Value, what: &str| -> Result<f64, String> {
        v.as_f64()
            .ok_or_else(|| format!("{what} {v} is not a number"))
    };
    let (fitness, feats) = match v {
        Value::Number(_) => (number(v, "the fitness")?, None),
        Value::Array(a) if a.len() == 2 => (number(&a[0], "the fitness")?, Some(&a[1])),
        Value::Object(o) => (
            number(
                o.get("fitness").ok_or("a result dict needs a `fitness`")?,
                "the fitness",
            )?,
            o.get("features"),
        ),
        Value::Null => return Err("the fitness is NaN or missing".into()),
        other => {
            return Err(format!(
                "{other} is no result: give a fitness, (fitness, features) or {{\"fitness\": ..., \"features\": {{...}}}}"
            ));
        }
    };
    let values = match feats {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| number(x, "a feature"))
            .collect::<Result<_, _>>()?,
        Some(Value::Object(o)) => {
            for k in o.keys() {
                if !features.contains(k) {
                    return Err(format!(
                        "feature `{k}` is not one of the problem's features ({})",
                        features.join(", ")
                    ));
                }
            }
            features
                .iter()
                .map(|f| {
                    o.get(f)
                        .ok_or_else(|| format!("feature `{f}` is missing"))
                        .and_then(|x| number(x, &format!("feature {f}")))
                })
                .collect::<Result<_, _>>()?
        }
        Some(other) => return Err(format!("features {other}: give a dict by name")),
    };
    if values.len() != features.len() {
        return Err(format!(
            "{} feature(s) given, the problem has {} ({})",
            values.len(),
            features.len(),
            features.join(", ")
        ));
    }
    run::finite(Evaluation {
        fitness,
        features: values,
    })
    .map_err(|e| e.to_string())
}

/// Problem `manual` over `space` reporting `features`.
pub(crate) fn manual_problem(
    space: &Space,
    features: &[String],
) -> Result<Box<dyn Problem>, String> {
    let mut settings = BTreeMap::new();
    if !features.is_empty() {
        settings.insert("features".to_string(), features.join(","));
    }
    let spec = ProblemSpec {
        name: "manual".into(),
        settings,
    };
    build_problem(&spec, Some(space)).map_err(|e| e.to_string())
}

/// An optimiser driven by ask and tell in memory (no run folder). Python threads may
/// share one (Optuna's `n_jobs`, a thread pool): frozen, its state behind a mutex, so
/// that their calls take turns, each whole. The mutex is waited for with the GIL
/// released and held over Rust code only, so a thread waiting for it never holds up
/// the one inside.
#[pyclass(frozen, name = "Optimizer", module = "playtune._playtune")]
pub(crate) struct PyOptimizer {
    space: Space,
    features: Vec<String>,
    config: AlgoConfig,
    state: Mutex<AskTell>,
}

/// What asking and telling change.
pub(crate) struct AskTell {
    optimizer: Box<dyn Optimizer>,
    /// The batch asked and not yet told, and the id of its first candidate.
    pending: Vec<Candidate>,
    first_id: u64,
    /// The id the next batch starts at: every id below it was asked.
    next_id: u64,
}

impl AskTell {
    /// Tells the batch waiting its results by id, all of them at once; refused, with
    /// what the ids are (told already, not asked yet), before the optimiser sees any.
    fn tell(&mut self, by_id: BTreeMap<u64, Option<Evaluation>>) -> Result<(), String> {
        let ids = self.first_id..self.first_id + self.pending.len() as u64;
        let waiting = if !self.pending.is_empty() {
            format!("the batch waiting is ids {}..{}", ids.start, ids.end)
        } else if self.next_id == 0 {
            "nothing was asked yet: ask() for a batch, then tell its results".to_string()
        } else {
            format!(
                "every id asked, 0..{}, was told already: ask() for the next batch",
                self.next_id
            )
        };
        if let Some(&id) = by_id.keys().find(|id| !ids.contains(id)) {
            let what = if id >= self.next_id {
                "it was not asked yet"
            } else {
                "it was told already (a result told is never replaced)"
            };
            return Err(format!(
                "id {id} is not waiting for a result: {what}; nothing was told ({waiting})"
            ));
        }
        if self.pending.is_empty() {
            return Err(format!("nothing waits for a result: {waiting}"));
        }
        if by_id.len() != self.pending.len() {
            return Err(format!(
                "{} result(s) told for a batch of {}: tell the whole batch at once (ids {}..{})",
                by_id.len(),
                self.pending.len(),
                ids.start,
                ids.end
            ));
        }
        let evals: Vec<Option<Evaluation>> = by_id.into_values().collect();
        let batch = std::mem::take(&mut self.pending);
        self.optimizer.tell(&batch, &evals);
        Ok(())
    }
}

#[pymethods]
impl PyOptimizer {
    #[new]
    #[pyo3(signature = (space, algorithm, budget, seed, features = Vec::new(), axes = Vec::new()))]
    fn new(
        space: &PySpace,
        algorithm: &str,
        budget: u64,
        seed: u64,
        features: Vec<String>,
        axes: Vec<String>,
    ) -> PyResult<PyOptimizer> {
        guard(|| {
            let config = parse_algorithm(algorithm)?;
            let axes = axes
                .iter()
                .map(|a| {
                    parse_axis(a).and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if let Err((what, m)) = run::check_size(budget, 1, "budget", "trials") {
                return Err(format!("{what} {m}"));
            }
            // The features as a run of problem `manual` names them: a name a run's
            // `features` setting refuses, or would not give back whole, is refused.
            let manual = manual_problem(&space.inner, &features)?;
            let kept = manual.feature_names();
            if kept != features {
                let bad = features
                    .iter()
                    .find(|f| !kept.contains(f))
                    .unwrap_or(&features[0]);
                return Err(format!(
                    "features: {bad:?} cannot name a feature: the logs separate names by commas, and trim the spaces around them"
                ));
            }
            let mut inner = config
                .build(&space.inner, budget, seed, &features, &axes)
                .map_err(|e| e.to_string())?;
            if !space.inner.constraints.is_empty() {
                // Held to the space's constraints as a run is: the features named by
                // the constraints, their ranges as a run of problem `manual` has them.
                let checks = Check::resolve(&space.inner.constraints, &features, |f| {
                    manual.feature_range(f)
                })
                .map_err(|e| format!("constraints: {e}"))?;
                inner = Box::new(Constrained::new(inner, checks, None));
            }
            Ok(PyOptimizer {
                space: space.inner.clone(),
                features,
                config,
                state: Mutex::new(AskTell {
                    optimizer: inner,
                    pending: Vec::new(),
                    first_id: 0,
                    next_id: 0,
                }),
            })
        })
    }

    /// The next batch: a list of `{"id", "point", "values", "phase"}`; empty when the
    /// budget is spent. Asking again before telling gives the same batch.
    fn ask(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let out = self.with_state(py, |s| {
            if s.pending.is_empty() {
                s.pending = s.optimizer.ask();
                s.first_id = s.next_id;
                s.next_id += s.pending.len() as u64;
            }
            Ok(s.pending
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    json!({
                        "id": s.first_id + j as u64,
                        "point": point_json(&self.space, &c.values),
                        "values": c.values,
                        "phase": c.phase.as_str(),
                    })
                })
                .collect())
        })?;
        to_py(py, &Value::Array(out))
    }

    /// Tells the results of the whole batch asked: `results` maps each id to a result
    /// (a fitness, `(fitness, features)`, a dict, or None for a failed evaluation).
    fn tell(&self, py: Python<'_>, results: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut by_id: BTreeMap<u64, Option<Evaluation>> = BTreeMap::new();
        for (k, v) in results.iter() {
            let id: u64 = k
                .extract()
                .map_err(|_| err(format!("id {k} is not a whole number")))?;
            let e = if v.is_none() {
                None
            } else {
                Some(
                    evaluation_of(&from_py(&v)?, &self.features)
                        .map_err(|m| err(format!("id {id}: {m}")))?,
                )
            };
            by_id.insert(id, e);
        }
        self.with_state(py, |s| s.tell(by_id))
    }

    /// The recommendation: `{"point", "values", "estimate", "se", "samples"}`.
    fn recommend(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let out = self.with_state(py, |s| {
            let r = s.optimizer.recommend();
            Ok(json!({
                "point": point_json(&self.space, &r.values),
                "values": r.values,
                "estimate": finite_or_null(r.estimate),
                "se": finite_or_null(r.se),
                "samples": r.samples,
            }))
        })?;
        to_py(py, &out)
    }

    /// MAP-Elites: the archive's elites (`cell`, `point`, `values`, `fitness`,
    /// `features`); None for the other optimisers.
    fn elites(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let out = self.with_state(py, |s| {
            let Some(a) = s.optimizer.archive() else {
                return Ok(Value::Null);
            };
            let v = serde_json::to_value(a).map_err(|e| e.to_string())?;
            let store = v
                .as_object()
                .and_then(|o| o.values().next())
                .and_then(|inner| find_elites(inner))
                .cloned()
                .unwrap_or(Value::Array(Vec::new()));
            let mut out = Vec::new();
            for e in store.as_array().into_iter().flatten() {
                let values: Vec<f64> =
                    serde_json::from_value(e["values"].clone()).unwrap_or_default();
                let mut o = e.clone();
                o["point"] = Value::Object(point_json(&self.space, &values));
                out.push(o);
            }
            Ok(Value::Array(out))
        })?;
        to_py(py, &out)
    }

    /// MAP-Elites: the metrics after each batch (coverage, QD score, ...).
    fn metrics(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let out = self.with_state(py, |s| {
            serde_json::to_value(s.optimizer.metrics_history()).map_err(|e| e.to_string())
        })?;
        to_py(py, &out)
    }

    /// The optimiser's configuration as `config.ron` records it.
    #[getter]
    fn algorithm(&self) -> PyResult<String> {
        ron::ser::to_string_pretty(&self.config, ron::ser::PrettyConfig::default()).map_err(err)
    }
}

impl PyOptimizer {
    /// Runs `f` on the state, the GIL released while it waits for its turn and works.
    fn with_state<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut AskTell) -> Result<T, String> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut state = self
                .state
                .lock()
                .map_err(|_| err("the optimiser broke in an earlier call"))?;
            guard(|| f(&mut state))
        })
    }
}

pub(crate) fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The `elites` list inside a serialised archive.
pub(crate) fn find_elites(v: &Value) -> Option<&Value> {
    match v {
        Value::Object(o) => {
            if let Some(e) = o.get("elites") {
                return Some(e);
            }
            o.values().find_map(find_elites)
        }
        _ => None,
    }
}
