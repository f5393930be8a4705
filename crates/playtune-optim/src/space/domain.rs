//! The value set of one dimension.

use super::DomainProblem;
use serde::{Deserialize, Serialize};

/// Integers beyond 2^53 have no exact `f64`, and problems get every value as an `f64`:
/// integer bounds stay within +-2^53 so that distinct values stay distinct numbers.
pub(crate) const MAX_EXACT_INT: i64 = 1 << 53;
/// Points hold value indices as `u32`: no dimension has more values.
pub const MAX_VALUES: u64 = u32::MAX as u64;
/// How close a number must be to a list value or float level to be read as it.
const TOLERANCE: f64 = 1e-9;

/// The least gap between two levels of a float domain, relative to its larger bound:
/// 4096 units in the last place (2^12 x 2^-52).
const FLOAT_LEVEL_GAP: f64 = 1.0 / (1u64 << 40) as f64;

/// The values one dimension can take. Every domain is a finite ordered list of values
/// for the discrete optimisers; floats are cut into `levels` evenly spaced values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Domain {
    /// min, min+step, ..., max.
    Int {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
        /// The gap between neighbouring values.
        step: i64,
    },
    /// An explicit ordered list of numbers.
    List(Vec<f64>),
    /// Named categories; the value handed to problems is the index.
    Categories(Vec<String>),
    /// false / true, handed to problems as 0 / 1.
    Bool,
    /// A real interval; `levels` evenly spaced values (ends included) for RMHC/NTBEA,
    /// continuous for MAP-Elites' Gaussian mutation.
    Float {
        /// The lower end.
        min: f64,
        /// The upper end.
        max: f64,
        /// The evenly spaced values the discrete optimisers take.
        levels: u32,
    },
}

impl Domain {
    /// Number of discrete values.
    pub fn len(&self) -> usize {
        match self {
            // Wide: an unchecked domain must not overflow here (`check` rejects it).
            // The common span fits i64 and skips the 128-bit division (NTBEA asks for
            // an arity at every mutation).
            Domain::Int { min, max, step } => match max.checked_sub(*min) {
                Some(span) => (span / (*step).max(1) + 1).max(0) as usize,
                None => {
                    ((*max as i128 - *min as i128) / (*step).max(1) as i128 + 1).max(0) as usize
                }
            },
            Domain::List(v) => v.len(),
            Domain::Categories(v) => v.len(),
            Domain::Bool => 2,
            Domain::Float { levels, .. } => *levels as usize,
        }
    }

    /// Whether it has no values (only an unchecked domain can).
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
        if !v.is_finite() {
            return None;
        }
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
                .position(|&x| (x - v).abs() <= TOLERANCE * x.abs().max(1.0)),
            Domain::Categories(_) | Domain::Bool => {
                let r = v.round();
                ((v - r).abs() < 1e-9 && r >= 0.0 && (r as usize) < self.len())
                    .then_some(r as usize)
            }
            // The levels near v by arithmetic, not a walk over up to 2^32 levels; the
            // nearest of them within the tolerance (levels closer than the tolerance
            // must not read as a neighbour).
            Domain::Float { .. } => self
                .levels_near(v)
                .map(|i| (i, (self.value(i) - v).abs()))
                .filter(|&(_, d)| d <= TOLERANCE * v.abs().max(1.0))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(i, _)| i),
        }
    }

    /// The indices a value may be nearest to: for a float domain the (at most four)
    /// levels around `v`, found by arithmetic rather than a walk over up to 2^32 levels;
    /// for the others every index.
    pub fn levels_near(&self, v: f64) -> std::ops::RangeInclusive<usize> {
        let Domain::Float { min, max, levels } = self else {
            return 0..=self.len().saturating_sub(1);
        };
        let last = levels.saturating_sub(1) as f64;
        if *levels <= 1 || max <= min || v.is_nan() {
            return 0..=0;
        }
        let t = ((v - min) / (max - min) * last).floor().clamp(0.0, last);
        (t - 1.0).max(0.0) as usize..=(t + 2.0).min(last) as usize
    }

    /// Whether the domain can be searched and logged without loss: bounds and values
    /// finite, integers exact as numbers, at most [`MAX_VALUES`] values, no two values
    /// that [`Domain::index_of`] could confuse, category names that survive a CSV row.
    /// The message names no dimension: callers add where the domain is.
    pub fn check(&self) -> Result<(), DomainProblem> {
        match self {
            Domain::Int { min, max, step } => {
                if *step < 1 {
                    return Err(DomainProblem::Step(*step));
                }
                if min > max {
                    return Err(DomainProblem::EmptyIntRange {
                        min: *min,
                        max: *max,
                    });
                }
                if min.unsigned_abs() > MAX_EXACT_INT as u64
                    || max.unsigned_abs() > MAX_EXACT_INT as u64
                {
                    return Err(DomainProblem::BeyondExact {
                        min: *min,
                        max: *max,
                    });
                }
                let width = *max as i128 - *min as i128;
                if width % *step as i128 != 0 {
                    return Err(DomainProblem::StepDoesNotDivide {
                        step: *step,
                        min: *min,
                        max: *max,
                        width,
                    });
                }
                let count = width / *step as i128 + 1;
                if count > MAX_VALUES as i128 {
                    return Err(DomainProblem::TooManyValues(count));
                }
            }
            Domain::List(values) => {
                if values.is_empty() {
                    return Err(DomainProblem::EmptyList);
                }
                if let Some(v) = values.iter().find(|v| !v.is_finite()) {
                    return Err(DomainProblem::NotFiniteValue(*v));
                }
                if values.len() as u64 > MAX_VALUES {
                    return Err(DomainProblem::LongList);
                }
                // Sorted, neighbours are the only candidates for confusion: n log n.
                let mut sorted = values.clone();
                sorted.sort_by(f64::total_cmp);
                for w in sorted.windows(2) {
                    if w[0] == w[1] {
                        return Err(DomainProblem::ValueTwice(w[0]));
                    }
                    let tol = TOLERANCE * w[0].abs().max(w[1].abs()).max(1.0);
                    if w[1] - w[0] <= tol {
                        return Err(DomainProblem::TooClose(w[0], w[1], TOLERANCE));
                    }
                }
            }
            Domain::Categories(names) => {
                if names.is_empty() {
                    return Err(DomainProblem::NoCategories);
                }
                if names.len() as u64 > MAX_VALUES {
                    return Err(DomainProblem::ManyCategories);
                }
                let mut seen = std::collections::HashSet::with_capacity(names.len());
                for n in names {
                    super::check_name("category", n)
                        .map_err(|e| DomainProblem::CategoryName(Box::new(e)))?;
                    if n.trim() != n {
                        return Err(DomainProblem::CategorySpaces(n.clone()));
                    }
                    if !seen.insert(n.as_str()) {
                        return Err(DomainProblem::CategoryTwice(n.clone()));
                    }
                }
            }
            Domain::Bool => {}
            Domain::Float { min, max, levels } => {
                if !min.is_finite() || !max.is_finite() {
                    return Err(DomainProblem::NotFiniteBounds);
                }
                if min > max {
                    return Err(DomainProblem::EmptyFloatRange {
                        min: *min,
                        max: *max,
                    });
                }
                // A level is min + (max - min) * i / (levels - 1): the product must
                // stay finite too.
                if !((max - min) * levels.saturating_sub(1).max(1) as f64).is_finite() {
                    return Err(DomainProblem::TooWide {
                        min: *min,
                        max: *max,
                    });
                }
                if *levels == 0 || (*levels == 1 && min < max) {
                    return Err(DomainProblem::Levels(*levels));
                }
                // Neighbouring levels must be far apart in floating point (4096 units
                // in the last place of the larger bound), or two of them compute to
                // the same number and a value no longer reads back as its own level.
                let step = (max - min) / levels.saturating_sub(1).max(1) as f64;
                if min < max && step <= min.abs().max(max.abs()) * FLOAT_LEVEL_GAP {
                    return Err(DomainProblem::LevelsTooFine {
                        min: *min,
                        max: *max,
                        levels: *levels,
                    });
                }
            }
        }
        Ok(())
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
    pub(crate) fn is_continuous(&self) -> bool {
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

    /// Whether `v` can be a point's value here: on the grid, or for a float domain
    /// anywhere within its bounds (MAP-Elites' Gaussian mutation leaves the levels), as
    /// a run's log reads values back.
    pub fn admits(&self, v: f64) -> bool {
        match self {
            Domain::Float { min, max, .. } => v >= *min && v <= *max,
            _ => self.index_of(v).is_some(),
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
            // By arithmetic, not a walk over up to 2^32 values.
            (
                Domain::Int { min, max, step },
                Domain::Int {
                    min: omin,
                    max: omax,
                    step: ostep,
                },
            ) => {
                let on_grid =
                    |v: i64| v >= *omin && v <= *omax && (v - omin) % (*ostep).max(1) == 0;
                on_grid(*min) && on_grid(*max) && (min == max || step % ostep == 0)
            }
            // Distinct values need distinct places: a larger domain cannot fit.
            _ if self.len() > other.len() => false,
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

    /// Levels finer than floating point can tell apart are refused; the finest a
    /// domain may have still reads every level back, at both ends and in the middle.
    #[test]
    fn float_levels_must_be_told_apart() {
        let max_levels = u32::MAX;
        let too_fine = Domain::Float {
            min: 4294967295.0,
            max: 4294967296.0,
            levels: max_levels,
        };
        assert!(matches!(
            too_fine.check(),
            Err(DomainProblem::LevelsTooFine { .. })
        ));
        let fine = Domain::Float {
            min: 0.0,
            max: 1.0,
            levels: max_levels,
        };
        assert!(fine.check().is_ok());
        let near_the_edge = Domain::Float {
            min: 1000.0,
            max: 1001.0,
            levels: 1 << 26,
        };
        assert!(near_the_edge.check().is_ok());
        for d in [&fine, &near_the_edge] {
            let n = d.len();
            for i in [0, 1, 2, n / 2 - 1, n / 2, n - 3, n - 2, n - 1] {
                assert_eq!(d.index_of(d.value(i)), Some(i), "{d:?} {i}");
            }
        }
        // One point in many levels stays allowed: every level is that point.
        let point = Domain::Float {
            min: 2.0,
            max: 2.0,
            levels: 7,
        };
        assert!(point.check().is_ok());
    }
}
