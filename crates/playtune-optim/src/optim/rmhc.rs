//! Random mutation hill climbing (the NTBEA paper's Algorithm 1).
//!
//! Every generation evaluates both the parent and a one-dimension mutant, so a lucky
//! noisy sample of the parent does not stick forever; the mutant replaces the parent
//! when its fitness is at least the parent's. With resampling `r`, each is evaluated
//! `r` times and compared by mean. The dimension to mutate is drawn by a dimension
//! chooser, uniform here and importance-biased in B-RMHC.

use super::declaration::{self, OptimizerDef};
use super::{Candidate, Optimizer, Phase, Recommendation};
use crate::eval::Evaluation;
use crate::rng::{Rng, rng_from_seed};
use crate::settings::Setting;
use crate::space::mutate::mutate_value;
use crate::space::{Space, random_point};
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// RMHC's settings, as `config.ron` records them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RmhcConfig {
    /// Evaluations of the parent and of the mutant per generation (r).
    pub resample: u32,
}

/// The setting RMHC and B-RMHC share.
pub(crate) fn resample_setting() -> Setting {
    Setting::new(
        "resample",
        "1",
        "Evaluations of parent and mutant per generation",
    )
}

/// `resample` as RMHC and B-RMHC check it.
pub fn resample(v: &crate::settings::Values) -> Result<u32, super::Error> {
    declaration::count(
        v,
        "resample",
        super::MAX_COUNT,
        "evaluations of parent and mutant per generation",
    )
    .map(|n| n as u32)
}

/// RMHC, declared ([`super::def`]).
pub static DEF: OptimizerDef = OptimizerDef {
    name: "rmhc",
    aliases: &[],
    about: "Random mutation hill climbing: one dimension mutated, the mutant kept when no worse",
    settings: || vec![resample_setting()],
    configure: |v, _| {
        Ok(super::AlgoConfig::Rmhc(RmhcConfig {
            resample: resample(v)?,
        }))
    },
    values: |c| match c {
        super::AlgoConfig::Rmhc(c) => {
            Some(vec![("resample".into(), declaration::text(c.resample))])
        }
        _ => None,
    },
};

impl Default for RmhcConfig {
    fn default() -> Self {
        RmhcConfig { resample: 1 }
    }
}

/// How the dimension to mutate is chosen.
pub(crate) enum DimensionChooser {
    Uniform(Vec<usize>),
    /// Dimensions with cumulative probabilities (the last is 1).
    Weighted(Vec<usize>, Vec<f64>),
}

impl DimensionChooser {
    fn choose(&self, rng: &mut Rng) -> usize {
        match self {
            DimensionChooser::Uniform(d) => d[rng.random_range(0..d.len())],
            DimensionChooser::Weighted(d, cum) => {
                let u: f64 = rng.random();
                d[cum.iter().position(|&c| u < c).unwrap_or(d.len() - 1)]
            }
        }
    }
}

/// The hill climber proper, shared by RMHC and B-RMHC.
pub(crate) struct HillClimber {
    space: Space,
    rng: Rng,
    resample: u32,
    remaining: u64,
    chooser: DimensionChooser,
    parent: Vec<u32>,
    parent_estimate: f64,
    child: Vec<u32>,
    generations: u64,
}

impl HillClimber {
    pub(crate) fn new(
        space: Space,
        resample: u32,
        budget: u64,
        rng: Rng,
        chooser: DimensionChooser,
    ) -> HillClimber {
        let mut rng = rng;
        let parent = random_point(&space, &mut rng);
        HillClimber {
            child: parent.clone(),
            space,
            rng,
            resample: resample.max(1),
            remaining: budget,
            chooser,
            parent,
            parent_estimate: f64::NAN,
            generations: 0,
        }
    }

    pub(crate) fn set_chooser(&mut self, chooser: DimensionChooser) {
        self.chooser = chooser;
    }

    fn cost(&self) -> u64 {
        2 * self.resample as u64
    }
}

impl Optimizer for HillClimber {
    fn ask(&mut self) -> Vec<Candidate> {
        if self.remaining < self.cost() {
            return Vec::new();
        }
        self.remaining -= self.cost();
        self.child.clone_from(&self.parent);
        let dim = self.chooser.choose(&mut self.rng);
        mutate_value(
            &mut self.child,
            dim,
            self.space.dims[dim].arity(),
            &mut self.rng,
        );
        let r = self.resample as usize;
        let parent = self.space.decode(&self.parent);
        let child = self.space.decode(&self.child);
        let mut batch = vec![
            Candidate {
                values: parent,
                phase: Phase::Search,
                common: None,
            };
            r
        ];
        batch.extend(std::iter::repeat_n(
            Candidate {
                values: child,
                phase: Phase::Search,
                common: None,
            },
            r,
        ));
        batch
    }

    fn tell(&mut self, _asked: &[Candidate], results: &[Option<Evaluation>]) {
        let r = self.resample as usize;
        // The mean of the evaluations that succeeded; None if all failed.
        let mean = |s: &[Option<Evaluation>]| {
            let ok: Vec<f64> = s.iter().flatten().map(|e| e.fitness).collect();
            (!ok.is_empty()).then(|| ok.iter().sum::<f64>() / ok.len() as f64)
        };
        let (parent, child) = (mean(&results[..r]), mean(&results[r..2 * r]));
        self.generations += 1;
        // A mutant whose evaluations all failed is rejected; a parent whose evaluations
        // all failed this generation gives way to a mutant that was evaluated.
        match (parent, child) {
            (_, None) => {
                if let Some(p) = parent {
                    self.parent_estimate = p;
                }
            }
            (Some(p), Some(c)) if c < p => self.parent_estimate = p,
            (_, Some(c)) => {
                std::mem::swap(&mut self.parent, &mut self.child);
                self.parent_estimate = c;
            }
        }
    }

    fn recommend(&self) -> Recommendation {
        let samples = if self.generations == 0 {
            0
        } else {
            self.resample as u64
        };
        Recommendation {
            values: self.space.decode(&self.parent),
            estimate: self.parent_estimate,
            se: 0.0,
            samples,
        }
    }
}

/// RMHC: the hill climber with uniform dimension choice.
pub(crate) struct Rmhc;

impl Rmhc {
    #[allow(clippy::new_ret_no_self)]
    pub(crate) fn new(
        config: RmhcConfig,
        space: Space,
        budget: u64,
        seed: u64,
    ) -> Result<HillClimber, super::Error> {
        let cost = 2 * config.resample.max(1) as u64;
        if budget < cost {
            return Err(super::Error::BudgetTooSmall {
                budget,
                why: format!(
                    "is less than one RMHC generation ({cost} evaluations: parent and mutant, {} each)",
                    config.resample.max(1)
                ),
            });
        }
        let chooser = DimensionChooser::Uniform(space.free_dims());
        Ok(HillClimber::new(
            space,
            config.resample,
            budget,
            rng_from_seed(seed),
            chooser,
        ))
    }
}
