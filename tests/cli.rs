//! The real binary, driven as a user drives it: good runs, every kind of bad input,
//! resume after an interruption, and thread-count determinism.

mod common;
use common::playtune;

use predicates::prelude::*;
use std::path::Path;
use tempfile::TempDir;

/// The last line of stdout, parsed as JSON.
fn last_json(out: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(out);
    serde_json::from_str(text.lines().last().expect("some output")).expect("last line is JSON")
}

#[test]
fn optimize_writes_a_reproducible_run_folder() {
    let dir = TempDir::new().unwrap();
    let out = playtune()
        .args([
            "optimize",
            "--problem",
            "noisy-onemax",
            "--set",
            "dims=20",
            "--set",
            "sigma=1",
            "--algo",
            "ntbea",
        ])
        .args([
            "--budget",
            "500",
            "--seed",
            "7",
            "--json",
            "--name",
            "a",
            "--runs-dir",
        ])
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let j = last_json(&out);
    assert_eq!(j["evaluations"], 500);
    assert_eq!(j["recommendation"].as_object().unwrap().len(), 20);
    assert!(j["estimate"].as_f64().is_some());
    let truth = j["true_fitness"].as_f64().unwrap();
    assert!(
        truth >= 15.0,
        "NTBEA at D=20, budget 500 should be near the optimum, got {truth}"
    );
    assert_eq!(j["optimal"].as_bool(), Some(truth == 20.0));
    let run = dir.path().join("a");
    for f in ["config.ron", "evals.csv", "result.ron"] {
        assert!(run.join(f).exists(), "{f} missing");
    }
    let log = std::fs::read_to_string(run.join("evals.csv")).unwrap();
    assert_eq!(log.lines().count(), 501, "header + one row per evaluation");
    assert!(log.starts_with("trial,index,phase,seed,x0,x1,"));

    // Re-running the recorded config gives the identical log and result.
    let again = dir.path().join("b");
    std::fs::create_dir_all(&again).unwrap();
    std::fs::copy(run.join("config.ron"), again.join("config.ron")).unwrap();
    playtune()
        .arg("resume")
        .arg(&again)
        .arg("-q")
        .assert()
        .success();
    for f in ["evals.csv", "result.ron"] {
        assert_eq!(
            std::fs::read(run.join(f)).unwrap(),
            std::fs::read(again.join(f)).unwrap(),
            "{f} differs"
        );
    }
}

fn run_files(threads: &str, dir: &Path, algo: &[&str]) -> (Vec<u8>, Vec<u8>) {
    playtune()
        .env("RAYON_NUM_THREADS", threads)
        .args(algo)
        .args([
            "--trials",
            "4",
            "--seed",
            "11",
            "-q",
            "--name",
            "t",
            "--runs-dir",
        ])
        .arg(dir)
        .assert()
        .success();
    let run = dir.join("t");
    (
        std::fs::read(run.join("evals.csv")).unwrap(),
        std::fs::read(run.join("result.ron")).unwrap(),
    )
}

#[test]
fn same_seed_same_files_with_one_thread_or_four() {
    let runs: &[&[&str]] = &[
        &[
            "optimize",
            "--algo",
            "ntbea",
            "--budget",
            "120",
            "--runs",
            "3",
            "--selection-budget",
            "30",
        ],
        &[
            "optimize",
            "--algo",
            "brmhc",
            "--problem",
            "noisy-trap",
            "--budget",
            "100",
        ],
        &["optimize", "--algo", "random", "--budget", "100"],
        &["map-elites", "--evaluations", "2000", "--set", "dims=10"],
        &[
            "map-elites",
            "--evaluations",
            "2000",
            "--set",
            "dims=10",
            "--emitters",
            "gaussian,iso-line,one-weight",
            "--archive",
            "cvt",
            "--centroids",
            "64",
            "--init-random",
            "50",
        ],
    ];
    for algo in runs {
        let (a, b) = (TempDir::new().unwrap(), TempDir::new().unwrap());
        let one = run_files("1", a.path(), algo);
        let four = run_files("4", b.path(), algo);
        assert!(
            one.0 == four.0,
            "evals.csv differs between 1 and 4 threads for {algo:?}"
        );
        assert!(
            one.1 == four.1,
            "result.ron differs between 1 and 4 threads for {algo:?}"
        );
    }
}

#[test]
fn resume_after_an_interruption_keeps_every_evaluation() {
    let dir = TempDir::new().unwrap();
    let args = [
        "optimize", "--algo", "rmhc", "--budget", "100", "--trials", "3", "--seed", "5", "-q",
    ];
    assert_eq!(
        cut_and_resume(&args, dir.path(), 150, "1,99,search,12"),
        149
    );
}

/// Runs `args` as run `full` under `dir`, then simulates it killed mid-way: copies its
/// config and the first `lines` lines of its log, the last one half written (`half`),
/// to `cut`, resumes that, checks it ends with `full`'s files and returns how many
/// evaluations it reused.
fn cut_and_resume(args: &[&str], dir: &Path, lines: usize, half: &str) -> u64 {
    playtune()
        .args(args)
        .args(["--name", "full", "--runs-dir"])
        .arg(dir)
        .assert()
        .success();
    let full = dir.join("full");
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(full.join("config.ron"), cut.join("config.ron")).unwrap();
    let log = std::fs::read_to_string(full.join("evals.csv")).unwrap();
    let mut partial: String = log.lines().take(lines).map(|l| format!("{l}\n")).collect();
    partial.push_str(half);
    std::fs::write(cut.join("evals.csv"), partial).unwrap();
    let out = playtune()
        .args(["resume", "--json", "-q"])
        .arg(&cut)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    for f in ["evals.csv", "result.ron"] {
        assert!(
            std::fs::read(full.join(f)).unwrap() == std::fs::read(cut.join(f)).unwrap(),
            "{f} differs after resuming"
        );
    }
    last_json(&out)["evaluations_reused"].as_u64().unwrap()
}

/// Runs playtune with a space file holding `space`, expecting exit code 2 and stderr
/// matching every fragment.
fn rejects_space(space: &str, fragments: &[&str]) {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("bad.ron");
    std::fs::write(&file, space).unwrap();
    let assert = playtune()
        .args(["optimize", "--problem", "noisy-onemax", "--space"])
        .arg(&file)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    for f in fragments {
        assert!(err.contains(f), "stderr lacks `{f}`:\n{err}");
    }
    assert!(
        !dir.path()
            .read_dir()
            .unwrap()
            .any(|e| e.unwrap().path().is_dir()),
        "no run folder for a bad input"
    );
}

const GOOD: &str = "(\n    name: \"s\",\n    dims: [\n        (name: \"x0\", kind: Int(min: 0, max: 1), default: 0),\n        (name: \"x1\", kind: Int(min: 0, max: 1)),\n    ],\n)\n";

#[test]
fn bad_space_files_get_located_messages() {
    // A syntax error is reported where the parser notices it: the next line.
    rejects_space(
        &GOOD.replace("max: 1), default", "max: 1, default"),
        &["bad.ron:5:", "x0"],
    );
    rejects_space(
        &GOOD.replace("\"x1\"", "\"bogus\""),
        &["bad.ron:5:", "unknown parameter `bogus`", "noisy-onemax"],
    );
    rejects_space(
        &GOOD.replace("min: 0, max: 1), default", "min: 1, max: 0), default"),
        &["bad.ron:4:", "dimension `x0`.kind", "empty range"],
    );
    rejects_space(
        &GOOD.replace("max: 1), default", "max: 1, step: 2), default"),
        &["bad.ron:4:", "does not divide"],
    );
    rejects_space(
        &GOOD.replace("\"x1\"", "\"x0\""),
        &["bad.ron:5:", "duplicate dimension name `x0`"],
    );
    rejects_space(
        &GOOD.replace("default: 0", "default: 3"),
        &["bad.ron:4:", "dimension `x0`.default", "outside the domain"],
    );
    rejects_space(
        &GOOD.replace(
            "kind: Int(min: 0, max: 1))",
            "kind: Integer(min: 0, max: 1))",
        ),
        &["bad.ron:5:", "Integer"],
    );
    rejects_space(
        &GOOD.replace("max: 1), default", "max: 3), default"),
        &["bad.ron:4:", "x0", "outside what problem"],
    );
    rejects_space(
        "(name: \"s\", dims: [])",
        &["bad.ron:1:", "dims", "no dimensions"],
    );
}

#[test]
fn bad_options_exit_with_2_and_a_message() {
    let dir = TempDir::new().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["optimize", "--budget", "0"], "--budget 0"),
        (&["optimize", "--trials", "0"], "--trials 0"),
        (&["optimize", "--problem", "nope"], "unknown problem `nope`"),
        (&["optimize", "--set", "dimz=3"], "has no setting `dimz`"),
        (
            &["optimize", "--set", "dims=ten"],
            "dims=ten: problem `noisy-onemax` takes a whole number",
        ),
        (&["optimize", "--fix", "x99=1"], "no dimension named `x99`"),
        (&["optimize", "--fix", "x0=7"], "`7` is not a value of x0"),
        (
            &["optimize", "--algo", "brmhc", "--budget", "10"],
            "pre-processing",
        ),
        (
            &["optimize", "--algo", "ntbea", "--tuples", "x0,q"],
            "unknown dimension `q`",
        ),
        (
            &["optimize", "--space", "/nonexistent/space.ron"],
            "/nonexistent/space.ron",
        ),
        (&["map-elites", "--axis", "measure_0=1:0:10"], "LOW < HIGH"),
        (&["map-elites", "--axis", "speed=0:1:10"], "not a feature"),
        (
            &["map-elites", "--problem", "noisy-onemax"],
            "needs feature axes",
        ),
        (
            &["compare", "/nonexistent/a", "/nonexistent/b"],
            "result.ron",
        ),
        (
            &["spaces", "check", "/nonexistent/space.ron"],
            "cannot read",
        ),
    ];
    for (args, fragment) in cases {
        let a = playtune()
            .args(*args)
            .arg("--runs-dir")
            .arg(dir.path())
            .assert();
        let a = if args[0] == "compare" || args[0] == "spaces" {
            // These take no --runs-dir: clap rejects it with its own usage error (2) - run without.
            playtune().args(*args).assert()
        } else {
            a
        };
        let out = a.get_output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(fragment),
            "{args:?}: stderr lacks `{fragment}`:\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    }
}

#[test]
fn an_evaluator_that_breaks_for_good_stops_the_run_and_resume_retry_failed_finishes_it() {
    let dir = TempDir::new().unwrap();
    let flag = dir.path().join("crash");
    std::fs::write(&flag, "").unwrap();
    // Crashes from its 7th call on while the flag file exists (NTBEA asks one point at
    // a time): evaluations 7 on fail, each after two retries, until the 5th failure
    // passes --max-failures 0.2 (over the 20-evaluation window).
    let counter = dir.path().join("count");
    let script = format!(
        "n=$(cat {c} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {c}; \
         if [ -e {f} ] && [ $n -ge 7 ]; then echo 'segfault in evaluator' >&2; exit 139; fi; \
         cat >/dev/null; echo 1.5",
        c = counter.display(),
        f = flag.display()
    );
    let space = dir.path().join("s.ron");
    std::fs::write(&space, GOOD).unwrap();
    let out = playtune()
        .args([
            "optimize",
            "--problem",
            "command",
            "--algo",
            "ntbea",
            "--budget",
            "20",
            "--name",
            "ext",
            "--set",
        ])
        .arg(format!("cmd={script}"))
        .arg("--space")
        .arg(&space)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("5 of 11 evaluations failed")
            && err.contains("segfault in evaluator")
            && err.contains("failures.jsonl")
            && err.contains("--retry-failed"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let log = std::fs::read_to_string(dir.path().join("ext/evals.csv")).unwrap();
    assert_eq!(
        log.lines().count(),
        1 + 6,
        "the six healthy evaluations are kept"
    );
    let failures = std::fs::read_to_string(dir.path().join("ext/failures.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = failures
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5, "{failures}");
    for (r, index) in rows.iter().zip(6..) {
        assert_eq!(r["index"], index);
        assert_eq!(r["attempts"], 3, "the first try and two retries");
        let reason = r["reason"].as_str().unwrap();
        assert!(reason.contains("segfault in evaluator"), "{reason}");
    }
    // The same command without fixing anything fails again at once, from the log.
    let calls = std::fs::read_to_string(&counter).unwrap();
    playtune()
        .args(["resume", "-q"])
        .arg(dir.path().join("ext"))
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(&counter).unwrap(),
        calls,
        "nothing re-run"
    );
    std::fs::remove_file(&flag).unwrap();
    let out = playtune()
        .args(["resume", "--retry-failed", "--json", "-q"])
        .arg(dir.path().join("ext"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let j = last_json(&out);
    assert_eq!(j["evaluations_reused"], 6);
    assert_eq!(j["evaluations"], 20);
    assert_eq!(j["evaluations_failed"], 0);
    assert!(
        !dir.path().join("ext/failures.jsonl").exists(),
        "retried failures that succeeded leave the failure log"
    );
}

/// A flaky evaluator (one crash) costs a retry; without retries the evaluation is
/// recorded as failed, the optimiser is told, the run finishes, and a resume replays
/// the failure to the same files.
#[test]
fn a_flaky_evaluator_is_retried_or_recorded_and_the_run_goes_on() {
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(&space, GOOD).unwrap();
    let run = |name: &str, retries: &str| {
        let counter = dir.path().join(format!("count-{name}"));
        // Crashes on its 3rd call only; the fitness depends on the request.
        let script = format!(
            "n=$(cat {c} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {c}; \
             if [ $n -eq 3 ]; then echo 'lost connection' >&2; exit 1; fi; \
             read l; echo ${{#l}}",
            c = counter.display()
        );
        let out = playtune()
            .args([
                "optimize",
                "--problem",
                "command",
                "--algo",
                "ntbea",
                "--budget",
                "10",
                "--json",
                "-q",
                "--retries",
                retries,
                "--name",
                name,
                "--set",
            ])
            .arg(format!("cmd={script}"))
            .arg("--space")
            .arg(&space)
            .arg("--runs-dir")
            .arg(dir.path())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        last_json(&out)
    };
    let retried = run("retried", "2");
    assert_eq!(retried["evaluations_failed"], 0);
    assert!(!dir.path().join("retried/failures.jsonl").exists());
    let failed = run("failed", "0");
    assert_eq!(failed["evaluations_failed"], 1);
    assert_eq!(failed["evaluations"], 10);
    let row: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(dir.path().join("failed/failures.jsonl"))
            .unwrap()
            .trim(),
    )
    .unwrap();
    // NTBEA asks one point at a time: the 3rd call is evaluation 2.
    assert_eq!(row["index"], 2, "{row}");
    assert!(row["reason"].as_str().unwrap().contains("lost connection"));
    let log = std::fs::read_to_string(dir.path().join("failed/evals.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 9);
    // Resuming the finished run replays the failure: the same result, nothing re-run.
    let result = std::fs::read_to_string(dir.path().join("failed/result.ron")).unwrap();
    let out = playtune()
        .args(["resume", "--json", "-q"])
        .arg(dir.path().join("failed"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_json(&out)["evaluations_reused"], 10);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("failed/result.ron")).unwrap(),
        result
    );
}

#[test]
fn compare_reports_mann_whitney() {
    let dir = TempDir::new().unwrap();
    for algo in ["ntbea", "random"] {
        playtune()
            .args([
                "optimize",
                "--algo",
                algo,
                "--budget",
                "100",
                "--trials",
                "20",
                "-q",
                "--no-log",
                "--name",
                algo,
                "--runs-dir",
            ])
            .arg(dir.path())
            .assert()
            .success();
    }
    let out = playtune()
        .arg("compare")
        .arg(dir.path().join("ntbea"))
        .arg(dir.path().join("random"))
        .arg("--json")
        .assert()
        .success()
        .stdout(predicate::str::contains("Mann-Whitney"))
        .get_output()
        .stdout
        .clone();
    let j = last_json(&out);
    assert!(
        j["pairs"][0]["p"].as_f64().unwrap() < 0.05,
        "NTBEA should beat random search clearly: {j}"
    );
    assert!(j["runs"][0]["mean"].as_f64().unwrap() > j["runs"][1]["mean"].as_f64().unwrap());
}

#[test]
fn shipped_space_files_check_and_help_shows_defaults() {
    let spaces: Vec<_> = std::fs::read_dir("spaces")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    assert!(!spaces.is_empty());
    playtune()
        .args(["spaces", "check"])
        .args(&spaces)
        .assert()
        .success()
        .stdout(predicate::str::contains("points"));
    for sub in ["optimize", "map-elites", "resume", "compare", "spaces"] {
        playtune().args([sub, "--help"]).assert().success();
    }
    playtune().args(["optimize", "--help"]).assert().stdout(
        predicate::str::contains("[default: 200]")
            .and(predicate::str::contains("[default: ntbea]")),
    );
    playtune()
        .args(["map-elites", "--help"])
        .assert()
        .stdout(predicate::str::contains("[default: 36]"));
}

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
    let shipped = std::fs::read_to_string("spaces/space_battle_evolved.ron").unwrap();
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

/// Every experiment's help is its declaration: its line, each preset with what it
/// means, each of its own flags; a preset it does not declare is refused before any
/// folder is made, naming the ones it has, and a flag of another experiment too.
#[test]
fn each_experiments_help_and_refusals_come_from_its_declaration() {
    let dir = TempDir::new().unwrap();
    for def in playtune::experiments::def::EXPERIMENTS {
        let out = playtune()
            .args(["experiment", def.name, "--help"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", def.name);
        // clap wraps nothing here (no terminal), so each text is found whole.
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(help.contains(def.about), "{}: {help}", def.name);
        for p in (def.presets)() {
            assert!(
                help.contains(&format!("{}: {}", p.name, p.about)),
                "{}: preset {} missing from {help}",
                def.name,
                p.name
            );
        }
        for s in (def.settings)() {
            let flag = format!("--{}", s.name.replace('_', "-"));
            assert!(help.contains(&flag), "{}: {flag} missing", def.name);
        }
    }
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

/// A run killed at any moment, even before its first evaluation finishes (the log's
/// header not yet written, the folder half made), resumes to the files of a run never
/// interrupted, byte for byte.
#[test]
fn a_run_killed_at_any_moment_resumes_to_the_uninterrupted_files() {
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(&space, GOOD).unwrap();
    // Deterministic and slow enough to be killed mid-run: the fitness is the length of
    // the request, which depends on the point and the seed.
    let cmd = "read l; sleep 0.01; echo ${#l}";
    let args = |name: &str| -> Vec<String> {
        [
            "optimize",
            "--problem",
            "command",
            "--algo",
            "rmhc",
            "--budget",
            "12",
            "--trials",
            "2",
            "--seed",
            "3",
            "-q",
            "--set",
            &format!("cmd={cmd}"),
            "--space",
            &space.display().to_string(),
            "--runs-dir",
            &dir.path().display().to_string(),
            "--name",
            name,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    playtune().args(args("full")).assert().success();
    let full = dir.path().join("full");
    // The moments a kill cannot be timed to: an empty log, a header cut short.
    let full_log = std::fs::read_to_string(full.join("evals.csv")).unwrap();
    for (name, log) in [("empty", ""), ("half-header", &full_log[..20])] {
        let run = dir.path().join(name);
        std::fs::create_dir_all(&run).unwrap();
        std::fs::copy(full.join("config.ron"), run.join("config.ron")).unwrap();
        std::fs::write(run.join("evals.csv"), log).unwrap();
        playtune()
            .args(["resume", "-q"])
            .arg(&run)
            .assert()
            .success();
        assert_eq!(
            full_log,
            std::fs::read_to_string(run.join("evals.csv")).unwrap(),
            "{name}"
        );
    }
    let bin = assert_cmd::cargo::cargo_bin("playtune");
    for (k, delay_ms) in [0u64, 1, 3, 6, 10, 20, 35, 60, 100, 160, 250]
        .into_iter()
        .enumerate()
    {
        let name = format!("killed{k}");
        let mut child = std::process::Command::new(&bin)
            .args(args(&name))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let run = dir.path().join(&name);
        if !run.join("config.ron").exists() {
            // Killed before the run existed: there is nothing to resume, and resume
            // says so instead of failing obscurely.
            if run.is_dir() {
                playtune()
                    .arg("resume")
                    .arg(&run)
                    .assert()
                    .code(2)
                    .stderr(predicate::str::contains("before it started"));
            }
            continue;
        }
        playtune()
            .args(["resume", "-q"])
            .arg(&run)
            .assert()
            .success();
        for file in ["evals.csv", "result.ron"] {
            assert_eq!(
                std::fs::read_to_string(full.join(file)).unwrap(),
                std::fs::read_to_string(run.join(file)).unwrap(),
                "{file} after a kill at {delay_ms} ms"
            );
        }
    }
}

/// Runs playtune with `args` (and a fresh --runs-dir unless the command takes none),
/// expecting exit code 2, `fragment` in stderr, no panic and no run folder.
fn refuses(args: &[&str], fragment: &str) {
    let dir = TempDir::new().unwrap();
    let mut cmd = playtune();
    cmd.args(args);
    if matches!(args[0], "optimize" | "map-elites") {
        cmd.arg("--runs-dir").arg(dir.path());
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(fragment),
        "{args:?}: stderr lacks `{fragment}`:\n{err}"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(
        dir.path().read_dir().unwrap().next().is_none(),
        "{args:?}: no run folder for a bad input"
    );
}

#[test]
fn non_finite_numbers_are_refused_wherever_they_can_be_typed_or_written() {
    rejects_space(
        &GOOD.replace("default: 0", "default: NaN"),
        &["bad.ron:4:", "dimension `x0`.default", "NaN"],
    );
    rejects_space(
        "(name: \"s\", dims: [\n(name: \"x0\", kind: Float(min: -1e308, max: 1e308, levels: 3)),\n])",
        &["bad.ron:2:", "dimension `x0`.kind", "too wide"],
    );
    rejects_space(
        "(name: \"s\", dims: [(name: \"x0\", kind: List([1, inf]))])",
        &["bad.ron:1:", "not a finite number"],
    );
    for (args, fragment) in [
        (
            &["optimize", "--fix", "x0=NaN"][..],
            "`NaN` is not a value of x0",
        ),
        (
            &["optimize", "--fix", "x0=inf"],
            "`inf` is not a value of x0",
        ),
        (
            &["optimize", "--set", "sigma=NaN"],
            "--set: sigma=NaN: problem `noisy-onemax` takes a finite number",
        ),
        (&["optimize", "--set", "scale=inf"], "--set: scale=inf"),
        (&["optimize", "--set", "sigma=-1"], "at least 0"),
        (&["optimize", "--k", "inf"], "--k inf"),
        (&["optimize", "--epsilon", "NaN"], "--epsilon NaN"),
        (&["optimize", "--mutation", "-1"], "--mutation -1"),
        (
            &["optimize", "--algo", "brmhc", "--temperature", "NaN"],
            "--temperature NaN",
        ),
        (&["map-elites", "--sigma", "NaN"], "--sigma NaN"),
        (&["map-elites", "--qd-offset", "inf"], "--qd-offset inf"),
        (
            &["map-elites", "--axis", "measure_0=0:inf:10"],
            "finite LOW < HIGH",
        ),
    ] {
        refuses(args, fragment);
    }
}

#[test]
fn integer_ranges_of_2_to_the_32_values_or_more_are_refused_or_handled() {
    let full = "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: -9223372036854775808, max: 9223372036854775807))])";
    rejects_space(full, &["bad.ron:1:", "dimension `x0`.kind", "2^53"]);
    rejects_space(
        "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: 0, max: 4294967295))])",
        &["4294967296 values", "at most 4294967295"],
    );
    // The largest allowed domain: counted right, searched without walking it.
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(
        &space,
        "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: 0, max: 4294967294)), (name: \"x1\", kind: Int(min: 0, max: 89))])",
    )
    .unwrap();
    let out = playtune()
        .args(["spaces", "check"])
        .arg(&space)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("386547056550 points"), "{text}");
    assert!(
        text.contains("4294967295 values") && text.contains("90 values"),
        "{text}"
    );
    let started = std::time::Instant::now();
    for algo in ["random", "rmhc", "ntbea", "brmhc"] {
        let a = playtune()
            .args([
                "optimize",
                "--problem",
                "command",
                "--set",
                "cmd=cat >/dev/null; echo 1",
            ])
            .args(["--algo", algo, "--budget", "30", "-q", "--space"])
            .arg(&space)
            .arg("--runs-dir")
            .arg(dir.path())
            .assert();
        if algo == "brmhc" {
            // Its pre-processing sweeps every value: refused, not attempted.
            a.code(2)
                .stderr(predicate::str::contains("pre-processing would take"));
        } else {
            a.success();
        }
    }
    playtune()
        .args(["optimize", "--problem", "noisy-onemax", "--space"])
        .arg(&space)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("outside what problem"));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn huge_zero_and_negative_settings_are_refused() {
    for (args, fragment) in [
        (
            &[
                "optimize",
                "--problem",
                "space-battle",
                "--set",
                "max_ticks=4294967297",
            ][..],
            "max_ticks=4294967297: problem `space-battle` takes a whole number from 1 to",
        ),
        (
            &["optimize", "--set", "dims=1000000000"],
            "--set: dims=1000000000: problem `noisy-onemax` takes a whole number from 1 to",
        ),
        (
            &["optimize", "--set", "dims=-3"],
            "from 1 to 100000 as dims",
        ),
        (
            &["map-elites", "--set", "dims=1000000000"],
            "takes a whole number from 1 to 100000 as dims",
        ),
        (
            &["map-elites", "--axis", "measure_0=0:1:99999999999"],
            "bins",
        ),
        (
            &[
                "map-elites",
                "--axis",
                "measure_0=0:1:100000",
                "--axis",
                "measure_1=0:1:100000",
            ],
            "cells",
        ),
        (
            &["optimize", "--algo", "rmhc", "--resample", "0"],
            "--resample 0",
        ),
        (
            &["optimize", "--algo", "brmhc", "--resample", "0"],
            "--resample 0",
        ),
        (&["optimize", "--runs", "0"], "--runs 0"),
        (&["optimize", "--neighbours", "0"], "--neighbours 0"),
        (
            &["optimize", "--algo", "random", "--batch", "0"],
            "--batch 0",
        ),
        (&["map-elites", "--batch", "0"], "--batch 0"),
        (
            &["optimize", "--algo", "brmhc", "--temperature", "0"],
            "--temperature 0",
        ),
        (
            &["optimize", "--algo", "brmhc", "--temperature", "-1"],
            "--temperature -1",
        ),
        (
            &["optimize", "--algo", "rmhc", "--resample", "-1"],
            "--resample -1",
        ),
        // A flag of another optimiser would do nothing: it is refused, naming whose.
        (
            &["optimize", "--resample", "2"],
            "--resample is a setting of --algo rmhc and --algo brmhc, not of --algo ntbea",
        ),
        (
            &["optimize", "--algo", "random", "--k", "2"],
            "--k is a setting of --algo ntbea, not of --algo random",
        ),
        (&["optimize", "--neighbours", "many"], "--neighbours many"),
    ] {
        refuses(args, fragment);
    }
}

#[test]
fn names_are_checked_and_runs_stay_inside_the_runs_folder() {
    rejects_space(
        &GOOD.replace("\"x1\"", "\"x\\n1\""),
        &["bad.ron:5:", "control character"],
    );
    rejects_space(
        "(name: \"s\", dims: [(name: \"x0\", kind: Categories([\"a\\nb\", \"c\"]))])",
        &["bad.ron:1:", "dimension `x0`.kind", "control character"],
    );
    for name in ["../x", "/tmp/playtune-escape", "a/b", "..", ""] {
        refuses(&["optimize", "--budget", "3", "--name", name], "--name");
    }
    // A byte-order mark is no error.
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("bom.ron");
    std::fs::write(&space, format!("\u{feff}{GOOD}")).unwrap();
    playtune()
        .args(["spaces", "check"])
        .arg(&space)
        .assert()
        .success();
    playtune()
        .args(["optimize", "--budget", "4", "-q", "--space"])
        .arg(&space)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    // An unreadable file is named without a made-up line and column.
    let out = playtune()
        .args(["spaces", "check", "/nonexistent/x.ron"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/x.ron: cannot read") && !err.contains(":0:0"),
        "{err}"
    );
}

#[test]
fn resume_and_plot_check_a_hand_edited_config() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "optimize", "--algo", "rmhc", "--budget", "6", "-q", "--name", "run",
        ])
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    let run = dir.path().join("run");
    let config = std::fs::read_to_string(run.join("config.ron")).unwrap();
    let edits: [(&str, &str, &str); 5] = [
        ("step: 1", "step: 0", "step must be at least 1"),
        ("resample: 1", "resample: 0", "algorithm: resample: 0"),
        ("default: 0", "default: 7", "outside the domain"),
        ("max: 1,", "max: 9007199254740993,", "2^53"),
        ("seed: 1", "seed: -1", "config.ron:"),
    ];
    for (from, to, fragment) in edits {
        assert!(config.contains(from), "{from}");
        std::fs::write(run.join("config.ron"), config.replacen(from, to, 1)).unwrap();
        for cmd in ["resume", "plot"] {
            let out = playtune().arg(cmd).arg(&run).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {to}: {err}");
            assert!(
                err.contains(fragment) && err.contains("config.ron:") && !err.contains("panicked"),
                "{cmd} {to}: {err}"
            );
        }
    }
}

/// Validation is linear: a space file four times larger takes about four times as long
/// to check, not sixteen. Each size is timed twice and the faster kept, and the bound
/// (10x) sits between linear and quadratic, so a loaded machine does not fail it.
#[test]
fn very_large_space_files_check_in_linear_time() {
    let dir = TempDir::new().unwrap();
    let files = |n: usize, dims: usize| {
        let categories: Vec<String> = (0..n).map(|i| format!("\"c{i}\"")).collect();
        let dims: Vec<String> = (0..dims)
            .map(|i| format!("(name: \"d{i}\", kind: Bool)"))
            .collect();
        let groups: Vec<String> = (0..n)
            .map(|i| format!("(name: \"g{i}\", dims: [\"d{i}\"])"))
            .collect();
        [
            format!(
                "(name: \"c\", dims: [(name: \"x\", kind: Categories([{}]))])",
                categories.join(",")
            ),
            format!("(name: \"d\", dims: [{}])", dims.join(",\n")),
            format!(
                "(name: \"g\", dims: [{}], groups: [{}])",
                dims.join(",\n"),
                groups.join(",\n")
            ),
        ]
    };
    let check = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (0..2)
            .map(|_| {
                let started = std::time::Instant::now();
                playtune()
                    .args(["spaces", "check"])
                    .arg(&path)
                    .assert()
                    .success();
                started.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (small, large) = (files(50_000, 58_250), files(200_000, 233_000));
    for i in 0..3 {
        let t_small = check(&format!("small{i}.ron"), &small[i]);
        let t_large = check(&format!("large{i}.ron"), &large[i]);
        assert!(
            t_large < 10.0 * t_small,
            "file {i}: 4x the size took {:.1}x the time ({t_small:.3} s, {t_large:.3} s)",
            t_large / t_small
        );
    }
}

/// A published run still loads and resumes with zero new evaluations, its log unchanged.
#[test]
fn a_published_run_resumes_with_no_new_evaluation() {
    let dir = TempDir::new().unwrap();
    let published =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("runs/published/space-battle-medium/ntbea");
    let run = dir.path().join("ntbea");
    std::fs::create_dir_all(&run).unwrap();
    for f in ["config.ron", "evals.csv"] {
        std::fs::copy(published.join(f), run.join(f)).unwrap();
    }
    let out = playtune()
        .args(["resume", "--json", "-q"])
        .arg(&run)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = last_json(&out.stdout);
    assert_eq!(j["evaluations_reused"], j["evaluations"]);
    assert_eq!(
        std::fs::read(published.join("evals.csv")).unwrap(),
        std::fs::read(run.join("evals.csv")).unwrap()
    );
}

/// An evaluator must give every declared feature; one that ignores its input (and so
/// closes it unread) is no crash of playtune.
#[test]
fn an_external_evaluator_printing_a_bare_number_with_features_declared_fails_clearly() {
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(&space, GOOD).unwrap();
    let run = |cmd: &str, features: &str| {
        playtune()
            .args(["optimize", "--problem", "command", "--budget", "3", "-q"])
            .args([
                "--set",
                &format!("cmd={cmd}"),
                "--set",
                &format!("features={features}"),
            ])
            .arg("--space")
            .arg(&space)
            .arg("--runs-dir")
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let out = run("echo 1", "kills");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bare number") && err.contains("kills"),
        "{err}"
    );
    let out = run("echo NaN", "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a finite number"), "{err}");
    let out = run("echo 1", "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(
        r#"echo '{"fitness": 2, "features": {"kills": 3}}'"#,
        "kills",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every row carries a check: a damaged row is left out, named, and evaluated again,
/// so the resumed run's files equal the undamaged run's; a damaged header is refused
/// with its line; a legacy log (no check column) is still read and kept legacy.
#[test]
fn a_damaged_log_is_repaired_with_a_message_naming_the_rows_never_misread() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "optimize", "--algo", "rmhc", "--budget", "30", "--trials", "2", "-q",
        ])
        .args(["--name", "full", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .success();
    let full = dir.path().join("full");
    let log = std::fs::read_to_string(full.join("evals.csv")).unwrap();
    let result = std::fs::read_to_string(full.join("result.ron")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines[0].ends_with(",check"), "{}", lines[0]);
    // Row 5's fitness moved to another valid number; the check column left as it was.
    let mut cols: Vec<String> = lines[4].split(',').map(String::from).collect();
    let fitness = cols.len() - 2;
    cols[fitness] = "36.3".into();
    let changed = cols.join(",");
    let with = |replace: &[(usize, &str)], extra: &[&str]| -> String {
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for (i, l) in replace {
            out[*i] = l.to_string();
        }
        out.extend(extra.iter().map(|l| l.to_string()));
        out.join("\n") + "\n"
    };
    let strip = |text: &str| -> String {
        text.lines()
            .map(|l| &l[..l.rfind(',').unwrap()])
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    // A legacy row whose fitness reads NaN: left out, never reused.
    let mut legacy: Vec<String> = strip(&log).lines().map(String::from).collect();
    let nan = legacy[3].rfind(',').unwrap();
    legacy[3] = format!("{},NaN", &legacy[3][..nan]);
    let legacy_nan = legacy.join("\n") + "\n";
    let cases: Vec<(&str, String, &str, String)> = vec![
        (
            "changed",
            with(&[(4, &changed)], &[]),
            "line 5",
            log.clone(),
        ),
        // A damaged copy of a row after the good one, and an exact copy.
        (
            "duplicated",
            with(&[], &[&changed, lines[7]]),
            "line 62",
            log.clone(),
        ),
        (
            "garbage",
            with(&[(9, "1,2,search,zz")], &[]),
            "line 10",
            log.clone(),
        ),
        ("legacy", strip(&log), "", strip(&log)),
        ("legacy-nan", legacy_nan, "line 4", strip(&log)),
    ];
    for (name, damaged, message, expected) in cases {
        let run = dir.path().join(name);
        std::fs::create_dir_all(&run).unwrap();
        std::fs::copy(full.join("config.ron"), run.join("config.ron")).unwrap();
        std::fs::write(run.join("evals.csv"), &damaged).unwrap();
        let out = playtune()
            .args(["resume", "-q"])
            .arg(&run)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {err}");
        assert!(
            err.contains(message),
            "{name}: stderr lacks `{message}`: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(run.join("evals.csv")).unwrap(),
            expected,
            "{name}"
        );
        assert_eq!(
            std::fs::read_to_string(run.join("result.ron")).unwrap(),
            result,
            "{name}"
        );
    }
    // A header that is not the run's: refused, with the file and line.
    let run = dir.path().join("header");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::copy(full.join("config.ron"), run.join("config.ron")).unwrap();
    std::fs::write(run.join("evals.csv"), log.replacen("x0", "x9", 1)).unwrap();
    playtune()
        .args(["resume", "-q"])
        .arg(&run)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "evals.csv:1: the header does not match",
        ));
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

/// A raced run (random search on the synthetic design benchmark races a quarter of its
/// budget by default) cut short in its race resumes to the files of a run never cut,
/// and the race's evaluations are logged with their phase.
#[test]
fn a_run_cut_in_its_race_resumes_to_the_same_files() {
    let dir = TempDir::new().unwrap();
    let run = |name: &str| {
        playtune()
            .args([
                "optimize",
                "--problem",
                "synthetic-design",
                "--algo",
                "random",
            ])
            .args(["--budget", "100", "--trials", "2", "--verdict", "0", "-q"])
            .args(["--name", name, "--runs-dir"])
            .arg(dir.path())
            .assert()
            .success()
            .stdout(predicate::str::contains("50 race"));
    };
    run("full");
    let full = dir.path().join("full");
    let log = std::fs::read_to_string(full.join("evals.csv")).unwrap();
    assert_eq!(log.lines().filter(|l| l.contains(",race,")).count(), 50);
    // Cut inside trial 1's race: its search and part of its race are logged.
    let cut = dir.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(full.join("config.ron"), cut.join("config.ron")).unwrap();
    let kept: Vec<&str> = log.lines().take(1 + 100 + 85).collect();
    std::fs::write(cut.join("evals.csv"), kept.join("\n") + "\n").unwrap();
    playtune()
        .args(["resume", "-q", "--verdict", "0"])
        .arg(&cut)
        .assert()
        .success();
    for f in ["config.ron", "evals.csv", "result.ron"] {
        assert_eq!(
            std::fs::read(full.join(f)).unwrap(),
            std::fs::read(cut.join(f)).unwrap(),
            "{f}"
        );
    }
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

/// `--race-baseline` takes `entrant`, `incumbent` or `none`; anything else is exit 2,
/// naming the flag and its values, before any folder is made.
#[test]
fn a_bad_race_baseline_is_refused_by_name() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "optimize",
            "--problem",
            "synthetic-design",
            "--budget",
            "40",
        ])
        .args(["--race-baseline", "sideways", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--race-baseline"))
        .stderr(predicate::str::contains("incumbent"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
