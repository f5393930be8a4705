//! What a newcomer trips on, driven through the binary: MAP-Elites on a mixed space,
//! `resume` on a run evaluated outside playtune, re-evaluating a recommendation, and
//! small-sample p-values in `compare`.

use crate::common;
use common::playtune;

use predicates::prelude::*;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn last_json(out: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(out);
    serde_json::from_str(text.lines().last().expect("some output")).expect("last line is JSON")
}

/// The sphere's four coordinates as one Float and three discrete kinds: its second
/// measure (x2 + x3) moves only when the Int and List dimensions move.
const MIXED_SPACE: &str = r#"(
    name: "mixed-sphere",
    dims: [
        (name: "x0", kind: Float(min: -5.0, max: 5.0, levels: 41), default: 0.0),
        (name: "x1", kind: List([-4, -2, 0, 2, 4]), default: 0),
        (name: "x2", kind: Int(min: -5, max: 5), default: 0),
        (name: "x3", kind: List([-5, -3, -1, 1, 3, 5]), default: 1),
    ],
)"#;

fn map_elites_coverage(dir: &Path, extra: &[&str], name: &str) -> (f64, String) {
    let space = dir.join("mixed.ron");
    std::fs::write(&space, MIXED_SPACE).unwrap();
    let out = playtune()
        .args(["map-elites", "--problem", "sphere", "--set", "dims=4"])
        .arg("--space")
        .arg(&space)
        .args([
            "--axis",
            "measure_0=-10:10:10",
            "--axis",
            "measure_1=-10:10:10",
        ])
        .args(["--evaluations", "1500", "--seed", "3", "--json", "-q"])
        .args(extra)
        .args(["--name", name, "--runs-dir"])
        .arg(dir)
        .assert()
        .success()
        .get_output()
        .clone();
    let j = last_json(&out.stdout);
    (
        j["trials"][0]["coverage"].as_f64().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn map_elites_defaults_move_every_dimension_of_a_mixed_space() {
    let dir = TempDir::new().unwrap();
    let (default, quiet) = map_elites_coverage(dir.path(), &[], "default");
    let (gaussian, warned) = map_elites_coverage(dir.path(), &["--mutation", "gaussian"], "g");
    // Gaussian alone never moves x1..x3, so measure_1 stays at x2 + x3 = 1: one row of
    // ten, at most 10% of the grid. The defaults move them and fill far more.
    assert!(
        gaussian <= 0.1 + 1e-9,
        "gaussian alone: coverage {gaussian}"
    );
    assert!(default >= 0.4, "defaults: coverage {default}");
    assert!(warned.contains("x1, x2, x3"), "{warned}");
    assert!(!quiet.contains("warning"), "{quiet}");
    let config = std::fs::read_to_string(dir.path().join("default/config.ron")).unwrap();
    assert!(
        config.contains("HillClimber") && config.contains("Gaussian"),
        "{config}"
    );
}

#[test]
fn resume_refuses_a_manual_run_and_hints_name_ask_and_tell() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args(["optimize", "--problem", "manual", "--space"])
        .arg(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/spaces/noisy_onemax_10.ron"
        ))
        .args([
            "--algo",
            "random",
            "--budget",
            "40",
            "--name",
            "t",
            "--runs-dir",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let run = dir.path().join("t");
    playtune()
        .arg("resume")
        .arg(&run)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("playtune ask").and(predicate::str::contains("tell")));
    // Nothing was evaluated, nothing recorded as failed: ask still works.
    assert!(!run.join("failures.jsonl").exists());
    playtune().arg("ask").arg(&run).assert().success();
    for cmd in ["plot", "report"] {
        playtune().arg(cmd).arg(&run).assert().code(2).stderr(
            predicate::str::contains("playtune ask")
                .and(predicate::str::contains("playtune resume").not()),
        );
    }
}

/// A quiet noisy-onemax run named `r` in `dir`, with `args` added: its folder, and the
/// command's assertion for more checks of its output.
fn noisy_onemax_run(dir: &TempDir, args: &[&str]) -> (PathBuf, assert_cmd::assert::Assert) {
    let made = playtune()
        .args(["optimize", "--problem", "noisy-onemax", "--name", "r", "-q"])
        .args(args)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    (dir.path().join("r"), made)
}

#[test]
fn reevaluate_measures_a_recommendation_with_fresh_seeds() {
    let dir = TempDir::new().unwrap();
    let (run, made) = noisy_onemax_run(
        &dir,
        &["--set", "sigma=1", "--budget", "100", "--trials", "2"],
    );
    made.stdout(predicate::str::contains("model"));
    let out = playtune()
        .arg("reevaluate")
        .arg(&run)
        .args(["--n", "200", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("the optimiser's model"), "{text}");
    let j = last_json(&out);
    let points = j["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "one line per trial");
    for p in points {
        assert_eq!(p["evaluations"], 200);
        // Noise sd 1 over 200 evaluations: the mean is within 5 se of the truth.
        let (mean, se) = (p["mean"].as_f64().unwrap(), p["se"].as_f64().unwrap());
        let truth = p["true_fitness"].as_f64().unwrap();
        assert!((mean - truth).abs() < 5.0 * se, "{p}");
    }
    // The same command gives the same numbers; a point by name works on any run.
    let again = playtune()
        .arg("reevaluate")
        .arg(&run)
        .args(["--n", "200", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_json(&again), j);
    let one = playtune()
        .arg("reevaluate")
        .arg(&run)
        .args(["--n", "50", "--trial", "1", "--json"])
        .args((0..10).map(|i| format!("--point=x{i}=1")))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let p = &last_json(&one)["points"][0];
    assert_eq!(p["true_fitness"], 10.0);
    assert!((p["mean"].as_f64().unwrap() - 10.0).abs() < 1.0, "{p}");
    // Bad input: exit 2 naming what is wrong.
    for (args, fragment) in [
        (vec!["--n", "0"], "--n 0"),
        (vec!["--trial", "7"], "--trial 7"),
        (vec!["--point", "nope=1"], "no dimension `nope`"),
        (vec!["--point", "x0=7"], "not a value of x0"),
    ] {
        playtune()
            .arg("reevaluate")
            .arg(&run)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(fragment));
    }
}

/// A point given on the command line keeps the run's fixed dimensions: `players=3` in
/// a run of 2-player rules would be another game, evaluated and judged as if it were not.
#[test]
fn reevaluate_refuses_a_point_that_moves_a_fixed_dimension() {
    let dir = TempDir::new().unwrap();
    let (run, _) = noisy_onemax_run(&dir, &["--set", "dims=4", "--fix", "x0=1", "--budget", "6"]);
    for flag in ["--point", "--baseline"] {
        playtune()
            .arg("reevaluate")
            .arg(&run)
            .args(["--n", "2", flag, "x0=0"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{flag}: `x0` is fixed at 1 in this space, and the point gives 0"
            )));
    }
    // Its fixed value, and any value of a searched dimension, are taken.
    playtune()
        .arg("reevaluate")
        .arg(&run)
        .args(["--n", "2", "--point", "x0=1", "--point", "x1=0"])
        .assert()
        .success();
}

#[test]
fn compare_prints_exact_small_sample_p_values() {
    let dir = TempDir::new().unwrap();
    // Four trials each of random search with a budget of 2 and NTBEA with 200 on noisy
    // OneMax: completely separated final values, exact p = 2 / C(8, 4) = 0.0286.
    for (algo, budget) in [("random", "2"), ("ntbea", "200")] {
        playtune()
            .args(["optimize", "--problem", "noisy-onemax", "--set", "dims=20"])
            .args(["--algo", algo, "--budget", budget, "--trials", "4", "-q"])
            .args(["--name", algo, "--runs-dir"])
            .arg(dir.path())
            .assert()
            .success();
    }
    playtune()
        .arg("compare")
        .arg(dir.path().join("random"))
        .arg(dir.path().join("ntbea"))
        .assert()
        .success()
        .stdout(predicate::str::contains("2.857e-2").or(predicate::str::contains("0.0286")));
}

/// What the documented commands write (self-play samples under data/, networks under
/// models/, report pages beside a run) is never offered to `git add`.
#[test]
fn files_the_documented_commands_write_are_ignored_by_git() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let inside = std::process::Command::new("git")
        .args(["-C", root, "rev-parse", "--is-inside-work-tree"])
        .output();
    if !matches!(&inside, Ok(o) if o.status.success()) {
        eprintln!(
            "SKIPPED files_the_documented_commands_write_are_ignored_by_git: not a git checkout"
        );
        return;
    }
    for path in [
        "data/strategy-selfplay.jsonl",
        "models/strategy.evalnet",
        "runs/published/space-battle-quick/report.html",
        "runs/my-run/report.html",
        "plots/space_battle.png",
    ] {
        let status = std::process::Command::new("git")
            .args(["-C", root, "check-ignore", "-q", "--no-index", path])
            .status()
            .unwrap();
        assert!(status.success(), "{path} is not ignored by git");
    }
}

/// One trial has no standard error across trials: the closing line says so rather
/// than print "se 0.0000"; two trials give one.
#[test]
fn the_final_value_of_one_trial_claims_no_standard_error() {
    let dir = TempDir::new().unwrap();
    let (_, one) = noisy_onemax_run(&dir, &["--budget", "20"]);
    let out = String::from_utf8_lossy(&one.get_output().stdout).into_owned();
    let line = out.lines().find(|l| l.starts_with("final value")).unwrap();
    assert!(!line.contains("se "), "{line}");
    assert!(line.contains("one trial, so no standard error"), "{line}");
    let two = playtune()
        .args([
            "optimize",
            "--problem",
            "noisy-onemax",
            "--name",
            "two",
            "-q",
        ])
        .args(["--budget", "20", "--trials", "2", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success();
    let out = String::from_utf8_lossy(&two.get_output().stdout).into_owned();
    assert!(out.contains("over 2 trials"), "{out}");
}

/// A MAP-Elites run ends with something to look at: with --plots-dir it draws the
/// archive's heatmap; without, it says which command draws one.
#[test]
fn a_map_elites_run_draws_its_heatmap_or_says_how() {
    let dir = TempDir::new().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let made = playtune()
            .current_dir(dir.path())
            .args(["map-elites", "--problem", "sphere", "--evaluations", "200"])
            .args(["-q", "--name", name])
            .args(extra)
            .assert()
            .success();
        String::from_utf8_lossy(&made.get_output().stdout).into_owned()
    };
    let out = run("plain", &[]);
    assert!(out.contains("`playtune plot runs/plain` draws it"), "{out}");
    let out = run("drawn", &["--plots-dir", "plots"]);
    let heatmap = dir.path().join("plots/drawn/heatmap.png");
    assert!(heatmap.is_file(), "no {}:\n{out}", heatmap.display());
    assert!(out.contains("heatmap.png"), "{out}");
}
