//! Learned state evaluation through the real binary: self-play (resume, thread-count
//! independence), training, the network as an agent setting, and every kind of bad
//! input; and a statistical check that what is learned from real self-play predicts
//! the winner.

use crate::common;
use common::playtune;

use playtune::learn::network::{Layer, Network, NetworkHeader, TrainingSummary};
use playtune::learn::samples::SampleFile;
use playtune::learn::{Encoding, TrainConfig};
use predicates::prelude::*;
use std::path::Path;
use tempfile::TempDir;

/// A cheap self-play bot: HPS with playouts at a small budget, on short games.
const BOT: &str = "hps(leaf=playout,budget=1500),hps(leaf=playout,budget=1500)";

fn selfplay(out: &Path, games: usize, threads: &str) -> assert_cmd::assert::Assert {
    selfplay_seeded(out, games, threads, 5)
}

fn selfplay_seeded(
    out: &Path,
    games: usize,
    threads: &str,
    seed: u64,
) -> assert_cmd::assert::Assert {
    playtune()
        .env("RAYON_NUM_THREADS", threads)
        .args([
            "selfplay",
            "--agents",
            BOT,
            "--set",
            "level=any",
            "--set",
            "turns=15",
        ])
        .args([
            "--games",
            &games.to_string(),
            "--seed",
            &seed.to_string(),
            "-q",
            "--out",
        ])
        .arg(out)
        .assert()
}

/// The games of a sample file, in game order.
fn games(dir: &Path) -> Vec<playtune::learn::GameSamples> {
    let mut g = SampleFile::read(&dir.join("samples.bin")).unwrap().games;
    g.sort_by_key(|g| g.game);
    g
}

#[test]
fn selfplay_resumes_and_does_not_depend_on_threads() {
    let tmp = TempDir::new().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    selfplay(&a, 4, "2").success();
    selfplay(&a, 6, "2")
        .success()
        .stdout(predicate::str::contains("6 games (2 played now, 4 kept)"));
    // A game cut off mid-write is dropped and replayed.
    let path = a.join("samples.bin");
    let bytes = std::fs::read(&path).unwrap();
    let before = games(&a);
    std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
    selfplay(&a, 6, "2")
        .success()
        .stdout(predicate::str::contains("1 played now, 5 kept"));
    assert_eq!(games(&a), before);
    selfplay(&b, 6, "1").success();
    assert_eq!(
        games(&a),
        games(&b),
        "one thread and two give the same games"
    );
    let file = SampleFile::read(&path).unwrap();
    assert_eq!(file.header.encoding.name, "strategy-counts-v1");
    assert!(file.games.iter().all(|g| g.len() >= 2 && g.winner != 7));
    // Another seed into the same folder is refused, naming the difference.
    selfplay_seeded(&a, 6, "2", 6)
        .code(2)
        .stderr(predicate::str::contains("another seed"));
}

/// Two self-play folders train one network, and mirrored training adds each training
/// sample with the seats exchanged: twice the training samples, the same validation.
#[test]
fn training_takes_several_folders_and_mirrors_the_seats() {
    let tmp = TempDir::new().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    selfplay_seeded(&a, 8, "2", 5).success();
    selfplay_seeded(&b, 8, "2", 6).success();
    let train = |name: &str, data: &[&Path], extra: &[&str]| {
        let model = tmp.path().join(format!("{name}.evalnet"));
        playtune()
            .arg("train-eval")
            .args(data)
            .args([
                "--hidden",
                "8",
                "--epochs",
                "1",
                "--validation",
                "0.3",
                "-q",
            ])
            .args(extra)
            .arg("--out")
            .arg(&model)
            .arg("--runs-dir")
            .arg(tmp.path().join("runs"))
            .arg("--plots-dir")
            .arg(tmp.path().join("plots"))
            .assert()
            .success();
        Network::load(&model).unwrap().header.training
    };
    let one = train("one", &[&a], &[]);
    let both = train("both", &[&a, &b], &[]);
    let mirrored = train("mirrored", &[&a, &b], &["--mirror"]);
    assert_eq!(both.train_games + both.validation_games, 16);
    assert!(both.train_samples > one.train_samples);
    assert!(both.data.contains(" + "), "{}", both.data);
    assert_eq!(mirrored.train_samples, 2 * both.train_samples);
    assert_eq!(mirrored.validation_samples, both.validation_samples);
}

#[test]
fn a_trained_network_plays_as_an_agent_setting() {
    let tmp = TempDir::new().unwrap();
    let data = tmp.path().join("data");
    selfplay(&data, 12, "2").success();
    let model = tmp.path().join("m.evalnet");
    playtune()
        .arg("train-eval")
        .arg(&data)
        .args([
            "--hidden",
            "16,16",
            "--epochs",
            "3",
            "--validation",
            "0.3",
            "-q",
        ])
        .arg("--out")
        .arg(&model)
        .arg("--runs-dir")
        .arg(tmp.path().join("runs"))
        .arg("--plots-dir")
        .arg(tmp.path().join("plots"))
        .assert()
        .success()
        .stdout(predicate::str::contains("hps(leaf=learned:"));
    let csv = std::fs::read_to_string(tmp.path().join("runs/train-m/training.csv")).unwrap();
    assert!(csv.starts_with("epoch,train_loss,train_accuracy,validation_loss"));
    assert!(csv.lines().count() >= 2);
    assert!(tmp.path().join("plots/train-m/training.png").exists());
    let net = Network::load(&model).unwrap();
    assert_eq!(net.header.hidden, [16, 16]);
    for agent in [
        format!("hps(leaf=learned:{},budget=2000)", model.display()),
        format!("mcts(leaf=learned:{},budget=500)", model.display()),
        format!("p-mcts-pu(leaf=learned:{},budget=500)", model.display()),
        format!(
            "hps(leaf=learned:{},time=2,depth=6,budget=max)",
            model.display()
        ),
    ] {
        playtune()
            .args([
                "tournament",
                "--game",
                "strategy",
                "--games",
                "2",
                "--set",
                "turns=10",
            ])
            .arg("--agents")
            .arg(format!("{agent},rule"))
            .assert()
            .success()
            .stdout(predicate::str::contains("games of strategy"));
    }
}

#[test]
fn bad_input_is_named_with_exit_code_2() {
    let tmp = TempDir::new().unwrap();
    let fail = |args: &[&str], needle: &str| {
        playtune()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
    };
    let out = tmp.path().join("x");
    let out = out.to_str().unwrap();
    fail(
        &[
            "selfplay",
            "--game",
            "space-battle",
            "--agents",
            "random,random",
            "--out",
            out,
        ],
        "no state encoding",
    );
    fail(&["selfplay", "--games", "0", "--out", out], "--games 0");
    fail(
        &["selfplay", "--agents", "hps(leaf=nowhere)", "--out", out],
        "leaf=nowhere",
    );
    fail(
        &["train-eval", "/no/such/data", "--out", out],
        "no such self-play folder",
    );
    let junk = tmp.path().join("junk.bin");
    std::fs::write(&junk, b"hello").unwrap();
    let junk = junk.to_str().unwrap();
    fail(
        &["train-eval", junk, "--out", out],
        "not a playtune sample file",
    );
    let tournament = |agent: &str, needle: &str| {
        fail(
            &[
                "tournament",
                "--game",
                "strategy",
                "--games",
                "1",
                "--agents",
                &format!("{agent},rule"),
            ],
            needle,
        )
    };
    tournament("hps(leaf=learned:)", "name the network file");
    tournament(
        "hps(leaf=learned:/no/such.evalnet)",
        "cannot read the network",
    );
    tournament(
        &format!("hps(leaf=learned:{junk})"),
        "not a playtune evaluation network",
    );
    tournament("mcts(leaf=playout)", "expected rollout or learned:FILE");
    tournament("hps(time=-3)", "time=-3");
    // A network of another game's encoding is refused by name.
    let other = Encoding::new("other-game-v1", [("p".into(), 2)]);
    let net = Network::new(
        NetworkHeader {
            encoding: other,
            hidden: vec![2],
            training: TrainingSummary::default(),
        },
        vec![
            Layer {
                inputs: 2,
                outputs: 2,
                weights: vec![0.0; 4],
                biases: vec![0.0; 2],
            },
            Layer {
                inputs: 2,
                outputs: 1,
                weights: vec![0.0; 2],
                biases: vec![0.0],
            },
        ],
    )
    .unwrap();
    let path = tmp.path().join("other.evalnet");
    net.save(&path).unwrap();
    tournament(
        &format!("hps(leaf=learned:{})", path.display()),
        "uses the encoding `other-game-v1`",
    );
}

/// Trained on real self-play, the network predicts the winner of held-out games well
/// above chance, for every one of several training seeds. Labels that did not follow
/// the games (a bug in recording the winner or the player to move) give about 0.5.
#[test]
fn networks_learn_to_predict_the_winner_of_held_out_games() {
    let tmp = TempDir::new().unwrap();
    let data = tmp.path().join("data");
    selfplay(&data, 80, "2").success();
    let file = SampleFile::read(&data.join("samples.bin")).unwrap();
    for seed in 1..=3 {
        let config = TrainConfig {
            hidden: vec![32, 32],
            epochs: 12,
            patience: 3,
            batch: 64,
            learning_rate: 3e-3,
            validation: 0.25,
            seed,
            mirror: false,
        };
        let trained =
            playtune::learn::train::train(&file, "data", &config, None, &mut |_| {}).unwrap();
        let t = &trained.network.header.training;
        eprintln!(
            "seed {seed}: validation accuracy {:.3}",
            t.validation_accuracy
        );
        assert!(
            t.validation_accuracy > 0.6,
            "seed {seed}: validation accuracy {:.3} ({} samples)",
            t.validation_accuracy,
            t.validation_samples
        );
    }
}

/// The experiment end to end at the quick preset on short games: every table and
/// picture is written, and a second call finds every stage done.
#[test]
fn the_experiment_writes_both_tables_and_resumes() {
    let tmp = TempDir::new().unwrap();
    let run = || {
        playtune()
            .args([
                "experiment",
                "learned-eval",
                "--preset",
                "quick",
                "--set",
                "turns=10",
                "-q",
            ])
            .arg("--runs-dir")
            .arg(tmp.path().join("runs"))
            .arg("--plots-dir")
            .arg(tmp.path().join("plots"))
            .assert()
            .success()
    };
    run().stdout(predicate::str::contains("## Table III"));
    let dir = tmp.path().join("runs/learned-eval-quick");
    for file in [
        "summary.md",
        "speed.csv",
        "matches.csv",
        "training.csv",
        "strategy.evalnet",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
    assert!(
        tmp.path()
            .join("plots/learned-eval-quick/training.png")
            .exists()
    );
    let matches = std::fs::read_to_string(dir.join("matches.csv")).unwrap();
    assert_eq!(
        matches.lines().count(),
        7,
        "a header and 6 pairings:\n{matches}"
    );
    let before = std::fs::read(dir.join("matches.ron")).unwrap();
    let network = std::fs::read(dir.join("strategy.evalnet")).unwrap();
    run();
    assert_eq!(std::fs::read(dir.join("matches.ron")).unwrap(), before);
    assert_eq!(
        std::fs::read(dir.join("strategy.evalnet")).unwrap(),
        network
    );
}
