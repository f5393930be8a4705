//! The skill-depth ladder: agents weakest first each play a batch of games, and a
//! game is deep when every rung beats the one below it by a clear margin.

use playtune_optim::rng::derive_seed;
use rayon::prelude::*;

/// How the games of a ladder's rungs are seeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RungSeeds {
    /// Game `g` of every rung from `derive_seed(seed, [g])`: common random numbers,
    /// the rungs meet the same deals, maps and seats, so their differences are
    /// measured paired.
    Common,
    /// Game `g` of rung `r` from `derive_seed(seed, [r, g])`: how every ladder was
    /// seeded before 2026-11-26, kept where published runs replay it (the NTBEA
    /// paper's Space Battle problem).
    PerRung,
}

/// Plays `games` games for each rung of `rungs` in parallel: `play(rung, game, seed)`
/// with the seed `seeds` says, independent of the number of threads. Returns the
/// results rung by rung, `games` each.
pub(crate) fn play_rungs<R: Send, E: Send>(
    rungs: &[usize],
    games: usize,
    seed: u64,
    seeds: RungSeeds,
    play: impl Fn(usize, usize, u64) -> Result<R, E> + Sync,
) -> Result<Vec<R>, E> {
    let jobs: Vec<(usize, usize)> = rungs
        .iter()
        .flat_map(|&a| (0..games).map(move |g| (a, g)))
        .collect();
    jobs.par_iter()
        .map(|&(a, g)| {
            let s = match seeds {
                RungSeeds::Common => derive_seed(seed, &[g as u64]),
                RungSeeds::PerRung => derive_seed(seed, &[a as u64, g as u64]),
            };
            play(a, g, s)
        })
        .collect()
}

/// The standard error of a ladder's skill depth from each rung's per-game scores,
/// game `g` of every rung played on the same seed: the standard error of the mean
/// paired difference `scores[r + 1][g] - scores[r][g]` over the step that sets the
/// depth (the first smallest gap). 0 for a ladder of one rung or games of one.
pub fn depth_se(scores: &[Vec<f64>]) -> f64 {
    let means: Vec<f64> = scores
        .iter()
        .map(|s| s.iter().sum::<f64>() / s.len() as f64)
        .collect();
    let Some(step) = depth_step(&means) else {
        return 0.0;
    };
    let gaps: Vec<f64> = scores[step + 1]
        .iter()
        .zip(&scores[step])
        .map(|(hi, lo)| hi - lo)
        .collect();
    playtune_optim::stats::Summary::of(&gaps).se()
}

/// Skill depth of a ladder from each rung's mean result, weakest first: the smallest
/// gap between neighbours, `min_i (t[i+1] - t[i])` (negative when the ladder is
/// inverted somewhere).
pub fn skill_depth(t: &[f64]) -> f64 {
    t.windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min)
}

/// The step that sets a ladder's skill depth (the first smallest gap): rung `r` to
/// `r + 1`. `None` for fewer than two rungs.
pub(crate) fn depth_step(t: &[f64]) -> Option<usize> {
    let depth = skill_depth(t);
    t.windows(2).position(|w| w[1] - w[0] == depth)
}

/// One step of a ladder: from rung `from` to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The lower rung's index.
    pub from: usize,
    /// The next rung's average minus this one's.
    pub gain: f64,
    /// The gain's standard error, `sqrt(se_from^2 + se_next^2)`.
    pub se: f64,
}

impl Step {
    /// The step from `lower` to `upper`, each (mean, standard error), as rung `from`.
    pub fn between(from: usize, lower: (f64, f64), upper: (f64, f64)) -> Step {
        Step {
            from,
            gain: upper.0 - lower.0,
            se: lower.1.hypot(upper.1),
        }
    }

    /// The next rung is stronger by more than two standard errors.
    pub fn separated(&self) -> bool {
        self.gain > 2.0 * self.se
    }
}

/// The steps between neighbouring rungs of averages (mean, standard error), weakest
/// first as intended; the ladder holds when every step is separated.
pub fn steps(averages: &[(f64, f64)]) -> Vec<Step> {
    averages
        .windows(2)
        .enumerate()
        .map(|(i, w)| Step::between(i, w[0], w[1]))
        .collect()
}

/// One pair's result in a round robin: the row agent's mean score against the column
/// agent and the variance of that mean (the per-game variance over the games played).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairScore {
    /// The row agent's mean score against the column agent.
    pub mean: f64,
    /// The variance of that mean.
    pub variance_of_mean: f64,
}

/// A ladder chosen from a round robin: rungs weakest first, each rung's row average
/// and its standard error within the ladder, and the smallest step in standard errors.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderedSubset {
    /// The rungs, as indices into the round robin, weakest first.
    pub rungs: Vec<usize>,
    /// Each rung's row average and its standard error within the ladder.
    pub averages: Vec<(f64, f64)>,
    /// The smallest step between neighbouring rungs, in standard errors.
    pub weakest_step: f64,
}

/// Row averages (mean, standard error) of the agents `subset` against each other only,
/// from the round robin's matrix `m` (`m[i][j]`: `i`'s score against `j`). `None` when
/// a pair of the subset has no games.
pub fn subset_averages(m: &[Vec<Option<PairScore>>], subset: &[usize]) -> Option<Vec<(f64, f64)>> {
    subset
        .iter()
        .map(|&i| {
            let (mut sum, mut var) = (0.0, 0.0);
            for &j in subset.iter().filter(|&&j| j != i) {
                let c = m[i][j]?;
                sum += c.mean;
                var += c.variance_of_mean;
            }
            let k = (subset.len() - 1) as f64;
            Some((sum / k, var.sqrt() / k))
        })
        .collect()
}

/// The largest set of at most `max` agents of a round robin whose own round robin
/// (their results against each other, restricted from `m`) is a ladder: ordered by row
/// average, every rung beats the one below by more than two standard errors of the
/// difference. Among sets of that size, the one whose weakest step is largest (in
/// standard errors). Choosing on the restricted table, not on averages over the whole
/// field, is what keeps the order when the chosen agents meet only each other: strength
/// against a field of styles is not transitive. `None` when no two agents are
/// separated. Every set is tried (the round robins this serves hold a few dozen agents
/// at most).
pub fn ordered_subset(m: &[Vec<Option<PairScore>>], max: usize) -> Option<OrderedSubset> {
    let n = m.len();
    for size in (2..=max.min(n)).rev() {
        let mut best: Option<OrderedSubset> = None;
        let mut subset: Vec<usize> = (0..size).collect();
        loop {
            if let Some(ladder) = as_ladder(m, &subset)
                && best
                    .as_ref()
                    .is_none_or(|b| ladder.weakest_step > b.weakest_step)
            {
                best = Some(ladder);
            }
            if !next_combination(&mut subset, n) {
                break;
            }
        }
        if best.is_some() {
            return best;
        }
    }
    None
}

/// `subset` ordered by its restricted row averages, when every step is separated.
fn as_ladder(m: &[Vec<Option<PairScore>>], subset: &[usize]) -> Option<OrderedSubset> {
    let averages = subset_averages(m, subset)?;
    let mut order: Vec<usize> = (0..subset.len()).collect();
    order.sort_by(|&a, &b| averages[a].0.total_cmp(&averages[b].0).then(a.cmp(&b)));
    let averages: Vec<(f64, f64)> = order.iter().map(|&k| averages[k]).collect();
    let mut weakest_step = f64::INFINITY;
    for w in averages.windows(2) {
        let step = Step::between(0, w[0], w[1]);
        if !step.separated() {
            return None;
        }
        weakest_step = weakest_step.min(step.gain / step.se);
    }
    Some(OrderedSubset {
        rungs: order.iter().map(|&k| subset[k]).collect(),
        averages,
        weakest_step,
    })
}

/// The next `k`-subset of `0..n` in lexicographic order; false after the last.
fn next_combination(c: &mut [usize], n: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < n - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round robin from a strength per agent: `i` scores
    /// `0.5 + (s[i] - s[j])` against `j`, each mean with variance `v`.
    fn table(s: &[f64], v: f64) -> Vec<Vec<Option<PairScore>>> {
        (0..s.len())
            .map(|i| {
                (0..s.len())
                    .map(|j| {
                        (i != j).then_some(PairScore {
                            mean: 0.5 + s[i] - s[j],
                            variance_of_mean: v,
                        })
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_depth_s_error_is_that_of_the_paired_step_that_sets_it() {
        // Rung 1 beats rung 0 by 0.5 in every game: no noise in that step. Rung 2
        // gains 0.1 on average over rung 1, by +0.4 or -0.2 in alternate games: that
        // step sets the depth, and its paired sd is 0.3 * sqrt(4/3) over 4 games.
        let scores = vec![vec![0.0; 4], vec![0.5; 4], vec![0.9, 0.3, 0.9, 0.3]];
        let means: Vec<f64> = scores.iter().map(|s| s.iter().sum::<f64>() / 4.0).collect();
        assert!((skill_depth(&means) - 0.1).abs() < 1e-12);
        let se = depth_se(&scores);
        let want = (0.09f64 * 4.0 / 3.0).sqrt() / 2.0;
        assert!((se - want).abs() < 1e-12, "{se} {want}");
        assert_eq!(depth_se(&scores[..1]), 0.0);
    }

    #[test]
    fn combinations_are_all_visited_once() {
        let mut c = vec![0, 1, 2];
        let mut seen = 1;
        while next_combination(&mut c, 6) {
            assert!(c.windows(2).all(|w| w[0] < w[1]) && c[2] < 6);
            seen += 1;
        }
        assert_eq!(seen, 20);
    }

    #[test]
    fn the_subset_is_ordered_by_strength_and_separated() {
        // Strengths 0, 0.01, 0.2, 0.21, 0.4: three rungs are separated, not five.
        let m = table(&[0.2, 0.0, 0.4, 0.01, 0.21], 0.0004);
        let got = ordered_subset(&m, 5).unwrap();
        assert_eq!(got.rungs.len(), 3);
        let strengths = [0.2, 0.0, 0.4, 0.01, 0.21];
        let s: Vec<f64> = got.rungs.iter().map(|&i| strengths[i]).collect();
        assert!(s.windows(2).all(|w| w[1] - w[0] > 0.15), "{s:?}");
        assert!(got.weakest_step > 2.0);
        // With noise that separates nothing there is no ladder.
        assert!(ordered_subset(&table(&[0.0, 0.01, 0.02], 0.01), 3).is_none());
    }

    #[test]
    fn a_cycle_is_never_whole_in_a_ladder() {
        // Rock, paper, scissors below a strong fourth: the three tie on average
        // among themselves, so the ladder takes two of them, the one that beats the
        // other above it, with the fourth on top.
        let mut m = table(&[0.0, 0.0, 0.0, 0.3], 0.0001);
        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
            m[a][b].as_mut().unwrap().mean = 0.8;
            m[b][a].as_mut().unwrap().mean = 0.2;
        }
        let got = ordered_subset(&m, 4).unwrap();
        assert_eq!(got.rungs.len(), 3, "{got:?}");
        assert_eq!(got.rungs[2], 3);
        let (low, high) = (got.rungs[0], got.rungs[1]);
        assert_eq!(m[high][low].unwrap().mean, 0.8, "{got:?}");
    }
}
