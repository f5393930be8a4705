//! A problem evaluated outside playtune: `playtune ask RUN` prints the candidates the
//! optimiser waits for, anyone evaluates them (a job system, a person with a
//! spreadsheet), and `playtune tell RUN` takes the results in any order. The run
//! folder holds all the state, so nothing runs between the two commands.

use super::{EvalError, Evaluation, Problem};
use crate::space::{Domain, Space};

pub(crate) struct ManualProblem {
    space: Space,
    features: Vec<String>,
}

impl ManualProblem {
    pub(super) fn new(space: Space, features: Vec<String>) -> ManualProblem {
        ManualProblem { space, features }
    }
}

impl Problem for ManualProblem {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        self.features.clone()
    }
    fn evaluate(&self, _x: &[f64], _seed: u64) -> Result<Evaluation, EvalError> {
        Err(EvalError(
            "problem `manual` is evaluated outside playtune: `playtune ask RUN` prints the candidates, `playtune tell RUN` takes their results".into(),
        ))
    }
}

/// A point by dimension name as evaluators read it: numbers as numbers, categories as
/// their names, booleans as JSON booleans.
pub fn point_json(space: &Space, x: &[f64]) -> serde_json::Map<String, serde_json::Value> {
    space
        .dims
        .iter()
        .zip(x)
        .map(|(d, &v)| {
            let value = match &d.domain {
                Domain::Categories(_) => serde_json::Value::String(d.domain.render(v)),
                Domain::Bool => serde_json::Value::Bool(v >= 0.5),
                _ => serde_json::json!(v),
            };
            (d.name.clone(), value)
        })
        .collect()
}

/// Problem `manual`: points evaluated outside playtune, by `playtune ask` and
/// `playtune tell`.
pub const MANUAL: super::def::ProblemDef = super::def::ProblemDef {
    name: "manual",
    about: "points evaluated outside playtune: `playtune ask RUN` prints candidates as JSON lines, `playtune tell RUN` takes results (needs a space file)",
    settings: &[(
        "features",
        "",
        "names of the features each result reports, a,b,c",
    )],
    build: |v, space| {
        let space = space.ok_or(
            "problem `manual` needs a space file: the points it asks for are yours to evaluate",
        )?;
        Ok(Box::new(ManualProblem::new(
            space.clone(),
            super::def::feature_list(v, "features")?,
        )))
    },
};
