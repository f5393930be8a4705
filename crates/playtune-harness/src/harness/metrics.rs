//! Game-design metrics, for every game, from what the harness records of each game: who
//! sat where and won, how long it lasted, whether its rules ended it or a cap did, and
//! how the lead moved. They follow the design metrics of the Ludii general game system
//! (Browne, Piette, Stephenson and others): balance by seat, drawishness, timeouts
//! (games a cap ended), duration, lead changes and decisiveness (how early the eventual
//! winner leads for good). Each is a number a designer can constrain or map.

use super::play::{Lead, Record};
use crate::game::Game;
use serde::Serialize;

/// Follows the lead through one game: the seat whose score is strictly highest.
#[derive(Clone, Debug, Default)]
pub struct LeadTracker {
    /// The sole leader now (`None` while the top score is tied).
    current: Option<usize>,
    /// The last sole leader there was: a lead changes when a sole leader other than
    /// it appears, with or without a tie between.
    last: Option<usize>,
    changes: u32,
    /// The step from which `current` has led at every observation.
    leading_since: u32,
    scores: Vec<f64>,
}

impl LeadTracker {
    /// Looks at `state` (before a step, and at the end).
    pub fn observe<G: Game>(&mut self, state: &G) {
        let mut scores = std::mem::take(&mut self.scores);
        scores.clear();
        scores.extend((0..state.num_players()).map(|s| state.score(s)));
        self.observe_scores(&scores, state.step_count());
        self.scores = scores;
    }

    /// Looks at every seat's score after `step` steps (a game played elsewhere).
    pub fn observe_scores(&mut self, scores: &[f64], step: u32) {
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut leaders = (0..scores.len()).filter(|&s| scores[s] == best);
        let sole = match (leaders.next(), leaders.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        };
        if sole != self.current {
            if let Some(s) = sole {
                if self.last.is_some_and(|l| l != s) {
                    self.changes += 1;
                }
                self.last = Some(s);
                self.leading_since = step;
            }
            self.current = sole;
        }
    }

    /// The game's lead figures, once it is over with `winners` (by seat).
    pub fn finish(&self, winners: &[bool], length: u32) -> Lead {
        let mut won = winners.iter().enumerate().filter(|(_, w)| **w);
        let sole_winner = match (won.next(), won.next()) {
            (Some((s, _)), None) => Some(s),
            _ => None,
        };
        let decided_at = sole_winner.map(|w| {
            if self.current == Some(w) && length > 0 {
                f64::from(self.leading_since) / f64::from(length)
            } else {
                // Won without leading on score at the end (a capture, say): decided
                // only by the last step.
                1.0
            }
        });
        Lead {
            traced: true,
            changes: self.changes,
            decided_at,
        }
    }
}

/// A set of games' design metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignMetrics {
    /// Games measured.
    pub games: usize,
    /// Per seat (seat 0 moves first): the share of games the agent in it won, shared
    /// wins counting for each winner.
    pub seat_win_rate: Vec<f64>,
    /// The largest seat's win rate less the smallest's: 0 for a game fair to every
    /// seat (with agents rotating through the seats, agent strength cancels out).
    pub seat_advantage: f64,
    /// Games with more than one winner.
    pub draw_rate: f64,
    /// Games without a winner.
    pub stalemate_rate: f64,
    /// Games ended by the rules rather than by a cap on their length.
    pub ended_by_rules: f64,
    /// Mean game length in steps.
    pub mean_length: f64,
    /// Standard deviation (n - 1) of the game length in steps.
    pub sd_length: f64,
    /// Mean changes of the sole leader on score per game; NaN (unavailable) where no
    /// game's path was seen (a game that reports no trace).
    pub lead_changes: f64,
    /// Mean over games with a sole winner of the share of the game after which the
    /// winner led for good: small means decided early. 1 when no game had a sole
    /// winner (nothing was ever decided); NaN (unavailable) where no game's path was
    /// seen.
    pub decided_at: f64,
}

impl DesignMetrics {
    /// The metrics of `records` of games with `players` seats.
    pub fn of(records: &[Record], players: usize) -> DesignMetrics {
        let n = records.len();
        let per = |count: usize| if n == 0 { 0.0 } else { count as f64 / n as f64 };
        let mut seat_wins = vec![0usize; players];
        for r in records {
            for (agent, &seat) in r.seats.iter().enumerate() {
                if r.winners[agent] && seat < players {
                    seat_wins[seat] += 1;
                }
            }
        }
        let seat_win_rate: Vec<f64> = seat_wins.iter().map(|&w| per(w)).collect();
        let max = seat_win_rate.iter().copied().fold(0.0, f64::max);
        let min = seat_win_rate.iter().copied().fold(1.0, f64::min);
        let winners = |r: &Record| r.winners.iter().filter(|w| **w).count();
        let lengths: Vec<f64> = records.iter().map(|r| f64::from(r.length)).collect();
        let length = playtune_optim::stats::Summary::of(&lengths);
        let traced: Vec<&Record> = records.iter().filter(|r| r.lead.traced).collect();
        let decided: Vec<f64> = traced.iter().filter_map(|r| r.lead.decided_at).collect();
        DesignMetrics {
            games: n,
            seat_advantage: if players == 0 || n == 0 {
                0.0
            } else {
                max - min
            },
            seat_win_rate,
            draw_rate: per(records.iter().filter(|r| winners(r) > 1).count()),
            stalemate_rate: per(records.iter().filter(|r| winners(r) == 0).count()),
            ended_by_rules: per(records.iter().filter(|r| r.by_rules).count()),
            mean_length: length.mean,
            sd_length: length.sd(),
            lead_changes: if traced.is_empty() && n > 0 {
                f64::NAN
            } else {
                traced
                    .iter()
                    .map(|r| f64::from(r.lead.changes))
                    .sum::<f64>()
                    / traced.len().max(1) as f64
            },
            decided_at: if traced.is_empty() && n > 0 {
                f64::NAN
            } else if decided.is_empty() {
                1.0
            } else {
                decided.iter().sum::<f64>() / decided.len() as f64
            },
        }
    }

    /// The metrics as named features, in a fixed order (`seat_win_rate_S` per seat).
    pub fn features(&self) -> Vec<(String, f64)> {
        let mut out = vec![
            ("seat_advantage".to_string(), self.seat_advantage),
            ("draw_rate".into(), self.draw_rate),
            ("stalemate_rate".into(), self.stalemate_rate),
            ("ended_by_rules".into(), self.ended_by_rules),
            ("mean_length".into(), self.mean_length),
            ("sd_length".into(), self.sd_length),
            ("lead_changes".into(), self.lead_changes),
            ("decided_at".into(), self.decided_at),
        ];
        out.extend(
            self.seat_win_rate
                .iter()
                .enumerate()
                .map(|(s, &w)| (format!("seat_win_rate_{s}"), w)),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        seats: &[usize],
        winners: &[bool],
        length: u32,
        lead: Lead,
        by_rules: bool,
    ) -> Record {
        Record {
            seats: seats.to_vec(),
            scores: vec![0.0; seats.len()],
            winners: winners.to_vec(),
            length,
            extra: Vec::new(),
            lead,
            by_rules,
        }
    }

    const NO_LEAD: Lead = Lead {
        traced: true,
        changes: 0,
        decided_at: None,
    };

    #[test]
    fn seat_balance_draws_stalemates_and_caps_are_shares_of_games() {
        let won = |at| Lead {
            traced: true,
            changes: 2,
            decided_at: Some(at),
        };
        let records = [
            // Agent 0 in seat 0 wins; agent 0 in seat 1 wins; seat 0 wins; a draw; a
            // stalemate at the cap.
            record(&[0, 1], &[true, false], 10, won(0.5), true),
            record(&[1, 0], &[true, false], 20, won(0.25), true),
            record(&[0, 1], &[true, false], 30, won(1.0), true),
            record(&[0, 1], &[true, true], 40, NO_LEAD, true),
            record(&[1, 0], &[false, false], 50, NO_LEAD, false),
        ];
        let m = DesignMetrics::of(&records, 2);
        assert_eq!(m.games, 5);
        // Seat 0 won games 1, 3, 4; seat 1 won games 2 and 4.
        assert_eq!(m.seat_win_rate, vec![0.6, 0.4]);
        assert!((m.seat_advantage - 0.2).abs() < 1e-12);
        assert_eq!(
            (m.draw_rate, m.stalemate_rate, m.ended_by_rules),
            (0.2, 0.2, 0.8)
        );
        assert_eq!(m.mean_length, 30.0);
        assert!((m.sd_length - 250f64.sqrt()).abs() < 1e-12);
        assert!((m.lead_changes - 6.0 / 5.0).abs() < 1e-12);
        assert!((m.decided_at - 1.75 / 3.0).abs() < 1e-12);
        let names: Vec<String> = m.features().into_iter().map(|f| f.0).collect();
        assert!(names.contains(&"seat_win_rate_1".to_string()));
    }

    #[test]
    fn lead_metrics_are_unavailable_without_a_trace_and_follow_the_traced_games() {
        let unseen = Lead {
            traced: false,
            changes: 0,
            decided_at: None,
        };
        let seen = Lead {
            traced: true,
            changes: 3,
            decided_at: Some(0.5),
        };
        let untraced = [
            record(&[0, 1], &[true, false], 10, unseen, true),
            record(&[1, 0], &[true, false], 20, unseen, true),
        ];
        let m = DesignMetrics::of(&untraced, 2);
        assert!(m.lead_changes.is_nan() && m.decided_at.is_nan(), "{m:?}");
        // One traced game of two: the figures are that game's, not halved by the other.
        let mixed = [
            untraced[0].clone(),
            record(&[0, 1], &[true, false], 10, seen, true),
        ];
        let m = DesignMetrics::of(&mixed, 2);
        assert_eq!((m.lead_changes, m.decided_at), (3.0, 0.5));
    }

    /// A two-player race whose scores are given per step.
    #[derive(Clone)]
    struct Race {
        scores: Vec<[f64; 2]>,
        step: usize,
    }

    impl Game for Race {
        type Action = ();
        fn num_players(&self) -> usize {
            2
        }
        fn acting(&self) -> crate::game::Acting {
            crate::game::Acting::All
        }
        fn is_over(&self) -> bool {
            self.step + 1 >= self.scores.len()
        }
        fn step_count(&self) -> u32 {
            self.step as u32
        }
        fn random_action(&self, _: usize, _: &mut playtune_optim::rng::Rng) -> Option<()> {
            Some(())
        }
        fn advance(&mut self, _: &[()]) {
            self.step += 1;
        }
        fn score(&self, player: usize) -> f64 {
            self.scores[self.step][player]
        }
        fn winners(&self) -> Vec<bool> {
            let s = self.scores[self.step];
            vec![s[0] >= s[1], s[1] >= s[0]]
        }
    }

    fn trace(scores: &[[f64; 2]]) -> Lead {
        let mut state = Race {
            scores: scores.to_vec(),
            step: 0,
        };
        let mut t = LeadTracker::default();
        loop {
            t.observe(&state);
            if state.is_over() {
                break;
            }
            state.advance(&[(), ()]);
        }
        t.finish(&state.winners(), state.step_count())
    }

    #[test]
    fn lead_changes_and_the_point_the_winner_leads_for_good() {
        // Seat 0 leads, seat 1 overtakes, a tie, seat 0 leads to the end from step 4.
        let lead = trace(&[[0., 0.], [1., 0.], [1., 2.], [2., 2.], [3., 2.], [4., 2.]]);
        assert_eq!(lead.changes, 2);
        assert_eq!(lead.decided_at, Some(4.0 / 5.0));
        // Led from the first step to the last: decided at once.
        let lead = trace(&[[1., 0.], [2., 0.], [3., 1.]]);
        assert_eq!((lead.changes, lead.decided_at), (0, Some(0.0)));
        // A draw has no decision point.
        let lead = trace(&[[1., 0.], [1., 1.]]);
        assert_eq!(lead.decided_at, None);
    }
}
