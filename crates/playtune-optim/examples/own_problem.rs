//! NTBEA and MAP-Elites over a problem of your own, with this crate alone (no games,
//! pictures, command line or learned evaluation come along):
//!
//! ```sh
//! cargo run --release -p playtune-optim --example own_problem
//! ```
//!
//! The problem: a noisy "tune three knobs" task whose best point is known, so the
//! example can say how close each optimiser came.

use playtune_optim::eval::FeatureAxis;
use playtune_optim::optim::map_elites::MapElitesConfig;
use playtune_optim::rng::item_rng;
use playtune_optim::{
    AlgoConfig, Dimension, Domain, EvalError, Evaluation, Optimizer, Problem, Space,
};
use rand_distr::{Distribution, Normal};

/// Three knobs of 0..=9; the fitness peaks at (7, 2, 5), with noise of sd 0.5 drawn
/// from the seed. Its one feature, the first knob, spreads MAP-Elites' archive.
struct Knobs(Space);

impl Knobs {
    fn new() -> Knobs {
        let dims = ["a", "b", "c"]
            .into_iter()
            .map(|name| Dimension {
                name: name.into(),
                domain: Domain::Int {
                    min: 0,
                    max: 9,
                    step: 1,
                },
                default: 0,
                fixed: false,
            })
            .collect();
        Knobs(Space {
            name: "knobs".into(),
            dims,
            groups: vec![],
            constraints: vec![],
        })
    }

    fn true_fitness(x: &[f64]) -> f64 {
        -((x[0] - 7.0).powi(2) + (x[1] - 2.0).powi(2) + (x[2] - 5.0).powi(2)) / 10.0
    }
}

impl Problem for Knobs {
    fn space(&self) -> &Space {
        &self.0
    }
    fn feature_names(&self) -> Vec<String> {
        vec!["a".into()]
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let noise = Normal::new(0.0, 0.5).expect("a valid sd");
        let mut rng = item_rng(seed, &[]);
        Ok(Evaluation {
            fitness: Knobs::true_fitness(x) + noise.sample(&mut rng),
            features: vec![x[0]],
        })
    }
}

/// Asks and tells until the budget is spent, each evaluation with its own seed.
fn search(problem: &Knobs, mut optimizer: Box<dyn Optimizer>) -> Box<dyn Optimizer> {
    let mut seed = 0;
    loop {
        let asked = optimizer.ask();
        if asked.is_empty() {
            return optimizer;
        }
        let results: Vec<_> = asked
            .iter()
            .map(|c| {
                seed += 1;
                problem.evaluate(&c.values, seed).ok()
            })
            .collect();
        optimizer.tell(&asked, &results);
    }
}

fn main() {
    let problem = Knobs::new();
    let ntbea = AlgoConfig::Ntbea(Default::default())
        .build(problem.space(), 500, 1, &[], &[])
        .expect("NTBEA at its defaults builds");
    let best = search(&problem, ntbea).recommend();
    println!(
        "NTBEA recommends {:?}: true fitness {:.2} (best 0)",
        best.values,
        Knobs::true_fitness(&best.values)
    );
    let axes: Vec<FeatureAxis> = vec!["a=0:9:10".parse().expect("an axis")];
    let map_elites = AlgoConfig::MapElites(MapElitesConfig::default())
        .build(problem.space(), 500, 1, &problem.feature_names(), &axes)
        .expect("MAP-Elites at its defaults builds");
    let archive = search(&problem, map_elites);
    let metrics = archive.metrics_history();
    if let Some(last) = metrics.last() {
        println!(
            "MAP-Elites fills {:.0}% of its 10 cells (one per value of a), the best measured {:.2} (one noisy evaluation each)",
            100.0 * last.coverage,
            last.max_fitness
        );
    }
}
