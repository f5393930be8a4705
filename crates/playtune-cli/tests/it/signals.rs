//! Issue 29: Ctrl-C and SIGTERM with external evaluators running. Evaluators sit in
//! process groups of their own, so neither the terminal's SIGINT (sent to playtune's
//! group) nor a SIGTERM sent to playtune reaches them: playtune kills their groups,
//! keeps every evaluation done, and exits 130 or 143; `resume` then finishes the run.
//! One-shot evaluators and persistent workers, each evaluator leaving a background
//! child in its group too. Linux: the evaluators' groups are looked up in /proc.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tempfile::TempDir;

const SPACE: &str = "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: 0, max: 1)), (name: \"x1\", kind: Int(min: 0, max: 1)), (name: \"x2\", kind: Int(min: 0, max: 3))])";

/// The processes alive (not zombies) in process group `pgid`.
fn alive_in_group(pgid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after `)`.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" && fields[0] != "X"
        {
            out.push(pid);
        }
    }
    out
}

/// An evaluator (one-shot or worker) fast for its first 5 evaluations, then hanging
/// (with a background child) until the file `go` exists. It records its process
/// group (its shell's pid) in `groups` and counts its calls in `count`.
fn evaluator(dir: &Path, worker: bool) -> String {
    let d = dir.display();
    let step = format!(
        "n=$(cat {d}/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > {d}/count; \
         echo $$ >> {d}/groups; \
         if [ $n -gt 5 ] && [ ! -e {d}/go ]; then sleep 1000 & sleep 1000; fi"
    );
    if worker {
        format!(
            "while IFS= read -r line; do id=${{line#*\\\"id\\\":}}; id=${{id%%,*}}; {step}; \
             echo \"{{\\\"id\\\": $id, \\\"fitness\\\": $n}}\"; done"
        )
    } else {
        format!("cat >/dev/null; {step}; echo $n")
    }
}

fn run_and_signal(worker: bool, signal: i32) {
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(&space, SPACE).unwrap();
    let mut c = crate::common::playtune_process();
    c.args([
        "optimize",
        "--problem",
        "command",
        "--algo",
        "ntbea",
        "--budget",
        "10",
    ])
    .arg("--set")
    .arg(format!("cmd={}", evaluator(dir.path(), worker)))
    .arg("--space")
    .arg(&space)
    .arg("--runs-dir")
    .arg(dir.path())
    .args(["--name", "r", "-q", "--retries", "0"]);
    if worker {
        c.args(["--workers", "2"]);
    }
    c.stdout(Stdio::null()).stderr(Stdio::piped());
    // Its own group, as a terminal's foreground job; SIGINT at its default even where
    // this test runs with it ignored (a background job of a script).
    c.process_group(0);
    // SAFETY: signal is async-signal-safe, as pre_exec requires.
    unsafe {
        c.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = c.spawn().unwrap();
    let pid = child.id() as i32;
    // Wait for the hanging evaluation, and its background child.
    let count = dir.path().join("count");
    let started = Instant::now();
    loop {
        let n: u32 = std::fs::read_to_string(&count)
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        if n > 5 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the run never reached its 6th evaluation"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let groups: Vec<i32> = std::fs::read_to_string(dir.path().join("groups"))
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    let hanging = *groups.last().unwrap();
    assert!(
        alive_in_group(hanging).len() >= 2,
        "the hanging evaluator and its background child run"
    );
    // SAFETY: kill has no memory-safety preconditions.
    unsafe {
        if signal == libc::SIGINT {
            // What Ctrl-C does: the signal goes to the terminal's foreground group.
            libc::kill(-pid, libc::SIGINT);
        } else {
            libc::kill(pid, signal);
        }
    }
    let waited = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "playtune did not exit on the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let (code, word) = if signal == libc::SIGINT {
        (130, "interrupted: ")
    } else {
        (143, "terminated: ")
    };
    assert_eq!(status.code(), Some(code), "{err}");
    assert!(
        err.contains(word) && err.contains("playtune resume"),
        "the hint: {err}"
    );
    // Every evaluator's group is gone, background children included.
    std::thread::sleep(Duration::from_millis(200));
    for g in &groups {
        assert_eq!(
            alive_in_group(*g),
            Vec::<i32>::new(),
            "group {g} outlived playtune"
        );
    }
    // The five evaluations done are kept; the interrupted one is not a failure.
    let run = dir.path().join("r");
    let log = std::fs::read_to_string(run.join("evals.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 5, "{log}");
    let failures = std::fs::read_to_string(run.join("failures.jsonl")).unwrap_or_default();
    assert!(failures.trim().is_empty(), "{failures}");
    // Resumed, the run reuses them and finishes.
    std::fs::write(dir.path().join("go"), "").unwrap();
    let out = crate::common::playtune()
        .args(["resume", "-q", "--json"])
        .arg(&run)
        .timeout(Duration::from_secs(120))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    let j: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(j["evaluations_reused"], 5, "{text}");
    assert_eq!(j["evaluations"], 10, "{text}");
    let log = std::fs::read_to_string(run.join("evals.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 10);
}

#[test]
fn ctrl_c_kills_one_shot_evaluators_keeps_the_log_and_exits_130() {
    run_and_signal(false, libc::SIGINT);
}

#[test]
fn sigterm_kills_one_shot_evaluators_keeps_the_log_and_exits_143() {
    run_and_signal(false, libc::SIGTERM);
}

#[test]
fn ctrl_c_kills_busy_workers_keeps_the_log_and_exits_130() {
    run_and_signal(true, libc::SIGINT);
}

#[test]
fn sigterm_kills_busy_workers_keeps_the_log_and_exits_143() {
    run_and_signal(true, libc::SIGTERM);
}
