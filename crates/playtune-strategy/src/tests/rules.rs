//! The rules, mechanic by mechanic, the level generator, and the invariants over many
//! random turns.

use crate::level::{distance, neighbours};
use crate::*;
use playtune_harness::agents::RandomAgent;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::rng_from_seed;

/// Level 1 with every tile a bare plain (cities stay where they are).
fn open_board() -> StrategyState {
    let mut s = StrategyState::from_seed(1);
    for t in 0..s.size() * s.size() {
        s.set_tile(t, Terrain::Plain, Resource::None);
    }
    s
}

fn at(s: &StrategyState, x: usize, y: usize) -> usize {
    y * s.size() + x
}

fn reach(s: &StrategyState, id: usize) -> Vec<usize> {
    s.reach(id).as_slice().iter().map(|&t| t as usize).collect()
}

#[test]
fn movement_follows_terrain_and_zones_of_control() {
    let mut s = open_board();
    let rider = s.put_unit(0, UnitKind::Rider, at(&s, 5, 5)).unwrap();
    assert_eq!(reach(&s, rider).len(), 24, "two steps in eight directions");
    // A wall of forest: entering it ends the move.
    for y in 0..11 {
        let t = at(&s, 6, y);
        s.set_tile(t, Terrain::Forest, Resource::None);
    }
    let r = reach(&s, rider);
    assert!(r.contains(&at(&s, 6, 5)) && !r.contains(&at(&s, 7, 5)));
    // Mountains need Climbing; water is never entered.
    let (m, w) = (at(&s, 4, 5), at(&s, 5, 4));
    s.set_tile(m, Terrain::Mountain, Resource::None);
    s.set_tile(w, Terrain::Water, Resource::None);
    assert!(!reach(&s, rider).contains(&m));
    assert!(!reach(&s, rider).contains(&w));
    s.grant_tech(0, Tech::Climbing);
    assert!(reach(&s, rider).contains(&m));
    // Moving uses the unit's move for the turn.
    s.play(&Action::Move {
        unit: rider as u8,
        to: at(&s, 4, 6) as u8,
    });
    assert!(reach(&s, rider).is_empty());

    let mut s = open_board();
    let knight = s.put_unit(0, UnitKind::Knight, at(&s, 5, 5)).unwrap();
    assert!(reach(&s, knight).contains(&at(&s, 5, 8)));
    s.put_unit(1, UnitKind::Warrior, at(&s, 5, 7)).unwrap();
    let r = reach(&s, knight);
    assert!(r.contains(&at(&s, 5, 6)), "may step next to an enemy");
    assert!(!r.contains(&at(&s, 5, 7)), "never onto it");
    assert!(
        !r.contains(&at(&s, 5, 8)),
        "nor past it: the zone of control stops the move"
    );
}

#[test]
fn combat_follows_the_damage_formula() {
    let mut s = open_board();
    let a = s.put_unit(0, UnitKind::Warrior, at(&s, 5, 5)).unwrap();
    let d = s.put_unit(1, UnitKind::Warrior, at(&s, 6, 5)).unwrap();
    let c = s.combat(a, d);
    assert_eq!((c.dealt, c.taken), (5, 5), "even forces: 4.5 rounds to 5");
    // Forest with Archery: the defence is multiplied by 1.5.
    s.set_tile(at(&s, 6, 5), Terrain::Forest, Resource::None);
    s.grant_tech(1, Tech::Archery);
    let c = s.combat(a, d);
    assert_eq!((c.dealt, c.taken), (4, 5));
    s.play(&Action::Attack {
        unit: a as u8,
        target: d as u8,
    });
    assert_eq!((s.unit(a).hp, s.unit(d).hp), (5, 6));
    assert!(
        !s.is_legal(
            0,
            &Action::Attack {
                unit: a as u8,
                target: d as u8
            }
        ),
        "one attack a turn"
    );
    s.check().unwrap();

    // A kill: no retaliation, and a melee attacker takes the tile.
    let mut s = open_board();
    let a = s.put_unit(0, UnitKind::Swordsman, at(&s, 5, 5)).unwrap();
    let d = s.put_unit(1, UnitKind::Archer, at(&s, 6, 5)).unwrap();
    s.set_hp(d, 3);
    s.play(&Action::Attack {
        unit: a as u8,
        target: d as u8,
    });
    assert!(!s.unit(d).alive);
    assert_eq!(s.unit(a).pos as usize, at(&s, 6, 5));
    assert_eq!(s.unit(a).hp, 15);
    assert_eq!(s.log().kills[0], 1);

    // Range: an archer hits from two tiles and a warrior cannot strike back.
    let mut s = open_board();
    let a = s.put_unit(0, UnitKind::Archer, at(&s, 5, 5)).unwrap();
    let d = s.put_unit(1, UnitKind::Warrior, at(&s, 7, 5)).unwrap();
    assert!(s.can_attack(a, d));
    assert_eq!(s.combat(a, d).taken, 0);
    let far = s.put_unit(1, UnitKind::Warrior, at(&s, 8, 5)).unwrap();
    assert!(!s.can_attack(a, far));
    // A catapult has no defence: it takes nothing back but deals 4.5 x 4 = 18 at most.
    let cat = s.put_unit(0, UnitKind::Catapult, at(&s, 5, 8)).unwrap();
    let c = s.combat(cat, far);
    assert!(c.dealt > 10 && c.taken == 0);
}

#[test]
fn villages_are_captured_by_a_unit_that_waited_on_them() {
    let mut s = StrategyState::from_seed(3);
    let v = s.cities()[2];
    assert_eq!(v.owner, state::NONE);
    let tiles_before = s.tiles_owned(0);
    let u = s.put_unit(0, UnitKind::Warrior, v.pos as usize).unwrap();
    assert!(s.is_legal(0, &Action::Capture { unit: u as u8 }));
    s.play(&Action::Capture { unit: u as u8 });
    assert_eq!(s.cities()[2].owner, 0);
    assert!(s.tiles_owned(0) > tiles_before);
    assert_eq!(s.log().captures[0], 1);
    assert_eq!(s.city_count(0), 2);
    s.check().unwrap();
    // A unit that moved onto a city this turn must wait for the next one.
    let mut s = StrategyState::from_seed(3);
    let v = s.cities()[3].pos as usize;
    let mut nb = [0; 8];
    let k = neighbours(s.size(), v, &mut nb);
    let start = nb[..k]
        .iter()
        .copied()
        .find(|&t| s.tile(t).terrain == Terrain::Plain && s.unit_at(t).is_none())
        .unwrap();
    let u = s.put_unit(0, UnitKind::Warrior, start).unwrap();
    s.play(&Action::Move {
        unit: u as u8,
        to: v as u8,
    });
    assert!(!s.can_capture(u));
}

#[test]
fn spawning_costs_stars_needs_the_tech_a_free_tile_and_support() {
    let mut s = open_board();
    s.set_stars(0, 20);
    let warrior = s.unit_at(s.cities()[0].pos as usize).unwrap();
    assert!(
        !s.is_legal(
            0,
            &Action::Spawn {
                city: 0,
                kind: UnitKind::Warrior
            }
        ),
        "tile taken"
    );
    let to = s.reach(warrior).as_slice()[0];
    s.play(&Action::Move {
        unit: warrior as u8,
        to,
    });
    s.play(&Action::Spawn {
        city: 0,
        kind: UnitKind::Warrior,
    });
    assert_eq!(s.stars(0), 18);
    assert_eq!(s.log().spawned[0][UnitKind::Warrior as usize], 1);
    let new = s.unit_at(s.cities()[0].pos as usize).unwrap();
    assert!(
        reach(&s, new).is_empty(),
        "a new unit acts from the next turn"
    );
}

#[test]
fn research_unlocks_units_and_costs_rise_with_tier() {
    let mut s = StrategyState::from_seed(2);
    s.set_stars(0, 100);
    assert_eq!(s.tech_cost(0, Tech::Archery), 4);
    assert_eq!(s.tech_cost(0, Tech::Forestry), 8);
    assert_eq!(s.tech_cost(0, Tech::Mathematics), 12);
    assert!(!s.can_research(0, Tech::Forestry), "tier 2 needs tier 1");
    assert!(!s.unit_unlocked(0, UnitKind::Archer));
    s.play(&Action::Research(Tech::Archery));
    assert_eq!(s.stars(0), 96);
    assert!(s.unit_unlocked(0, UnitKind::Archer));
    assert!(s.can_research(0, Tech::Forestry));
    assert!(
        !s.is_legal(0, &Action::Research(Tech::Archery)),
        "once only"
    );
    s.set_stars(0, 3);
    assert!(!s.can_research(0, Tech::Riding), "not enough stars");
}

#[test]
fn buildings_grow_cities_and_level_ups_wait_for_a_bonus() {
    let mut s = open_board();
    let cap = s.cities()[0].pos as usize;
    let farm = cap + 1;
    s.set_tile(farm, Terrain::Plain, Resource::Crop);
    s.set_stars(0, 20);
    assert!(!s.can_build(0, farm, Building::Farm), "needs Farming");
    s.grant_tech(0, Tech::Farming);
    assert_eq!(s.production(0), 2);
    s.play(&Action::Build {
        tile: farm as u8,
        building: Building::Farm,
    });
    assert_eq!(s.stars(0), 15);
    assert_eq!(s.cities()[0].level, 2);
    assert_eq!(s.pending_level_up(0), Some(0));
    let mut legal = Vec::new();
    s.legal_actions(0, &mut legal);
    assert_eq!(legal.len(), 2, "only the bonus choice: {legal:?}");
    assert!(!s.is_legal(0, &Action::EndTurn));
    s.play(&Action::LevelUp {
        city: 0,
        bonus: Bonus::Growth,
    });
    assert_eq!(s.production(0), 4, "level 2, growth 1, capital 1");
    // A windmill next to the farm.
    s.grant_tech(0, Tech::Construction);
    assert_eq!(s.build_gain(cap + 2, Building::Windmill), 1);
    assert!(
        !s.can_build(0, farm, Building::Windmill),
        "one building a tile"
    );
    // A tile outside the territory cannot be built on.
    let far = cap + 5;
    s.set_tile(far, Terrain::Plain, Resource::Crop);
    assert!(!s.can_build(0, far, Building::Farm));
    s.check().unwrap();
}

#[test]
fn taking_the_enemy_capital_wins() {
    let mut s = open_board();
    let cap1 = s.cities()[1].pos as usize;
    let defender = s.unit_at(cap1).unwrap();
    s.set_hp(defender, 1);
    let (x, y) = (cap1 % s.size(), cap1 / s.size());
    let a = s.put_unit(0, UnitKind::Warrior, at(&s, x - 1, y)).unwrap();
    s.play(&Action::Attack {
        unit: a as u8,
        target: defender as u8,
    });
    assert_eq!(s.unit(a).pos as usize, cap1);
    assert!(!s.can_capture(a), "it attacked this turn");
    s.play(&Action::EndTurn);
    s.play(&Action::EndTurn);
    assert!(s.can_capture(a));
    s.play(&Action::Capture { unit: a as u8 });
    assert!(s.is_over());
    assert_eq!(s.winner(), Some(0));
    assert_eq!(s.winners(), vec![true, false]);
    assert!(s.log().by_capture);
    assert_eq!(s.log().end_turn, 2);
}

#[test]
fn the_turn_limit_decides_by_score_and_the_action_cap_ends_turns() {
    let level = Level::generate(4, &LevelConfig::default()).unwrap();
    let config = GameConfig {
        turn_limit: 3,
        action_cap: 100,
        ..Default::default()
    };
    let mut s = StrategyState::new(&level, &config).unwrap();
    for _ in 0..6 {
        assert!(!s.is_over());
        s.advance(&[Action::EndTurn]);
    }
    assert!(s.is_over());
    assert_eq!(s.log().turns(0).len(), 3);
    assert_eq!(
        s.winners(),
        vec![true, true],
        "mirror levels, nothing done: a draw"
    );
    assert_eq!(s.log().end_turn, 3);

    let mut s = StrategyState::new(&level, &config).unwrap();
    s.set_stars(0, 200);
    s.advance(&[Action::Research(Tech::Archery)]);
    assert_eq!(s.current(), 0);
    // Research the score up: player 0 wins at the limit.
    for t in [Tech::Riding, Tech::Shields, Tech::Climbing] {
        s.advance(&[Action::Research(t)]);
    }
    for _ in 0..6 {
        s.advance(&[Action::EndTurn]);
    }
    assert_eq!(s.winner(), Some(0));

    let config = GameConfig {
        turn_limit: 3,
        action_cap: 2,
        ..Default::default()
    };
    let mut s = StrategyState::new(&level, &config).unwrap();
    s.set_stars(0, 200);
    s.advance(&[Action::Research(Tech::Archery)]);
    s.advance(&[Action::Research(Tech::Riding)]);
    assert_eq!(s.current(), 1, "the cap ended the turn");
    assert!(
        StrategyState::new(
            &level,
            &GameConfig {
                turn_limit: 65,
                action_cap: 2,
                ..Default::default()
            }
        )
        .is_err()
    );
}

#[test]
fn levels_are_deterministic_symmetric_and_connected() {
    let config = LevelConfig::default();
    let training = training_levels();
    let validation = validation_levels();
    assert!(validation.len() > training.len());
    assert!(training.iter().all(|s| !validation.contains(s)));
    for seed in training.into_iter().chain(validation) {
        let l = Level::generate(seed, &config).unwrap();
        assert_eq!(l, Level::generate(seed, &config).unwrap());
        let n = l.size * l.size;
        for t in 0..n {
            assert_eq!(
                l.terrain[t],
                l.terrain[n - 1 - t],
                "seed {seed}: not symmetric"
            );
            assert_eq!(l.resource[t], l.resource[n - 1 - t]);
        }
        assert_eq!(l.capitals[1], n - 1 - l.capitals[0]);
        assert_eq!(l.villages.len(), 6, "seed {seed}");
        let land = l.reachable(l.capitals[0], |t| t != Terrain::Water);
        assert!(
            (0..n).all(|t| land[t] == (l.terrain[t] != Terrain::Water)),
            "seed {seed}: land cut"
        );
        let walk = l.reachable(l.capitals[0], |t| {
            matches!(t, Terrain::Plain | Terrain::Forest)
        });
        for c in l.cities() {
            assert!(
                walk[c],
                "seed {seed}: city {c} unreachable without Climbing"
            );
            assert_eq!(l.terrain[c], Terrain::Plain);
        }
        let cities: Vec<usize> = l.cities().collect();
        for (i, &a) in cities.iter().enumerate() {
            for &b in &cities[i + 1..] {
                assert!(distance(l.size, a, b) >= 2, "seed {seed}: cities touch");
            }
        }
    }
    assert_ne!(
        Level::generate(1, &config).unwrap(),
        Level::generate(2, &config).unwrap()
    );
    for size in [7, 16] {
        let c = LevelConfig {
            size,
            ..LevelConfig::default()
        };
        let l = Level::generate(9, &c).unwrap();
        StrategyState::new(&l, &GameConfig::default())
            .unwrap()
            .check()
            .unwrap();
    }
    let bad = [
        LevelConfig {
            size: 17,
            ..LevelConfig::default()
        },
        LevelConfig {
            water: 0.95,
            ..LevelConfig::default()
        },
    ];
    assert!(bad.iter().all(|c| Level::generate(1, c).is_err()));
}

#[test]
fn many_random_turns_keep_the_invariants() {
    let mut rng = rng_from_seed(11);
    let mut turns = 0;
    let mut seed = 0;
    let mut agent = RandomAgent;
    while turns < 100_000 {
        seed += 1;
        let level = Level::generate(
            seed,
            &LevelConfig {
                size: 7 + (seed as usize % 10),
                ..LevelConfig::default()
            },
        )
        .unwrap();
        let mut s = StrategyState::new(&level, &GameConfig::default()).unwrap();
        let mut steps = 0;
        while !s.is_over() {
            let p = s.current();
            let a = agent.act(&s, p, &mut rng);
            s.advance(&[a]);
            steps += 1;
            if steps % 7 == 0 {
                s.check().unwrap();
            }
        }
        s.check().unwrap();
        turns += s.log().turns(0).len() + s.log().turns(1).len();
        assert!(s.step_count() as usize <= 100 * 60);
    }
}
