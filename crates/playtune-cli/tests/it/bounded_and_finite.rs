//! Counts a user gives are bounded before anything is sized, and a run whose first
//! NTBEA evaluation failed still records a finite estimate that `report` reads.

use crate::common;
use common::{playtune, read, run, succeeded};

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

/// An executable script `name` in `dir` with `body`.
fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

/// A line's check written again, as `evals.csv` computes it: what an edit that means
/// it does (the checks of the values must catch it).
fn checked_row(body: &str) -> String {
    format!("{body},{:016x}", playtune::damage::fnv1a(body.as_bytes()))
}

/// `verdict.jsonl`'s line `line` with `field` set to `value`, its check written again.
fn verdict_line_with(line: &str, field: &str, value: &str) -> String {
    let body = &line[..line.find(",\"check\":").unwrap()];
    let key = format!("\"{field}\":");
    let at = body.find(&key).unwrap() + key.len();
    let end = at + body[at..].find(',').unwrap();
    let body = format!("{}{value}{}}}", &body[..at], &body[end..]);
    format!(
        "{},\"check\":\"{:016x}\"}}",
        &body[..body.len() - 1],
        playtune::damage::fnv1a(body.as_bytes())
    )
}

/// Class 6 (issue 65): finite numbers too large to compute with (±1e308). An
/// evaluator replying them has those evaluations refused as failed, with a message
/// naming the value and the bound, and the run's result is one its own `report` reads
/// (it was `estimate: inf`); `verdict.jsonl` and `evals.csv` lines holding them, their
/// checks written again, are named and played again, never a panic in the t-test
/// (exit 101) nor an infinite estimate.
#[test]
fn huge_finite_numbers_are_refused_where_they_come_in() {
    let dir = tempfile::tempdir().unwrap();
    let space = dir.path().join("one.ron");
    std::fs::write(
        &space,
        "(name: \"one\", dims: [(name: \"x\", kind: Int(min: 0, max: 3))])",
    )
    .unwrap();
    let eval = script(
        dir.path(),
        "eval.sh",
        "#!/bin/sh\nread line\ncase \"$line\" in *'\"x\":0'*) echo -1e308;; *'\"x\":3'*) echo 1e308;; *) echo 0.5;; esac\n",
    );
    let runs = dir.path().join("runs");
    succeeded(
        playtune()
            .args(["optimize", "--problem", "command", "--set"])
            .arg(format!("cmd={}", eval.display()))
            .arg("--space")
            .arg(&space)
            .args(["--budget", "20", "--seed", "3", "--max-failures", "1"])
            .args(["--retries", "0", "-q", "--name", "b", "--runs-dir"])
            .arg(&runs),
    );
    let result = read(&runs.join("b/result.ron"));
    assert!(
        !result.contains("inf") && !result.contains("NaN"),
        "{result}"
    );
    let failures = read(&runs.join("b/failures.jsonl"));
    assert!(
        failures.contains("the fitness is 1e308, beyond ±1e100")
            && failures.contains("the fitness is -1e308, beyond ±1e100"),
        "{failures}"
    );
    succeeded(
        playtune()
            .arg("report")
            .arg(runs.join("b"))
            .arg("--out")
            .arg(dir.path().join("b.html")),
    );

    // The verdict's log: one pair of ±1e308, its checks written again.
    succeeded(
        playtune()
            .args([
                "optimize",
                "--problem",
                "synthetic-design",
                "--budget",
                "40",
            ])
            .args(["--verdict", "6", "-q", "--name", "a", "--runs-dir"])
            .arg(&runs),
    );
    let a = runs.join("a");
    let clean = read(&a.join("result.ron"));
    let lines: Vec<String> = read(&a.join("verdict.jsonl"))
        .lines()
        .map(|l| {
            let huge = if l.contains("\"point\":null") {
                "-1e308"
            } else {
                "1e308"
            };
            if l.contains("\"k\":0,") {
                verdict_line_with(l, "fitness", huge)
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(a.join("verdict.jsonl"), lines.join("\n") + "\n").unwrap();
    std::fs::remove_file(a.join("result.ron")).unwrap();
    let (code, _, err) = run(playtune().args(["resume", "-q"]).arg(&a));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("verdict.jsonl: left out 2 damaged line(s)")
            && err.contains("fitness: 1e308 is beyond ±1e100")
            && err.contains("fitness: -1e308 is beyond ±1e100"),
        "{err}"
    );
    assert_eq!(
        read(&a.join("result.ron")),
        clean,
        "the verdict played again"
    );

    // The search's log: every row's fitness 1e308, its check written again.
    let log = runs.join("b/evals.csv");
    let text = read(&log);
    let mut rows: Vec<String> = text.lines().map(String::from).collect();
    let fitness = rows[0].split(',').position(|c| c == "fitness").unwrap();
    for row in rows.iter_mut().skip(1) {
        let mut f: Vec<&str> = row.split(',').collect();
        f.pop();
        f[fitness] = "1e308";
        *row = checked_row(&f.join(","));
    }
    std::fs::write(&log, rows.join("\n") + "\n").unwrap();
    std::fs::remove_file(runs.join("b/result.ron")).unwrap();
    let (code, _, err) = run(playtune().args(["resume", "-q"]).arg(runs.join("b")));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("evals.csv: left out") && err.contains("a result of 1e308, beyond ±1e100"),
        "{err}"
    );
    let result = read(&runs.join("b/result.ron"));
    assert!(!result.contains("e30"), "{result}");
    succeeded(
        playtune()
            .arg("report")
            .arg(runs.join("b"))
            .arg("--out")
            .arg(dir.path().join("b.html")),
    );
}

/// Class 14b (issue 65): re-evaluations that tie (one unit in the last place apart,
/// so a standard error of 1e-17, or exactly) are said to agree, and the estimate's
/// gap from them is given as it is, never as 4.9e15 standard errors.
#[test]
fn tied_reevaluations_agree_rather_than_count_standard_errors() {
    let dir = tempfile::tempdir().unwrap();
    let space = dir.path().join("one.ron");
    std::fs::write(
        &space,
        "(name: \"one\", dims: [(name: \"x\", kind: Int(min: 0, max: 3))])",
    )
    .unwrap();
    // 0.3 computed two ways, by the seed's last digit.
    let ulp = script(
        dir.path(),
        "ulp.sh",
        "#!/bin/sh\ncase \"$PLAYTUNE_SEED\" in *[02468]) echo 0.3;; *) echo 0.30000000000000004;; esac\n",
    );
    let exact = script(dir.path(), "exact.sh", "#!/bin/sh\necho 0.3\n");
    for (name, eval) in [("ulp", &ulp), ("exact", &exact)] {
        let runs = dir.path().join("runs");
        succeeded(
            playtune()
                .args(["optimize", "--problem", "command", "--set"])
                .arg(format!("cmd={}", eval.display()))
                .arg("--space")
                .arg(&space)
                .args(["--algo", "random", "--budget", "4", "-q", "--name", name])
                .arg("--runs-dir")
                .arg(&runs),
        );
        // The optimiser's estimate (and the final value made of it) moved off 0.3.
        let result = runs.join(name).join("result.ron");
        let text = read(&result);
        let text = text
            .replacen("estimate: 0.3", "estimate: 0.35", 1)
            .replacen("mean: 0.3", "mean: 0.35", 1);
        std::fs::write(&result, text).unwrap();
        let out = succeeded(
            playtune()
                .arg("reevaluate")
                .arg(runs.join(name))
                .args(["--n", "10"]),
        );
        assert!(!out.contains("standard errors"), "{name}: {out}");
        assert!(
            out.contains(
                "the 10 re-evaluations all agree at 0.3000; the estimate is 0.0500 above them"
            ),
            "{name}: {out}"
        );
    }
}
