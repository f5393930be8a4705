//! Synthetic problems with known optima, for testing and comparing optimisers.

use super::{EvalError, Evaluation, FeatureAxis, Problem};
use crate::rng::rng_from_seed;
use crate::space::{Dimension, Domain, Space};
use rand_distr::{Distribution, StandardNormal};

/// `dims` integer dimensions `x0, x1, ...` of values 0..values-1.
pub fn int_space(name: &str, dims: usize, values: i64) -> Space {
    Space {
        name: name.into(),
        dims: (0..dims)
            .map(|i| Dimension {
                name: format!("x{i}"),
                domain: Domain::Int {
                    min: 0,
                    max: values - 1,
                    step: 1,
                },
                default: 0,
                fixed: false,
            })
            .collect(),
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

fn gaussian(seed: u64) -> f64 {
    StandardNormal.sample(&mut rng_from_seed(seed))
}

/// Noisy OneMax: the number of ones plus N(0, sigma^2) noise. Optimum: all ones.
/// `scale` multiplies the whole fitness (count and noise), to test how optimisers cope
/// with fitness of other magnitudes.
pub struct NoisyOneMax {
    space: Space,
    sigma: f64,
    scale: f64,
}

impl NoisyOneMax {
    /// Noisy OneMax over `dims` bits with noise of standard deviation `sigma`.
    pub fn new(dims: usize, sigma: f64) -> NoisyOneMax {
        NoisyOneMax::scaled(dims, sigma, 1.0)
    }
    /// [`NoisyOneMax::new`] with every fitness (count and noise) multiplied by `scale`.
    pub fn scaled(dims: usize, sigma: f64, scale: f64) -> NoisyOneMax {
        NoisyOneMax {
            space: int_space("noisy-onemax", dims, 2),
            sigma,
            scale,
        }
    }
}

impl Problem for NoisyOneMax {
    fn space(&self) -> &Space {
        &self.space
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let truth = self.true_fitness(x).unwrap_or(0.0);
        Ok(Evaluation::fitness(
            truth + self.scale * self.sigma * gaussian(seed),
        ))
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        Some(self.scale * x.iter().filter(|&&v| v == 1.0).count() as f64)
    }
    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        Some(x.iter().all(|&v| v == 1.0))
    }
}

/// Constrained OneMax: the number of ones plus N(0, sigma^2) noise, with the feature
/// `load`, the share of ones, held by its space's constraint `load <= cap`. The
/// feasible optimum is every point with exactly floor(cap x dims) ones; the
/// unconstrained optimum (all ones) is infeasible. A benchmark for constraint handling
/// with a known feasible optimum.
pub(crate) struct ConstrainedOneMax {
    space: Space,
    sigma: f64,
    ones: usize,
}

impl ConstrainedOneMax {
    pub(super) fn new(
        dims: usize,
        sigma: f64,
        cap: f64,
    ) -> Result<ConstrainedOneMax, ProblemError> {
        if !(0.0..1.0).contains(&cap) {
            return Err(ProblemError::Share {
                setting: "cap",
                value: cap,
                expected: "give a share of ones from 0 to below 1 (at 1 the constraint holds everywhere)",
            });
        }
        let mut space = int_space("constrained-onemax", dims, 2);
        space.constraints = vec![format!("load <= {cap}").parse()?];
        Ok(ConstrainedOneMax {
            space,
            sigma,
            ones: (cap * dims as f64 + 1e-9).floor() as usize,
        })
    }
}

impl Problem for ConstrainedOneMax {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        vec!["load".into()]
    }
    fn feature_range(&self, _name: &str) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let ones = x.iter().filter(|&&v| v == 1.0).count();
        Ok(Evaluation {
            fitness: ones as f64 + self.sigma * gaussian(seed),
            features: vec![ones as f64 / x.len() as f64],
        })
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        Some(x.iter().filter(|&&v| v == 1.0).count() as f64)
    }
    /// The feasible optimum.
    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        Some(x.iter().filter(|&&v| v == 1.0).count() == self.ones)
    }
}

/// Noisy trap (the reference NTBEA's EvalMaxM with the trap on): the sum of the values
/// 0..m-1, except that the all-maximum point is a trap worth 0. The optimum, worth
/// D*(m-1) - 1, is every point with one dimension at m-2 and the rest at m-1.
/// `scale` multiplies the whole fitness, as for [`NoisyOneMax`].
pub(crate) struct NoisyTrap {
    space: Space,
    values: usize,
    sigma: f64,
    scale: f64,
}

impl NoisyTrap {
    pub(crate) fn new(dims: usize, values: usize, sigma: f64) -> NoisyTrap {
        NoisyTrap::scaled(dims, values, sigma, 1.0)
    }
    pub(crate) fn scaled(dims: usize, values: usize, sigma: f64, scale: f64) -> NoisyTrap {
        NoisyTrap {
            space: int_space("noisy-trap", dims, values as i64),
            values,
            sigma,
            scale,
        }
    }
    fn top(&self) -> f64 {
        (self.values - 1) as f64
    }
}

impl Problem for NoisyTrap {
    fn space(&self) -> &Space {
        &self.space
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let truth = self.true_fitness(x).unwrap_or(0.0);
        Ok(Evaluation::fitness(
            truth + self.scale * self.sigma * gaussian(seed),
        ))
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        let top = self.top();
        Some(
            self.scale
                * if x.iter().all(|&v| v == top) {
                    0.0
                } else {
                    x.iter().sum()
                },
        )
    }
    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        let best = self.scale * (x.len() as f64 * self.top() - 1.0);
        self.true_fitness(x).map(|f| self.values >= 2 && f == best)
    }
}

/// Noisy deceptive pairs: the bits form consecutive pairs; a pair scores 1 for `11`,
/// `local` (default 0.8) for `00` and 0 for `01` or `10`, plus N(0, sigma^2) noise on
/// the sum. All ones is the optimum, but from `00` one flip loses: a local optimum that
/// a one-dimension model cannot see past and 2-tuples can. Odd dimensions leave the
/// last bit scoring as OneMax does (1 for a one).
pub(crate) struct NoisyPairs {
    space: Space,
    local: f64,
    sigma: f64,
}

impl NoisyPairs {
    pub(crate) fn new(dims: usize, local: f64, sigma: f64) -> NoisyPairs {
        NoisyPairs {
            space: int_space("noisy-pairs", dims, 2),
            local,
            sigma,
        }
    }
}

impl Problem for NoisyPairs {
    fn space(&self) -> &Space {
        &self.space
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let truth = self.true_fitness(x).unwrap_or(0.0);
        Ok(Evaluation::fitness(truth + self.sigma * gaussian(seed)))
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        Some(
            x.chunks(2)
                .map(|pair| match pair {
                    [a, b] if *a == 1.0 && *b == 1.0 => 1.0,
                    [a, b] if *a == 0.0 && *b == 0.0 => self.local,
                    [a] => *a,
                    _ => 0.0,
                })
                .sum(),
        )
    }
    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        // With local >= 1 the optimum is not all ones; the benchmark is meant with < 1.
        Some(self.local < 1.0 && x.iter().all(|&v| v == 1.0))
    }
}

/// Noisy win rate: a game-like benchmark whose every evaluation is a win (1) or a loss
/// (0), won with probability `low + (high - low) * s`, where s is the sum of the values
/// divided by its maximum. The optimum is every dimension at its top value; with
/// binary outcomes and small budgets, an optimiser must tell win rates a few points
/// apart, as when it tunes an agent on single games.
pub struct NoisyWinRate {
    space: Space,
    top: f64,
    low: f64,
    high: f64,
}

impl NoisyWinRate {
    /// `dims` dimensions of `values` levels each, won with probability `low` at the
    /// all-bottom point and `high` at the all-top one.
    pub fn new(dims: usize, values: usize, low: f64, high: f64) -> NoisyWinRate {
        NoisyWinRate {
            space: int_space("noisy-winrate", dims, values as i64),
            top: (dims * (values - 1)) as f64,
            low,
            high,
        }
    }
}

impl Problem for NoisyWinRate {
    fn space(&self) -> &Space {
        &self.space
    }
    /// Each evaluation is a win (1) or a loss (0).
    fn fitness_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let p = self.true_fitness(x).unwrap_or(0.0);
        let u: f64 = rand::RngExt::random(&mut rng_from_seed(seed));
        Ok(Evaluation::fitness(if u < p { 1.0 } else { 0.0 }))
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        Some(self.low + (self.high - self.low) * x.iter().sum::<f64>() / self.top)
    }
    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        Some(x.iter().sum::<f64>() == self.top)
    }
}

/// The pyribs sphere benchmark for MAP-Elites: a `dims`-dimensional sphere shifted by
/// 5.12 * 0.4, its objective normalised to [0, 100]; two measures, the sums of the
/// first and second halves of the solution with values outside [-5.12, 5.12] replaced
/// by 5.12 / x. Deterministic.
pub struct Sphere {
    space: Space,
}

const SPHERE_SHIFT: f64 = 5.12 * 0.4;

impl Sphere {
    /// Solutions are bounded to +-10.24 (pyribs leaves them unbounded; Gaussian steps
    /// of 0.5 from 0 do not reach the bound in the benchmark's budgets).
    pub fn new(dims: usize) -> Sphere {
        let dims = (0..dims)
            .map(|i| Dimension {
                name: format!("x{i}"),
                domain: Domain::Float {
                    min: -10.24,
                    max: 10.24,
                    levels: 257,
                },
                default: 128,
                fixed: false,
            })
            .collect();
        Sphere {
            space: Space {
                name: "sphere".into(),
                dims,
                groups: Vec::new(),
                constraints: Vec::new(),
            },
        }
    }

    /// Objective and both measures of a solution.
    #[inline]
    pub(crate) fn objective_and_measures(x: &[f64]) -> (f64, [f64; 2]) {
        let dim = x.len();
        let worst = (-5.12 - SPHERE_SHIFT) * (-5.12 - SPHERE_SHIFT) * dim as f64;
        let mut raw = 0.0;
        let mut measures = [0.0; 2];
        for (i, &v) in x.iter().enumerate() {
            raw += (v - SPHERE_SHIFT) * (v - SPHERE_SHIFT);
            let clipped = if !(-5.12..=5.12).contains(&v) {
                5.12 / v
            } else {
                v
            };
            measures[(i >= dim / 2) as usize] += clipped;
        }
        ((raw - worst) / (0.0 - worst) * 100.0, measures)
    }
}

impl Problem for Sphere {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        vec!["measure_0".into(), "measure_1".into()]
    }
    /// The objective is normalised to 0 (the worst point within +-5.12) to 100 (the
    /// optimum); points beyond +-5.12 can fall below 0.
    fn fitness_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 100.0))
    }
    fn default_axes(&self) -> Vec<FeatureAxis> {
        let bound = self.space.len() as f64 / 2.0 * 5.12;
        self.feature_names()
            .into_iter()
            .map(|name| FeatureAxis {
                name,
                low: -bound,
                high: bound,
                bins: 100,
            })
            .collect()
    }
    fn evaluate(&self, x: &[f64], _seed: u64) -> Result<Evaluation, EvalError> {
        let (f, m) = Sphere::objective_and_measures(x);
        Ok(Evaluation {
            fitness: f,
            features: m.to_vec(),
        })
    }
    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        Some(Sphere::objective_and_measures(x).0)
    }
}

/// Most dimensions of a benchmark: a space of this many already takes a while.
const MAX_DIMS: usize = 100_000;

use super::def::{ProblemDef, ProblemError};
use crate::settings::Values;

/// A finite noise level of at least 0.
fn sigma(v: &Values) -> Result<f64, ProblemError> {
    Ok(v.real_in("sigma", 0.0, f64::INFINITY)?)
}

/// Problem `noisy-onemax`: [`NoisyOneMax`].
pub const NOISY_ONEMAX: ProblemDef = ProblemDef {
    name: "noisy-onemax",
    about: "count of ones plus Gaussian noise (all times scale); optimum all ones",
    settings: &[
        ("dims", "10", "bits"),
        ("sigma", "1", "noise sd"),
        ("scale", "1", "every fitness multiplied by it"),
    ],
    build: |v, _| {
        Ok(Box::new(NoisyOneMax::scaled(
            v.count_in("dims", MAX_DIMS)?,
            sigma(v)?,
            v.real("scale")?,
        )))
    },
};

/// Problem `constrained-onemax`: OneMax held to a cap on its share of ones.
pub const CONSTRAINED_ONEMAX: ProblemDef = ProblemDef {
    name: "constrained-onemax",
    about: "count of ones plus noise, held to `load <= cap` (load: the share of ones); feasible optimum floor(cap x dims) ones",
    settings: &[
        ("dims", "20", "bits"),
        ("sigma", "1", "noise sd"),
        ("cap", "0.7", "the most share of ones a feasible point has"),
    ],
    build: |v, _| {
        Ok(Box::new(ConstrainedOneMax::new(
            v.count_in("dims", MAX_DIMS)?,
            sigma(v)?,
            v.real_in("cap", 0.0, f64::INFINITY)?,
        )?))
    },
};

/// Problem `noisy-trap`: the sum of values, the all-max point a trap worth 0.
pub const NOISY_TRAP: ProblemDef = ProblemDef {
    name: "noisy-trap",
    about: "sum of values plus noise, the all-max point a trap worth 0",
    settings: &[
        ("dims", "5", "dimensions"),
        ("values", "4", "values per dimension, at least 2"),
        ("sigma", "1", "noise sd"),
        ("scale", "1", "every fitness multiplied by it"),
    ],
    build: |v, _| {
        let values = v.count_in("values", 1 << 20)?;
        if values < 2 {
            return Err(v
                .bad(
                    "values",
                    "at least 2 values per dimension (the trap needs two)",
                )
                .into());
        }
        Ok(Box::new(NoisyTrap::scaled(
            v.count_in("dims", MAX_DIMS)?,
            values,
            sigma(v)?,
            v.real("scale")?,
        )))
    },
};

/// Problem `noisy-pairs`: bit pairs that score for 11 and, less, for 00.
pub const NOISY_PAIRS: ProblemDef = ProblemDef {
    name: "noisy-pairs",
    about: "bit pairs score 1 for 11, local for 00, 0 otherwise, plus noise; optimum all ones",
    settings: &[
        ("dims", "12", "bits (pairs of neighbours)"),
        ("local", "0.8", "what a 00 pair scores"),
        ("sigma", "0.5", "noise sd"),
    ],
    build: |v, _| {
        Ok(Box::new(NoisyPairs::new(
            v.count_in("dims", MAX_DIMS)?,
            v.real("local")?,
            sigma(v)?,
        )))
    },
};

/// Problem `noisy-winrate`: [`NoisyWinRate`].
pub const NOISY_WINRATE: ProblemDef = ProblemDef {
    name: "noisy-winrate",
    about: "each evaluation a win or a loss, won with probability low..high by the sum of values; optimum all top",
    settings: &[
        ("dims", "6", "dimensions"),
        ("values", "2", "values per dimension, at least 2"),
        ("low", "0.2", "win probability at the all-bottom point"),
        (
            "high",
            "0.8",
            "win probability at the all-top point, at least low",
        ),
    ],
    build: |v, _| {
        let values = v.count("values")?;
        if values < 2 {
            return Err(v.bad("values", "at least 2 values per dimension").into());
        }
        let (low, high) = (v.probability("low")?, v.probability("high")?);
        if high < low {
            return Err(v
                .bad("high", &format!("a probability of at least low ({low})"))
                .into());
        }
        Ok(Box::new(NoisyWinRate::new(
            v.count("dims")?,
            values,
            low,
            high,
        )))
    },
};

/// Problem `sphere`: [`Sphere`], pyribs' benchmark for MAP-Elites.
pub const SPHERE: ProblemDef = ProblemDef {
    name: "sphere",
    about: "pyribs' sphere benchmark for MAP-Elites: objective in [0, 100], two measures",
    settings: &[("dims", "100", "dimensions")],
    build: |v, _| Ok(Box::new(Sphere::new(v.count_in("dims", MAX_DIMS)?))),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn onemax_truth_and_noise() {
        let p = NoisyOneMax::new(4, 1.0);
        assert_eq!(p.true_fitness(&[1.0, 0.0, 1.0, 1.0]), Some(3.0));
        assert_eq!(p.is_optimal(&[1.0; 4]), Some(true));
        let samples: Vec<f64> = (0..4000)
            .map(|s| p.evaluate(&[1.0, 0.0, 1.0, 1.0], s).unwrap().fitness)
            .collect();
        let s = crate::stats::Summary::of(&samples);
        assert!(
            (s.mean - 3.0).abs() < 0.1 && (s.sd() - 1.0).abs() < 0.1,
            "{s:?}"
        );
    }

    #[test]
    fn trap_punishes_the_all_max_point() {
        let p = NoisyTrap::new(5, 4, 1.0);
        assert_eq!(p.true_fitness(&[3.0; 5]), Some(0.0));
        assert_eq!(p.true_fitness(&[3.0, 3.0, 2.0, 3.0, 3.0]), Some(14.0));
        assert_eq!(p.is_optimal(&[3.0, 3.0, 2.0, 3.0, 3.0]), Some(true));
        assert_eq!(p.is_optimal(&[3.0, 3.0, 1.0, 3.0, 3.0]), Some(false));
    }

    #[test]
    fn scaled_trap_keeps_its_optimum() {
        let p = NoisyTrap::scaled(5, 4, 1.0, 0.01);
        assert_eq!(p.true_fitness(&[3.0; 5]), Some(0.0));
        assert_eq!(p.is_optimal(&[3.0, 3.0, 2.0, 3.0, 3.0]), Some(true));
        assert_eq!(p.is_optimal(&[3.0, 3.0, 1.0, 3.0, 3.0]), Some(false));
    }

    #[test]
    fn pairs_have_a_local_optimum_at_zero() {
        let p = NoisyPairs::new(4, 0.8, 1.0);
        assert_eq!(p.true_fitness(&[1.0; 4]), Some(2.0));
        assert_eq!(p.true_fitness(&[0.0; 4]), Some(1.6));
        // One flip from 00 loses the pair's 0.8.
        assert_eq!(p.true_fitness(&[1.0, 0.0, 0.0, 0.0]), Some(0.8));
        assert_eq!(p.is_optimal(&[1.0; 4]), Some(true));
        assert_eq!(p.is_optimal(&[1.0, 1.0, 0.0, 0.0]), Some(false));
        let odd = NoisyPairs::new(3, 0.8, 1.0);
        assert_eq!(odd.true_fitness(&[1.0; 3]), Some(2.0));
    }

    #[test]
    fn winrate_wins_as_often_as_its_truth_says() {
        let p = NoisyWinRate::new(4, 3, 0.2, 0.8);
        let x = [2.0, 1.0, 0.0, 2.0];
        assert!((p.true_fitness(&x).unwrap() - 0.575).abs() < 1e-12);
        assert_eq!(p.is_optimal(&[2.0; 4]), Some(true));
        let wins: f64 = (0..10_000)
            .map(|s| p.evaluate(&x, s).unwrap().fitness)
            .sum();
        assert!((wins / 10_000.0 - 0.575).abs() < 0.02, "{wins}");
    }

    #[test]
    fn sphere_matches_pyribs_formula() {
        let (f, m) = Sphere::objective_and_measures(&[SPHERE_SHIFT; 4]);
        assert!((f - 100.0).abs() < 1e-12);
        assert!((m[0] - 2.0 * SPHERE_SHIFT).abs() < 1e-12);
        let (f0, _) = Sphere::objective_and_measures(&[-5.12; 4]);
        assert!(f0.abs() < 1e-12);
        let (_, m) = Sphere::objective_and_measures(&[10.24, 0.0, 0.0, -6.4]);
        assert!((m[0] - 0.5).abs() < 1e-12 && (m[1] + 0.8).abs() < 1e-12);
    }
}
