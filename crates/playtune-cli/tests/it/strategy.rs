//! The strategy game: rules per mechanic, the level generator, legal play by every
//! agent and script, invariants over many random turns, script weights.

// The module is named after the game, so that `cargo test strategy` selects these tests.

use playtune::agents::portfolio::{PhasePlayers, Portfolio};
use playtune::agents::{RandomAgent, Suggestion};
use playtune::game::{Agent, Game};
use playtune::games::strategy::bot::RuleBased;
use playtune::games::strategy::level::{distance, neighbours};
use playtune::games::strategy::log::features;
use playtune::games::strategy::phases::{StrategyPhases, heuristic};
use playtune::games::strategy::scripts::{
    GENOME_LEN, SCRIPTS, StrategyScripts, parse_weights, weights_from_point,
};
use playtune::games::strategy::*;
use playtune::rng::rng_from_seed;

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

/// Checks a suggestion list: non-empty, legal, values in [0, 1].
fn check_suggestions(s: &StrategyState, p: usize, out: &[Suggestion<Action>]) {
    assert!(!out.is_empty());
    for sug in out {
        assert!(
            s.is_legal(p, &sug.action),
            "{} suggests illegal {:?}",
            SCRIPTS[sug.script],
            sug.action
        );
        assert!(
            (0.0..=1.0).contains(&sug.value),
            "{}: value {}",
            SCRIPTS[sug.script],
            sug.value
        );
    }
}

/// Plays one game between two agents, checking every action against the enumerated
/// legal ones, the invariants, and the scripts' and partial players' suggestions.
fn play_checked(agents: &mut [&mut dyn Agent<StrategyState>; 2], seed: u64) -> StrategyState {
    let mut rng = rng_from_seed(seed);
    let mut s = StrategyState::from_seed(seed);
    let (mut legal, mut sug) = (Vec::new(), Vec::new());
    while !s.is_over() {
        let p = s.current();
        s.legal_actions(p, &mut legal);
        sug.clear();
        StrategyScripts.suggest(&s, p, &mut sug);
        check_suggestions(&s, p, &sug);
        for phase in 0..4 {
            for option in 0..StrategyPhases.phases()[phase].1.len() {
                if let Some(a) = StrategyPhases.next_action(&s, p, phase, option, &mut rng) {
                    assert!(
                        s.is_legal(p, &a) && a != Action::EndTurn,
                        "phase {phase} option {option}: {a:?}"
                    );
                }
            }
        }
        let a = agents[p].act(&s, p, &mut rng);
        assert!(
            legal.contains(&a),
            "{} played {a:?}, not among {legal:?}",
            agents[p].name()
        );
        s.advance(&[a]);
        s.check().unwrap();
    }
    s
}

#[test]
fn agents_scripts_and_partial_players_play_legally() {
    let (mut rule, mut random) = (RuleBased, RandomAgent);
    for seed in 1..=6 {
        play_checked(&mut [&mut rule, &mut random], seed);
        play_checked(&mut [&mut random, &mut rule], seed + 100);
        let mut rule2 = RuleBased;
        play_checked(&mut [&mut rule, &mut rule2], seed + 200);
        let mut random2 = RandomAgent;
        play_checked(&mut [&mut random, &mut random2], seed + 300);
    }
}

/// Every agent the game offers (its own and the generic ones, by name as on the
/// command line, with small budgets) plays only legal actions, against the
/// rule-based bot and against random, in both seats.
#[test]
fn every_registered_agent_plays_legally() {
    use playtune::harness::agents::{AgentSpec, all_agents, build_agent};
    use playtune::harness::{GameDef, Values};
    let entries = all_agents(Strategy.agents());
    let values = Values::new("game", &Strategy.settings(), &[]).unwrap();
    let specs = [
        "mcts(budget=300)",
        "ismcts(budget=300)",
        "rhea(budget=300)",
        "p-mcts(budget=300)",
        "p-mcts-b(budget=300)",
        "p-mcts-pu(budget=300,weights=1/0/0/0/0/0/0/1/0/0/0)",
        "hps(budget=3000)",
        "hps(search=uct,leaf=playout,budget=3000)",
        "osla(budget=30)",
        "srh(budget=300)",
        "microbial(budget=300)",
    ];
    // Every agent the game lists is covered (the bot and random are above).
    for e in &entries {
        assert!(
            ["rule", "random"].contains(&e.names[0])
                || specs
                    .iter()
                    .any(|s| s.starts_with(&format!("{}(", e.names[0]))),
            "agent {} is not tested",
            e.names[0]
        );
    }
    for (i, spec) in specs.iter().enumerate() {
        let build = || {
            build_agent(
                "strategy",
                &entries,
                &AgentSpec::parse(spec).unwrap(),
                None,
                &values,
            )
            .unwrap()
        };
        let (mut agent, mut rule, mut random) = (build(), RuleBased, RandomAgent);
        let seed = 500 + i as u64;
        play_checked(&mut [agent.as_mut(), &mut rule], seed);
        let mut agent = build();
        play_checked(&mut [&mut random, agent.as_mut()], seed + 50);
    }
}

#[test]
fn rule_based_beats_random() {
    let mut wins = 0;
    let games = 40;
    for seed in 0..games {
        let (mut rule, mut random) = (RuleBased, RandomAgent);
        let seat = (seed % 2) as usize;
        let agents: [&mut dyn Agent<StrategyState>; 2] = if seat == 0 {
            [&mut rule, &mut random]
        } else {
            [&mut random, &mut rule]
        };
        let mut rng = rng_from_seed(seed);
        let mut s = StrategyState::from_seed(1 + seed % 20);
        while !s.is_over() {
            let p = s.current();
            let a = agents[p].act(&s, p, &mut rng);
            s.advance(&[a]);
        }
        wins += (s.winner() == Some(seat)) as u32;
    }
    assert!(wins >= 36, "the rule-based bot won {wins} of {games}");
}

/// HPS-style turns: every phase's partial player plays until done, then the turn ends.
#[test]
fn partial_players_finish_their_phases() {
    let mut rng = rng_from_seed(5);
    let phases = StrategyPhases;
    for seed in 1..=10u64 {
        let mut s = StrategyState::from_seed(seed);
        let mut turns = 0;
        while !s.is_over() {
            let p = s.current();
            let h = heuristic(&s, p);
            assert!((h + heuristic(&s, 1 - p)).abs() < 1e-9, "antisymmetric");
            for phase in 0..4 {
                let option = ((seed as usize + turns + phase) * 7) % phases.phases()[phase].1.len();
                let mut n = 0;
                while let Some(a) = phases.next_action(&s, p, phase, option, &mut rng) {
                    assert!(s.is_legal(p, &a));
                    s.advance(&[a]);
                    n += 1;
                    assert!(n < 200, "phase {phase} option {option} never ends");
                    if s.is_over() || s.current() != p {
                        break;
                    }
                }
            }
            if !s.is_over() && s.current() == p {
                s.advance(&[phases.end_turn(&s, p)]);
            }
            turns += 1;
            s.check().unwrap();
        }
        if let Some(w) = s.winner() {
            assert!(phases.heuristic(&s, w) > 1e5);
        }
    }
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

#[test]
fn script_weights_come_from_ron_files_and_space_points() {
    assert_eq!(
        &SCRIPTS[..5],
        &[
            "research_farming",
            "research_riding",
            "research_archery",
            "research_mining",
            "research_defence"
        ]
    );
    assert_eq!(
        &SCRIPTS[5..GENOME_LEN],
        &[
            "spawn_strongest",
            "spawn_defensive",
            "spawn_cheapest",
            "spawn_fastest",
            "spawn_most_hp",
            "spawn_longest_range"
        ]
    );
    let w = parse_weights(r#"{"research_farming": 1.0, "build_walls": 0.0}"#, "w.ron").unwrap();
    assert_eq!((w.get(0), w.get(30), w.get(5)), (1.0, 0.0, 0.5));
    let e = parse_weights(r#"{"research_sailing": 1.0}"#, "w.ron")
        .unwrap_err()
        .to_string();
    assert!(e.contains("w.ron") && e.contains("research_sailing"), "{e}");
    let e = parse_weights(r#"{"capture": 2.0}"#, "w.ron")
        .unwrap_err()
        .to_string();
    assert!(e.contains("capture"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weights.ron");
    std::fs::write(&path, r#"{"spawn_cheapest": 0.75}"#).unwrap();
    assert_eq!(
        playtune::games::strategy::scripts::read_weights(&path)
            .unwrap()
            .get(7),
        0.75
    );

    let space =
        playtune::space::load_space(std::path::Path::new("spaces/strategy_script_weights.ron"))
            .unwrap();
    assert_eq!(space.dims.len(), GENOME_LEN);
    let names: Vec<&str> = space.names().collect();
    assert_eq!(names, &SCRIPTS[..GENOME_LEN]);
    let values = space.decode(&space.default_indices());
    let w = weights_from_point(&space, &values).unwrap();
    assert_eq!(w.0, vec![0.5; SCRIPTS.len()]);
    let mut idx = space.default_indices();
    idx[3] = 4;
    let w = weights_from_point(&space, &space.decode(&idx)).unwrap();
    assert_eq!(w.get(3), 1.0);
}

#[test]
fn the_log_gives_the_play_style_features() {
    let (mut rule, mut random) = (RuleBased, RandomAgent);
    let s = play_checked(&mut [&mut rule, &mut random], 7);
    let log = s.log();
    let f = features(log, 0);
    assert_eq!(f.attacks, log.actions[0][2] as f64);
    assert_eq!(f.winning_turn, log.end_turn as f64);
    assert!(f.research_slope > 0.0);
    assert!(f.tile_dominance_slope > 0.0);
    assert_eq!(log.winner, Some(0));
    let turns = log.turns(0);
    assert_eq!(turns.len() as u16, log.end_turn);
    assert!(turns.windows(2).all(|w| w[0].techs <= w[1].techs));
    let spawned: u32 = log.spawned[0].iter().map(|&x| x as u32).sum();
    assert!(spawned >= log.actions[0][4]);
}

/// Snapshots of a rule-based mirror game on level `seed` at the starts of `turns`.
fn snapshots(seed: u64, turns: &[u16]) -> Vec<playtune::games::strategy::render::Snapshot> {
    let mut rng = rng_from_seed(seed);
    let (mut a, mut b) = (RuleBased, RuleBased);
    let mut s = StrategyState::from_seed(seed);
    let mut out = Vec::new();
    for &t in turns {
        while !s.is_over() && (s.turn() < t) {
            let p = s.current();
            let act = if p == 0 {
                a.act(&s, p, &mut rng)
            } else {
                b.act(&s, p, &mut rng)
            };
            s.advance(&[act]);
        }
        out.push(playtune::games::strategy::render::Snapshot {
            caption: format!("turn {}", s.turn() + 1),
            state: s.clone(),
        });
    }
    out
}

#[test]
fn maps_are_drawn_as_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let level = Level::generate(3, &LevelConfig::default()).unwrap();
    for ext in ["png", "svg"] {
        let path = dir.path().join(format!("level.{ext}"));
        playtune::games::strategy::render::level_map(&path, "level 3", &level).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    }
    let path = dir.path().join("game.svg");
    playtune::games::strategy::render::game_map(&path, "game", &snapshots(3, &[0, 6])).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("turn 7"));
    assert!(
        playtune::games::strategy::render::game_map(&dir.path().join("x.gif"), "x", &[]).is_err()
    );
}

/// Writes the pictures of docs/strategy.md: `cargo test --release strategy_docs_pictures -- --ignored`.
#[test]
#[ignore]
fn strategy_docs_pictures() {
    let level = Level::generate(1, &LevelConfig::default()).unwrap();
    playtune::games::strategy::render::level_map(
        std::path::Path::new("docs/img/strategy_level.png"),
        "Training level 1",
        &level,
    )
    .unwrap();
    playtune::games::strategy::render::game_map(
        std::path::Path::new("docs/img/strategy_game.png"),
        "Rule-based bot against itself, level 2",
        &snapshots(2, &[0, 6, 12]),
    )
    .unwrap();
}
