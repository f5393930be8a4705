//! The command line on MAP-Elites, the games, the experiments and the pictures: archives
//! that resume, games played and rendered, experiments with their figures, every
//! drawing command's plots folder.

use crate::cli::{cut_and_resume, last_json};
use crate::common;
use common::playtune;

use predicates::prelude::*;
use std::path::Path;
use tempfile::TempDir;

/// MAP-Elites with several emitters over a CVT archive, killed mid-way (its log cut,
/// the last line half written), resumes to the files of the uninterrupted run.
#[test]
fn map_elites_resumes_after_an_interruption() {
    let dir = TempDir::new().unwrap();
    let args = [
        "map-elites",
        "--set",
        "dims=10",
        "--evaluations",
        "700",
        "--batch",
        "20",
        "--emitters",
        "iso-line,gaussian",
        "--archive",
        "cvt",
        "--centroids",
        "40",
        "--reevaluate",
        "2",
        "--trials",
        "2",
        "--seed",
        "3",
        "-q",
    ];
    assert_eq!(
        cut_and_resume(&args, dir.path(), 500, "0,499,search,1"),
        499
    );
    let result = std::fs::read_to_string(dir.path().join("full/result.ron")).unwrap();
    assert!(result.contains("Cvt(") && result.contains("centroids"));
}

#[test]
fn map_elites_refuses_bad_emitters_and_archives() {
    for (args, says) in [
        (&["--emitters", "gaussian,cma"][..], "unknown emitter `cma`"),
        (&["--emitters", ""][..], "unknown emitter"),
        (&["--archive", "hex"][..], "invalid value 'hex'"),
        (
            &["--centroids", "10"][..],
            "--centroids 10: needs archive cvt",
        ),
        (
            &["--archive", "cvt", "--centroids", "0"][..],
            "--centroids 0",
        ),
        (
            &["--emitters", "iso-line", "--line-sigma", "0"][..],
            "--line-sigma 0",
        ),
        (
            &["--emitters", "gaussian", "--mutation", "gaussian"][..],
            "cannot be used multiple times",
        ),
    ] {
        playtune()
            .args(["map-elites", "--no-log", "-q", "--evaluations", "10"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn map_elites_on_the_sphere_writes_its_archive() {
    let dir = TempDir::new().unwrap();
    let out = playtune()
        .args([
            "map-elites",
            "--set",
            "dims=20",
            "--evaluations",
            "3000",
            "--reevaluate",
            "2",
            "--json",
            "-q",
            "--name",
            "me",
            "--runs-dir",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let j = last_json(&out);
    let t = &j["trials"][0];
    assert!(t["coverage"].as_f64().unwrap() > 0.0 && t["filled"].as_u64().unwrap() > 10);
    assert_eq!(j["evaluations_search"], 3000);
    assert_eq!(
        j["evaluations_reevaluate"].as_u64().unwrap(),
        2 * t["filled"].as_u64().unwrap()
    );
    let result = std::fs::read_to_string(dir.path().join("me/result.ron")).unwrap();
    assert!(result.contains("elites") && result.contains("qd_score") && result.contains("replay"));
}

#[test]
fn plot_draws_convergence_and_archives() {
    let dir = TempDir::new().unwrap();
    let runs = dir.path().join("runs");
    playtune()
        .args([
            "optimize",
            "--trials",
            "3",
            "-q",
            "--name",
            "o",
            "--runs-dir",
        ])
        .arg(&runs)
        .assert()
        .success();
    playtune()
        .args([
            "map-elites",
            "--set",
            "dims=10",
            "--evaluations",
            "2000",
            "-q",
            "--name",
            "m",
            "--runs-dir",
        ])
        .arg(&runs)
        .assert()
        .success();
    let out = dir.path().join("plots");
    playtune()
        .arg("plot")
        .arg(runs.join("o"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    playtune()
        .arg("plot")
        .arg(runs.join("m"))
        .arg("--out")
        .arg(&out)
        .args(["--format", "svg"])
        .assert()
        .success();
    for f in [
        "convergence.png",
        "coverage.svg",
        "qd_score.svg",
        "heatmap.svg",
    ] {
        let bytes = std::fs::read(out.join(f)).unwrap_or_else(|_| panic!("{f} missing"));
        assert!(bytes.len() > 5_000, "{f} is too small to hold a chart");
    }
    let png = std::fs::read(out.join("convergence.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = std::fs::read_to_string(out.join("heatmap.svg")).unwrap();
    assert!(
        svg.contains("<text") && svg.contains("measure_0"),
        "axis labels are drawn as text"
    );
    playtune()
        .arg("plot")
        .arg(runs.join("o"))
        .args(["--format", "gif"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("png or svg"));
}

#[test]
fn space_battle_play_render_and_export() {
    let dir = TempDir::new().unwrap();
    let out = playtune()
        .args([
            "play",
            "--game",
            "space-battle",
            "--p1",
            "ras",
            "--p2",
            "nothing",
            "--set",
            "max_ticks=300",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let j = last_json(&out);
    assert_eq!(j["winner"], 0, "RAS beats a sitting duck: {j}");
    assert!(j["t"].as_f64().unwrap() > 1000.0);
    let pic = dir.path().join("map.svg");
    playtune()
        .args([
            "render",
            "--game",
            "space-battle",
            "--p1",
            "1sla",
            "--params",
            "GRID_SIZE=2,BLACKHOLE_CELL_0=true,MISSILE_TYPE=bomb",
            "--set",
            "max_ticks=200",
            "--at",
            "0,100,200",
            "--out",
        ])
        .arg(&pic)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&pic).unwrap();
    assert!(
        svg.contains("tick 100") && svg.contains("<circle"),
        "panels with holes and ships"
    );
    playtune()
        .args(["play", "--game", "space-battle", "--params", "GRID_SIZE=7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("GRID_SIZE"));
    playtune()
        .args(["play", "--game", "space-battle", "--params", "WARP=1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no parameter `WARP`"));
    playtune()
        .args(["play", "--game", "space-battle", "--p1", "hal9000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown Space Battle agent"));
    let exported = playtune()
        .args(["spaces", "export", "space-battle"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let shipped = std::fs::read_to_string(common::root("spaces/space_battle_evolved.ron")).unwrap();
    assert!(
        shipped.ends_with(String::from_utf8(exported).unwrap().as_str()),
        "the shipped space file is the exported one"
    );
}

#[test]
fn space_battle_experiment_writes_summary_and_figure() {
    let dir = TempDir::new().unwrap();
    let experiment = || {
        let mut cmd = playtune();
        cmd.args([
            "experiment",
            "space-battle",
            "--trials",
            "2",
            "--budget",
            "4",
            "--reevaluations",
            "2",
            "-q",
        ])
        .args([
            "--set",
            "max_ticks=100",
            "--set",
            "mcts_iterations=5",
            "--set",
            "mcts_depth=3",
            "--fix",
            "ENEMY_ID=ras",
            "--name",
            "e",
        ])
        .arg("--runs-dir")
        .arg(dir.path().join("runs"))
        .arg("--plots-dir")
        .arg(dir.path().join("plots"));
        cmd
    };
    experiment()
        .assert()
        .success()
        .stdout(predicate::str::contains("Mann-Whitney").and(predicate::str::contains("Table II")));
    let summary = std::fs::read_to_string(dir.path().join("runs/e/summary.md")).unwrap();
    let result = std::fs::read_to_string(dir.path().join("runs/e/summary.ron")).unwrap();
    // An interrupted experiment resumes its re-evaluations: drop one logged line, cut
    // another short, and the rerun gives the same result.
    let log = dir.path().join("runs/e/ntbea/reevaluations.csv");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "2 trials x 2 re-evaluations:\n{text}");
    let cut = &lines[3][..lines[3].len() - 2];
    std::fs::write(&log, format!("{}\n{}\n{cut}", lines[0], lines[1])).unwrap();
    experiment().assert().success();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("runs/e/summary.ron")).unwrap(),
        result
    );
    let relogged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        relogged.lines().count(),
        4,
        "the cut line is gone:\n{relogged}"
    );
    assert_eq!(relogged.lines().next(), Some(lines[0]));
    for algo in ["RMHC", "B-RMHC", "NTBEA"] {
        assert!(
            summary.contains(&format!("| {algo} |")),
            "{algo} row missing:\n{summary}"
        );
        assert!(
            dir.path()
                .join("runs/e")
                .join(algo.to_lowercase())
                .join("evals.csv")
                .exists()
        );
    }
    assert!(
        std::fs::metadata(dir.path().join("plots/e/figure2.png"))
            .unwrap()
            .len()
            > 5_000
    );
}

#[test]
fn rinascimento_tournament_reports_lengths_and_win_rates() {
    let out = playtune()
        .args([
            "tournament",
            "--game",
            "rinascimento",
            "--players",
            "4",
            "--agents",
            "rnd,rnd,rnd,rnd",
            "--games",
            "300",
            "--seed",
            "1",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let j = last_json(&out);
    let mean = j["mean_length"].as_f64().unwrap();
    assert!(
        (120.0..165.0).contains(&mean),
        "mean length {mean} (paper 140.86)"
    );
    let stalemates = j["stalemate_rate"].as_f64().unwrap();
    assert!(
        (0.03..0.2).contains(&stalemates),
        "stalemate rate {stalemates} (paper 14.1%, Java today 9.7%)"
    );
    assert!(j["sd_length"].as_f64().unwrap() > 5.0);
    let rates: Vec<f64> = j["win_rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(rates.len(), 4);
    assert!(
        rates.iter().all(|&r| (0.12..0.35).contains(&r)),
        "random seats are even: {rates:?}"
    );
    playtune()
        .args(["tournament", "--players", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2 to 4"));
    playtune()
        .args(["tournament", "--agents", "rnd,gandalf,rnd,rnd"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("gandalf"));
}

#[test]
fn rinascimento_experiment_writes_figure_five_and_tables() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "experiment",
            "rinascimento",
            "--trials",
            "2",
            "--budget",
            "6",
            "-q",
            "--name",
            "r",
        ])
        .arg("--runs-dir")
        .arg(dir.path().join("runs"))
        .arg("--plots-dir")
        .arg(dir.path().join("plots"))
        .assert()
        .success()
        .stdout(predicate::str::contains("vs 3 OSLA").and(predicate::str::contains("(2 players)")));
    for agent in ["bmrh", "srh", "mcts"] {
        assert!(
            dir.path()
                .join(format!("runs/r/{agent}-b6/result.ron"))
                .exists()
        );
        assert!(
            std::fs::metadata(dir.path().join(format!("plots/r/figure5_{agent}.png")))
                .unwrap()
                .len()
                > 5_000
        );
    }
    let summary = std::fs::read_to_string(dir.path().join("runs/r/summary.md")).unwrap();
    assert!(summary.contains("| bmrh | 6 | 2 |"), "{summary}");
    // Every best configuration is an agent spec that pastes into `playtune play`.
    let spec = summary
        .lines()
        .find(|l| l.starts_with("- mcts (true win rate"))
        .and_then(|l| l.split('`').nth(1))
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(
        spec.starts_with("mcts(") && spec.contains("budget=1000"),
        "{spec}"
    );
    playtune()
        .args(["play", "--game", "rinascimento", "--set", "players=2"])
        .args(["--agents", &format!("{spec},osla(budget=50)")])
        .assert()
        .success();
    playtune()
        .args(["experiment", "rinascimento", "--set", "x=1"])
        .assert()
        .code(2);
    playtune()
        .args(["experiment", "chess"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown experiment"));
}

/// A preset an experiment does not declare is refused before any folder is made,
/// naming the ones it has, and a flag of another experiment too. (That its help is its
/// declaration is tested in the command line's `cli::experiment`.)
#[test]
fn each_experiments_refusals_come_from_its_declaration() {
    let dir = TempDir::new().unwrap();
    playtune()
        .current_dir(dir.path())
        .args(["experiment", "rule-design", "--preset", "medium"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "possible values: quick, full, paper",
        ));
    playtune()
        .current_dir(dir.path())
        .args(["experiment", "ntbea-defaults", "--preset", "paper"])
        .assert()
        .code(2);
    playtune()
        .current_dir(dir.path())
        .args(["experiment", "strategy-portfolio", "--game", "rinascimento"])
        .assert()
        .code(2);
    playtune()
        .current_dir(dir.path())
        .args(["experiment", "space-battle", "--trials", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--trials"));
    assert!(!dir.path().join("runs").exists());
}

/// The play-styles archive end to end at toy settings: the paper's initialisation
/// (one-hot weights, random points) and one-weight mutation over the strategy game's
/// genome; the same files with 1 thread or 4; an interrupted run resumes to the same
/// files; the heatmaps of any stored column, and a bad column named with the choices.
#[test]
fn strategy_styles_archive_runs_resumes_and_plots() {
    let args = [
        "map-elites",
        "--problem",
        "strategy-styles",
        "--set",
        "levels=1",
        "--set",
        "games=2",
        "--set",
        "budget=100",
        "--axis",
        "attacks=0:30:10",
        "--axis",
        "ranged_minus_melee=-4:4:8",
        "--overflow-bins",
        "--emitters",
        "one-weight",
        "--one-hot",
        "--init-random",
        "5",
        "--evaluations",
        "30",
        "--batch",
        "6",
        "--seed",
        "4",
        "-q",
    ];
    let files = |threads: &str, dir: &Path| {
        let out = playtune()
            .env("RAYON_NUM_THREADS", threads)
            .args(args)
            .args(["--json", "--name", "s", "--runs-dir"])
            .arg(dir)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let filled = last_json(&out)["trials"][0]["filled"].as_u64().unwrap();
        let run = dir.join("s");
        let read = |f: &str| std::fs::read(run.join(f)).unwrap();
        (filled, read("evals.csv"), read("result.ron"))
    };
    let (a, b) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let one = files("1", a.path());
    assert!(one.0 >= 2, "the archive holds elites ({} cells)", one.0);
    assert!(one == files("4", b.path()), "1 and 4 threads differ");
    let config = std::fs::read_to_string(a.path().join("s/config.ron")).unwrap();
    assert!(
        config.contains("secondary: \"mean_score\""),
        "ties go by mean score unless --better says otherwise"
    );
    let c = TempDir::new().unwrap();
    assert_eq!(cut_and_resume(&args, c.path(), 20, "0,19,search,1"), 19);

    let out = a.path().join("plots");
    for format in ["png", "svg"] {
        playtune()
            .arg("plot")
            .arg(a.path().join("s"))
            .arg("--out")
            .arg(&out)
            .args(["--format", format, "--heatmap", "win_rate"])
            .args(["--heatmap", "attacks_se"])
            .assert()
            .success();
    }
    for f in [
        "heatmap_win_rate.png",
        "heatmap_win_rate.svg",
        "heatmap_attacks_se.svg",
    ] {
        let bytes = std::fs::read(out.join(f)).unwrap_or_else(|_| panic!("{f} missing"));
        assert!(bytes.len() > 5_000, "{f} is too small to hold a chart");
    }
    let svg = std::fs::read_to_string(out.join("heatmap_win_rate.svg")).unwrap();
    for label in [
        "&lt; -4",
        "&gt;= 30",
        "[0, 3)",
        "ranged_minus_melee",
        "win_rate",
    ] {
        assert!(svg.contains(label), "the heatmap shows `{label}`");
    }
    playtune()
        .arg("plot")
        .arg(a.path().join("s"))
        .args(["--heatmap", "wins"])
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no column `wins`"))
        .stderr(predicate::str::contains("win_rate, mean_score, attacks"));
}

/// One flag for the plots folder: `optimize`, `map-elites` and `plot` take
/// `--plots-dir DIR` and draw into DIR/<run name>, as the experiments do.
#[test]
fn every_command_that_draws_takes_plots_dir() {
    let dir = TempDir::new().unwrap();
    let runs = dir.path().join("runs");
    let pics = dir.path().join("pics");
    for (command, size, name, picture) in [
        ("optimize", "--budget", "o", "convergence.png"),
        ("map-elites", "--evaluations", "m", "coverage.png"),
    ] {
        playtune()
            .args([command, "-q", size, "60", "--name", name])
            .arg("--runs-dir")
            .arg(&runs)
            .arg("--plots-dir")
            .arg(&pics)
            .assert()
            .success();
        assert!(pics.join(name).join(picture).is_file(), "{command}");
    }
    let again = dir.path().join("again");
    playtune()
        .arg("plot")
        .arg(runs.join("o"))
        .arg("--plots-dir")
        .arg(&again)
        .assert()
        .success();
    assert!(again.join("o/convergence.png").is_file());
    playtune()
        .arg("plot")
        .arg(runs.join("o"))
        .arg("--plots-dir")
        .arg(&again)
        .args(["--out", "elsewhere"])
        .assert()
        .code(2);
}
