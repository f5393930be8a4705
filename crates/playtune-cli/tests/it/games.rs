//! Every registered game through the one harness: the same commands, the same
//! determinism, the same clear errors.

use crate::common;
use common::playtune;

use assert_cmd::Command;
use predicates::prelude::*;

/// The last line of stdout as JSON, without the wall-clock fields.
fn result(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    let text = String::from_utf8_lossy(&out);
    let mut j: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    for k in ["seconds", "states_per_second"] {
        j.as_object_mut().unwrap().remove(k);
    }
    j
}

#[test]
fn tournaments_of_every_game_are_the_same_on_one_thread_or_four() {
    let cases: [&[&str]; 3] = [
        &[
            "--game",
            "space-battle",
            "--agents",
            "ras,1sla,mcts(iterations=5,depth=3),random",
            "--set",
            "max_ticks=120",
            "--games",
            "2",
        ],
        &[
            "--game",
            "rinascimento",
            "--players",
            "2",
            "--agents",
            "rnd,osla(budget=30),mcts*,bmrh(evaluations=5)",
            "--budget",
            "60",
            "--games",
            "3",
        ],
        &[
            "--game",
            "strategy",
            "--agents",
            "rule,p-mcts-pu(budget=100),hps(budget=1000),random",
            "--set",
            "turns=8",
            "--games",
            "2",
        ],
    ];
    for args in cases {
        let run = |threads: &str| {
            result(
                playtune()
                    .env("RAYON_NUM_THREADS", threads)
                    .arg("tournament")
                    .args(args)
                    .args(["--seed", "5", "--json"]),
            )
        };
        let one = run("1");
        assert_eq!(one, run("4"), "{args:?}");
        assert_eq!(one["pairs"].as_array().unwrap().len(), 6, "{one}");
        design_metrics_agree_with_the_game(&one);
    }
}

/// The harness's design metrics against what each game reports of itself.
fn design_metrics_agree_with_the_game(j: &serde_json::Value) {
    let d = &j["design"];
    let f = |k: &str| d[k].as_f64().unwrap_or_else(|| panic!("design.{k}: {j}"));
    let games = j["games"].as_f64().unwrap();
    let no_winner = j["no_winner"].as_f64().unwrap() / games;
    assert!((f("stalemate_rate") - no_winner).abs() < 1e-12, "{d}");
    // Every game has a winning seat or none: the seat rates add up to the games won,
    // a draw counting for each winner.
    let seat = |s: usize| d["seat_win_rate"][s].as_f64().unwrap();
    let seats = seat(0) + seat(1);
    assert!(
        (seats - (1.0 - no_winner + f("draw_rate"))).abs() < 1e-9,
        "{d}"
    );
    assert!((f("seat_advantage") - (seat(0) - seat(1)).abs()).abs() < 1e-12);
    assert!((f("mean_length") - j["mean_length"].as_f64().unwrap()).abs() < 1e-9);
    assert!(f("lead_changes") >= 0.0);
    match j["game"].as_str().unwrap() {
        // 120-tick duels: the tick limit ends every one.
        "space-battle" => assert_eq!(f("ended_by_rules"), 0.0, "{d}"),
        // Captures end games by the rules, the turn limit by the cap.
        "strategy" => {
            assert!((f("ended_by_rules") - j["by_capture"].as_f64().unwrap()).abs() < 1e-12)
        }
        _ => assert!((0.0..=1.0).contains(&f("ended_by_rules"))),
    }
}

#[test]
fn play_takes_agents_with_settings_in_every_game() {
    let j = result(playtune().args([
        "play",
        "--game",
        "rinascimento",
        "--set",
        "players=3",
        "--agents",
        "mcts*(budget=100),osla(budget=20),random",
        "--json",
    ]));
    assert_eq!(j["scores"].as_array().unwrap().len(), 3);
    assert!(j["stalemate_rate"].is_number());
    let j = result(playtune().args([
        "play",
        "--game",
        "space-battle",
        "--agents",
        "mcts(iterations=5,depth=2),nothing",
        "--set",
        "max_ticks=50",
        "--json",
    ]));
    assert_eq!(j["length"], 50);
}

#[test]
fn games_lists_games_settings_and_agents() {
    playtune().arg("games").assert().success().stdout(
        predicate::str::contains("space-battle")
            .and(predicate::str::contains("rinascimento"))
            .and(predicate::str::contains("max_ticks=2000"))
            .and(predicate::str::contains("mcts* | mcts"))
            .and(predicate::str::contains("iterations=175"))
            .and(predicate::str::contains("strategy"))
            .and(predicate::str::contains("p-mcts-pu | pmcts-pu"))
            .and(predicate::str::contains("hps"))
            .and(predicate::str::contains("level=training")),
    );
}

#[test]
fn bad_games_agents_and_settings_exit_with_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["play", "--game", "chess"], "unknown game `chess`"),
        (&["tournament", "--game", "go"], "unknown game `go`"),
        (
            &[
                "play",
                "--game",
                "space-battle",
                "--agents",
                "mcts(depht=2),ras",
            ],
            "no setting `depht`",
        ),
        (&["play", "--agents", "osla(budget=-3),random"], "budget=-3"),
        (&["play", "--agents", "mcts(depth=2,random"], "closing `)`"),
        (
            &["play", "--game", "space-battle", "--agents", "ras"],
            "1 agents for 2 players",
        ),
        (
            &["play", "--game", "space-battle", "--set", "max_ticks=0"],
            "max_ticks",
        ),
        (&["play", "--set", "warp=9"], "no setting `warp`"),
        (
            &["tournament", "--game", "space-battle", "--players", "3"],
            "no setting `players`",
        ),
        (&["render", "--game", "rinascimento"], "no picture"),
    ];
    for (args, fragment) in cases {
        let out = playtune().args(*args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(fragment),
            "{args:?}: stderr lacks `{fragment}`:\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    }
}

/// A game's settings are read once and passed on: every game takes its own, and
/// refuses another game's rather than reading them as its own.
#[test]
fn a_games_settings_are_read_once_and_another_games_refused() {
    for a in playtune::registry::GAMES {
        let own = a.settings_values(&[]).unwrap();
        a.players(&own).unwrap();
        a.default_agents(&own).unwrap();
        a.own_rules(&own).unwrap();
        a.playability(&own).unwrap();
        for b in playtune::registry::GAMES {
            if a.name() == b.name() {
                continue;
            }
            let refusals = [
                b.players(&own).map(|_| ()),
                b.default_agents(&own).map(|_| ()),
                b.own_rules(&own).map(|_| ()),
                b.playability(&own).map(|_| ()),
            ];
            for r in refusals {
                let e = r.unwrap_err().to_string();
                assert_eq!(
                    e,
                    format!(
                        "settings of game `{}`: given to game `{}`, which reads only its own",
                        a.name(),
                        b.name()
                    )
                );
            }
        }
    }
}

/// `render` takes turns (`end` or any turn past the end: the final state), and every
/// game's picture has a legend naming the agents' colours and the map's marks.
#[test]
fn renders_take_turns_reach_the_end_and_have_a_legend() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &[&str]); 2] = [
        (
            &[
                "--game",
                "strategy",
                "--agents",
                "random,rule",
                "--set",
                "turns=6",
                "--at",
                "0,2,end",
            ],
            &[
                "start",
                "after 2 turns",
                "end, after",
                "tribe 0: random",
                "tribe 1: rule",
                "Terrain:",
                "forest",
                "Resources",
                "Buildings",
                "windmill",
                "Units",
                "catapult",
                "capital",
            ],
        ),
        (
            &[
                "--game",
                "space-battle",
                "--agents",
                "ras,random",
                "--set",
                "max_ticks=60",
                "--at",
                "30,500",
            ],
            &[
                "tick 30",
                "tick 60 (end)",
                "ship 0: ras",
                "ship 1: random",
                "Black holes:",
                "penalty area",
                "bomb",
                "pack",
            ],
        ),
    ];
    for (i, (args, says)) in cases.iter().enumerate() {
        let pic = dir.path().join(format!("map{i}.svg"));
        playtune()
            .arg("render")
            .args(*args)
            .arg("--out")
            .arg(&pic)
            .assert()
            .success();
        let svg = std::fs::read_to_string(&pic).unwrap();
        for text in *says {
            assert!(svg.contains(text), "{args:?}: the picture lacks `{text}`");
        }
    }
    playtune()
        .args(["render", "--game", "strategy", "--at", "soon"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a turn"));
}

/// The strategy experiments run, write their table and plots, and resume without
/// playing a finished game again (the games file is the same after a second run).
#[test]
fn strategy_experiments_run_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    for (experiment, table) in [
        ("strategy-portfolio", "| p-mcts-pu | mcts |"),
        ("strategy-difficulty", "ordering by row average"),
    ] {
        let run = || {
            playtune()
                .args([
                    "experiment",
                    experiment,
                    "--preset",
                    "quick",
                    "--set",
                    "turns=3",
                    "-q",
                ])
                .arg("--runs-dir")
                .arg(dir.path().join("runs"))
                .arg("--plots-dir")
                .arg(dir.path().join("plots"))
                .assert()
                .success()
                .stdout(predicate::str::contains(table))
        };
        run();
        let name = format!("{experiment}-quick");
        let games = dir.path().join("runs").join(&name).join("games.csv");
        let first = std::fs::read_to_string(&games).unwrap();
        assert!(first.lines().count() > 8, "{first}");
        run();
        assert_eq!(first, std::fs::read_to_string(&games).unwrap());
        assert!(
            dir.path()
                .join("plots")
                .join(&name)
                .read_dir()
                .unwrap()
                .count()
                >= 2
        );
    }
    // The same folder with other settings is refused, not mixed.
    playtune()
        .args([
            "experiment",
            "strategy-portfolio",
            "--preset",
            "quick",
            "--set",
            "turns=4",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(dir.path().join("runs"))
        .arg("--plots-dir")
        .arg(dir.path().join("plots"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different experiment"));
}

/// The play-styles experiment builds its three archives, heatmaps and validation
/// tables, resumes from the runs' logs, and a ladder of its elites plays a round robin
/// on validation levels.
#[test]
fn play_styles_archives_validate_resume_and_make_a_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let (runs, plots) = (dir.path().join("runs"), dir.path().join("plots"));
    let run = || {
        playtune()
            .args([
                "experiment",
                "play-styles",
                "--preset",
                "quick",
                "--budget",
                "24",
            ])
            .args(["--set", "turns=6", "-q"])
            .arg("--runs-dir")
            .arg(&runs)
            .arg("--plots-dir")
            .arg(&plots)
            .assert()
            .success()
    };
    run();
    let root = runs.join("play-styles-quick");
    let summary = std::fs::read_to_string(root.join("summary.md")).unwrap();
    for pair in [
        "attacks x ranged_minus_melee",
        "defender_spawns x rider_spawns",
        "economy_research x builds",
    ] {
        assert!(summary.contains(pair), "{summary}");
    }
    let log = root.join("attacks-support").join("evals.csv");
    let first = std::fs::read_to_string(&log).unwrap();
    run();
    assert_eq!(first, std::fs::read_to_string(&log).unwrap());
    assert!(
        plots
            .join("play-styles-quick")
            .join("attacks-support")
            .join("heatmap_fitness.svg")
            .exists()
    );
    playtune()
        .arg("ladder")
        .arg(root.join("economy-builds"))
        .args(["--pick", "2", "--candidates", "4", "--candidate-games", "8"])
        .args([
            "--level-count",
            "1",
            "--games",
            "2",
            "--set",
            "turns=6",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(&runs)
        .arg("--plots-dir")
        .arg(&plots)
        .assert()
        .success()
        .stdout(predicate::str::contains("ordering by row average"))
        .stdout(predicate::str::contains("round robin of 8 games a pair"));
    // The candidates met each other first: 4 candidates, 6 pairs of 8 games.
    let ladder = runs.join("economy-builds-ladder");
    let pool = std::fs::read_to_string(ladder.join("candidates/games.csv")).unwrap();
    assert_eq!(pool.lines().count(), 1 + 6 * 8);
    assert!(ladder.join("candidates.md").exists());
    playtune()
        .arg("ladder")
        .arg(root.join("economy-builds"))
        .args(["--by", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such column"));
}

/// A ladder by configuration: one agent over a budget range gets its budgets on a log
/// scale, the built-in ladder gives its rungs, and the table reports each step with its
/// standard error; bad ranges and rung counts are refused with the option named.
#[test]
fn ladders_by_configuration_grade_budgets_and_refuse_bad_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = |args: &[&str]| {
        let mut c = playtune();
        c.arg("ladder")
            .args(args)
            .args(["--level-count", "1", "--games", "2", "--set", "turns=8"])
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots"));
        c
    };
    let out = ladder(&[
        "--agent",
        "p-mcts-pu",
        "--budgets",
        "10..1000",
        "--rungs",
        "3",
        "-q",
    ])
    .assert()
    .success()
    .get_output()
    .stdout
    .clone();
    let text = String::from_utf8_lossy(&out);
    for rung in ["budget=10)", "budget=100)", "budget=1000)", "| 1 to 2 |"] {
        assert!(text.contains(rung), "{text}");
    }
    assert!(
        dir.path()
            .join("runs/ladder-p-mcts-pu-10-1000-r3/games.csv")
            .exists()
    );
    for (args, says) in [
        (
            &["--agent", "rule", "--budgets", "50..50"][..],
            "--budgets 50..50",
        ),
        (&["--rungs", "9"][..], "--rungs 9"),
        (&["--agents", "random"][..], "at least two agents"),
    ] {
        ladder(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

/// The published difficulty ladder (regenerated byte for byte from its games by
/// `damaged_files::tables::the_published_strategy_tables_pass_the_checks`) holds: at least five
/// rungs, each beating the one below by more than two standard errors, HPS at the top.
#[test]
fn the_published_difficulty_ladder_holds_step_by_step() {
    let path = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/runs/published/strategy-difficulty-full/summary.md"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let agents: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("**"))
        .map(|l| l.split('|').nth(2).unwrap().trim())
        .collect();
    assert!(agents.len() >= 5, "{text}");
    assert!(agents.last().unwrap().starts_with("hps"), "{text}");
    let steps: Vec<(f64, f64)> = text
        .lines()
        .filter(|l| l.contains(" to ") && l.starts_with("| "))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c[2].parse().unwrap(), c[3].parse().unwrap())
        })
        .collect();
    assert_eq!(steps.len(), agents.len() - 1, "{text}");
    for (gain, se) in steps {
        assert!(gain > 2.0 * se, "a step of {gain} ± {se}: {text}");
    }
    assert!(text.contains("holds: every rung beats"), "{text}");
}
