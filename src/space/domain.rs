//! The value set of one dimension.

use serde::{Deserialize, Serialize};

/// The values one dimension can take. Every domain is a finite ordered list of values
/// for the discrete optimisers; floats are cut into `levels` evenly spaced values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Domain {
    /// min, min+step, ..., max.
    Int { min: i64, max: i64, step: i64 },
    /// An explicit ordered list of numbers.
    List(Vec<f64>),
    /// Named categories; the value handed to problems is the index.
    Categories(Vec<String>),
    /// false / true, handed to problems as 0 / 1.
    Bool,
    /// A real interval; `levels` evenly spaced values (ends included) for RMHC/NTBEA,
    /// continuous for MAP-Elites' Gaussian mutation.
    Float { min: f64, max: f64, levels: u32 },
}

impl Domain {
    /// Number of discrete values.
    pub fn len(&self) -> usize {
        match self {
            Domain::Int { min, max, step } => ((max - min) / step + 1) as usize,
            Domain::List(v) => v.len(),
            Domain::Categories(v) => v.len(),
            Domain::Bool => 2,
            Domain::Float { levels, .. } => *levels as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number for value index `i`.
    #[inline]
    pub fn value(&self, i: usize) -> f64 {
        match self {
            Domain::Int { min, step, .. } => (min + step * i as i64) as f64,
            Domain::List(v) => v[i],
            Domain::Categories(_) | Domain::Bool => i as f64,
            Domain::Float { min, max, levels } => {
                if *levels <= 1 {
                    *min
                } else {
                    min + (max - min) * i as f64 / (*levels - 1) as f64
                }
            }
        }
    }

    /// The index of a value that lies on the grid (floats: within 1e-9 of a level).
    pub fn index_of(&self, v: f64) -> Option<usize> {
        match self {
            Domain::Int { min, max, step } => {
                let r = v.round();
                if (v - r).abs() > 1e-9 || r < *min as f64 || r > *max as f64 {
                    return None;
                }
                let off = r as i64 - min;
                (off % step == 0).then_some((off / step) as usize)
            }
            Domain::List(list) => list
                .iter()
                .position(|&x| (x - v).abs() <= 1e-9 * x.abs().max(1.0)),
            Domain::Categories(_) | Domain::Bool => {
                let r = v.round();
                ((v - r).abs() < 1e-9 && r >= 0.0 && (r as usize) < self.len())
                    .then_some(r as usize)
            }
            Domain::Float { .. } => {
                (0..self.len()).find(|&i| (self.value(i) - v).abs() <= 1e-9 * v.abs().max(1.0))
            }
        }
    }

    /// Lowest and highest number of the domain.
    pub fn bounds(&self) -> (f64, f64) {
        match self {
            Domain::Float { min, max, .. } => (*min, *max),
            Domain::List(v) => v
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                    (a.min(x), b.max(x))
                }),
            _ => (self.value(0), self.value(self.len().saturating_sub(1))),
        }
    }

    /// Whether MAP-Elites may move this dimension continuously.
    pub fn is_continuous(&self) -> bool {
        matches!(self, Domain::Float { .. })
    }

    /// A value as a person reads it.
    pub fn render(&self, v: f64) -> String {
        match self {
            Domain::Categories(names) => names
                .get(v.round() as usize)
                .cloned()
                .unwrap_or_else(|| format!("{v}")),
            Domain::Bool => (v >= 0.5).to_string(),
            _ => format!("{v}"),
        }
    }

    /// The index of a value written as text (number, category name, true/false).
    pub fn parse_value(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        match self {
            Domain::Categories(names) => names.iter().position(|n| n == text),
            Domain::Bool => match text {
                "true" | "1" => Some(1),
                "false" | "0" => Some(0),
                _ => None,
            },
            _ => text.parse::<f64>().ok().and_then(|v| self.index_of(v)),
        }
    }

    /// Parses a value written as text into its number (floats need not be on a level).
    pub fn parse_number(&self, text: &str) -> Option<f64> {
        match self {
            Domain::Float { min, max, .. } => {
                let v: f64 = text.trim().parse().ok()?;
                (v >= *min && v <= *max).then_some(v)
            }
            _ => self.parse_value(text).map(|i| self.value(i)),
        }
    }

    /// A short description for messages and `spaces check`.
    pub fn describe(&self) -> String {
        match self {
            Domain::Int { min, max, step } => format!("integers {min}..={max} step {step}"),
            Domain::List(v) => format!("one of {v:?}"),
            Domain::Categories(v) => format!("one of {}", v.join(", ")),
            Domain::Bool => "true or false".into(),
            Domain::Float { min, max, levels } => {
                format!("floats {min}..={max} in {levels} levels")
            }
        }
    }

    /// Whether every value of `self` is a value `other` accepts.
    pub fn fits_within(&self, other: &Domain) -> bool {
        match (self, other) {
            (Domain::Categories(a), Domain::Categories(b)) => a.iter().all(|x| b.contains(x)),
            (Domain::Categories(_), _) | (_, Domain::Categories(_)) => false,
            (_, Domain::Float { min, max, .. }) => {
                let (lo, hi) = self.bounds();
                lo >= *min - 1e-9 && hi <= *max + 1e-9
            }
            (Domain::Float { .. }, _) => false,
            _ => (0..self.len()).all(|i| other.index_of(self.value(i)).is_some()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_indices_round_trip() {
        let domains = [
            Domain::Int {
                min: 1,
                max: 10,
                step: 3,
            },
            Domain::List(vec![25.0, 50.0, 200.0]),
            Domain::Categories(vec!["a".into(), "b".into()]),
            Domain::Bool,
            Domain::Float {
                min: -1.0,
                max: 1.0,
                levels: 5,
            },
        ];
        for d in &domains {
            for i in 0..d.len() {
                assert_eq!(d.index_of(d.value(i)), Some(i), "{d:?} {i}");
                assert_eq!(d.parse_value(&d.render(d.value(i))), Some(i), "{d:?} {i}");
            }
        }
        assert_eq!(domains[0].len(), 4);
        assert_eq!(domains[4].value(1), -0.5);
        assert_eq!(domains[0].index_of(2.0), None);
    }
}
