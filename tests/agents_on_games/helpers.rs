//! What the agents' tests share: a game that counts forward-model calls, games
//! played between agents, their actions.

pub(crate) use playtune_harness::game::Counted;
use playtune_harness::game::{Acting, Agent, Game};
use playtune_optim::rng::rng_from_seed;
use playtune_rinascimento::{self as rinascimento, RinState, Rules};

/// Wins of `agent` (agent 0) against `other` over `games` 2-player games.
pub(crate) fn rin_wins(
    agent: &mut dyn Agent<RinState>,
    other: &mut dyn Agent<RinState>,
    games: u64,
) -> u64 {
    let rules = Rules::splendor(2);
    let mut wins = 0;
    for seed in 0..games {
        let record = rinascimento::play_game(&rules, &mut [&mut *agent, &mut *other], seed);
        if record.winners[0] && !record.winners[1] {
            wins += 1;
        }
    }
    wins
}

/// Asserts that `agent` (`name` in messages) wins more than 60% of 20 two-player
/// Rinascimento games against random play.
pub(crate) fn beats_random(agent: &mut dyn Agent<RinState>, name: &str) {
    let wins = rin_wins(agent, &mut playtune_harness::agents::RandomAgent, 20);
    println!("{name}* vs Random: {wins}/20 wins");
    assert!(wins * 10 > 20 * 6, "{name} won {wins} of 20");
}

/// Plays up to `decisions` Rinascimento decisions (every seat by `agent`) and
/// returns the most forward-model calls one decision made.
pub(crate) fn max_rin_calls(agent: &mut dyn Agent<Counted<RinState>>, decisions: usize) -> usize {
    let mut rng = rng_from_seed(9);
    let mut s = Counted::new(RinState::new(&Rules::splendor(2), 5).unwrap());
    let mut most = 0;
    for _ in 0..decisions {
        if s.is_over() {
            break;
        }
        let Acting::Player(p) = s.acting() else {
            unreachable!()
        };
        let a = agent.act(&s, p, &mut rng);
        most = most.max(s.take());
        s.inner.advance(&[a]);
    }
    most
}

/// The actions `agent` chooses over the first 30 decisions of a game, `seed`
/// seeding its generator.
pub(crate) fn rin_actions(
    agent: &mut dyn Agent<RinState>,
    seed: u64,
) -> Vec<<RinState as Game>::Action> {
    agent.reset();
    let mut rng = rng_from_seed(seed);
    let mut s = RinState::new(&Rules::splendor(2), 11).unwrap();
    let mut seq = Vec::new();
    for _ in 0..30 {
        if s.is_over() {
            break;
        }
        let Acting::Player(p) = s.acting() else {
            unreachable!()
        };
        let a = agent.act(&s, p, &mut rng);
        seq.push(a);
        s.advance(&[a]);
    }
    seq
}

/// Decisions per second of `agent` over the first decisions of a few games.
pub(crate) fn rin_decisions_per_second(agent: &mut dyn Agent<RinState>) -> f64 {
    let start = std::time::Instant::now();
    let mut decisions = 0;
    for game in 0..3 {
        let mut rng = rng_from_seed(game);
        let mut s = RinState::new(&Rules::splendor(2), game).unwrap();
        agent.reset();
        while !s.is_over() && decisions < 100 * (game + 1) {
            let Acting::Player(p) = s.acting() else {
                unreachable!()
            };
            let a = agent.act(&s, p, &mut rng);
            s.advance(&[a]);
            decisions += 1;
        }
    }
    decisions as f64 / start.elapsed().as_secs_f64()
}

use playtune_optim::rng::derive_seed;
use playtune_space_battle::{self as space_battle, SbeParams, SbeState};

/// The actions `agent` (ship 0) chooses over a 40-tick Space Battle game, `seed`
/// seeding its generator, while ship 1 plays `other` every tick.
pub(crate) fn sbe_actions(
    agent: &mut dyn Agent<SbeState>,
    seed: u64,
    other: <SbeState as Game>::Action,
) -> Vec<<SbeState as Game>::Action> {
    let mut rng = rng_from_seed(seed);
    let mut s = SbeState::new(SbeParams::default(), 3).with_max_ticks(40);
    let mut seq = Vec::new();
    while !s.is_over() {
        let a = agent.act(&s, 0, &mut rng);
        seq.push(a);
        s.advance(&[a, other]);
    }
    seq
}

/// Total score of ship 0 (`a`) and ship 1 (`b`) over four 300-tick games.
pub(crate) fn sbe_scores(a: &mut dyn Agent<SbeState>, b: &mut dyn Agent<SbeState>) -> (f64, f64) {
    let (mut sa, mut sb) = (0.0, 0.0);
    for seed in 0..4 {
        let state =
            SbeState::new(SbeParams::default(), derive_seed(seed, &[0])).with_max_ticks(300);
        let record = space_battle::play_from(state, a, b, seed, &mut |_, _| {});
        sa += record.scores[0];
        sb += record.scores[1];
    }
    (sa, sb)
}
