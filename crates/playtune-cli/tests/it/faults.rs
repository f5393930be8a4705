//! Fault injection through the command line: an external evaluator that hangs, leaves
//! a child holding its output, exits unread, prints a non-finite number, crashes,
//! prints garbage, nothing, or only to stderr. Each run ends (finished, or stopped by
//! --max-failures with a message), keeps every healthy evaluation in evals.csv and
//! logs every failure with its reason in failures.jsonl. Nothing waits forever.

use std::path::Path;
use std::time::{Duration, Instant};
use tempfile::TempDir;

const SPACE: &str = concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/spaces/noisy_onemax_10.ron"
);
const BUDGET: usize = 10;

/// A one-shot evaluator: the fault `body` on call `at` (counted in a file; `at` 0:
/// every call from the first), a healthy `cat >/dev/null; echo 1.5` otherwise.
fn once(dir: &Path, fault: &str, at: u32, from_then_on: bool) -> String {
    let count = dir.join("calls");
    let test = if from_then_on { "-ge" } else { "-eq" };
    format!(
        "n=$(cat {c} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {c}; \
         if [ $n {test} {at} ]; then {fault}; fi; cat >/dev/null; echo 1.5",
        c = count.display()
    )
}

/// A persistent Python worker: the fault on its own `at`-th request (counted per
/// process, as a worker that leaks or deadlocks after a while), healthy otherwise.
const WORKER: &str = r#"
import json, os, sys, time
fault, at = os.environ["FAULT"], int(os.environ["AT"])
n = 0
for line in sys.stdin:
    n += 1
    req = json.loads(line)
    reply = {"id": req["id"], "fitness": 1.5}
    if n == at:
        if fault == "hang": time.sleep(1000)
        if fault == "exit": sys.exit(3)
        if fault == "garbage": reply = "<html>oops</html>"
        if fault == "nan": reply = '{"id": %d, "fitness": NaN}' % req["id"]
        if fault == "wrong-id": reply["id"] = req["id"] + 1
        if fault == "error": reply = {"id": req["id"], "error": "illegal rule set"}
        if fault == "stderr": print("only on stderr", file=sys.stderr, flush=True); time.sleep(1000)
    print(reply if isinstance(reply, str) else json.dumps(reply), flush=True)
"#;

struct Outcome {
    code: Option<i32>,
    stderr: String,
    healthy: usize,
    failures: Vec<serde_json::Value>,
    took: Duration,
}

fn run(dir: &Path, name: &str, cmd: &str, extra: &[&str], env: &[(&str, &str)]) -> Outcome {
    let started = Instant::now();
    let out = crate::common::playtune()
        .args(["optimize", "--problem", "command", "--space", SPACE, "-q"])
        .args(["--budget", &BUDGET.to_string(), "--name", name])
        .args(["--eval-timeout", "1"])
        .arg("--set")
        .arg(format!("cmd={cmd}"))
        .args(extra)
        .arg("--runs-dir")
        .arg(dir)
        .envs(env.iter().copied())
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let read = |f: &str| std::fs::read_to_string(dir.join(name).join(f)).unwrap_or_default();
    Outcome {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        healthy: read("evals.csv").lines().count().saturating_sub(1),
        failures: read("failures.jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
        took: started.elapsed(),
    }
}

fn check(o: &Outcome, case: &str, failed: usize, reason: &str) {
    assert!(!o.stderr.contains("panicked"), "{case}: {}", o.stderr);
    assert_eq!(o.code, Some(0), "{case} should finish: {}", o.stderr);
    assert_eq!(o.failures.len(), failed, "{case}: {:?}", o.failures);
    assert_eq!(
        o.healthy + failed,
        BUDGET,
        "{case}: every healthy evaluation is kept"
    );
    for f in &o.failures {
        let r = f["reason"].as_str().unwrap();
        assert!(r.contains(reason), "{case}: reason `{r}` lacks `{reason}`");
    }
    // A 1 s deadline, a few failures: far from "forever".
    assert!(o.took < Duration::from_secs(60), "{case} took {:?}", o.took);
}

#[test]
fn one_shot_evaluator_faults_end_in_finished_runs_with_failures_logged() {
    let cases: &[(&str, &str, &str)] = &[
        ("hang-once", "sleep 1000", "within 1"),
        ("nan", "echo NaN; exit 0", "not a finite number"),
        ("nan-lower", "echo nan; exit 0", "not a finite number"),
        ("inf", "echo inf; exit 0", "not a finite number"),
        ("minus-inf", "echo -inf; exit 0", "not a finite number"),
        ("overflow", "echo 1e999; exit 0", "not a finite number"),
        ("infinity", "echo infinity; exit 0", "not a finite number"),
        (
            "json-overflow",
            "echo '{\"fitness\": 1e999}'; exit 0",
            "out of range",
        ),
        (
            "crash",
            "echo 'segfault in game' >&2; exit 139",
            "segfault in game",
        ),
        ("garbage", "echo '<html>oops</html>'; exit 0", "oops"),
        ("nothing", "exit 0", "printed nothing"),
        (
            "stderr-only",
            "echo 'only on stderr' >&2; exit 0",
            "only on stderr",
        ),
    ];
    for &(case, fault, reason) in cases {
        let dir = TempDir::new().unwrap();
        let cmd = once(dir.path(), fault, 3, false);
        let o = run(dir.path(), case, &cmd, &["--retries", "0"], &[]);
        check(&o, case, 1, reason);
        assert_eq!(o.failures[0]["attempts"], 1);
    }
}

#[test]
fn a_crash_once_costs_a_retry_not_an_evaluation() {
    let dir = TempDir::new().unwrap();
    let cmd = once(dir.path(), "exit 1", 3, false);
    let o = run(dir.path(), "crash-retried", &cmd, &[], &[]);
    check(&o, "crash retried", 0, "");
}

#[test]
fn children_holding_output_and_unread_input_do_not_stall_the_run() {
    let dir = TempDir::new().unwrap();
    // A background child keeps the evaluator's stdout open for 1000 s.
    let o = run(dir.path(), "bg", "sleep 1000 & echo 1.5", &[], &[]);
    check(&o, "background child", 0, "");
    assert!(o.took < Duration::from_secs(30), "{:?}", o.took);
    // Exits before reading its input, under RMHC (parent and mutant at once).
    let o = run(dir.path(), "unread", "echo 1.5", &["--algo", "rmhc"], &[]);
    check(&o, "exits unread", 0, "");
}

#[test]
fn an_evaluator_that_breaks_for_good_stops_the_run_with_a_message() {
    let dir = TempDir::new().unwrap();
    // Hangs from its 3rd call on: two healthy evaluations, then failures until the
    // share passes --max-failures (over the 20-evaluation window: the 5th).
    let cmd = once(dir.path(), "sleep 1000", 3, true);
    let o = run(dir.path(), "hangs", &cmd, &["--retries", "0"], &[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(
        o.stderr.contains("5 of 7 evaluations failed")
            && o.stderr.contains("--max-failures")
            && o.stderr.contains("--retry-failed"),
        "{}",
        o.stderr
    );
    assert_eq!(o.healthy, 2);
    assert_eq!(o.failures.len(), 5);
    assert!(o.took < Duration::from_secs(60), "{:?}", o.took);
}

fn has_python() -> bool {
    std::process::Command::new("python3")
        .arg("-c")
        .arg("pass")
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn worker_faults_kill_and_replace_the_worker_and_the_run_finishes() {
    if !has_python() {
        eprintln!("skipped: python3 is not installed (the fault worker is a Python script)");
        return;
    }
    let dir = TempDir::new().unwrap();
    let script = dir.path().join("worker.py");
    std::fs::write(&script, WORKER).unwrap();
    let cmd = format!("exec python3 {}", script.display());
    for (fault, reason) in [
        ("hang", "within 1"),
        ("exit", "exited"),
        ("garbage", "oops"),
        ("nan", "NaN"),
        ("wrong-id", "id"),
        ("error", "illegal rule set"),
        ("stderr", "only on stderr"),
    ] {
        // One worker: its 3rd request fails; the fresh worker that replaces it (or,
        // for an error reply, the same one) serves the rest.
        let o = run(
            dir.path(),
            fault,
            &cmd,
            &["--workers", "1", "--retries", "0"],
            &[("FAULT", fault), ("AT", "3")],
        );
        // A replaced worker counts from 1 again and fails on its own 3rd request too
        // (requests 3, 6 and 9 of 10); after an error reply the worker is kept.
        let failed = if fault == "error" { 1 } else { 3 };
        check(&o, fault, failed, reason);
    }
}
