//! Constraints on what an evaluation reports: what makes a point acceptable
//! (`stalemate_rate <= 0.05`, `mean_length in 60..200`). They are written in a space
//! file or given on the command line, and every optimiser respects them (see
//! `optim::constrained`).

use super::{ConstraintProblem, Error};
use serde::{Deserialize, Serialize};

/// One constraint on a feature: `NAME <= V`, `NAME >= V` or `NAME in LOW..HIGH`
/// (both ends included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Constraint {
    /// The feature it bounds, as the problem names it.
    pub feature: String,
    /// The values it accepts.
    pub bound: Bound,
}

/// The values a constraint accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// `FEATURE <= V`.
    AtMost(f64),
    /// `FEATURE >= V`.
    AtLeast(f64),
    /// `FEATURE in LOW..HIGH`, both ends included.
    Between(f64, f64),
}

impl std::str::FromStr for Constraint {
    type Err = Error;

    fn from_str(text: &str) -> Result<Constraint, Error> {
        let refuse = |problem| Error::Constraint {
            text: text.to_string(),
            problem,
        };
        let number = |s: &str| -> Result<f64, Error> {
            let v: f64 = s
                .trim()
                .parse()
                .map_err(|_| refuse(ConstraintProblem::NotANumber(s.trim().to_string())))?;
            if !v.is_finite() {
                return Err(refuse(ConstraintProblem::NotFinite(v)));
            }
            Ok(v)
        };
        let (feature, bound) = if let Some((f, v)) = text.split_once("<=") {
            (f, Bound::AtMost(number(v)?))
        } else if let Some((f, v)) = text.split_once(">=") {
            (f, Bound::AtLeast(number(v)?))
        } else if let Some((f, range)) = text.split_once(" in ") {
            let (lo, hi) = range
                .split_once("..")
                .ok_or_else(|| refuse(ConstraintProblem::Form))?;
            // `0...1` is not `0..0.1`: two dots and no more between the bounds.
            if hi.starts_with('.') {
                return Err(refuse(ConstraintProblem::Form));
            }
            let (lo, hi) = (number(lo)?, number(hi)?);
            if lo > hi {
                return Err(refuse(ConstraintProblem::EmptyRange(lo, hi)));
            }
            (f, Bound::Between(lo, hi))
        } else {
            return Err(refuse(ConstraintProblem::Form));
        };
        let feature = feature.trim();
        if feature.is_empty()
            || !feature
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(refuse(ConstraintProblem::NotAFeatureName(
                feature.to_string(),
            )));
        }
        Ok(Constraint {
            feature: feature.to_string(),
            bound,
        })
    }
}

impl TryFrom<String> for Constraint {
    type Error = Error;
    fn try_from(s: String) -> Result<Constraint, Error> {
        s.parse()
    }
}

impl From<Constraint> for String {
    fn from(c: Constraint) -> String {
        c.to_string()
    }
}

/// The constraint as it is written, what `Constraint::from_str` reads back.
impl std::fmt::Display for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.bound {
            Bound::AtMost(v) => write!(f, "{} <= {v}", self.feature),
            Bound::AtLeast(v) => write!(f, "{} >= {v}", self.feature),
            Bound::Between(lo, hi) => write!(f, "{} in {lo}..{hi}", self.feature),
        }
    }
}

impl Constraint {
    /// How far `value` lies outside the accepted values, divided by `scale` (the width
    /// of the feature's known range, so that constraints on a rate and on a length
    /// weigh alike); when no range is known, by the magnitude of the bound crossed (at
    /// least 1). 0 when the value is accepted; 1 for a value that is not a number.
    pub fn violation(&self, value: f64, range: Option<(f64, f64)>) -> f64 {
        if value.is_nan() {
            return 1.0;
        }
        let (gap, crossed) = match self.bound {
            Bound::AtMost(b) => ((value - b).max(0.0), b),
            Bound::AtLeast(b) => ((b - value).max(0.0), b),
            Bound::Between(lo, _) if value < lo => (lo - value, lo),
            Bound::Between(_, hi) => ((value - hi).max(0.0), hi),
        };
        if gap == 0.0 {
            return 0.0;
        }
        let scale = match range {
            Some((lo, hi)) if hi > lo => hi - lo,
            _ => crossed.abs().max(1.0),
        };
        (gap / scale).min(f64::MAX)
    }
}

/// Reads constraints separated by `;` (one `--constraint` may hold several).
pub fn parse_list(text: &str) -> Result<Vec<Constraint>, Error> {
    text.split(';')
        .filter(|s| !s.trim().is_empty())
        .map(str::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_every_form() {
        for text in [
            "stalemate_rate <= 0.05",
            "x >= -2",
            "mean_length in 60..200",
        ] {
            let c: Constraint = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
            assert_eq!(c.to_string().parse::<Constraint>().unwrap(), c);
        }
        for bad in [
            "x < 3",
            "<= 3",
            "x <= y",
            "x in 3..1",
            "x in 0...1",
            "x in 3",
            "x <= inf",
            "a b <= 1",
        ] {
            assert!(bad.parse::<Constraint>().is_err(), "{bad}");
        }
    }

    #[test]
    fn violation_is_the_scaled_distance_outside() {
        let c: Constraint = "r <= 0.05".parse().unwrap();
        assert_eq!(c.violation(0.05, Some((0.0, 1.0))), 0.0);
        assert!((c.violation(0.15, Some((0.0, 1.0))) - 0.1).abs() < 1e-12);
        let c: Constraint = "len in 60..200".parse().unwrap();
        assert_eq!(c.violation(100.0, None), 0.0);
        assert!((c.violation(30.0, None) - 0.5).abs() < 1e-12);
        assert!((c.violation(300.0, None) - 0.5).abs() < 1e-12);
        assert_eq!(c.violation(f64::NAN, None), 1.0);
    }
}
