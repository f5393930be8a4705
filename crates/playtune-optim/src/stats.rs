//! Summary statistics, the Mann-Whitney U test and a paired comparison that plays
//! until it decides ([`sequential`]).

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

pub mod sequential;

/// The largest magnitude of a fitness or feature playtune takes in: far beyond anything
/// a game or a benchmark measures, and small enough that every statistic computed from
/// such values stays finite. Sums of squares are what overflow first (NTBEA's model
/// keeps one per tuple, a standard error squares deviations): a value of 1e308 squared
/// is infinite, while a billion values of 1e100 squared sum to 1e209. A value beyond it
/// is refused where it comes in (an evaluation's reply is a failed evaluation, a line
/// read back is damaged), each time naming where it came from.
pub const MAX_MAGNITUDE: f64 = 1e100;

/// Whether `x` is a number playtune computes with: finite, and within
/// ±[`MAX_MAGNITUDE`].
pub fn in_range(x: f64) -> bool {
    x.is_finite() && x.abs() <= MAX_MAGNITUDE
}

/// Running count, mean and variance (Welford), mergeable and cheap to update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Values added.
    pub n: u64,
    /// Their mean.
    pub mean: f64,
    /// Sum of squared deviations from the mean.
    m2: f64,
}

impl Summary {
    /// Adds one value.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// The summary of `xs`.
    pub fn of(xs: &[f64]) -> Summary {
        let mut s = Summary::default();
        xs.iter().for_each(|&x| s.add(x));
        s
    }

    /// Sample standard deviation (n - 1); 0 with fewer than two values.
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }

    /// Standard error of the mean: sd / sqrt(n).
    pub fn se(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.sd() / (self.n as f64).sqrt()
        }
    }
}

/// The one-sided p-value of a t-test that the differences summarised in `d` (paired:
/// one per pair) have a mean above 0: the probability of a t at least as large under
/// mean 0. `None` with fewer than two, or where the summary is not finite (values
/// beyond [`MAX_MAGNITUDE`] whose squares overflowed: no test can be made of them, and
/// the distribution's functions must never be handed a NaN, on which they panic).
/// Differences all equal: 0 when they are positive, else 1.
pub fn t_test_above_zero(d: &Summary) -> Option<f64> {
    use statrs::distribution::StudentsT;
    if d.n < 2 {
        return None;
    }
    let se = d.se();
    if !(d.mean.is_finite() && se.is_finite()) {
        return None;
    }
    if se == 0.0 {
        return Some(if d.mean > 0.0 { 0.0 } else { 1.0 });
    }
    let t = d.mean / se;
    if !t.is_finite() {
        return None;
    }
    let dist = StudentsT::new(0.0, 1.0, (d.n - 1) as f64).ok()?;
    Some(dist.sf(t))
}

/// Result of a two-tailed Mann-Whitney U test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MannWhitney {
    /// U of the first sample: pairs (a, b) with a > b, ties counting one half.
    pub u: f64,
    /// The two-tailed p-value.
    pub p: f64,
}

/// Largest n1 + n2 for which the p-value is the exact permutation probability; above it
/// the normal approximation (with tie and continuity correction) is close to it (the
/// tests hold them within 0.01 where both apply) and the exact count grows as N^3.
pub(crate) const EXACT_MAX_TOTAL: usize = 60;

/// Two-tailed Mann-Whitney U test.
///
/// For n1 + n2 <= 60 the p-value is exact: the probability, over every
/// way of splitting the pooled values into groups of n1 and n2, of a rank sum at least
/// as extreme as the observed one, ties taking their mid-ranks (so it is exact with ties
/// too), doubled and capped at 1. Above that it is the normal approximation with tie and
/// continuity correction, as scipy's `asymptotic` method computes it. `None` for an
/// empty sample or a NaN.
pub fn mann_whitney(a: &[f64], b: &[f64]) -> Option<MannWhitney> {
    if a.is_empty() || b.is_empty() || a.iter().chain(b).any(|x| x.is_nan()) {
        return None;
    }
    let (n1, n2) = (a.len(), b.len());
    let ranks = doubled_mid_ranks(a, b);
    // Doubled ranks are whole numbers: a run of tied values from position i to j
    // (1-based) shares the mid-rank (i + j) / 2.
    let r1: u64 = ranks[..n1].iter().sum();
    let u = r1 as f64 / 2.0 - (n1 * (n1 + 1)) as f64 / 2.0;
    let p = if n1 + n2 <= EXACT_MAX_TOTAL {
        exact_p(&ranks, n1, r1)
    } else {
        normal_p(a, b, u)
    };
    Some(MannWhitney { u, p })
}

/// Twice the mid-rank of every value of `a` then `b` in the pooled sample.
fn doubled_mid_ranks(a: &[f64], b: &[f64]) -> Vec<u64> {
    let pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    let mut order: Vec<usize> = (0..pooled.len()).collect();
    order.sort_by(|&i, &j| pooled[i].total_cmp(&pooled[j]));
    let mut ranks = vec![0u64; pooled.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && pooled[order[end + 1]] == pooled[order[start]] {
            end += 1;
        }
        // Positions start..=end are ranks start+1..=end+1.
        let doubled = (start + 1 + end + 1) as u64;
        for &i in &order[start..=end] {
            ranks[i] = doubled;
        }
        start = end + 1;
    }
    ranks
}

/// The exact two-sided p-value of the rank sum `r1` of the first `n1` of `ranks`: the
/// permutation distribution of a sum of n1 of the pooled ranks, counted by dynamic
/// programming over the values (ways[k][s]: subsets of k values with doubled rank sum s).
fn exact_p(ranks: &[u64], n1: usize, r1: u64) -> f64 {
    let total: u64 = ranks.iter().sum();
    let width = total as usize + 1;
    let mut ways = vec![0f64; (n1 + 1) * width];
    ways[0] = 1.0;
    for (seen, &r) in ranks.iter().enumerate() {
        let r = r as usize;
        // Downwards in k so every value is taken at most once.
        for k in (1..=n1.min(seen + 1)).rev() {
            let (below, here) = ways.split_at_mut(k * width);
            let from = &below[(k - 1) * width..];
            for s in r..width {
                here[s] += from[s - r];
            }
        }
    }
    let dist = &ways[n1 * width..(n1 + 1) * width];
    let all: f64 = dist.iter().sum();
    let r1 = r1 as usize;
    let lower: f64 = dist[..=r1].iter().sum();
    let upper: f64 = dist[r1..].iter().sum();
    (2.0 * lower.min(upper) / all).min(1.0)
}

/// The normal approximation: z from U's distance to its mean less one half (continuity),
/// over the standard deviation corrected for ties.
fn normal_p(a: &[f64], b: &[f64], u: f64) -> f64 {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let n = n1 + n2;
    let mut pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    pooled.sort_by(f64::total_cmp);
    let ties: f64 = pooled
        .chunk_by(|x, y| x == y)
        .map(|run| {
            let t = run.len() as f64;
            t * t * t - t
        })
        .sum();
    let variance = n1 * n2 / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if variance <= 0.0 {
        // Every value equal: the samples cannot be told apart.
        return 1.0;
    }
    let z = ((u - n1 * n2 / 2.0).abs() - 0.5).max(0.0) / variance.sqrt();
    (2.0 * Normal::standard().sf(z)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_matches_textbook_values() {
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.n, 8);
        assert!((s.mean - 5.0).abs() < 1e-12);
        assert!((s.sd() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((s.se() - s.sd() / 8f64.sqrt()).abs() < 1e-12);
    }

    /// Differences of ±1e308 overflow the summary (its sum of squares is infinite):
    /// the test says it cannot be made, and never hands a NaN to the t distribution,
    /// which panics on one.
    #[test]
    fn a_t_test_of_overflowed_values_is_none_not_a_panic() {
        let d = Summary::of(&[1e308, -1e308, 1e308, -1e308]);
        assert!(!(d.sd().is_finite() && d.mean.is_finite()), "{d:?}");
        assert_eq!(t_test_above_zero(&d), None);
        assert!(in_range(-MAX_MAGNITUDE) && !in_range(1e101) && !in_range(f64::NAN));
    }

    fn p(a: &[f64], b: &[f64]) -> f64 {
        mann_whitney(a, b).unwrap().p
    }

    fn close(got: f64, want: f64) {
        assert!((got - want).abs() < 1e-9, "p = {got}, want {want}");
    }

    /// Exact values without ties, from scipy.stats.mannwhitneyu(method="exact").
    #[test]
    fn exact_p_values_match_scipy_for_every_sample_order() {
        // n1 = n2, complete separation: 2 / C(8, 4).
        close(p(&[1.0, 2.0, 3.0, 4.0], &[5.0, 6.0, 7.0, 8.0]), 2.0 / 70.0);
        close(p(&[5.0, 6.0, 7.0, 8.0], &[1.0, 2.0, 3.0, 4.0]), 2.0 / 70.0);
        // n1 > n2 and n1 < n2.
        let r = mann_whitney(&[19.0, 22.0, 16.0, 29.0, 24.0], &[20.0, 11.0, 17.0, 12.0]).unwrap();
        assert_eq!(r.u, 17.0);
        close(r.p, 1.0 / 9.0);
        let r = mann_whitney(&[20.0, 11.0, 17.0, 12.0], &[19.0, 22.0, 16.0, 29.0, 24.0]).unwrap();
        assert_eq!(r.u, 3.0);
        close(r.p, 1.0 / 9.0);
        close(p(&[1.0, 3.0, 5.0], &[2.0, 4.0, 6.0, 8.0, 10.0]), 0.25);
        close(
            p(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]),
            1.0 / 60.0,
        );
        let a: Vec<f64> = (1..=10).map(f64::from).collect();
        let b = [2.5, 4.5, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0];
        close(p(&a, &b), 0.020521961698432286);
    }

    /// Exact values with ties: the permutation probability over all C(N, n1) splits,
    /// mid-ranks for ties (enumerated by brute force with scipy's rankdata).
    #[test]
    fn exact_p_values_with_ties_match_enumeration() {
        let r = mann_whitney(&[1.0, 1.0, 2.0, 2.0, 3.0], &[2.0, 3.0, 3.0, 4.0, 4.0, 4.0]).unwrap();
        assert_eq!(r.u, 3.0);
        close(r.p, 0.04329004329004329);
        // Win rates, the statistic the experiments compare most.
        close(
            p(&[0.0, 0.0, 0.5, 1.0], &[0.5, 1.0, 1.0, 1.0, 1.0]),
            0.1746031746031746,
        );
        close(p(&[1.0, 1.0, 1.0], &[1.0, 1.0, 2.0]), 1.0);
        assert_eq!(p(&[1.0; 10], &[1.0; 10]), 1.0);
    }

    /// Brute-force enumeration of every split, as an independent check of the counting.
    #[test]
    fn exact_distribution_equals_enumeration_on_random_samples() {
        use rand::{RngExt, SeedableRng};
        for seed in 0..40u64 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let n1 = rng.random_range(1..7usize);
            let n2 = rng.random_range(1..7usize);
            // Few distinct values, so most samples have ties.
            let mut draw =
                |n| -> Vec<f64> { (0..n).map(|_| rng.random_range(0..5u8) as f64).collect() };
            let (a, b) = (draw(n1), draw(n2));
            let ranks = doubled_mid_ranks(&a, &b);
            let r1: u64 = ranks[..n1].iter().sum();
            let n = n1 + n2;
            let (mut lower, mut upper, mut all) = (0u64, 0u64, 0u64);
            for mask in 0u32..(1 << n) {
                if mask.count_ones() as usize != n1 {
                    continue;
                }
                let s: u64 = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| ranks[i])
                    .sum();
                all += 1;
                lower += (s <= r1) as u64;
                upper += (s >= r1) as u64;
            }
            let want = (2.0 * lower.min(upper) as f64 / all as f64).min(1.0);
            close(p(&a, &b), want);
        }
    }

    /// Above the exact limit: scipy's asymptotic method (tie and continuity corrected).
    #[test]
    fn normal_approximation_matches_scipy_with_ties() {
        let a = [
            2.0, -2.6, 0.4, -0.6, -0.5, -0.2, -2.0, -0.2, -0.9, 3.3, 0.2, -0.4, -0.3, -0.7, -1.1,
            -0.4, 0.5, -0.2, 1.0, -0.2, 0.0, 1.5, 0.5, -0.5, -0.2, 0.5, 1.9, -0.3, -0.2, 1.0, -0.9,
            -0.3, 0.9, 0.6, 0.1, 0.7, -2.8, 1.0, -1.0, -1.7,
        ];
        let b = [
            0.8, 1.2, 0.1, -0.6, 0.5, 0.4, 1.9, 1.2, 0.7, 1.6, 0.3, -0.4, 1.1, 1.1, 0.3, -0.3, 0.7,
            -2.0, 1.2, 1.0, -1.1, 0.6, -0.5, 1.3, -1.5, -0.4, 1.2, 1.7, -1.7, 0.0, 0.8, -0.1, 2.1,
            -0.7, 0.9, -0.5, 1.9, 0.5, 0.1, -1.2, 2.2, 1.3, 1.3, 1.6, 0.8,
        ];
        let r = mann_whitney(&a, &b).unwrap();
        assert_eq!(r.u, 624.5);
        // statrs' normal tail agrees with scipy's to about 1e-12.
        assert!((r.p - 0.015398262134939309).abs() < 1e-10, "{r:?}");
        // scipy asymptotic on a small tied sample, against the function directly.
        let (a, b) = ([1.0, 1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 4.0, 4.0]);
        let p = normal_p(&a, &b, 3.0);
        assert!((p - 0.030423784148462706).abs() < 1e-10, "{p}");
    }

    /// Where both apply (no ties, moderate samples), exact and normal agree closely.
    #[test]
    fn exact_and_normal_agree_where_both_apply() {
        for (n1, n2, shift) in [(15, 15, 0.0), (20, 25, 7.0), (30, 30, 12.0), (12, 40, 15.0)] {
            let a: Vec<f64> = (0..n1)
                .map(|i| (i * 7 % 31) as f64 + shift + 0.001 * i as f64)
                .collect();
            let b: Vec<f64> = (0..n2)
                .map(|i| (i * 11 % 37) as f64 + 0.0001 * i as f64)
                .collect();
            let exact = p(&a, &b);
            let u = mann_whitney(&a, &b).unwrap().u;
            let normal = normal_p(&a, &b, u);
            assert!(
                (exact - normal).abs() < 0.01,
                "n {n1},{n2}: exact {exact}, normal {normal}"
            );
        }
    }
}
