//! Issue 65: a run folder from someone else is safe to open, and a run's game is the
//! game it began with. Commands that only read a run (`report`, `plot`, `status`,
//! `compare`, `ask`) run none of the code a run names; `resume` and `reevaluate` play
//! the game where the run found it, from any folder, and refuse other code unless the
//! game is named again (`--game`); `config.ron`'s verdict baseline is a point of the
//! run's space (docs/run-folder.md, "What is safe to open").
//!
//! Python games are played here by a stand-in for Python (`$PLAYTUNE_PYTHON`) that runs
//! the game's file, as importing it would, then describes a small game or serves its
//! matches: the tests need no Python package, and a game file's code runs exactly
//! when playtune asks Python for the game.

use crate::common;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// `python -m playtune.worker describe|serve FILE.py:NAME`, as playtune calls it.
const FAKE_PYTHON: &str = r#"#!/usr/bin/env python3
import json, sys
what, ref = sys.argv[3], sys.argv[4]
path = ref.rsplit(":", 1)[0]
exec(compile(open(path).read(), path, "exec"), {})
if what == "describe":
    print('(name: "coin", players: 2, settings: [(name: "bias", kind: List([0.1, 0.5, 0.9]), default: 0.5)], bots: [(name: "low"), (name: "high")])')
    sys.exit(0)
for line in sys.stdin:
    r = json.loads(line)
    s = r["seed"] % 2
    print(json.dumps({"id": r["id"], "scores": [s, 1 - s], "winners": [s], "length": 1}), flush=True)
"#;

/// A game process over the match protocol, for a description's command.
const PLAYER: &str = r#"import json, sys
for line in sys.stdin:
    r = json.loads(line)
    s = r["seed"] % 2
    print(json.dumps({"id": r["id"], "scores": [s, 1 - s], "winners": [s], "length": 1}), flush=True)
"#;

/// A description whose command runs `play.py` in its folder.
const COMMAND_GAME: &str = r#"(
    name: "cmdgame",
    command: "python3 play.py",
    players: 2,
    settings: [(name: "bias", kind: List([0.1, 0.5, 0.9]), default: 0.5)],
    bots: [(name: "low"), (name: "high")],
)
"#;

/// A folder of its own for one test, with the stand-in for Python in it.
struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let place = Place {
            dir: tempfile::tempdir().unwrap(),
        };
        let python = place.path("fake-python");
        std::fs::write(&python, FAKE_PYTHON).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
        place
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.path(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// `playtune` run in `folder` (under this place), with the stand-in for Python.
    fn playtune(&self, folder: &str) -> Command {
        let mut c = common::playtune();
        c.current_dir(self.path(folder))
            .env("PLAYTUNE_PYTHON", self.path("fake-python"));
        c
    }

    /// A small design run of `game`, started in `folder`: `folder/runs/NAME`.
    fn design(&self, folder: &str, game: &str, name: &str) -> PathBuf {
        common::succeeded(self.playtune(folder).args([
            "optimize",
            "--problem",
            "design",
            "--set",
            &format!("game={game}"),
            "--set",
            "games=2",
            "--budget",
            "4",
            "--verdict",
            "0",
            "--ladder-check",
            "off",
            "--name",
            name,
            "-q",
        ]));
        self.path(folder).join("runs").join(name)
    }

    /// Code that leaves `marker` when Python runs it.
    fn marking(&self, marker: &str) -> String {
        format!(
            "open({:?}, 'w').write('ran')\n",
            self.path(marker).display().to_string()
        )
    }
}

/// The run in `dir` made unfinished, as a run stopped early is: its result gone, its
/// log cut to the header and `rows` rows.
fn unfinish(dir: &Path, rows: usize) {
    let _ = std::fs::remove_file(dir.join("result.ron"));
    let log = common::read(&dir.join("evals.csv"));
    let kept: Vec<&str> = log.lines().take(1 + rows).collect();
    std::fs::write(dir.join("evals.csv"), kept.join("\n") + "\n").unwrap();
}

fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        if entry.path().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// `report`, `plot`, `status`, `compare` and `ask` on runs of a Python game, of a
/// description naming one (`python:`) and of a description's command, whose code now
/// leaves a marker when run: no marker, and the report still knows the problem (its
/// fitness is a skill depth). A record edited to name a Python game, and a run from
/// before runs recorded their game, are read without running it either.
#[test]
fn commands_that_only_read_a_run_never_run_its_game() {
    let p = Place::new();
    p.write("w/coin.py", "x = 1\n");
    p.write("w/play.py", PLAYER);
    p.write("w/cmd.ron", COMMAND_GAME);
    p.write("w/pyd.ron", "(python: \"coin.py:GAME\", workers: 1)\n");
    let runs: Vec<PathBuf> = [
        ("coin.py:GAME", "py"),
        ("pyd.ron", "pyd"),
        ("cmd.ron", "cmd"),
    ]
    .iter()
    .map(|(game, name)| p.design("w", game, name))
    .collect();
    let open: Vec<PathBuf> = runs
        .iter()
        .map(|r| {
            let to = r.with_file_name(format!("{}-open", r.file_name().unwrap().to_string_lossy()));
            copy_run(r, &to);
            unfinish(&to, 1);
            to
        })
        .collect();
    // From now on the games' code, run, leaves a marker.
    p.write("w/coin.py", &p.marking("MARK"));
    p.write("w/play.py", &(p.marking("MARK") + PLAYER));
    let mark = p.path("MARK");
    let no_mark = |what: &str| assert!(!mark.exists(), "{what} ran the game's code");
    for (i, run) in runs.iter().enumerate() {
        let page = p.path(&format!("page{i}.html"));
        common::succeeded(
            p.playtune("w")
                .arg("report")
                .arg(run)
                .arg("--out")
                .arg(&page),
        );
        no_mark(&format!("report {}", run.display()));
        assert!(
            common::read(&page).contains("skill depth"),
            "{}",
            run.display()
        );
        common::succeeded(
            p.playtune("w")
                .arg("plot")
                .arg(run)
                .arg("--out")
                .arg(p.path(&format!("plots{i}"))),
        );
        no_mark(&format!("plot {}", run.display()));
        common::succeeded(p.playtune("w").arg("status").arg(run));
        no_mark(&format!("status {}", run.display()));
    }
    common::succeeded(p.playtune("w").arg("compare").args(&runs));
    no_mark("compare");
    for run in &open {
        let asked = common::succeeded(p.playtune("w").arg("ask").arg(run));
        no_mark(&format!("ask {}", run.display()));
        assert!(asked.contains("\"point\""), "{}: {asked}", run.display());
    }
    // A record edited to name a Python game: read as a damaged record, never asked.
    let config = runs[0].join("config.ron");
    let text = common::read(&config);
    let start = text.find("description: Some(\"").unwrap();
    let end = start + text[start..].find("\"),\n").unwrap() + 3;
    let edited = format!(
        "{}description: Some(\"(python: \\\"coin.py:GAME\\\")\"),{}",
        &text[..start],
        &text[end..]
    );
    std::fs::write(&config, edited).unwrap();
    common::succeeded(
        p.playtune("w")
            .arg("report")
            .arg(&runs[0])
            .arg("--out")
            .arg(p.path("e.html")),
    );
    no_mark("report of an edited record");
    let asked_edited = open[0].join("config.ron");
    std::fs::copy(&config, &asked_edited).unwrap();
    common::refused(
        p.playtune("w").arg("ask").arg(&open[0]),
        &["game.description", "names the Python game `coin.py:GAME`"],
    );
    no_mark("ask of an edited record");
    // A run from before runs recorded their game: its problem is not built, not run.
    let old: String = text
        .lines()
        .filter(|l| {
            !l.trim_start().starts_with("description: ")
                && !l.trim_start().starts_with("source: ")
                && !l.trim_start().starts_with("code: ")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&config, &old).unwrap();
    std::fs::write(&asked_edited, &old).unwrap();
    common::succeeded(
        p.playtune("w")
            .arg("report")
            .arg(&runs[0])
            .arg("--out")
            .arg(p.path("o.html")),
    );
    common::succeeded(
        p.playtune("w")
            .arg("plot")
            .arg(&runs[0])
            .arg("--out")
            .arg(p.path("o")),
    );
    common::refused(
        p.playtune("w").arg("ask").arg(&open[0]),
        &["records no description", "never run the code a run names"],
    );
    no_mark("reading a run from before runs recorded their game");
}

/// `resume` and `reevaluate` find the run's game where the run found it: from a folder
/// without it, and from a folder holding another game of the same name, settings and
/// bots (which they leave alone); the same for two descriptions naming one command
/// whose programs differ.
#[test]
fn a_run_plays_its_game_where_it_was_found_from_any_folder() {
    let p = Place::new();
    p.write("a/coin.py", "x = 1\n");
    p.write("b/empty", "");
    p.write("c/coin.py", &p.marking("MARK-C"));
    p.write("d1/d.ron", COMMAND_GAME);
    p.write("d1/play.py", PLAYER);
    p.write("d2/d.ron", COMMAND_GAME);
    p.write("d2/play.py", &(p.marking("MARK-D2") + PLAYER));
    let run = p.design("a", "coin.py:GAME", "r");
    for folder in ["b", "c"] {
        common::succeeded(p.playtune(folder).arg("reevaluate").arg(&run).args([
            "--n",
            "2",
            "--no-verdict",
        ]));
        unfinish(&run, 1);
        common::succeeded(p.playtune(folder).arg("resume").arg(&run).arg("-q"));
        assert!(
            !p.path("MARK-C").exists(),
            "from {folder}: another folder's coin.py played"
        );
    }
    let described = p.design("d1", "d.ron", "r");
    common::succeeded(p.playtune("d2").arg("reevaluate").arg(&described).args([
        "--n",
        "2",
        "--no-verdict",
    ]));
    unfinish(&described, 1);
    common::succeeded(p.playtune("d2").arg("resume").arg(&described).arg("-q"));
    assert!(
        !p.path("MARK-D2").exists(),
        "another description's program played"
    );
}

/// Code changed where the run found its game (a Python file, a description's
/// program) is another game: `resume` and `reevaluate` refuse it, saying how to name
/// it again on purpose, and play it when named again with `--game`; so does a run
/// moved away from its game. A game named again must still be the run's game.
#[test]
fn a_run_refuses_other_code_unless_its_game_is_named_again() {
    let p = Place::new();
    p.write("a/coin.py", "x = 1\n");
    p.write("b/empty", "");
    p.write("d/d.ron", COMMAND_GAME);
    p.write("d/play.py", PLAYER);
    let run = p.design("a", "coin.py:GAME", "r");
    let described = p.design("d", "d.ron", "r");
    p.write("a/coin.py", "x = 2\n");
    p.write("d/play.py", &format!("# changed\n{PLAYER}"));
    let reevaluate = |folder: &str, run: &Path| {
        let mut c = p.playtune(folder);
        c.arg("reevaluate")
            .arg(run)
            .args(["--n", "2", "--no-verdict"]);
        c
    };
    for (run, folder) in [(&run, "b"), (&described, "d")] {
        common::refused(
            &mut reevaluate(folder, run),
            &[
                "is not the code the run played",
                "--game PATH",
                "config.ron",
            ],
        );
        common::refused(
            p.playtune(folder).arg("resume").arg(run),
            &["is not the code the run played", "playtune resume"],
        );
    }
    let coin = format!("{}:GAME", p.path("a/coin.py").display());
    common::succeeded(reevaluate("b", &run).args(["--game", &coin]));
    common::succeeded(
        p.playtune("b")
            .arg("resume")
            .arg(&run)
            .args(["--game", &coin, "-q"]),
    );
    let d = p.path("d/d.ron").display().to_string();
    common::succeeded(reevaluate("b", &described).args(["--game", &d]));
    // Moved: the run and its game in another folder, the first one gone.
    std::fs::rename(p.path("a"), p.path("moved")).unwrap();
    let moved = p.path("moved/runs/r");
    common::refused(
        &mut reevaluate("b", &moved),
        &[
            "was found at",
            "does not load from there now",
            "--game PATH",
        ],
    );
    let coin = format!("{}:GAME", p.path("moved/coin.py").display());
    common::succeeded(reevaluate("b", &moved).args(["--game", &coin]));
    // Named again, it must still be the run's game: another description is refused.
    common::refused(
        reevaluate("b", &moved).args(["--game", &d]),
        &["the run played the game `coin`"],
    );
    // A run of a built-in problem has no game to name again.
    common::succeeded(p.playtune("b").args([
        "optimize",
        "--problem",
        "noisy-onemax",
        "--budget",
        "4",
        "--name",
        "n",
        "-q",
    ]));
    common::refused(
        reevaluate("b", &p.path("b/runs/n")).args(["--game", &d]),
        &["--game: the run plays problem `noisy-onemax`"],
    );
}

/// `config.ron`'s verdict baseline is a point of the run's space: a value outside a
/// dimension's domain, a fraction for an integer, NaN or infinity is refused by
/// `resume`, `reevaluate` and `report`, naming the file, the field and the domain,
/// and nothing is played (the verdict's log is left as it was).
#[test]
fn a_baseline_off_the_space_is_refused_by_file_field_and_domain() {
    let p = Place::new();
    p.write("w/empty", "");
    common::succeeded(p.playtune("w").args([
        "optimize",
        "--problem",
        "noisy-onemax",
        "--set",
        "dims=3",
        "--budget",
        "10",
        "--baseline",
        "x0=1",
        "--name",
        "r",
        "-q",
    ]));
    let run = p.path("w/runs/r");
    let good = common::read(&run.join("config.ron"));
    let verdicts = common::read(&run.join("verdict.jsonl"));
    let first = "baseline: Some([\n            1.0,";
    assert!(good.contains(first), "{good}");
    for bad in ["99.0", "0.5", "NaN", "inf"] {
        let edited = good.replace(first, &format!("baseline: Some([\n            {bad},"));
        std::fs::write(run.join("config.ron"), edited).unwrap();
        let says = format!(
            "config.ron: verdict.baseline: x0: {}",
            bad.trim_end_matches(".0")
        );
        for args in [
            vec!["resume", "runs/r", "-q"],
            vec!["reevaluate", "runs/r", "--n", "2"],
            vec!["report", "runs/r"],
        ] {
            common::refused(
                p.playtune("w").args(&args),
                &[
                    &says,
                    "is not a value of its domain (integers 0..=1 step 1)",
                ],
            );
        }
        assert_eq!(
            common::read(&run.join("verdict.jsonl")),
            verdicts,
            "{bad}: played"
        );
    }
}
