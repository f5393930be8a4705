//! Experiment tables and re-evaluation logs: a damaged row is named by line, never
//! counted, and its game played again; the table comes out as the undamaged one.

use super::ROOT;
use crate::common::{playtune, read, run};
use std::path::Path;

fn sorted_lines(p: &Path) -> Vec<String> {
    let mut l: Vec<String> = read(p).lines().map(String::from).collect();
    l.sort();
    l
}

fn strategy_quick(dir: &Path) -> (Option<i32>, String, String) {
    run(playtune()
        .args([
            "experiment",
            "strategy-portfolio",
            "--preset",
            "quick",
            "--set",
            "turns=8",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(dir.join("runs"))
        .arg("--plots-dir")
        .arg(dir.join("plots")))
}

/// A result of 7, a game played twice with other results, a game index beyond the
/// preset's, a malformed number and an identical copy: each named by line, none
/// counted, the games played again; the table is the undamaged one.
#[test]
fn games_csv_rows_that_cannot_be_are_named_and_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = strategy_quick(dir.path());
    assert_eq!(code, Some(0), "{err}");
    let folder = dir.path().join("runs/strategy-portfolio-quick");
    let games = folder.join("games.csv");
    let clean = sorted_lines(&games);
    let summary = read(&folder.join("summary.md"));
    let mut lines: Vec<String> = read(&games).lines().map(String::from).collect();
    assert!(lines[0].ends_with(",check"), "{}", lines[0]);
    // An edit that also writes the row's check again (what the checks of the values
    // must catch), field `k` set to `v`.
    let field = |line: &str, k: usize, v: &str| {
        let mut f: Vec<String> = line.split(',').map(String::from).collect();
        f.pop();
        f[k] = v.to_string();
        let body = f.join(",");
        let check = playtune::damage::fnv1a(body.as_bytes());
        format!("{body},{check:016x}")
    };
    lines[1] = field(&lines[1], 4, "7"); // line 2: a result of 7
    let other_score = field(&lines[2], 5, "99999"); // line 3 again, another score
    lines[4] = field(&field(&lines[4], 2, "9"), 3, "1"); // line 5: game 9 of 2
    lines[6] = field(&lines[6], 6, "12x"); // line 7: not a number
    let copy = lines[8].clone(); // line 9 again, the same
    // Line 11: a result flipped without its check (a loss read as a win).
    let f: Vec<&str> = lines[10].split(',').collect();
    let flipped = if f[4] == "1" { "0" } else { "1" };
    lines[10] = [&f[..4], &[flipped], &f[5..]].concat().join(",");
    lines.push(other_score);
    lines.push(copy);
    let n = lines.len();
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();

    let (code, out, err) = strategy_quick(dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("games.csv"))
        .unwrap_or_else(|| panic!("no warning names games.csv: {err}"));
    assert_eq!(err.matches("games.csv").count(), 1, "one warning: {err}");
    for needle in [
        "left out 7 damaged line(s)",
        "line 2: result_a 7",
        "line 3: a game logged twice with different results",
        "line 5: game 9: the experiment plays 2",
        "line 7: not 14 numbers",
        "line 11: its check does not match the row",
        &format!("line {}: game", n - 1),
        &format!("line {n}: a copy of line 9"),
    ] {
        assert!(warning.contains(needle), "lacks `{needle}`: {warning}");
    }
    // The games were played again: the same rows (in another order), the same table.
    assert_eq!(sorted_lines(&games), clean);
    assert_eq!(read(&folder.join("summary.md")), summary);
    assert!(out.contains(summary.lines().next().unwrap()));
    // Nothing left to name.
    let (code, _, err) = strategy_quick(dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("games.csv"), "{err}");
}

/// The published tables read back whole: every row is accepted, no game is played,
/// and the tables are the published ones, byte for byte.
#[test]
fn the_published_strategy_tables_pass_the_checks() {
    for experiment in ["strategy-portfolio", "strategy-difficulty"] {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("{experiment}-full");
        let published = Path::new(ROOT).join("runs/published").join(&name);
        let folder = dir.path().join("runs").join(&name);
        std::fs::create_dir_all(&folder).unwrap();
        for f in ["games.csv", "experiment.txt"] {
            std::fs::copy(published.join(f), folder.join(f)).unwrap();
        }
        let (code, _, err) = run(playtune()
            .args(["experiment", experiment, "--preset", "full", "-q"])
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots")));
        assert_eq!(code, Some(0), "{err}");
        assert!(!err.contains("warning"), "{err}");
        assert_eq!(
            read(&folder.join("games.csv")),
            read(&published.join("games.csv"))
        );
        assert_eq!(
            read(&folder.join("summary.md")),
            read(&published.join("summary.md"))
        );
    }
}

fn space_battle(dir: &Path) -> (Option<i32>, String, String) {
    run(playtune()
        .args([
            "experiment",
            "space-battle",
            "--trials",
            "2",
            "--budget",
            "4",
            "--reevaluations",
            "3",
            "--set",
            "max_ticks=50",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(dir.join("runs"))
        .arg("--plots-dir")
        .arg(dir.join("plots")))
}

/// The re-evaluation log: an infinite fitness, a repeat beyond the experiment's, a
/// re-evaluation logged twice with another fitness and a line of garbage are named,
/// evaluated again and dropped from the log; the summary is the undamaged one.
#[test]
fn reevaluation_log_lines_that_cannot_be_are_evaluated_again() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = space_battle(dir.path());
    assert_eq!(code, Some(0), "{err}");
    let home = dir.path().join("runs/space-battle-quick");
    let log = home.join("ntbea/reevaluations.csv");
    let clean = sorted_lines(&log);
    let summary = read(&home.join("summary.md"));
    let lines: Vec<String> = read(&log).lines().map(String::from).collect();
    let with = |line: &str, k: usize, v: &str| {
        let mut f: Vec<String> = line.split(',').map(String::from).collect();
        f[k] = v.to_string();
        f.join(",")
    };
    let third: Vec<&str> = lines[2].split(',').collect();
    let (t, r) = (third[0], third[1]);
    let mut damaged = lines.clone();
    damaged[0] = with(&lines[0], 3, "inf");
    damaged[1] = with(&lines[1], 1, "7");
    damaged.push(with(&lines[2], 3, "12345"));
    damaged.push("%%% not a line %%%".into());
    std::fs::write(&log, damaged.join("\n") + "\n").unwrap();
    let (code, _, err) = space_battle(dir.path());
    assert_eq!(code, Some(0), "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("reevaluations.csv"))
        .unwrap_or_else(|| panic!("no warning names the log: {err}"));
    for needle in [
        "line 1: fitness inf",
        "line 2: repeat 7: the experiment re-evaluates 3 times",
        &format!("line 7: trial {t}, repeat {r} again with another fitness than line 3"),
        &format!("line 3: trial {t}, repeat {r} logged twice with different fitnesses"),
        "line 8: not trial,repeat,point,fitness",
    ] {
        assert!(warning.contains(needle), "lacks `{needle}`: {warning}");
    }
    assert_eq!(sorted_lines(&log), clean);
    assert_eq!(read(&home.join("summary.md")), summary);
}
