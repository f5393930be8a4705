use crate::helpers::{beats_random, max_rin_calls, rin_actions, rin_wins};
use playtune_harness::agents::Osla;
use playtune_harness::agents::bmrh::*;
use playtune_harness::agents::*;
use playtune_rinascimento::RinState;

#[test]
fn bmrh_beats_random_in_rinascimento() {
    beats_random(&mut Bmrh::default(), "BMRH");
}

#[test]
fn bmrh_holds_its_own_against_osla() {
    let wins = rin_wins(&mut Bmrh::default(), &mut Osla::<RinState>::new(100), 20);
    println!("BMRH* vs OSLA(100): {wins}/20 wins");
    assert!(wins * 100 >= 20 * 35, "BMRH won {wins} of 20");
}

#[test]
fn bmrh_respects_its_budget() {
    for (mutation, opponent) in [
        (MutationPoint::Uniform, OpponentModel::Osla),
        (
            MutationPoint::Exponential { decay: 0.7 },
            OpponentModel::Random,
        ),
        (
            MutationPoint::Gaussian { mean: 0.3, sd: 1.0 },
            OpponentModel::DoNothing,
        ),
        (MutationPoint::Fresh, OpponentModel::Osla),
    ] {
        let budget = 150;
        let mut agent = Bmrh::new(BmrhConfig {
            sequence_length: 5,
            evaluations: 10_000,
            mutation,
            opponent,
            opponent_budget: 0.05,
            budget,
            ..BmrhConfig::default()
        });
        let most = max_rin_calls(&mut agent, 30);
        assert!(most <= budget, "{most} calls for a budget of {budget}");
        assert!(most + 30 > budget, "the search stopped early: {most} calls");
    }
}

#[test]
fn same_seed_same_actions() {
    let mut agent = Bmrh::<RinState>::default();
    let a = rin_actions(&mut agent, 5);
    assert_eq!(a, rin_actions(&mut agent, 5));
    assert!(!a.is_empty());
}
