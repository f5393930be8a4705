//! Many games between Rinascimento agents, with per-agent win rates and game
//! statistics.

use super::agents::RinAgentSpec;
use super::play::{GameRecord, play_game_seated};
use super::rules::Rules;
use crate::harness::play::{Record, rotated_seats};
use crate::harness::tournament;
use serde::Serialize;

pub use crate::harness::tournament::{AgentResult, PairResult};

/// What [`tournament`] reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentResult {
    /// Per agent, in the order given.
    pub agents: Vec<AgentResult>,
    /// The round robin's pairings (empty when all agents share every game).
    pub pairs: Vec<PairResult>,
    /// Games played in all.
    pub games: usize,
    pub stalemates: usize,
    pub stalemate_rate: f64,
    /// Mean and standard deviation (n - 1) of the game length in actions.
    pub mean_length: f64,
    pub sd_length: f64,
    /// The shape of the length distribution, which the mean and sd alone hide (two
    /// rule readings can share a mean and differ in their tails): the mean length of
    /// stalemated games (no legal action or the action limit) and of finished ones (0
    /// when there are none), and the shares of games under 100 actions and of 160 or
    /// more, the reference framework's figures' cut points.
    pub mean_length_stalemated: f64,
    pub mean_length_finished: f64,
    pub share_under_100: f64,
    pub share_160_plus: f64,
    pub min_length: u32,
    pub max_length: u32,
}

/// Plays Rinascimento games between `agents` under `rules` (whose player count is
/// replaced by `players`, keeping the other rules):
/// - `agents.len() == players`: `games` games with every agent, the seats rotating
///   (in game `g` agent `i` takes seat `(i + g) % players`);
/// - `players == 2` and more agents: a round robin, `games` games per pair, seats
///   alternating.
///
/// Game `g` of pairing `k` (0 when all agents share the games) is seeded with
/// `derive_seed(seed, [k, g])`; games run in parallel. Errors on any other agent count
/// or on invalid rules.
pub fn tournament(
    rules: &Rules,
    agents: &[RinAgentSpec],
    players: usize,
    games: usize,
    seed: u64,
) -> Result<TournamentResult, String> {
    let rules = Rules {
        players: players as u32,
        ..*rules
    };
    rules.validate()?;
    let lineups = tournament::lineups(agents.len(), players)?;
    let records: Vec<GameRecord> =
        tournament::play_lineups(&lineups, games, seed, |lineup, g, seed| {
            let mut built: Vec<_> = lineup.iter().map(|&a| agents[a].build()).collect();
            let mut refs: Vec<&mut dyn crate::game::Agent<_>> = Vec::with_capacity(players);
            for b in built.iter_mut() {
                refs.push(b.as_mut());
            }
            play_game_seated(&rules, &mut refs, &rotated_seats(players, g), seed)
        })?;
    let names: Vec<String> = agents.iter().map(|s| s.name().to_string()).collect();
    let generic: Vec<Record> = records.iter().map(GameRecord::to_record).collect();
    let summary = tournament::summarize(&names, &lineups, games, &generic);
    let n = records.len();
    let stalemates = records.iter().filter(|r| r.stalemate).count();
    let mean_of = |stalemate: bool| {
        let (sum, count) = records
            .iter()
            .filter(|r| r.stalemate == stalemate)
            .fold((0.0, 0usize), |(s, c), r| (s + f64::from(r.length), c + 1));
        if count == 0 { 0.0 } else { sum / count as f64 }
    };
    let share = |f: &dyn Fn(u32) -> bool| {
        records.iter().filter(|r| f(r.length)).count() as f64 / n.max(1) as f64
    };
    Ok(TournamentResult {
        agents: summary.agents,
        pairs: summary.pairs,
        games: n,
        stalemates,
        stalemate_rate: stalemates as f64 / n.max(1) as f64,
        mean_length: summary.mean_length,
        sd_length: summary.sd_length,
        mean_length_stalemated: mean_of(true),
        mean_length_finished: mean_of(false),
        share_under_100: share(&|l| l < 100),
        share_160_plus: share(&|l| l >= 160),
        min_length: summary.min_length,
        max_length: summary.max_length,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_four_player_games_match_the_paper() {
        let rnd = vec![RinAgentSpec::Rnd; 4];
        let t = tournament(&Rules::default(), &rnd, 4, 200, 1).unwrap();
        println!("{t:?}");
        assert_eq!(t.games, 200);
        assert!(
            (120.0..=165.0).contains(&t.mean_length),
            "{}",
            t.mean_length
        );
        assert!(
            (0.03..=0.20).contains(&t.stalemate_rate),
            "{}",
            t.stalemate_rate
        );
        let total: usize = t.agents.iter().map(|a| a.games).sum();
        assert_eq!(total, 800);
        assert_eq!(t, tournament(&Rules::default(), &rnd, 4, 200, 1).unwrap());
    }

    #[test]
    fn length_statistics_are_consistent() {
        let rnd = vec![RinAgentSpec::Rnd; 4];
        let t = tournament(&Rules::default(), &rnd, 4, 300, 2).unwrap();
        // The split means recombine into the mean.
        let p = t.stalemate_rate;
        let recombined = p * t.mean_length_stalemated + (1.0 - p) * t.mean_length_finished;
        assert!((recombined - t.mean_length).abs() < 1e-9);
        assert!(t.mean_length_stalemated < t.mean_length_finished);
        assert!(t.min_length as f64 <= t.mean_length && t.mean_length <= t.max_length as f64);
        assert!(t.share_under_100 > 0.0 && t.share_160_plus > 0.0);
        assert!(t.share_under_100 + t.share_160_plus <= 1.0);
    }

    #[test]
    fn two_player_round_robin_pairs_everyone() {
        let specs = vec![
            RinAgentSpec::Rnd,
            RinAgentSpec::Osla { budget: 100 },
            RinAgentSpec::Rnd,
        ];
        let t = tournament(&Rules::default(), &specs, 2, 6, 3).unwrap();
        assert_eq!(t.pairs.len(), 3);
        assert_eq!(t.games, 18);
        assert!(t.agents.iter().all(|a| a.games == 12));
        for p in &t.pairs {
            assert!(p.wins_a + p.wins_b <= p.games + t.stalemates, "{p:?}");
        }
        assert!(tournament(&Rules::default(), &specs, 4, 1, 0).is_err());
    }
}

/// Figures for the report: MCTS* against three OSLA, 100 games. Run with
/// `cargo test --release --lib mcts_star_vs_osla -- --ignored --nocapture`.
#[cfg(test)]
#[test]
#[ignore]
fn mcts_star_vs_osla() {
    let b = super::agents::DEFAULT_BUDGET;
    let mut specs = vec![RinAgentSpec::Osla { budget: b }; 4];
    specs[0] = RinAgentSpec::parse("mcts*", b).unwrap();
    let t = tournament(&Rules::default(), &specs, 4, 100, 7).unwrap();
    println!("{t:#?}");
}
