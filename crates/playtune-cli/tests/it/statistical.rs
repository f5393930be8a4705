//! Statistical acceptance tests: each optimiser over 100 fixed seeds (trials) on the
//! noisy benchmarks of docs/optimizers.md, with margins that a correct implementation
//! passes and a broken one (no model, wrong acceptance, no exploration) fails.

use playtune::eval::{EvalError, Evaluation, Problem};
use playtune::optim::AlgoConfig;
use playtune::optim::Optimizer;
use playtune::optim::brmhc::{Brmhc, BrmhcConfig};
use playtune::optim::map_elites::MapElitesConfig;
use playtune::optim::ntbea::{NtbeaConfig, TupleSet};
use playtune::optim::rmhc::RmhcConfig;
use playtune::registry::build_problem;
use playtune::run::{ProblemSpec, RunConfig, RunResult, execute};
use playtune::space::{Dimension, Domain, Space};

fn run(
    problem: &str,
    settings: &[(&str, &str)],
    algorithm: AlgoConfig,
    budget: u64,
    trials: u64,
) -> RunResult {
    let spec = ProblemSpec {
        name: problem.into(),
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    };
    let p = build_problem(&spec, None).unwrap();
    let config = RunConfig {
        playtune_version: "test".into(),
        problem: spec,
        space: p.space().clone(),
        space_file: None,
        algorithm,
        budget,
        trials,
        seed: 2026,
        log: false,
        faults: Default::default(),
        race: None,
        intensify: None,
        verdict: None,
        game: None,
    };
    execute(None, &config, p.as_ref(), None).unwrap()
}

/// NTBEA with the paper's settings but for tuples and k (the reference comparisons
/// below are stated in those terms, so they must not move with the defaults).
fn ntbea(tuples: &str, k: f64, relative: bool) -> AlgoConfig {
    AlgoConfig::Ntbea(NtbeaConfig {
        tuples: TupleSet::parse(tuples).unwrap(),
        k,
        k_relative: relative,
        ..NtbeaConfig::paper()
    })
}

fn success(r: &RunResult) -> f64 {
    r.success_rate.unwrap()
}

#[test]
fn ntbea_solves_noisy_onemax_where_rmhc_does_not() {
    let onemax = [("dims", "10"), ("sigma", "1")];
    // The reference Java NTBEA: 100% at k = 5 with 1+2+N tuples.
    let reference = run(
        "noisy-onemax",
        &onemax,
        ntbea("1+2+N", 5.0, false),
        200,
        100,
    );
    assert!(
        success(&reference) >= 0.9,
        "NTBEA k=5: {}",
        success(&reference)
    );
    // The default, range-relative k.
    let default = run("noisy-onemax", &onemax, ntbea("1+2+N", 0.5, true), 200, 100);
    assert!(
        success(&default) >= 0.9,
        "NTBEA relative k: {}",
        success(&default)
    );
    // The reference RMHC reaches 4% (r = 1) to 21% (r = 5).
    let rmhc = run(
        "noisy-onemax",
        &onemax,
        AlgoConfig::Rmhc(RmhcConfig { resample: 1 }),
        200,
        100,
    );
    assert!(success(&rmhc) <= 0.4, "RMHC: {}", success(&rmhc));
    assert!(success(&default) - success(&rmhc) >= 0.5);
    // Without exploration NTBEA stalls: the margin above is not free.
    let greedy = run(
        "noisy-onemax",
        &onemax,
        ntbea("1+2+N", 0.0, false),
        200,
        100,
    );
    assert!(
        success(&greedy) < success(&default) - 0.2,
        "k = 0: {}",
        success(&greedy)
    );
}

#[test]
fn ntbea_escapes_the_noisy_trap() {
    let trap = [("dims", "5"), ("values", "4"), ("sigma", "1")];
    let r = run("noisy-trap", &trap, ntbea("1+2+N", 0.5, true), 300, 100);
    assert!(success(&r) >= 0.9, "NTBEA on the trap: {}", success(&r));
    let k5 = run("noisy-trap", &trap, ntbea("1+2+N", 5.0, false), 300, 100);
    assert!(
        success(&k5) >= 0.9,
        "NTBEA k=5 on the trap: {}",
        success(&k5)
    );
    // The reference RMHC with r = 3: 61%.
    let rmhc = run(
        "noisy-trap",
        &trap,
        AlgoConfig::Rmhc(RmhcConfig { resample: 3 }),
        300,
        100,
    );
    assert!(
        success(&rmhc) < success(&r),
        "RMHC r=3 {} vs NTBEA {}",
        success(&rmhc),
        success(&r)
    );
}

#[test]
fn onemax_with_fewer_tuples_or_budget_matches_the_reference_ordering() {
    let onemax = [("dims", "10"), ("sigma", "1")];
    // Reference at budget 100, k = 5: 97% with 1+2+N, 45% with 1+N.
    let full = run(
        "noisy-onemax",
        &onemax,
        ntbea("1+2+N", 5.0, false),
        100,
        100,
    );
    let one_n = run("noisy-onemax", &onemax, ntbea("1+N", 5.0, false), 100, 100);
    assert!(
        success(&full) >= 0.8,
        "1+2+N at budget 100: {}",
        success(&full)
    );
    assert!(
        success(&one_n) <= success(&full) - 0.2,
        "1+N {} vs 1+2+N {}",
        success(&one_n),
        success(&full)
    );
}

#[test]
fn multi_run_ntbea_with_selection_still_finds_the_optimum() {
    let onemax = [("dims", "10"), ("sigma", "1")];
    let cfg = NtbeaConfig {
        tuples: TupleSet::parse("1+2+N").unwrap(),
        runs: 2,
        selection_budget: 40,
        ..NtbeaConfig::paper()
    };
    let r = run("noisy-onemax", &onemax, AlgoConfig::Ntbea(cfg), 400, 100);
    assert!(success(&r) >= 0.85, "2 runs + selection: {}", success(&r));
    assert!(
        r.trials
            .iter()
            .all(|t| t.spent.select == 40 && t.spent.search == 360)
    );
}

#[test]
fn rmhc_and_brmhc_climb_onemax() {
    // A hill climber must improve on the random start (5 of 10 ones on average).
    let onemax = [("dims", "10"), ("sigma", "0.5")];
    let rmhc = run(
        "noisy-onemax",
        &onemax,
        AlgoConfig::Rmhc(RmhcConfig { resample: 1 }),
        200,
        100,
    );
    assert!(
        rmhc.final_value.mean >= 8.0,
        "RMHC mean true fitness {}",
        rmhc.final_value.mean
    );
    let cfg = BrmhcConfig {
        free_preprocessing: true,
        ..Default::default()
    };
    let brmhc = run("noisy-onemax", &onemax, AlgoConfig::Brmhc(cfg), 200, 100);
    assert!(
        brmhc.final_value.mean >= 8.0,
        "B-RMHC mean true fitness {}",
        brmhc.final_value.mean
    );
    assert!(
        brmhc
            .trials
            .iter()
            .all(|t| t.spent.preprocess == 20 && t.spent.search == 200)
    );
}

/// x0 moves fitness ten times as much as any other dimension; x4..x5 are layout cells
/// of which only x4 matters.
struct Skewed(Space);

impl Problem for Skewed {
    fn space(&self) -> &Space {
        &self.0
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let noise = ((seed % 1000) as f64 / 1000.0 - 0.5) * 0.2;
        Ok(Evaluation::fitness(
            10.0 * x[0] + x[1] + x[2] + x[3] + 5.0 * x[4] + noise,
        ))
    }
}

#[test]
fn brmhc_preprocessing_finds_the_important_dimensions() {
    let dims = (0..6)
        .map(|i| Dimension {
            name: format!("x{i}"),
            domain: if i < 4 {
                Domain::Int {
                    min: 0,
                    max: 3,
                    step: 1,
                }
            } else {
                Domain::Bool
            },
            default: 0,
            fixed: false,
        })
        .collect();
    let space = Space {
        name: "skewed".into(),
        dims,
        groups: vec![playtune::space::Group {
            name: "cells".into(),
            dims: vec!["x4".into(), "x5".into()],
        }],
        constraints: Vec::new(),
    };
    let problem = Skewed(space.clone());
    let mut top = 0;
    for seed in 0..100 {
        let mut b = Brmhc::new(BrmhcConfig::default(), space.clone(), 40, seed).unwrap();
        let batch = b.ask();
        assert_eq!(
            batch.len(),
            4 * 4 + 3,
            "four sweeps of four values, base + two cells"
        );
        let evals: Vec<Option<Evaluation>> = batch
            .iter()
            .enumerate()
            .map(|(i, c)| problem.evaluate(&c.values, seed * 100 + i as u64).ok())
            .collect();
        b.tell(&batch, &evals);
        let imp = b.importance();
        assert!(imp[4] > imp[5], "only cell x4 matters: {imp:?}");
        if imp[0] > imp[1].max(imp[2]).max(imp[3]).max(imp[4]) {
            top += 1;
        }
    }
    assert!(top >= 95, "x0 ranked most important in {top}/100 seeds");
}

#[test]
fn map_elites_matches_pyribs_coverage_on_the_sphere() {
    // pyribs 0.12, same domain, 100,000 evaluations, batch 36: coverage about 20.6%.
    let cfg = MapElitesConfig {
        mutation: playtune::optim::map_elites::Mutation::Gaussian { sigma: 0.5 },
        ..Default::default()
    };
    let r = run(
        "sphere",
        &[("dims", "100")],
        AlgoConfig::MapElites(cfg),
        100_000,
        2,
    );
    for t in &r.trials {
        let m = t.history.last().unwrap();
        assert!(m.coverage >= 0.19, "coverage {}", m.coverage);
        assert!(m.qd_score >= 150_000.0, "QD score {}", m.qd_score);
        assert!(
            t.history
                .windows(2)
                .all(|w| w[1].coverage >= w[0].coverage && w[1].qd_score >= w[0].qd_score - 1e-6)
        );
    }
}

/// Iso+line against Gaussian mutation (same isotropic sigma 0.5) on the 20-dimensional
/// sphere at 5,000 evaluations, 8 trials each. Measured from the command line with
/// seed 1: iso-line's mean QD score about 123,000 against Gaussian's 93,000 (1.3x);
/// this test's own trials pass both checks. An iso-line without its line term is Gaussian mutation and fails the 1.15
/// margin on the mean; the paired check catches a line term that helps only on average.
#[test]
fn iso_line_beats_gaussian_mutation_on_the_sphere() {
    use playtune::optim::map_elites::Mutation;
    let qd = |mutation: Mutation| -> Vec<f64> {
        let cfg = MapElitesConfig {
            mutation,
            ..Default::default()
        };
        let r = run(
            "sphere",
            &[("dims", "20")],
            AlgoConfig::MapElites(cfg),
            5000,
            8,
        );
        r.trials
            .iter()
            .map(|t| t.history.last().unwrap().qd_score)
            .collect()
    };
    let gauss = qd(Mutation::Gaussian { sigma: 0.5 });
    let iso = qd(Mutation::IsoLine {
        sigma_iso: 0.5,
        sigma_line: 0.2,
    });
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(
        mean(&iso) >= 1.15 * mean(&gauss),
        "iso-line {iso:?} against Gaussian {gauss:?}"
    );
    let wins = iso.iter().zip(&gauss).filter(|(i, g)| i > g).count();
    assert!(
        wins >= 7,
        "iso-line won {wins} of 8 trials: {iso:?} against {gauss:?}"
    );
}

/// The defaults' acceptance figures, 100 trials each. Aims: at least 98% on noisy
/// OneMax D = 10 (budget 200), 95% on the noisy trap with 6 dimensions of 3 values and
/// sigma 2 (budget 400), 50% on noisy OneMax D = 20 (budget 500). Margins: about two
/// binomial standard errors below each aim (sqrt(p(1-p)/100): 1.4, 2.2 and 5 points).
/// The paper's settings (the old defaults) reach 38%, 42% and 1% here.
/// Success rates on the three acceptance benchmarks: noisy OneMax D = 10 (sigma 1,
/// budget 200), the trap 6 x 3 (sigma 2, budget 400), noisy OneMax D = 20 (budget 500).
fn acceptance(config: NtbeaConfig) -> [f64; 3] {
    let algo = || AlgoConfig::Ntbea(config.clone());
    [
        (vec![("dims", "10"), ("sigma", "1")], "noisy-onemax", 200),
        (
            vec![("dims", "6"), ("values", "3"), ("sigma", "2")],
            "noisy-trap",
            400,
        ),
        (vec![("dims", "20"), ("sigma", "1")], "noisy-onemax", 500),
    ]
    .map(|(settings, problem, budget)| success(&run(problem, &settings, algo(), budget, 100)))
}

#[test]
fn default_ntbea_meets_its_acceptance_figures() {
    let [d10, trap, d20] = acceptance(NtbeaConfig::default());
    assert!(d10 >= 0.96, "D=10: {d10}");
    assert!(trap >= 0.91, "trap 6x3: {trap}");
    assert!(d20 >= 0.40, "D=20: {d20}");
}

#[test]
fn default_ntbea_does_not_care_about_the_fitness_scale() {
    // The same seeds with every fitness multiplied by 0.01 or 100 must succeed as
    // often: the exploration constant is relative to the fitness scale.
    let defaults = || AlgoConfig::Ntbea(NtbeaConfig::default());
    for (problem, dims, budget) in [("noisy-onemax", "10", 200), ("noisy-trap", "5", 300)] {
        let rate = |scale: &str| {
            success(&run(
                problem,
                &[("dims", dims), ("sigma", "1"), ("scale", scale)],
                defaults(),
                budget,
                100,
            ))
        };
        let base = rate("1");
        for scale in ["0.01", "100"] {
            let scaled = rate(scale);
            assert!(
                (scaled - base).abs() <= 0.02,
                "{problem} x{scale}: {scaled} vs {base}"
            );
        }
    }
}

/// The suite NTBEA's defaults were chosen on (`playtune experiment ntbea-defaults`):
/// the defaults must beat the paper's settings on it by a wide margin, and on every
/// benchmark be no worse than the paper's by more than noise (40 runs: a success rate's
/// standard error is up to 0.08).
#[test]
fn default_ntbea_beats_the_paper_settings_on_the_benchmark_suite() {
    use playtune::optim::ntbea::suite::{case_scores, standard_suite};
    let suite = standard_suite();
    let runs = 40;
    let defaults = case_scores(&suite, &NtbeaConfig::default(), runs, 2026).unwrap();
    let paper = case_scores(&suite, &NtbeaConfig::paper(), runs, 2026).unwrap();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    // Published (400 runs a benchmark): defaults 0.758, paper 0.351.
    assert!(mean(&defaults) >= 0.68, "defaults' mean score {defaults:?}");
    assert!(
        mean(&defaults) >= mean(&paper) + 0.3,
        "defaults {defaults:?} vs paper {paper:?}"
    );
    for (i, case) in suite.iter().enumerate() {
        assert!(
            defaults[i] >= paper[i] - 0.15,
            "{}: defaults {} vs paper {}",
            case.name,
            defaults[i],
            paper[i]
        );
    }
}

/// Batch NTBEA (q = 4 walkers over one model) at equal evaluations: the acceptance
/// figures of sequential NTBEA hold (benches/ntbea_batch.sh measured, over 200 trials:
/// OneMax D=10 100%, trap 99%, OneMax D=20 95.5% against 88% sequential).
#[test]
fn batch_ntbea_keeps_the_acceptance_figures_at_equal_evaluations() {
    let [d10, trap, d20] = acceptance(NtbeaConfig {
        batch: 4,
        ..NtbeaConfig::default()
    });
    assert!(d10 >= 0.96, "D=10: {d10}");
    assert!(trap >= 0.91, "trap 6x3: {trap}");
    assert!(d20 >= 0.85, "D=20: {d20}");
}

/// Racing before recommending, on the synthetic design benchmark (skill depth of a
/// ladder whose rates follow the rules, 20 games a rung: the noise of the design
/// problem), 30 seeds at 600 evaluations. Random search and RMHC recommend a lucky
/// single evaluation without a race; with a quarter of the budget raced, their answer
/// is within two levels of skill of the best rule set (depth at least 0.167 of 0.2)
/// far more often (measured 2026-11-26 with the command line's seed 1: random 47% to
/// 83%, RMHC 10% to 100%). NTBEA's model recommendation is kept unless beaten with
/// confidence, so a race costs it only search budget: within one level nearly always.
#[test]
fn racing_recommends_better_rules_than_the_luckiest_evaluation() {
    use playtune::optim::race::RaceConfig;
    use playtune::optim::random::RandomConfig;
    let spec = ProblemSpec {
        name: "synthetic-design".into(),
        settings: Default::default(),
    };
    let p = build_problem(&spec, None).unwrap();
    let near = |race: Option<RaceConfig>, algorithm: AlgoConfig, levels: f64| -> f64 {
        let config = RunConfig {
            playtune_version: "test".into(),
            problem: spec.clone(),
            space: p.space().clone(),
            space_file: None,
            algorithm,
            budget: 600,
            trials: 30,
            seed: 41,
            log: false,
            faults: Default::default(),
            race,
            intensify: None,
            verdict: None,
            game: None,
        };
        let r = execute(None, &config, p.as_ref(), None).unwrap();
        let near = r
            .trials
            .iter()
            .filter(|t| t.true_fitness.unwrap() >= 0.2 - levels * 0.2 / 12.0 - 1e-9)
            .count();
        near as f64 / 30.0
    };
    let race = || Some(RaceConfig::default());
    let random = || AlgoConfig::Random(RandomConfig { batch: 32 });
    let rmhc = || AlgoConfig::Rmhc(RmhcConfig { resample: 1 });
    let (plain, raced) = (near(None, random(), 2.0), near(race(), random(), 2.0));
    assert!(
        plain <= 0.65 && raced >= 0.7,
        "random search: {plain} without a race, {raced} with"
    );
    let (plain, raced) = (near(None, rmhc(), 2.0), near(race(), rmhc(), 2.0));
    assert!(
        plain <= 0.3 && raced >= 0.8,
        "RMHC: {plain} without a race, {raced} with"
    );
    let ntbea = near(race(), AlgoConfig::Ntbea(NtbeaConfig::default()), 1.0);
    assert!(ntbea >= 0.85, "NTBEA raced: {ntbea} within one level");
}

/// A design problem whose own rules are its best: 4 rules of 4 levels, true depth
/// `0.2 × mean level / 3`, each evaluation with Gaussian noise of sd 0.14 (the
/// synthetic design benchmark's at 20 games a rung), the baseline every rule at its
/// top, as 2-player Splendor is near the top of Rinascimento's design space.
struct BestBaseline(Space);

impl BestBaseline {
    fn new() -> BestBaseline {
        let dims = (0..4)
            .map(|i| Dimension {
                name: format!("x{i}"),
                domain: Domain::Int {
                    min: 0,
                    max: 3,
                    step: 1,
                },
                default: 0,
                fixed: false,
            })
            .collect();
        BestBaseline(Space {
            name: "best-baseline".into(),
            dims,
            groups: Vec::new(),
            constraints: Vec::new(),
        })
    }
}

impl Problem for BestBaseline {
    fn space(&self) -> &Space {
        &self.0
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        use rand_distr::{Distribution, Normal};
        let mut rng = playtune::rng::rng_from_seed(seed);
        let noise: f64 = Normal::new(0.0, 0.14).unwrap().sample(&mut rng);
        Ok(Evaluation::fitness(
            0.2 * x.iter().sum::<f64>() / 12.0 + noise,
        ))
    }
    fn baseline(&self) -> Option<playtune::eval::Baseline> {
        Some(playtune::eval::Baseline {
            label: "the top rules".into(),
            settings: (0..4).map(|i| (format!("x{i}"), "3".to_string())).collect(),
        })
    }
    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, EvalError> {
        self.evaluate(&[3.0; 4], seed)
    }
}

/// Racing the problem's baseline: where the game's own rules are its best, random
/// search at 80 evaluations (60 searched, a race of 4 rounds of 5) recommends them far
/// more often with the baseline an entrant than without it, where it must draw them
/// (1 in 256) and measure them best; as an incumbent, nearly always. 30 trials each
/// (measured: 2, 30 and 30 of 30).
#[test]
fn racing_the_baseline_keeps_the_best_rules_when_they_are_the_games_own() {
    use playtune::optim::race::{RaceBaseline, RaceConfig};
    use playtune::optim::random::RandomConfig;
    let problem = BestBaseline::new();
    let kept = |baseline: RaceBaseline| -> usize {
        let config = RunConfig {
            playtune_version: "test".into(),
            problem: ProblemSpec {
                name: "best-baseline".into(),
                settings: Default::default(),
            },
            space: problem.space().clone(),
            space_file: None,
            algorithm: AlgoConfig::Random(RandomConfig { batch: 20 }),
            budget: 80,
            trials: 30,
            seed: 5,
            log: false,
            faults: Default::default(),
            race: Some(RaceConfig {
                baseline,
                ..RaceConfig::default()
            }),
            intensify: None,
            verdict: None,
            game: None,
        };
        let r = execute(None, &config, &problem, None).unwrap();
        r.trials.iter().filter(|t| t.values == [3.0; 4]).count()
    };
    let (none, entrant, incumbent) = (
        kept(RaceBaseline::Absent),
        kept(RaceBaseline::Entrant),
        kept(RaceBaseline::Incumbent),
    );
    assert!(none <= 3, "without the baseline: {none} of 30");
    assert!(entrant >= 20, "the baseline an entrant: {entrant} of 30");
    assert!(
        incumbent >= 25,
        "the baseline an incumbent: {incumbent} of 30"
    );
}
