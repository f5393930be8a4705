//! `playtune._playtune`: the Rust side of the Python package. The pure-Python
//! `playtune` package wraps these classes and functions; users import that one.
//!
//! Everything a run folder holds is written by the crate's own `playtune::run` code
//! (the same as `playtune optimize`, `ask` and `tell`), so a run started here
//! resumes, reports and plots from the command line and the other way round.
//! Every error reaches Python as `playtune.PlaytuneError` (a `ValueError`); a panic
//! is caught and raised as one too, never unwinding into the interpreter.

use playtune::eval::{Binding, Evaluation, point_json};
use playtune::optim::constrained::{Check, Constrained};
use playtune::optim::{AlgoConfig, Candidate, Optimizer};
use playtune::run::failures::FailureRow;
use playtune::run::log::LogRow;
use playtune::run::{self, Driven, FaultPolicy, ProblemSpec, RunConfig, RunResult, Waiting};
use playtune::space::{Domain, Space, parse_space, read_space_text};
use playtune::{GameRequest, Problem, build_problem};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::fmt::Display;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};

mod game;
mod ntbea;

create_exception!(
    playtune,
    PlaytuneError,
    PyValueError,
    "An error of playtune, with the message the command line gives."
);

pub(crate) fn err(e: impl Display) -> PyErr {
    PlaytuneError::new_err(e.to_string())
}

/// Runs `f`, turning a panic into a `PlaytuneError`.
/// A panic caught at the boundary, as the Python exception it becomes: no panic
/// crosses into Python.
fn panicked(payload: &(dyn std::any::Any + Send)) -> PyErr {
    let what = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown".into());
    err(format!("internal error (a bug in playtune): {what}"))
}

pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(err),
        Err(p) => Err(panicked(p.as_ref())),
    }
}

/// A JSON value as a Python object (through the `json` module: exact and short).
fn to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(v).map_err(err)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A Python object (dict, list, numbers, strings) as a JSON value.
fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let kwargs = pyo3::types::PyDict::new(obj.py());
    kwargs.set_item("allow_nan", false)?;
    let text: String = match obj
        .py()
        .import("json")?
        .call_method("dumps", (obj,), Some(&kwargs))
    {
        Ok(t) => t.extract()?,
        Err(e) if e.is_instance_of::<PyValueError>(obj.py()) => {
            return Err(err(format!(
                "{}: holds NaN or an infinity, not a finite number",
                obj.repr()?
            )));
        }
        Err(e) => return Err(err(format!("{}: not plain data ({e})", obj.repr()?))),
    };
    serde_json::from_str(&text).map_err(err)
}

/// A search space (the crate's `Space`): dimensions with their domains and defaults.
#[pyclass(frozen, name = "Space", module = "playtune._playtune")]
#[derive(Clone)]
pub(crate) struct PySpace {
    pub(crate) inner: Space,
}

fn dim_json(d: &playtune::Dimension) -> Value {
    let natural = |v: f64| match &d.domain {
        Domain::Categories(_) => json!(d.domain.render(v)),
        Domain::Bool => json!(v >= 0.5),
        Domain::Int { .. } => json!(v as i64),
        _ => json!(v),
    };
    let values: Vec<Value> = (0..d.domain.len())
        .map(|i| natural(d.domain.value(i)))
        .collect();
    let mut o = json!({
        "name": d.name,
        "values": values,
        "default": natural(d.domain.value(d.default)),
        "fixed": d.fixed,
    });
    match &d.domain {
        Domain::Int { min, max, step } => {
            o["kind"] = json!("int");
            o["min"] = json!(min);
            o["max"] = json!(max);
            o["step"] = json!(step);
        }
        Domain::List(_) => o["kind"] = json!("list"),
        Domain::Categories(_) => o["kind"] = json!("categories"),
        Domain::Bool => o["kind"] = json!("bool"),
        Domain::Float { min, max, levels } => {
            o["kind"] = json!("float");
            o["min"] = json!(min);
            o["max"] = json!(max);
            o["levels"] = json!(levels);
        }
    }
    o
}

/// A point by name (the JSON `playtune ask` prints) as values in the space's order.
fn values_of(space: &Space, point: &Value) -> Result<Vec<f64>, String> {
    let map = point
        .as_object()
        .ok_or("a point is a dict by dimension name")?;
    for k in map.keys() {
        if space.position(k).is_none() {
            return Err(format!(
                "the point names `{k}`, not a dimension of the space"
            ));
        }
    }
    space
        .dims
        .iter()
        .map(|d| {
            let v = map
                .get(&d.name)
                .ok_or_else(|| format!("the point lacks dimension `{}`", d.name))?;
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Bool(b) => b.to_string(),
                other => other.to_string(),
            };
            d.domain
                .parse_value(&text)
                .map(|i| d.domain.value(i))
                .or_else(|| {
                    // A float dimension takes any number within its bounds (MAP-Elites'
                    // Gaussian mutation moves it continuously).
                    let x = v.as_f64()?;
                    let (lo, hi) = d.domain.bounds();
                    (matches!(d.domain, Domain::Float { .. }) && (lo..=hi).contains(&x))
                        .then_some(x)
                })
                .ok_or_else(|| {
                    format!(
                        "dimension `{}`: {v} is not a value of {}",
                        d.name,
                        d.domain.describe()
                    )
                })
        })
        .collect()
}

/// Whether `values` (in the space's order) is a point of the space: one value per
/// dimension, each a value of its domain (a float dimension's any number within its
/// bounds, as MAP-Elites moves it). The error names the dimension.
fn check_values(space: &Space, values: &[f64]) -> Result<(), String> {
    if values.len() != space.dims.len() {
        return Err(format!(
            "{} values for a space of {} dimensions",
            values.len(),
            space.dims.len()
        ));
    }
    for (d, &v) in space.dims.iter().zip(values) {
        if !d.domain.admits(v) {
            return Err(format!(
                "dimension `{}`: {v} is not a value of {}",
                d.name,
                d.domain.describe()
            ));
        }
    }
    Ok(())
}

#[pymethods]
impl PySpace {
    /// A space from the text of a space file (RON); `file` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, file = "<string>"))]
    fn from_ron(text: &str, file: &str) -> PyResult<PySpace> {
        guard(|| parse_space(text, file).map_err(|e| e.to_string())).map(|inner| PySpace { inner })
    }

    /// A space from a space file.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<PySpace> {
        guard(|| {
            let text = read_space_text(&path).map_err(|e| e.to_string())?;
            parse_space(&text, &path.display().to_string()).map_err(|e| e.to_string())
        })
        .map(|inner| PySpace { inner })
    }

    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }

    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.names().map(str::to_string).collect()
    }

    /// Every dimension as a dict: name, kind, values, default, fixed and its bounds.
    fn dims(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let dims: Vec<Value> = self.inner.dims.iter().map(dim_json).collect();
        to_py(py, &Value::Array(dims))
    }

    /// Values in the space's order as a point by name (categories by name, booleans
    /// as bools); a point by name is checked and given back as the space writes it.
    /// A value outside its dimension, or a name that is none of the space's, is refused
    /// by name: a point is never made up of values the space cannot hold.
    fn point(&self, py: Python<'_>, values: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let values = if values.is_instance_of::<PyDict>() {
            values_of(&self.inner, &from_py(values)?).map_err(err)?
        } else {
            let values: Vec<f64> = values.extract()?;
            check_values(&self.inner, &values).map_err(err)?;
            values
        };
        to_py(py, &Value::Object(point_json(&self.inner, &values)))
    }

    /// A point by name as values in the space's order.
    fn values(&self, point: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        let v = from_py(point)?;
        values_of(&self.inner, &v).map_err(err)
    }

    /// The default point, by name.
    fn default(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let values = self.inner.decode(&self.inner.default_indices());
        to_py(py, &Value::Object(point_json(&self.inner, &values)))
    }

    fn __len__(&self) -> usize {
        self.inner.dims.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Space({:?}, {} dimensions, {:.3e} points)",
            self.inner.name,
            self.inner.dims.len(),
            self.inner.size()
        )
    }
}

/// An optimiser's settings: `name` (random, rmhc, brmhc, ntbea, map-elites) and its
/// settings by the names `config.ron` gives them, over the command line's defaults.
fn algorithm(
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
fn parse_axis(text: &str) -> Result<Value, String> {
    let axis: playtune::eval::FeatureAxis = text.parse().map_err(|e| format!("{e}"))?;
    serde_json::to_value(axis).map_err(|e| e.to_string())
}

/// The optimiser's configuration as `config.ron` records it (RON), from a name and
/// settings: what `Optimizer` and `create_run` are given.
#[pyfunction]
#[pyo3(signature = (name, settings, space, tie_break = None))]
fn algorithm_ron(
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
fn evaluation_of(v: &Value, features: &[String]) -> Result<Evaluation, String> {
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
fn manual_problem(space: &Space, features: &[String]) -> Result<Box<dyn Problem>, String> {
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
struct PyOptimizer {
    space: Space,
    features: Vec<String>,
    config: AlgoConfig,
    state: Mutex<AskTell>,
}

/// What asking and telling change.
struct AskTell {
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

fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The `elites` list inside a serialised archive.
fn find_elites(v: &Value) -> Option<&Value> {
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

/// The problem of a run and the space searched, checked against each other (as
/// `playtune optimize` checks them).
fn problem_and_space(
    problem: &str,
    settings: BTreeMap<String, String>,
    space: Option<&Space>,
) -> Result<(ProblemSpec, Box<dyn Problem>, Space), String> {
    let spec = ProblemSpec {
        name: problem.into(),
        settings,
    };
    let built = build_problem(&spec, space).map_err(|e| format!("problem {}: {e}", spec.name))?;
    let space = match space {
        Some(s) => {
            Binding::new(s, built.space())
                .map_err(|e| format!("space: {}: {}", e.dim, e.message))?;
            s.clone()
        }
        None => built.space().clone(),
    };
    Ok((spec, built, space))
}

/// Creates a run folder as `playtune optimize` (or `map-elites`) does and returns its
/// path: `config.ron` written, nothing evaluated.
#[pyfunction]
#[pyo3(signature = (runs_dir, name, problem, settings, space, algorithm, budget, trials, seed, retries = 2, max_failures = 0.2, log = true, space_file = None, race = None))]
#[allow(clippy::too_many_arguments)]
fn create_run(
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
) -> PyResult<String> {
    guard(|| {
        let (spec, built, space) =
            problem_and_space(problem, settings, space.as_ref().map(|s| &s.inner))?;
        let algorithm = parse_algorithm(algorithm)?;
        // None: the library's default race, as the command line's; 0: none.
        let race = match race {
            None => playtune::optim::race::by_default(built.baseline().is_some(), &algorithm),
            Some(0.0) => None,
            Some(share) => {
                let c = playtune::optim::race::RaceConfig {
                    share,
                    ..Default::default()
                };
                c.check().map_err(|e| e.to_string())?;
                Some(c)
            }
        };
        let config = RunConfig {
            playtune_version: playtune_version(),
            problem: spec,
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
            race,
        };
        config.faults.check().map_err(|e| e.to_string())?;
        run::check_size(budget, trials, "budget", "trials").map_err(|(w, m)| format!("{w} {m}"))?;
        config
            .algorithm
            .build(
                &config.space,
                budget,
                0,
                &built.feature_names(),
                &built.default_axes(),
            )
            .map_err(|e| e.to_string())?;
        let name = name.unwrap_or_else(|| {
            format!(
                "{}-{}-s{}",
                config.problem.name,
                config.algorithm.name(),
                config.seed
            )
        });
        run::check_run_name(&name).map_err(|e| e.to_string())?;
        let (dir, _lock) = run::claim_fresh_dir(&runs_dir, &name).map_err(|e| e.to_string())?;
        run::create_run_dir(&dir, &config).map_err(|e| e.to_string())?;
        Ok(dir.display().to_string())
    })
}

/// The version `config.ron` records: the crate's, as the command line writes it.
fn playtune_version() -> String {
    // The binding's version follows the crate's (both 0.1.0 now); the command line
    // writes its own package version, which is the crate's.
    env!("CARGO_PKG_VERSION").into()
}

/// An open run folder, locked while open (as a command holds it): replayed from its
/// logs, evaluated here or by Python, told results.
#[pyclass(name = "RunFolder", module = "playtune._playtune")]
struct PyRunFolder {
    dir: PathBuf,
    config: RunConfig,
    problem: Box<dyn Problem>,
    lock: Option<run::lock::FolderLock>,
    /// The candidates waited for at the last replay.
    waiting: Vec<Waiting>,
}

/// Replays of run folders from their logs in this process (see `_replay_count`).
static REPLAYS: AtomicU64 = AtomicU64::new(0);

/// How often the thread driving a run looks for Ctrl-C and updates the progress bar
/// while no evaluation is asked of Python.
const POLL: std::time::Duration = std::time::Duration::from_millis(50);
/// How often it looks whether the run loop has ended, when Python evaluates nothing.
const WAIT: std::time::Duration = std::time::Duration::from_millis(10);

/// A point the run loop's thread asks the Python thread to evaluate, and where the
/// outcome goes.
struct Request {
    point: serde_json::Map<String, Value>,
    seed: u64,
    reply: mpsc::SyncSender<Result<Evaluation, String>>,
}

/// The run's problem as the run loop sees it when Python drives a run folder: the
/// problem itself evaluates (a built-in one), or the Python function does (problem
/// `manual`), on the thread that called `drive`. Everything else is the problem's,
/// so the files are what the problem itself would give. Counts the candidates
/// evaluated for the progress bar.
struct Evaluator<'a> {
    problem: &'a dyn Problem,
    /// For problem `manual`: where points go to the Python function.
    python: Option<mpsc::Sender<Request>>,
    stop: &'a run::Stop,
    retries: u32,
    /// Candidates evaluated: a success, or a failure after its last try.
    done: &'a AtomicU64,
    /// Tries so far of the candidates failing now, by seed (one per candidate).
    failing: Mutex<HashMap<u64, u32>>,
}

impl Evaluator<'_> {
    fn count(&self, seed: u64, ok: bool) {
        let Ok(mut failing) = self.failing.lock() else {
            return;
        };
        let last = ok || {
            let tries = failing.entry(seed).or_insert(0);
            *tries += 1;
            *tries > self.retries
        };
        if last {
            failing.remove(&seed);
            self.done.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl Problem for Evaluator<'_> {
    fn space(&self) -> &Space {
        self.problem.space()
    }
    fn feature_names(&self) -> Vec<String> {
        self.problem.feature_names()
    }
    fn default_axes(&self) -> Vec<playtune::eval::FeatureAxis> {
        self.problem.default_axes()
    }
    fn fitness_range(&self) -> Option<(f64, f64)> {
        self.problem.fitness_range()
    }
    fn feature_range(&self, name: &str) -> Option<(f64, f64)> {
        self.problem.feature_range(name)
    }
    fn feature_unit(&self, name: &str) -> Option<String> {
        self.problem.feature_unit(name)
    }
    fn tie_break(&self) -> Option<String> {
        self.problem.tie_break()
    }
    fn concurrency(&self) -> Option<usize> {
        // One Python thread evaluates: a batch is handed to it in order.
        match self.python {
            Some(_) => Some(1),
            None => self.problem.concurrency(),
        }
    }
    fn agent_spec(&self, x: &[f64]) -> Option<String> {
        self.problem.agent_spec(x)
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        self.problem.true_fitness(x)
    }
    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        self.problem.is_optimal(x)
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, playtune::eval::EvalError> {
        let stopped = || playtune::eval::EvalError("interrupted".into());
        // A stopped run starts nothing more (a retry included).
        if self.stop.requested() {
            return Err(stopped());
        }
        let out = match &self.python {
            None => self.problem.evaluate(x, seed),
            Some(requests) => {
                let (reply, answer) = mpsc::sync_channel(1);
                let point = point_json(self.problem.space(), x);
                if requests.send(Request { point, seed, reply }).is_err() {
                    return Err(stopped());
                }
                match answer.recv() {
                    Ok(r) => r.map_err(playtune::eval::EvalError),
                    Err(_) => return Err(stopped()),
                }
            }
        };
        if !self.stop.requested() {
            let ok = out.as_ref().is_ok_and(|e| run::finite(e.clone()).is_ok());
            self.count(seed, ok);
        }
        out
    }
}

/// Calls the Python function on a point: `Ok(Ok(..))` an evaluation, `Ok(Err(reason))`
/// a failed one (an `Exception`, a string or None, as `tell` takes them), `Err` what
/// stops the run (KeyboardInterrupt, any other `BaseException`, a result that is none).
fn call_python(
    py: Python<'_>,
    func: &Bound<'_, PyAny>,
    request: &Request,
    features: &[String],
) -> PyResult<Result<Evaluation, String>> {
    let point = to_py(py, &Value::Object(request.point.clone()))?;
    let r = match func.call1((point, request.seed)) {
        Ok(r) => r,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyException>(py) => {
            let name = e
                .get_type(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "Exception".into());
            let text = e.value(py).str().map(|t| t.to_string()).unwrap_or_default();
            return Ok(Err(format!("{name}: {text}")));
        }
        Err(e) => return Err(e),
    };
    if let Ok(reason) = r.extract::<String>() {
        return Ok(Err(reason));
    }
    if r.is_none() {
        return Ok(Err("failed (None)".to_string()));
    }
    let v = from_py(&r)?;
    Ok(Ok(evaluation_of(&v, features).map_err(|m| {
        err(format!("the result for seed {}: {m}", request.seed))
    })?))
}

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
        let path = self.dir.join(run::log::LOG_FILE);
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
                run::read_config(&dir).map_err(|e| e.to_string())?;
            }
            let lock = run::lock::lock(&dir).map_err(|e| e.to_string())?;
            let config = run::read_config(&dir).map_err(|e| e.to_string())?;
            let problem = build_problem(&config.problem, Some(&config.space))
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
            let config = run::read_config(&dir).map_err(|e| e.to_string())?;
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
    #[pyo3(signature = (func = None, progress = None))]
    fn drive(
        &mut self,
        py: Python<'_>,
        func: Option<Bound<'_, PyAny>>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        self.check_open()?;
        let manual = self.manual();
        self.waiting.clear();
        let func = match func {
            Some(f) if manual => Some(f),
            _ if manual => {
                // Finished already (every result told): its result; else nothing to
                // evaluate with.
                return match guard(|| self.replay())? {
                    Some(r) => to_py(py, &guard(|| self.result_json(&r))?),
                    None => Err(err(format!(
                        "{}: this run is evaluated outside playtune (problem manual): give run() a Python function, or ask() and tell()",
                        self.dir.display()
                    ))),
                };
            }
            _ => None,
        };
        let features = self.problem.feature_names();
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
            loop {
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
                    // Nothing asks Python (a built-in problem), or nothing more.
                    Err(mpsc::RecvTimeoutError::Disconnected) if driver.is_finished() => break,
                    Err(e) => {
                        if e == mpsc::RecvTimeoutError::Disconnected {
                            py.detach(|| std::thread::sleep(WAIT));
                        }
                        // Ctrl-C while Python runs nothing (a function it calls gets
                        // KeyboardInterrupt itself).
                        if let Err(e) = py.check_signals() {
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
        if let Some(e) = raised {
            return Err(e);
        }
        match ended {
            Ok(Ok(Ok(r))) => to_py(py, &guard(|| self.result_json(&r))?),
            Ok(Ok(Err(run::RunError::Interrupted))) => Err(
                pyo3::exceptions::PyKeyboardInterrupt::new_err("the run was stopped"),
            ),
            Ok(Ok(Err(e))) => Err(err(e)),
            Ok(Err(p)) | Err(p) => Err(panicked(p.as_ref())),
        }
    }

    /// Unlocks the folder; the object is unusable afterwards.
    fn close(&mut self) {
        self.lock = None;
    }
}

/// Evaluates a point (by name; missing dimensions take their defaults) of a built-in
/// problem with a seed: `{"fitness", "features"}`; `space` as `problem_info` takes
/// it. The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (problem, point, seed = 0, settings = BTreeMap::new(), space = None))]
fn evaluate(
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
type ProblemInfo = (PySpace, Vec<String>, Option<String>, Py<PyAny>);
/// Names with what they are.
type Named = Vec<(String, String)>;

/// A built-in problem's space, features and default axes; `space`, the space searched
/// (a problem that takes its space from the user, `command` or `manual`, needs one).
#[pyfunction]
#[pyo3(signature = (problem, settings = BTreeMap::new(), space = None))]
fn problem_info(
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
fn agent_spec(
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
fn catalogue() -> (Named, Named) {
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
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    stop: impl FnOnce(),
    work: impl FnOnce() -> PyResult<T> + Send + 'static,
) -> PyResult<T> {
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
            Ok(Ok(r)) => return r,
            Ok(Err(p)) => return Err(panicked(p.as_ref())),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(err("the work's thread ended without a result"));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Err(e) = py.check_signals() {
            stop();
            let _halt = playtune::eval::evaluator_groups::halt();
            let _ = py.detach(|| wait(std::time::Duration::from_secs(2)));
            return Err(e);
        }
    }
}

/// Plays a tournament of `games` games between agent specs (`playtune tournament`):
/// the result with every agent's win rate and the games' design metrics.
#[pyfunction]
#[pyo3(signature = (game, agents, games = 10, seed = 0, settings = Vec::new(), budget = None))]
fn tournament(
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
    let req = GameRequest {
        settings,
        agents,
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

/// Reads a finished or unfinished run's `evals.csv`: its rows as
/// `(trial, index, phase, seed, point, fitness, features)`.
#[pyfunction]
fn read_log(py: Python<'_>, dir: PathBuf) -> PyResult<Py<PyAny>> {
    let out = guard(|| {
        let config = run::read_config(&dir).map_err(|e| e.to_string())?;
        let features = run_features(&dir, &config)?;
        let (rows, _) = logged(&dir, &config, &features, "left out")?;
        Ok(Value::Array(rows))
    })?;
    to_py(py, &out)
}

/// The features a run's evaluations report, as its problem names them.
fn run_features(dir: &std::path::Path, config: &RunConfig) -> Result<Vec<String>, String> {
    let problem = build_problem(&config.problem, Some(&config.space))
        .map_err(|e| format!("{}: problem: {e}", dir.join(run::CONFIG_FILE).display()))?;
    Ok(problem.feature_names())
}

/// A run's `evals.csv` as every reader reads it (`run::log::read_log`: the header must
/// be the run's, a row used only if its check matches and it parses into a point of
/// the space with finite results, the later of two copies kept): the rows as dicts, in
/// (trial, index) order, and the warning naming the rows left out, if any were.
fn logged(
    dir: &std::path::Path,
    config: &RunConfig,
    features: &[String],
    then: &str,
) -> Result<(Vec<Value>, Option<String>), String> {
    let path = dir.join(run::log::LOG_FILE);
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
fn damage_warning(
    path: &std::path::Path,
    damaged: &[(usize, String)],
    then: &str,
) -> Option<String> {
    playtune::damage::message(path, damaged, then)
        .map(|m| m.strip_prefix("warning: ").map(str::to_string).unwrap_or(m))
}

/// The failures' file of a run folder (`run::failures` keeps its name to the crate).
const FAILURES_FILE: &str = "failures.jsonl";

/// A run's failures in (trial, index) order and the lines left out, read and checked
/// as the run loop reads them (`run::failures::read_run_failures`).
fn read_failures(path: &std::path::Path, config: &RunConfig) -> Result<FailuresRead, String> {
    let (rows, damaged) =
        run::failures::read_run_failures(path, Some(config)).map_err(|e| e.to_string())?;
    Ok((rows.into_iter().collect(), damaged))
}

type FailuresRead = (BTreeMap<(u64, u64), FailureRow>, Vec<(usize, String)>);

/// How often run folders were replayed from their logs in this process: tests check
/// that `Run.run` reads a folder once, not at every batch.
#[pyfunction]
fn _replay_count() -> u64 {
    REPLAYS.load(Ordering::SeqCst)
}

#[pymodule]
fn _playtune(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PlaytuneError", m.py().get_type::<PlaytuneError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PySpace>()?;
    m.add_class::<PyOptimizer>()?;
    m.add_class::<PyRunFolder>()?;
    m.add_function(wrap_pyfunction!(algorithm_ron, m)?)?;
    m.add_function(wrap_pyfunction!(create_run, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(problem_info, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(agent_spec, m)?)?;
    m.add_function(wrap_pyfunction!(tournament, m)?)?;
    m.add_function(wrap_pyfunction!(game::register_game, m)?)?;
    m.add_class::<ntbea::PyNtbeaModel>()?;
    m.add_function(wrap_pyfunction!(read_log, m)?)?;
    m.add_function(wrap_pyfunction!(_replay_count, m)?)?;
    // SIGTERM and SIGHUP end the interpreter as before, but no longer leave the
    // evaluators (in process groups of their own) running.
    playtune::eval::evaluator_groups::kill_evaluators_on_termination();
    Ok(())
}
