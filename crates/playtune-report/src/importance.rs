//! Each parameter's importance from the logged evaluations: NTBEA's 1-tuple
//! statistics (per dimension and value, the mean fitness of the evaluations with that
//! value, its standard error and count), and the spread of those means.

use playtune::optim::Phase;
use playtune::run::log::LogRow;
use playtune::space::{Domain, Space};
use playtune_optim::stats::Summary;
use std::collections::BTreeMap;

/// One value of a dimension and the fitness of the evaluations that had it.
#[derive(Clone, Debug)]
pub struct ValueStats {
    /// The value as a person reads it (a range `low–high` of a numeric dimension
    /// with many values).
    pub label: String,
    pub(crate) fitness: Summary,
}

/// A dimension's 1-tuple statistics.
#[derive(Clone, Debug)]
pub struct DimStats {
    /// The dimension's name.
    pub name: String,
    /// The values seen, in the domain's order.
    pub(crate) values: Vec<ValueStats>,
    /// Highest minus lowest mean over the values seen (0 with one value).
    pub spread: f64,
}

impl DimStats {
    /// The values with the highest and the lowest mean.
    pub fn best_and_worst(&self) -> Option<(&ValueStats, &ValueStats)> {
        let best = self
            .values
            .iter()
            .max_by(|a, b| a.fitness.mean.total_cmp(&b.fitness.mean))?;
        let worst = self
            .values
            .iter()
            .min_by(|a, b| a.fitness.mean.total_cmp(&b.fitness.mean))?;
        Some((best, worst))
    }
}

/// The index of value `v` in `domain`; a float off its levels (MAP-Elites' Gaussian
/// mutation) counts at its nearest level.
fn level_of(domain: &Domain, v: f64) -> Option<usize> {
    match domain {
        Domain::Float { min, max, levels } if v.is_finite() => {
            if *levels <= 1 || max <= min {
                return Some(0);
            }
            let top = (*levels - 1) as f64;
            Some(((v - min) / (max - min) * top).round().clamp(0.0, top) as usize)
        }
        _ => domain.index_of(v),
    }
}

/// A numeric dimension with more values than this is read in [`RANGES`] ranges of
/// values, so that each holds enough evaluations to mean something.
pub(crate) const MAX_VALUES: usize = 12;
pub(crate) const RANGES: usize = 10;

/// How a dimension's values are grouped: (groups, the group of value index `i`).
fn groups(domain: &Domain) -> usize {
    let numeric = !matches!(domain, Domain::Categories(_) | Domain::Bool);
    if numeric && domain.len() > MAX_VALUES {
        RANGES
    } else {
        domain.len()
    }
}

fn group_of(domain: &Domain, index: usize) -> usize {
    index * groups(domain) / domain.len()
}

fn label_of(domain: &Domain, group: usize) -> String {
    let (n, g) = (domain.len(), groups(domain));
    if g == n {
        return match domain {
            Domain::Categories(_) | Domain::Bool => domain.render(domain.value(group)),
            _ => crate::plot::short_number(domain.value(group)),
        };
    }
    // The indices i with i * g / n == group.
    let first = (group * n).div_ceil(g);
    let last = ((group + 1) * n).div_ceil(g) - 1;
    let short = |i: usize| crate::plot::short_number(domain.value(i));
    if first == last {
        short(first)
    } else {
        format!("{}–{}", short(first), short(last))
    }
}

/// Whether an evaluation is one of the search's own (not a re-evaluation of a
/// recommendation or an elite, which would weigh a few points many times).
pub(crate) fn is_search(phase: Phase) -> bool {
    matches!(phase, Phase::Search | Phase::Preprocess)
}

/// The 1-tuple statistics of every searched dimension (fixed ones left out) over the
/// search's evaluations with a finite fitness, pooled over trials; ordered by spread,
/// the widest first.
pub fn one_tuple_stats(space: &Space, rows: &[LogRow]) -> Vec<DimStats> {
    let mut dims = Vec::new();
    for (d, dim) in space.dims.iter().enumerate() {
        if dim.fixed || dim.domain.len() < 2 {
            continue;
        }
        let mut by_value: BTreeMap<usize, Summary> = BTreeMap::new();
        for r in rows {
            if !is_search(r.phase) || !r.eval.fitness.is_finite() {
                continue;
            }
            if let Some(i) = r.values.get(d).and_then(|&v| level_of(&dim.domain, v)) {
                by_value
                    .entry(group_of(&dim.domain, i))
                    .or_default()
                    .add(r.eval.fitness);
            }
        }
        if by_value.is_empty() {
            continue;
        }
        let values: Vec<ValueStats> = by_value
            .into_iter()
            .map(|(i, fitness)| ValueStats {
                label: label_of(&dim.domain, i),
                fitness,
            })
            .collect();
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |a, v| {
                (a.0.min(v.fitness.mean), a.1.max(v.fitness.mean))
            });
        dims.push(DimStats {
            name: dim.name.clone(),
            values,
            spread: hi - lo,
        });
    }
    dims.sort_by(|a, b| b.spread.total_cmp(&a.spread));
    dims
}

#[cfg(test)]
mod tests {
    use super::*;
    use playtune::eval::Evaluation;
    use playtune::space::Dimension;

    fn row(values: Vec<f64>, fitness: f64, phase: Phase) -> LogRow {
        LogRow {
            trial: 0,
            index: 0,
            phase,
            seed: 0,
            values,
            eval: Evaluation::fitness(fitness),
        }
    }

    #[test]
    fn means_per_value_and_order_by_spread() {
        let space = Space {
            name: "s".into(),
            dims: vec![
                Dimension {
                    name: "flat".into(),
                    domain: Domain::Bool,
                    default: 0,
                    fixed: false,
                },
                Dimension {
                    name: "steep".into(),
                    domain: Domain::Int {
                        min: 0,
                        max: 4,
                        step: 2,
                    },
                    default: 0,
                    fixed: false,
                },
                Dimension {
                    name: "fixed".into(),
                    domain: Domain::Bool,
                    default: 0,
                    fixed: true,
                },
            ],
            groups: Vec::new(),
            constraints: Vec::new(),
        };
        let rows = vec![
            row(vec![0.0, 0.0, 0.0], 1.0, Phase::Search),
            row(vec![1.0, 0.0, 0.0], 3.0, Phase::Search),
            row(vec![0.0, 4.0, 0.0], 10.0, Phase::Search),
            row(vec![1.0, 4.0, 0.0], 12.0, Phase::Search),
            // Re-evaluations do not count.
            row(vec![1.0, 4.0, 0.0], 1000.0, Phase::Select),
        ];
        let stats = one_tuple_stats(&space, &rows);
        assert_eq!(stats.len(), 2);
        assert_eq!(stats[0].name, "steep");
        assert_eq!(stats[0].spread, 9.0);
        let labels: Vec<&str> = stats[0].values.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["0", "4"]);
        assert_eq!(stats[0].values[0].fitness.mean, 2.0);
        assert_eq!(stats[0].values[0].fitness.n, 2);
        assert_eq!(stats[0].values[0].fitness.se(), 1.0);
        assert_eq!(stats[1].name, "flat");
        assert_eq!(stats[1].spread, 2.0);
        assert_eq!(stats[1].values[1].label, "true");
        let (best, worst) = stats[0].best_and_worst().unwrap();
        assert_eq!((best.label.as_str(), worst.label.as_str()), ("4", "0"));
    }

    #[test]
    fn many_numeric_values_are_read_in_ranges() {
        let d = Domain::Int {
            min: 0,
            max: 24,
            step: 1,
        };
        let labels: Vec<String> = (0..RANGES).map(|g| label_of(&d, g)).collect();
        assert_eq!(labels[0], "0–2");
        assert_eq!(labels[9], "23–24");
        // Every value in exactly one range, in order.
        let mut seen = Vec::new();
        for i in 0..d.len() {
            let g = group_of(&d, i);
            assert!(seen.last().is_none_or(|&l| l <= g));
            seen.push(g);
            let label = label_of(&d, g);
            let (lo, hi) = label.split_once('–').unwrap_or((&label, &label));
            let v = i as f64;
            assert!(lo.parse::<f64>().unwrap() <= v && v <= hi.parse::<f64>().unwrap());
        }
        assert_eq!(seen.last(), Some(&(RANGES - 1)));
        let floats = Domain::Float {
            min: -1.0,
            max: 1.0,
            levels: 257,
        };
        assert_eq!(label_of(&floats, 0), "-1–-0.805");
        assert_eq!(groups(&Domain::Bool), 2);
    }
}
