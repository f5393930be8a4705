//! `playtune ask` / `tell`: a run evaluated outside playtune gives the same files as
//! the in-process run with the same seed, whatever order results come back in.

use crate::common;
use common::playtune;

use playtune::registry::build_problem;
use playtune::run::ProblemSpec;
use std::path::Path;
use tempfile::TempDir;

const SPACE: &str = concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/spaces/noisy_onemax_10.ron"
);

/// Runs `optimize` with `problem` and the shared settings.
fn start(dir: &Path, name: &str, problem: &str, algo: &[&str]) {
    playtune()
        .args(["optimize", "--problem", problem, "--space", SPACE, "-q"])
        .args([
            "--budget", "40", "--trials", "2", "--seed", "5", "--name", name,
        ])
        .args(algo)
        .arg("--runs-dir")
        .arg(dir)
        .assert()
        .success();
}

/// Drives a manual run to the end: asks up to 3 candidates at a time, evaluates them
/// with the in-process problem's own code, and tells the results in reverse order.
fn drive(run: &Path) -> usize {
    let space =
        playtune::space::parse_space(&std::fs::read_to_string(SPACE).unwrap(), SPACE).unwrap();
    let problem = build_problem(
        &ProblemSpec {
            name: "noisy-onemax".into(),
            settings: Default::default(),
        },
        Some(&space),
    )
    .unwrap();
    let mut rounds = 0;
    loop {
        let out = playtune()
            .arg("ask")
            .arg(run)
            .args(["--n", "3"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let asked: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if asked.is_empty() {
            assert!(
                run.join("result.ron").exists(),
                "nothing asked, nothing finished"
            );
            return rounds;
        }
        rounds += 1;
        let mut results: Vec<String> = asked
            .iter()
            .map(|a| {
                let x: Vec<f64> = space
                    .dims
                    .iter()
                    .map(|d| a["point"][&d.name].as_f64().unwrap())
                    .collect();
                let e = problem.evaluate(&x, a["seed"].as_u64().unwrap()).unwrap();
                serde_json::json!({"id": a["id"], "trial": a["trial"], "fitness": e.fitness})
                    .to_string()
            })
            .collect();
        results.reverse();
        playtune()
            .arg("tell")
            .arg(run)
            .write_stdin(results.join("\n") + "\n")
            .assert()
            .success();
    }
}

#[test]
fn ask_and_tell_reproduce_the_in_process_run() {
    for algo in [
        &["--algo", "ntbea"][..],
        &["--algo", "random", "--batch", "8"],
    ] {
        let dir = TempDir::new().unwrap();
        start(dir.path(), "inproc", "noisy-onemax", algo);
        start(dir.path(), "manual", "manual", algo);
        let rounds = drive(&dir.path().join("manual"));
        assert!(rounds >= 10, "{algo:?}: {rounds} rounds");
        let read = |run: &str, file: &str| {
            std::fs::read_to_string(dir.path().join(run).join(file)).unwrap()
        };
        assert_eq!(
            read("inproc", "evals.csv"),
            read("manual", "evals.csv"),
            "{algo:?}"
        );
        // The same recommendations, estimates and convergence; only the in-process
        // problem knows true fitness.
        let result = |run: &str| playtune::run::read_result(&dir.path().join(run)).unwrap();
        let (inproc, manual) = (result("inproc"), result("manual"));
        for (a, b) in inproc.trials.iter().zip(&manual.trials) {
            assert_eq!(a.recommendation, b.recommendation, "{algo:?}");
            assert_eq!(
                (a.estimate, a.estimate_se, a.estimate_samples),
                (b.estimate, b.estimate_se, b.estimate_samples)
            );
            assert_eq!(a.spent, b.spent);
            let estimates = |t: &playtune::run::TrialResult| -> Vec<(u64, f64)> {
                t.trace
                    .iter()
                    .map(|c| (c.evaluations, c.estimate))
                    .collect()
            };
            assert_eq!(estimates(a), estimates(b));
        }
    }
}

#[test]
fn tell_refuses_bad_results_and_records_nothing() {
    let dir = TempDir::new().unwrap();
    start(
        dir.path(),
        "m",
        "manual",
        &["--algo", "random", "--batch", "4"],
    );
    let run = dir.path().join("m");
    let out = playtune()
        .arg("ask")
        .arg(&run)
        .args(["--n", "10"])
        .output()
        .unwrap();
    let ids: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ids.len(), 8, "two trials, a batch of 4 each");
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs its batch's results"));
    // Handed out already: a second ask gives nothing new, --again gives them again.
    let again = playtune()
        .arg("ask")
        .arg(&run)
        .args(["--n", "10"])
        .output()
        .unwrap();
    assert!(again.stdout.is_empty());
    let again = playtune()
        .arg("ask")
        .arg(&run)
        .args(["--n", "10", "--again"])
        .output()
        .unwrap();
    assert_eq!(again.stdout, out.stdout);
    for (lines, fragment) in [
        (
            "{\"id\": 0, \"trial\": 0, \"fitness\": 1}\n{\"id\": 99, \"trial\": 0, \"fitness\": 1}",
            ":2: trial 0 id 99 is not waiting",
        ),
        (
            "{\"id\": 1, \"trial\": 0, \"fitness\": 1e999}",
            "out of range",
        ),
        ("{\"id\": 1, \"trial\": 0, \"fitness\": NaN}", "NaN"),
        ("{\"id\": 1, \"fitness\": 2}", "no `trial`"),
        ("{\"id\": 1, \"trial\": 0}", "fitness"),
        (
            "{\"id\": 1, \"trial\": 0, \"fitness\": 1}\n{\"id\": 1, \"trial\": 0, \"fitness\": 2}",
            "told twice",
        ),
        ("garbage", "standard input:1"),
    ] {
        let out = playtune()
            .arg("tell")
            .arg(&run)
            .write_stdin(lines)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{lines}: {err}");
        assert!(err.contains(fragment), "{lines}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(run.join("evals.csv"))
            .unwrap_or_default()
            .lines()
            .count(),
        1,
        "nothing recorded"
    );
    // An error reply is a failed evaluation, recorded with its reason.
    playtune()
        .arg("tell")
        .arg(&run)
        .write_stdin("{\"id\": 2, \"trial\": 1, \"error\": \"the game crashed\"}\n")
        .assert()
        .success()
        .stdout(predicates::str::contains("1 failed"));
    let failures = std::fs::read_to_string(run.join("failures.jsonl")).unwrap();
    assert!(failures.contains("the game crashed") && failures.contains("\"trial\":1"));
}
