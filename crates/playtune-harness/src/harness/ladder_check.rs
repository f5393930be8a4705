//! Is a ladder a ladder? Before skill depth is measured on it, each rung should beat
//! the one below: a round robin of the rungs at the game's own rules says whether
//! every step is won by more than two standard errors, and which largest set of them
//! is ordered where the ladder as given is not.

use super::ladder::{PairScore, subset_averages};
use super::tournament::{PairResult, Watch};
use super::{DynGame, Error, GameRequest};

/// One step of a ladder: rung `from + 1` against rung `from`, head to head.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RungStep {
    /// The lower rung's index in the ladder.
    pub(crate) from: usize,
    /// Rung `from + 1`'s mean score against rung `from` (a win 1, a draw or a game
    /// neither won 1/2).
    pub(crate) score: f64,
    /// Its standard error.
    pub(crate) se: f64,
    /// Games the two rungs played.
    pub(crate) games: usize,
}

/// The fewest games a pair of rungs plays in a check: fewer cannot show a step (all
/// of 9 games won is p = 0.002; one game won of one is nothing).
pub const MIN_GAMES: usize = 10;

impl RungStep {
    /// Whether the upper rung wins the step by more than two standard errors. A
    /// standard error of 0 (every game won) is taken as that of one game fewer won, so
    /// that a handful of games claims nothing it has not shown.
    pub(crate) fn ordered(&self) -> bool {
        self.score - 0.5 > 2.0 * self.se.max(floor_se(self.games))
    }
}

/// The standard error of a score one game short of all or nothing over `games`: the
/// least a step's can be taken to be.
fn floor_se(games: usize) -> f64 {
    let g = games.max(1) as f64;
    let p = (g - 0.5) / g;
    (p * (1.0 - p) / g).sqrt()
}

/// What a ladder check found.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderCheck {
    /// The rungs as given, weakest first.
    pub ladder: Vec<String>,
    /// Each rung against the one below, weakest first.
    pub(crate) steps: Vec<RungStep>,
    /// The largest set of rungs whose round robin is ordered (weakest first), where
    /// the ladder as given is not; `None` when it is, or when no two rungs separate.
    pub proposal: Option<Vec<String>>,
    /// Games each pair of rungs played.
    pub games: usize,
}

impl LadderCheck {
    /// Whether every step is won by more than two standard errors.
    pub fn ordered(&self) -> bool {
        self.steps.iter().all(RungStep::ordered)
    }

    /// The steps in a line each: `osla over random: 0.72 ± 0.05 (ordered)`.
    pub fn lines(&self) -> Vec<String> {
        self.steps
            .iter()
            .map(|s| {
                format!(
                    "{} against {}: scores {:.3} ± {:.3} over {} games ({})",
                    self.ladder[s.from + 1],
                    self.ladder[s.from],
                    s.score,
                    s.se,
                    s.games,
                    if s.ordered() {
                        "stronger by more than 2 standard errors"
                    } else {
                        "NOT shown stronger"
                    }
                )
            })
            .collect()
    }
}

/// Row `i`'s mean score against `j` from a two-player round robin, with the variance
/// of that mean: a sole win 1, a sole loss 0, anything else 1/2.
fn pair_matrix(pairs: &[PairResult], n: usize) -> Vec<Vec<Option<PairScore>>> {
    let mut m = vec![vec![None; n]; n];
    for p in pairs {
        if p.games == 0 {
            continue;
        }
        let g = p.games as f64;
        let sole_a = (p.wins_a - p.both.min(p.wins_a)) as f64;
        let sole_b = (p.wins_b - p.both.min(p.wins_b)) as f64;
        let half = g - sole_a - sole_b;
        for (row, col, wins) in [(p.a, p.b, sole_a), (p.b, p.a, sole_b)] {
            let mean = (wins + 0.5 * half) / g;
            let second = (wins + 0.25 * half) / g;
            let variance = (second - mean * mean).max(0.0) * g / (g - 1.0).max(1.0);
            m[row][col] = Some(PairScore {
                mean,
                variance_of_mean: variance / g,
            });
        }
    }
    m
}

/// The largest set of the round robin's agents that is a ladder by the check's own
/// measure: ordered by their average against each other, each beats the one below
/// head to head by more than two standard errors. Among sets of that size, the one
/// whose weakest step is largest in standard errors. `None` when no two separate.
/// Every subset is tried: ladders have a handful of rungs.
fn ordered_steps(m: &[Vec<Option<PairScore>>], games: usize) -> Option<Vec<usize>> {
    let n = m.len().min(16);
    let mut best: Option<(usize, f64, Vec<usize>)> = None;
    for mask in 1u32..(1 << n) {
        let subset: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
        if subset.len() < 2 || best.as_ref().is_some_and(|b| b.0 > subset.len()) {
            continue;
        }
        let Some(averages) = subset_averages(m, &subset) else {
            continue;
        };
        let mut order: Vec<usize> = (0..subset.len()).collect();
        order.sort_by(|&a, &b| averages[a].0.total_cmp(&averages[b].0).then(a.cmp(&b)));
        let rungs: Vec<usize> = order.iter().map(|&k| subset[k]).collect();
        let mut weakest = f64::INFINITY;
        for w in rungs.windows(2) {
            let Some(c) = m[w[1]][w[0]] else {
                weakest = f64::NEG_INFINITY;
                break;
            };
            let se = c.variance_of_mean.sqrt().max(floor_se(games));
            let z = if se > 0.0 {
                (c.mean - 0.5) / se
            } else if c.mean > 0.5 {
                f64::MAX
            } else {
                f64::NEG_INFINITY
            };
            weakest = weakest.min(z);
        }
        if weakest > 2.0
            && best
                .as_ref()
                .is_none_or(|b| subset.len() > b.0 || weakest > b.1)
        {
            best = Some((subset.len(), weakest, rungs));
        }
    }
    best.map(|b| b.2)
}

/// Plays a round robin of `ladder`'s rungs, `games` a pair, under `settings` (the
/// game's own rules, as a design run's check plays them) from `seed`, and says
/// whether each rung beats the one below. `Ok(None)` for a game of other than two
/// seats, where rungs never meet alone.
pub fn check_ladder(
    game: &dyn DynGame,
    settings: &[(String, String)],
    ladder: &[String],
    budget: Option<usize>,
    games: usize,
    seed: u64,
    watch: &Watch,
) -> Result<Option<LadderCheck>, Error> {
    if let Some((i, rung)) = ladder
        .iter()
        .enumerate()
        .find(|(i, r)| ladder[..*i].contains(r))
    {
        return Err(Error::field(
            "ladder",
            format!(
                "`{rung}` is given twice (rungs {} and {}): each rung must be another bot",
                ladder.iter().position(|r| r == rung).unwrap_or(0) + 1,
                i + 1
            ),
        ));
    }
    if games < MIN_GAMES {
        return Err(Error::field(
            "games",
            format!("{games}: give at least {MIN_GAMES} games a pair of rungs"),
        ));
    }
    // Rungs meet alone only in a two-seat game's round robin.
    if ladder.len() < 2 || game.players(&game.settings_values(settings)?)? != 2 {
        return Ok(None);
    }
    let request = GameRequest {
        settings: settings.to_vec(),
        agents: ladder.to_vec(),
        budget,
        seed,
    };
    let result = game.tournament_watched(&request, games, watch)?;
    if result.pairs.is_empty() {
        return Ok(None);
    }
    let n = ladder.len();
    let m = pair_matrix(&result.pairs, n);
    let steps = (0..n - 1)
        .filter_map(|r| {
            let c = m[r + 1][r]?;
            Some(RungStep {
                from: r,
                score: c.mean,
                se: c.variance_of_mean.sqrt(),
                games,
            })
        })
        .collect::<Vec<_>>();
    let mut check = LadderCheck {
        ladder: ladder.to_vec(),
        steps,
        proposal: None,
        games,
    };
    if !check.ordered() {
        check.proposal = ordered_steps(&m, games)
            .map(|rungs| rungs.iter().map(|&i| ladder[i].clone()).collect());
    }
    Ok(Some(check))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One rule for a draw (issue 72, item 16): a tournament's win rate and the ladder
    /// check's score give a game won alone 1, a draw (a win shared by both seats) 1/2
    /// and a game neither won 1/2. Here `a` wins one game of four, two are drawn and
    /// one has no winner: 0.625 both ways, where the table once said 0.75.
    #[test]
    fn a_tournament_and_the_ladder_check_score_a_draw_alike() {
        let game = |winners: [bool; 2]| crate::harness::play::Record {
            seats: vec![0, 1],
            scores: vec![0.0, 0.0],
            winners: winners.to_vec(),
            length: 1,
            extra: Vec::new(),
            lead: crate::harness::metrics::Lead {
                traced: false,
                changes: 0,
                decided_at: None,
            },
            by_rules: true,
        };
        let records = [
            game([true, false]),
            game([true, true]),
            game([true, true]),
            game([false, false]),
        ];
        let names = ["a".to_string(), "b".to_string()];
        let (agents, pairs) =
            crate::harness::tournament::standings(&names, &[vec![0, 1]], 4, &records);
        let m = pair_matrix(&pairs, 2);
        for (agent, expected) in [(0, 0.625), (1, 0.375)] {
            assert!(
                (agents[agent].win_rate - expected).abs() < 1e-12,
                "{:?}",
                agents[agent]
            );
            let ladder = m[agent][1 - agent].unwrap().mean;
            assert!(
                (ladder - expected).abs() < 1e-12,
                "the ladder check's {ladder}"
            );
        }
    }

    #[test]
    fn a_step_counts_sole_wins_and_halves_the_rest() {
        // b wins 30 of 40 outright, a 6, 4 drawn: b scores (30 + 2) / 40 = 0.8.
        let r = vec![PairResult {
            a: 0,
            b: 1,
            games: 40,
            wins_a: 10,
            wins_b: 34,
            both: 4,
            neither: 0,
        }];
        let m = pair_matrix(&r, 2);
        let up = m[1][0].unwrap();
        assert!((up.mean - 0.8).abs() < 1e-12);
        assert!((m[0][1].unwrap().mean - 0.2).abs() < 1e-12);
        let se = up.variance_of_mean.sqrt();
        assert!(se > 0.05 && se < 0.07, "{se}");
    }

    /// Two games won of two is no step shown: a standard error of 0 claims nothing.
    #[test]
    fn every_game_won_of_a_few_shows_no_step() {
        let step = |games, score| RungStep {
            from: 0,
            score,
            se: 0.0,
            games,
        };
        assert!(!step(2, 1.0).ordered());
        assert!(step(10, 1.0).ordered(), "10 of 10: p = 0.001");
        assert!(!step(100, 0.5).ordered());
    }

    /// A table of head-to-head scores `s[i][j]` (row against column), each mean's
    /// variance `v`.
    fn table(s: &[&[f64]], v: f64) -> Vec<Vec<Option<PairScore>>> {
        (0..s.len())
            .map(|i| {
                (0..s.len())
                    .map(|j| {
                        (i != j).then_some(PairScore {
                            mean: s[i][j],
                            variance_of_mean: v,
                        })
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_proposal_drops_the_rung_that_does_not_beat_the_one_below() {
        // 0 < 1 clearly, 2 is level with 1 head to head, 3 beats all: 0, 1, 3 (or
        // 0, 2, 3) is ordered; all four are not.
        let m = table(
            &[
                &[0.0, 0.2, 0.2, 0.1],
                &[0.8, 0.0, 0.5, 0.2],
                &[0.8, 0.5, 0.0, 0.2],
                &[0.9, 0.8, 0.8, 0.0],
            ],
            0.0025,
        );
        let p = ordered_steps(&m, 100).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!((p[0], p[2]), (0, 3));
        // Nothing separates: no proposal.
        let flat = table(&[&[0.0, 0.5], &[0.5, 0.0]], 0.0025);
        assert_eq!(ordered_steps(&flat, 100), None);
    }
}
