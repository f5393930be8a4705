//! `playtune validate`: chosen elites of a MAP-Elites run evaluated again.

use assert_cmd::Command;
use predicates::prelude::*;

fn playtune() -> Command {
    Command::cargo_bin("playtune").unwrap()
}

/// On the noise-free sphere, validation reproduces each corner elite's archive values
/// exactly, and the four corners are four distinct elites.
#[test]
fn validation_of_a_noise_free_archive_reproduces_it() {
    let dir = tempfile::tempdir().unwrap();
    playtune()
        .args([
            "map-elites",
            "--problem",
            "sphere",
            "--set",
            "dims=6",
            "--evaluations",
            "1500",
        ])
        .args(["--seed", "4", "--name", "s", "-q"])
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    let run = dir.path().join("s");
    playtune()
        .arg("validate")
        .arg(&run)
        .args(["--cells", "corners", "--evaluations", "3"])
        .assert()
        .success();
    let md = std::fs::read_to_string(run.join("validation.md")).unwrap();
    let rows: Vec<Vec<String>> = md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| cell"))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    assert_eq!(rows.len(), 4, "{md}");
    for r in &rows {
        // archive value, then "validation ± se", for the fitness and both measures.
        for (archive, validation) in [(2, 3), (4, 5), (6, 7)] {
            assert_eq!(format!("{} ± 0.000", r[archive]), r[validation], "{md}");
        }
    }
    playtune()
        .arg("validate")
        .arg(&run)
        .args(["--cells", "1:x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a cell"));
    playtune()
        .arg("validate")
        .arg(&run)
        .args(["--cells", "0:0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no elite"));
}
