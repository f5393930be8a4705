//! The command line refusing bad input: space files located to the line and field,
//! bad options, non-finite numbers, huge or empty ranges and settings, names that
//! would leave the runs folder, hand-edited configs; exit code 2 and no panic.

use crate::cli::GOOD;
use crate::common;
use common::playtune;

use predicates::prelude::*;
use tempfile::TempDir;

/// Runs playtune with a space file holding `space`, expecting exit code 2 and stderr
/// matching every fragment.
fn rejects_space(space: &str, fragments: &[&str]) {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("bad.ron");
    std::fs::write(&file, space).unwrap();
    let assert = playtune()
        .args(["optimize", "--problem", "noisy-onemax", "--space"])
        .arg(&file)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    for f in fragments {
        assert!(err.contains(f), "stderr lacks `{f}`:\n{err}");
    }
    assert!(
        !dir.path()
            .read_dir()
            .unwrap()
            .any(|e| e.unwrap().path().is_dir()),
        "no run folder for a bad input"
    );
}

#[test]
fn bad_space_files_get_located_messages() {
    // A syntax error is reported where the parser notices it: the next line.
    rejects_space(
        &GOOD.replace("max: 1), default", "max: 1, default"),
        &["bad.ron:5:", "x0"],
    );
    rejects_space(
        &GOOD.replace("\"x1\"", "\"bogus\""),
        &["bad.ron:5:", "unknown parameter `bogus`", "noisy-onemax"],
    );
    rejects_space(
        &GOOD.replace("min: 0, max: 1), default", "min: 1, max: 0), default"),
        &["bad.ron:4:", "dimension `x0`.kind", "empty range"],
    );
    rejects_space(
        &GOOD.replace("max: 1), default", "max: 1, step: 2), default"),
        &["bad.ron:4:", "does not divide"],
    );
    rejects_space(
        &GOOD.replace("\"x1\"", "\"x0\""),
        &["bad.ron:5:", "duplicate dimension name `x0`"],
    );
    rejects_space(
        &GOOD.replace("default: 0", "default: 3"),
        &["bad.ron:4:", "dimension `x0`.default", "outside the domain"],
    );
    rejects_space(
        &GOOD.replace(
            "kind: Int(min: 0, max: 1))",
            "kind: Integer(min: 0, max: 1))",
        ),
        &["bad.ron:5:", "Integer"],
    );
    rejects_space(
        &GOOD.replace("max: 1), default", "max: 3), default"),
        &["bad.ron:4:", "x0", "outside what problem"],
    );
    rejects_space(
        "(name: \"s\", dims: [])",
        &["bad.ron:1:", "dims", "no dimensions"],
    );
}

#[test]
fn bad_options_exit_with_2_and_a_message() {
    let dir = TempDir::new().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["optimize", "--budget", "0"], "--budget 0"),
        (&["optimize", "--trials", "0"], "--trials 0"),
        (&["optimize", "--problem", "nope"], "unknown problem `nope`"),
        (&["optimize", "--set", "dimz=3"], "has no setting `dimz`"),
        (
            &["optimize", "--set", "dims=ten"],
            "dims=ten: problem `noisy-onemax` takes a whole number",
        ),
        (&["optimize", "--fix", "x99=1"], "no dimension named `x99`"),
        (&["optimize", "--fix", "x0=7"], "`7` is not a value of x0"),
        (
            &["optimize", "--algo", "brmhc", "--budget", "10"],
            "pre-processing",
        ),
        (
            &["optimize", "--algo", "ntbea", "--tuples", "x0,q"],
            "unknown dimension `q`",
        ),
        (
            &["optimize", "--space", "/nonexistent/space.ron"],
            "/nonexistent/space.ron",
        ),
        (&["map-elites", "--axis", "measure_0=1:0:10"], "LOW < HIGH"),
        (&["map-elites", "--axis", "speed=0:1:10"], "not a feature"),
        (
            &["map-elites", "--problem", "noisy-onemax"],
            "needs feature axes",
        ),
        (
            &["compare", "/nonexistent/a", "/nonexistent/b"],
            "result.ron",
        ),
        (
            &["spaces", "check", "/nonexistent/space.ron"],
            "cannot read",
        ),
    ];
    for (args, fragment) in cases {
        let a = playtune()
            .args(*args)
            .arg("--runs-dir")
            .arg(dir.path())
            .assert();
        let a = if args[0] == "compare" || args[0] == "spaces" {
            // These take no --runs-dir: clap rejects it with its own usage error (2) - run without.
            playtune().args(*args).assert()
        } else {
            a
        };
        let out = a.get_output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(fragment),
            "{args:?}: stderr lacks `{fragment}`:\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    }
}

/// Runs playtune with `args` (and a fresh --runs-dir unless the command takes none),
/// expecting exit code 2, `fragment` in stderr, no panic and no run folder.
fn refuses(args: &[&str], fragment: &str) {
    let dir = TempDir::new().unwrap();
    let mut cmd = playtune();
    cmd.args(args);
    if matches!(args[0], "optimize" | "map-elites") {
        cmd.arg("--runs-dir").arg(dir.path());
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(fragment),
        "{args:?}: stderr lacks `{fragment}`:\n{err}"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(
        dir.path().read_dir().unwrap().next().is_none(),
        "{args:?}: no run folder for a bad input"
    );
}

#[test]
fn non_finite_numbers_are_refused_wherever_they_can_be_typed_or_written() {
    rejects_space(
        &GOOD.replace("default: 0", "default: NaN"),
        &["bad.ron:4:", "dimension `x0`.default", "NaN"],
    );
    rejects_space(
        "(name: \"s\", dims: [\n(name: \"x0\", kind: Float(min: -1e308, max: 1e308, levels: 3)),\n])",
        &["bad.ron:2:", "dimension `x0`.kind", "too wide"],
    );
    rejects_space(
        "(name: \"s\", dims: [(name: \"x0\", kind: List([1, inf]))])",
        &["bad.ron:1:", "not a finite number"],
    );
    for (args, fragment) in [
        (
            &["optimize", "--fix", "x0=NaN"][..],
            "`NaN` is not a value of x0",
        ),
        (
            &["optimize", "--fix", "x0=inf"],
            "`inf` is not a value of x0",
        ),
        (
            &["optimize", "--set", "sigma=NaN"],
            "--set: sigma=NaN: problem `noisy-onemax` takes a finite number",
        ),
        (&["optimize", "--set", "scale=inf"], "--set: scale=inf"),
        (&["optimize", "--set", "sigma=-1"], "at least 0"),
        (&["optimize", "--k", "inf"], "--k inf"),
        (&["optimize", "--epsilon", "NaN"], "--epsilon NaN"),
        (&["optimize", "--mutation", "-1"], "--mutation -1"),
        (
            &["optimize", "--algo", "brmhc", "--temperature", "NaN"],
            "--temperature NaN",
        ),
        (&["map-elites", "--sigma", "NaN"], "--sigma NaN"),
        (&["map-elites", "--qd-offset", "inf"], "--qd-offset inf"),
        (
            &["map-elites", "--axis", "measure_0=0:inf:10"],
            "finite LOW < HIGH",
        ),
    ] {
        refuses(args, fragment);
    }
}

#[test]
fn integer_ranges_of_2_to_the_32_values_or_more_are_refused_or_handled() {
    let full = "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: -9223372036854775808, max: 9223372036854775807))])";
    rejects_space(full, &["bad.ron:1:", "dimension `x0`.kind", "2^53"]);
    rejects_space(
        "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: 0, max: 4294967295))])",
        &["4294967296 values", "at most 4294967295"],
    );
    // The largest allowed domain: counted right, searched without walking it.
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("s.ron");
    std::fs::write(
        &space,
        "(name: \"s\", dims: [(name: \"x0\", kind: Int(min: 0, max: 4294967294)), (name: \"x1\", kind: Int(min: 0, max: 89))])",
    )
    .unwrap();
    let out = playtune()
        .args(["spaces", "check"])
        .arg(&space)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("386547056550 points"), "{text}");
    assert!(
        text.contains("4294967295 values") && text.contains("90 values"),
        "{text}"
    );
    let started = std::time::Instant::now();
    for algo in ["random", "rmhc", "ntbea", "brmhc"] {
        let a = playtune()
            .args([
                "optimize",
                "--problem",
                "command",
                "--set",
                "cmd=cat >/dev/null; echo 1",
            ])
            .args(["--algo", algo, "--budget", "30", "-q", "--space"])
            .arg(&space)
            .arg("--runs-dir")
            .arg(dir.path())
            .assert();
        if algo == "brmhc" {
            // Its pre-processing sweeps every value: refused, not attempted.
            a.code(2)
                .stderr(predicate::str::contains("pre-processing would take"));
        } else {
            a.success();
        }
    }
    playtune()
        .args(["optimize", "--problem", "noisy-onemax", "--space"])
        .arg(&space)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("outside what problem"));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn huge_zero_and_negative_settings_are_refused() {
    for (args, fragment) in [
        (
            &[
                "optimize",
                "--problem",
                "space-battle",
                "--set",
                "max_ticks=4294967297",
            ][..],
            "max_ticks=4294967297: problem `space-battle` takes a whole number from 1 to",
        ),
        (
            &["optimize", "--set", "dims=1000000000"],
            "--set: dims=1000000000: problem `noisy-onemax` takes a whole number from 1 to",
        ),
        (
            &["optimize", "--set", "dims=-3"],
            "from 1 to 100000 as dims",
        ),
        (
            &["map-elites", "--set", "dims=1000000000"],
            "takes a whole number from 1 to 100000 as dims",
        ),
        (
            &["map-elites", "--axis", "measure_0=0:1:99999999999"],
            "bins",
        ),
        (
            &[
                "map-elites",
                "--axis",
                "measure_0=0:1:100000",
                "--axis",
                "measure_1=0:1:100000",
            ],
            "cells",
        ),
        (
            &["optimize", "--algo", "rmhc", "--resample", "0"],
            "--resample 0",
        ),
        (
            &["optimize", "--algo", "brmhc", "--resample", "0"],
            "--resample 0",
        ),
        (&["optimize", "--runs", "0"], "--runs 0"),
        (&["optimize", "--neighbours", "0"], "--neighbours 0"),
        (
            &["optimize", "--algo", "random", "--batch", "0"],
            "--batch 0",
        ),
        (&["map-elites", "--batch", "0"], "--batch 0"),
        (
            &["optimize", "--algo", "brmhc", "--temperature", "0"],
            "--temperature 0",
        ),
        (
            &["optimize", "--algo", "brmhc", "--temperature", "-1"],
            "--temperature -1",
        ),
        (
            &["optimize", "--algo", "rmhc", "--resample", "-1"],
            "--resample -1",
        ),
        // A flag of another optimiser would do nothing: it is refused, naming whose.
        (
            &["optimize", "--resample", "2"],
            "--resample is a setting of --algo rmhc and --algo brmhc, not of --algo ntbea",
        ),
        (
            &["optimize", "--algo", "random", "--k", "2"],
            "--k is a setting of --algo ntbea, not of --algo random",
        ),
        (&["optimize", "--neighbours", "many"], "--neighbours many"),
    ] {
        refuses(args, fragment);
    }
}

#[test]
fn names_are_checked_and_runs_stay_inside_the_runs_folder() {
    rejects_space(
        &GOOD.replace("\"x1\"", "\"x\\n1\""),
        &["bad.ron:5:", "control character"],
    );
    rejects_space(
        "(name: \"s\", dims: [(name: \"x0\", kind: Categories([\"a\\nb\", \"c\"]))])",
        &["bad.ron:1:", "dimension `x0`.kind", "control character"],
    );
    for name in ["../x", "/tmp/playtune-escape", "a/b", "..", ""] {
        refuses(&["optimize", "--budget", "3", "--name", name], "--name");
    }
    // A byte-order mark is no error.
    let dir = TempDir::new().unwrap();
    let space = dir.path().join("bom.ron");
    std::fs::write(&space, format!("\u{feff}{GOOD}")).unwrap();
    playtune()
        .args(["spaces", "check"])
        .arg(&space)
        .assert()
        .success();
    playtune()
        .args(["optimize", "--budget", "4", "-q", "--space"])
        .arg(&space)
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    // An unreadable file is named without a made-up line and column.
    let out = playtune()
        .args(["spaces", "check", "/nonexistent/x.ron"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/x.ron: cannot read") && !err.contains(":0:0"),
        "{err}"
    );
}

#[test]
fn resume_and_plot_check_a_hand_edited_config() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "optimize", "--algo", "rmhc", "--budget", "6", "-q", "--name", "run",
        ])
        .arg("--runs-dir")
        .arg(dir.path())
        .assert()
        .success();
    let run = dir.path().join("run");
    let config = std::fs::read_to_string(run.join("config.ron")).unwrap();
    let edits: [(&str, &str, &str); 5] = [
        ("step: 1", "step: 0", "step must be at least 1"),
        ("resample: 1", "resample: 0", "algorithm: resample: 0"),
        ("default: 0", "default: 7", "outside the domain"),
        ("max: 1,", "max: 9007199254740993,", "2^53"),
        ("seed: 1", "seed: -1", "config.ron:"),
    ];
    for (from, to, fragment) in edits {
        assert!(config.contains(from), "{from}");
        std::fs::write(run.join("config.ron"), config.replacen(from, to, 1)).unwrap();
        for cmd in ["resume", "plot"] {
            let out = playtune().arg(cmd).arg(&run).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {to}: {err}");
            assert!(
                err.contains(fragment) && err.contains("config.ron:") && !err.contains("panicked"),
                "{cmd} {to}: {err}"
            );
        }
    }
}

/// Validation is linear: a space file four times larger takes about four times as long
/// to check, not sixteen. Each size is timed twice and the faster kept, and the bound
/// (10x) sits between linear and quadratic, so a loaded machine does not fail it.
#[test]
fn very_large_space_files_check_in_linear_time() {
    let dir = TempDir::new().unwrap();
    let files = |n: usize, dims: usize| {
        let categories: Vec<String> = (0..n).map(|i| format!("\"c{i}\"")).collect();
        let dims: Vec<String> = (0..dims)
            .map(|i| format!("(name: \"d{i}\", kind: Bool)"))
            .collect();
        let groups: Vec<String> = (0..n)
            .map(|i| format!("(name: \"g{i}\", dims: [\"d{i}\"])"))
            .collect();
        [
            format!(
                "(name: \"c\", dims: [(name: \"x\", kind: Categories([{}]))])",
                categories.join(",")
            ),
            format!("(name: \"d\", dims: [{}])", dims.join(",\n")),
            format!(
                "(name: \"g\", dims: [{}], groups: [{}])",
                dims.join(",\n"),
                groups.join(",\n")
            ),
        ]
    };
    let check = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (0..2)
            .map(|_| {
                let started = std::time::Instant::now();
                playtune()
                    .args(["spaces", "check"])
                    .arg(&path)
                    .assert()
                    .success();
                started.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (small, large) = (files(50_000, 58_250), files(200_000, 233_000));
    for i in 0..3 {
        let t_small = check(&format!("small{i}.ron"), &small[i]);
        let t_large = check(&format!("large{i}.ron"), &large[i]);
        assert!(
            t_large < 10.0 * t_small,
            "file {i}: 4x the size took {:.1}x the time ({t_small:.3} s, {t_large:.3} s)",
            t_large / t_small
        );
    }
}

/// `--race-baseline` takes `entrant`, `incumbent` or `none`; anything else is exit 2,
/// naming the flag and its values, before any folder is made.
#[test]
fn a_bad_race_baseline_is_refused_by_name() {
    let dir = TempDir::new().unwrap();
    playtune()
        .args([
            "optimize",
            "--problem",
            "synthetic-design",
            "--budget",
            "40",
        ])
        .args(["--race-baseline", "sideways", "--runs-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--race-baseline"))
        .stderr(predicate::str::contains("incumbent"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
