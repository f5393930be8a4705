//! Binding a user's search space to a problem's parameters by name.
//!
//! A designer's space file may search any subset of a problem's parameters, with
//! narrower domains; the parameters it leaves out keep the problem's defaults.

use crate::space::{Domain, Space};

/// Maps points of a search space to full parameter vectors of a problem.
#[derive(Clone, Debug)]
pub struct Binding {
    defaults: Vec<f64>,
    targets: Vec<usize>,
    /// For a category dimension whose list differs from the problem's (a subset, or
    /// another order): the problem's index of each of the search's categories. A
    /// category's value is its index in its own list, so it must be translated.
    categories: Vec<Option<Vec<f64>>>,
}

/// Why a search space does not fit a problem: the dimension at fault and the reason
/// (the message names the dimension).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct BindingError {
    /// The search space's dimension at fault.
    pub dim: String,
    /// What is wrong, naming the dimension.
    pub message: String,
}

impl Binding {
    /// Checks that every dimension of `search` is a parameter of `problem` whose domain
    /// accepts all of its values.
    pub fn new(search: &Space, problem: &Space) -> Result<Binding, BindingError> {
        let mut targets = Vec::with_capacity(search.len());
        let mut categories = Vec::with_capacity(search.len());
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
            categories.push(match (&d.domain, target) {
                (Domain::Categories(mine), Domain::Categories(theirs)) if mine != theirs => Some(
                    mine.iter()
                        .map(|c| theirs.iter().position(|x| x == c).unwrap_or(0) as f64)
                        .collect(),
                ),
                _ => None,
            });
        }
        Ok(Binding {
            defaults: problem.decode(&problem.default_indices()),
            targets,
            categories,
        })
    }

    /// The full parameter vector for a search-space point.
    pub fn full_point(&self, x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend_from_slice(&self.defaults);
        for ((&t, &v), remap) in self.targets.iter().zip(x).zip(&self.categories) {
            out[t] = match remap {
                Some(to) => to[v as usize],
                None => v,
            };
        }
    }

    /// Whether the search space is the problem's own space, dimension for dimension.
    pub fn is_identity(&self) -> bool {
        self.targets.len() == self.defaults.len()
            && self.targets.iter().enumerate().all(|(i, &t)| i == t)
            && self.categories.iter().all(Option::is_none)
    }
}

/// The problem's own baseline as a point of the run's search space, when the search
/// space holds it: every baseline setting the search has, at a value of its domain,
/// and every other one at the value the binding gives it.
pub fn own_baseline_point(
    problem: &dyn super::Problem,
    search: &Space,
    binding: &Binding,
) -> Option<Vec<f64>> {
    let baseline = problem.baseline()?;
    let wanted = |name: &str| baseline.settings.iter().find(|(k, _)| k == name);
    let point: Vec<f64> = search
        .dims
        .iter()
        .map(|d| {
            let (_, text) = wanted(&d.name)?;
            d.domain.parse_number(text)
        })
        .collect::<Option<_>>()?;
    // A dimension the run holds fixed (`--fix`) at another value leaves the baseline
    // out of the search: it cannot race or be recommended there.
    search.check_fixed(&point).ok()?;
    let mut full = Vec::new();
    binding.full_point(&point, &mut full);
    let whole = problem.space();
    let same = baseline.settings.iter().all(|(name, text)| {
        whole
            .position(name)
            .is_some_and(|i| whole.dims[i].domain.parse_number(text) == Some(full[i]))
    });
    same.then_some(point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::parse_space;

    fn space(dims: &str) -> Space {
        parse_space(&format!("(name: \"s\", dims: [{dims}])"), "s.ron").unwrap()
    }

    /// A category's value is its index in its own list: a narrowed or reordered list
    /// must reach the problem as the problem's index of the same name.
    #[test]
    fn categories_bind_by_name_not_by_index() {
        let problem = space(
            "(name: \"missile\", kind: Categories([\"normal\", \"twin\", \"bomb\"])), (name: \"n\", kind: Int(min: 0, max: 9))",
        );
        let only_bomb = space("(name: \"missile\", kind: Categories([\"bomb\"]))");
        let b = Binding::new(&only_bomb, &problem).unwrap();
        let mut full = Vec::new();
        b.full_point(&[0.0], &mut full);
        assert_eq!(problem.render(&full)[0].1, "bomb");
        assert!(!b.is_identity());
        let reordered = space(
            "(name: \"n\", kind: Int(min: 0, max: 9)), (name: \"missile\", kind: Categories([\"twin\", \"normal\"]))",
        );
        let b = Binding::new(&reordered, &problem).unwrap();
        for (i, name) in ["twin", "normal"].iter().enumerate() {
            b.full_point(&[4.0, i as f64], &mut full);
            let shown = problem.render(&full);
            assert_eq!(shown[0].1, *name);
            assert_eq!(shown[1].1, "4");
        }
        let same = Binding::new(&problem, &problem).unwrap();
        assert!(same.is_identity());
    }
}
