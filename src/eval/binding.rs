//! Binding a user's search space to a problem's parameters by name.
//!
//! A designer's space file may search any subset of a problem's parameters, with
//! narrower domains; the parameters it leaves out keep the problem's defaults.

use crate::space::Space;

/// Maps points of a search space to full parameter vectors of a problem.
#[derive(Clone, Debug)]
pub struct Binding {
    defaults: Vec<f64>,
    targets: Vec<usize>,
}

/// Why a search space does not fit a problem: the dimension at fault and the reason.
#[derive(Debug, Clone)]
pub struct BindingError {
    pub dim: String,
    pub message: String,
}

impl Binding {
    /// Checks that every dimension of `search` is a parameter of `problem` whose domain
    /// accepts all of its values.
    pub fn new(search: &Space, problem: &Space) -> Result<Binding, BindingError> {
        let mut targets = Vec::with_capacity(search.len());
        // By name in bulk: a lookup per dimension by scanning would be quadratic.
        let mut by_name = std::collections::HashMap::with_capacity(problem.len());
        for (i, d) in problem.dims.iter().enumerate() {
            by_name.entry(d.name.as_str()).or_insert(i);
        }
        for d in &search.dims {
            let Some(&t) = by_name.get(d.name.as_str()) else {
                let known: Vec<&str> = problem.names().take(12).collect();
                let more = if problem.len() > 12 { ", ..." } else { "" };
                return Err(BindingError {
                    dim: d.name.clone(),
                    message: format!(
                        "unknown parameter `{}` for problem `{}` (its parameters: {}{more})",
                        d.name,
                        problem.name,
                        known.join(", ")
                    ),
                });
            };
            let target = &problem.dims[t].domain;
            if !d.domain.fits_within(target) {
                return Err(BindingError {
                    dim: d.name.clone(),
                    message: format!(
                        "`{}` takes {}, outside what problem `{}` accepts ({})",
                        d.name,
                        d.domain.describe(),
                        problem.name,
                        target.describe()
                    ),
                });
            }
            targets.push(t);
        }
        Ok(Binding {
            defaults: problem.decode(&problem.default_indices()),
            targets,
        })
    }

    /// The full parameter vector for a search-space point.
    pub fn full_point(&self, x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend_from_slice(&self.defaults);
        for (&t, &v) in self.targets.iter().zip(x) {
            out[t] = v;
        }
    }

    /// Whether the search space is the problem's own space, dimension for dimension.
    pub fn is_identity(&self) -> bool {
        self.targets.len() == self.defaults.len()
            && self.targets.iter().enumerate().all(|(i, &t)| i == t)
    }
}
