//! Damaged files, read back by the real binary (issue 29, "Files read without a
//! check"): experiment tables, re-evaluation logs, self-play sample files, networks,
//! `config.ron`, `failures.jsonl` and `result.ron`. A damaged row or record is named
//! by file and line (or byte, or field), left out and played again, never counted; a
//! damaged file that cannot be worked around is refused with exit code 2 and a
//! message naming the file and the field. Nothing panics.

use crate::common;
use common::{playtune, read, refused, run};

use playtune::learn::samples::SampleFile;
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn sorted_lines(p: &Path) -> Vec<String> {
    let mut l: Vec<String> = read(p).lines().map(String::from).collect();
    l.sort();
    l
}

// ---------------------------------------------------------------------------------
// Experiment tables.

fn strategy_quick(dir: &Path) -> (Option<i32>, String, String) {
    run(playtune()
        .args([
            "experiment",
            "strategy-portfolio",
            "--preset",
            "quick",
            "--set",
            "turns=8",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(dir.join("runs"))
        .arg("--plots-dir")
        .arg(dir.join("plots")))
}

/// A result of 7, a game played twice with other results, a game index beyond the
/// preset's, a malformed number and an identical copy: each named by line, none
/// counted, the games played again; the table is the undamaged one.
#[test]
fn games_csv_rows_that_cannot_be_are_named_and_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = strategy_quick(dir.path());
    assert_eq!(code, Some(0), "{err}");
    let folder = dir.path().join("runs/strategy-portfolio-quick");
    let games = folder.join("games.csv");
    let clean = sorted_lines(&games);
    let summary = read(&folder.join("summary.md"));
    let mut lines: Vec<String> = read(&games).lines().map(String::from).collect();
    assert!(lines[0].ends_with(",check"), "{}", lines[0]);
    // An edit that also writes the row's check again (what the checks of the values
    // must catch), field `k` set to `v`.
    let field = |line: &str, k: usize, v: &str| {
        let mut f: Vec<String> = line.split(',').map(String::from).collect();
        f.pop();
        f[k] = v.to_string();
        let body = f.join(",");
        let check = playtune::damage::fnv1a(body.as_bytes());
        format!("{body},{check:016x}")
    };
    lines[1] = field(&lines[1], 4, "7"); // line 2: a result of 7
    let other_score = field(&lines[2], 5, "99999"); // line 3 again, another score
    lines[4] = field(&field(&lines[4], 2, "9"), 3, "1"); // line 5: game 9 of 2
    lines[6] = field(&lines[6], 6, "12x"); // line 7: not a number
    let copy = lines[8].clone(); // line 9 again, the same
    // Line 11: a result flipped without its check (a loss read as a win).
    let f: Vec<&str> = lines[10].split(',').collect();
    let flipped = if f[4] == "1" { "0" } else { "1" };
    lines[10] = [&f[..4], &[flipped], &f[5..]].concat().join(",");
    lines.push(other_score);
    lines.push(copy);
    let n = lines.len();
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();

    let (code, out, err) = strategy_quick(dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("games.csv"))
        .unwrap_or_else(|| panic!("no warning names games.csv: {err}"));
    assert_eq!(err.matches("games.csv").count(), 1, "one warning: {err}");
    for needle in [
        "left out 7 damaged line(s)",
        "line 2: result_a 7",
        "line 3: a game logged twice with different results",
        "line 5: game 9: the experiment plays 2",
        "line 7: not 14 numbers",
        "line 11: its check does not match the row",
        &format!("line {}: game", n - 1),
        &format!("line {n}: a copy of line 9"),
    ] {
        assert!(warning.contains(needle), "lacks `{needle}`: {warning}");
    }
    // The games were played again: the same rows (in another order), the same table.
    assert_eq!(sorted_lines(&games), clean);
    assert_eq!(read(&folder.join("summary.md")), summary);
    assert!(out.contains(summary.lines().next().unwrap()));
    // Nothing left to name.
    let (code, _, err) = strategy_quick(dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("games.csv"), "{err}");
}

/// The published tables read back whole: every row is accepted, no game is played,
/// and the tables are the published ones, byte for byte.
#[test]
fn the_published_strategy_tables_pass_the_checks() {
    for experiment in ["strategy-portfolio", "strategy-difficulty"] {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("{experiment}-full");
        let published = Path::new(ROOT).join("runs/published").join(&name);
        let folder = dir.path().join("runs").join(&name);
        std::fs::create_dir_all(&folder).unwrap();
        for f in ["games.csv", "experiment.txt"] {
            std::fs::copy(published.join(f), folder.join(f)).unwrap();
        }
        let (code, _, err) = run(playtune()
            .args(["experiment", experiment, "--preset", "full", "-q"])
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots")));
        assert_eq!(code, Some(0), "{err}");
        assert!(!err.contains("warning"), "{err}");
        assert_eq!(
            read(&folder.join("games.csv")),
            read(&published.join("games.csv"))
        );
        assert_eq!(
            read(&folder.join("summary.md")),
            read(&published.join("summary.md"))
        );
    }
}

fn space_battle(dir: &Path) -> (Option<i32>, String, String) {
    run(playtune()
        .args([
            "experiment",
            "space-battle",
            "--trials",
            "2",
            "--budget",
            "4",
            "--reevaluations",
            "3",
            "--set",
            "max_ticks=50",
            "-q",
        ])
        .arg("--runs-dir")
        .arg(dir.join("runs"))
        .arg("--plots-dir")
        .arg(dir.join("plots")))
}

/// The re-evaluation log: an infinite fitness, a repeat beyond the experiment's, a
/// re-evaluation logged twice with another fitness and a line of garbage are named,
/// evaluated again and dropped from the log; the summary is the undamaged one.
#[test]
fn reevaluation_log_lines_that_cannot_be_are_evaluated_again() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = space_battle(dir.path());
    assert_eq!(code, Some(0), "{err}");
    let home = dir.path().join("runs/space-battle-quick");
    let log = home.join("ntbea/reevaluations.csv");
    let clean = sorted_lines(&log);
    let summary = read(&home.join("summary.md"));
    let lines: Vec<String> = read(&log).lines().map(String::from).collect();
    let with = |line: &str, k: usize, v: &str| {
        let mut f: Vec<String> = line.split(',').map(String::from).collect();
        f[k] = v.to_string();
        f.join(",")
    };
    let third: Vec<&str> = lines[2].split(',').collect();
    let (t, r) = (third[0], third[1]);
    let mut damaged = lines.clone();
    damaged[0] = with(&lines[0], 3, "inf");
    damaged[1] = with(&lines[1], 1, "7");
    damaged.push(with(&lines[2], 3, "12345"));
    damaged.push("%%% not a line %%%".into());
    std::fs::write(&log, damaged.join("\n") + "\n").unwrap();
    let (code, _, err) = space_battle(dir.path());
    assert_eq!(code, Some(0), "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("reevaluations.csv"))
        .unwrap_or_else(|| panic!("no warning names the log: {err}"));
    for needle in [
        "line 1: fitness inf",
        "line 2: repeat 7: the experiment re-evaluates 3 times",
        &format!("line 7: trial {t}, repeat {r} again with another fitness than line 3"),
        &format!("line 3: trial {t}, repeat {r} logged twice with different fitnesses"),
        "line 8: not trial,repeat,point,fitness",
    ] {
        assert!(warning.contains(needle), "lacks `{needle}`: {warning}");
    }
    assert_eq!(sorted_lines(&log), clean);
    assert_eq!(read(&home.join("summary.md")), summary);
}

// ---------------------------------------------------------------------------------
// Self-play samples and networks.

fn selfplay(out: &Path) -> (Option<i32>, String, String) {
    run(playtune()
        .args([
            "selfplay",
            "--agents",
            "random,random",
            "--games",
            "8",
            "--set",
            "turns=6",
            "-q",
            "--out",
        ])
        .arg(out))
}

/// Each record's byte range in a version 2 sample file.
fn records(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let magic = b"playtune-samples 2\n".len();
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let mut at = magic + 4 + u32_at(magic) + 8;
    let mut out = Vec::new();
    while at < bytes.len() {
        let end = at + 16 + u32_at(at + 4);
        out.push(at..end);
        at = end;
    }
    out
}

fn games_of(path: &Path) -> Vec<(u32, u8, Vec<u8>, Vec<u8>)> {
    let mut g: Vec<_> = SampleFile::read(path)
        .unwrap()
        .games
        .into_iter()
        .map(|g| (g.game, g.winner, g.movers, g.counts))
        .collect();
    g.sort();
    g
}

/// One flipped bit in the first record costs that game only; a cut file keeps the
/// games before the cut; a copied record is named and left out; a winner no seat can
/// be (with a valid check) is refused. `selfplay` plays the lost games again and the
/// file's games are the undamaged ones; `train-eval` names what it leaves out.
#[test]
fn sample_file_flip_truncate_duplicate_and_impossible_values() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let (code, _, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    let path = out.join("samples.bin");
    let clean = std::fs::read(&path).unwrap();
    let clean_games = games_of(&path);
    assert_eq!(clean_games.len(), 8);
    let recs = records(&clean);
    assert_eq!(recs.len(), 8);

    // A flipped bit in the first record: train-eval names it, selfplay replays it.
    let mut bytes = clean.clone();
    bytes[recs[0].start + 17] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    let (code, outp, err) = run(playtune()
        .arg("train-eval")
        .arg(&out)
        .args([
            "--hidden",
            "8",
            "--epochs",
            "1",
            "--validation",
            "0.3",
            "-q",
        ])
        .arg("--out")
        .arg(dir.path().join("m.evalnet"))
        .arg("--runs-dir")
        .arg(dir.path().join("runs"))
        .arg("--plots-dir")
        .arg(dir.path().join("plots")));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("samples.bin: left out 1 damaged game record(s)")
            && err.contains(&format!("byte {}", recs[0].start))
            && err.contains("check does not match"),
        "{err}"
    );
    // Trained on the 7 intact games: 12 samples each.
    assert!(outp.contains("kept epoch"), "{outp}");
    let samples: usize = clean_games.iter().skip(1).map(|g| g.2.len()).sum();
    let number_before = |w: &str| -> usize {
        let before = outp.split(w).next().unwrap();
        before.rsplit([' ', '(']).next().unwrap().parse().unwrap()
    };
    let trained = number_before(" training and ") + number_before(" validation samples");
    assert_eq!(trained, samples, "{outp}");
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(outp.contains("1 played now, 7 kept"), "{outp}");
    assert!(err.contains(&format!("byte {}", recs[0].start)), "{err}");
    assert_eq!(games_of(&path), clean_games);

    // Cut in the middle of the fourth record: three games kept, five played again.
    std::fs::write(&path, &clean[..recs[3].start + 30]).unwrap();
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(outp.contains("5 played now, 3 kept"), "{outp}");
    assert_eq!(games_of(&path), clean_games);

    // A record copied to the end: named, left out, nothing played.
    let mut bytes = clean.clone();
    bytes.extend_from_slice(&clean[recs[2].clone()]);
    std::fs::write(&path, &bytes).unwrap();
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(outp.contains("0 played now, 8 kept"), "{outp}");
    assert!(err.contains("again, the same samples"), "{err}");
    assert_eq!(games_of(&path), clean_games);
    assert_eq!(std::fs::read(&path).unwrap().len(), clean.len());

    // A winner beyond the two seats, its check made to match: refused, replayed.
    let mut bytes = clean.clone();
    let r = recs[5].clone();
    bytes[r.start + 12] = 7;
    let check = playtune::damage::fnv1a(&bytes[r.start + 4..r.end - 8]);
    bytes[r.end - 8..r.end].copy_from_slice(&check.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let (code, outp, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("winner 7, but the game has 2 seats"), "{err}");
    assert!(outp.contains("1 played now, 7 kept"), "{outp}");
    assert_eq!(games_of(&path), clean_games);
}

/// A sample file whose encoding caps a feature at 0 is refused by every reader
/// (train-eval would otherwise write a network no loader takes).
#[test]
fn a_sample_header_with_a_cap_of_zero_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let (code, _, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    let path = out.join("samples.bin");
    let file = SampleFile::read(&path).unwrap();
    let clean = std::fs::read(&path).unwrap();
    let mut header = file.header.clone();
    header.encoding.features[3].cap = 0;
    let text = ron::ser::to_string_pretty(&header, ron::ser::PrettyConfig::default()).unwrap();
    let mut bytes = b"playtune-samples 2\n".to_vec();
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    bytes.extend_from_slice(&playtune::damage::fnv1a(text.as_bytes()).to_le_bytes());
    bytes.extend_from_slice(&clean[records(&clean)[0].start..]);
    std::fs::write(&path, &bytes).unwrap();
    refused(
        playtune()
            .arg("train-eval")
            .arg(&out)
            .args(["--hidden", "8", "--epochs", "1", "-q"])
            .arg("--out")
            .arg(dir.path().join("m.evalnet"))
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots")),
        &["samples.bin: header", "has a cap of 0"],
    );
    assert!(!dir.path().join("m.evalnet").exists());
    refused(
        playtune()
            .args([
                "selfplay",
                "--agents",
                "random,random",
                "--games",
                "8",
                "--set",
                "turns=6",
                "-q",
                "--out",
            ])
            .arg(&out),
        &["samples.bin: header", "cap of 0"],
    );
}

/// The bytes of a network file as `Network::save` lays them out, unchecked.
fn network_bytes(header: &playtune::learn::network::NetworkHeader, floats: &[f32]) -> Vec<u8> {
    let text = ron::ser::to_string_pretty(header, ron::ser::PrettyConfig::default()).unwrap();
    let mut bytes = b"playtune-evalnet 1\n".to_vec();
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    for x in floats {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes
}

/// NaN and infinite weights, a hidden layer of size 0 and a feature cap of 0 are
/// refused by the loader every command uses, naming the file; training that
/// diverges writes no network.
#[test]
fn network_files_are_checked_on_read_and_never_written_broken() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d");
    let (code, _, err) = selfplay(&out);
    assert_eq!(code, Some(0), "{err}");
    let train = |model: &Path, rate: &str| {
        run(playtune()
            .arg("train-eval")
            .arg(&out)
            .args([
                "--hidden",
                "8",
                "--epochs",
                "2",
                "--validation",
                "0.3",
                "--learning-rate",
                rate,
                "-q",
            ])
            .arg("--out")
            .arg(model)
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--plots-dir")
            .arg(dir.path().join("plots")))
    };
    let model = dir.path().join("m.evalnet");
    let (code, _, err) = train(&model, "0.001");
    assert_eq!(code, Some(0), "{err}");
    let diverged = dir.path().join("diverged.evalnet");
    let (code, _, err) = train(&diverged, "1e30");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("lower --learning-rate"), "{err}");
    assert!(!diverged.exists(), "a diverged network was written");

    let net = playtune::learn::Network::load(&model).unwrap();
    let floats: Vec<f32> = net
        .layers
        .iter()
        .flat_map(|l| l.weights.iter().chain(&l.biases).copied())
        .collect();
    let tournament = |file: &Path| {
        let mut c = playtune();
        c.args([
            "tournament",
            "--game",
            "strategy",
            "--games",
            "1",
            "--set",
            "turns=3",
        ])
        .arg("--agents")
        .arg(format!(
            "hps(leaf=learned:{},budget=50),random",
            file.display()
        ));
        c
    };
    let bad = dir.path().join("bad.evalnet");
    for (k, v, needle) in [
        (10usize, f32::NAN, "layer 0: weight 10 is NaN"),
        (3, f32::INFINITY, "layer 0: weight 3 is inf"),
        (
            floats.len() - 1,
            f32::NEG_INFINITY,
            "layer 1: bias 0 is -inf",
        ),
    ] {
        let mut f = floats.clone();
        f[k] = v;
        std::fs::write(&bad, network_bytes(&net.header, &f)).unwrap();
        refused(&mut tournament(&bad), &["bad.evalnet", needle]);
    }
    let mut header = net.header.clone();
    header.hidden = vec![0];
    std::fs::write(&bad, network_bytes(&header, &[])).unwrap();
    refused(
        &mut tournament(&bad),
        &["bad.evalnet", "hidden layer 0 has 0 units"],
    );
    let mut header = net.header.clone();
    header.encoding.features[0].cap = 0;
    std::fs::write(&bad, network_bytes(&header, &floats)).unwrap();
    refused(&mut tournament(&bad), &["bad.evalnet", "has a cap of 0"]);
    // The good one still plays.
    let (code, _, err) = run(&mut tournament(&model));
    assert_eq!(code, Some(0), "{err}");
}

// ---------------------------------------------------------------------------------
// Run folders.

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

// ---------------------------------------------------------------------------------
// Issue 65 (reliability 6).

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
