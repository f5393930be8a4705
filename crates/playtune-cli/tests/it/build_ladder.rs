//! `playtune build-ladder`: a ladder built to be ordered, kept in a cache and read back
//! without playing, built again on `--rebuild`, the same on one thread or four, and
//! every bad input refused naming its flag.

use crate::cli::last_json;
use crate::common::{self, playtune};
use tempfile::TempDir;

/// A game where search buys strength and a build takes seconds: the strategy game at
/// its own rules, at most 60 games a candidate (random, osla, then the look-ahead's
/// more search passed over at the cap, then MCTS).
const QUICK: &[&str] = &["build-ladder", "--game", "strategy", "--games", "60"];

/// The build's JSON with `PLAYTUNE_CACHE` at `cache` and `threads` threads.
fn build(cache: &TempDir, threads: &str, extra: &[&str]) -> serde_json::Value {
    let out = playtune()
        .env("PLAYTUNE_CACHE", cache.path())
        .env("RAYON_NUM_THREADS", threads)
        .args(QUICK)
        .args(extra)
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    last_json(&out)
}

/// What a build decided, without what differs between runs (time, where it came
/// from).
fn decided(j: &serde_json::Value) -> (serde_json::Value, serde_json::Value, serde_json::Value) {
    (
        j["ladder"].clone(),
        j["steps"].clone(),
        j["games_played"].clone(),
    )
}

#[test]
fn a_ladder_is_built_once_then_read_from_the_cache_until_rebuilt() {
    let cache = TempDir::new().unwrap();
    let first = build(&cache, "2", &[]);
    let ladder: Vec<&str> = first["ladder"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(ladder.len(), 3, "{first:#}");
    assert_eq!(ladder[0], "random");
    assert!(first["ordered"].as_bool().unwrap() && first["complete"].as_bool().unwrap());
    assert!(!first["from_cache"].as_bool().unwrap());
    assert!(first["games_played_now"].as_u64().unwrap() > 0);
    // Every kept step was shown to score at least the target, within the cap.
    for s in first["steps"].as_array().unwrap() {
        if s["kept"].as_bool().unwrap() {
            assert_eq!(s["decision"], "better");
            assert!(s["score"].as_f64().unwrap() >= 0.6, "{s}");
        }
        assert!(s["games"].as_u64().unwrap() <= 60);
    }
    let file = std::path::PathBuf::from(first["cache_file"].as_str().unwrap());
    assert!(file.starts_with(cache.path().join("ladders")), "{file:?}");

    // The same command again: read, not played.
    let second = build(&cache, "2", &[]);
    assert!(second["from_cache"].as_bool().unwrap());
    assert_eq!(second["games_played_now"], 0);
    assert_eq!(decided(&second), decided(&first));

    // --rebuild plays again, to the same ladder (the same seed), on one thread.
    let rebuilt = build(&cache, "1", &["--rebuild"]);
    assert!(!rebuilt["from_cache"].as_bool().unwrap());
    assert!(rebuilt["games_played_now"].as_u64().unwrap() > 0);
    assert_eq!(decided(&rebuilt), decided(&first), "1 thread and 2 differ");

    // A damaged cache file is ignored with a warning, and replaced.
    std::fs::write(&file, "(format: 1, key: ").unwrap();
    let (code, out, err) = common::run(
        playtune()
            .env("PLAYTUNE_CACHE", cache.path())
            .args(QUICK)
            .arg("--json"),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("is not used") && !err.contains("panicked"),
        "{err}"
    );
    let again = last_json(out.as_bytes());
    assert!(!again["from_cache"].as_bool().unwrap());
    assert_eq!(decided(&again), decided(&first));
    assert!(build(&cache, "2", &[])["from_cache"].as_bool().unwrap());
}

#[test]
fn the_report_ends_with_the_ladder_as_the_design_problem_takes_it() {
    let cache = TempDir::new().unwrap();
    let out = common::succeeded(
        playtune()
            .env("PLAYTUNE_CACHE", cache.path())
            .env("RAYON_NUM_THREADS", "2")
            .args(QUICK),
    );
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("--set ladder=\"random,") && last.ends_with('"'),
        "{out}"
    );
    assert!(out.contains("an ordered ladder of 3 rungs"), "{out}");
    assert!(out.contains(" against random: scores "), "{out}");
    assert!(
        out.contains("cost: ") && out.contains(" games in "),
        "{out}"
    );
}

/// Where no candidate beats the rung below (here the only kind climbed is `random`
/// itself, as in a game luck decides), the command says there is no ordered ladder,
/// with the scores, and succeeds.
#[test]
fn where_no_candidate_beats_random_it_says_so_and_succeeds() {
    let cache = TempDir::new().unwrap();
    let (code, out, err) = common::run(
        playtune()
            .env("PLAYTUNE_CACHE", cache.path())
            .args(QUICK)
            .args(["--kinds", "random"]),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("no ordered ladder"), "{out}");
    assert!(out.contains("random against random: scores "), "{out}");
    assert!(!out.contains("--set ladder="), "{out}");
}

#[test]
fn bad_inputs_are_refused_naming_the_flag() {
    let cache = TempDir::new().unwrap();
    let refused = |args: &[&str], needles: &[&str]| {
        common::refused(
            playtune()
                .env("PLAYTUNE_CACHE", cache.path())
                .arg("build-ladder")
                .args(args),
            needles,
        );
    };
    refused(
        &["--game", "chess"],
        &["--game chess", "unknown game `chess`"],
    );
    refused(&["--game", "strategy", "--games", "0"], &["--games 0"]);
    refused(
        &["--game", "strategy", "--games", "100001"],
        &["--games 100001", "at most 100000"],
    );
    refused(&["--game", "strategy", "--games=-3"], &["--games <CAP>"]);
    refused(&["--game", "strategy", "--rungs", "1"], &["--rungs 1"]);
    refused(
        &["--game", "strategy", "--target", "0.5"],
        &["--target 0.5"],
    );
    refused(&["--game", "strategy", "--factor", "1"], &["--factor 1"]);
    refused(
        &["--game", "strategy", "--kinds", "osla,alphazero"],
        &["--kinds", "alphazero"],
    );
    refused(
        &["--game", "strategy", "--set", "colour=red"],
        &["--set", "colour"],
    );
    refused(
        &["--game", "strategy", "--set", "game_settings=turns"],
        &["--set game_settings", "not NAME=VALUE"],
    );
    // Rinascimento seats four by default: two-seat games only, for now.
    refused(
        &["--game", "rinascimento"],
        &["--game rinascimento", "only two-seat games", "players=2"],
    );
    refused(&["--rungs", "3"], &["--game"]);
    // Nothing was built or kept.
    assert!(!cache.path().join("ladders").exists());
}
