//! Issue 58 (reliability 5): a verdict nothing can lose, settings that are never
//! silently dropped, a resumed run that cannot change game, a race that keeps to
//! `--fix`, and the wording a newcomer reads. Each test failed before its fix.

use crate::common;

use common::{playtune, read, refused, run, succeeded};
use std::path::{Path, PathBuf};

/// A synthetic design run (a problem with a baseline of its own, and cheap) in
/// `dir/NAME`, with `extra` flags.
fn design_run(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    succeeded(
        playtune()
            .args([
                "optimize",
                "--problem",
                "synthetic-design",
                "--budget",
                "40",
            ])
            .args(extra)
            .args(["-q", "--name", name, "--runs-dir"])
            .arg(dir),
    );
    dir.join(name)
}

fn resume(run_dir: &Path, extra: &[&str]) -> String {
    succeeded(playtune().args(["resume", "-q"]).arg(run_dir).args(extra))
}

/// Class 1: `--verdict N` is kept in `config.ron`; a finished run resumed, a run whose
/// `result.ron` is removed, and a run stopped during its verdict all end with the same
/// verdict, byte for byte, the verdict's evaluations taken from `verdict.jsonl`.
#[test]
fn the_verdict_survives_resume_rebuild_and_interruption() {
    let dir = tempfile::tempdir().unwrap();
    let r = design_run(dir.path(), "a", &["--verdict", "12"]);
    let config = read(&r.join("config.ron"));
    assert!(config.contains("evaluations: 12"), "{config}");
    let result = read(&r.join("result.ron"));
    assert!(result.contains("evaluations: 12"), "{result}");
    let log = read(&r.join("verdict.jsonl"));
    assert_eq!(log.lines().count(), 24, "12 a side");

    // A finished run resumed: the same verdict, nothing played again.
    let out = resume(&r, &[]);
    assert!(out.contains("each evaluated 12 times"), "{out}");
    assert_eq!(read(&r.join("result.ron")), result);
    assert_eq!(read(&r.join("verdict.jsonl")), log);

    // result.ron removed and rebuilt.
    std::fs::remove_file(r.join("result.ron")).unwrap();
    resume(&r, &[]);
    assert_eq!(read(&r.join("result.ron")), result);
    assert_eq!(read(&r.join("verdict.jsonl")), log);

    // Stopped during the verdict: half its evaluations done, the last line torn.
    std::fs::remove_file(r.join("result.ron")).unwrap();
    let half: Vec<&str> = log.lines().take(9).collect();
    std::fs::write(
        r.join("verdict.jsonl"),
        half.join("\n") + "\n{\"trial\":0,\"k\":",
    )
    .unwrap();
    resume(&r, &[]);
    assert_eq!(read(&r.join("result.ron")), result);
    assert_eq!(
        read(&r.join("verdict.jsonl")).lines().count(),
        24,
        "the torn line cut off"
    );

    // --verdict 0 is kept too: resume judges nothing.
    let z = design_run(dir.path(), "z", &["--verdict", "0"]);
    assert!(read(&z.join("config.ron")).contains("evaluations: 0"));
    let out = resume(&z, &[]);
    assert!(!out.contains("verdict"), "{out}");
    assert!(!read(&z.join("result.ron")).contains("verdict"));

    // --baseline is kept: resume judges against the same point.
    let b = design_run(dir.path(), "b", &["--baseline", "x0=2", "--verdict", "10"]);
    let judged = read(&b.join("result.ron"));
    assert!(judged.contains("the baseline point"), "{judged}");
    std::fs::remove_file(b.join("result.ron")).unwrap();
    resume(&b, &[]);
    assert_eq!(read(&b.join("result.ron")), judged);
}

/// Class 2: the verdict's rewrite of `result.ron` on a full disk leaves the file that
/// was there, whole.
#[test]
fn a_verdict_on_a_full_disk_leaves_result_ron_whole() {
    let Some(fs) = common::Tmpfs::mount("256k", "a_verdict_on_a_full_disk") else {
        return;
    };
    let r = design_run(fs.path(), "a", &["--verdict", "0"]);
    let before = read(&r.join("result.ron"));
    fs.fill();
    let (code, _, err) = run(playtune().args(["resume", "-q", "--verdict", "30"]).arg(&r));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(read(&r.join("result.ron")), before);
    fs.unfill();
}

/// Class 3: a run records its game; resumed with another game (another folder's
/// `games/g.ron`, named on purpose), it is refused, naming both; with its own, it
/// resumes. (Since issue 65 a run finds its game where it was found, from any folder:
/// the other folder's game is reached only by naming it.)
#[test]
fn a_resumed_run_refuses_another_game() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root("");
    let duel = read(&root.join("examples/duel/duel.ron"));
    for (folder, text) in [
        ("a", duel.clone()),
        (
            "b",
            duel.replace(
                "ladder: [\"novice\", \"club\", \"expert\"]",
                "ladder: [\"novice\", \"expert\"]",
            ),
        ),
    ] {
        let games = dir.path().join(folder).join("games");
        std::fs::create_dir_all(&games).unwrap();
        std::fs::write(games.join("g.ron"), text).unwrap();
        std::fs::copy(root.join("examples/duel/duel.py"), games.join("duel.py")).unwrap();
    }
    let runs = dir.path().join("runs");
    succeeded(
        playtune()
            .current_dir(dir.path().join("a"))
            .args([
                "optimize",
                "--problem",
                "design",
                "--set",
                "game=games/g.ron",
            ])
            .args(["--set", "games=2", "--budget", "6", "--verdict", "0", "-q"])
            .args(["--name", "r", "--runs-dir"])
            .arg(&runs),
    );
    let r = runs.join("r");
    assert!(read(&r.join("config.ron")).contains("fingerprint"));
    refused(
        playtune()
            .current_dir(dir.path().join("b"))
            .args(["resume", "-q", "--game", "games/g.ron"])
            .arg(&r),
        &[
            "config.ron",
            "the run played the game `duel`",
            "another game",
        ],
    );
    refused(
        playtune()
            .current_dir(dir.path().join("b"))
            .args(["reevaluate", "--n", "2", "--game", "games/g.ron"])
            .arg(&r),
        &["another game"],
    );
    succeeded(
        playtune()
            .current_dir(dir.path().join("a"))
            .args(["resume", "-q"])
            .arg(&r),
    );
}

/// Class 4: with a dimension fixed away from the game's own rules, those rules neither
/// race nor can be recommended.
#[test]
fn the_race_keeps_to_fixed_dimensions() {
    let dir = tempfile::tempdir().unwrap();
    let r = design_run(dir.path(), "f", &["--fix", "x0=1", "--verdict", "0"]);
    let log = read(&r.join("evals.csv"));
    let race: Vec<&str> = log.lines().filter(|l| l.contains(",race,")).collect();
    assert!(!race.is_empty(), "{log}");
    for row in log.lines().skip(1) {
        let x0 = row.split(',').nth(4).unwrap();
        assert_eq!(x0, "1", "a row breaks --fix x0=1: {row}");
    }
}

/// Class 5: settings out of bounds are refused before the search, by the flag that
/// sets them, never dropped; one evaluation gives no standard error; a verdict larger
/// than the search is announced.
#[test]
fn unbounded_or_unusable_settings_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let start = |extra: &[&str]| {
        let mut c = playtune();
        c.args([
            "optimize",
            "--problem",
            "synthetic-design",
            "--budget",
            "40",
        ])
        .args(extra)
        .args(["--runs-dir"])
        .arg(dir.path());
        c
    };
    refused(
        &mut start(&["--verdict", "4294967295"]),
        &["--verdict 4294967295", "at most"],
    );
    refused(
        &mut start(&["--verdict", "1"]),
        &["--verdict 1", "at least 2"],
    );
    refused(
        &mut start(&["--race", "0.99"]),
        &["--race 0.99", "budget of 40", "search"],
    );
    refused(
        &mut start(&["--race", "0.001"]),
        &["--race 0.001", "budget of 40"],
    );
    let e = refused(&mut start(&["--race", "0"]), &["--race 0", "--no-race"]);
    assert!(!e.contains("--race-share"), "{e}");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "a refused run leaves no folder"
    );
    // A run whose config.ron asks a verdict of 1 is damaged.
    let r = design_run(dir.path(), "v", &["--verdict", "10"]);
    let config = read(&r.join("config.ron")).replace("evaluations: 10", "evaluations: 1");
    std::fs::write(r.join("config.ron"), config).unwrap();
    refused(
        playtune().args(["resume"]).arg(&r),
        &["verdict.evaluations", "at least 2"],
    );

    // One evaluation: a value, no "± 0.000".
    let r = design_run(dir.path(), "one", &["--verdict", "0"]);
    let out = succeeded(playtune().args(["reevaluate", "-n", "1"]).arg(&r));
    assert!(!out.contains("± 0.0000"), "{out}");
    assert!(out.contains("no standard error"), "{out}");
    assert!(out.contains("no verdict"), "{out}");

    // At budget 2 the default verdict (up to 40 a side) is said before it is played.
    let (code, _, err) = run(playtune()
        .args(["optimize", "--problem", "synthetic-design", "--budget", "2"])
        .args(["--name", "small", "--runs-dir"])
        .arg(dir.path()));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("the verdict plays up to 40 evaluations"),
        "{err}"
    );
}

/// Processes whose command line holds `marker` (read from /proc).
fn processes_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| {
            String::from_utf8_lossy(c)
                .replace('\0', " ")
                .contains(marker)
        })
        .count()
}

/// Class 6: a game that leaves a child in its process group, and one that does not
/// exit at the end of its input, end with the tournament and the design run.
#[test]
fn game_processes_end_with_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root("");
    let duel = read(&root.join("examples/duel/duel.ron"));
    std::fs::copy(
        root.join("examples/duel/duel.py"),
        dir.path().join("duel.py"),
    )
    .unwrap();
    // A child left in the group, and a game that lingers after its input ends.
    let command = "sleep 3171.5 </dev/null >/dev/null 2>&1 & python3 duel.py; sleep 3171.5";
    let game = dir.path().join("lingering.ron");
    std::fs::write(
        &game,
        duel.replace(
            "command: \"python3 duel.py\"",
            &format!("command: {command:?}"),
        ),
    )
    .unwrap();
    succeeded(
        playtune()
            .args(["tournament", "--games", "6", "--game"])
            .arg(&game),
    );
    succeeded(
        playtune()
            .args(["optimize", "--problem", "design", "--set"])
            .arg(format!("game={}", game.display()))
            .args(["--set", "games=2", "--budget", "4", "--verdict", "0", "-q"])
            .args(["--runs-dir"])
            .arg(dir.path()),
    );
    // SIGKILL is immediate, but the kernel may take a moment to reap.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        processes_with("sleep 3171.5"),
        0,
        "game processes outlived playtune"
    );
}

/// A game for the protocol's faults: `python3 bad.py MODE` answers every match wrongly
/// in the way MODE says.
const BAD_GAME: &str = r#"
import json, sys, time
mode = sys.argv[1]
if mode == "slow-start":
    time.sleep(1.5)
for line in sys.stdin:
    req = json.loads(line)
    i = req["id"]
    if mode == "short-trace":
        print(json.dumps({"id": i, "scores": [1, 0], "winners": [0], "length": 100, "trace": [[0, 0], [1, 0]]}), flush=True)
    elif mode == "repeated":
        print('{"id": %d, "scores": [1, 0], "scores": [0, 1], "winners": [0], "length": 3}' % i, flush=True)
    elif mode == "escapes":
        print("\x1b[2J\x1b]0;owned\x07 not a reply", flush=True)
    else:
        print(json.dumps({"id": i, "scores": [1, 0], "winners": [0], "length": 3}), flush=True)
"#;

fn bad_game(dir: &Path, mode: &str, extra: &str) -> PathBuf {
    std::fs::write(dir.join("bad.py"), BAD_GAME).unwrap();
    let path = dir.join(format!("{mode}.ron"));
    std::fs::write(
        &path,
        format!(
            r#"(name: "bad", command: "python3 bad.py {mode}", players: 2,
                bots: [(name: "a"), (name: "b")], timeout: 1{extra})"#
        ),
    )
    .unwrap();
    path
}

/// Class 9: the match protocol. A game slow to start plays at `timeout: 1` (start-up
/// has its own allowance); a trace whose rows do not match the length, and a reply
/// naming a key twice, fail the match by name; what a game prints reaches the terminal
/// without its escape sequences; a setting named as a log column is refused.
#[test]
fn the_match_protocol_holds_start_up_traces_keys_and_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let tournament = |game: &Path| {
        let mut c = playtune();
        c.args(["tournament", "--games", "2", "--game"]).arg(game);
        c
    };
    succeeded(&mut tournament(&bad_game(dir.path(), "slow-start", "")));
    let e = refused(
        &mut tournament(&bad_game(dir.path(), "slow-start", ", startup: 0")),
        &["did not reply within 1 s"],
    );
    assert!(!e.contains("startup"), "{e}");
    refused(
        &mut tournament(&bad_game(dir.path(), "short-trace", "")),
        &["\"trace\"", "has 2 rows for a match of 100 steps"],
    );
    refused(
        &mut tournament(&bad_game(dir.path(), "repeated", "")),
        &["names the key \"scores\" twice"],
    );
    let e = refused(
        &mut tournament(&bad_game(dir.path(), "escapes", "")),
        &["not a reply"],
    );
    assert!(!e.contains('\x1b') && !e.contains('\x07'), "{e:?}");
    let reserved = bad_game(
        dir.path(),
        "ok",
        r#", settings: [(name: "seed", kind: Int(min: 0, max: 3), default: 0)]"#,
    );
    refused(
        playtune().args(["games"]).arg(&reserved),
        &["ok.ron:", "`seed` is a column of every run's log"],
    );
}

/// Class 10: a List of fractions for an integer rule is refused before any game.
#[test]
fn an_integer_rule_refuses_fractional_values_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let space = dir.path().join("coins.ron");
    std::fs::write(
        &space,
        r#"(name: "c", dims: [(name: "coins", kind: List([2.0, 2.5, 3.0]), default: 2.0)])"#,
    )
    .unwrap();
    refused(
        playtune()
            .args([
                "optimize",
                "--problem",
                "design",
                "--set",
                "game=rinascimento",
            ])
            .args(["--budget", "4", "--space"])
            .arg(&space)
            .args(["--runs-dir"])
            .arg(dir.path()),
        &["coins.ron:", "coins", "integers 1..=20"],
    );
}
