//! Issue 29, typed strings and settings, and the run-level checks that go with them,
//! through the real binary: agent settings outside their domain, settings that would
//! make a search agent think forever, a dimension fixed twice, repeated NTBEA tuple
//! terms, empty feature names, reserved sbatch options in other spellings, a run in
//! which nothing succeeded, a `--space` that is no regular file, and `report --out`
//! aimed at a run's own files or through a link. Each is refused with exit 2 and a
//! message naming what is wrong, and nothing is written.

use crate::common;

use common::playtune;

use std::time::Duration;
use tempfile::TempDir;

/// Runs `args`; expects exit 2 and every fragment in stderr, and no panic.
fn refused<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], fragments: &[&str]) -> String {
    let out = playtune().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: stderr lacks `{f}`:\n{err}");
    }
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

fn play(game: &str, agent: &str, other: &str) -> Vec<String> {
    let mut args = vec!["play".to_string(), "--game".into(), game.into()];
    if game == "rinascimento" {
        args.extend(["--set".into(), "players=2".into()]);
    }
    args.extend(["--agents".into(), format!("{agent},{other}")]);
    args
}

#[test]
fn agent_settings_outside_their_domain_are_refused_naming_agent_and_key() {
    for (agent, fragments) in [
        ("mcts(c=-1)", &["agent `mcts*`", "c=-1", "at least 0"][..]),
        ("mcts(c=NaN)", &["agent `mcts*`", "c=NaN"]),
        ("mcts(epsilon=-0.5)", &["epsilon=-0.5"]),
        ("mcts(p_exp=1.5)", &["p_exp=1.5", "from 0 to 1"]),
        ("mcts(p_exp=-0.1)", &["p_exp=-0.1"]),
        ("mcts(opponent_budget=2)", &["opponent_budget=2"]),
        (
            "srh(mutation_rate=-0.5)",
            &["agent `srh*`", "mutation_rate=-0.5"],
        ),
        ("srh(mutation_rate=1.01)", &["mutation_rate=1.01"]),
        (
            "microbial(recombination=2)",
            &["agent `microbial`", "recombination=2"],
        ),
        ("microbial(discount=inf)", &["discount=inf"]),
        ("microbial(population=1)", &["population=1", "at least 2"]),
        ("bmrh(decay=0)", &["agent `bmrh*`", "decay=0"]),
        ("bmrh(sd=-1)", &["sd=-1"]),
        ("bmrh(length=max)", &["length=max"]),
        ("mcts(depth=max,iterations=5)", &["depth=max"]),
        // Empty items, empty keys and values, a key given twice.
        ("mcts(,)", &["agent `mcts(,)`", "empty setting"]),
        ("mcts(c=1,)", &["empty setting"]),
        ("mcts(c=)", &["`c=` has no value"]),
        ("mcts(=1)", &["no KEY"]),
        ("mcts(c=1,c=2)", &["setting `c` is given twice"]),
        ("mcts(depht=3)", &["no setting `depht`"]),
    ] {
        refused(&play("rinascimento", agent, "random"), fragments);
    }
    for (agent, fragments) in [
        ("hps(c=-2)", &["agent `hps`", "c=-2"][..]),
        ("hps(time=-1)", &["time=-1"]),
        // Once a panic (a Duration past its range).
        ("hps(time=1e30)", &["time=1e30", "3600000"]),
    ] {
        refused(&play("strategy", agent, "rule"), fragments);
    }
    // `NAME()` is a spec without settings, as before.
    playtune()
        .args(play("rinascimento", "mcts()", "random"))
        .assert()
        .success();
}

#[test]
fn a_search_agent_never_thinks_forever() {
    // Each of these once searched without end (or for hours a decision).
    for (agent, fragments) in [
        (
            "mcts(iterations=max,budget=max)",
            &["iterations=max, budget=max", "would think forever"][..],
        ),
        ("bmrh(evaluations=max,budget=max)", &["would think forever"]),
        ("srh(evaluations=max,budget=max)", &["would think forever"]),
        ("microbial(budget=max)", &["would think forever"]),
        ("osla(budget=max)", &["budget=max"]),
        ("bmrh(opponent=osla,budget=max)", &["opponent=osla"]),
        (
            "mcts(iterations=1000000,depth=1001,budget=max)",
            &["forward-model calls a decision"],
        ),
    ] {
        let out = playtune()
            .args(play("rinascimento", agent, "random"))
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{agent}: {err}");
        for f in fragments {
            assert!(err.contains(f), "{agent}: {err}");
        }
    }
    refused(
        &play("strategy", "hps(budget=max)", "rule"),
        &["budget=max, time=0", "would think forever"],
    );
}

#[test]
fn fixes_tuples_and_feature_names_given_twice_or_empty_are_refused() {
    let dir = TempDir::new().unwrap();
    let runs = dir.path().to_str().unwrap();
    let base = [
        "optimize",
        "--problem",
        "noisy-onemax",
        "--budget",
        "20",
        "-q",
        "--runs-dir",
        runs,
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    for (extra, fragments) in [
        (
            &["--fix", "x0=1", "--fix", "x0=0"][..],
            &["dimension `x0` is fixed twice"][..],
        ),
        (&["--fix", "x0=1", "--fix", "x0=1"], &["fixed twice"]),
        (&["--fix", "=1"], &["NAME"]),
        (
            &["--algo", "ntbea", "--tuples", "1+1+N"],
            &["`1` is given twice"],
        ),
        (&["--algo", "ntbea", "--tuples", "1+N+D"], &["given twice"]),
        (&["--algo", "ntbea", "--tuples", "1++N"], &["empty term"]),
        (
            &["--algo", "ntbea", "--tuples", "x0,x0;x1"],
            &["`x0` appears twice"],
        ),
        (
            &["--algo", "ntbea", "--tuples", "x0,x1;x1,x0"],
            &["given twice"],
        ),
        (
            &["--algo", "ntbea", "--tuples", "x0,;x1"],
            &["empty dimension name"],
        ),
    ] {
        refused(&with(extra), fragments);
    }
    let space = common::root("").join("spaces/noisy_onemax_10.ron");
    let space = space.to_str().unwrap();
    for features in ["features=a,,b", "features=a,b,", "features=a,a"] {
        for problem in [
            &["--problem", "manual"][..],
            &["--problem", "command", "--set", "cmd=echo 1"],
        ] {
            let mut args = vec![
                "optimize",
                "--space",
                space,
                "--budget",
                "5",
                "--runs-dir",
                runs,
            ];
            args.extend(problem);
            args.extend(["--set", features]);
            refused(&args, &["--set: features="]);
        }
    }
    // Nothing was written for any of them.
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn reserved_sbatch_options_are_refused_in_every_spelling_before_anything_is_written() {
    let dir = TempDir::new().unwrap();
    let runs = dir.path().to_str().unwrap();
    for args in [
        "-a1-3",
        "-Jname",
        "-oX",
        "-eX",
        "--arr=1",
        "--arr 1",
        "--job=x",
        "--jo x",
        "--out=x",
        "--ou x",
        "--err=x",
        "--er x",
        "-Ha1",
        "-vJx",
        "--partition=cpu -oX",
    ] {
        refused(
            &[
                "optimize",
                "--problem",
                "sphere",
                "--budget",
                "10",
                "--executor",
                "slurm",
                "--runs-dir",
                runs,
                "--slurm-args",
                args,
            ],
            &["--slurm-args sets `--", "playtune sets itself"],
        );
    }
    // A bare word would become sbatch's job script.
    refused(
        &[
            "optimize",
            "--problem",
            "sphere",
            "--budget",
            "10",
            "--executor",
            "slurm",
            "--runs-dir",
            runs,
            "--slurm-args",
            "--partition cpu myscript.sh",
        ],
        &["`myscript.sh` is not an sbatch option"],
    );
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn a_run_in_which_nothing_succeeded_exits_2_and_can_be_retried() {
    let dir = TempDir::new().unwrap();
    let flag = dir.path().join("broken");
    std::fs::write(&flag, "").unwrap();
    let cmd = format!(
        "cmd=if [ -e {} ]; then echo broken >&2; exit 1; fi; cat >/dev/null; echo 1.5",
        flag.display()
    );
    let space = common::root("").join("spaces/noisy_onemax_10.ron");
    for (algo, name) in [("ntbea", "n"), ("random", "r")] {
        let err = refused(
            &[
                "optimize",
                "--problem",
                "command",
                "--set",
                &cmd,
                "--space",
                space.to_str().unwrap(),
                "--algo",
                algo,
                "--budget",
                "8",
                "--max-failures",
                "1",
                "--retries",
                "0",
                "-q",
                "--name",
                name,
                "--runs-dir",
                dir.path().to_str().unwrap(),
            ],
            &[
                "every one of the 8 evaluations of trial 0 failed",
                "--retry-failed",
                "broken",
            ],
        );
        assert!(!err.contains("estimate"), "{err}");
        let run = dir.path().join(name);
        assert!(run.join("failures.jsonl").is_file());
        assert!(!run.join("result.ron").exists(), "no result of nothing");
    }
    // Fixed, `resume --retry-failed` evaluates them all again and finishes.
    std::fs::remove_file(&flag).unwrap();
    for name in ["n", "r"] {
        playtune()
            .args(["resume", "--retry-failed", "-q"])
            .arg(dir.path().join(name))
            .assert()
            .success();
        assert!(dir.path().join(name).join("result.ron").is_file());
    }
}

#[test]
fn space_files_that_are_not_regular_files_or_too_large_are_refused_unread() {
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("fifo.ron");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let big = dir.path().join("big.ron");
    std::fs::write(&big, vec![b' '; (16 << 20) + 1]).unwrap();
    let mut cases: Vec<(String, &str)> = vec![
        ("/dev/zero".into(), "not a regular file"),
        (dir.path().display().to_string(), "is a folder"),
        (big.display().to_string(), "16 MiB"),
    ];
    if made.is_ok_and(|s| s.success()) {
        // Once this blocked forever, waiting for a writer.
        cases.push((fifo.display().to_string(), "not a regular file"));
    }
    for (space, fragment) in &cases {
        let out = playtune()
            .args([
                "optimize",
                "--problem",
                "manual",
                "--budget",
                "5",
                "--space",
                space,
            ])
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{space}: {err}");
        assert!(
            err.contains(fragment) && err.contains(space.as_str()),
            "{space}: {err}"
        );
    }
    refused(&["spaces", "check", "/dev/zero"], &["not a regular file"]);
}

#[test]
fn report_never_overwrites_a_runs_files_nor_writes_through_a_link() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "optimize",
            "--problem",
            "noisy-onemax",
            "--budget",
            "30",
            "-q",
            "--name",
            "r",
        ])
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    let run = dir.path().join("r");
    let before: Vec<(String, Vec<u8>)> = ["config.ron", "evals.csv", "result.ron"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read(run.join(f)).unwrap()))
        .collect();
    for out in [
        run.join("evals.csv"),
        run.join("config.ron"),
        run.join("../r/result.ron"),
        run.join("notes.txt"),
    ] {
        let o = playtune()
            .arg("report")
            .arg(&run)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", out.display());
        assert!(err.contains("only a page"), "{err}");
    }
    for (f, bytes) in &before {
        assert_eq!(
            &std::fs::read(run.join(f)).unwrap(),
            bytes,
            "{f} was changed"
        );
    }
    // A link planted at the output path, inside the run or outside it.
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    for link in [run.join("report.html"), dir.path().join("page.html")] {
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let o = playtune()
            .arg("report")
            .arg(&run)
            .arg("--out")
            .arg(&link)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        std::fs::remove_file(&link).unwrap();
    }
    // The page itself, and again over the last one: nothing else appears.
    for _ in 0..2 {
        playtune().arg("report").arg(&run).assert().success();
    }
    let mut names: Vec<String> = std::fs::read_dir(&run)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| !n.starts_with(".playtune"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["config.ron", "evals.csv", "report.html", "result.ron"]
    );
}
