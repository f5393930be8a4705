//! Failed evaluations through the run loop: every optimiser is told them explicitly,
//! learns nothing from them, spends its budget, and never recommends or archives a
//! point it has only seen fail.

use playtune_optim::eval::{EvalError, Evaluation, FeatureAxis, NoisyOneMax, Problem};
use playtune_optim::optim::AlgoConfig;
use playtune_optim::optim::map_elites::{Archive, MapElitesConfig, Mutation};
use playtune_optim::space::Space;
use playtune_run::{FaultPolicy, ProblemSpec, RunConfig, execute};
use std::sync::atomic::{AtomicU64, Ordering};

/// OneMax over 6 bits whose evaluator fails on every point with x0 = 1 (a parameter
/// value that crashes the game), counting its failures. The feature is the bit count.
struct BrokenOnX0 {
    inner: NoisyOneMax,
    failures: AtomicU64,
}

impl Problem for BrokenOnX0 {
    fn space(&self) -> &Space {
        self.inner.space()
    }
    fn feature_names(&self) -> Vec<String> {
        vec!["ones".into()]
    }
    fn default_axes(&self) -> Vec<FeatureAxis> {
        vec![FeatureAxis {
            name: "ones".into(),
            low: 0.0,
            high: 6.0,
            bins: 6,
        }]
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        if x[0] == 1.0 {
            self.failures.fetch_add(1, Ordering::SeqCst);
            return Err(EvalError("the game crashed".into()));
        }
        let e = self.inner.evaluate(x, seed)?;
        Ok(Evaluation {
            fitness: e.fitness,
            features: vec![x.iter().sum()],
        })
    }
}

fn config(algorithm: AlgoConfig, space: &Space, budget: u64, seed: u64) -> RunConfig {
    RunConfig {
        playtune_version: "test".into(),
        problem: ProblemSpec {
            name: "broken".into(),
            settings: Default::default(),
        },
        space: space.clone(),
        space_file: None,
        algorithm,
        budget,
        trials: 1,
        seed,
        log: false,
        faults: FaultPolicy {
            retries: 0,
            max_failures: 1.0,
        },
        race: None,
        intensify: None,
        verdict: None,
        game: None,
    }
}

#[test]
fn every_optimiser_handles_failed_evaluations_explicitly() {
    let map_elites = MapElitesConfig {
        mutation: Mutation::HillClimber,
        batch: 8,
        init_random: 8,
        ..MapElitesConfig::default()
    };
    let algos = [
        AlgoConfig::Random(Default::default()),
        AlgoConfig::Rmhc(Default::default()),
        AlgoConfig::Brmhc(Default::default()),
        AlgoConfig::Ntbea(Default::default()),
        AlgoConfig::MapElites(map_elites),
    ];
    for algorithm in algos {
        let mut optimal = 0;
        for seed in 0..20 {
            let problem = BrokenOnX0 {
                inner: NoisyOneMax::new(6, 0.0),
                failures: AtomicU64::new(0),
            };
            let space = problem.space().clone();
            let c = config(algorithm.clone(), &space, 200, seed);
            let r = execute(None, &c, &problem, None).unwrap();
            let t = &r.trials[0];
            let name = algorithm.name();
            assert_eq!(
                t.spent.failed,
                problem.failures.load(Ordering::SeqCst),
                "{name}: every failure is counted once"
            );
            assert!(t.spent.failed > 0, "{name}: x0 = 1 was tried");
            assert_eq!(t.spent.total(), 200, "{name}: the budget is spent");
            assert_eq!(t.values[0], 0.0, "{name} recommends a point that failed");
            assert!(t.estimate.is_finite(), "{name}: estimate {}", t.estimate);
            if let Some(archive) = &t.archive {
                assert!(
                    archive.elites().iter().all(|e| e.values[0] == 0.0),
                    "map-elites archived a point that failed"
                );
            }
            // The best point that never fails: x0 = 0, every other bit 1.
            optimal += (t.values[1..].iter().all(|&v| v == 1.0)) as u32;
        }
        // Noise-free OneMax over five working bits with 200 evaluations: each
        // optimiser finds the best working point in nearly every seed; one that
        // learned from failures as if they were fitness values would not.
        assert!(
            optimal >= 17,
            "{}: optimal in {optimal} of 20 seeds",
            algorithm.name()
        );
    }
}
