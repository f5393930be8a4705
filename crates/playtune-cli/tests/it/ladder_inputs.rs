//! The ladder check checks every ladder and claims nothing it has not shown, and the
//! counts of games a user gives are bounded (issue 72, items 6 and 7).

use crate::common;
use common::playtune;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A two-rung ladder of a two-player game is checked: its one pair meets alone.
#[test]
fn a_two_rung_ladder_is_checked() {
    let out = playtune()
        .args([
            "check-ladder",
            "--game",
            "rinascimento",
            "--set",
            "players=2",
        ])
        .args(["--ladder", "random,osla", "--games", "20"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!text.contains("nothing to check"), "{text}");
    assert!(text.contains("osla against random: scores"), "{text}");
}

/// A rung given twice is refused, naming it: the check would compare a bot with
/// itself and its proposal could list it twice.
#[test]
fn a_rung_given_twice_is_refused() {
    let out = playtune()
        .args([
            "check-ladder",
            "--game",
            "rinascimento",
            "--set",
            "players=2",
        ])
        .args(["--ladder", "random,osla,random", "--games", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`random` is given twice"),
        "{}",
        stderr(&out)
    );
}

/// Fewer games than can show a step are refused, with the floor.
#[test]
fn too_few_games_to_show_a_step_are_refused() {
    let out = playtune()
        .args([
            "check-ladder",
            "--game",
            "rinascimento",
            "--set",
            "players=2",
        ])
        .args(["--ladder", "random,osla", "--games", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--games 1: give 10 to 1000000"),
        "{}",
        stderr(&out)
    );
}

/// Counts of games past what could ever be played are refused with the limit,
/// before anything is sized (2^64-1 once panicked with "capacity overflow").
#[test]
fn huge_game_counts_are_refused_with_the_limit() {
    let huge = u64::MAX.to_string();
    for args in [
        vec!["check-ladder", "--games", huge.as_str()],
        vec![
            "tournament",
            "--game",
            "rinascimento",
            "--games",
            huge.as_str(),
        ],
        vec![
            "tournament",
            "--game",
            "rinascimento",
            "--games",
            "100000000000",
        ],
        vec![
            "optimize",
            "--problem",
            "design",
            "--ladder-check-games",
            huge.as_str(),
        ],
    ] {
        let out = playtune().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let e = stderr(&out);
        assert!(
            e.contains("give ") && !e.contains("panicked"),
            "{args:?}: {e}"
        );
    }
}

/// Not shown ordered at fewer games than a check needs is inconclusive, and says
/// which command tells; it is never "NOT shown ordered".
#[test]
fn a_check_of_few_games_is_inconclusive_not_a_verdict() {
    let out = playtune()
        .args([
            "check-ladder",
            "--game",
            "rinascimento",
            "--set",
            "players=2",
        ])
        .args(["--ladder", "random,rnd", "--games", "10"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("not shown ordered at 10 games a pair, which is inconclusive"),
        "{text}"
    );
    assert!(text.contains("--games 100"), "{text}");
    assert!(!text.contains("NOT shown ordered"), "{text}");
}

/// A game that hides information and gives no resampler has a ladder of `random`
/// alone: with no `--ladder` given, the check says why, not "--ladder: give at least
/// two rungs".
#[test]
fn a_hidden_game_without_a_resampler_says_only_random_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret.ron");
    std::fs::write(
        &file,
        r#"(name: "secret", command: "node secret.js", players: 2, forward_model: true, hidden: true, resample: false)"#,
    )
    .unwrap();
    let out = playtune()
        .args(["check-ladder", "--game"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(!e.contains("--ladder: give at least two rungs"), "{e}");
    assert!(e.contains("its ladder is only `random`"), "{e}");
    assert!(e.contains("no resampler"), "{e}");
}

/// An empty place in a list of rungs is refused, not dropped: `random,,osla` was
/// checked as a ladder of two (found by issue 72's fault probe).
#[test]
fn an_empty_rung_is_refused() {
    common::refused(
        playtune()
            .args([
                "check-ladder",
                "--game",
                "rinascimento",
                "--set",
                "players=2",
            ])
            .args(["--ladder", "random,,osla", "--games", "10"]),
        &["an empty agent: two commas in a row"],
    );
}
