//! Run folders: `config.ron` held to the flags' limits, `failures.jsonl` and
//! `result.ron` values that cannot be the run's refused or left out, and (issue 65)
//! files that are links refused and verdict log edits named and played again.

use super::ROOT;
use crate::common::{playtune, read, refused, run};
use std::path::{Path, PathBuf};

/// A finished run of noisy OneMax: its folder.
fn small_run(dir: &Path) -> PathBuf {
    let (code, _, err) = run(playtune()
        .args([
            "optimize",
            "--problem",
            "noisy-onemax",
            "--algo",
            "random",
            "--budget",
            "6",
            "--trials",
            "2",
            "--name",
            "r",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(dir.join("runs")));
    assert_eq!(code, Some(0), "{err}");
    dir.join("runs/r")
}

/// `config.ron` gets the command line's limits, refuses unknown fields, and names
/// itself and the field, never a flag, and never suggests the `resume` that would
/// fail again.
#[test]
fn config_ron_is_held_to_the_flags_limits() {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = small_run(dir.path());
    let config = run_dir.join("config.ron");
    let clean = read(&config);
    std::fs::remove_file(run_dir.join("result.ron")).unwrap();
    for (from, to, needles) in [
        (
            "budget: 6,",
            "budget: 18446744073709551615,",
            &["config.ron: budget: 18446744073709551615: give at most"][..],
        ),
        ("budget: 6,", "budget: 0,", &["config.ron: budget: 0:"][..]),
        (
            "trials: 2,",
            "trials: 1000000000000,",
            &["config.ron: trials: 1000000000000: give at most 100000 trials"][..],
        ),
        (
            "trials: 2,",
            "trials: 0,",
            &["config.ron: trials: 0: run at least one trial"][..],
        ),
        (
            "seed: 1,",
            "seed: 1, colour: \"red\",",
            &["config.ron:", "Unexpected field named `colour`"][..],
        ),
        (
            "batch: 32,",
            "batch: 0,",
            &["config.ron: algorithm: batch: 0: give 1 to"][..],
        ),
    ] {
        assert!(clean.contains(from), "{from}");
        std::fs::write(&config, clean.replacen(from, to, 1)).unwrap();
        for cmd in [&["resume"][..], &["status"], &["report"]] {
            let err = refused(playtune().args(cmd).arg(&run_dir), needles);
            assert!(
                !err.contains("playtune resume"),
                "{cmd:?} suggests resume: {err}"
            );
            assert!(
                !err.contains("--trials") && !err.contains("--budget"),
                "{err}"
            );
        }
    }
    std::fs::write(&config, &clean).unwrap();
    let (code, _, err) = run(playtune().arg("resume").arg(&run_dir).arg("-q"));
    assert_eq!(code, Some(0), "{err}");
}

/// `--trials 1000000000000` and `--budget 2^64-1` are refused before anything is
/// sized by them (the process neither aborts nor starts a run).
#[test]
fn absurd_counts_on_the_command_line_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value, needle) in [
        (
            "--trials",
            "1000000000000",
            "--trials 1000000000000: give at most 100000",
        ),
        (
            "--budget",
            "18446744073709551615",
            "--budget 18446744073709551615: give at most 1000000000",
        ),
    ] {
        let started = std::time::Instant::now();
        refused(
            playtune()
                .args([
                    "optimize",
                    "--problem",
                    "noisy-onemax",
                    "--algo",
                    "random",
                    "-q",
                ])
                .args([flag, value])
                .arg("--runs-dir")
                .arg(dir.path().join("runs")),
            &[needle],
        );
        assert!(started.elapsed().as_secs() < 20);
    }
}

/// Garbage in `failures.jsonl` is named by line and not counted by `status`.
#[test]
fn failures_jsonl_garbage_is_named_and_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = small_run(dir.path());
    let good = r#"{"trial":0,"index":2,"phase":"search","seed":5,"values":[1,0,1,0,1,0,1,0,1,0],"point":{},"reason":"crashed","attempts":3}"#;
    let text = format!(
        "{good}\ngarbage here\n{{\"trial\":0}}\n{}\n",
        good.replace("\"index\":2", "\"index\":4")
            .replace("\"attempts\":3", "\"attempts\":0")
    );
    std::fs::write(run_dir.join("failures.jsonl"), text).unwrap();
    let (code, out, err) = run(playtune().arg("status").arg(&run_dir));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(", 1 failed,"), "{out}");
    for needle in [
        "failures.jsonl: left out 3 damaged line(s)",
        "line 2: not a failure record",
        "line 3: not a failure record",
        "line 4: attempts: 0",
    ] {
        assert!(err.contains(needle), "lacks `{needle}`: {err}");
    }
}

/// `result.ron` with NaN or infinite values, or another number of trials than its
/// `config.ron`, is refused by `report`, `plot` and `compare`, naming the field.
#[test]
fn result_ron_values_that_cannot_be_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = small_run(dir.path());
    let result = run_dir.join("result.ron");
    let clean = read(&result);
    // The first line of trial 0 that starts with `field:`, replaced.
    let with = |field: &str, value: &str| {
        let mut done = false;
        clean
            .lines()
            .map(|l| {
                let indent = l.len() - l.trim_start().len();
                if !done && indent == 12 && l.trim_start().starts_with(&format!("{field}:")) {
                    done = true;
                    format!("{}{field}: {value},", " ".repeat(indent))
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let plots = dir.path().join("plots");
    let html = dir.path().join("report.html");
    for (field, value, needle) in [
        (
            "estimate",
            "NaN",
            "result.ron: trials[0].estimate: NaN is not a finite number",
        ),
        (
            "estimate",
            "inf",
            "result.ron: trials[0].estimate: inf is not a finite number",
        ),
        (
            "estimate_se",
            "-1.0",
            "result.ron: trials[0].estimate_se: -1 is below 0",
        ),
        (
            "true_fitness",
            "Some(-inf)",
            "result.ron: trials[0].true_fitness: -inf is not a finite number",
        ),
    ] {
        let text = with(field, value);
        assert_ne!(text, clean, "{field}");
        std::fs::write(&result, text).unwrap();
        let d = run_dir.display().to_string();
        let h = html.display().to_string();
        let p = plots.display().to_string();
        for cmd in [
            vec!["report", &d, "--out", &h],
            vec!["plot", &d, "--out", &p],
            vec!["compare", &d, &d],
        ] {
            refused(playtune().args(&cmd), &[needle]);
        }
    }
    // One trial's result under a config of two.
    let mut r: playtune::run::RunResult = ron::from_str(&clean).unwrap();
    r.trials.truncate(1);
    r.write(&result).unwrap();
    refused(
        playtune().arg("compare").arg(&run_dir).arg(&run_dir),
        &["result.ron: trials: 1 trial(s), but config.ron has trials: 2"],
    );
    std::fs::write(&result, &clean).unwrap();
    let (code, _, err) = run(playtune().arg("compare").arg(&run_dir).arg(&run_dir));
    assert_eq!(code, Some(0), "{err}");
}

/// Every published `config.ron` and `result.ron` passes the checks unchanged.
#[test]
fn published_run_folders_pass_the_checks() {
    let mut dirs = Vec::new();
    let mut stack = vec![Path::new(ROOT).join("runs/published")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "config.ron") {
                dirs.push(d.clone());
            }
        }
    }
    assert!(dirs.len() >= 10, "{dirs:?}");
    for d in &dirs {
        playtune::run::read_config(d).unwrap_or_else(|e| panic!("{e}"));
        if d.join("result.ron").exists() {
            playtune::run::read_result(d).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// Failure records of evaluations the run does not have (a trial beyond its trials, a
/// point outside its space) are named, not counted, and gone once the run finishes.
#[test]
fn failure_records_of_another_run_are_named_not_counted_and_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = small_run(dir.path());
    let record = |trial: u64, values: &str| {
        format!(
            r#"{{"trial":{trial},"index":99,"phase":"search","seed":5,"values":[{values}],"point":{{}},"reason":"crashed","attempts":1}}"#
        )
    };
    let ones = "1,0,1,0,1,0,1,0,1,0";
    let text = format!(
        "{}\n{}\n{}\n",
        record(7, ones),
        record(0, "1,0,1"),
        record(1, "1,0,1,0,1,0,1,0,1,5")
    );
    let failures = run_dir.join("failures.jsonl");
    std::fs::write(&failures, text).unwrap();
    let (code, out, err) = run(playtune().arg("status").arg(&run_dir));
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("failed"), "{out}");
    for needle in [
        "line 1: trial 7: the run has 2 trial(s)",
        "line 2: values: 3 numbers for the run's 10 dimensions",
        "line 3: values: a point outside the run's space",
    ] {
        assert!(err.contains(needle), "lacks `{needle}`: {err}");
    }
    // A finished run's resume keeps only its own failures: none here.
    std::fs::remove_file(run_dir.join("result.ron")).unwrap();
    let (code, _, err) = run(playtune().arg("resume").arg(&run_dir).arg("-q"));
    assert_eq!(code, Some(0), "{err}");
    assert!(!failures.exists(), "{}", read(&failures));
}

/// A recommendation outside the run's space, a garbage `config.ron` beside a good
/// `result.ron`, and an edited problem name are refused by every reader, naming the
/// file and the field.
#[test]
fn results_and_configs_that_cannot_be_the_runs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run_dir = small_run(dir.path());
    let d = run_dir.display().to_string();
    let plots = dir.path().join("plots").display().to_string();
    let html = dir.path().join("r.html").display().to_string();
    let readers: [Vec<&str>; 4] = [
        vec!["report", &d, "--out", &html],
        vec!["plot", &d, "--out", &plots],
        vec!["compare", &d, &d],
        vec!["reevaluate", &d, "-n", "2"],
    ];
    // values[0] of trial 0: a bit of 3.
    let result = run_dir.join("result.ron");
    let clean = read(&result);
    let at = clean.find("values: [").unwrap() + "values: [".len();
    let end = at + clean[at..].find([',', ']']).unwrap();
    let outside = format!("{}3.0{}", &clean[..at], &clean[end..]);
    std::fs::write(&result, outside).unwrap();
    for args in &readers {
        refused(
            playtune().args(args),
            &["result.ron: trials[0].values[0]: 3 is not a value of dimension `x0`"],
        );
    }
    std::fs::write(&result, &clean).unwrap();
    let config = run_dir.join("config.ron");
    let good = read(&config);
    std::fs::write(&config, "garbage(").unwrap();
    for args in &readers {
        refused(playtune().args(args), &["config.ron:1:"]);
    }
    std::fs::write(&config, good.replace("noisy-onemax", "noisy-onemaxx")).unwrap();
    for args in readers.iter().chain([&vec!["status", &d]]) {
        refused(
            playtune().args(args),
            &["config.ron: problem.name: unknown problem `noisy-onemaxx`"],
        );
    }
    std::fs::write(&config, good).unwrap();
    // A dimension given twice to reevaluate --point is refused, not the last taken.
    refused(
        playtune().args([
            "reevaluate",
            &d,
            "-n",
            "2",
            "--point",
            "x0=1",
            "--point",
            "x0=0",
        ]),
        &["--point x0=0: `x0` is given twice (first --point x0=1)"],
    );
}

// Issue 65 (reliability 6): links and verdict logs.

/// A finished synthetic design run with a verdict of `n` a side (a problem with a
/// baseline of its own, and cheap): its folder.
fn judged_run(dir: &Path, name: &str, n: &str) -> PathBuf {
    let (code, _, err) = run(playtune()
        .args([
            "optimize",
            "--problem",
            "synthetic-design",
            "--budget",
            "40",
            "--verdict",
            n,
            "-q",
            "--name",
            name,
            "--runs-dir",
        ])
        .arg(dir));
    assert_eq!(code, Some(0), "{err}");
    dir.join(name)
}

/// Class 2: a run's file that is a symbolic link (or a second name of a file
/// elsewhere) is refused by `resume`, naming it, and the file it points to is left as
/// it was: the verdict's log once had its last unterminated line cut, 38 bytes
/// becoming 13. A stale temporary file that is a link is replaced, never written
/// through.
#[test]
fn run_files_that_are_links_are_refused_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    let precious = "first line, twelve bytes\nunterminated!";
    let cases = [
        ("verdict.jsonl", "a symbolic link"),
        ("evals.csv", "a symbolic link"),
        ("failures.jsonl", "a symbolic link"),
        ("result.ron", "a symbolic link"),
        (".playtune.lock", "a symbolic link"),
        ("evals.csv", "a file with 2 names (hard links)"),
    ];
    for (i, (file, kind)) in cases.iter().enumerate() {
        let r = judged_run(dir.path(), &format!("r{i}"), "4");
        if *file == "verdict.jsonl" {
            // The verdict is played again from its log.
            std::fs::remove_file(r.join("result.ron")).unwrap();
        }
        std::fs::write(&outside, precious).unwrap();
        let _ = std::fs::remove_file(r.join(file));
        if kind.contains("hard") {
            std::fs::hard_link(&outside, r.join(file)).unwrap();
        } else {
            std::os::unix::fs::symlink(&outside, r.join(file)).unwrap();
        }
        refused(
            playtune().args(["resume", "-q"]).arg(&r),
            &[&format!("{file}: {kind}"), "never through a link"],
        );
        assert_eq!(
            read(&outside),
            precious,
            "{file} ({kind}) was written through"
        );
    }
    // A temporary file of a rewrite, left as a link: the rewrite makes a file of its own.
    let r = judged_run(dir.path(), "tmp", "4");
    std::fs::write(&outside, precious).unwrap();
    std::os::unix::fs::symlink(&outside, r.join("evals.csv.tmp")).unwrap();
    let (code, _, err) = run(playtune().args(["resume", "-q"]).arg(&r));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(read(&outside), precious, "written through evals.csv.tmp");
}

/// Class 3: an edited fitness, feature or failure in `verdict.jsonl` (or a line whose
/// check was taken off) fails its check: each is named by line, left out and played
/// again, so the verdict is the unedited one; the file is rewritten without them.
/// Torn, duplicated and reordered lines give the same verdict, as before.
#[test]
fn verdict_log_edits_are_named_and_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let r = judged_run(dir.path(), "a", "8");
    let log = r.join("verdict.jsonl");
    let result = r.join("result.ron");
    let (clean_log, clean_result) = (read(&log), read(&result));
    let lines: Vec<&str> = clean_log.lines().collect();
    assert!(
        lines.iter().all(|l| l.contains(",\"check\":\"")),
        "{clean_log}"
    );
    // `field`'s value (its first number, for a list) replaced by `value`.
    let edit = |line: &str, field: &str, value: &str| {
        let key = format!("\"{field}\":");
        let mut at = line.find(&key).unwrap() + key.len();
        at += usize::from(line[at..].starts_with('['));
        let end = at + line[at..].find([',', ']']).unwrap();
        format!("{}{value}{}", &line[..at], &line[end..])
    };
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    edited[0] = edit(&edited[0], "fitness", "0.9");
    edited[1] = edit(&edited[1], "features", "0.123");
    edited[2] = edit(&edited[2], "fitness", "null")
        .replace("\"failure\":null", "\"failure\":\"it crashed\"");
    let cut = edited[3].find(",\"check\":").unwrap();
    edited[3] = format!("{}}}", &edited[3][..cut]);
    for (a, b) in edited.iter().zip(&lines).take(4) {
        assert_ne!(a, b);
    }
    std::fs::write(&log, edited.join("\n") + "\n").unwrap();
    std::fs::remove_file(&result).unwrap();
    let (code, _, err) = run(playtune().args(["resume", "-q"]).arg(&r));
    assert_eq!(code, Some(0), "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("verdict.jsonl"))
        .unwrap_or_else(|| panic!("no warning names verdict.jsonl: {err}"));
    for needle in [
        "left out 4 damaged line(s), played again",
        "line 1: its check does not match",
        "line 2: its check does not match",
        "line 3: its check does not match",
        "line 4: no check, where the file's other lines have one",
    ] {
        assert!(warning.contains(needle), "lacks `{needle}`: {warning}");
    }
    assert_eq!(
        read(&result),
        clean_result,
        "the verdict changed with the edits"
    );
    let mut again: Vec<String> = read(&log).lines().map(String::from).collect();
    again.sort();
    let mut want: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    want.sort();
    assert_eq!(again, want, "the log holds the lines played, each once");
    // Named once: the rewritten file holds nothing damaged.
    std::fs::remove_file(&result).unwrap();
    let (code, _, err) = run(playtune().args(["resume", "-q"]).arg(&r));
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("verdict.jsonl"), "{err}");

    // Reordered, one line twice, the last two gone and one of them torn.
    let mut shuffled: Vec<&str> = lines.iter().rev().copied().collect();
    shuffled.insert(3, shuffled[5]);
    let torn = &shuffled[shuffled.len() - 2][..17];
    let text = shuffled[..shuffled.len() - 2].join("\n") + "\n" + torn;
    std::fs::write(&log, text).unwrap();
    std::fs::remove_file(&result).unwrap();
    let (code, _, err) = run(playtune().args(["resume", "-q"]).arg(&r));
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("verdict.jsonl"), "{err}");
    assert_eq!(read(&result), clean_result);
}
