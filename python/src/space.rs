//! `Space`: a search space as Python sees it, by name and value.

use crate::*;

/// A search space (the crate's `Space`): dimensions with their domains and defaults.
#[pyclass(frozen, name = "Space", module = "playtune._playtune")]
#[derive(Clone)]
pub(crate) struct PySpace {
    pub(crate) inner: Space,
}

pub(crate) fn dim_json(d: &playtune::Dimension) -> Value {
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
pub(crate) fn values_of(space: &Space, point: &Value) -> Result<Vec<f64>, String> {
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
    let values = space
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
        .collect::<Result<Vec<f64>, String>>()?;
    // A fixed dimension keeps its value: moved, the point would be another game.
    space.check_fixed(&values).map_err(|e| e.to_string())?;
    Ok(values)
}

/// Whether `values` (in the space's order) is a point of the space: one value per
/// dimension, each a value of its domain (a float dimension's any number within its
/// bounds, as MAP-Elites moves it). The error names the dimension.
pub(crate) fn check_values(space: &Space, values: &[f64]) -> Result<(), String> {
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
    space.check_fixed(values).map_err(|e| e.to_string())
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
