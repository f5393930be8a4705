//! Counts a user gives are bounded before anything is sized, and a run whose first
//! NTBEA evaluation failed still records a finite estimate that `report` reads.

use crate::common;
use common::{playtune, succeeded};

#[test]
fn huge_counts_are_refused_not_allocated() {
    let dir = tempfile::tempdir().unwrap();
    let out = playtune()
        .args([
            "map-elites",
            "--problem",
            "noisy-onemax",
            "--axis",
            "x=0:1:2",
        ])
        .args([
            "--init-random",
            "1000000000000",
            "--evaluations",
            "10",
            "--runs-dir",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--init-random 1000000000000: give 0 to 1000000")
    );
    let out = playtune()
        .args([
            "optimize",
            "--problem",
            "noisy-onemax",
            "--budget",
            "5",
            "-q",
            "--name",
            "a",
            "--runs-dir",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = playtune()
        .arg("reevaluate")
        .arg(dir.path().join("a"))
        .args(["--n", "1000000000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give at most 1000000 evaluations"));
}

#[test]
fn a_failed_first_evaluation_leaves_a_finite_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let space = dir.path().join("one.ron");
    std::fs::write(
        &space,
        "(name: \"one\", dims: [(name: \"x\", kind: Int(min: 0, max: 3))])",
    )
    .unwrap();
    let eval = dir.path().join("eval.sh");
    std::fs::write(
        &eval,
        "#!/bin/sh\nread line\ncase \"$line\" in *'\"x\":0'*) exit 3;; esac\necho 1\n",
    )
    .unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut std::fs::metadata(&eval).unwrap().permissions(),
        0o755,
    );
    std::fs::set_permissions(&eval, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // Seed 5 asks x = 0 first (and it fails); the rest succeed.
    succeeded(
        playtune()
            .args(["optimize", "--problem", "command", "--set"])
            .arg(format!("cmd={}", eval.display()))
            .arg("--space")
            .arg(&space)
            .args([
                "--budget",
                "3",
                "--seed",
                "5",
                "--max-failures",
                "1",
                "--retries",
                "0",
                "-q",
                "--name",
                "f",
                "--runs-dir",
            ])
            .arg(dir.path()),
    );
    let failures = std::fs::read_to_string(dir.path().join("f/failures.jsonl")).unwrap();
    assert!(
        failures.contains("\"index\":0") || failures.lines().count() == 1,
        "{failures}"
    );
    let result = std::fs::read_to_string(dir.path().join("f/result.ron")).unwrap();
    assert!(
        !result.contains("inf") && !result.contains("NaN"),
        "{result}"
    );
    succeeded(playtune().arg("report").arg(dir.path().join("f")));
}

/// `report` reads a run whose feature is named `check` and another holding `"`: the
/// log's header is read by position, as `resume` reads it. (A dimension may not take a
/// log column's name: issue 58 refuses one named `fitness`, which gave `evals.csv` two
/// `fitness` columns.)
#[test]
fn report_reads_runs_with_names_that_look_like_columns() {
    let dir = tempfile::tempdir().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(
        &space,
        "(name: \"s\", dims: [(name: \"fit,ness\", kind: Int(min: 0, max: 3)), (name: \"y\", kind: Int(min: 0, max: 3))])",
    )
    .unwrap();
    let eval = dir.path().join("eval.sh");
    std::fs::write(&eval, "#!/bin/sh\nread line\necho '{\"fitness\": 1.5, \"features\": {\"check\": 2, \"size\": 3, \"q\\\"x\": 4}}'\n").unwrap();
    std::fs::set_permissions(&eval, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    succeeded(
        playtune()
            .args(["optimize", "--problem", "command", "--set"])
            .arg(format!("cmd={}", eval.display()))
            .args(["--set", "features=check,size,q\"x", "--space"])
            .arg(&space)
            .args([
                "--algo",
                "random",
                "--budget",
                "8",
                "-q",
                "--name",
                "odd",
                "--runs-dir",
            ])
            .arg(dir.path()),
    );
    succeeded(
        playtune()
            .arg("report")
            .arg(dir.path().join("odd"))
            .args(["--out"])
            .arg(dir.path().join("odd.html")),
    );
    let page = std::fs::read_to_string(dir.path().join("odd.html")).unwrap();
    assert!(
        page.contains("How much each parameter matters"),
        "no importance section"
    );
}
