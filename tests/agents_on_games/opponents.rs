use crate::helpers::Counted;
use playtune_harness::agents::opponents::*;
use playtune_harness::agents::*;
use playtune_optim::rng::rng_from_seed;
use playtune_rinascimento::{RinState, Rules};
use playtune_space_battle::{SbeParams, SbeState};

#[test]
fn opponent_models_respect_budget_and_legality() {
    let mut rng = rng_from_seed(1);
    let s = Counted::new(RinState::new(&Rules::splendor(2), 4).unwrap());
    for model in [
        OpponentModel::DoNothing,
        OpponentModel::Random,
        OpponentModel::Osla,
    ] {
        assert_eq!(OpponentModel::from_index(model.index()), Some(model));
        let mut sim = Simulator::new(model, 10);
        let mut budget = Budget::new(7);
        let a = sim
            .opponent_action(&s, 0, &[], &mut budget, &mut rng)
            .unwrap();
        assert!(s.inner.is_legal(0, &a));
        assert!(budget.left() >= 1);
        assert_eq!(s.take(), 7 - budget.left());
    }
    let sbe = SbeState::new(SbeParams::default(), 2);
    let mut sim = Simulator::new(OpponentModel::DoNothing, 1);
    let a = sim.opponent_action(&sbe, 1, &[3, 3], &mut Budget::new(5), &mut rng);
    assert_eq!(a, Some(playtune_space_battle::action::NIL));
}
