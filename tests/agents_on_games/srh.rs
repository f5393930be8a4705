use crate::helpers::{beats_random, max_rin_calls, rin_actions};
use playtune_harness::agents::srh::*;
use playtune_harness::agents::*;
use playtune_rinascimento::RinState;

#[test]
fn srh_beats_random_in_rinascimento() {
    beats_random(&mut Srh::default(), "SRH");
}

#[test]
fn srh_respects_its_budget() {
    for opponent in [
        OpponentModel::DoNothing,
        OpponentModel::Random,
        OpponentModel::Osla,
    ] {
        let budget = 150;
        let mut agent = Srh::new(SrhConfig {
            sequence_length: 5,
            evaluations: 10_000,
            flip_at_least_one: true,
            opponent,
            opponent_budget: 0.05,
            budget,
            ..SrhConfig::default()
        });
        let most = max_rin_calls(&mut agent, 30);
        assert!(most <= budget, "{most} calls for a budget of {budget}");
        assert!(most + 30 > budget, "the search stopped early: {most} calls");
    }
}

#[test]
fn same_seed_same_actions() {
    let mut agent = Srh::<RinState>::default();
    let a = rin_actions(&mut agent, 5);
    assert_eq!(a, rin_actions(&mut agent, 5));
    assert!(!a.is_empty());
}
