use super::*;
use crate::optim::AlgoConfig;
use crate::rng::{derive_seed, rng_from_seed};
use rand_distr::{Distribution, Normal};

/// A noisy problem over rules of 5 levels: the true fitness is the rules' mean level
/// (0 to 1); an evaluation adds noise shared by every point on the same seed
/// (`shared`) and noise of its own (`own`), as games on the same deals do.
struct Noisy {
    shared: f64,
    own: f64,
}

impl Noisy {
    fn truth(x: &[f64]) -> f64 {
        x.iter().sum::<f64>() / (4.0 * x.len() as f64)
    }

    fn evaluate(&self, x: &[f64], seed: u64) -> Evaluation {
        let common = Normal::new(0.0, self.shared)
            .unwrap()
            .sample(&mut rng_from_seed(seed));
        let bits: Vec<u64> = x.iter().map(|v| v.to_bits()).collect();
        let own = Normal::new(0.0, self.own)
            .unwrap()
            .sample(&mut rng_from_seed(derive_seed(seed, &bits)));
        Evaluation {
            fitness: Noisy::truth(x) + common + own,
            features: vec![x[0]],
        }
    }
}

/// Drives `optimizer` to its end as the run loop does: a common seed `k` is
/// `derive_seed(seed, [u64::MAX, k])`, any other evaluation `i`'s `derive_seed(seed,
/// [i])`. Returns every candidate asked, in order.
fn drive(optimizer: &mut dyn Optimizer, problem: &Noisy, seed: u64) -> Vec<Candidate> {
    let mut asked_all = Vec::new();
    let mut index = 0u64;
    loop {
        let asked = optimizer.ask();
        if asked.is_empty() {
            return asked_all;
        }
        let results: Vec<Option<Evaluation>> = asked
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let s = match c.common {
                    Some(k) => derive_seed(seed, &[u64::MAX, k]),
                    None => derive_seed(seed, &[index + j as u64]),
                };
                Some(problem.evaluate(&c.values, s))
            })
            .collect();
        optimizer.tell(&asked, &results);
        index += asked.len() as u64;
        asked_all.extend(asked);
    }
}

/// 8 rules of 5 levels: 390,625 points, so that random search seldom asks one twice.
fn space() -> crate::space::Space {
    crate::eval::int_space("rules", 8, 5)
}

fn inner(algo: &AlgoConfig, budget: u64, seed: u64) -> Box<dyn Optimizer> {
    algo.build(&space(), budget, seed, &[], &[]).unwrap()
}

fn intensified(
    algo: &AlgoConfig,
    budget: u64,
    seed: u64,
    baseline: Option<Vec<f64>>,
    checks: Vec<Check>,
) -> Intensified {
    Intensified::new(
        inner(algo, budget, seed),
        IntensifyConfig::default(),
        budget,
        checks,
        baseline,
    )
}

/// Over 40 seeds of a noisy problem (noise sd 0.3 an evaluation, a spread of 1 in
/// truth), random search that measures again where a point could beat the best
/// recommends points truly better than random search that keeps its best single
/// evaluation, at the same budget: the plain one's best is mostly its luckiest.
#[test]
fn measuring_again_where_it_decides_finds_truly_better_points_at_equal_budget() {
    let problem = Noisy {
        shared: 0.2,
        own: 0.3,
    };
    let algo = AlgoConfig::Random(Default::default());
    let (mut plain, mut more) = (0.0, 0.0);
    let seeds = 40;
    for seed in 0..seeds {
        let mut p = inner(&algo, 200, seed);
        drive(p.as_mut(), &problem, seed);
        plain += Noisy::truth(&p.recommend().values);
        let mut i = intensified(&algo, 200, seed, None, Vec::new());
        drive(&mut i, &problem, seed);
        more += Noisy::truth(&i.recommend().values);
    }
    let (plain, more) = (plain / seeds as f64, more / seeds as f64);
    assert!(
        more > plain + 0.04,
        "intensified {more:.3} against plain {plain:.3}"
    );
}

/// With little noise and the best point as the baseline, every challenger is worse:
/// each costs one evaluation, and the incumbent gains one a batch up to the most.
#[test]
fn a_worse_challenger_costs_one_evaluation_and_the_incumbent_grows_to_its_cap() {
    let problem = Noisy {
        shared: 0.0,
        own: 0.001,
    };
    let best = vec![4.0; 8];
    let algo = AlgoConfig::Random(Default::default());
    let mut i = intensified(&algo, 60, 3, Some(best.clone()), Vec::new());
    let asked = drive(&mut i, &problem, 3);
    assert_eq!(asked.len(), 60, "the budget is spent, not passed");
    assert!(asked.iter().all(|c| c.common.is_some()));
    let mut counts: HashMap<Vec<u64>, u64> = HashMap::new();
    for c in &asked {
        *counts.entry(key(&c.values)).or_default() += 1;
    }
    assert_eq!(counts[&key(&best)], 8, "the incumbent at its cap");
    for (k, n) in &counts {
        if *k != key(&best) {
            assert_eq!(*n, 1, "a worse challenger measured once");
        }
    }
    assert_eq!(i.recommend().values, best);
    assert_eq!(i.recommend().samples, 8);
    // The baseline was measured on the first common seed, in the first batch.
    let first = asked.iter().position(|c| c.values == best).unwrap();
    assert!(first <= 32, "{first}");
    assert_eq!(asked[first].common, Some(0));
}

/// A better challenger is measured on as many seeds as the incumbent before it takes
/// its place, and the search ends on a better point than the baseline.
#[test]
fn a_better_challenger_takes_the_place_only_at_the_incumbents_count() {
    let problem = Noisy {
        shared: 0.05,
        own: 0.05,
    };
    let weak = vec![0.0; 8];
    let algo = AlgoConfig::Random(Default::default());
    let mut i = intensified(&algo, 200, 5, Some(weak.clone()), Vec::new());
    drive(&mut i, &problem, 5);
    let rec = i.recommend();
    assert!(Noisy::truth(&rec.values) > 0.6, "{:?}", rec.values);
    let inc = &i.points[&key(&rec.values)];
    assert!(
        inc.evals.len() >= 2,
        "an incumbent beyond the first measured on several seeds"
    );
}

/// The optimiser asks the same points when told the same results: resume replays it.
#[test]
fn the_same_results_give_the_same_asks() {
    let problem = Noisy {
        shared: 0.2,
        own: 0.3,
    };
    let algo = AlgoConfig::Ntbea(Default::default());
    let run = || {
        let mut i = intensified(&algo, 120, 9, Some(vec![2.0; 8]), Vec::new());
        let asked = drive(&mut i, &problem, 9);
        (asked, i.recommend())
    };
    assert_eq!(run(), run());
}

/// A feasible incumbent is never replaced by a challenger that breaks the run's
/// constraints, however good its fitness.
#[test]
fn an_infeasible_challenger_never_takes_a_feasible_incumbents_place() {
    let problem = Noisy {
        shared: 0.0,
        own: 0.01,
    };
    // The first rule at most 1: the fitter points break it.
    let checks = Check::resolve(&["x0 <= 1".parse().unwrap()], &["x0".to_string()], |_| {
        Some((0.0, 4.0))
    })
    .unwrap();
    let algo = AlgoConfig::Random(Default::default());
    let mut i = intensified(&algo, 200, 2, Some(vec![0.0; 8]), checks);
    drive(&mut i, &problem, 2);
    let rec = i.recommend().values;
    assert!(rec[0] <= 1.0, "{rec:?}");
    assert!(Noisy::truth(&rec) > 0.3, "a feasible better point: {rec:?}");
}

/// RMHC's parent, asked several times in a batch, gets a seed of its own for each.
#[test]
fn a_point_asked_twice_in_a_batch_is_measured_twice() {
    let algo = AlgoConfig::Rmhc(crate::optim::rmhc::RmhcConfig { resample: 2 });
    let mut i = intensified(&algo, 40, 1, None, Vec::new());
    let first = i.ask();
    let slots: Vec<_> = first.iter().map(|c| (key(&c.values), c.common)).collect();
    let parent = key(&first[0].values);
    assert_eq!(
        slots.iter().filter(|(k, _)| *k == parent).count(),
        2,
        "{slots:?}"
    );
}

#[test]
fn settings_are_checked() {
    assert!(IntensifyConfig::default().check().is_ok());
    let one = IntensifyConfig {
        max_evaluations: 1,
        ..Default::default()
    };
    assert!(one.check().is_err());
    let nan = IntensifyConfig {
        z: f64::NAN,
        ..Default::default()
    };
    assert!(nan.check().is_err());
}

/// NTBEA intensifies by default where a baseline judges the run; the others, and
/// problems without a baseline, do not.
#[test]
fn ntbea_intensifies_by_default_where_a_baseline_judges() {
    let ntbea = AlgoConfig::Ntbea(Default::default());
    assert_eq!(by_default(true, &ntbea), Some(IntensifyConfig::default()));
    assert_eq!(by_default(false, &ntbea), None);
    for other in [
        AlgoConfig::Random(Default::default()),
        AlgoConfig::Rmhc(Default::default()),
        AlgoConfig::Brmhc(Default::default()),
        AlgoConfig::MapElites(Default::default()),
    ] {
        assert_eq!(by_default(true, &other), None, "{other:?}");
    }
}
