//! The three-way test's error rates and costs, over many fixed seeds of normal pairs.
//! Each margin is one a correct test passes and a broken one (a boundary's sign
//! flipped, the variance left out, a fixed-size test) fails.

use super::*;
use crate::rng::item_rng;
use rand_distr::{Distribution, Normal};

/// One comparison of pairs of mean `delta` and spread `sd`, capped at `cap` pairs:
/// its decision and the pairs it played.
fn run(plan: &SequentialPlan, delta: f64, sd: f64, cap: u64, seed: u64) -> (Decision, u64) {
    let mut rng = item_rng(seed, &[7]);
    let normal = Normal::new(delta, sd).unwrap();
    let mut d = Summary::default();
    let mut sequence = Sequence::new(*plan);
    for n in looks(cap) {
        while d.n < n {
            d.add(normal.sample(&mut rng));
        }
        let look = sequence.look(&d);
        if look.decision != Decision::Undecided {
            return (look.decision, n);
        }
    }
    (Decision::Undecided, d.n)
}

/// Shares of each decision and the mean pairs over `seeds` comparisons.
fn rates(delta: f64, sd: f64, cap: u64, seeds: u64) -> (f64, f64, f64, f64, f64) {
    let plan = SequentialPlan::new(0.05, 0.01, 0.05).unwrap();
    let (mut better, mut worse, mut equal, mut none, mut pairs) = (0, 0, 0, 0, 0);
    for s in 0..seeds {
        let (decision, n) = run(&plan, delta, sd, cap, s);
        pairs += n;
        match decision {
            Decision::Better => better += 1,
            Decision::Worse => worse += 1,
            Decision::Equal => equal += 1,
            Decision::Undecided => none += 1,
        }
    }
    let k = seeds as f64;
    (
        better as f64 / k,
        worse as f64 / k,
        equal as f64 / k,
        none as f64 / k,
        pairs as f64 / k,
    )
}

#[test]
fn equal_sides_are_rarely_called_different_and_mostly_called_equal() {
    // α = 0.01 a side: over 2,000 comparisons a correct test calls equal sides
    // different about 20 times or fewer; one that ignores the variance, or tests at
    // a fixed 25 pairs, calls them different far more often, or never equal.
    let (better, worse, equal, none, pairs) = rates(0.0, 0.12, 1000, 2000);
    assert!(better <= 0.02 && worse <= 0.02, "{better} {worse}");
    assert!(equal >= 0.95, "equal {equal}, undecided {none}");
    // Wald's approximation of each test's mean count at δ = 0, |ln(β/(1-α))| s² /
    // (m²/2), is about 34 pairs here; both must settle, and the looks add a few.
    assert!((30.0..80.0).contains(&pairs), "{pairs}");
}

#[test]
fn a_difference_of_the_margin_is_found_as_often_as_promised() {
    let (better, worse, equal, _, pairs) = rates(0.05, 0.12, 1000, 2000);
    assert!(better >= 0.92, "better {better}");
    assert!(worse == 0.0, "worse {worse}");
    assert!(equal <= 0.08, "equal {equal}");
    let (_, worse, _, _, _) = rates(-0.05, 0.12, 1000, 2000);
    assert!(worse >= 0.92, "worse {worse}");
    // A larger difference is found sooner, and surely.
    let (big, _, _, _, fewer) = rates(0.1, 0.12, 1000, 2000);
    assert!(big >= 0.999, "{big}");
    assert!(fewer < pairs / 2.0, "{fewer} against {pairs}");
}

#[test]
fn a_cap_leaves_a_difference_between_zero_and_the_margin_undecided_at_times() {
    // Half the margin is the hardest case: the ratios drift nowhere.
    let (_, _, _, none, pairs) = rates(0.025, 0.12, 60, 1000);
    assert!(none > 0.2, "{none}");
    assert!(pairs <= 60.0);
}

#[test]
fn looks_are_fixed_counts_ending_at_the_cap() {
    assert_eq!(looks(0), Vec::<u64>::new());
    assert_eq!(looks(4), vec![4]);
    assert_eq!(looks(10), vec![10]);
    assert_eq!(looks(40), vec![10, 15, 20, 25, 31, 38, 40]);
    let l = looks(100_000);
    assert!(l.windows(2).all(|w| w[0] < w[1]));
    assert!(l.len() < 60, "{}", l.len());
}

/// A summary of `n` pairs of mean `mean` and variance `variance`.
fn summary(n: u64, mean: f64, variance: f64) -> Summary {
    Summary {
        n,
        mean,
        m2: variance * (n - 1) as f64,
    }
}

#[test]
fn pairs_to_decide_reach_the_boundary_the_difference_seen_heads_for() {
    let plan = SequentialPlan::new(0.05, 0.01, 0.05).unwrap();
    for (mean, decided) in [
        (0.05, Decision::Better),
        (-0.08, Decision::Worse),
        (0.01, Decision::Equal),
    ] {
        let seen = summary(20, mean, 0.12 * 0.12);
        let mut open = Sequence::new(plan);
        assert_eq!(open.look(&seen).decision, Decision::Undecided, "{mean}");
        let n = open.pairs_to_decide(&seen).unwrap();
        // The same mean and spread over n pairs decide; over n - 1 they do not.
        let mut at = open;
        assert_eq!(
            at.look(&summary(n, mean, 0.0144)).decision,
            decided,
            "{mean}"
        );
        let mut before = open;
        assert_eq!(
            before.look(&summary(n - 1, mean, 0.0144)).decision,
            Decision::Undecided,
            "{mean}: {n}"
        );
    }
    // Half the margin: no count decides.
    let half = summary(20, 0.025, 0.0144);
    let mut open = Sequence::new(plan);
    open.look(&half);
    assert_eq!(open.pairs_to_decide(&half), None);
}

#[test]
fn pairs_that_never_differ_decide_at_once_without_dividing_by_zero() {
    let plan = SequentialPlan::new(0.05, 0.01, 0.05).unwrap();
    let same = Summary::of(&[0.0; 10]);
    assert_eq!(Sequence::new(plan).look(&same).decision, Decision::Equal);
    let ahead = Summary::of(&[0.2; 10]);
    assert_eq!(Sequence::new(plan).look(&ahead).decision, Decision::Better);
    assert!(SequentialPlan::new(0.0, 0.01, 0.05).is_none());
    assert!(SequentialPlan::new(0.05, 0.5, 0.05).is_none());
    assert!(SequentialPlan::new(f64::NAN, 0.01, 0.05).is_none());
}
