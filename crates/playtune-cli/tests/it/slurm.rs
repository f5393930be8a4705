//! The Slurm executor. Without a cluster: a clear error and exit 2 for
//! `--executor slurm` without `sbatch`, reserved sbatch options, and `playtune status`.
//! With one (`sbatch` on the PATH and a node up, as `scripts/slurm-test-cluster.sh
//! start` leaves this machine; CI starts it): a small Space Battle experiment through
//! the cluster gives the local run's `summary.ron` byte for byte, a second call
//! submits nothing, and an array task cancelled part way (`scancel`) is reported with
//! its log tail and redone by the next call with the same result. Where no cluster is
//! here, those tests say so and skip, unless PLAYTUNE_REQUIRE_SLURM is set (CI sets it
//! once its cluster is up), when they fail.

use assert_cmd::Command;
use std::path::Path;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// A small experiment: 1-2 trials of each algorithm on short games.
fn experiment(
    runs: &Path,
    name: &str,
    trials: &str,
    budget: &str,
    extra: &[&str],
) -> std::process::Output {
    crate::common::playtune()
        .args([
            "experiment",
            "space-battle",
            "--preset",
            "quick",
            "--trials",
            trials,
            "--budget",
            budget,
            "--reevaluations",
            "2",
            "--name",
            name,
            "--runs-dir",
        ])
        .arg(runs)
        .arg("--plots-dir")
        .arg(runs.join("plots"))
        .args(["--quiet", "--poll", "0.5"])
        .args(extra)
        .timeout(Duration::from_secs(900))
        .output()
        .unwrap()
}

/// `playtune experiment EXPERIMENT --executor slurm --runs-dir DIR` and more, with
/// PATH as given (None: this process's).
fn slurm_experiment(
    experiment: &str,
    dir: &Path,
    extra: &[&str],
    path: Option<&Path>,
) -> std::process::Output {
    let mut c = crate::common::playtune();
    c.args([
        "experiment",
        experiment,
        "--executor",
        "slurm",
        "--runs-dir",
    ])
    .arg(dir)
    .args(extra);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether a cluster answers here; says plainly when not.
fn cluster_up(test: &str) -> bool {
    let up = Command::new("sinfo")
        .args(["--noheader", "--format=%T"])
        .timeout(Duration::from_secs(20))
        .output()
        .is_ok_and(|o| {
            o.status.success() && {
                let s = String::from_utf8_lossy(&o.stdout);
                s.contains("idle") || s.contains("mix") || s.contains("alloc")
            }
        });
    if !up {
        if std::env::var_os("PLAYTUNE_REQUIRE_SLURM").is_some() {
            panic!("{test}: PLAYTUNE_REQUIRE_SLURM is set but no Slurm cluster answers `sinfo`");
        }
        // Written to the process's stderr, not through eprintln!, which the test
        // harness captures: the skip shows in the plain `cargo test` output.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: no Slurm cluster here (sbatch/sinfo missing or no node up); `bash scripts/slurm-test-cluster.sh start` starts one"
        );
    }
    up
}

#[test]
fn slurm_executor_without_sbatch_is_a_clear_error() {
    let dir = TempDir::new().unwrap();
    let empty = TempDir::new().unwrap();
    let out = slurm_experiment("space-battle", dir.path(), &[], Some(empty.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(e.contains("`sbatch` is not on the PATH"), "{e}");
    assert!(e.contains("--executor"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    // Nothing was written: the error comes before any folder.
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn slurm_options_playtune_sets_itself_are_refused() {
    let dir = TempDir::new().unwrap();
    for args in ["--array=0-3", "--output x.out", "--comment 'unbalanced"] {
        let out = slurm_experiment("space-battle", dir.path(), &["--slurm-args", args], None);
        assert_eq!(out.status.code(), Some(2), "{args}: {}", stderr(&out));
        let e = stderr(&out);
        assert!(
            e.contains("sets itself") || e.contains("unbalanced quotes"),
            "{args}: {e}"
        );
    }
    for (experiment, extra) in [
        ("rinascimento", vec!["--detach"]),
        ("space-battle", vec!["--detach"]),
        ("space-battle", vec!["--slurm-args", "--partition=cpu"]),
    ] {
        let out = crate::common::playtune()
            .args(["experiment", experiment, "--runs-dir"])
            .arg(dir.path())
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("--executor slurm"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn status_of_runs_and_bad_folders() {
    let dir = TempDir::new().unwrap();
    let run = crate::common::playtune()
        .args([
            "optimize",
            "--budget",
            "30",
            "--trials",
            "2",
            "--name",
            "r",
            "-q",
            "--runs-dir",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let out = crate::common::playtune()
        .arg("status")
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("60 evaluations logged (budget 60"), "{text}");
    assert!(text.contains("finished"), "{text}");
    // The folder above it lists its runs.
    let out = crate::common::playtune()
        .arg("status")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("/r:"));
    for bad in [
        dir.path().join("missing"),
        dir.path().join("r").join("evals.csv"),
    ] {
        let out = crate::common::playtune()
            .arg("status")
            .arg(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    }
    let empty = TempDir::new().unwrap();
    let out = crate::common::playtune()
        .arg("status")
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("neither a run folder"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_cluster_run_equals_the_local_run_and_is_not_redone() {
    if !cluster_up("a_cluster_run_equals_the_local_run_and_is_not_redone") {
        return;
    }
    let local = TempDir::new().unwrap();
    let cluster = TempDir::new().unwrap();
    let o = experiment(local.path(), "x", "2", "6", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = experiment(cluster.path(), "x", "2", "6", &["--executor", "slurm"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("submit 6 task(s)"), "{}", stderr(&o));
    let summary = |d: &Path| std::fs::read(d.join("x").join("summary.ron")).unwrap();
    assert_eq!(summary(local.path()), summary(cluster.path()));
    for algo in ["rmhc", "b-rmhc", "ntbea"] {
        for file in ["evals.csv", "result.ron"] {
            let read = |d: &Path| std::fs::read(d.join("x").join(algo).join(file)).unwrap();
            assert_eq!(read(local.path()), read(cluster.path()), "{algo}/{file}");
        }
    }
    // Every task folder was collected; a second call submits nothing and writes the
    // same summary.
    let tasks = cluster.path().join("x").join("slurm").join("tasks");
    assert_eq!(std::fs::read_dir(&tasks).unwrap().count(), 0);
    let o = experiment(cluster.path(), "x", "2", "6", &["--executor", "slurm"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("submit 0 task(s)"), "{}", stderr(&o));
    assert_eq!(summary(local.path()), summary(cluster.path()));
    // The work items ran as tasks: six lines in done.jsonl, one per item.
    let done = std::fs::read_to_string(cluster.path().join("x/slurm/done.jsonl")).unwrap();
    assert_eq!(done.lines().count(), 6, "{done}");
}

#[test]
fn a_cancelled_task_is_reported_and_redone_with_the_same_result() {
    if !cluster_up("a_cancelled_task_is_reported_and_redone_with_the_same_result") {
        return;
    }
    let local = TempDir::new().unwrap();
    let cluster = TempDir::new().unwrap();
    // B-RMHC's task (task 1) pre-processes 95 evaluations before its search: long
    // enough to be cancelled part way. A name with a space: the paths in the batch
    // script and on sbatch's command line stay whole.
    let o = experiment(
        cluster.path(),
        "c d",
        "1",
        "12",
        &["--executor", "slurm", "--detach"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let home = cluster.path().join("c d");
    let sub: String = std::fs::read_to_string(home.join("slurm/submission-0.ron")).unwrap();
    let job = sub
        .lines()
        .find_map(|l| l.trim().strip_prefix("job: Some(\""))
        .and_then(|l| l.split('"').next())
        .expect("a job id in submission-0.ron")
        .to_string();
    let partial = home.join("slurm/tasks/b-rmhc-t0.partial/evals.csv");
    let started = Instant::now();
    // Cancel it once it has logged some of its work.
    while std::fs::read_to_string(&partial).map_or(0, |t| t.lines().count()) < 5 {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "task 1 never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let c = Command::new("scancel")
        .arg(format!("{job}_1"))
        .output()
        .unwrap();
    assert!(c.status.success(), "{}", stderr(&c));
    // Wait until the queue lets go of the job's tasks.
    loop {
        let q = Command::new("squeue")
            .args(["--noheader", "--array", "--jobs", &job])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&q.stdout).trim().is_empty() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the job never ended"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    assert!(
        !home.join("slurm/tasks/b-rmhc-t0").exists(),
        "the cancelled task finished before scancel reached it"
    );
    let s = crate::common::playtune()
        .arg("status")
        .arg(&home)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&s.stdout);
    assert!(s.status.success(), "{}", stderr(&s));
    assert!(text.contains("1 failed"), "{text}");
    assert!(text.contains("B-RMHC trial 0"), "{text}");
    assert!(text.contains("CANCELLED"), "the log tail: {text}");
    // The next call resubmits only the cancelled task, which resumes from what it had
    // logged, and the summary is the local run's.
    let o = experiment(cluster.path(), "c d", "1", "12", &["--executor", "slurm"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("submit 1 task(s)"), "{}", stderr(&o));
    let l = experiment(local.path(), "c d", "1", "12", &[]);
    assert!(l.status.success(), "{}", stderr(&l));
    assert_eq!(
        std::fs::read(local.path().join("c d/summary.ron")).unwrap(),
        std::fs::read(home.join("summary.ron")).unwrap()
    );
}

/// A search through the cluster: `optimize` or `map-elites` with its batches as tasks.
fn search(runs: &Path, name: &str, args: &[&str], extra: &[&str]) -> std::process::Output {
    crate::common::playtune()
        .args(args)
        .args(["--name", name, "--quiet", "--runs-dir"])
        .arg(runs)
        .args(extra)
        .timeout(Duration::from_secs(900))
        .output()
        .unwrap()
}

#[test]
fn a_search_with_batches_on_the_cluster_logs_what_the_local_run_logs() {
    if !cluster_up("a_search_with_batches_on_the_cluster_logs_what_the_local_run_logs") {
        return;
    }
    let slurm = ["--executor", "slurm", "--tasks", "3", "--poll", "0.5"];
    for (name, args) in [
        (
            "random",
            &[
                "optimize", "--algo", "random", "--budget", "40", "--batch", "20", "--trials", "2",
            ][..],
        ),
        ("map-elites", &["map-elites", "--evaluations", "72"][..]),
        (
            "ntbea-batch",
            &[
                "optimize", "--algo", "ntbea", "--budget", "24", "--batch", "4",
            ][..],
        ),
    ] {
        let local = TempDir::new().unwrap();
        let cluster = TempDir::new().unwrap();
        let l = search(local.path(), name, args, &[]);
        assert!(l.status.success(), "{name}: {}", stderr(&l));
        let c = search(cluster.path(), name, args, &slurm);
        assert!(c.status.success(), "{name}: {}", stderr(&c));
        assert!(stderr(&c).contains("round(s)"), "{name}: {}", stderr(&c));
        let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(name).join(f)).unwrap();
        assert_eq!(
            read(local.path(), "evals.csv"),
            read(cluster.path(), "evals.csv"),
            "{name}"
        );
        // The results agree but for the seconds the search took.
        let timeless = |t: String| {
            t.lines()
                .filter(|l| !l.contains("seconds"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            timeless(read(local.path(), "result.ron")),
            timeless(read(cluster.path(), "result.ron")),
            "{name}"
        );
    }
}

#[test]
fn a_search_task_cancelled_is_reported_and_resumed() {
    if !cluster_up("a_search_task_cancelled_is_reported_and_resumed") {
        return;
    }
    let space = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/spaces/noisy_onemax_10.ron"
    );
    // An evaluator of a few seconds: long enough to cancel a task while it runs.
    let args = [
        "optimize",
        "--problem",
        "command",
        "--set",
        "cmd=sleep 2; cat >/dev/null; echo 1.5",
        "--space",
        space,
        "--algo",
        "random",
        "--budget",
        "6",
        "--batch",
        "6",
    ];
    let dir = TempDir::new().unwrap();
    let run = dir.path().join("slow");
    let child = crate::common::playtune_process()
        .args(args)
        .args(["--name", "slow", "--quiet", "--runs-dir"])
        .arg(dir.path())
        .args(["--executor", "slurm", "--tasks", "2", "--poll", "0.5"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let job = loop {
        let text = std::fs::read_to_string(run.join("slurm/submission-0.ron")).unwrap_or_default();
        if let Some(job) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("job: Some(\""))
            .and_then(|l| l.split('"').next())
        {
            break job.to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no submission"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    // Cancel task 1 once it runs.
    loop {
        let q = Command::new("squeue")
            .args(["--noheader", "--array", "--format=%K %T", "--jobs", &job])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&q.stdout).contains("1 RUNNING") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "task 1 never ran"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let c = Command::new("scancel")
        .arg(format!("{job}_1"))
        .output()
        .unwrap();
    assert!(c.status.success());
    let out = crate::common::output_within(child, crate::common::COMMAND_LIMIT);
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{e}");
    assert!(e.contains("ended without results"), "{e}");
    assert!(e.contains("CANCELLED"), "the log tail: {e}");
    assert!(e.contains("--executor slurm"), "how to go on: {e}");
    let s = crate::common::playtune()
        .arg("status")
        .arg(&run)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&s.stdout);
    assert!(s.status.success(), "{}", stderr(&s));
    assert!(text.contains("3 evaluations logged"), "{text}");
    assert!(text.contains("task 1 ended without results"), "{text}");
    assert!(!text.contains("task 0 ended"), "{text}");
    assert!(text.contains("CANCELLED"), "{text}");
    // Task 0's evaluations are kept; resuming evaluates only task 1's.
    let kept = std::fs::read_to_string(run.join("evals.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(kept, 3);
    let r = crate::common::playtune()
        .arg("resume")
        .arg(&run)
        .args([
            "--quiet",
            "--executor",
            "slurm",
            "--tasks",
            "2",
            "--poll",
            "0.5",
        ])
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("1 round(s), 2 task(s), 3 evaluation(s)"),
        "{}",
        stderr(&r)
    );
    let local = TempDir::new().unwrap();
    let l = search(local.path(), "slow", &args, &[]);
    assert!(l.status.success(), "{}", stderr(&l));
    assert_eq!(
        std::fs::read_to_string(run.join("evals.csv")).unwrap(),
        std::fs::read_to_string(local.path().join("slow/evals.csv")).unwrap()
    );
}

/// The files of an experiment run here and through the cluster are the same: every
/// file of the local folder is in the cluster's, and the cluster's holds nothing more
/// but its `slurm/` state. Equal byte for byte, except the seconds a search took
/// (`result.ron`) and the order of lines appended as work finished (re-evaluation
/// logs, `games.csv`).
fn assert_same_files(local: &Path, cluster: &Path) {
    fn files(root: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name == "slurm" || name.starts_with(".playtune.lock") {
                continue;
            }
            if path.is_dir() {
                files(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    files(local, local, &mut a);
    files(cluster, cluster, &mut b);
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same files");
    assert!(!a.is_empty());
    for f in &a {
        let (x, y) = (
            std::fs::read(local.join(f)).unwrap(),
            std::fs::read(cluster.join(f)).unwrap(),
        );
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let lines = |bytes: &[u8], sorted: bool| {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let mut l: Vec<String> = text
                .lines()
                .filter(|l| name != "result.ron" || !l.contains("seconds"))
                .map(String::from)
                .collect();
            if sorted {
                l.sort();
            }
            l
        };
        match name.as_str() {
            "result.ron" => assert_eq!(lines(&x, false), lines(&y, false), "{}", f.display()),
            "reevaluations.csv" | "games.csv" => {
                assert_eq!(lines(&x, true), lines(&y, true), "{}", f.display())
            }
            _ => assert!(x == y, "{} differs", f.display()),
        }
    }
}

/// Runs experiment `name` with `args` here and through the cluster, compares their
/// folders, and checks what went through the cluster: searches one trial a task
/// (`slurm/experiment.ron`) and the independent steps named in `maps`.
fn cluster_equals_local(experiment: &str, args: &[&str], searches: bool, maps: &[&str]) {
    let local = TempDir::new().unwrap();
    let cluster = TempDir::new().unwrap();
    let run = |dir: &Path, extra: &[&str]| {
        let o = crate::common::playtune()
            .args(["experiment", experiment, "--preset", "quick", "--name", "x"])
            .args(args)
            .arg("--runs-dir")
            .arg(dir)
            .arg("--plots-dir")
            .arg(dir.join("plots"))
            .arg("--quiet")
            .args(extra)
            .timeout(Duration::from_secs(900))
            .output()
            .unwrap();
        assert!(o.status.success(), "{experiment}: {}", stderr(&o));
    };
    run(local.path(), &[]);
    run(
        cluster.path(),
        &["--executor", "slurm", "--tasks", "3", "--poll", "0.5"],
    );
    let home = cluster.path().join("x");
    assert_eq!(
        home.join("slurm/experiment.ron").exists(),
        searches,
        "{experiment}: searches on the cluster"
    );
    for m in maps {
        let results = home.join("slurm/maps").join(m).join("results");
        assert!(
            std::fs::read_dir(&results).is_ok_and(|mut d| d.next().is_some()),
            "{experiment}: no results in {}",
            results.display()
        );
    }
    assert_same_files(&local.path().join("x"), &home);
}

#[test]
fn every_experiment_through_the_cluster_writes_the_local_files() {
    if !cluster_up("every_experiment_through_the_cluster_writes_the_local_files") {
        return;
    }
    // Searches, then their re-evaluations.
    cluster_equals_local(
        "space-battle",
        &["--trials", "1", "--budget", "4", "--reevaluations", "2"],
        true,
        &["reevaluations"],
    );
    // Tournaments' games.
    cluster_equals_local(
        "strategy-portfolio",
        &["--set", "turns=8"],
        false,
        &["games"],
    );
    cluster_equals_local(
        "strategy-difficulty",
        &["--set", "turns=8"],
        false,
        &["games"],
    );
    // Archives, then validations of their corners.
    cluster_equals_local(
        "play-styles",
        &["--budget", "8"],
        true,
        &["validation-economy-builds"],
    );
    // A tuning search, then validations of NTBEA settings.
    cluster_equals_local(
        "ntbea-defaults",
        &["--trials", "1", "--budget", "6", "--reevaluations", "2"],
        true,
        &["validation-1", "validation-2"],
    );
}

#[test]
fn rinascimento_and_rule_design_through_the_cluster_write_the_local_files() {
    if !cluster_up("rinascimento_and_rule_design_through_the_cluster_write_the_local_files") {
        return;
    }
    // Tuning searches, true win rates, then the tables' tournaments.
    cluster_equals_local(
        "rinascimento",
        &["--trials", "1", "--budget", "3"],
        true,
        &["truth-bmrh-b3", "best-0", "round-robin"],
    );
    // Searches over the rules, their re-evaluations, then fresh games.
    cluster_equals_local(
        "rule-design",
        &["--trials", "1", "--budget", "3", "--reevaluations", "1"],
        true,
        &["reevaluations", "fresh"],
    );
}

/// learned-eval's matches go through the cluster (one step of games a pairing); its
/// self-play, training and speeds stay here. What depends on neither this machine's
/// speed nor the order self-play games finished in (the playout player against the
/// heuristic one at a fixed budget of calls) is the local run's.
#[test]
fn learned_eval_matches_through_the_cluster() {
    if !cluster_up("learned_eval_matches_through_the_cluster") {
        return;
    }
    let local = TempDir::new().unwrap();
    let cluster = TempDir::new().unwrap();
    let run = |dir: &Path, extra: &[&str]| {
        let o = crate::common::playtune()
            .args(["experiment", "learned-eval", "--preset", "quick"])
            .args(["--set", "turns=10", "--name", "x", "--quiet", "--runs-dir"])
            .arg(dir)
            .arg("--plots-dir")
            .arg(dir.join("plots"))
            .args(extra)
            .timeout(Duration::from_secs(900))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    run(local.path(), &[]);
    run(
        cluster.path(),
        &["--executor", "slurm", "--tasks", "2", "--poll", "0.5"],
    );
    for k in 0..6 {
        let results = cluster
            .path()
            .join(format!("x/slurm/maps/matches-{k}/results"));
        assert!(
            std::fs::read_dir(&results).is_ok_and(|mut d| d.next().is_some()),
            "no results in {}",
            results.display()
        );
    }
    let row = |d: &Path| {
        std::fs::read_to_string(d.join("x/matches.csv"))
            .unwrap()
            .lines()
            .find(|l| l.starts_with("calls,playout,heuristic,"))
            .expect("the playout-heuristic row at equal calls")
            .to_string()
    };
    assert_eq!(row(local.path()), row(cluster.path()));
    // The learned player's games (its network read from the shared folder) were
    // played there too: every pairing, every game.
    let text = std::fs::read_to_string(cluster.path().join("x/matches.csv")).unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(",learned,") && l.contains(",20,"))
            .count(),
        4,
        "{text}"
    );
}
