//! examples/duel's rules in Rust, played in process: the twin of `duel.py` and
//! `duel.js` (the same draws from the same seeds, so the same matches), against which
//! the tests check that a game over the match protocol measures as the same game in
//! process, and the benchmarks measure the protocol's cost.

use super::{Match, MatchPlayer, MatchReport, SeatBot};

/// splitmix64: the examples' generator, simple to write the same in any language.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Duel: best of `rounds` rounds, a round won by the more skilled seat with
/// probability `1 / (1 + exp(-edge * d))`; bots novice, club, expert (skills 0, 1, 2)
/// and trained (skill `2 - (aim - 3)^2 / 4`).
pub struct Duel;

fn skill(seat: &SeatBot) -> Result<f64, String> {
    match seat.bot.as_str() {
        "novice" => Ok(0.0),
        "club" => Ok(1.0),
        "expert" => Ok(2.0),
        "trained" => {
            let aim = seat
                .settings
                .get("aim")
                .and_then(|a| a.as_f64())
                .unwrap_or(0.0);
            Ok(2.0 - (aim - 3.0).powi(2) / 4.0)
        }
        other => Err(format!("duel has no bot `{other}`")),
    }
}

impl MatchPlayer for Duel {
    fn play(&self, m: &Match) -> Result<MatchReport, String> {
        let number = |name: &str| {
            m.settings
                .get(name)
                .and_then(|v| v.as_f64())
                .ok_or_else(|| format!("duel needs the setting `{name}`"))
        };
        let (edge, rounds) = (number("edge")?, number("rounds")? as u64);
        if m.seats.len() != 2 {
            return Err(format!("duel is for 2 seats, not {}", m.seats.len()));
        }
        let p = 1.0 / (1.0 + (-edge * (skill(&m.seats[0])? - skill(&m.seats[1])?)).exp());
        let mut rng = SplitMix64(m.seed);
        let need = (rounds / 2 + 1) as f64;
        let mut score = [0.0f64, 0.0];
        let mut trace = vec![score.to_vec()];
        while score[0].max(score[1]) < need {
            score[if rng.uniform() < p { 0 } else { 1 }] += 1.0;
            trace.push(score.to_vec());
        }
        Ok(MatchReport {
            scores: score.to_vec(),
            winners: vec![if score[0] > score[1] { 0 } else { 1 }],
            length: trace.len() as u32 - 1,
            by_rules: true,
            trace: Some(trace),
            features: Vec::new(),
            frames: Vec::new(),
        })
    }
}
