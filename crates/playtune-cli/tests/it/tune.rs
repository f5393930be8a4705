//! Tuning any agent of any game through the generic `tune-agent` problem: the space
//! comes from the agent registry, a point is an agent spec that pastes into `play` and
//! `tournament`, and the problem's errors name what is wrong.

use crate::common;
use common::playtune;

use playtune::eval::Problem;
use playtune::harness::AgentSpec;
use playtune::harness::tune::{TuneConfig, TuneProblem, tuning_space};
use playtune::registry::game;
use predicates::prelude::*;

#[test]
fn the_space_is_the_agents_tunable_settings_less_the_fixed_ones() {
    let rin = game("rinascimento").unwrap();
    let names = |spec: &str| -> Vec<String> {
        tuning_space(rin, &AgentSpec::parse(spec).unwrap())
            .unwrap()
            .dims
            .iter()
            .map(|d| d.name.clone())
            .collect()
    };
    let all = names("mcts");
    for n in ["c", "depth", "recommend", "opponent"] {
        assert!(all.contains(&n.to_string()), "{all:?}");
    }
    // Budgets only buy strength: never tuned.
    assert!(!all.contains(&"budget".to_string()));
    let fixed = names("mcts(c=1,depth=2)");
    assert!(!fixed.contains(&"c".to_string()) && !fixed.contains(&"depth".to_string()));
    assert_eq!(fixed.len(), all.len() - 2);
    // Every generic search agent is tunable in every game, the strategy game's too.
    let strategy = game("strategy").unwrap();
    for agent in ["mcts", "bmrh", "srh", "microbial"] {
        assert!(
            tuning_space(strategy, &AgentSpec::parse(agent).unwrap()).is_ok(),
            "{agent}"
        );
    }
    // A default off the grid starts at the nearest grid value: generic MCTS's c = sqrt 2.
    let generic = tuning_space(strategy, &AgentSpec::parse("mcts").unwrap()).unwrap();
    let c = generic.position("c").unwrap();
    assert_eq!(generic.decode(&generic.default_indices())[c], 1.41);
    let err = tuning_space(rin, &AgentSpec::parse("osla").unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("nothing to tune"), "{err}");
    let err = tuning_space(rin, &AgentSpec::parse("mcts(cc=1)").unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("no setting `cc`"), "{err}");
    let err = tuning_space(rin, &AgentSpec::parse("nobody").unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not an agent"), "{err}");
}

#[test]
fn a_point_is_an_agent_and_its_fitness_a_mean_score() {
    let problem = TuneProblem::new(
        game("rinascimento").unwrap(),
        TuneConfig {
            agent: "mcts(budget=200)".into(),
            opponents: vec!["rnd".into(), "osla(budget=50)".into()],
            games: 8,
            budget: None,
            settings: vec![("players".into(), "2".into())],
        },
        None,
    )
    .unwrap();
    assert_eq!(
        problem.feature_names(),
        [
            "win_rate_0_vs_rnd",
            "win_rate_1_vs_osla_budget_50",
            "mean_length"
        ]
    );
    let space = problem.space().clone();
    let x = space.decode(&space.default_indices());
    let e = problem.evaluate(&x, 5).unwrap();
    assert_eq!(problem.evaluate(&x, 5).unwrap(), e, "same seed, same games");
    assert!((e.fitness - (e.features[0] + e.features[1]) / 2.0).abs() < 1e-12);
    assert!(
        e.features[0] >= 0.5,
        "MCTS against random: {}",
        e.features[0]
    );
    let spec = problem.agent_spec(&x).unwrap();
    assert!(spec.starts_with("mcts(budget=200,"), "{spec}");
    // The spec reads back as the same agent.
    assert_eq!(AgentSpec::parse(&spec).unwrap().to_string(), spec);
}

#[test]
fn tuning_from_the_command_line_gives_an_agent_to_paste() {
    let dir = tempfile::tempdir().unwrap();
    let out = playtune()
        .args([
            "optimize",
            "--problem",
            "tune-agent",
            "--set",
            "agent=mcts(budget=100)",
            "--set",
            "opponents=rnd",
            "--set",
            "games=4",
            "--budget",
            "6",
            "--json",
            "-q",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let agent = json["agent"].as_str().unwrap().to_string();
    playtune()
        .args(["tournament", "--players", "2", "--games", "2", "--agents"])
        .arg(format!("{agent},rnd"))
        .current_dir(dir.path())
        .assert()
        .success();
    playtune()
        .args([
            "optimize",
            "--problem",
            "tune-agent",
            "--set",
            "agent=osla",
            "--budget",
            "4",
        ])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing to tune"));
}

/// Every point a tuning grid offers builds: the first and the last value of every
/// tunable setting, of every agent of every game (a grid value the agent refuses
/// would fail evaluations mid-search).
#[test]
fn every_corner_of_every_tuning_grid_builds() {
    use playtune::harness::{GameRequest, Generic};
    for g in playtune::registry::GAMES {
        let mut names: Vec<String> = g
            .own_agents()
            .iter()
            .map(|a| a.names[0].to_string())
            .collect();
        names.extend(Generic::ALL.iter().map(|a| a.name().to_string()));
        let players = g.players(&g.settings_values(&[]).unwrap()).unwrap();
        for name in names {
            let spec = AgentSpec::parse(&format!("{name}(budget=50)"))
                .or_else(|_| AgentSpec::parse(&name))
                .unwrap();
            let Ok(space) = tuning_space(*g, &spec) else {
                continue;
            };
            let last: Vec<u32> = space
                .dims
                .iter()
                .map(|d| d.domain.len() as u32 - 1)
                .collect();
            for idx in [vec![0; space.len()], last] {
                let x = space.decode(&idx);
                let mut agent = spec.clone();
                agent.settings.extend(space.render(&x));
                let mut agents = vec![AgentSpec::parse("random").unwrap(); players];
                agents[0] = agent.clone();
                let request = GameRequest {
                    settings: g.settings_values(&[]).unwrap(),
                    agents,
                    budget: Some(50),
                    seed: 0,
                };
                g.check(&request)
                    .unwrap_or_else(|e| panic!("{}: {agent}: {e}", g.name()));
            }
        }
    }
}

/// The cost said before a run is timed at points across the space too, not at the
/// baseline alone (rules that change a game's length make the baseline's pace wrong),
/// and is given as a range.
#[test]
fn the_cost_before_a_run_is_timed_across_the_space_and_given_as_a_range() {
    let dir = tempfile::tempdir().unwrap();
    let duel = common::root("").join("examples/duel/duel.ron");
    let out = playtune()
        .args(["optimize", "--problem", "tune-agent", "--set"])
        .arg(format!("game={}", duel.display()))
        .args([
            "--set",
            "agent=trained",
            "--set",
            "opponents=club",
            "--budget",
            "8",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("cost:"))
        .unwrap_or_else(|| panic!("no cost line in:\n{err}"));
    assert!(
        line.contains("at 4 points across the space") && line.contains(" at those paces)"),
        "{line}"
    );
}
