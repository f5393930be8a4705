//! NTBEA driven by observations: the model an Optuna sampler rebuilds from its
//! study's trials (any worker's, any process's, enqueued or fixed), and proposals drawn
//! from it with a key (the trial's number), so that the sampler holds no state of its
//! own that the study does not (`playtune.optuna.NtbeaSampler`).

use super::{PySpace, err, guard, parse_algorithm};
use playtune::optim::ntbea::Ntbea;
use playtune::optim::{AlgoConfig, Optimizer};
use pyo3::prelude::*;

/// A recommendation as Python receives it: `(values, estimate, se, samples)`.
type Recommendation = (Vec<f64>, f64, f64, u64);

#[pyclass(name = "NtbeaModel", module = "playtune._playtune")]
pub(crate) struct PyNtbeaModel {
    inner: std::sync::Mutex<Ntbea>,
}

#[pymethods]
impl PyNtbeaModel {
    /// NTBEA over `space` with the settings of `algorithm` (RON, as `config.ron`
    /// records it; one run), planning for `budget` evaluations, seeded by `seed`.
    #[new]
    fn new(space: &PySpace, algorithm: &str, budget: u64, seed: u64) -> PyResult<PyNtbeaModel> {
        guard(|| {
            let AlgoConfig::Ntbea(config) = parse_algorithm(algorithm)? else {
                return Err("NtbeaModel takes an NTBEA configuration".into());
            };
            if config.runs > 1 || config.batch > 1 {
                return Err("NtbeaModel is one run (runs 1, batch 1): parallel workers share it through observations".into());
            }
            let ntbea = Ntbea::new(config, space.inner.clone(), budget.max(1), seed)
                .map_err(|e| e.to_string())?;
            Ok(PyNtbeaModel {
                inner: std::sync::Mutex::new(ntbea),
            })
        })
    }

    /// Learns one evaluation of `values` (a point of the space); `fitness` None for a
    /// failed or pruned one (a visit at the worst fitness seen).
    #[pyo3(signature = (values, fitness = None))]
    fn observe(&self, values: Vec<f64>, fitness: Option<f64>) -> PyResult<()> {
        let mut n = self
            .inner
            .lock()
            .map_err(|_| err("the model was poisoned"))?;
        n.observe(&values, fitness).map_err(err)
    }

    /// The next point to evaluate, drawn with randomness from `key` alone.
    fn propose(&self, key: u64) -> PyResult<Vec<f64>> {
        let n = self
            .inner
            .lock()
            .map_err(|_| err("the model was poisoned"))?;
        Ok(n.propose(key))
    }

    /// Evaluations observed so far.
    fn observed(&self) -> PyResult<u64> {
        let n = self
            .inner
            .lock()
            .map_err(|_| err("the model was poisoned"))?;
        Ok(n.observed())
    }

    /// The model's recommendation: `(values, estimate, se, samples)`; `None` before
    /// any evaluation.
    fn recommend(&self) -> PyResult<Option<Recommendation>> {
        let n = self
            .inner
            .lock()
            .map_err(|_| err("the model was poisoned"))?;
        if n.observed() == 0 {
            return Ok(None);
        }
        let r = n.recommend();
        Ok(Some((r.values, r.estimate, r.se, r.samples)))
    }
}
