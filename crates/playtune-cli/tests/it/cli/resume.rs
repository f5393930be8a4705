//! Resume after an interruption: a run cut short, killed at any moment, cut in its
//! race, or with a damaged log resumes to the uninterrupted run's files, byte for byte,
//! evaluating again only what was lost.

use super::{GOOD, last_json};
use crate::common;
use common::playtune;

use predicates::prelude::*;
use std::path::Path;
use tempfile::TempDir;

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
pub(crate) fn cut_and_resume(args: &[&str], dir: &Path, lines: usize, half: &str) -> u64 {
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
    for (k, delay_ms) in [0u64, 1, 3, 6, 10, 20, 35, 60, 100, 160, 250]
        .into_iter()
        .enumerate()
    {
        let name = format!("killed{k}");
        let mut child = crate::common::playtune_process()
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

/// A published run still loads and resumes with zero new evaluations, its log unchanged.
#[test]
fn a_published_run_resumes_with_no_new_evaluation() {
    let dir = TempDir::new().unwrap();
    let published = common::root("").join("runs/published/space-battle-medium/ntbea");
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
