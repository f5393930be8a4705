//! Legal play by every agent, script and partial player, the rule-based bot's strength,
//! script weights, and the play-style features of the log.

use playtune_harness::agents::portfolio::{PhasePlayers, Portfolio};
use playtune_harness::agents::{RandomAgent, Suggestion};
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::rng_from_seed;
use playtune_strategy::bot::RuleBased;
use playtune_strategy::log::features;
use playtune_strategy::phases::{StrategyPhases, heuristic};
use playtune_strategy::scripts::{
    GENOME_LEN, SCRIPTS, StrategyScripts, parse_weights, weights_from_point,
};
use playtune_strategy::*;

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
    use playtune_harness::{AgentSpec, all_agents, build_agent};
    use playtune_harness::{GameDef, Values};
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
        playtune_strategy::scripts::read_weights(&path)
            .unwrap()
            .get(7),
        0.75
    );

    let space = playtune_optim::space::load_space(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spaces/strategy_script_weights.ron"
    )))
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

/// A game configured for fewer turns ends by that limit, whoever plays: the limit the
/// `turns` setting sets is the game's own.
#[test]
fn a_game_ends_by_its_configured_turn_limit() {
    let level = Level::generate(3, &LevelConfig::default()).unwrap();
    let config = GameConfig {
        turn_limit: 4,
        ..GameConfig::default()
    };
    let mut rng = rng_from_seed(9);
    let mut s = StrategyState::new(&level, &config).unwrap();
    let (mut a, mut b) = (RandomAgent, RandomAgent);
    let agents: [&mut dyn Agent<StrategyState>; 2] = [&mut a, &mut b];
    while !s.is_over() {
        let p = s.current();
        let action = agents[p].act(&s, p, &mut rng);
        s.advance(&[action]);
    }
    assert!(s.log().end_turn <= 4, "ended at turn {}", s.log().end_turn);
}
