//! `playtune validate`: chosen elites of a MAP-Elites run evaluated again.

use crate::common;
use common::playtune;

use predicates::prelude::*;

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

/// A three-feature archive's heatmap shows the third feature as slices side by side,
/// one panel per bucket, on one colour scale.
#[test]
fn a_three_feature_archive_is_drawn_as_slices() {
    let dir = tempfile::tempdir().unwrap();
    playtune()
        .args(["map-elites", "--problem", "strategy-styles"])
        .args([
            "--set",
            "levels=1",
            "--set",
            "games=2",
            "--set",
            "budget=50",
            "--set",
            "turns=6",
        ])
        .args(["--one-hot", "--init-random", "5", "--evaluations", "30"])
        .args(["--axis", "attacks=0:4:4", "--axis", "defender_spawns=0:3:3"])
        .args(["--axis", "research_slope=0:0.5:3", "--name", "t3", "-q"])
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    let out = dir.path().join("pictures");
    playtune()
        .arg("plot")
        .arg(dir.path().join("t3"))
        .arg("--out")
        .arg(&out)
        .args(["--heatmap", "fitness"])
        .assert()
        .success();
    let png = std::fs::read(out.join("heatmap_fitness.png")).unwrap();
    // The PNG header's width: three 950-pixel panels and the colour bar.
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    assert_eq!(width, 3 * 950 + 150);
}
