use super::*;
use crate::action::NUM_ACTIONS;
use crate::params::{NUM_PARAMS, PARAM_DOMAINS, PARAM_NAMES};

/// Parameters drawn from Table I's domains.
fn random_params(rng: &mut Rng) -> SbeParams {
    let values: Vec<f64> = (0..NUM_PARAMS)
        .map(|d| PARAM_DOMAINS[d][rng.random_range(0..PARAM_DOMAINS[d].len())])
        .collect();
    SbeParams::from_values(|n| PARAM_NAMES.iter().position(|&p| p == n).map(|d| values[d]))
        .expect("values from the domains")
}

/// Fire-happy random play: most actions fire, so the map fills with objects.
fn busy_action(rng: &mut Rng) -> SbeAction {
    rng.random_range(0..NUM_ACTIONS)
}

#[test]
fn copies_of_a_search_root_play_exactly_as_the_plain_state() {
    let mut rng = rng_from_seed(42);
    let mut planned_roots = 0;
    let mut met_planned = 0;
    for game in 0..60 {
        let params = random_params(&mut rng);
        let mut state = SbeState::new(params, game);
        // Play into the game, then branch: the same actions on a plain copy and on
        // a copy of a search root, past the horizon so the fallback is covered.
        let lead_in = rng.random_range(20..400);
        for _ in 0..lead_in {
            state.step([busy_action(&mut rng), busy_action(&mut rng)]);
        }
        let horizon = rng.random_range(1..40);
        let root = state.search_root(horizon);
        assert_eq!(root, state, "game {game}: the root equals its state");
        if root.plan.is_some() {
            planned_roots += 1;
        }
        for branch in 0..4 {
            let mut plain = state.clone();
            let mut copy = root.clone();
            // A reused buffer, as search agents do.
            copy.clone_from(&root);
            for t in 0..horizon + 5 {
                let actions = [busy_action(&mut rng), busy_action(&mut rng)];
                plain.step(actions);
                copy.step(actions);
                assert_eq!(
                    copy, plain,
                    "game {game}, branch {branch}, tick {t} after the root"
                );
                if t + 1 == horizon && copy.met.iter().any(|w| *w != 0) {
                    met_planned += 1;
                }
            }
        }
    }
    // The comparison must have exercised plans and ships meeting planned objects.
    assert!(planned_roots >= 40, "{planned_roots} planned roots");
    assert!(
        met_planned >= 20,
        "{met_planned} branches met planned objects"
    );
}
