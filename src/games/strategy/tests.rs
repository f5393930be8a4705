//! Unit tests of the strategy game.

use super::level::distance;
use super::rules::*;
use super::state::*;
use super::*;
use crate::game::Game;
use crate::rng::rng_from_seed;

#[test]
fn random_play_speed_smoke() {
    let mut rng = rng_from_seed(1);
    let t0 = std::time::Instant::now();
    let mut turns = 0u64;
    let mut steps = 0u64;
    for seed in 1..=40 {
        let mut s = StrategyState::from_seed(seed);
        while !s.is_over() {
            let p = s.current();
            let a = s.random_action(p, &mut rng).unwrap();
            s.advance(&[a]);
            s.check().unwrap();
        }
        turns += s.log().turns(0).len() as u64 + s.log().turns(1).len() as u64;
        steps += s.step_count() as u64;
    }
    let _ = distance;
    eprintln!("turns {turns} steps {steps} in {:?}", t0.elapsed());
}

fn play(agents: &mut [&mut dyn crate::game::Agent<StrategyState>; 2], seed: u64, rng_seed: u64) -> StrategyState {
    let mut rng = rng_from_seed(rng_seed);
    let mut s = StrategyState::from_seed(seed);
    while !s.is_over() {
        let p = s.current();
        let a = agents[p].act(&s, p, &mut rng);
        assert!(s.is_legal(p, &a), "{a:?} illegal");
        s.advance(&[a]);
    }
    s
}

#[test]
fn rule_based_beats_random_smoke() {
    use crate::agents::RandomAgent;
    let mut wins = 0;
    let mut capture = 0;
    let t0 = std::time::Instant::now();
    for seed in 1..=20u64 {
        let (mut a, mut b) = (super::bot::RuleBased, RandomAgent);
        let seat = (seed % 2) as usize;
        let s = if seat == 0 {
            play(&mut [&mut a, &mut b], seed, seed)
        } else {
            play(&mut [&mut b, &mut a], seed, seed)
        };
        if s.winner() == Some(seat) {
            wins += 1;
        }
        capture += s.log().by_capture as u32;
        eprintln!("seed {seed} winner {:?} turn {} scores {} {}", s.winner(), s.log().end_turn, s.score_of(0), s.score_of(1));
    }
    eprintln!("wins {wins}/20, captures {capture} in {:?}", t0.elapsed());
}
