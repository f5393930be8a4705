//! Optimiser speed on free fitness functions, so the optimiser's own work is measured.
//!
//! - `ntbea/d20_b500_1+2+N`: one NTBEA run at D = 20, budget 500, tuples 1+2+N
//!   (211 tuples), 50 neighbours; the fitness is the noise-free OneMax count. The
//!   baseline in the same process is random search at the same budget, whose cost is
//!   asking and telling alone.
//! - `ntbea/defaults_d20_b500` and `ntbea/reference_settings_d20_b500`: one NTBEA run on
//!   noisy OneMax (D = 20, sigma 1, budget 500) as `playtune optimize` makes it, with
//!   the recommendation taken 20 times for the convergence curve: at the defaults
//!   (auto tuples, the neighbourhood recommendation) and at the Java reference's
//!   settings (1+2+N, k 5 absolute, epsilon 0.5, 50 neighbours, the best evaluated
//!   point). Their ratio is what the defaults cost over the reference's settings. The
//!   `_no_checkpoints` variants take the recommendation once, at the end, as the
//!   reference does: NTBEA's own cost.
//! - `map_elites/sphere_d100_100k`: 100,000 evaluations of MAP-Elites on pyribs' sphere
//!   benchmark (100 dimensions, 100 x 100 grid, batch 36, Gaussian sigma 0.5),
//!   evaluated sequentially in-process. `benches/compare_pyribs.sh` runs pyribs on the
//!   same domain in the same script for the ratio.

use criterion::{Criterion, criterion_group, criterion_main};
use playtune::eval::{Evaluation, NoisyOneMax, Problem, Sphere};
use playtune::optim::Optimizer;
use playtune::optim::map_elites::{MapElitesConfig, Mutation, Scheduler};
use playtune::optim::ntbea::{Ntbea, NtbeaConfig, TupleSet};
use playtune::optim::random::{RandomConfig, RandomSearch};
use std::hint::black_box;

fn drive(opt: &mut dyn Optimizer, problem: &dyn Problem) -> f64 {
    let mut evals = Vec::new();
    loop {
        let batch = opt.ask();
        if batch.is_empty() {
            break;
        }
        evals.clear();
        evals.extend(batch.iter().map(|c| {
            Some(Evaluation::fitness(
                problem.true_fitness(&c.values).unwrap(),
            ))
        }));
        opt.tell(&batch, &evals);
    }
    opt.recommend().estimate
}

/// [`drive`] on seeded (noisy) evaluations, with the recommendation taken every 25
/// evaluations (a 500-evaluation run's 20 checkpoints, as its convergence curve takes
/// it) when `checkpoints`, and once at the end.
fn drive_with_checkpoints(
    opt: &mut dyn Optimizer,
    problem: &dyn Problem,
    seed: u64,
    checkpoints: bool,
) -> f64 {
    let (mut evals, mut done, mut sum) = (Vec::new(), 0u64, 0.0);
    loop {
        let batch = opt.ask();
        if batch.is_empty() {
            break;
        }
        evals.clear();
        evals.extend(batch.iter().enumerate().map(|(i, c)| {
            problem
                .evaluate(&c.values, seed ^ ((done + i as u64) << 20))
                .ok()
        }));
        opt.tell(&batch, &evals);
        done += batch.len() as u64;
        if checkpoints && done % 25 == 0 {
            sum += opt.recommend().estimate;
        }
    }
    sum + opt.recommend().estimate
}

fn ntbea(c: &mut Criterion) {
    let noisy = NoisyOneMax::new(20, 1.0);
    let reference = NtbeaConfig {
        tuples: TupleSet::parse("1+2+N").unwrap(),
        k: 5.0,
        k_relative: false,
        epsilon: 0.5,
        neighbours: 50,
        recommend: playtune::optim::ntbea::RecommendFrom::Evaluated,
        ..Default::default()
    };
    let mut seed = 0;
    for (name, config, checkpoints) in [
        ("ntbea/defaults_d20_b500", NtbeaConfig::default(), true),
        ("ntbea/reference_settings_d20_b500", reference.clone(), true),
        (
            "ntbea/defaults_d20_b500_no_checkpoints",
            NtbeaConfig::default(),
            false,
        ),
        (
            "ntbea/reference_settings_d20_b500_no_checkpoints",
            reference,
            false,
        ),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut opt = Ntbea::new(config.clone(), noisy.space().clone(), 500, seed).unwrap();
                black_box(drive_with_checkpoints(&mut opt, &noisy, seed, checkpoints))
            })
        });
    }
    let problem = NoisyOneMax::new(20, 0.0);
    let space = problem.space().clone();
    let config = NtbeaConfig {
        tuples: TupleSet::parse("1+2+N").unwrap(),
        neighbours: 50,
        ..Default::default()
    };
    let mut seed = 0;
    c.bench_function("ntbea/d20_b500_1+2+N", |b| {
        b.iter(|| {
            seed += 1;
            let mut opt = Ntbea::new(config.clone(), space.clone(), 500, seed).unwrap();
            black_box(drive(&mut opt, &problem))
        })
    });
    c.bench_function("baseline/random_search_d20_b500", |b| {
        b.iter(|| {
            seed += 1;
            let mut opt = RandomSearch::new(RandomConfig { batch: 1 }, space.clone(), 500, seed);
            black_box(drive(&mut opt, &problem))
        })
    });
}

fn map_elites(c: &mut Criterion) {
    let problem = Sphere::new(100);
    let space = problem.space().clone();
    let config = MapElitesConfig {
        mutation: Mutation::Gaussian { sigma: 0.5 },
        batch: 36,
        ..Default::default()
    };
    let mut group = c.benchmark_group("map_elites");
    group.sample_size(10);
    let mut seed = 0;
    group.bench_function("sphere_d100_100k", |b| {
        b.iter(|| {
            seed += 1;
            let mut opt = Scheduler::new(
                config.clone(),
                space.clone(),
                100_000,
                seed,
                &problem.feature_names(),
                &problem.default_axes(),
            )
            .unwrap();
            let mut evals = Vec::new();
            loop {
                let batch = opt.ask();
                if batch.is_empty() {
                    break;
                }
                evals.clear();
                evals.extend(batch.iter().map(|c| problem.evaluate(&c.values, 0).ok()));
                opt.tell(&batch, &evals);
            }
            black_box(opt.metrics_history().last().map(|m| m.coverage))
        })
    });
    group.finish();
}

criterion_group!(benches, ntbea, map_elites);
criterion_main!(benches);
