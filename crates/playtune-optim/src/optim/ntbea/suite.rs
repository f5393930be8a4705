//! `ntbea-suite`: a problem whose point is an NTBEA configuration and whose fitness is
//! how well NTBEA, so configured, does on a suite of noisy benchmarks with known
//! optima. NTBEA tunes it to choose its own defaults
//! (`playtune experiment ntbea-defaults`).
//!
//! The suite mixes what a default must survive: few and many dimensions, two and eight
//! values per dimension, small and large budgets, fitness scaled by 0.01 and by 100 (a
//! relative k must not care), a trap, deceptive pairs that only a model of
//! interactions sees past, and game-like win-or-lose evaluations.

use super::{FitnessScale, NtbeaConfig, RecommendFrom, TupleSet};
use crate::eval::{
    EvalError, Evaluation, NoisyOneMax, NoisyPairs, NoisyTrap, NoisyWinRate, Problem,
};
use crate::optim::{AlgoConfig, run_in_process};
use crate::rng::derive_seed;
use crate::space::{Dimension, Domain, Space};

/// How one run on a benchmark scores, from 0 to 1.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Measure {
    /// 1 if the recommendation is a global optimum, else 0.
    Success,
    /// How far the recommendation's true fitness got from a random point's expected
    /// fitness (0) to the optimum's (1), for benchmarks where hitting the optimum
    /// exactly is rare and how close a run gets is what tells settings apart.
    Progress { random: f64, optimum: f64 },
}

/// One benchmark of the suite with its budget.
pub struct SuiteCase {
    /// Its name, as reports and the features list it.
    pub name: &'static str,
    pub(crate) problem: Box<dyn Problem>,
    pub(crate) budget: u64,
    pub(crate) measure: Measure,
}

/// The benchmarks, in a fixed order (the order of the features).
pub fn standard_suite() -> Vec<SuiteCase> {
    let case = |name, problem: Box<dyn Problem>, budget| SuiteCase {
        name,
        problem,
        budget,
        measure: Measure::Success,
    };
    // Game-like: one win or loss per evaluation, many values per dimension, small
    // budgets, as when NTBEA tunes an agent on single games. A random point's expected
    // win rate is the middle of low..high.
    let win_rate = |name, dims, values, low: f64, high: f64, budget| SuiteCase {
        name,
        problem: Box::new(NoisyWinRate::new(dims, values, low, high)),
        budget,
        measure: Measure::Progress {
            random: (low + high) / 2.0,
            optimum: high,
        },
    };
    vec![
        win_rate("winrate7x8_b100", 7, 8, 0.2, 0.8, 100),
        win_rate("winrate10x5_b400", 10, 5, 0.3, 0.7, 400),
        case("onemax10", Box::new(NoisyOneMax::new(10, 1.0)), 200),
        case("onemax20", Box::new(NoisyOneMax::new(20, 1.0)), 500),
        case(
            "onemax10_scale0.01_b100",
            Box::new(NoisyOneMax::scaled(10, 1.0, 0.01)),
            100,
        ),
        case(
            "onemax15_sigma2_scale100",
            Box::new(NoisyOneMax::scaled(15, 2.0, 100.0)),
            500,
        ),
        case("trap6x3_sigma2", Box::new(NoisyTrap::new(6, 3, 2.0)), 400),
        case(
            "trap5x4_scale100",
            Box::new(NoisyTrap::scaled(5, 4, 1.0, 100.0)),
            300,
        ),
        case("pairs12", Box::new(NoisyPairs::new(12, 0.8, 0.5)), 400),
    ]
}

const TUPLES: [&str; 3] = ["1+N", "1+2", "1+2+N"];
const SCALES: [FitnessScale; 2] = [FitnessScale::Range, FitnessScale::Sd];
const RECOMMEND: [RecommendFrom; 2] = [RecommendFrom::Evaluated, RecommendFrom::Neighbourhood];

/// NTBEA's single-run settings as a parameter space.
pub fn settings_space() -> Space {
    let dim = |name: &str, domain: Domain, default: usize| Dimension {
        name: name.into(),
        domain,
        default,
        fixed: false,
    };
    let names = |v: &[&str]| Domain::Categories(v.iter().map(|s| s.to_string()).collect());
    Space {
        name: "ntbea-settings".into(),
        dims: vec![
            dim("tuples", names(&TUPLES), 0),
            dim("scale", names(&["range", "sd"]), 0),
            dim(
                "k",
                Domain::List(vec![0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0]),
                4,
            ),
            dim(
                "epsilon",
                Domain::List(vec![1e-6, 1e-4, 1e-2, 0.1, 0.5, 1.0]),
                4,
            ),
            dim(
                "neighbours",
                Domain::List(vec![5.0, 10.0, 20.0, 50.0, 100.0]),
                3,
            ),
            dim(
                "mutation",
                Domain::List(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0]),
                1,
            ),
            dim("recommend", names(&["evaluated", "neighbourhood"]), 0),
        ],
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

/// The NTBEA configuration a point of [`settings_space`] stands for.
pub fn config_of(x: &[f64]) -> NtbeaConfig {
    NtbeaConfig {
        tuples: TupleSet::parse(TUPLES[x[0] as usize]).expect("a fixed tuple name"),
        k: x[2],
        k_relative: true,
        scale: SCALES[x[1] as usize],
        epsilon: x[3],
        neighbours: x[4] as usize,
        mutation: x[5],
        recommend: RECOMMEND[x[6] as usize],
        runs: 1,
        selection_budget: 0,
        batch: 1,
    }
}

/// Scores of one NTBEA configuration over the suite (per case, the mean over `trials`
/// runs of its measure, from 0 to 1); trial t of case c is seeded from `(seed, c, t)` alone.
pub fn case_scores(
    suite: &[SuiteCase],
    config: &NtbeaConfig,
    trials: u64,
    seed: u64,
) -> Result<Vec<f64>, EvalError> {
    let algorithm = AlgoConfig::Ntbea(config.clone());
    suite
        .iter()
        .enumerate()
        .map(|(c, case)| {
            let mut total = 0.0;
            for t in 0..trials {
                let item = derive_seed(seed, &[c as u64, t]);
                let space = case.problem.space();
                let mut optimizer = algorithm
                    .build(space, case.budget, item, &[], &[])
                    .map_err(|e| EvalError(e.to_string()))?;
                let r = run_in_process(optimizer.as_mut(), case.problem.as_ref(), item)?;
                total += match case.measure {
                    Measure::Success => {
                        f64::from(u8::from(case.problem.is_optimal(&r.values) == Some(true)))
                    }
                    Measure::Progress { random, optimum } => {
                        let truth = case.problem.true_fitness(&r.values).unwrap_or(random);
                        (truth - random) / (optimum - random)
                    }
                };
            }
            Ok(total / trials as f64)
        })
        .collect()
}

/// The problem: fitness is the mean score over the suite; each case's score is a
/// named feature.
pub(crate) struct NtbeaSuite {
    space: Space,
    suite: Vec<SuiteCase>,
    trials: u64,
}

impl NtbeaSuite {
    pub(crate) fn new(trials: u64) -> NtbeaSuite {
        NtbeaSuite {
            space: settings_space(),
            suite: standard_suite(),
            trials,
        }
    }
}

impl Problem for NtbeaSuite {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        self.suite.iter().map(|c| c.name.to_string()).collect()
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let rates = case_scores(&self.suite, &config_of(x), self.trials, seed)?;
        Ok(Evaluation {
            fitness: rates.iter().sum::<f64>() / rates.len() as f64,
            features: rates,
        })
    }
}

/// Problem `ntbea-suite`: NTBEA's own settings, scored over the suite.
pub const NTBEA_SUITE: crate::eval::ProblemDef = crate::eval::ProblemDef {
    name: "ntbea-suite",
    about: "NTBEA's settings; fitness = mean success rate over a suite of noisy benchmarks (trials runs each)",
    settings: &[("trials", "10", "NTBEA runs per benchmark in one evaluation")],
    build: |v, _| Ok(Box::new(NtbeaSuite::new(v.count("trials")? as u64))),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_is_a_valid_configuration() {
        let space = settings_space();
        let mut x: Vec<f64> = space.dims.iter().map(|d| d.domain.value(0)).collect();
        for (d, dim) in space.dims.iter().enumerate() {
            for i in 0..dim.domain.len() {
                x[d] = dim.domain.value(i);
                let c = config_of(&x);
                assert!(
                    crate::optim::ntbea::Ntbea::new(c, space.clone(), 10, 1).is_ok(),
                    "{x:?}"
                );
            }
        }
    }

    #[test]
    fn the_suite_separates_good_settings_from_greedy_ones() {
        // With 1+2+N tuples, k = 0 (no exploration) must lose to k = 0.5 x range on
        // the suite, and 1+N tuples to 1+2+N: the fitness measures something.
        let suite = standard_suite();
        let pairs = NtbeaConfig {
            tuples: TupleSet::parse("1+2+N").unwrap(),
            ..NtbeaConfig::paper()
        };
        let greedy = NtbeaConfig {
            k: 0.0,
            ..pairs.clone()
        };
        let mean = |c: &NtbeaConfig| {
            let r = case_scores(&suite, c, 20, 3).unwrap();
            r.iter().sum::<f64>() / r.len() as f64
        };
        let (good, bad, paper) = (mean(&pairs), mean(&greedy), mean(&NtbeaConfig::paper()));
        assert!(good > bad + 0.15, "1+2+N {good} vs greedy {bad}");
        assert!(good > paper + 0.15, "1+2+N {good} vs 1+N {paper}");
    }
}
