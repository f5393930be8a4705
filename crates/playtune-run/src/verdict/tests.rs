//! Tests of the verdict.

use super::*;
use playtune_optim::eval::{Baseline, EvalError, int_space};

/// One dimension `x` in 0..4; fitness `max(x, 1) / 2` (0 and 1 alike) plus unit
/// Gaussian noise drawn from the seed and the point (so that two points on one
/// seed are not identical), and a baseline of its own at `x = 1`.
struct Noisy {
    space: Space,
}

impl Noisy {
    fn new() -> Noisy {
        Noisy {
            space: int_space("noisy", 1, 4),
        }
    }
}

impl Problem for Noisy {
    fn space(&self) -> &Space {
        &self.space
    }
    fn feature_names(&self) -> Vec<String> {
        vec!["x".into()]
    }
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        use rand_distr::{Distribution, StandardNormal};
        let mut rng = playtune_optim::rng::item_rng(seed, &[x[0] as u64]);
        let noise: f64 = StandardNormal.sample(&mut rng);
        Ok(Evaluation {
            fitness: x[0].max(1.0) / 2.0 + noise,
            features: vec![x[0]],
        })
    }
    fn baseline(&self) -> Option<Baseline> {
        Some(Baseline {
            label: "x at 1".into(),
            settings: vec![("x0".into(), "1".into())],
        })
    }
    fn evaluate_baseline(&self, seed: u64) -> Result<Evaluation, EvalError> {
        self.evaluate(&[1.0], seed)
    }
}

/// A fixed-size judge of `problem` with `evaluations` a side and the run seed `seed`.
fn judge_of(problem: &Noisy, seed: u64, evaluations: u32) -> Judge<'_> {
    Judge {
        space: problem.space(),
        problem,
        retries: 0,
        seed,
        evaluations,
        margin: None,
    }
}

/// A judge that plays until it decides, at most `cap` pairs, with margin `margin`
/// (in the noise's standard deviations: the fitness's noise is 1).
fn sequential_judge(problem: &Noisy, seed: u64, cap: u32, margin: f64) -> Judge<'_> {
    Judge {
        margin: Some(margin),
        ..judge_of(problem, seed, cap)
    }
}

/// The outcomes and pairs of sequential verdicts of `x` against `against` over `seeds`
/// run seeds, margin 0.5 (half the noise), cap 400.
fn sequential(x: f64, against: f64, seeds: u64) -> Vec<(Outcome, u32)> {
    let problem = Noisy::new();
    (0..seeds)
        .map(|seed| {
            let v = sequential_judge(&problem, seed, 400, 0.5)
                .judge(&[x], 0, BaselineSource::Point(&[against]), &|| {})
                .unwrap();
            (v.outcome, v.pairs)
        })
        .collect()
}

/// Equal sides (x = 0 and x = 1 score alike) are called equal, and rarely different
/// (1% a side asked: at most 6 of 200); a gain of the margin's double (x = 3 against
/// 1: +1) is called better every time, in fewer pairs; a loss worse. A broken test
/// (no variance, a flipped sign, stopping on the first look) fails one of these.
#[test]
fn a_sequential_verdict_decides_each_way_at_its_error_rates() {
    let same = sequential(0.0, 1.0, 200);
    let called = same
        .iter()
        .filter(|(o, _)| matches!(o, Outcome::Better | Outcome::Worse))
        .count();
    assert!(called <= 6, "{called} of 200 equal pairs called different");
    let equal = same.iter().filter(|(o, _)| *o == Outcome::Equal).count();
    assert!(equal >= 185, "{equal} of 200 equal pairs called equal");
    let gain = sequential(3.0, 1.0, 100);
    assert!(gain.iter().all(|(o, _)| *o == Outcome::Better), "{gain:?}");
    let mean =
        |v: &[(Outcome, u32)]| v.iter().map(|(_, n)| f64::from(*n)).sum::<f64>() / v.len() as f64;
    assert!(mean(&gain) < mean(&same), "{} {}", mean(&gain), mean(&same));
    let loss = sequential(1.0, 3.0, 100);
    assert!(loss.iter().all(|(o, _)| *o == Outcome::Worse));
}

/// Stopped undecided at its cap, a verdict says how many pairs would decide; played
/// on with a larger cap from its log, it is the verdict a larger cap gives at once.
#[test]
fn an_undecided_verdict_says_what_would_decide_and_carries_on() {
    let problem = Noisy::new();
    // A gain of half the margin is the slowest to decide: at 10 pairs, undecided.
    let short = sequential_judge(&problem, 3, 10, 0.5)
        .judge(&[2.0], 0, BaselineSource::Point(&[1.0]), &|| {})
        .unwrap();
    assert_eq!(short.outcome, Outcome::NoBetter);
    let q = short.sequential.as_ref().unwrap();
    assert_eq!(q.cap, 10);
    assert!(q.pairs_to_decide.is_some_and(|n| n > 10), "{q:?}");
    assert!(
        short
            .sentence
            .starts_with("Undecided at the cap of 10 pairs"),
        "{}",
        short.sentence
    );
    assert!(
        short
            .sentence
            .contains("more paired evaluations would decide"),
        "{}",
        short.sentence
    );
    // Carried on through the log, it replays the first pairs and plays the rest.
    let dir = tempfile::tempdir().unwrap();
    let log = VerdictLog::open(dir.path()).unwrap();
    let judge = sequential_judge(&problem, 3, 10, 0.5);
    judge
        .judge_with(&[2.0], 0, BaselineSource::Point(&[1.0]), &|| {}, Some(&log))
        .unwrap();
    let longer = sequential_judge(&problem, 3, 400, 0.5);
    let played = std::sync::atomic::AtomicUsize::new(0);
    let resumed = longer
        .judge_with(
            &[2.0],
            0,
            BaselineSource::Point(&[1.0]),
            &|| {
                played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            },
            Some(&VerdictLog::open(dir.path()).unwrap()),
        )
        .unwrap();
    let at_once = longer
        .judge(&[2.0], 0, BaselineSource::Point(&[1.0]), &|| {})
        .unwrap();
    assert_eq!(resumed, at_once);
    assert_ne!(resumed.outcome, Outcome::NoBetter, "{}", resumed.sentence);
    assert!(resumed.pairs > 10);
}

/// The pair a verdict stops at is the same on 1 thread and on 4.
#[test]
fn a_sequential_verdict_stops_at_the_same_pair_on_any_number_of_threads() {
    let problem = Noisy::new();
    let judge = sequential_judge(&problem, 5, 400, 0.5);
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                judge
                    .judge(&[2.0], 0, BaselineSource::Point(&[1.0]), &|| {})
                    .unwrap()
            })
    };
    assert_eq!(on(1), on(4));
}

fn outcomes(x: f64, against: Option<f64>, n: u32, seeds: u64) -> Vec<Outcome> {
    let problem = Noisy::new();
    (0..seeds)
        .map(|seed| {
            let judge = judge_of(&problem, seed, n);
            let point = against.map(|a| vec![a]);
            let baseline = match &point {
                Some(p) => BaselineSource::Point(p),
                None => BaselineSource::Own,
            };
            judge.judge(&[x], 0, baseline, &|| {}).unwrap().outcome
        })
        .collect()
}

/// Equal true fitness (x = 0 against its own baseline at 1, each evaluation with its
/// own noise): over 200 runs the verdict calls a difference at most 4 times (the
/// 0.01 level expects 2; a test at 0.05, or an unpaired one misread, would call
/// about 10). A true gain of 1 noise sd (x = 3 against 1) over 40 pairs: called
/// "better" in at least 88 of 100 runs (the t-test's power is about 0.96), never
/// "worse".
#[test]
fn the_verdict_calls_differences_that_exist_and_rarely_others() {
    let same = outcomes(0.0, None, 30, 200);
    let called = same.iter().filter(|o| **o != Outcome::NoBetter).count();
    assert!(called <= 4, "{called} of 200 equal pairs called different");
    let gain = outcomes(3.0, Some(1.0), 40, 100);
    let better = gain.iter().filter(|o| **o == Outcome::Better).count();
    assert!(better >= 88, "a true gain called in {better} of 100");
    assert!(!gain.contains(&Outcome::Worse));
    let loss = outcomes(1.0, Some(3.0), 40, 100);
    assert!(!loss.contains(&Outcome::Better));
}

#[test]
fn a_verdict_is_reproducible_and_names_both_sides() {
    let problem = Noisy::new();
    let judge = judge_of(&problem, 7, 12);
    let a = judge.judge(&[3.0], 0, BaselineSource::Own, &|| {}).unwrap();
    assert_eq!(
        a,
        judge.judge(&[3.0], 0, BaselineSource::Own, &|| {}).unwrap()
    );
    assert_eq!(a.pairs, 12);
    assert!(
        a.sequential.is_none(),
        "a judge with no margin plays a fixed size"
    );
    assert_eq!(a.baseline.label, "x at 1");
    assert_eq!(a.recommendation.features[0].mean, 3.0);
    assert_eq!(a.baseline.features[0].mean, 1.0);
    assert!(a.sentence.contains("x at 1"), "{}", a.sentence);
    // Another trial draws other seeds.
    let b = judge.judge(&[3.0], 1, BaselineSource::Own, &|| {}).unwrap();
    assert_ne!(a.recommendation.fitness, b.recommendation.fitness);
}

/// A recommendation that is the baseline (a race kept it) is evaluated once, its
/// evaluations standing for both sides, and the sentence says what it is.
#[test]
fn a_recommendation_that_is_the_baseline_is_played_once() {
    let problem = Noisy::new();
    let judge = judge_of(&problem, 7, 12);
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let count = || {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let v = judge.judge(&[1.0], 0, BaselineSource::Own, &count).unwrap();
    assert!(v.same_point);
    assert_eq!(v.recommendation.fitness, v.baseline.fitness);
    assert_eq!((v.difference, v.outcome), (0.0, Outcome::NoBetter));
    assert_eq!(
        calls.into_inner(),
        24,
        "the progress bar still counts both sides"
    );
    assert!(
        v.sentence
            .starts_with("The recommendation is x at 1: the search measured nothing better"),
        "{}",
        v.sentence
    );
    let other = judge.judge(&[2.0], 0, BaselineSource::Own, &|| {}).unwrap();
    assert!(!other.same_point);
    let named = judge
        .judge(&[2.0], 0, BaselineSource::Point(&[2.0]), &|| {})
        .unwrap();
    assert!(named.same_point);
}

/// The problem's baseline is a point of a search space that holds its values, and
/// of none that leaves one out.
#[test]
fn the_baseline_is_a_point_only_where_the_search_holds_it() {
    let problem = Noisy::new();
    let binding = Binding::new(problem.space(), problem.space()).unwrap();
    let found = playtune_optim::eval::own_baseline_point(&problem, problem.space(), &binding);
    assert_eq!(found, Some(vec![1.0]));
    let mut narrow = problem.space().clone();
    narrow.dims[0].domain = playtune_optim::space::Domain::Int {
        min: 2,
        max: 3,
        step: 1,
    };
    narrow.dims[0].default = 0;
    let binding = Binding::new(&narrow, problem.space()).unwrap();
    assert_eq!(
        playtune_optim::eval::own_baseline_point(&problem, &narrow, &binding),
        None
    );
}

#[test]
fn the_paired_test_matches_a_known_value() {
    // Differences 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5), t = 3 / (sqrt(2.5)/sqrt(5))
    // = 4.2426 on 4 degrees of freedom: two-sided p = 0.01324 (scipy's
    // ttest_1samp).
    let d = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    let p = paired_t_p(&d).unwrap();
    assert!((p - 0.013_24).abs() < 1e-4, "{p}");
    assert_eq!(paired_t_p(&Summary::of(&[0.0, 0.0])), Some(1.0));
    assert_eq!(paired_t_p(&Summary::of(&[1.0])), None);
}

#[test]
fn default_evaluations_are_a_share_of_the_budget() {
    assert_eq!(default_evaluations(0), 10);
    assert_eq!(default_evaluations(200), 25);
    assert_eq!(default_evaluations(100_000), 200);
}
