use crate::helpers::Counted;
use playtune_harness::agents::RandomAgent;
use playtune_harness::agents::microbial::*;
use playtune_harness::agents::*;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::rng_from_seed;
use playtune_space_battle::{DoNothing, SbeParams, SbeState};

/// Space Battle settings: five-tick macro actions as MCTS uses there.
fn sbe_agent() -> MicrobialEa<SbeState> {
    MicrobialEa::new(MicrobialConfig {
        macro_action: 5,
        ..MicrobialConfig::default()
    })
}

use crate::helpers::sbe_scores;

#[test]
fn microbial_outscores_random_in_space_battle() {
    let (m, r) = sbe_scores(&mut sbe_agent(), &mut RandomAgent);
    println!("MicrobialEA {m} vs Random {r}");
    assert!(m > r, "MicrobialEA {m} vs Random {r}");
}

#[test]
fn microbial_outscores_do_nothing_in_space_battle() {
    let (m, d) = sbe_scores(&mut sbe_agent(), &mut DoNothing);
    println!("MicrobialEA {m} vs DoNothing {d}");
    assert!(m > d, "MicrobialEA {m} vs DoNothing {d}");
}

#[test]
fn microbial_respects_its_budget() {
    for (opponent, macro_action) in [
        (OpponentModel::Random, 1),
        (OpponentModel::Osla, 3),
        (OpponentModel::DoNothing, 5),
    ] {
        let budget = 200;
        let mut agent = MicrobialEa::new(MicrobialConfig {
            opponent,
            macro_action,
            opponent_budget: 0.02,
            budget,
            ..MicrobialConfig::default()
        });
        let mut rng = rng_from_seed(4);
        let mut s = Counted::new(SbeState::new(SbeParams::default(), 6).with_max_ticks(20));
        while !s.is_over() {
            let a = agent.act(&s, 0, &mut rng);
            let calls = s.take();
            assert!(calls <= budget, "{calls} calls for a budget of {budget}");
            assert!(
                calls > budget / 2,
                "the search stopped early: {calls} calls"
            );
            s.inner.advance(&[a, 0]);
        }
    }
}

#[test]
fn same_seed_same_actions() {
    let run = |seed| {
        let mut agent = MicrobialEa::<SbeState>::default();
        crate::helpers::sbe_actions(&mut agent, seed, 0)
    };
    assert_eq!(run(5), run(5));
}
