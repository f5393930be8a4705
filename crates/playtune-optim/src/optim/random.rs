//! Random search: the baseline every optimiser should beat.

use super::declaration::{self, OptimizerDef};
use super::{Candidate, Optimizer, Phase, Recommendation, argmax};
use crate::eval::Evaluation;
use crate::rng::{Rng, rng_from_seed};
use crate::space::{Space, random_point};
use serde::{Deserialize, Serialize};

/// Random search's settings, as `config.ron` records them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomConfig {
    /// Points asked per batch (evaluated in parallel).
    pub batch: usize,
}

/// Random search, declared ([`super::def`]).
pub static DEF: OptimizerDef = OptimizerDef {
    name: "random",
    aliases: &[],
    about: "Random search: uniform points, the best measured (the baseline)",
    settings: || vec![declaration::batch_setting(RandomConfig::default().batch)],
    configure: |v, _| {
        Ok(super::AlgoConfig::Random(RandomConfig {
            batch: declaration::count(v, "batch", super::MAX_BATCH, "points per batch")? as usize,
        }))
    },
    values: |c| match c {
        super::AlgoConfig::Random(c) => Some(vec![("batch".into(), declaration::text(c.batch))]),
        _ => None,
    },
};

impl Default for RandomConfig {
    fn default() -> Self {
        RandomConfig { batch: 32 }
    }
}

/// Random search: uniform random points, the best measured recommended.
pub struct RandomSearch {
    config: RandomConfig,
    space: Space,
    rng: Rng,
    remaining: u64,
    best: Option<(Vec<f64>, f64)>,
}

impl RandomSearch {
    /// Random search over `space` with `budget` evaluations, seeded by `seed`.
    pub fn new(config: RandomConfig, space: Space, budget: u64, seed: u64) -> RandomSearch {
        RandomSearch {
            config,
            space,
            rng: rng_from_seed(seed),
            remaining: budget,
            best: None,
        }
    }
}

impl Optimizer for RandomSearch {
    fn ask(&mut self) -> Vec<Candidate> {
        let n = (self.config.batch.max(1) as u64).min(self.remaining) as usize;
        self.remaining -= n as u64;
        (0..n)
            .map(|_| Candidate {
                values: self.space.decode(&random_point(&self.space, &mut self.rng)),
                phase: Phase::Search,
                common: None,
            })
            .collect()
    }

    fn tell(&mut self, asked: &[Candidate], results: &[Option<Evaluation>]) {
        let fitness = |r: &Option<Evaluation>| r.as_ref().map_or(f64::NEG_INFINITY, |e| e.fitness);
        if let Some(i) = argmax(results.iter().map(fitness)) {
            let f = fitness(&results[i]);
            // Failed evaluations score minus infinity: never the best.
            if f > f64::NEG_INFINITY && self.best.as_ref().is_none_or(|(_, b)| f > *b) {
                self.best = Some((asked[i].values.clone(), f));
            }
        }
    }

    fn recommend(&self) -> Recommendation {
        Recommendation::evaluated(
            self.best.as_ref().map(|(v, f)| (v.as_slice(), *f)),
            &self.space,
        )
    }
}
