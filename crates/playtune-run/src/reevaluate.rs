//! Re-evaluating a point with fresh seeds: what a run's recommendation is really worth.
//!
//! A recommendation's estimate is the optimiser's model value (NTBEA's tuple means,
//! RMHC's resampled mean), which on a noisy problem can be far from the point's true
//! mean. Re-evaluation plays the point again `n` times, each time with a seed the run
//! never used, and reports the sample mean with its standard error.

use super::evaluate_with_retries;
use playtune_optim::eval::{Binding, Problem};
use playtune_optim::rng::derive_seed;
use playtune_optim::space::Space;
use playtune_optim::stats::Summary;
use rayon::prelude::*;

/// The first coordinate of a re-evaluation's seed path, `[REEVALUATE_STREAM, trial, k]`:
/// runs seed evaluations with `[trial, i]` and optimisers with `[trial, u64::MAX]`, so
/// these seeds are never ones the search used.
pub(crate) const REEVALUATE_STREAM: u64 = u64::MAX - 1;

/// What `n` fresh evaluations of one point gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Reevaluation {
    /// Fitness of every evaluation that succeeded, in seed order.
    pub fitness: Vec<f64>,
    /// Why each failed evaluation failed (after the run's retries), in seed order.
    pub failures: Vec<String>,
    /// Mean and standard error of `fitness`.
    pub summary: Summary,
}

/// The spread, relative to the values' size, below which re-evaluations agree: what
/// rounding leaves between evaluations that are equal (0.3 computed as 0.1 + 0.2 is
/// 0.30000000000000004), far below any noise a measure has.
const AGREE: f64 = 1e-12;

/// How a run's estimate of a point stands beside the point's re-evaluations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Beside {
    /// Fewer than two re-evaluations succeeded: no spread to measure the gap by.
    Unmeasured,
    /// The re-evaluations all agree, at `value` (equal, or apart by rounding only):
    /// their standard error is 0, or rounding's, and measures nothing, so the gap is
    /// said as it is. `gap`: the estimate less `value`, 0 where it is within rounding
    /// of them too.
    Agree {
        /// Where the re-evaluations agree.
        value: f64,
        /// The estimate less `value`.
        gap: f64,
    },
    /// The re-evaluations spread: the estimate less their mean, in their standard
    /// errors.
    StandardErrors {
        /// The estimate less the re-evaluations' mean, in their standard errors.
        gap: f64,
        /// Their standard error.
        se: f64,
    },
}

impl Reevaluation {
    /// Where `estimate` (the run's model value of the point) stands beside these
    /// re-evaluations. Re-evaluations that tie have a standard error of 0 or of
    /// rounding (1e-17), and a gap counted in those would be a number of standard
    /// errors that means nothing (a 0.05 gap read as 1.9e15 of them).
    pub fn beside(&self, estimate: f64) -> Beside {
        if self.fitness.len() < 2 {
            return Beside::Unmeasured;
        }
        let min = self.fitness.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self
            .fitness
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let scale = min.abs().max(max.abs()).max(estimate.abs());
        let mean = self.summary.mean;
        let gap = estimate - mean;
        if max - min <= AGREE * scale {
            let gap = if gap.abs() <= AGREE * scale { 0.0 } else { gap };
            return Beside::Agree { value: mean, gap };
        }
        Beside::StandardErrors {
            gap,
            se: self.summary.se(),
        }
    }
}

/// Evaluates `values` (a point of `space`, the run's search space) `n` times with the
/// seeds `derive_seed(seed, [REEVALUATE_STREAM, trial, k])`, k = 0..n, in parallel, a
/// failed evaluation tried `retries` more times with its seed; the result does not
/// depend on the number of threads.
pub fn reevaluate(
    space: &Space,
    problem: &dyn Problem,
    retries: u32,
    values: &[f64],
    trial: u64,
    n: u32,
    seed: u64,
) -> Result<Reevaluation, super::RunError> {
    let binding =
        Binding::new(space, problem.space()).map_err(|e| super::RunError::Config(e.message))?;
    let mut full = Vec::new();
    binding.full_point(values, &mut full);
    let outcomes: Vec<Result<f64, String>> = (0..u64::from(n))
        .into_par_iter()
        .map(|k| {
            let s = derive_seed(seed, &[REEVALUATE_STREAM, trial, k]);
            evaluate_with_retries(problem, &full, s, retries)
                .0
                .map(|e| e.fitness)
        })
        .collect();
    let mut fitness = Vec::new();
    let mut failures = Vec::new();
    for o in outcomes {
        match o {
            Ok(f) => fitness.push(f),
            Err(e) => failures.push(e),
        }
    }
    Ok(Reevaluation {
        summary: Summary::of(&fitness),
        fitness,
        failures,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use playtune_optim::eval::NoisyOneMax;

    /// The `noisy-onemax` problem with `dims=10 sigma=1`.
    fn onemax() -> Box<dyn Problem> {
        Box::new(NoisyOneMax::new(10, 1.0))
    }

    fn run(problem: &dyn Problem, x: &[f64], trial: u64, n: u32) -> Reevaluation {
        reevaluate(problem.space(), problem, 0, x, trial, n, 5).unwrap()
    }

    #[test]
    fn mean_of_fresh_evaluations_finds_the_true_fitness() {
        let problem = onemax();
        // Seven ones of ten: OneMax's true fitness is 7 (scaled as the problem scales).
        let x: Vec<f64> = (0..10).map(|i| if i < 7 { 1.0 } else { 0.0 }).collect();
        let truth = problem.true_fitness(&x).unwrap();
        let r = run(problem.as_ref(), &x, 0, 400);
        assert_eq!(r.fitness.len(), 400);
        assert!(r.failures.is_empty());
        // Noise sd 1 over 400 evaluations: se 0.05; 5 se is a margin a correct mean
        // passes and a biased one (say, one seed reused) fails.
        let se = r.summary.se();
        assert!(se > 0.0);
        assert!(
            (r.summary.mean - truth).abs() < 5.0 * se,
            "mean {} se {se}, truth {truth}",
            r.summary.mean
        );
    }

    fn of(fitness: &[f64]) -> Reevaluation {
        Reevaluation {
            fitness: fitness.to_vec(),
            failures: Vec::new(),
            summary: Summary::of(fitness),
        }
    }

    /// Ties, exact or apart by rounding, agree: the gap is said as it is, never in
    /// standard errors of 0 or of 1e-17; a real spread measures it in standard errors.
    #[test]
    fn an_estimate_beside_tied_reevaluations_is_a_plain_gap() {
        let tied = of(&[0.3, 0.1 + 0.2, 0.3, 0.1 + 0.2]);
        assert!(tied.summary.se() > 0.0, "rounding's standard error");
        match tied.beside(0.35) {
            Beside::Agree { value, gap } => {
                assert!((value - 0.3).abs() < 1e-15 && (gap - 0.05).abs() < 1e-15)
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            of(&[2.0, 2.0]).beside(2.0),
            Beside::Agree {
                value: 2.0,
                gap: 0.0
            }
        );
        assert!(matches!(
            of(&[0.0, -0.0]).beside(1e-300),
            Beside::Agree { .. }
        ));
        match of(&[1.0, 2.0, 3.0]).beside(5.0) {
            Beside::StandardErrors { gap, se } => {
                assert_eq!(gap, 3.0);
                assert!((se - (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(of(&[1.0]).beside(5.0), Beside::Unmeasured);
    }

    #[test]
    fn seeds_are_fresh_and_reproducible() {
        let problem = onemax();
        let x = vec![1.0; 10];
        let a = run(problem.as_ref(), &x, 0, 20);
        assert_eq!(a, run(problem.as_ref(), &x, 0, 20));
        let c = run(problem.as_ref(), &x, 1, 20);
        assert_ne!(a.fitness, c.fitness, "another trial draws other seeds");
        // Different from what the run itself evaluated at (trial 0, index k).
        let run_seeds: Vec<f64> = (0..20)
            .map(|i| {
                problem
                    .evaluate(&x, derive_seed(5, &[0, i]))
                    .unwrap()
                    .fitness
            })
            .collect();
        assert_ne!(a.fitness, run_seeds);
    }
}
