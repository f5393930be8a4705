//! Many games between agents, for every game: one lineup with every agent, or a
//! 2-player round robin; seats rotating; games seeded per work item and played in
//! parallel, so one thread and sixteen give the same result.

use super::Error;
use super::play::{Record, rotated_seats};
use playtune_optim::rng::derive_seed;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What watches a tournament while it plays, from another thread: the games played so
/// far (for a progress bar) and a stop that ends it before its next game.
#[derive(Debug, Default)]
pub struct Watch {
    played: AtomicUsize,
    stopped: AtomicBool,
}

impl Watch {
    /// Games played so far.
    pub fn played(&self) -> usize {
        self.played.load(Ordering::Relaxed)
    }

    /// Ends the tournament before its next game: it returns [`Error::Interrupted`].
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }
}

/// The most games one lineup of a tournament plays: a million games' records fit in
/// memory; 10^11 once asked for a 1.6 TB allocation.
pub const MAX_GAMES: usize = 1_000_000;

/// The lineups for `agents` agents in `players`-player games: all of them together
/// when there is one per seat, else (2 players, more agents) every pair once.
pub fn lineups(agents: usize, players: usize) -> Result<Vec<Vec<usize>>, Error> {
    if agents == players {
        Ok(vec![(0..players).collect()])
    } else if players == 2 && agents > 2 {
        Ok((0..agents)
            .flat_map(|a| (a + 1..agents).map(move |b| vec![a, b]))
            .collect())
    } else {
        Err(Error::Lineups { agents, players })
    }
}

/// A tournament of `games` games of every lineup, the one every game plays (built in
/// or external): `setup` reads the request, giving the agents' names, the players of a
/// game and whatever playing needs (`ready`); game `g` of lineup `k` is then
/// `play(&ready, lineup, seats, derive_seed(seed, [k, g]))`, the seats rotated by `g`
/// ([`super::play::rotated_seats`]). `watch` counts the games played and may stop the
/// rest.
pub fn run<T: Sync>(
    games: usize,
    seed: u64,
    watch: &Watch,
    setup: impl FnOnce() -> Result<(Vec<String>, usize, T), Error>,
    play: impl Fn(&T, &[usize], &[usize], u64) -> Result<Record, Error> + Sync,
) -> Result<TournamentResult, Error> {
    if games == 0 {
        return Err(Error::NoGames);
    }
    // Records are held in memory, a lineup's games at once: refuse a count no machine
    // could hold before anything is sized.
    if games > MAX_GAMES {
        return Err(Error::TooManyGames {
            games,
            max: MAX_GAMES,
        });
    }
    let (names, players, ready) = setup()?;
    let lineups = lineups(names.len(), players)?;
    let records = play_lineups(&lineups, games, seed, watch, |lineup, g, seed| {
        play(&ready, lineup, &rotated_seats(players, g), seed)
    })?;
    Ok(summarize(&names, &lineups, games, &records))
}

/// Plays `games` games of every lineup in parallel: game `g` of lineup `k` is
/// `play(lineup, g, derive_seed(seed, [k, g]))`, which rotates the seats by `g`. The
/// results come lineup by lineup, `games` each. `watch` counts the games played and
/// may stop the rest.
pub(crate) fn play_lineups<R: Send>(
    lineups: &[Vec<usize>],
    games: usize,
    seed: u64,
    watch: &Watch,
    play: impl Fn(&[usize], usize, u64) -> Result<R, Error> + Sync,
) -> Result<Vec<R>, Error> {
    let jobs: Vec<(usize, usize)> = (0..lineups.len())
        .flat_map(|k| (0..games).map(move |g| (k, g)))
        .collect();
    jobs.par_iter()
        .map(|&(k, g)| {
            if watch.stopped() {
                return Err(Error::Interrupted {
                    played: watch.played(),
                });
            }
            let r = play(&lineups[k], g, derive_seed(seed, &[k as u64, g as u64]));
            watch.played.fetch_add(1, Ordering::Relaxed);
            r
        })
        .collect()
}

/// One agent's results over all its games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentResult {
    /// The agent, as a tournament names it.
    pub name: String,
    /// Games it played.
    pub games: usize,
    /// Games won, alone or shared with the other tied leaders.
    pub wins: usize,
    /// Its mean share of a game's win: 1 for a game won alone, 1/k for a win shared
    /// by k seats (a draw), 1/n for each of n seats where none won; the ladder check
    /// scores a pair's games by the same rule.
    pub win_rate: f64,
    /// Standard error of the win rate over its games.
    pub win_rate_se: f64,
    /// Mean final score ([`crate::game::Game::score`]).
    pub mean_points: f64,
}

/// A pairing of a 2-player round robin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairResult {
    /// Indices of the two agents in the list given.
    pub a: usize,
    /// The other agent's index.
    pub b: usize,
    /// Games the pair played.
    pub games: usize,
    /// Games `a` won.
    pub wins_a: usize,
    /// Games `b` won.
    pub wins_b: usize,
    /// Games both won (a shared win counts for each, so wins_a + wins_b - both +
    /// neither = games).
    pub both: usize,
    /// Games neither won (stalemates, or another seat's win).
    pub neither: usize,
}

/// Per-agent results and round-robin pairings from the records of
/// [`play_lineups`] (`games` per lineup, in order).
pub(crate) fn standings(
    names: &[String],
    lineups: &[Vec<usize>],
    games: usize,
    records: &[Record],
) -> (Vec<AgentResult>, Vec<PairResult>) {
    let n = names.len();
    let (mut wins, mut played, mut points) = (vec![0usize; n], vec![0usize; n], vec![0f64; n]);
    // Each agent's sum of shares of a game's win, and of their squares.
    let (mut share, mut share_sq) = (vec![0f64; n], vec![0f64; n]);
    let mut pairs = Vec::new();
    for (k, lineup) in lineups.iter().enumerate() {
        let mut pair_wins = vec![0usize; lineup.len()];
        let (mut both, mut neither) = (0, 0);
        for r in &records[k * games..(k + 1) * games] {
            if lineup.len() > 1 {
                match (r.winners[0], r.winners[1]) {
                    (true, true) => both += 1,
                    (false, false) => neither += 1,
                    _ => {}
                }
            }
            for (i, &a) in lineup.iter().enumerate() {
                played[a] += 1;
                points[a] += r.scores[i];
                let x = r.points(i);
                share[a] += x;
                share_sq[a] += x * x;
                if r.winners[i] {
                    wins[a] += 1;
                    pair_wins[i] += 1;
                }
            }
        }
        // Every two-seat lineup is a pair that met alone, the only one of a
        // two-agent tournament too.
        if lineup.len() == 2 {
            pairs.push(PairResult {
                a: lineup[0],
                b: lineup[1],
                games,
                wins_a: pair_wins[0],
                wins_b: pair_wins[1],
                both,
                neither,
            });
        }
    }
    let agents = names
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let g = played[a].max(1) as f64;
            let p = share[a] / g;
            AgentResult {
                name: name.clone(),
                games: played[a],
                wins: wins[a],
                win_rate: p,
                // Of games scored 0 or 1 alone, sqrt(p (1 - p) / games).
                win_rate_se: ((share_sq[a] / g - p * p).max(0.0) / g).sqrt(),
                mean_points: points[a] / g,
            }
        })
        .collect();
    (agents, pairs)
}

/// What a tournament of any game reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentResult {
    /// Per agent, in the order given.
    pub agents: Vec<AgentResult>,
    /// The round robin's pairings (empty when all agents share every game).
    pub pairs: Vec<PairResult>,
    /// Games played.
    pub games: usize,
    /// Games without a winner.
    pub no_winner: usize,
    /// Mean game length in steps.
    pub mean_length: f64,
    /// Standard deviation (n - 1) of the game length in steps.
    pub sd_length: f64,
    /// The shortest game's length in steps.
    pub min_length: u32,
    /// The longest game's length in steps.
    pub max_length: u32,
    /// Mean length of the games without a winner (stalemated), 0 when there are
    /// none: a game whose stalemates come early or late shows it here, where the
    /// overall mean hides it.
    pub mean_length_stalemated: f64,
    /// Mean length of the games with a winner, 0 when there are none.
    pub mean_length_finished: f64,
    /// Means over all games of the game's own statistics, by name.
    pub extra: Vec<(String, f64)>,
    /// The games' design metrics (seat balance, draws, caps, lead changes, ...).
    pub design: super::metrics::DesignMetrics,
}

/// Sums up `records`: `games` games of each of `lineups`, lineup by lineup, as [`run`]
/// plays them.
pub fn summarize(
    names: &[String],
    lineups: &[Vec<usize>],
    games: usize,
    records: &[Record],
) -> TournamentResult {
    let players = lineups.first().map_or(0, Vec::len);
    let (agents, pairs) = standings(names, lineups, games, records);
    let n = records.len();
    let lengths: Vec<f64> = records.iter().map(|r| f64::from(r.length)).collect();
    let mean_length = lengths.iter().sum::<f64>() / n.max(1) as f64;
    let sd_length = if n > 1 {
        (lengths
            .iter()
            .map(|l| (l - mean_length).powi(2))
            .sum::<f64>()
            / (n - 1) as f64)
            .sqrt()
    } else {
        0.0
    };
    let mut extra: Vec<(String, f64)> = Vec::new();
    for r in records {
        for (k, v) in &r.extra {
            match extra.iter_mut().find(|(n, _)| n == k) {
                Some(slot) => slot.1 += v,
                None => extra.push((k.clone(), *v)),
            }
        }
    }
    for e in &mut extra {
        e.1 /= n.max(1) as f64;
    }
    let mean_of = |stalemated: bool| {
        let (sum, count) = records
            .iter()
            .filter(|r| r.winners.contains(&true) != stalemated)
            .fold((0.0, 0usize), |(s, c), r| (s + f64::from(r.length), c + 1));
        if count == 0 { 0.0 } else { sum / count as f64 }
    };
    TournamentResult {
        mean_length_stalemated: mean_of(true),
        mean_length_finished: mean_of(false),
        agents,
        pairs,
        games: n,
        no_winner: records
            .iter()
            .filter(|r| !r.winners.contains(&true))
            .count(),
        mean_length,
        sd_length,
        min_length: records.iter().map(|r| r.length).min().unwrap_or(0),
        max_length: records.iter().map(|r| r.length).max().unwrap_or(0),
        extra,
        design: super::metrics::DesignMetrics::of(records, players),
    }
}
