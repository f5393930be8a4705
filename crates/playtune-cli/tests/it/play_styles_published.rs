//! The published play-styles experiment (runs/published/play-styles-full): the
//! archives are diverse and competitive, and validation on levels the search never
//! used keeps opposite corners apart in the features that hold. The figures here are
//! the ones the README quotes; `cargo test --release --test it play_styles_published --
//! --nocapture` prints them.

use playtune::optim::map_elites::Archive;
use playtune::run::read_result;
use std::path::Path;

const ROOT: &str = concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/runs/published/play-styles-full"
);

/// A validation.md row: cell, then (archive, validation mean, validation se) for
/// fitness and each feature.
type Row = (String, Vec<(f64, f64, f64)>);

fn validation(archive: &str) -> Vec<Row> {
    let text =
        std::fs::read_to_string(Path::new(ROOT).join(archive).join("validation.md")).unwrap();
    text.lines()
        .skip(2)
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            let cols: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let stats = cols[1..]
                .chunks(2)
                .map(|c| {
                    let (m, se) = c[1].split_once('±').unwrap();
                    (
                        c[0].parse().unwrap(),
                        m.trim().parse().unwrap(),
                        se.trim().parse().unwrap(),
                    )
                })
                .collect();
            (cols[0].to_string(), stats)
        })
        .collect()
}

/// Whether validation keeps feature `f` of rows `a` (low end) and `b` (high end)
/// apart in the archive's direction, by more than two standard errors of the gap.
fn apart(rows: &[Row], a: usize, b: usize, f: usize) -> bool {
    let (x, y) = (rows[a].1[f], rows[b].1[f]);
    let gap = y.1 - x.1;
    (y.0 - x.0).signum() == gap.signum() && gap.abs() > 2.0 * (x.2.powi(2) + y.2.powi(2)).sqrt()
}

#[test]
fn the_archives_are_diverse_and_competitive() {
    for name in ["attacks-support", "defenders-riders", "economy-builds"] {
        let dir = Path::new(ROOT).join(name);
        let r = read_result(&dir).unwrap();
        let config = playtune::run::read_config(&dir).unwrap();
        let names = playtune::registry::build_problem(&config.problem, None)
            .unwrap()
            .feature_names();
        let archive = r.trials[0].archive.as_ref().unwrap();
        let elites = archive.elites();
        let m = r.trials[0].history.last().unwrap();
        let above = elites.iter().filter(|e| e.fitness > 0.5).count();
        let spread: Vec<String> = archive
            .axes()
            .iter()
            .map(|axis| {
                let f = names.iter().position(|n| *n == axis.name).unwrap();
                let v: Vec<f64> = elites.iter().map(|e| e.features[f]).collect();
                let (lo, hi) = v
                    .iter()
                    .fold((f64::MAX, f64::MIN), |a, &x| (a.0.min(x), a.1.max(x)));
                format!("{} {lo:.3}..{hi:.3}", axis.name)
            })
            .collect();
        println!(
            "{name}: {} elites, coverage {:.1}%, QD score {:.2}, {above} of {} ({:.0}%) win more than half their games; spread {}",
            elites.len(),
            100.0 * m.coverage,
            m.qd_score,
            elites.len(),
            100.0 * above as f64 / elites.len() as f64,
            spread.join(", ")
        );
        assert!(elites.len() >= 10, "{name}: {} elites", elites.len());
        assert!(
            above * 2 > elites.len(),
            "{name}: most elites win more than half"
        );
    }
}

#[test]
fn validation_keeps_opposite_corners_apart() {
    // attacks x support units: rows 1:1, 4:2, 3:7, 6:6 (low-low, high-low, low-high,
    // high-high). Opposite corners 1:1 and 6:6 stay apart in both features; support
    // units separate the low rows from the high rows on every side.
    let a = validation("attacks-support");
    assert!(apart(&a, 0, 3, 1) && apart(&a, 0, 3, 2));
    assert!(apart(&a, 0, 2, 2) && apart(&a, 1, 3, 2) && apart(&a, 1, 2, 2));
    // defender spawns x rider spawns: rows 1:3, 7:2, 1:9, 6:8 (low-low, high-low,
    // low-high, high-high). Both pairs of opposite corners stay apart in both features.
    let d = validation("defenders-riders");
    assert!(apart(&d, 0, 3, 1) && apart(&d, 0, 3, 2));
    assert!(apart(&d, 2, 1, 1) && apart(&d, 1, 2, 2));
    // economy research x buildings: rows 2:0, 6:1, 4:5, 7:5. The opposite corners 2:0
    // and 7:5 stay apart in both; across the other diagonal economy research holds
    // (6:1 above 4:5) but the buildings do not (the two features go together: a
    // correlation of 0.53 over the pilot's random weights).
    let r = validation("economy-builds");
    assert!(apart(&r, 0, 3, 1) && apart(&r, 0, 3, 2));
    assert!(apart(&r, 2, 1, 1) && !apart(&r, 1, 2, 2));
    // Every validated corner elite stays competitive on unseen levels.
    for rows in [&a, &d, &r] {
        assert!(rows.iter().all(|(_, s)| s[0].1 > 0.55), "{rows:?}");
    }
}

/// The published ladder from the attacks x support archive: the same command on its
/// published games plays none and writes the same pages, and the ladder it picked
/// holds on validation levels, every step above two standard errors, head to head
/// too.
#[test]
fn the_published_archive_ladder_regenerates_and_holds() {
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let published = Path::new(ROOT).join("ladder");
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("runs/ladder");
    std::fs::create_dir_all(copy.join("candidates")).unwrap();
    for f in [
        "games.csv",
        "experiment.txt",
        "candidates/games.csv",
        "candidates/experiment.txt",
    ] {
        std::fs::copy(published.join(f), copy.join(f)).unwrap();
    }
    // The command of docs/results.md, run where it was (its pages name the archive by
    // that path), into the copy.
    let out = crate::common::playtune()
        .current_dir(repo)
        .args([
            "ladder",
            "runs/published/play-styles-full/attacks-support",
            "--name",
            "ladder",
            "--pick",
            "4",
            "--candidate-games",
            "3",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(tmp.path().join("runs"))
        .arg("--plots-dir")
        .arg(tmp.path().join("plots"))
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    for f in [
        "games.csv",
        "candidates/games.csv",
        "summary.md",
        "candidates.md",
    ] {
        assert_eq!(
            std::fs::read_to_string(copy.join(f)).unwrap(),
            std::fs::read_to_string(published.join(f)).unwrap(),
            "{f}"
        );
    }
    let summary = std::fs::read_to_string(published.join("summary.md")).unwrap();
    assert!(stdout.contains(&summary));
    let rows: Vec<Vec<&str>> = summary
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("**"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert!(rows.len() >= 3, "{summary}");
    // Head to head, each rung beats every rung below it.
    for (i, row) in rows.iter().enumerate() {
        for j in 0..i {
            let score: f64 = row[3 + j].parse().unwrap();
            assert!(score > 50.0, "rung {i} against {j}: {score}\n{summary}");
        }
    }
    let steps: Vec<(f64, f64)> = summary
        .lines()
        .filter(|l| l.contains(" to ") && l.starts_with("| "))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c[2].parse().unwrap(), c[3].parse().unwrap())
        })
        .collect();
    assert_eq!(steps.len(), rows.len() - 1);
    for (gain, se) in steps {
        assert!(gain > 2.0 * se, "a step of {gain} ± {se}: {summary}");
    }
}
