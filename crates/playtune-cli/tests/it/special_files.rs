//! A read-only command cannot be hung or flooded by a run folder (issue 72, item 2):
//! a run file that is a pipe, or a link to an endless device, is refused at once,
//! naming the file, by every command that reads it.

use crate::common::{self, playtune};
use std::path::Path;

/// A finished run of a few evaluations, in `dir/name`.
fn small_run(dir: &Path, name: &str) {
    common::succeeded(
        playtune()
            .args([
                "optimize",
                "--problem",
                "noisy-onemax",
                "--budget",
                "6",
                "-q",
            ])
            .args(["--name", name, "--runs-dir"])
            .arg(dir),
    );
}

/// `file` of the run in `run` replaced by `what`: a pipe or a link to /dev/zero.
fn replace(run: &Path, file: &str, what: &str) {
    let path = run.join(file);
    std::fs::remove_file(&path).unwrap();
    match what {
        "pipe" => assert!(
            std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success()
        ),
        _ => std::os::unix::fs::symlink("/dev/zero", &path).unwrap(),
    }
}

#[cfg(unix)]
#[test]
fn a_run_file_that_is_a_pipe_or_an_endless_device_is_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    small_run(dir.path(), "good");
    for file in ["config.ron", "evals.csv", "result.ron"] {
        for what in ["pipe", "zero"] {
            let name = format!("{}-{what}", file.replace('.', "-"));
            small_run(dir.path(), &name);
            let run = dir.path().join(&name);
            replace(&run, file, what);
            let commands: Vec<Vec<std::ffi::OsString>> = vec![
                vec!["status".into(), run.clone().into()],
                vec!["report".into(), run.clone().into()],
                vec!["plot".into(), run.clone().into()],
                vec![
                    "compare".into(),
                    run.clone().into(),
                    dir.path().join("good").into(),
                ],
            ];
            for args in commands {
                let out = common::playtune_within(30).args(&args).output().unwrap();
                let e = String::from_utf8_lossy(&out.stderr);
                // It ends (killed at the limit, the code is none): refused naming
                // the file, or done without reading it (`plot` draws from
                // result.ron alone).
                match out.status.code() {
                    Some(2) => assert!(e.contains(file), "{args:?} with {file} a {what}: {e}"),
                    Some(0) => {}
                    code => panic!("{args:?} with {file} a {what}: exit {code:?}: {e}"),
                }
                assert!(!e.contains("panicked"), "{args:?}: {e}");
            }
        }
    }
}

/// A run file that is a link to nothing is named as such, not read as a file not yet
/// written: `status` once said "0 evaluations logged ... finished" of a run whose
/// log was a dangling link, or "not finished" of one whose result was (found by issue
/// 72's fault probe).
#[cfg(unix)]
#[test]
fn a_run_file_that_links_to_nothing_is_named() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["evals.csv", "result.ron", "failures.jsonl"] {
        let name = format!("dangling-{}", file.replace('.', "-"));
        small_run(dir.path(), &name);
        let run = dir.path().join(&name);
        let path = run.join(file);
        let _ = std::fs::remove_file(&path);
        std::os::unix::fs::symlink(dir.path().join("gone"), &path).unwrap();
        let out = common::playtune_within(30)
            .args(["status"])
            .arg(&run)
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {e}");
        assert!(
            e.contains(file) && e.contains("a link to nothing"),
            "{file}: {e}"
        );
    }
}

/// A run file of gigabytes is refused by its size, before it is read, and a report
/// that leaves a section out for it names the file (found by issue 72's fault probe:
/// the report dropped "Parameter importance" without a word).
#[cfg(unix)]
#[test]
fn a_huge_run_file_is_refused_by_its_size_and_named() {
    let dir = tempfile::tempdir().unwrap();
    small_run(dir.path(), "huge");
    let run = dir.path().join("huge");
    let log = std::fs::OpenOptions::new()
        .append(true)
        .open(run.join("evals.csv"))
        .unwrap();
    log.set_len(5 << 30).unwrap(); // sparse: no disk used
    let out = common::playtune_within(60)
        .args(["report"])
        .arg(&run)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => {
            let page = std::fs::read_to_string(run.join("report.html")).unwrap();
            assert!(
                page.contains("evals.csv") && page.contains("more than any run writes"),
                "the page does not say why it has no parameter importance"
            );
        }
        Some(2) => assert!(e.contains("evals.csv"), "{e}"),
        code => panic!("exit {code:?}: {e}"),
    }
}
