//! The skill-depth ladder: agents weakest first each play a batch of games, and a
//! game is deep when every rung beats the one below it by a clear margin.

use crate::rng::derive_seed;
use rayon::prelude::*;

/// Plays `games` games for each of `rungs` ladder agents in parallel: `play(rung,
/// game, seed)` with `seed = derive_seed(seed, [rung, game])`, so results do not
/// depend on the number of threads. Returns the results rung by rung, `games` each.
pub(crate) fn play_ladder<R: Send, E: Send>(
    rungs: usize,
    games: usize,
    seed: u64,
    play: impl Fn(usize, usize, u64) -> Result<R, E> + Sync,
) -> Result<Vec<R>, E> {
    let jobs: Vec<(usize, usize)> = (0..rungs)
        .flat_map(|a| (0..games).map(move |g| (a, g)))
        .collect();
    jobs.par_iter()
        .map(|&(a, g)| play(a, g, derive_seed(seed, &[a as u64, g as u64])))
        .collect()
}

/// Skill depth of a ladder from each rung's mean result, weakest first: the smallest
/// gap between neighbours, `min_i (t[i+1] - t[i])` (negative when the ladder is
/// inverted somewhere).
pub fn skill_depth(t: &[f64]) -> f64 {
    t.windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min)
}
