//! External evaluators end to end: the example games in both modes, the `command`
//! problem's settings, and a worker vanishing mid-write under SIGPIPE's default action
//! (which playtune's main restores, and which this binary sets too: a write that
//! raised SIGPIPE would kill it).

use playtune::eval::{Evaluation, Problem};
use playtune::registry::build_problem;
use playtune::run::ProblemSpec;
use playtune::space::{Space, parse_space};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn sigpipe_default() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: SIG_DFL is a valid disposition; set before this test starts workers.
    ONCE.call_once(|| unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    });
}

fn root() -> std::path::PathBuf {
    crate::common::root("")
}

fn space(file: &str) -> Space {
    let path = root().join(file);
    parse_space(&std::fs::read_to_string(&path).unwrap(), file).unwrap()
}

fn command(
    cmd: &str,
    space: &Space,
    settings: &[(&str, &str)],
) -> Result<Box<dyn Problem>, String> {
    let spec = ProblemSpec {
        name: "command".into(),
        settings: std::iter::once(("cmd".to_string(), cmd.to_string()))
            .chain(settings.iter().map(|(k, v)| (k.to_string(), v.to_string())))
            .collect(),
    };
    build_problem(&spec, Some(space)).map_err(|e| e.to_string())
}

fn has_python() -> bool {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: no python3 on this machine");
    }
    found
}

/// A few points of `space`: its defaults and some spread over each dimension.
fn points(space: &Space) -> Vec<Vec<f64>> {
    (0..4)
        .map(|k| {
            let idx: Vec<u32> = space
                .dims
                .iter()
                .enumerate()
                .map(|(i, d)| ((k * (i + 1)) % d.domain.len()) as u32)
                .collect();
            space.decode(&idx)
        })
        .chain(std::iter::once(space.decode(&space.default_indices())))
        .collect()
}

/// Evaluates every point with seeds 1 and 2 on `threads` threads at once.
fn evaluate_all(p: &dyn Problem, points: &[Vec<f64>]) -> Vec<Evaluation> {
    let jobs: Vec<(usize, u64)> = (0..points.len()).flat_map(|i| [(i, 1), (i, 2)]).collect();
    let threads = p.concurrency().unwrap_or(1).max(1);
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for t in 0..threads {
            let (jobs, results) = (&jobs, &results);
            s.spawn(move || {
                for (j, &(i, seed)) in jobs.iter().enumerate().skip(t).step_by(threads) {
                    let e = p
                        .evaluate(&points[i], seed)
                        .unwrap_or_else(|e| panic!("{e}"));
                    results.lock().unwrap()[j] = Some(e);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

/// Workers and one-shot runs of `cmd` give the same evaluations, finite, with the
/// declared features.
fn check_modes_agree(cmd: &str, space_file: &str, features: &str) {
    let space = space(space_file);
    let pts = points(&space);
    let once = command(cmd, &space, &[("features", features)]).unwrap();
    let workers = command(
        cmd,
        &space,
        &[("features", features), ("mode", "worker"), ("workers", "2")],
    )
    .unwrap();
    assert_eq!(workers.concurrency(), Some(2));
    let a = evaluate_all(once.as_ref(), &pts);
    let b = evaluate_all(workers.as_ref(), &pts);
    assert_eq!(a, b, "one-shot and worker evaluations differ");
    for e in &a {
        assert!((0.0..=1.0).contains(&e.fitness), "{e:?}");
        assert_eq!(e.features.len(), features.split(',').count());
        assert!(e.features.iter().all(|f| f.is_finite()), "{e:?}");
    }
    // Different seeds play different games.
    assert!(a.chunks(2).any(|s| s[0] != s[1]), "{a:?}");
}

#[test]
fn the_python_pig_example_agrees_in_both_modes() {
    sigpipe_default();
    if !has_python() {
        return;
    }
    check_modes_agree(
        &format!(
            "PIG_GAMES=40 python3 {}",
            root().join("examples/python/pig_eval.py").display()
        ),
        "examples/python/pig_space.ron",
        "turns,banked",
    );
}

#[test]
fn the_python_pig_example_runs_from_the_command_line() {
    if !has_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    crate::common::playtune()
        .current_dir(root())
        .args(["optimize", "--problem", "command", "--algo", "ntbea"])
        .args(["--space", "examples/python/pig_space.ron"])
        .args([
            "--set",
            "cmd=PIG_GAMES=20 python3 examples/python/pig_eval.py",
        ])
        .args(["--set", "mode=worker", "--set", "workers=2"])
        .args(["--set", "features=turns,banked", "--budget", "10", "-q"])
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
}

/// Builds the Connect Four example with the profile this test was built with, so
/// that the library it links is already built.
fn connect_eval() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let release = exe
        .parent()
        .and_then(Path::parent)
        .is_some_and(|d| d.ends_with("release"));
    let mut build = std::process::Command::new(env!("CARGO"));
    build
        .current_dir(root())
        .args([
            "build",
            "--example",
            "connect_eval",
            "--message-format=json",
        ])
        .args(if release {
            ["--profile", "release"]
        } else {
            ["--profile", "test"]
        });
    let out = build.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|m| {
            (m["target"]["name"] == "connect_eval")
                .then(|| m["executable"].as_str().map(PathBuf::from))
                .flatten()
        })
        .expect("cargo names the example's executable")
}

#[test]
fn the_rust_connect_four_example_agrees_in_both_modes() {
    sigpipe_default();
    let exe = connect_eval();
    check_modes_agree(
        &format!("CONNECT_GAMES=10 {}", exe.display()),
        "examples/connect_space.ron",
        "moves,center",
    );
}

#[test]
fn the_command_settings_are_checked() {
    let space = space("examples/python/pig_space.ron");
    for (settings, says) in [
        (
            &[("mode", "batch")][..],
            "mode=batch: problem `command` takes one of once, worker",
        ),
        (&[("mode", "worker"), ("workers", "0")], "workers=0"),
        (&[("mode", "worker"), ("workers", "x")], "workers=x"),
        (&[("workers", "3")], "workers=3: workers serve mode=worker"),
        (&[("timeout", "0")], "timeout=0"),
        (&[("timeout", "-2")], "timeout=-2"),
        (&[("timeout", "inf")], "timeout=inf"),
        (&[("timeout", "NaN")], "timeout=NaN"),
    ] {
        let e = command("true", &space, settings).err().unwrap_or_default();
        assert!(e.contains(says), "{settings:?}: {e}");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let p = command("true", &space, &[("mode", "worker")]).unwrap();
    assert_eq!(p.concurrency(), Some(cores));
    let p = command("true", &space, &[("mode", "worker"), ("workers", "3")]).unwrap();
    assert_eq!(p.concurrency(), Some(3));
    let p = command("true", &space, &[("timeout", "0.25")]).unwrap();
    assert_eq!(p.concurrency(), None);
}

/// A worker that stops reading its input makes the next write fail with EPIPE; with
/// SIGPIPE's default action, that must not take playtune down.
#[test]
fn a_worker_gone_mid_write_is_no_sigpipe() {
    sigpipe_default();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("w.sh");
    std::fs::write(
        &script,
        "read -r line; id=${line#*\\\"id\\\":}; id=${id%%,*}\n\
         echo \"{\\\"id\\\": $id, \\\"fitness\\\": 1}\"\n\
         exec 0<&-; echo 'closed my input' >&2; sleep 5\n",
    )
    .unwrap();
    let space = space("examples/python/pig_space.ron");
    let x = space.decode(&space.default_indices());
    // `exec`: else the shell that runs the command keeps the input pipe open.
    let cmd = format!("exec sh {}", script.display());
    let p = command(
        &cmd,
        &space,
        &[("mode", "worker"), ("workers", "1"), ("timeout", "2")],
    )
    .unwrap();
    let start = Instant::now();
    for _ in 0..3 {
        assert_eq!(p.evaluate(&x, 1).unwrap().fitness, 1.0);
        // Long enough for the worker to have closed its input.
        std::thread::sleep(Duration::from_millis(50));
        let e = p.evaluate(&x, 1).unwrap_err().0;
        assert!(
            e.contains("closed its input") && e.contains("closed my input"),
            "{e}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(20));
    // And from the command line, where main restores SIGPIPE's default action: no
    // death by signal. Without retries every second evaluation fails (the worker that
    // replaced the gone one answers once, then closes its input too); the run finishes
    // and logs each failure with the worker's last words.
    let out = crate::common::playtune()
        .args(["optimize", "--problem", "command", "--budget", "4", "-q"])
        .args(["--set", &format!("cmd={cmd}")])
        .args([
            "--set",
            "mode=worker",
            "--set",
            "workers=1",
            "--retries",
            "0",
        ])
        .args(["--name", "gone"])
        .arg("--space")
        .arg(root().join("examples/python/pig_space.ron"))
        .arg("--runs-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{:?}: {err}", out.status);
    let failures = std::fs::read_to_string(dir.path().join("gone/failures.jsonl")).unwrap();
    assert_eq!(failures.lines().count(), 2, "{failures}");
    assert!(failures.contains("closed my input"), "{failures}");
}

/// Whether process `pid` still runs: its /proc entry exists and it is no zombie.
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// Issue 65: evaluators die with playtune even when it is killed with SIGKILL, which
/// no handler sees: a one-shot evaluator and a persistent worker, each hung in the
/// middle of an evaluation with a child in its process group, end soon after (waited
/// for 60 s at most: a generous deadline, not a measure of speed).
#[test]
fn hung_evaluators_end_when_playtune_is_killed_with_sigkill() {
    for mode in ["once", "worker"] {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let cmd = format!(
            "read line; sleep 100000 & echo $$ > {p}.tmp; echo $! >> {p}.tmp; mv {p}.tmp {p}; sleep 100000",
            p = pids.display()
        );
        let mut playtune = crate::common::playtune_process()
            .args(["optimize", "--problem", "command", "--budget", "1", "-q"])
            .args([
                "--set",
                &format!("cmd={cmd}"),
                "--set",
                &format!("mode={mode}"),
            ])
            .arg("--space")
            .arg(root().join("examples/python/pig_space.ron"))
            .arg("--runs-dir")
            .arg(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let hung: Vec<i32> = loop {
            if let Ok(text) = std::fs::read_to_string(&pids)
                && text.ends_with('\n')
            {
                break text.lines().map(|l| l.trim().parse().unwrap()).collect();
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{mode}: no evaluator started"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        playtune.kill().unwrap();
        playtune.wait().unwrap();
        let start = Instant::now();
        while hung.iter().any(|&p| running(p)) && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(100));
        }
        let left: Vec<i32> = hung.iter().copied().filter(|&p| running(p)).collect();
        // The evaluator's group too (its shell leads it): a failed test leaves nothing.
        for &p in &hung {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe {
                libc::kill(-p, libc::SIGKILL);
                libc::kill(p, libc::SIGKILL);
            }
        }
        assert!(
            left.is_empty(),
            "{mode}: evaluators {left:?} outlived playtune's SIGKILL"
        );
    }
}
