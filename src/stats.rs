//! Summary statistics and the Mann-Whitney U test.

use serde::{Deserialize, Serialize};
use statrs::stats_tests::Alternative;
use statrs::stats_tests::mannwhitneyu::{MannWhitneyUMethod, mannwhitneyu};

/// Running count, mean and variance (Welford), mergeable and cheap to update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub n: u64,
    pub mean: f64,
    /// Sum of squared deviations from the mean.
    m2: f64,
}

impl Summary {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

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

/// Result of a two-tailed Mann-Whitney U test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MannWhitney {
    pub u: f64,
    pub p: f64,
}

/// Two-tailed Mann-Whitney U test (exact for small samples without ties, normal
/// approximation with tie and continuity correction otherwise, as scipy does).
pub fn mann_whitney(a: &[f64], b: &[f64]) -> Option<MannWhitney> {
    if a.is_empty() || b.is_empty() || a.iter().chain(b).any(|x| x.is_nan()) {
        return None;
    }
    // statrs' asymptotic formula divides by the tie-corrected variance, which is 0 when
    // every value is equal; the samples are then indistinguishable.
    if a.iter().chain(b).all(|&x| x == a[0]) {
        return Some(MannWhitney {
            u: a.len() as f64 * b.len() as f64 / 2.0,
            p: 1.0,
        });
    }
    mannwhitneyu(a, b, MannWhitneyUMethod::Automatic, Alternative::TwoSided)
        .ok()
        .map(|(u, p)| MannWhitney { u, p })
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

    #[test]
    fn mann_whitney_matches_scipy() {
        // scipy.stats.mannwhitneyu([19,22,16,29,24],[20,11,17,12]) -> U=17, p=0.1111 (exact)
        let r = mann_whitney(&[19.0, 22.0, 16.0, 29.0, 24.0], &[20.0, 11.0, 17.0, 12.0]).unwrap();
        assert_eq!(r.u, 17.0);
        assert!((r.p - 0.1111).abs() < 1e-3, "{r:?}");
        let same = mann_whitney(&[1.0; 10], &[1.0; 10]).unwrap();
        assert_eq!(same.p, 1.0);
    }
}
