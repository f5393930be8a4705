//! Fault injection: evaluators that hang, crash, lie or vanish, each a small shell
//! script. Every failure must come back as an `Err` soon after its deadline, and the
//! evaluations around it must succeed.

use super::*;
use crate::eval::int_space;
use std::path::Path;
use std::time::Instant;

/// Generous: the deadlines are 1 s, but the machine may be busy.
const PROMPT: Duration = Duration::from_secs(20);

fn problem(dir: &Path, script: &str, workers: Option<usize>, timeout: f64) -> CommandProblem {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = dir.join(format!("eval{}.sh", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&path, script).unwrap();
    let p = CommandProblem::new(
        format!("sh {}", path.display()),
        int_space("s", 1, 10),
        Vec::new(),
    )
    .with_timeout(Duration::from_secs_f64(timeout));
    match workers {
        Some(n) => p.with_workers(n),
        None => p,
    }
}

/// A one-shot evaluator: reads its request and runs `body` with `$n` the call number
/// (counted in a file beside the script) and `$seed` the request's seed.
fn once(dir: &Path, body: &str, timeout: f64) -> CommandProblem {
    let script = format!(
        "c={dir}/count; n=$(cat $c 2>/dev/null || echo 0); n=$((n+1)); echo $n > $c\n\
         read -r line; seed=${{line#*\\\"seed\\\":}}; seed=${{seed%%,*}}\n{body}\n",
        dir = dir.display()
    );
    problem(dir, &script, None, timeout)
}

/// A worker: answers each request line with `body`, with `$id`, `$seed` and `$n` (the
/// request's number for this process) set; `reply` prints the usual reply.
fn worker(dir: &Path, body: &str, workers: usize, timeout: f64) -> CommandProblem {
    let script = format!(
        "n=0\nreply() {{ echo \"{{\\\"id\\\": $id, \\\"fitness\\\": $seed}}\"; }}\n\
         while IFS= read -r line; do\n n=$((n+1))\n id=${{line#*\\\"id\\\":}}; id=${{id%%,*}}\n\
         seed=${{line#*\\\"seed\\\":}}; seed=${{seed%%,*}}\n{body}\ndone\n"
    );
    problem(dir, &script, Some(workers), timeout)
}

/// Evaluates with `seed`, checking that it came back promptly.
fn eval(p: &CommandProblem, seed: u64) -> Result<Evaluation, EvalError> {
    let start = Instant::now();
    let r = p.evaluate(&[3.0], seed);
    assert!(start.elapsed() < PROMPT, "took {:?}", start.elapsed());
    r
}

fn ok(p: &CommandProblem, seed: u64) {
    match eval(p, seed) {
        Ok(e) => assert_eq!(e.fitness, seed as f64),
        Err(e) => panic!("seed {seed}: {e}"),
    }
}

fn err(p: &CommandProblem, seed: u64, expect: &[&str]) -> String {
    let e = eval(p, seed).expect_err("the evaluation should fail").0;
    for x in expect {
        assert!(e.contains(x), "`{x}` not in: {e}");
    }
    e
}

#[test]
fn a_one_shot_evaluator_that_hangs_is_killed_at_its_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let p = once(dir.path(), "echo thinking >&2; sleep 30", 0.5);
    let start = Instant::now();
    err(&p, 1, &["did not finish within 0.5 s", "thinking"]);
    assert!(start.elapsed() >= Duration::from_millis(500));
}

#[test]
fn a_one_shot_evaluator_that_hangs_from_its_third_call_fails_only_then() {
    let dir = tempfile::tempdir().unwrap();
    let p = once(dir.path(), "[ $n -ge 3 ] && sleep 30; echo $seed", 1.0);
    ok(&p, 1);
    ok(&p, 2);
    err(&p, 3, &["did not finish"]);
}

#[test]
fn a_background_child_holding_stdout_does_not_hold_up_the_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let p = once(
        dir.path(),
        &format!("sleep 1000 & echo $! > {}; echo $seed", pids.display()),
        60.0,
    );
    let start = Instant::now();
    ok(&p, 4);
    assert!(start.elapsed() < Duration::from_secs(10));
    let pid: i32 = std::fs::read_to_string(&pids)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(gone(pid), "the background sleep {pid} survived");
}

/// Whether process `pid` has ended (a zombie that nobody reaps counts: in a container
/// the orphan's new parent may not reap it, but it runs no more).
fn gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(s)
                if s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z') =>
            {
                return true;
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    false
}

#[test]
fn a_one_shot_evaluator_may_exit_without_reading_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(dir.path(), "echo 2", None, 5.0);
    assert_eq!(eval(&p, 0).unwrap().fitness, 2.0);
}

#[test]
fn non_finite_replies_fail_the_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    for bare in ["NaN", "nan", "inf", "-inf", "1e999", "infinity"] {
        let p = problem(dir.path(), &format!("echo {bare}"), None, 5.0);
        err(&p, 0, &["not a finite number", bare]);
        let p = problem(
            dir.path(),
            &format!("echo '{{\"fitness\": {bare}}}'"),
            None,
            5.0,
        );
        let e = err(&p, 0, &[]);
        assert!(
            e.contains("NaN or an infinity") || e.contains("out of range"),
            "{e}"
        );
        let w = worker(
            dir.path(),
            &format!("echo \"{{\\\"id\\\": $id, \\\"fitness\\\": {bare}}}\""),
            1,
            5.0,
        );
        let e = err(&w, 0, &[]);
        assert!(
            e.contains("NaN or an infinity") || e.contains("out of range"),
            "{e}"
        );
    }
}

#[test]
fn a_crash_on_the_third_call_gives_its_status_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let p = once(
        dir.path(),
        "if [ $n -eq 3 ]; then echo \"segfault at call $n\" >&2; kill -SEGV $$; fi; echo $seed",
        5.0,
    );
    ok(&p, 1);
    ok(&p, 2);
    // The shell that ran the script reports its death as 139, or passes it on.
    let e = err(&p, 3, &["it failed", "segfault at call 3"]);
    assert!(e.contains("signal: 11") || e.contains("status: 139"), "{e}");
    ok(&p, 4);
}

#[test]
fn garbage_nothing_and_stderr_alone_fail_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(dir.path(), "echo 'hello world'; echo warn >&2", None, 5.0);
    err(
        &p,
        0,
        &["`hello world` is neither a number nor JSON", "warn"],
    );
    let p = problem(dir.path(), "true", None, 5.0);
    err(&p, 0, &["printed nothing", "wrote nothing to stderr"]);
    let p = problem(dir.path(), "echo 'no licence' >&2", None, 5.0);
    err(&p, 0, &["printed nothing", "its stderr ended: no licence"]);
    let p = problem(dir.path(), "echo 'bad input' >&2; exit 3", None, 5.0);
    err(&p, 0, &["exit status: 3", "bad input"]);
}

#[test]
fn the_stderr_tail_is_the_last_lines_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(
        dir.path(),
        "i=0; while [ $i -lt 100 ]; do echo \"line $i $(printf '%0300d' 0)\" >&2; i=$((i+1)); done; exit 1",
        None,
        5.0,
    );
    let e = err(&p, 0, &["line 99 "]);
    assert!(
        !e.contains("line 89 ") && e.len() < 2600,
        "{} bytes",
        e.len()
    );
}

#[test]
fn a_worker_serves_many_requests_and_its_error_replies_keep_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(
        dir.path(),
        "if [ $seed -eq 5 ]; then echo \"{\\\"id\\\": $id, \\\"error\\\": \\\"seed 5 is cursed\\\"}\"; \
         else echo chatter >&2; echo; reply; fi",
        1,
        5.0,
    );
    assert_eq!(p.concurrency(), Some(1));
    ok(&p, 1);
    let pid = p.pool.as_ref().unwrap().idle_pids();
    ok(&p, 2);
    err(&p, 5, &["replied with an error: seed 5 is cursed"]);
    ok(&p, 3);
    assert_eq!(
        p.pool.as_ref().unwrap().idle_pids(),
        pid,
        "one worker throughout"
    );
}

/// A worker killed while idle (a stop kills every evaluator's group) is let go when
/// the next evaluation comes, which a fresh worker serves: it was once handed the
/// dead worker, and the evaluation failed with "killed by signal 9".
#[test]
fn a_worker_killed_while_idle_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(dir.path(), "reply", 1, 5.0);
    ok(&p, 1);
    let pids = p.pool.as_ref().unwrap().idle_pids();
    assert_eq!(pids.len(), 1);
    // SAFETY: a plain kill of a process this test started.
    unsafe {
        libc::kill(pids[0] as i32, libc::SIGKILL);
    }
    assert!(gone(pids[0] as i32), "the worker outlived its kill");
    ok(&p, 2);
    let now = p.pool.as_ref().unwrap().idle_pids();
    assert!(now.len() == 1 && now != pids, "{now:?} after {pids:?}");
}

/// This process's threads, as Linux counts them.
fn threads() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Taking an idle worker leaves no thread behind: the look for a worker that died
/// while idle once left a thread blocked on each live one, and a long run ran out of
/// threads.
#[test]
fn taking_an_idle_worker_leaves_no_thread_behind() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(dir.path(), "reply", 1, 5.0);
    ok(&p, 0);
    let before = threads();
    for seed in 1..=200 {
        ok(&p, seed);
    }
    // Other tests run in this process meanwhile: a margin for their threads, far
    // below one a take.
    assert!(
        threads() < before + 100,
        "{before} threads, then {}",
        threads()
    );
}

#[test]
fn a_worker_that_exits_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(
        dir.path(),
        "reply; [ $n -ge 2 ] && { echo 'out of memory' >&2; exit 7; }",
        1,
        5.0,
    );
    ok(&p, 1);
    ok(&p, 2);
    err(
        &p,
        3,
        &["exited without replying", "exit status: 7", "out of memory"],
    );
    ok(&p, 4);
    ok(&p, 5);
}

/// Issue 65: a worker killed by a signal says which: the shell that runs it, killed
/// by one (here SIGSEGV, then SIGKILL sent by someone else, which playtune's own
/// kill does not hide), or its command, whose death by a signal the shell reports as
/// 128 + the signal's number.
#[test]
fn a_worker_killed_by_a_signal_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(
        dir.path(),
        "case $seed in 3) kill -SEGV $PPID;; 4) kill -KILL $PPID;; 5) kill -SEGV $$;; \
         6) kill -KILL $$;; *) reply;; esac",
        1,
        5.0,
    );
    ok(&p, 1);
    err(&p, 3, &["exited without replying", "signal 11 (SIGSEGV)"]);
    err(&p, 4, &["exited without replying", "signal 9 (SIGKILL)"]);
    err(&p, 5, &["exit status: 139", "signal 11 (SIGSEGV)"]);
    err(&p, 6, &["exit status: 137", "signal 9 (SIGKILL)"]);
    ok(&p, 7);
    // A one-shot evaluator likewise.
    let p = once(dir.path(), "kill -SEGV $$", 5.0);
    err(&p, 1, &["exit status: 139", "signal 11 (SIGSEGV)"]);
}

#[test]
fn a_worker_that_hangs_is_killed_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(
        dir.path(),
        "[ $n -ge 3 ] && { echo stuck >&2; sleep 30; }; reply",
        1,
        1.0,
    );
    ok(&p, 1);
    ok(&p, 2);
    err(&p, 3, &["did not reply within 1 s", "stuck"]);
    ok(&p, 4);
}

#[test]
fn a_worker_with_the_wrong_id_or_garbage_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let p = worker(
        dir.path(),
        "case $seed in 7) echo \"{\\\"id\\\": 0, \\\"fitness\\\": 1}\";; \
         8) echo 'loading model...';; *) reply;; esac",
        2,
        5.0,
    );
    ok(&p, 1);
    err(&p, 7, &["with id 0 to the request with id"]);
    ok(&p, 2);
    err(&p, 8, &["`loading model...` is neither a number nor JSON"]);
    ok(&p, 3);
}

#[test]
fn a_worker_that_never_reads_fails_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(
        dir.path(),
        "echo 'no input for me' >&2; exit 3",
        Some(1),
        5.0,
    );
    for _ in 0..3 {
        err(&p, 1, &["exited without replying", "no input for me"]);
    }
}

#[test]
fn a_worker_that_hangs_always_fails_at_each_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let p = problem(dir.path(), "sleep 30", Some(1), 0.5);
    err(&p, 1, &["did not reply within 0.5 s"]);
    err(&p, 1, &["did not reply within 0.5 s"]);
}

#[test]
fn workers_and_one_shot_runs_agree() {
    let dir = tempfile::tempdir().unwrap();
    let w = worker(dir.path(), "reply", 2, 5.0);
    let o = once(dir.path(), "echo $seed", 5.0);
    assert_eq!(o.concurrency(), None);
    for seed in [0, 1, 77, 123_456] {
        assert_eq!(eval(&w, seed).unwrap(), eval(&o, seed).unwrap());
    }
}

#[test]
fn the_pool_shares_its_workers_among_threads_and_they_die_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let bg = dir.path().join("bg");
    let p = worker(
        dir.path(),
        &format!(
            "[ $n -eq 1 ] && {{ sleep 1000 & echo $! >> {}; }}; sleep 0.1; reply",
            bg.display()
        ),
        2,
        10.0,
    );
    std::thread::scope(|s| {
        for seed in 0..6 {
            let p = &p;
            s.spawn(move || ok(p, seed));
        }
    });
    let pids = p.pool.as_ref().unwrap().idle_pids();
    assert!(pids.len() <= 2 && !pids.is_empty(), "{pids:?}");
    drop(p);
    for pid in pids {
        assert!(gone(pid as i32), "worker {pid} survived the problem");
    }
    for pid in std::fs::read_to_string(&bg).unwrap().lines() {
        let pid: i32 = pid.parse().unwrap();
        assert!(gone(pid), "a worker's background child {pid} survived");
    }
}

#[test]
fn a_reply_over_the_output_limit_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    // 2 MiB on the reply's line, then 2 MiB of blank lines after a good reply: both
    // are over the limit with no whole last line, never "printed nothing".
    let long = "head -c 2097152 /dev/zero | tr '\\0' 7; echo";
    let p = problem(dir.path(), long, None, 20.0);
    err(&p, 0, &["over the 1 MiB read from a one-shot evaluator"]);
    let blank = "echo $PLAYTUNE_SEED; head -c 2097152 /dev/zero | tr '\\0' '\\n'";
    let p = problem(dir.path(), blank, None, 20.0);
    err(&p, 0, &["over the 1 MiB read from a one-shot evaluator"]);
    // Much output before a reply on a line of its own is fine.
    let chatty = "head -c 2097152 /dev/zero | tr '\\0' '\\n'; echo $PLAYTUNE_SEED";
    let p = problem(dir.path(), chatty, None, 20.0);
    ok(&p, 3);
}
