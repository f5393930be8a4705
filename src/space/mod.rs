//! Parameter spaces: named dimensions with finite (or, for MAP-Elites, continuous)
//! domains, loaded from RON files under `spaces/`.
//!
//! A point is handed to problems as a vector of numbers, one per dimension, in the
//! space's order: the number itself for integer, list and float dimensions, the index
//! for categories, 0/1 for booleans. Discrete optimisers work on value *indices*
//! (tuples and mutation are defined on indices); [`Space::decode`] turns indices into
//! values.

mod domain;
mod file;
pub mod mutate;

pub use domain::Domain;
pub use file::{SpaceError, dim_error, load_space, parse_space, to_space_file};
pub use mutate::{mutate_one, neighbour, random_point};

use serde::{Deserialize, Serialize};

/// One named dimension of a space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dimension {
    pub name: String,
    pub domain: Domain,
    /// Index of the default value (used when the dimension is fixed or not searched).
    pub default: usize,
    /// When set, the dimension is not searched: it always takes its default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fixed: bool,
}

impl Dimension {
    /// Number of values the optimisers may choose from (1 when fixed).
    pub fn arity(&self) -> usize {
        if self.fixed { 1 } else { self.domain.len() }
    }
}

/// A named set of dimensions that B-RMHC treats as on/off layout cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub name: String,
    pub dims: Vec<String>,
}

/// A parameter space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Space {
    pub name: String,
    pub dims: Vec<Dimension>,
    #[serde(default)]
    pub groups: Vec<Group>,
}

impl Space {
    pub fn len(&self) -> usize {
        self.dims.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.dims.iter().map(|d| d.name.as_str())
    }

    pub fn position(&self, name: &str) -> Option<usize> {
        self.dims.iter().position(|d| d.name == name)
    }

    /// Indices of the dimensions that are searched (not fixed, more than one value).
    pub fn free_dims(&self) -> Vec<usize> {
        (0..self.dims.len())
            .filter(|&i| self.dims[i].arity() > 1)
            .collect()
    }

    /// Number of points in the discrete space, as a float (it overflows integers
    /// quickly: 30 game parameters already give ~10^14).
    pub fn size(&self) -> f64 {
        self.dims.iter().map(|d| d.arity() as f64).product()
    }

    /// The index vector of the default point.
    pub fn default_indices(&self) -> Vec<u32> {
        self.dims.iter().map(|d| d.default as u32).collect()
    }

    /// Values of a point given by indices.
    pub fn decode(&self, idx: &[u32]) -> Vec<f64> {
        self.dims
            .iter()
            .zip(idx)
            .map(|(d, &i)| d.domain.value(i as usize))
            .collect()
    }

    /// Writes the values of a point given by indices into `out` (no allocation).
    pub fn decode_into(&self, idx: &[u32], out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            self.dims
                .iter()
                .zip(idx)
                .map(|(d, &i)| d.domain.value(i as usize)),
        );
    }

    /// Indices of a point given by values, if every value lies on its domain's grid.
    pub fn encode(&self, values: &[f64]) -> Option<Vec<u32>> {
        self.dims
            .iter()
            .zip(values)
            .map(|(d, &v)| d.domain.index_of(v).map(|i| i as u32))
            .collect()
    }

    /// A point's values as text, by dimension: category names, true/false, numbers.
    pub fn render(&self, values: &[f64]) -> Vec<(String, String)> {
        self.dims
            .iter()
            .zip(values)
            .map(|(d, &v)| (d.name.clone(), d.domain.render(v)))
            .collect()
    }

    /// Fixes dimension `name` to `value` (as text: a number, a category name, true/false).
    pub fn fix(&mut self, name: &str, value: &str) -> Result<(), String> {
        let dim = self
            .dims
            .iter_mut()
            .find(|d| d.name == name)
            .ok_or_else(|| {
                format!("--fix {name}={value}: the space has no dimension named `{name}`")
            })?;
        let index = dim.domain.parse_value(value).ok_or_else(|| {
            format!(
                "--fix {name}={value}: `{value}` is not a value of {name} ({})",
                dim.domain.describe()
            )
        })?;
        dim.default = index;
        dim.fixed = true;
        Ok(())
    }

    /// Positions of the dimensions that belong to a layout group.
    pub fn group_members(&self) -> Vec<Vec<usize>> {
        self.groups
            .iter()
            .map(|g| g.dims.iter().filter_map(|n| self.position(n)).collect())
            .collect()
    }
}
