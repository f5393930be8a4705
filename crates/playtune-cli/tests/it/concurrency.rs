//! Two commands on one folder, with real concurrent processes: every command that
//! writes a run folder holds an exclusive lock on it, so rows are never doubled or
//! lost, a second writer exits 2 at once naming the folder and the command holding
//! it, a killed holder leaves nothing stale, and readers see whole files. These are
//! races: each is run for many rounds, and the files are checked after each.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

use crate::common::{COMMAND_LIMIT, output_within, playtune_process as playtune};
const SPACE: &str = concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/spaces/noisy_onemax_10.ron"
);

fn spawn(args: &[&str], cwd: &Path) -> Child {
    playtune()
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn run(args: &[&str], cwd: &Path) -> Output {
    output_within(spawn(args, cwd), COMMAND_LIMIT)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A command that exited 0, or 2 because another command held the folder: then its
/// message names the folder and the holder's command line.
fn ok_or_refused(out: &Output, folder: &str, what: &str) -> bool {
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{what}: {err}");
    match out.status.code() {
        Some(0) => true,
        Some(2) if err.contains("is in use") => {
            assert!(
                err.contains(folder),
                "{what}: the message names {folder}: {err}"
            );
            assert!(
                err.contains("pid ") && err.contains("`playtune "),
                "{what}: the message names the holder: {err}"
            );
            false
        }
        other => panic!(
            "{what}: exit {other:?}\nstdout: {}\nstderr: {err}",
            text(&out.stdout)
        ),
    }
}

/// Data lines of a log (no header), asserting every line is whole and the header is
/// there exactly once.
fn log_rows(run: &Path) -> Vec<String> {
    let log = std::fs::read_to_string(run.join("evals.csv")).unwrap();
    assert!(log.ends_with('\n'), "a half line in {}", run.display());
    let mut lines = log.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("trial,index,"), "{header}");
    let rows: Vec<String> = lines.map(String::from).collect();
    assert!(
        !rows.iter().any(|r| r.starts_with("trial,")),
        "a second header in {}",
        run.display()
    );
    rows
}

/// Asserts the log holds each (trial, index) once; returns how many rows.
fn rows_once(run: &Path) -> usize {
    let rows = log_rows(run);
    let mut keys = HashSet::new();
    for r in &rows {
        let mut f = r.split(',');
        let key = (f.next().unwrap().to_string(), f.next().unwrap().to_string());
        assert!(
            keys.insert(key.clone()),
            "{key:?} twice in {}",
            run.display()
        );
    }
    rows.len()
}

/// A new manual run (`--problem manual`, random search, 40 evaluations: a batch of
/// 32, then 8).
fn manual_run(dir: &Path, name: &str) -> PathBuf {
    let out = run(
        &[
            "optimize",
            "--problem",
            "manual",
            "--space",
            SPACE,
            "--algo",
            "random",
            "--budget",
            "40",
            "--name",
            name,
            "--runs-dir",
            ".",
            "-q",
        ],
        dir,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir.join(name)
}

/// Results for asked candidates: the fitness is the sum of the point's values.
fn results_for(asked: &str) -> String {
    asked
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let sum: f64 = v["point"]
                .as_object()
                .unwrap()
                .values()
                .map(|x| x.as_f64().unwrap())
                .sum();
            format!("{{\"id\": {}, \"fitness\": {sum}}}\n", v["id"])
        })
        .collect()
}

/// Asks every candidate of a new manual run and writes their results to `res.jsonl`.
fn asked_and_results(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let run_dir = manual_run(dir, name);
    let out = run(&["ask", name, "--n", "40"], dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let results = dir.join(format!("{name}.jsonl"));
    std::fs::write(&results, results_for(&text(&out.stdout))).unwrap();
    (run_dir, results)
}

fn asked_lines(run: &Path) -> Vec<String> {
    std::fs::read_to_string(run.join("asked.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn two_tells_of_one_file_record_every_row_once() {
    let dir = TempDir::new().unwrap();
    for round in 0..12 {
        let name = format!("t{round}");
        let (run_dir, results) = asked_and_results(dir.path(), &name);
        let file = results.to_str().unwrap();
        let a = spawn(&["tell", &name, file], dir.path());
        let b = spawn(&["tell", &name, file], dir.path());
        let (a, b) = (
            output_within(a, COMMAND_LIMIT),
            output_within(b, COMMAND_LIMIT),
        );
        let told = [&a, &b]
            .iter()
            .filter(|o| ok_or_refused(o, &name, "tell"))
            .count();
        assert!(told >= 1, "round {round}: neither tell ran");
        assert_eq!(rows_once(&run_dir), 32, "round {round}");
        // The same file again: recorded already, a no-op that says so.
        let again = run(&["tell", &name, file], dir.path());
        assert!(again.status.success(), "{}", text(&again.stderr));
        assert!(
            text(&again.stdout).contains("recorded already with the same values"),
            "{}",
            text(&again.stdout)
        );
        assert_eq!(rows_once(&run_dir), 32, "round {round}");
    }
}

#[test]
fn a_recorded_result_is_never_replaced() {
    let dir = TempDir::new().unwrap();
    let (run_dir, results) = asked_and_results(dir.path(), "m");
    let told = run(&["tell", "m", results.to_str().unwrap()], dir.path());
    assert!(told.status.success(), "{}", text(&told.stderr));
    let before = std::fs::read(run_dir.join("evals.csv")).unwrap();
    // A different fitness for a recorded id, beside a line recorded the same.
    let first = std::fs::read_to_string(&results).unwrap();
    let first = first.lines().next().unwrap();
    let conflict = format!("{first}\n{{\"id\": 3, \"fitness\": 123.5}}\n");
    let out = playtune()
        .args(["tell", "m"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(conflict.as_bytes())?;
            Ok(output_within(c, COMMAND_LIMIT))
        })
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("standard input:2") && err.contains("id 3") && err.contains("123.5"),
        "{err}"
    );
    assert_eq!(std::fs::read(run_dir.join("evals.csv")).unwrap(), before);
    // An error for an id recorded with a fitness is a conflict too.
    let path = dir.path().join("error.jsonl");
    std::fs::write(&path, "{\"id\": 5, \"error\": \"crashed\"}\n").unwrap();
    let out = run(&["tell", "m", path.to_str().unwrap()], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("id 5"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(run_dir.join("evals.csv")).unwrap(), before);
}

#[test]
fn asking_again_does_not_grow_the_asked_file() {
    let dir = TempDir::new().unwrap();
    let run_dir = manual_run(dir.path(), "g");
    for _ in 0..5 {
        let out = run(&["ask", "g", "--n", "40", "--again"], dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout).lines().count(), 32);
        let asked = asked_lines(&run_dir);
        assert_eq!(asked.len(), 32, "each handed-out candidate once");
    }
    let out = run(&["ask", "g", "--n", "10"], dir.path());
    assert!(out.stdout.is_empty(), "all 32 are handed out already");
    assert_eq!(asked_lines(&run_dir).len(), 32);
}

#[test]
fn two_asks_on_a_new_manual_run() {
    let dir = TempDir::new().unwrap();
    for round in 0..12 {
        let name = format!("a{round}");
        let run_dir = manual_run(dir.path(), &name);
        let a = spawn(&["ask", &name, "--n", "40"], dir.path());
        let b = spawn(&["ask", &name, "--n", "40"], dir.path());
        let (a, b) = (
            output_within(a, COMMAND_LIMIT),
            output_within(b, COMMAND_LIMIT),
        );
        for o in [&a, &b] {
            ok_or_refused(o, &name, "ask");
        }
        // Each candidate handed out once, by one of them; the log's header once.
        let printed: Vec<String> = [&a, &b]
            .iter()
            .flat_map(|o| {
                text(&o.stdout)
                    .lines()
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(printed.len(), 32, "round {round}: {printed:?}");
        assert_eq!(rows_once(&run_dir), 0);
        let asked = asked_lines(&run_dir);
        assert_eq!(asked.len(), 32, "round {round}");
        assert_eq!(asked.iter().collect::<HashSet<_>>().len(), 32);
    }
}

#[test]
fn ask_while_tell_writes() {
    let dir = TempDir::new().unwrap();
    for round in 0..12 {
        let name = format!("w{round}");
        let (run_dir, results) = asked_and_results(dir.path(), &name);
        let file = results.to_str().unwrap();
        let tell = spawn(&["tell", &name, file], dir.path());
        let ask = spawn(&["ask", &name, "--n", "40"], dir.path());
        let (tell, ask) = (
            output_within(tell, COMMAND_LIMIT),
            output_within(ask, COMMAND_LIMIT),
        );
        ok_or_refused(&ask, &name, "ask");
        if !ok_or_refused(&tell, &name, "tell") {
            let again = run(&["tell", &name, file], dir.path());
            assert!(again.status.success(), "{}", text(&again.stderr));
        }
        assert_eq!(rows_once(&run_dir), 32, "round {round}");
        // What ask printed is either the old batch (before the tell) or the next one;
        // asked.jsonl names only candidates still waited for, each once.
        let asked = asked_lines(&run_dir);
        assert!(asked.len() <= 8, "round {round}: {asked:?}");
        assert_eq!(asked.iter().collect::<HashSet<_>>().len(), asked.len());
        // The run finishes: the last 8.
        let out = run(&["ask", &name, "--n", "40", "--again"], dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let last = dir.path().join(format!("{name}-last.jsonl"));
        std::fs::write(&last, results_for(&text(&out.stdout))).unwrap();
        let out = run(&["tell", &name, last.to_str().unwrap()], dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(rows_once(&run_dir), 40);
        assert!(run_dir.join("result.ron").exists());
    }
}

/// The files of a finished noisy-onemax run, to compare others with.
struct Reference {
    log: Vec<u8>,
    result: Vec<u8>,
}

const BUDGET: &str = "50000";

fn noisy_args<'a>(name: &'a str, budget: &'a str) -> Vec<&'a str> {
    vec![
        "optimize",
        "--problem",
        "noisy-onemax",
        "--algo",
        "random",
        "--budget",
        budget,
        "--trials",
        "2",
        "--seed",
        "7",
        "--name",
        name,
        "--runs-dir",
        ".",
        "-q",
    ]
}

fn reference(dir: &Path, budget: &str) -> Reference {
    let out = run(&noisy_args("reference", budget), dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let r = dir.join("reference");
    Reference {
        log: std::fs::read(r.join("evals.csv")).unwrap(),
        result: std::fs::read(r.join("result.ron")).unwrap(),
    }
}

fn assert_same(run: &Path, reference: &Reference, what: &str) {
    let log = std::fs::read(run.join("evals.csv")).unwrap();
    assert!(log == reference.log, "{what}: evals.csv differs");
    let result = std::fs::read(run.join("result.ron")).unwrap();
    assert!(result == reference.result, "{what}: result.ron differs");
}

#[test]
fn two_resumes_of_one_run() {
    let dir = TempDir::new().unwrap();
    let reference = reference(dir.path(), BUDGET);
    let half = reference.log.len() / 2;
    for round in 0..8 {
        // An interrupted run: its config and the first half of its log (the last
        // line cut, as a kill leaves it).
        let name = format!("r{round}");
        let run_dir = dir.path().join(&name);
        std::fs::create_dir(&run_dir).unwrap();
        std::fs::copy(
            dir.path().join("reference").join("config.ron"),
            run_dir.join("config.ron"),
        )
        .unwrap();
        std::fs::write(run_dir.join("evals.csv"), &reference.log[..half]).unwrap();
        let a = spawn(&["resume", &name, "-q"], dir.path());
        let b = spawn(&["resume", &name, "-q"], dir.path());
        let (a, b) = (
            output_within(a, COMMAND_LIMIT),
            output_within(b, COMMAND_LIMIT),
        );
        let ran = [&a, &b]
            .iter()
            .filter(|o| ok_or_refused(o, &name, "resume"))
            .count();
        assert!(ran >= 1, "round {round}");
        assert_same(&run_dir, &reference, &format!("round {round}"));
    }
}

#[test]
fn optimize_and_resume_on_one_name() {
    let dir = TempDir::new().unwrap();
    let reference = reference(dir.path(), BUDGET);
    for round in 0..8 {
        let name = format!("o{round}");
        let run_dir = dir.path().join(&name);
        let optimize = spawn(&noisy_args(&name, BUDGET), dir.path());
        // Half the rounds start resume once the run exists, half at once (when the
        // folder may not exist yet, or hold no config).
        if round % 2 == 0 {
            let started = Instant::now();
            while !run_dir.join("config.ron").exists()
                && started.elapsed() < Duration::from_secs(20)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let resume = spawn(&["resume", &name, "-q"], dir.path());
        let (optimize, resume) = (
            output_within(optimize, COMMAND_LIMIT),
            output_within(resume, COMMAND_LIMIT),
        );
        assert!(
            optimize.status.success(),
            "round {round}: {}",
            text(&optimize.stderr)
        );
        let err = text(&resume.stderr);
        let refused_early = resume.status.code() == Some(2)
            && (err.contains("no such folder")
                || err.contains("No such file")
                || err.contains("before it started"));
        if !refused_early {
            ok_or_refused(&resume, &name, "resume");
        }
        // The estimate optimize printed is the one in the folder.
        let printed = text(&optimize.stdout);
        let result = String::from_utf8_lossy(&reference.result).into_owned();
        let estimate = printed
            .lines()
            .find_map(|l| l.strip_prefix("trial 0: estimate "))
            .and_then(|l| l.split_whitespace().next())
            .unwrap()
            .to_string();
        let recorded: f64 = result
            .lines()
            .find_map(|l| l.trim().strip_prefix("estimate: "))
            .unwrap()
            .trim_end_matches(',')
            .parse()
            .unwrap();
        assert_eq!(format!("{recorded:.4}"), estimate, "round {round}");
        assert_same(&run_dir, &reference, &format!("round {round}"));
        assert!(!dir.path().join(format!("{name}-2")).exists());
    }
}

#[test]
fn two_runs_given_one_name_get_two_folders() {
    let dir = TempDir::new().unwrap();
    let reference = reference(dir.path(), "5000");
    for round in 0..8 {
        let name = format!("n{round}");
        let a = spawn(&noisy_args(&name, "5000"), dir.path());
        let b = spawn(&noisy_args(&name, "5000"), dir.path());
        let (a, b) = (
            output_within(a, COMMAND_LIMIT),
            output_within(b, COMMAND_LIMIT),
        );
        for o in [&a, &b] {
            assert!(o.status.success(), "round {round}: {}", text(&o.stderr));
        }
        let mut folders: Vec<String> = [&a, &b]
            .iter()
            .map(|o| {
                text(&o.stdout)
                    .lines()
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .nth(1)
                    .unwrap()
                    .trim_start_matches("./")
                    .to_string()
            })
            .collect();
        folders.sort();
        assert_eq!(
            folders,
            [name.clone(), format!("{name}-2")],
            "round {round}"
        );
        for f in &folders {
            assert_same(
                &dir.path().join(f),
                &reference,
                &format!("round {round} {f}"),
            );
        }
        assert!(!dir.path().join(format!("{name}-3")).exists());
    }
}

/// An external evaluator that is slow while the file `slow` exists in the working
/// folder: a run that holds its folder for as long as the test needs.
const SLOW_EVALUATOR: &str = "cmd=[ -e slow ] && sleep 0.05; echo 1";

#[test]
fn a_second_writer_names_the_holder_and_a_killed_holder_leaves_nothing_stale() {
    let dir = TempDir::new().unwrap();
    for (round, rows_before_kill) in [1usize, 4, 10].into_iter().enumerate() {
        let name = format!("h{round}");
        let run_dir = dir.path().join(&name);
        std::fs::write(dir.path().join("slow"), "").unwrap();
        let mut holder = playtune()
            .args([
                "optimize",
                "--problem",
                "command",
                "--set",
                SLOW_EVALUATOR,
                "--space",
                SPACE,
                "--algo",
                "rmhc",
                "--budget",
                "200",
                "--name",
                &name,
                "--runs-dir",
                ".",
                "-q",
            ])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while std::fs::read_to_string(run_dir.join("evals.csv"))
            .map_or(0, |t| t.matches('\n').count())
            <= rows_before_kill
        {
            assert!(started.elapsed() < Duration::from_secs(60), "no rows");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            holder.try_wait().unwrap().is_none(),
            "the holder still runs"
        );
        // A second writer is refused at once, naming the folder and the holder.
        let t = Instant::now();
        let out = run(&["resume", &name, "-q"], dir.path());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(t.elapsed() < Duration::from_secs(5), "at once");
        assert!(err.contains(&name) && err.contains("is in use"), "{err}");
        assert!(err.contains(&format!("pid {}", holder.id())), "{err}");
        assert!(
            err.contains("`playtune optimize --problem command"),
            "{err}"
        );
        // A reader is not refused.
        let out = run(&["status", &name], dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Killed (SIGKILL): the lock goes with the process.
        holder.kill().unwrap();
        holder.wait().unwrap();
        assert!(run_dir.join(".playtune.lock").exists());
        std::fs::remove_file(dir.path().join("slow")).unwrap();
        let out = run(&["resume", &name, "-q"], dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(rows_once(&run_dir), 200);
        assert!(run_dir.join("result.ron").exists());
    }
}

#[test]
fn readers_see_whole_files_while_a_run_is_rewritten() {
    let dir = TempDir::new().unwrap();
    let out = run(&noisy_args("x", "5000"), dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let result = std::fs::read(dir.path().join("x").join("result.ron")).unwrap();
    // Resumes of the finished run rewrite its log and result, one after another,
    // while compare and status read them.
    let writer = {
        let cwd = dir.path().to_path_buf();
        std::thread::spawn(move || {
            for _ in 0..15 {
                let out = run(&["resume", "x", "-q"], &cwd);
                assert!(out.status.success(), "{}", text(&out.stderr));
            }
        })
    };
    let mut reads = 0;
    while !writer.is_finished() {
        let out = run(&["compare", "x", "x"], dir.path());
        assert!(out.status.success(), "compare: {}", text(&out.stderr));
        let out = run(&["status", "x"], dir.path());
        assert!(out.status.success(), "status: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("10000 evaluations logged"),
            "{}",
            text(&out.stdout)
        );
        reads += 1;
    }
    writer.join().unwrap();
    assert!(reads > 0);
    assert_eq!(
        std::fs::read(dir.path().join("x").join("result.ron")).unwrap(),
        result
    );
    // No temporary file is left.
    for e in std::fs::read_dir(dir.path().join("x")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "{name}");
    }
}
