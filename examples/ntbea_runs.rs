//! NTBEA runs timed in one process, as `benches/java/NtbeaBench.java` times the Java
//! reference's: `benches/compare_java_ntbea.sh` runs both in one sitting to compare
//! NTBEA's own cost, without process start and without the convergence curve a
//! playtune run also records (20 recommendations a run, which the reference does not
//! take).
//!
//! ```sh
//! cargo run --release --example ntbea_runs -- DIMS BUDGET RUNS SEED defaults|reference
//! ```
//!
//! Noisy OneMax (sigma 1), each run seeded from (SEED, run), each evaluation from
//! (run seed, index); `reference` is the Java reference's settings as the script passes
//! them to the command line (1+2+N tuples, k 5 absolute, epsilon 0.5, 50 neighbours,
//! mutation 2, the best evaluated point). Prints one JSON line: the mean milliseconds
//! a run, the share of runs whose recommendation is all ones, the mean true fitness
//! of the recommendations.

use playtune::eval::NoisyOneMax;
use playtune::optim::Optimizer;
use playtune::optim::ntbea::{Ntbea, NtbeaConfig, RecommendFrom, TupleSet};
use playtune::rng::derive_seed;
use playtune::{Evaluation, Problem};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ntbea_runs DIMS BUDGET RUNS SEED defaults|reference";
    let number = |i: usize| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
            eprintln!("{usage}");
            std::process::exit(2)
        })
    };
    let (dims, budget, runs, seed) = (number(0), number(1), number(2), number(3));
    let config = match args.get(4).map(String::as_str) {
        Some("defaults") => NtbeaConfig::default(),
        Some("reference") => NtbeaConfig {
            tuples: TupleSet::parse("1+2+N").expect("a valid tuple set"),
            k: 5.0,
            k_relative: false,
            epsilon: 0.5,
            neighbours: 50,
            mutation: 2.0,
            recommend: RecommendFrom::Evaluated,
            ..NtbeaConfig::default()
        },
        _ => {
            eprintln!("{usage}");
            std::process::exit(2)
        }
    };
    let problem = NoisyOneMax::new(dims as usize, 1.0);
    let (mut optimal, mut fitness) = (0u64, 0.0);
    let started = Instant::now();
    for run in 0..runs {
        let run_seed = derive_seed(seed, &[run]);
        let mut ntbea = match Ntbea::new(config.clone(), problem.space().clone(), budget, run_seed)
        {
            Ok(n) => n,
            Err(e) => {
                eprintln!("ntbea_runs: {e}");
                std::process::exit(2)
            }
        };
        let mut index = 0u64;
        loop {
            let asked = ntbea.ask();
            if asked.is_empty() {
                break;
            }
            let results: Vec<Option<Evaluation>> = asked
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    problem
                        .evaluate(&c.values, derive_seed(run_seed, &[index + i as u64]))
                        .ok()
                })
                .collect();
            index += asked.len() as u64;
            ntbea.tell(&asked, &results);
        }
        let best = ntbea.recommend().values;
        let truth = problem.true_fitness(&best).unwrap_or(f64::NAN);
        optimal += u64::from(truth == dims as f64);
        fitness += truth;
    }
    let ms = started.elapsed().as_secs_f64() * 1000.0 / runs.max(1) as f64;
    println!(
        "{{\"mean_ms\": {ms:.4}, \"success_share\": {:.4}, \"mean_true_fitness\": {:.4}}}",
        optimal as f64 / runs.max(1) as f64,
        fitness / runs.max(1) as f64
    );
}
