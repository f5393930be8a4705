//! How a run driven from Python evaluates its candidates: a built-in problem in
//! parallel on the run loop's thread, or a Python function on the Python thread, each
//! request handed across and its outcome sent back.

use crate::*;

/// A point the run loop's thread asks the Python thread to evaluate, and where the
/// outcome goes.
pub(crate) struct Request {
    pub(crate) point: serde_json::Map<String, Value>,
    pub(crate) seed: u64,
    pub(crate) reply: mpsc::SyncSender<Result<Evaluation, String>>,
}

/// The run's problem as the run loop sees it when Python drives a run folder: the
/// problem itself evaluates (a built-in one), or the Python function does (problem
/// `manual`), on the thread that called `drive`. Everything else is the problem's,
/// so the files are what the problem itself would give. Counts the candidates
/// evaluated for the progress bar.
pub(crate) struct Evaluator<'a> {
    pub(crate) problem: &'a dyn Problem,
    /// For problem `manual`: where points go to the Python function.
    pub(crate) python: Option<mpsc::Sender<Request>>,
    pub(crate) stop: &'a run::Stop,
    pub(crate) retries: u32,
    /// Candidates evaluated: a success, or a failure after its last try.
    pub(crate) done: &'a AtomicU64,
    /// Tries so far of the candidates failing now, by seed (one per candidate).
    pub(crate) failing: Mutex<HashMap<u64, u32>>,
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
    fn fitness_name(&self) -> &str {
        self.problem.fitness_name()
    }
    fn game_identity(&self) -> Option<playtune::eval::GameIdentity> {
        self.problem.game_identity()
    }
    // The baseline too: a race enters it, as the command line's does.
    fn baseline(&self) -> Option<playtune::eval::Baseline> {
        self.problem.baseline()
    }
    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, playtune::eval::EvalError> {
        self.problem.evaluate_baseline(seed)
    }
    fn pooled_terms(&self, evaluations: &[&Evaluation]) -> Option<Vec<f64>> {
        self.problem.pooled_terms(evaluations)
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
pub(crate) fn call_python(
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
