//! Tests of training: the split by game, the fast pass against candle's, what a run writes.

use super::*;
use candle_core::DType;
use playtune_harness::learn::network::Scratch;
use playtune_harness::learn::samples::{GameSamples, SampleHeader};

/// The logits candle computes for `rows` of counts (for tests that compare the
/// allocation-free pass with candle's).
fn candle_logits(network: &Network, counts: &[Vec<u8>]) -> Result<Vec<f32>, Error> {
    let device = Device::Cpu;
    let run = || -> candle_core::Result<Vec<f32>> {
        let params = Params {
            weights: network
                .layers
                .iter()
                .map(|l| {
                    Var::from_tensor(&Tensor::from_slice(
                        &l.weights,
                        (l.inputs, l.outputs),
                        &device,
                    )?)
                })
                .collect::<candle_core::Result<_>>()?,
            biases: network
                .layers
                .iter()
                .map(|l| Var::from_tensor(&Tensor::from_slice(&l.biases, l.outputs, &device)?))
                .collect::<candle_core::Result<_>>()?,
        };
        let width = network.header.encoding.width();
        let mut x = vec![0.0f32; counts.len() * width];
        let mut active = Vec::new();
        for (r, c) in counts.iter().enumerate() {
            network.header.encoding.active_inputs(c, &mut active);
            for &a in &active {
                x[r * width + a as usize] = 1.0;
            }
        }
        let x = Tensor::from_vec(x, (counts.len(), width), &device)?.to_dtype(DType::F32)?;
        params.forward(&x)?.to_vec1()
    };
    run().map_err(candle_error)
}

/// Games whose winner is written in the counts: feature 1 says who wins, with
/// noise in 10% of the samples; feature 2 is noise.
fn toy_data(games: u32) -> SampleFile {
    let encoding = Encoding::new(
        "toy-v1",
        [("p".into(), 2), ("lead".into(), 3), ("noise".into(), 6)],
    );
    let mut rng = rng_from_seed(5);
    let list = (0..games)
        .map(|g| {
            let winner = (g % 2) as u8;
            let n = 10;
            let mut movers = Vec::new();
            let mut counts = Vec::new();
            for i in 0..n {
                let mover = (i % 2) as u8;
                let mut lead = if winner == 0 { 0 } else { 2 };
                if rng.random::<f64>() < 0.1 {
                    lead = 1;
                }
                movers.push(mover);
                counts.extend([mover, lead, rng.random_range(0..6u8)]);
            }
            GameSamples {
                game: g,
                winner,
                movers,
                counts,
            }
        })
        .collect();
    SampleFile::from_parts(
        SampleHeader {
            game: "toy".into(),
            settings: Vec::new(),
            agents: Vec::new(),
            budget: None,
            seed: 0,
            encoding,
        },
        list,
    )
}

fn small() -> TrainConfig {
    TrainConfig {
        hidden: vec![16, 16],
        epochs: 30,
        patience: 3,
        batch: 32,
        learning_rate: 1e-2,
        validation: 0.2,
        seed: 3,
        mirror: false,
    }
}

#[test]
fn mirrored_training_adds_the_exchanged_training_samples_only() {
    // The toy encoding with seat names: `lead` is seat 0's lead, its twin seat 1's.
    let mut data = toy_data(40);
    data.header.encoding = Encoding::new(
        "toy-seats",
        [
            ("to_move".into(), 2),
            ("p0_lead".into(), 6),
            ("p1_lead".into(), 6),
        ],
    );
    let swap = data.header.encoding.seat_swap().unwrap();
    let plain = flatten(&data, &small(), None);
    let mirrored = flatten(&data, &small(), Some(&swap));
    assert_eq!(mirrored.train.len(), 2 * plain.train.len());
    assert_eq!(mirrored.validation.len(), plain.validation.len());
    // Each training sample is followed by its exchange, with the same target.
    let len = plain.len;
    let first = mirrored.train[0];
    let (a, b) = (first * len, (first + 1) * len);
    let mut exchanged = vec![0; len];
    swap.apply(&mirrored.counts[a..b], &mut exchanged);
    assert_eq!(&mirrored.counts[b..b + len], &exchanged[..]);
    assert_eq!(mirrored.targets[first], mirrored.targets[first + 1]);
    // An encoding without seats cannot be mirrored.
    let config = TrainConfig {
        mirror: true,
        ..small()
    };
    let e = train(&toy_data(20), "toy", &config, None, &mut |_| {}).unwrap_err();
    assert!(matches!(e, Error::NoSeatSwap(_)), "{e}");
}

#[test]
fn merged_files_keep_the_first_file_as_it_was() {
    let (a, b) = (toy_data(30), toy_data(20));
    let merged = SampleFile::merge(vec![("a".into(), a.clone()), ("b".into(), b)]).unwrap();
    assert_eq!(merged.games.len(), 50);
    assert_eq!(&merged.games[..30], &a.games[..]);
    let indices: std::collections::BTreeSet<u32> = merged.games.iter().map(|g| g.game).collect();
    assert_eq!(indices.len(), 50, "every game index distinct");
    // The first file's split is the one it has alone.
    let alone = flatten(&a, &small(), None);
    let together = flatten(&merged, &small(), None);
    assert_eq!(
        &together.validation[..alone.validation.len()],
        &alone.validation[..]
    );
    let mut other = toy_data(5);
    other.header.encoding.name = "other".into();
    assert!(SampleFile::merge(vec![("a".into(), a), ("o".into(), other)]).is_err());
}

#[test]
fn a_learnable_winner_is_learned_and_kept_from_the_best_epoch() {
    let data = toy_data(200);
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("best.evalnet");
    let trained = train(&data, "toy", &small(), Some(&checkpoint), &mut |_| {}).unwrap();
    // The last checkpoint written is the best epoch's network.
    let saved = Network::load(&checkpoint).unwrap();
    assert_eq!(saved.layers, trained.network.layers);
    assert_eq!(
        saved.header.training.epoch,
        trained.network.header.training.epoch
    );
    let t = &trained.network.header.training;
    // The signal decides 90% of the samples; the rest is a coin (the lead says 1).
    assert!(t.validation_accuracy > 0.85, "{t:?}");
    let best = trained
        .epochs
        .iter()
        .map(|e| e.validation_loss)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(t.validation_loss, best);
    assert!(trained.epochs.len() >= t.epoch);
    assert_eq!(t.train_samples + t.validation_samples, 2000);
}

#[test]
fn the_split_is_by_game() {
    let data = toy_data(50);
    let flat = flatten(&data, &small(), None);
    let game_of = |i: usize| i / 10;
    let train: std::collections::BTreeSet<usize> = flat.train.iter().map(|&i| game_of(i)).collect();
    let validation: std::collections::BTreeSet<usize> =
        flat.validation.iter().map(|&i| game_of(i)).collect();
    assert!(train.is_disjoint(&validation));
    assert_eq!(train.len() + validation.len(), 50);
    assert!(!validation.is_empty());
}

#[test]
fn the_fast_pass_equals_candles() {
    let data = toy_data(40);
    let trained = train(
        &data,
        "toy",
        &TrainConfig {
            epochs: 2,
            ..small()
        },
        None,
        &mut |_| {},
    )
    .unwrap();
    let net = &trained.network;
    let rows: Vec<Vec<u8>> = vec![vec![0, 0, 5], vec![1, 2, 0], vec![1, 1, 3], vec![0, 2, 9]];
    let slow = candle_logits(net, &rows).unwrap();
    let mut scratch = Scratch::default();
    let mut active = Vec::new();
    for (row, s) in rows.iter().zip(&slow) {
        net.header.encoding.active_inputs(row, &mut active);
        let fast = net.logit(&active, &mut scratch);
        assert!((fast - s).abs() < 1e-4, "{fast} vs {s}");
    }
}

#[test]
fn bad_settings_are_refused() {
    let data = toy_data(20);
    for (config, needle) in [
        (
            TrainConfig {
                epochs: 0,
                ..small()
            },
            "epochs: 0",
        ),
        (
            TrainConfig {
                batch: 0,
                ..small()
            },
            "batch: 0",
        ),
        (
            TrainConfig {
                hidden: vec![4, 0],
                ..small()
            },
            "hidden:",
        ),
        (
            TrainConfig {
                learning_rate: -1.0,
                ..small()
            },
            "learning_rate:",
        ),
        (
            TrainConfig {
                validation: 1.0,
                ..small()
            },
            "validation:",
        ),
    ] {
        let e = train(&data, "toy", &config, None, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle), "{e}");
    }
}
