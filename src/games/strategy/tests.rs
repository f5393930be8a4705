//! Unit tests of the strategy game's pieces (the rules per mechanic are in
//! `tests/strategy.rs`).

use super::level::{MAX_TILES, distance, neighbours};
use super::log::{ACTION_TYPES, slope};
use super::rules::*;
use super::state::*;
use crate::game::Game;
use crate::rng::rng_from_seed;

#[test]
fn tables_are_consistent() {
    for (i, k) in UNIT_KINDS.iter().enumerate() {
        assert_eq!(*k as usize, i);
        if let Some(t) = k.stats().tech {
            assert!(TECHS[t as usize].unlocks.contains(k.stats().name));
        }
    }
    for (i, t) in ALL_TECHS.iter().enumerate() {
        assert_eq!(*t as usize, i);
        match t.prerequisite() {
            Some(p) => {
                assert_eq!(p.info().branch, t.info().branch);
                assert_eq!(p.info().tier + 1, t.info().tier);
            }
            None => assert_eq!(t.info().tier, 1),
        }
    }
    for (i, b) in BUILDINGS.iter().enumerate() {
        assert_eq!(*b as usize, i);
    }
    // Every branch has two or three tiers; costs rise with the tier.
    for b in 0..BRANCHES.len() {
        let tiers = ALL_TECHS
            .iter()
            .filter(|t| t.info().branch as usize == b)
            .count();
        assert!((2..=3).contains(&tiers));
    }
    assert!(tech_cost(1, 1) < tech_cost(2, 1) && tech_cost(2, 1) < tech_cost(3, 1));
    assert!(tech_cost(1, 1) < tech_cost(1, 3));
    // Unit types differ in every number somewhere.
    let distinct = |f: fn(&UnitStats) -> u8| {
        let mut v: Vec<u8> = UNITS.iter().map(f).collect();
        v.sort();
        v.dedup();
        v.len()
    };
    assert!(
        distinct(|u| u.cost) >= 4 && distinct(|u| u.attack) >= 4 && distinct(|u| u.defence) >= 4
    );
    assert!(distinct(|u| u.movement) == 3 && distinct(|u| u.range) == 3 && distinct(|u| u.hp) == 3);
}

#[test]
fn grid_helpers() {
    let mut nb = [0; 8];
    assert_eq!(neighbours(11, 0, &mut nb), 3);
    assert_eq!(neighbours(11, 12, &mut nb), 8);
    assert_eq!(neighbours(11, 120, &mut nb), 3);
    assert_eq!(distance(11, 0, 120), 10);
    assert_eq!(distance(11, 12, 14), 2);
}

#[test]
fn slopes_are_least_squares() {
    assert_eq!(slope([1.0, 3.0, 5.0].into_iter()), 2.0);
    assert_eq!(slope([4.0].into_iter()), 0.0);
    assert!((slope([0.0, 1.0, 1.0, 2.0].into_iter()) - 0.6).abs() < 1e-12);
}

#[test]
fn action_types_match_the_log() {
    let actions = [
        Action::EndTurn,
        Action::Move { unit: 0, to: 0 },
        Action::Attack { unit: 0, target: 0 },
        Action::Capture { unit: 0 },
        Action::Spawn {
            city: 0,
            kind: UnitKind::Warrior,
        },
        Action::Research(Tech::Riding),
        Action::Build {
            tile: 0,
            building: Building::Farm,
        },
        Action::LevelUp {
            city: 0,
            bonus: Bonus::Growth,
        },
    ];
    for (i, a) in actions.iter().enumerate() {
        assert_eq!(a.type_index(), i, "{}", ACTION_TYPES[i]);
    }
}

#[test]
fn the_state_is_small_and_the_reach_buffer_large_enough() {
    // Search agents copy the state all the time.
    assert!(std::mem::size_of::<StrategyState>() < 6 * 1024);
    const { assert!(MAX_TILES <= 256, "tiles are indexed by a byte") };
    let mut s = StrategyState::from_seed(1);
    let id = s.put_unit(0, UnitKind::Knight, 5 * s.size() + 5);
    if let Some(id) = id {
        assert!(s.reach(id).as_slice().len() <= 48);
    }
}

#[test]
fn random_actions_are_uniform_over_the_legal_ones() {
    let mut s = StrategyState::from_seed(5);
    s.set_stars(0, 30);
    let mut legal = Vec::new();
    s.legal_actions(0, &mut legal);
    assert!(legal.len() > 5);
    let mut rng = rng_from_seed(2);
    let mut counts = vec![0u32; legal.len()];
    let draws = 2000 * legal.len() as u32;
    for _ in 0..draws {
        let a = s.random_action(0, &mut rng).unwrap();
        counts[legal.iter().position(|x| *x == a).unwrap()] += 1;
    }
    for c in counts {
        assert!((1700..2300).contains(&c), "{c}");
    }
    assert!(
        s.random_action(1, &mut rng).is_none(),
        "not player 1's turn"
    );
}

#[test]
fn games_are_deterministic() {
    let play = || {
        let mut rng = rng_from_seed(9);
        let mut s = StrategyState::from_seed(12);
        while !s.is_over() {
            let p = s.current();
            let a = s.random_action(p, &mut rng).unwrap();
            s.advance(&[a]);
        }
        (
            s.step_count(),
            s.score_of(0),
            s.score_of(1),
            s.log().clone(),
        )
    };
    assert_eq!(play(), play());
}
