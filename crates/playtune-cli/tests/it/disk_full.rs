//! Issue 29: a full disk. On a small tmpfs (mounted where this test may mount one, as
//! root; elsewhere it prints SKIPPED and passes): an error names the file that could
//! not be written, no `.tmp` or `.partial` file and no empty `report.html` stays
//! behind, and a `tell` that recorded every row but could not finish leaves a folder
//! that `resume` (or the same `tell` again) completes.

use crate::common;

use common::{Tmpfs, playtune};

use std::path::{Path, PathBuf};

/// Files under `dir` whose names say they were left half done.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(leftovers(&p));
            continue;
        }
        let name = e.file_name().to_string_lossy().to_string();
        let empty_page = name == "report.html" && e.metadata().unwrap().len() == 0;
        if name.ends_with(".tmp") || name.contains(".partial") || empty_page {
            out.push(p);
        }
    }
    out
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn a_run_stopped_by_a_full_disk_names_the_file_and_resumes() {
    let Some(fs) = Tmpfs::mount("64k", "a_run_stopped_by_a_full_disk") else {
        return;
    };
    let o = playtune()
        .args([
            "optimize",
            "--problem",
            "noisy-onemax",
            "--budget",
            "3000",
            "-q",
        ])
        .args(["--name", "r", "--runs-dir"])
        .arg(fs.path())
        .output()
        .unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("evals.csv") && e.contains("No space left"),
        "{e}"
    );
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(leftovers(fs.path()), Vec::<PathBuf>::new());
    fs.resize("4m");
    playtune()
        .args(["resume", "-q"])
        .arg(fs.path().join("r"))
        .assert()
        .success();
    let log = std::fs::read_to_string(fs.path().join("r/evals.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 3000);
    assert!(fs.path().join("r/result.ron").is_file());
    assert_eq!(leftovers(fs.path()), Vec::<PathBuf>::new());
}

#[test]
fn a_tell_that_could_not_finish_is_completed_by_resume_or_the_same_tell() {
    let Some(fs) = Tmpfs::mount("256k", "a_tell_that_could_not_finish") else {
        return;
    };
    let space = common::root("").join("spaces/noisy_onemax_10.ron");
    for (name, finish_with_tell) in [("by-resume", false), ("by-tell", true)] {
        playtune()
            .args([
                "optimize",
                "--problem",
                "manual",
                "--algo",
                "random",
                "--budget",
                "32",
            ])
            .arg("--space")
            .arg(&space)
            .args(["--name", name, "--runs-dir"])
            .arg(fs.path())
            .assert()
            .success();
        let run = fs.path().join(name);
        let asked = playtune()
            .args(["ask", "--n", "32"])
            .arg(&run)
            .output()
            .unwrap()
            .stdout;
        let results: String = String::from_utf8_lossy(&asked)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let fitness: f64 = v["point"]
                    .as_object()
                    .unwrap()
                    .values()
                    .map(|x| x.as_f64().unwrap())
                    .sum();
                format!("{{\"id\": {}, \"fitness\": {fitness}}}\n", v["id"])
            })
            .collect();
        assert_eq!(results.lines().count(), 32);
        let told = fs.path().join(format!("{name}.jsonl"));
        std::fs::write(&told, &results).unwrap();
        // The rows fit in the log's last page; its sorted copy and the result do not.
        fs.fill();
        let o = playtune()
            .arg("tell")
            .arg(&run)
            .arg(&told)
            .output()
            .unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(
            e.contains("No space left") && e.contains(&run.display().to_string()),
            "{e}"
        );
        assert!(!e.contains("panicked"), "{e}");
        assert_eq!(leftovers(fs.path()), Vec::<PathBuf>::new());
        let log = std::fs::read_to_string(run.join("evals.csv")).unwrap();
        assert_eq!(log.lines().count(), 1 + 32, "every row is recorded");
        assert!(!run.join("result.ron").exists());
        fs.unfill();
        if finish_with_tell {
            playtune()
                .arg("tell")
                .arg(&run)
                .arg(&told)
                .assert()
                .success();
        } else {
            playtune()
                .args(["resume", "-q"])
                .arg(&run)
                .assert()
                .success();
        }
        assert!(run.join("result.ron").is_file(), "{name}");
        assert_eq!(leftovers(fs.path()), Vec::<PathBuf>::new());
    }
}

#[test]
fn a_report_on_a_full_disk_leaves_nothing_behind() {
    let dir = tempfile::TempDir::new().unwrap();
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
    // /dev/full is no page to write: refused before anything is written.
    let o = playtune()
        .arg("report")
        .arg(&run)
        .args(["--out", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let Some(fs) = Tmpfs::mount("64k", "a_report_on_a_full_disk") else {
        return;
    };
    fs.fill();
    let out = fs.path().join("report.html");
    let o = playtune()
        .arg("report")
        .arg(&run)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains(&out.display().to_string()) && e.contains("No space left"),
        "{e}"
    );
    assert!(!out.exists(), "no empty page");
    assert_eq!(leftovers(fs.path()), Vec::<PathBuf>::new());
}
