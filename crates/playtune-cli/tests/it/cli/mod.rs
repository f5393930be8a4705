//! The real binary, driven as a user drives it: good runs, every kind of bad input,
//! evaluators that fail, and thread-count determinism; resume after an interruption
//! is in `resume`.

mod resume;

pub(crate) use resume::cut_and_resume;

use crate::common;
use common::playtune;

use predicates::prelude::*;
use std::path::Path;
use tempfile::TempDir;

pub(crate) const GOOD: &str = "(\n    name: \"s\",\n    dims: [\n        (name: \"x0\", kind: Int(min: 0, max: 1), default: 0),\n        (name: \"x1\", kind: Int(min: 0, max: 1)),\n    ],\n)\n";

/// The last line of stdout, parsed as JSON.
pub(crate) fn last_json(out: &[u8]) -> serde_json::Value {
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
    let spaces: Vec<_> = std::fs::read_dir(common::root("spaces"))
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
