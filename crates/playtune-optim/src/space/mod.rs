//! Parameter spaces: named dimensions with finite (or, for MAP-Elites, continuous)
//! domains, loaded from RON files under `spaces/`.
//!
//! A point is handed to problems as a vector of numbers, one per dimension, in the
//! space's order: the number itself for integer, list and float dimensions, the index
//! for categories, 0/1 for booleans. Discrete optimisers work on value *indices*
//! (tuples and mutation are defined on indices); [`Space::decode`] turns indices into
//! values.

pub mod constraint;
mod domain;
mod error;
mod file;
pub mod mutate;

pub use constraint::{Bound, Constraint};
pub(crate) use domain::MAX_EXACT_INT;
pub use domain::{Domain, MAX_VALUES};
pub use error::{ConstraintProblem, DomainProblem, Error, FixProblem};
pub use file::{
    DimText, SpaceError, constraint_error, dim_error, embedded_space, load_space, parse_space,
    read_space_text, ron_error, to_space_file,
};
pub(crate) use mutate::mutate_one;
pub use mutate::{neighbour, random_point};

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Checks a name that goes into logs and messages: not blank, and no control
/// characters (a newline would split a CSV row of the log).
pub(crate) fn check_name(what: &'static str, name: &str) -> Result<(), Error> {
    if name.trim().is_empty() {
        return Err(Error::EmptyName(what));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(Error::ControlCharacter {
            what,
            name: name.to_string(),
            character: c,
        });
    }
    Ok(())
}

/// One named dimension of a space. Deserialising (a run's `config.ron`) checks it as
/// a space file is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "DimensionData")]
pub struct Dimension {
    /// Its name, unique in its space.
    pub name: String,
    /// The values it takes.
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

/// A dimension as stored, before its checks.
#[derive(Deserialize)]
struct DimensionData {
    name: String,
    domain: Domain,
    default: usize,
    #[serde(default)]
    fixed: bool,
}

impl TryFrom<DimensionData> for Dimension {
    type Error = Error;
    fn try_from(d: DimensionData) -> Result<Dimension, Error> {
        check_name("dimension", &d.name)?;
        d.domain.check().map_err(|problem| Error::DimensionDomain {
            dim: d.name.clone(),
            problem,
        })?;
        if d.default >= d.domain.len() {
            return Err(Error::DefaultOutside {
                dim: d.name.clone(),
                index: d.default,
                len: d.domain.len(),
                values: d.domain.describe(),
            });
        }
        Ok(Dimension {
            name: d.name,
            domain: d.domain,
            default: d.default,
            fixed: d.fixed,
        })
    }
}

/// A named set of dimensions that B-RMHC treats as on/off layout cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// The group's name.
    pub name: String,
    /// Its dimensions' names.
    pub dims: Vec<String>,
}

/// A parameter space. Deserialising checks it as a space file is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SpaceData")]
pub struct Space {
    /// The space's name.
    pub name: String,
    /// Its dimensions, in the order points list their values.
    pub dims: Vec<Dimension>,
    /// B-RMHC's layout groups.
    #[serde(default)]
    pub groups: Vec<Group>,
    /// What an acceptable point's evaluation reports (`stalemate_rate <= 0.05`);
    /// every optimiser respects them (`optim::constrained`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<Constraint>,
}

/// A space as stored, its dimensions checked one by one but not yet together.
#[derive(Deserialize)]
struct SpaceData {
    name: String,
    dims: Vec<Dimension>,
    #[serde(default)]
    groups: Vec<Group>,
    #[serde(default)]
    constraints: Vec<Constraint>,
}

impl TryFrom<SpaceData> for Space {
    type Error = Error;
    fn try_from(s: SpaceData) -> Result<Space, Error> {
        let space = Space {
            name: s.name,
            dims: s.dims,
            groups: s.groups,
            constraints: s.constraints,
        };
        space.check_together()?;
        Ok(space)
    }
}

impl Space {
    /// Number of dimensions.
    pub fn len(&self) -> usize {
        self.dims.len()
    }

    /// Whether it has no dimensions (a checked space never has none).
    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }

    /// The dimensions' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.dims.iter().map(|d| d.name.as_str())
    }

    /// The position of the dimension called `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.dims.iter().position(|d| d.name == name)
    }

    /// The checks that look at more than one dimension: some dimensions, unique names,
    /// groups of known on/off dimensions. Linear in the size of the space.
    fn check_together(&self) -> Result<(), Error> {
        if self.dims.is_empty() {
            return Err(Error::NoDimensions);
        }
        if let Some(c) = self.name.chars().find(|c| c.is_control()) {
            return Err(Error::ControlCharacter {
                what: "space",
                name: self.name.clone(),
                character: c,
            });
        }
        let mut seen = HashSet::with_capacity(self.dims.len());
        for d in &self.dims {
            if !seen.insert(d.name.as_str()) {
                return Err(Error::DuplicateDimension(d.name.clone()));
            }
        }
        self.check_groups()
            .map_err(|(index, problem)| Error::Group {
                index,
                name: self.groups[index].name.clone(),
                problem,
            })
    }

    /// Checks the layout groups; an error names the group by its index.
    pub(crate) fn check_groups(&self) -> Result<(), (usize, String)> {
        let index = self.index_by_name();
        let mut seen = HashSet::with_capacity(self.groups.len());
        for (gi, g) in self.groups.iter().enumerate() {
            check_name("group", &g.name).map_err(|m| (gi, m.to_string()))?;
            if !seen.insert(g.name.as_str()) {
                return Err((gi, format!("duplicate group name `{}`", g.name)));
            }
            if g.dims.is_empty() {
                return Err((gi, "a group needs at least one dimension".into()));
            }
            for n in &g.dims {
                match index.get(n.as_str()) {
                    None => return Err((gi, format!("unknown dimension `{n}`"))),
                    Some(&i) if self.dims[i].domain.len() != 2 => {
                        return Err((
                            gi,
                            format!(
                                "`{n}` is not an on/off dimension (Bool or two values): layout groups hold on/off cells"
                            ),
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
        Ok(())
    }

    /// Dimension positions by name (first of duplicates), for lookups in bulk.
    fn index_by_name(&self) -> HashMap<&str, usize> {
        let mut index = HashMap::with_capacity(self.dims.len());
        for (i, d) in self.dims.iter().enumerate() {
            index.entry(d.name.as_str()).or_insert(i);
        }
        index
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
    pub fn fix(&mut self, name: &str, value: &str) -> Result<(), Error> {
        let refuse = |problem| Error::Fix {
            item: format!("{name}={value}"),
            problem,
        };
        let dim = self
            .dims
            .iter_mut()
            .find(|d| d.name == name)
            .ok_or_else(|| refuse(FixProblem::UnknownDimension(name.to_string())))?;
        let index = dim.domain.parse_value(value).ok_or_else(|| {
            refuse(FixProblem::NotAValue {
                name: name.to_string(),
                value: value.to_string(),
                domain: dim.domain.describe(),
            })
        })?;
        dim.default = index;
        dim.fixed = true;
        Ok(())
    }

    /// Fixes every dimension of `items` (`NAME=VALUE` each). A dimension fixed twice
    /// is refused, even to the same value: one of the two is a typing mistake, and the
    /// last silently winning would hide it.
    pub fn fix_all(&mut self, items: &[String]) -> Result<(), Error> {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for item in items {
            let refuse = |item: String, problem| Error::Fix { item, problem };
            let (k, v) = item
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| refuse(item.clone(), FixProblem::Syntax))?;
            if k.is_empty() {
                return Err(refuse(item.clone(), FixProblem::NoName));
            }
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == k) {
                return Err(refuse(
                    format!("{k}={v}"),
                    FixProblem::Twice {
                        name: k.to_string(),
                        first: first.to_string(),
                        second: v.to_string(),
                    },
                ));
            }
            seen.push((k, v));
            self.fix(k, v)?;
        }
        Ok(())
    }

    /// Checks that a point given from outside (a user's `--point`, a Python
    /// `evaluate`) keeps every fixed dimension at its value: optimisers never move
    /// one, and a point that did would be evaluated as another game than the run's.
    pub fn check_fixed(&self, values: &[f64]) -> Result<(), Error> {
        for (d, &v) in self.dims.iter().zip(values) {
            if d.fixed && d.domain.index_of(v) != Some(d.default) {
                return Err(Error::MovesFixed {
                    dim: d.name.clone(),
                    fixed: d.domain.render(d.domain.value(d.default)),
                    given: d.domain.render(v),
                });
            }
        }
        Ok(())
    }

    /// Positions of the dimensions that belong to a layout group.
    pub(crate) fn group_members(&self) -> Vec<Vec<usize>> {
        let index = self.index_by_name();
        self.groups
            .iter()
            .map(|g| {
                g.dims
                    .iter()
                    .filter_map(|n| index.get(n.as_str()).copied())
                    .collect()
            })
            .collect()
    }
}
