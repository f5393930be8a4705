//! The built-in games (Rinascimento, the strategy game, Space Battle) designed from the
//! command line and through the library: studies that resume to the same files, the
//! games' own measures and metrics, and the verdict that ends a design run.

use crate::common;
use common::playtune;

use assert_cmd::Command;
use playtune::eval::Problem;
use playtune::harness::design::{DesignConfig, DesignProblem};
use playtune::registry::game;
use predicates::prelude::*;

#[test]
fn rinascimento_rules_are_designed_from_the_command_line() {
    let dir = tempfile::TempDir::new().unwrap();
    let run = |threads: &str, name: &str| {
        let out = playtune()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "optimize",
                "--problem",
                "design",
                "--set",
                "game=rinascimento",
            ])
            .args(["--set", "ladder=rnd,osla(budget=30)", "--set", "games=4"])
            .args([
                "--set",
                "game_settings=players=2",
                "--budget",
                "5",
                "--json",
            ])
            .args(["--name", name, "-q", "--runs-dir"])
            .arg(dir.path())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let json = String::from_utf8_lossy(&out);
        std::fs::read_to_string(dir.path().join(name).join("evals.csv")).unwrap()
            + json.lines().last().unwrap()
    };
    let one = run("1", "a");
    let header = one.lines().next().unwrap();
    for f in [
        "players",
        "end_points",
        "win_rate_1_osla",
        "stalemate_rate",
        "decided_at",
    ] {
        assert!(header.split(',').any(|c| c == f), "{f} in {header}");
    }
    // Fixed by game_settings: every point is a 2-player game.
    for row in one.lines().skip(1).take(5) {
        assert_eq!(row.split(',').nth(4), Some("2"), "{row}");
    }
    let four = run("4", "b");
    assert_eq!(
        one.lines().take(6).collect::<Vec<_>>(),
        four.lines().take(6).collect::<Vec<_>>(),
        "same seed, same evaluations on 1 thread or 4"
    );
    // Bad input: exit 2 naming what is wrong.
    for (set, fragment) in [
        ("ladder=rnd", "at least two agents"),
        ("game_settings=players=7", "players"),
        ("game=chess", "unknown game `chess`"),
        ("ladder=rnd,alphazero", "alphazero"),
    ] {
        // The game is Rinascimento unless the case names another.
        let mut sets = vec!["--set", set];
        if !set.starts_with("game=") {
            sets.extend(["--set", "game=rinascimento"]);
        }
        playtune()
            .args(["optimize", "--problem", "design"])
            .args(&sets)
            .args([
                "--set",
                "games=1",
                "--budget",
                "2",
                "--no-log",
                "-q",
                "--runs-dir",
            ])
            .arg(dir.path())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(fragment));
    }
    // The strategy game is designed over its 24 rules (unit costs and strengths,
    // building and research costs, starting stars, healing), the published rules its
    // default point.
    let out = playtune()
        .args(["optimize", "--problem", "design", "--set", "game=strategy"])
        .args(["--set", "ladder=random,rule", "--set", "games=2"])
        .args([
            "--set",
            "game_settings=turns=4",
            "--budget",
            "3",
            "--no-log",
            "--json",
            "-q",
            "--runs-dir",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for rule in [
        "cost_warrior",
        "attack_knight",
        "research_offset",
        "start_stars",
    ] {
        assert!(text.contains(rule), "{rule}: {text}");
    }
}

/// The rule-design study end to end at a small size: every part of its summary, the
/// fresh table kept in `fresh.ron`, and a rerun that reuses everything and writes the
/// same files.
#[test]
fn rule_design_study_runs_and_resumes_to_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "experiment",
        "rule-design",
        "--preset",
        "quick",
        "--trials",
        "2",
        "--budget",
        "8",
        "--reevaluations",
        "2",
        "--name",
        "rd",
        "-q",
    ];
    playtune()
        .args(args)
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("## Rule sets on fresh seeds"))
        .stdout(predicate::str::contains("| Splendor (its own rules) |"))
        .stdout(predicate::str::contains(
            "## The parameters that mattered most",
        ));
    let home = dir.path().join("runs/rd");
    for f in ["summary.md", "summary.ron", "rule-design.ron", "fresh.ron"] {
        assert!(home.join(f).exists(), "{f}");
    }
    assert!(dir.path().join("plots/rd/fresh_depth.png").exists());
    let summary = std::fs::read_to_string(home.join("summary.md")).unwrap();
    let fresh = std::fs::read_to_string(home.join("fresh.ron")).unwrap();
    // Every constrained run reports its feasibility, and the search logs carry it.
    let result = std::fs::read_to_string(home.join("ntbea/result.ron")).unwrap();
    assert!(result.contains("feasibility"));
    playtune()
        .args(args)
        .current_dir(dir.path())
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(home.join("summary.md")).unwrap(),
        summary
    );
    assert_eq!(
        std::fs::read_to_string(home.join("fresh.ron")).unwrap(),
        fresh
    );
    // A game without a study preset is a clear error.
    playtune()
        .args([
            "experiment",
            "rule-design",
            "--game",
            "space-battle",
            "--name",
            "x",
        ])
        .current_dir(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no study preset"));
}

/// Every corner of the strategy game's rule space plays: 300 random rule sets, two
/// games each, without a panic, then its rule-design study at a small size.
#[test]
fn random_strategy_rules_play_and_the_study_runs() {
    let dir = tempfile::tempdir().unwrap();
    playtune()
        .args(["optimize", "--problem", "design", "--set", "game=strategy"])
        .args(["--set", "ladder=random,rule", "--set", "games=2"])
        .args([
            "--set",
            "game_settings=turns=6",
            "--algo",
            "random",
            "--budget",
            "300",
        ])
        .args(["--no-log", "-q", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success();
    playtune()
        .args([
            "experiment",
            "rule-design",
            "--game",
            "strategy",
            "--preset",
            "quick",
        ])
        .args([
            "--trials",
            "1",
            "--budget",
            "6",
            "--reevaluations",
            "1",
            "--name",
            "s",
            "-q",
        ])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("| published (its own rules) |"));
}

/// The NTBEA paper's `space-battle` problem is `design` on Space Battle with the game's
/// rung measure, and plays the very games the hand-written problem played before it
/// (the fitnesses below were logged by that problem, with every ENEMY_ID among them):
/// published runs resume and fresh ones reproduce.
#[test]
fn the_space_battle_problem_plays_the_games_it_played_before_it_was_generic() {
    let dir = tempfile::tempdir().unwrap();
    playtune()
        .args(["optimize", "--problem", "space-battle", "--algo", "random"])
        .args(["--budget", "12", "--trials", "1", "--seed", "6", "-q"])
        .args(["--set", "max_ticks=100"])
        .args(["--set", "ladder=nothing,random,ras,1sla,microbial,mcts"])
        .args(["--name", "b", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success();
    let log = std::fs::read_to_string(dir.path().join("b/evals.csv")).unwrap();
    let header: Vec<&str> = log.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (enemy, fitness) = (column("ENEMY_ID"), column("fitness"));
    let logged: Vec<(String, String)> = log
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[enemy].to_string(), f[fitness].to_string())
        })
        .collect();
    let before = [
        ("mcts", "-4.7409999999999854"),
        ("microbial", "-0.03499999999996817"),
        ("ras", "0"),
        ("1sla", "-2004"),
        ("microbial", "-8.903999999999996"),
        ("microbial", "-1010.072"),
        ("1sla", "-0.009000000000014552"),
        ("random", "-1.1339999999999009"),
        ("random", "-2000.657"),
        ("nothing", "0"),
        ("random", "-2.062999999999988"),
        ("1sla", "-1003"),
    ];
    let before: Vec<(String, String)> = before
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(logged, before);
    // The paper's features, per rung, and no others.
    assert_eq!(
        &header[column("fitness") + 1..column("fitness") + 7],
        [
            "t_nothing",
            "score_nothing",
            "enemy_score_nothing",
            "win_rate_nothing",
            "missiles_fired_nothing",
            "penalty_ticks_nothing"
        ]
    );
}

/// `design` on Space Battle: the game's own measure and the design metrics.
#[test]
fn space_battle_is_designed_with_its_own_measure_and_the_metrics() {
    let p = DesignProblem::new(
        game("space-battle").unwrap(),
        DesignConfig {
            ladder: vec!["nothing".into(), "ras".into()],
            games: 1,
            budget: None,
            settings: vec![("max_ticks".into(), "300".into())],
            metrics: true,
            playable: false,
        },
        None,
    )
    .unwrap();
    let names = p.feature_names();
    assert_eq!(names[0], "t_nothing");
    assert_eq!(names[6], "t_ras");
    assert!(names.contains(&"mean_length".to_string()), "{names:?}");
    // ENEMY_ID's default is RAS: doing nothing loses, RAS draws its mirror image.
    let x = p.space().decode(&p.space().default_indices());
    let a = p.evaluate(&x, 9).unwrap();
    assert_eq!(a, p.evaluate(&x, 9).unwrap());
    assert!(a.fitness > 0.0, "{a:?}");
    assert_eq!(a.fitness, a.features[6] - a.features[0]);
    // Two rungs of one agent are named by their settings; two identical rungs would
    // give two features of one name.
    let config = |ladder: [&str; 2]| DesignConfig {
        ladder: ladder.iter().map(|r| r.to_string()).collect(),
        games: 1,
        budget: None,
        settings: Vec::new(),
        metrics: false,
        playable: false,
    };
    let two = DesignProblem::new(
        game("space-battle").unwrap(),
        config(["mcts(iterations=5)", "mcts(iterations=50)"]),
        None,
    )
    .unwrap();
    let names = two.feature_names();
    assert!(
        names.iter().any(|n| n.ends_with("_mcts_iterations_5"))
            && names.iter().any(|n| n.ends_with("_mcts_iterations_50")),
        "{names:?}"
    );
    let err = DesignProblem::new(
        game("space-battle").unwrap(),
        config(["mcts(iterations=5)", "mcts(iterations=5)"]),
        None,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.contains("two rungs are named `mcts_iterations_5`"),
        "{err}"
    );
}

/// With `players=2` fixed, Rinascimento's design space starts from 2-player Splendor
/// (4 coins), holds the search to the game's playability, and a domain leaving the
/// game's range is refused before any game, naming the file, line and range.
#[test]
fn the_games_own_rules_playability_and_ranges_hold() {
    use playtune::{ProblemSpec, build_problem};
    let spec = |playable: &str| ProblemSpec {
        name: "design".into(),
        settings: [
            ("game", "rinascimento"),
            ("ladder", "rnd,osla(budget=20)"),
            ("games", "2"),
            ("game_settings", "players=2"),
            ("playable", playable),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
    };
    let problem = build_problem(&spec("true"), None).unwrap();
    let space = problem.space();
    let default = space.render(&space.decode(&space.default_indices()));
    let coins = default.iter().find(|(k, _)| k == "coins").unwrap();
    assert_eq!(coins.1, "4", "2-player Splendor's bank: {default:?}");
    let constraints: Vec<String> = space.constraints.iter().map(|c| c.to_string()).collect();
    assert!(
        constraints.iter().any(|c| c.starts_with("stalemate_rate")),
        "{constraints:?}"
    );
    assert!(
        constraints
            .iter()
            .any(|c| c.contains("mean_length") && c.contains("40")),
        "{constraints:?}"
    );
    let baseline = problem.baseline().unwrap();
    assert!(
        baseline
            .settings
            .contains(&("coins".to_string(), "4".to_string()))
    );
    let none = build_problem(&spec("false"), None).unwrap();
    assert!(none.space().constraints.is_empty());

    // A space whose coins leave 1..20 is refused with its file, line and the range.
    let dir = tempfile::TempDir::new().unwrap();
    let file = dir.path().join("coins.ron");
    std::fs::write(
        &file,
        "(\n    name: \"wide\",\n    dims: [\n        (name: \"end_points\", kind: Int(min: 10, max: 20, step: 5), default: 15),\n        (name: \"coins\", kind: Int(min: 2, max: 40, step: 2), default: 4),\n    ],\n)\n",
    )
    .unwrap();
    design_on_rinascimento()
        .args([
            "--set", "games=1", "--budget", "2", "--no-log", "-q", "--space",
        ])
        .arg(&file)
        .args(["--runs-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("coins.ron:5"))
        .stderr(predicate::str::contains("from 1 to 20"));
    // A constraint naming a feature the problem lacks: its line and index.
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(\n    name: \"c\",\n    dims: [\n        (name: \"coins\", kind: Int(min: 2, max: 8, step: 1), default: 2),\n    ],\n    constraints: [\"stalemate_rate <= 0.05\", \"stalemates <= 3\"],\n)\n",
    )
    .unwrap();
    design_on_rinascimento()
        .args([
            "--set", "games=1", "--budget", "2", "--no-log", "-q", "--space",
        ])
        .arg(&bad)
        .args(["--runs-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.ron:6:"))
        .stderr(predicate::str::contains("constraints[1]"))
        .stderr(predicate::str::contains("no feature `stalemates`"));
    // `playtune games` lists ranges and the playability constraints.
    playtune()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains("coins=splendor"))
        .stdout(predicate::str::contains("[takes 1 to 20]"))
        .stdout(predicate::str::contains("stalemate_rate <= 0.05"));
}

/// A design run ends with its verdict against the game's own rules, on the command
/// line, in --json and in result.ron; a tuning run against the untuned agent.
#[test]
fn design_and_tuning_runs_end_with_a_verdict() {
    let dir = tempfile::TempDir::new().unwrap();
    let out = playtune()
        .args(["optimize", "--problem", "design", "--set", "game=rinascimento"])
        .args(["--set", "ladder=rnd,osla(budget=20)", "--set", "games=4"])
        .args(["--set", "game_settings=players=2", "--budget", "6"])
        .args(["--verdict", "6", "--json", "-q", "--name", "d", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "verdict, trial 0: the recommendation and rinascimento's own rules each evaluated 6 times",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    let json: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let v = &json["verdict"];
    assert_eq!(v["fitness"], "skill depth");
    assert_eq!(v["pairs"], 6);
    assert!(v["recommendation"]["mean"].is_f64(), "{v}");
    assert!(v["baseline"]["mean"].is_f64(), "{v}");
    let sentence = v["sentence"].as_str().unwrap();
    // Six pairs of four games a rung decide nothing: the verdict says so, with its
    // margin and how many pairs would.
    assert!(
        sentence.starts_with("Undecided at the cap of 6 pairs")
            && sentence.contains("nor equal within 0.05")
            && sentence.contains("more paired evaluations would decide"),
        "{sentence}"
    );
    assert_eq!(v["outcome"], "NoBetter");
    assert_eq!(v["sequential"]["margin"], 0.05);
    assert_eq!(v["sequential"]["cap"], 6);
    assert!(text.contains(sentence), "the sentence is printed");
    let result = std::fs::read_to_string(dir.path().join("d/result.ron")).unwrap();
    assert!(result.contains("verdict"), "{result}");
    // A tournament plays the recommended rules, as `play --params` does.
    playtune()
        .args([
            "tournament",
            "--game",
            "rinascimento",
            "--agents",
            "rnd,osla(budget=20)",
        ])
        .args(["--games", "2", "--params"])
        .arg(dir.path().join("d"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "2 games of rinascimento (2 players)",
        ));
    // The report shows it.
    playtune()
        .arg("report")
        .arg(dir.path().join("d"))
        .assert()
        .success();
    let page = std::fs::read_to_string(dir.path().join("d/report.html")).unwrap();
    assert!(
        page.contains("id=\"verdict\""),
        "the report has a verdict section"
    );
    assert!(
        page.contains("skill_depth_se"),
        "and the features side by side"
    );
    // `reevaluate` judges again, on the same fresh seeds: the same verdict.
    let again = playtune()
        .args(["reevaluate", "--n", "6", "--json"])
        .arg(dir.path().join("d"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let again = String::from_utf8_lossy(&again);
    let again: serde_json::Value = serde_json::from_str(again.lines().last().unwrap()).unwrap();
    assert_eq!(again["points"][0]["verdict"]["sentence"], v["sentence"]);

    playtune()
        .args([
            "optimize",
            "--problem",
            "tune-agent",
            "--set",
            "game=rinascimento",
        ])
        .args(["--set", "agent=mcts(budget=20)", "--set", "opponents=rnd"])
        .args(["--set", "games=4", "--set", "game_settings=players=2"])
        .args(["--budget", "4", "--verdict", "4", "-q", "--no-log"])
        .args(["--name", "t", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "the untuned agent mcts(budget=20) each evaluated 4 times",
        ))
        .stdout(predicate::str::contains("win rate"));
    // --verdict 0 skips it; a --baseline outside the space is refused at once.
    design_on_rinascimento()
        .args(["--set", "ladder=rnd,osla(budget=20)", "--set", "games=2"])
        .args(["--budget", "2", "--verdict", "0", "-q", "--no-log"])
        .args(["--name", "none", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("verdict").not());
    design_on_rinascimento()
        .args([
            "--set",
            "games=2",
            "--budget",
            "2",
            "--baseline",
            "colour=3",
        ])
        .args(["-q", "--no-log", "--name", "bad", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--baseline colour=3"));
    assert!(!dir.path().join("bad").exists());
}

/// `playtune optimize --problem design --set game=rinascimento`, for more flags.
fn design_on_rinascimento() -> Command {
    let mut c = playtune();
    c.args([
        "optimize",
        "--problem",
        "design",
        "--set",
        "game=rinascimento",
    ]);
    c
}
