//! A design benchmark with a known best rule set: the noise of a real design problem
//! (each rung's result a count of won games) over rule sets whose true ladder is known,
//! so that how often a run recommends the best rules can be counted.

use super::def::ProblemDef;
use super::{Baseline, EvalError, Evaluation, Problem, benchmarks::int_space};
use crate::rng::item_rng;
use crate::space::Space;
use rand::RngExt;

/// Problem `synthetic-design`: rule sets `x` of `dims` rules with `values` levels each,
/// skill `s(x) = sum(x) / (dims (values - 1))` in 0..1. A 3-rung ladder on a 2-player
/// game: the weakest rung meets copies of itself (1/2, known, not played), the middle
/// one wins with probability `0.55 + 0.2 s`, the strongest with `0.55 + 0.4 s`, each
/// over `games` games a rung drawn independently from the evaluation's seed. The
/// fitness is the skill depth `min(w1 - 1/2, w2 - w1)`, whose noise-free value is
/// `0.2 s` (the upper step is the smaller): one best rule set (every rule at its top),
/// `0.2 / (dims (values - 1))` between neighbouring levels of skill, and a measured
/// depth with a standard error of about 0.14 at 20 games a rung, as the design
/// problem's on Rinascimento.
pub(crate) struct SyntheticDesign {
    space: Space,
    games: usize,
    top: f64,
}

impl SyntheticDesign {
    pub(super) fn new(dims: usize, values: usize, games: usize) -> SyntheticDesign {
        SyntheticDesign {
            space: int_space("synthetic-design", dims, values as i64),
            games,
            top: (dims * (values - 1)) as f64,
        }
    }

    fn skill(&self, x: &[f64]) -> f64 {
        x.iter().sum::<f64>() / self.top
    }
}

impl Problem for SyntheticDesign {
    fn space(&self) -> &Space {
        &self.space
    }

    fn feature_names(&self) -> Vec<String> {
        ["win_rate_0_weak", "win_rate_1_middle", "win_rate_2_strong"]
            .map(String::from)
            .to_vec()
    }

    fn fitness_name(&self) -> &str {
        "skill depth"
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let s = self.skill(x);
        let rate = |rung: u64, p: f64| {
            let mut rng = item_rng(seed, &[rung]);
            let won = (0..self.games).filter(|_| rng.random::<f64>() < p).count();
            won as f64 / self.games as f64
        };
        let (w0, w1, w2) = (0.5, rate(1, 0.55 + 0.2 * s), rate(2, 0.55 + 0.4 * s));
        Ok(Evaluation {
            fitness: (w1 - w0).min(w2 - w1),
            features: vec![w0, w1, w2],
        })
    }

    /// The rules at their lowest levels (the space's default): skill depth 0.
    fn baseline(&self) -> Option<Baseline> {
        Some(Baseline {
            label: "the default rules".into(),
            settings: self
                .space
                .render(&self.space.decode(&self.space.default_indices())),
        })
    }

    fn verdict_margin(&self) -> Option<f64> {
        Some(crate::eval::RATE_MARGIN)
    }

    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, EvalError> {
        self.evaluate(&self.space.decode(&self.space.default_indices()), seed)
    }

    fn true_fitness(&self, x: &[f64]) -> Option<f64> {
        Some(0.2 * self.skill(x))
    }

    fn is_optimal(&self, x: &[f64]) -> Option<bool> {
        Some(x.iter().sum::<f64>() == self.top)
    }
}

/// Problem `synthetic-design`: a design benchmark with a known best rule set.
pub const SYNTHETIC_DESIGN: ProblemDef = ProblemDef {
    name: "synthetic-design",
    about: "a design benchmark with a known best rule set: skill depth of a 3-rung ladder whose win rates follow the rules, each rung a count of won games; optimum every rule at its top",
    settings: &[
        ("dims", "4", "rules"),
        ("values", "4", "levels per rule, at least 2"),
        ("games", "20", "games a rung at every evaluation"),
    ],
    build: |v, _| {
        let values = v.count("values")?;
        if values < 2 {
            return Err(v.bad("values", "at least 2 levels per rule").into());
        }
        Ok(Box::new(SyntheticDesign::new(
            v.count_in("dims", 64)?,
            values,
            v.count("games")?,
        )))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_measured_depth_centres_on_the_known_one() {
        let p = SyntheticDesign::new(4, 4, 20);
        for x in [[3.0; 4], [0.0, 1.0, 2.0, 3.0], [0.0; 4]] {
            let truth = p.true_fitness(&x).unwrap();
            let s = crate::stats::Summary::of(
                &(0..2000)
                    .map(|seed| p.evaluate(&x, seed).unwrap().fitness)
                    .collect::<Vec<_>>(),
            );
            // The minimum of two noisy gaps lies below the smaller true gap: by at
            // most 0.1 here, and the spread is that of 20 games a rung (a gap's sd
            // 0.1 to 0.14, the minimum's less).
            assert!(
                s.mean <= truth + 0.01 && s.mean > truth - 0.1,
                "{x:?}: {} against {truth}",
                s.mean
            );
            assert!(s.sd() > 0.05 && s.sd() < 0.16, "sd {}", s.sd());
        }
        assert_eq!(p.is_optimal(&[3.0; 4]), Some(true));
        assert_eq!(
            p.evaluate(&[1.0; 4], 5).unwrap(),
            p.evaluate(&[1.0; 4], 5).unwrap()
        );
    }
}
