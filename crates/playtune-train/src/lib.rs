//! Training a value network on a sample file with candle on the CPU.
//!
//! The games are split, not the samples: every sample of a game goes to training or
//! to validation (samples of one game are strongly correlated, and a split by sample
//! would measure memory, not prediction). Each epoch shuffles the training samples,
//! takes Adam steps on the binary cross-entropy of "the player to move wins" (a game
//! without a single winner is a target of 1/2), then measures loss and accuracy on
//! both sets. Training stops when the validation loss has not improved for `patience`
//! epochs, and the network of the best epoch is kept.
//!
//! Weights are initialised and samples shuffled from the seed, so a run is repeatable
//! on one machine; candle's matrix products may add in another order with another
//! thread count, which moves the last digits.

use candle_core::{Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use playtune_harness::learn::Error;
use playtune_harness::learn::encoding::{Encoding, SeatSwap};
use playtune_harness::learn::network::{Layer, Network, NetworkHeader, TrainingSummary};
use playtune_harness::learn::samples::SampleFile;
use playtune_optim::rng::{derive_seed, rng_from_seed};
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::Serialize;

/// Settings of a training run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainConfig {
    /// Hidden layer sizes (the paper's: 512, 512; the default 64, 64 is as accurate
    /// and far cheaper).
    pub hidden: Vec<usize>,
    /// Most epochs.
    pub epochs: usize,
    /// Epochs without a better validation loss before stopping.
    pub patience: usize,
    /// Samples per gradient step.
    pub batch: usize,
    /// Adam's learning rate (default 1e-4; the paper's is 1e-5).
    pub learning_rate: f64,
    /// Share of the games held out for validation.
    pub validation: f64,
    /// The seed of the initial weights and of the shuffling.
    pub seed: u64,
    /// Also train on every training sample with the seats exchanged (the encoding's
    /// [`Encoding::seat_swap`]); validation keeps the recorded samples only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            // Measured on 2,450 strategy self-play games (docs/learned-eval.md, "Network
            // size"): 32-32 to 512-512 reach the same validation accuracy (0.749 to
            // 0.753), and 64-64 values a leaf in a quarter of a playout's time where the
            // paper's 512-512 takes four playouts' time.
            hidden: vec![64, 64],
            epochs: 40,
            patience: 4,
            batch: 256,
            // Measured on 3,400 strategy self-play games, 512-512 (README, "Learned
            // state evaluation"): 1e-4 reached a lower validation loss than 1e-3,
            // which overfits after one epoch, and than the paper's 1e-5.
            learning_rate: 1e-4,
            validation: 0.1,
            seed: 1,
            mirror: false,
        }
    }
}

impl TrainConfig {
    /// Checks the settings; an error names the setting as this struct does.
    pub fn check(&self) -> Result<(), Error> {
        let refuse = |setting, value: String, expected: &str| {
            Err(Error::Setting {
                setting,
                value,
                expected: expected.into(),
            })
        };
        if self.epochs == 0 {
            return refuse("epochs", "0".into(), "train at least one epoch");
        }
        if self.batch == 0 {
            return refuse("batch", "0".into(), "a batch needs at least one sample");
        }
        if self.hidden.contains(&0) {
            return refuse(
                "hidden",
                format!("{:?}", self.hidden),
                "every layer needs at least one unit",
            );
        }
        if !(self.learning_rate > 0.0 && self.learning_rate.is_finite()) {
            return refuse(
                "learning_rate",
                self.learning_rate.to_string(),
                "give a positive number",
            );
        }
        if !(0.0..1.0).contains(&self.validation) {
            return refuse(
                "validation",
                self.validation.to_string(),
                "give a share of the games from 0 to below 1",
            );
        }
        Ok(())
    }
}

/// One epoch's measurements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpochRecord {
    /// From 1.
    pub epoch: usize,
    /// Mean loss (binary cross-entropy) on the training samples.
    pub train_loss: f64,
    /// Share of training samples predicted right.
    pub train_accuracy: f64,
    /// Mean loss on the validation samples.
    pub validation_loss: f64,
    /// Share of validation samples predicted right.
    pub validation_accuracy: f64,
    /// Seconds since training began.
    pub seconds: f64,
}

/// A finished training run: the best epoch's network and every epoch's record.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The best epoch's network.
    pub network: Network,
    /// Every epoch's record, in order.
    pub epochs: Vec<EpochRecord>,
}

/// Samples flattened for training: counts back to back, targets, and which set each
/// belongs to.
struct Flat {
    encoding: Encoding,
    len: usize,
    counts: Vec<u8>,
    targets: Vec<f32>,
    train: Vec<usize>,
    validation: Vec<usize>,
    train_games: usize,
    validation_games: usize,
}

/// Seed stream of the validation split.
const SPLIT: u64 = 0x5350_4c49;
/// Seed streams of initial weights and of each epoch's shuffle.
const INIT: u64 = 0x494e_4954;
const SHUFFLE: u64 = 0x5348_5546;

fn flatten(data: &SampleFile, config: &TrainConfig, swap: Option<&SeatSwap>) -> Flat {
    let len = data.header.encoding.len();
    let mut flat = Flat {
        encoding: data.header.encoding.clone(),
        len,
        counts: Vec::with_capacity(data.samples() * len),
        targets: Vec::with_capacity(data.samples()),
        train: Vec::new(),
        validation: Vec::new(),
        train_games: 0,
        validation_games: 0,
    };
    // Sorted by game index, so that the order in which games finished (which depends
    // on threads) does not change training.
    let mut games: Vec<&playtune_harness::learn::samples::GameSamples> =
        data.games.iter().collect();
    games.sort_by_key(|g| g.game);
    for g in games {
        let draw = derive_seed(config.seed, &[SPLIT, u64::from(g.game)]) as f64 / u64::MAX as f64;
        let held_out = draw < config.validation;
        if held_out {
            flat.validation_games += 1;
        } else {
            flat.train_games += 1;
        }
        for i in 0..g.len() {
            let index = flat.targets.len();
            flat.targets.push(g.target(i));
            flat.counts
                .extend_from_slice(&g.counts[i * len..(i + 1) * len]);
            if held_out {
                flat.validation.push(index);
            } else {
                flat.train.push(index);
                if let Some(swap) = swap {
                    // The same state with the seats exchanged: the mover and the
                    // winner exchange too, so the target stays.
                    let at = flat.counts.len();
                    flat.counts.resize(at + len, 0);
                    let (before, after) = flat.counts.split_at_mut(at);
                    swap.apply(&before[at - len..], after);
                    flat.train.push(flat.targets.len());
                    flat.targets.push(g.target(i));
                }
            }
        }
    }
    flat
}

fn candle_error(e: candle_core::Error) -> Error {
    Error::Candle(e.to_string())
}

/// The network's parameters as candle variables, `inputs x outputs` like [`Layer`].
struct Params {
    weights: Vec<Var>,
    biases: Vec<Var>,
}

impl Params {
    /// Uniform in `±1/sqrt(inputs)` (the usual default for dense layers).
    fn init(sizes: &[usize], seed: u64, device: &Device) -> candle_core::Result<Params> {
        let mut rng = rng_from_seed(derive_seed(seed, &[INIT]));
        let mut weights = Vec::new();
        let mut biases = Vec::new();
        for w in sizes.windows(2) {
            let bound = 1.0 / (w[0] as f32).sqrt();
            let mut draw = |n: usize| -> Vec<f32> {
                (0..n).map(|_| rng.random_range(-bound..bound)).collect()
            };
            weights.push(Var::from_tensor(&Tensor::from_vec(
                draw(w[0] * w[1]),
                (w[0], w[1]),
                device,
            )?)?);
            biases.push(Var::from_tensor(&Tensor::from_vec(
                draw(w[1]),
                w[1],
                device,
            )?)?);
        }
        Ok(Params { weights, biases })
    }

    fn vars(&self) -> Vec<Var> {
        self.weights.iter().chain(&self.biases).cloned().collect()
    }

    /// Logits of a batch `x` (rows of one-hot inputs), shape `(rows,)`.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let mut h = x.clone();
        let last = self.weights.len() - 1;
        for (k, (w, b)) in self.weights.iter().zip(&self.biases).enumerate() {
            h = h.matmul(w.as_tensor())?.broadcast_add(b.as_tensor())?;
            if k < last {
                h = h.relu()?;
            }
        }
        h.squeeze(1)
    }

    /// The weights as plain layers.
    fn layers(&self) -> candle_core::Result<Vec<Layer>> {
        self.weights
            .iter()
            .zip(&self.biases)
            .map(|(w, b)| {
                let (inputs, outputs) = w.as_tensor().dims2()?;
                Ok(Layer {
                    inputs,
                    outputs,
                    weights: w.as_tensor().flatten_all()?.to_vec1()?,
                    biases: b.as_tensor().to_vec1()?,
                })
            })
            .collect()
    }
}

/// Mean binary cross-entropy of logits `z` against targets `t`, computed stably as
/// `max(z, 0) - t z + ln(1 + e^-|z|)`.
fn bce_with_logits(z: &Tensor, t: &Tensor) -> candle_core::Result<Tensor> {
    let softplus = (z.relu()? + z.abs()?.neg()?.exp()?.affine(1.0, 1.0)?.log()?)?;
    (softplus - (t * z)?)?.mean_all()
}

/// One-hot rows of the samples `rows`.
fn batch(
    flat: &Flat,
    encoding: &Encoding,
    rows: &[usize],
    device: &Device,
) -> candle_core::Result<(Tensor, Tensor)> {
    let width = encoding.width();
    let mut x = vec![0.0f32; rows.len() * width];
    let mut active = Vec::with_capacity(flat.len);
    for (r, &i) in rows.iter().enumerate() {
        encoding.active_inputs(&flat.counts[i * flat.len..(i + 1) * flat.len], &mut active);
        for &a in &active {
            x[r * width + a as usize] = 1.0;
        }
    }
    let t: Vec<f32> = rows.iter().map(|&i| flat.targets[i]).collect();
    Ok((
        Tensor::from_vec(x, (rows.len(), width), device)?,
        Tensor::from_vec(t, rows.len(), device)?,
    ))
}

/// Loss (mean over samples) and accuracy (over samples with a single winner: the
/// sign of the logit is the winner) of `rows`, without training.
fn measure(
    params: &Params,
    flat: &Flat,
    encoding: &Encoding,
    rows: &[usize],
    batch_size: usize,
    device: &Device,
) -> candle_core::Result<(f64, f64)> {
    let (mut loss, mut right, mut decided) = (0.0, 0usize, 0usize);
    for chunk in rows.chunks(batch_size.max(1)) {
        let (x, t) = batch(flat, encoding, chunk, device)?;
        let z = params.forward(&x)?.detach();
        loss += f64::from(bce_with_logits(&z, &t)?.to_scalar::<f32>()?) * chunk.len() as f64;
        let (z, t): (Vec<f32>, Vec<f32>) = (z.to_vec1()?, t.to_vec1()?);
        for (z, t) in z.iter().zip(&t) {
            if *t != 0.5 {
                decided += 1;
                right += usize::from((*z > 0.0) == (*t > 0.5));
            }
        }
    }
    let n = rows.len().max(1) as f64;
    Ok((loss / n, right as f64 / decided.max(1) as f64))
}

/// Trains a network on `data` (read from `data_name`, recorded in the network).
/// `on_epoch` sees every epoch's record as it finishes; the best network so far is
/// written to `checkpoint`, if given, each time an epoch improves on it.
pub fn train(
    data: &SampleFile,
    data_name: &str,
    config: &TrainConfig,
    checkpoint: Option<&std::path::Path>,
    on_epoch: &mut dyn FnMut(&EpochRecord),
) -> Result<Trained, Error> {
    config.check()?;
    let encoding = &data.header.encoding;
    playtune_harness::learn::samples::check_encoding(encoding).map_err(|problem| {
        Error::Encoding {
            data: data_name.to_string(),
            problem,
        }
    })?;
    let swap = if config.mirror {
        Some(
            encoding
                .seat_swap()
                .ok_or_else(|| Error::NoSeatSwap(encoding.name.clone()))?,
        )
    } else {
        None
    };
    let flat = flatten(data, config, swap.as_ref());
    if flat.train.is_empty() {
        return Err(Error::NoTrainingSamples {
            data: data_name.to_string(),
            games: data.games.len(),
        });
    }
    if flat.validation.is_empty() {
        return Err(Error::NoValidationGames {
            data: data_name.to_string(),
            share: config.validation,
            games: data.games.len(),
        });
    }
    let device = Device::Cpu;
    let mut sizes = vec![encoding.width()];
    sizes.extend(&config.hidden);
    sizes.push(1);
    let params = Params::init(&sizes, config.seed, &device).map_err(candle_error)?;
    let mut adam = AdamW::new(
        params.vars(),
        ParamsAdamW {
            lr: config.learning_rate,
            weight_decay: 0.0,
            ..ParamsAdamW::default()
        },
    )
    .map_err(candle_error)?;
    let start = std::time::Instant::now();
    let mut records: Vec<EpochRecord> = Vec::new();
    let mut best: Option<(f64, usize, Vec<Layer>)> = None;
    let mut order = flat.train.clone();
    for epoch in 1..=config.epochs {
        order.shuffle(&mut rng_from_seed(derive_seed(
            config.seed,
            &[SHUFFLE, epoch as u64],
        )));
        let (mut loss_sum, mut right, mut decided) = (0.0, 0usize, 0usize);
        for rows in order.chunks(config.batch) {
            let mut step = || -> candle_core::Result<(f64, Vec<f32>, Vec<f32>)> {
                let (x, t) = batch(&flat, encoding, rows, &device)?;
                let z = params.forward(&x)?;
                let loss = bce_with_logits(&z, &t)?;
                adam.backward_step(&loss)?;
                Ok((
                    f64::from(loss.to_scalar::<f32>()?),
                    z.detach().to_vec1()?,
                    t.to_vec1()?,
                ))
            };
            let (loss, z, t) = step().map_err(candle_error)?;
            loss_sum += loss * rows.len() as f64;
            for (z, t) in z.iter().zip(&t) {
                if *t != 0.5 {
                    decided += 1;
                    right += usize::from((*z > 0.0) == (*t > 0.5));
                }
            }
        }
        let (validation_loss, validation_accuracy) =
            measure(&params, &flat, encoding, &flat.validation, 4096, &device)
                .map_err(candle_error)?;
        let record = EpochRecord {
            epoch,
            train_loss: loss_sum / order.len() as f64,
            train_accuracy: right as f64 / decided.max(1) as f64,
            validation_loss,
            validation_accuracy,
            seconds: start.elapsed().as_secs_f64(),
        };
        on_epoch(&record);
        records.push(record);
        if !validation_loss.is_finite() {
            return Err(Error::Diverged {
                epoch,
                loss: validation_loss,
            });
        }
        if best.as_ref().is_none_or(|b| validation_loss < b.0) {
            let layers = params.layers().map_err(candle_error)?;
            // Saved at every improvement, so an interrupted run keeps its best epoch.
            if let Some(path) = checkpoint {
                network_of(data_name, config, &flat, &records, epoch, layers.clone())?
                    .save(path)?;
            }
            best = Some((validation_loss, epoch, layers));
        } else if best
            .as_ref()
            .is_some_and(|b| epoch - b.1 >= config.patience)
        {
            break;
        }
    }
    let (_, best_epoch, layers) = best.expect("at least one epoch ran");
    Ok(Trained {
        network: network_of(data_name, config, &flat, &records, best_epoch, layers)?,
        epochs: records,
    })
}

/// The network of epoch `best_epoch`'s `layers`, its header saying how it was trained.
fn network_of(
    data_name: &str,
    config: &TrainConfig,
    flat: &Flat,
    records: &[EpochRecord],
    best_epoch: usize,
    layers: Vec<Layer>,
) -> Result<Network, Error> {
    let kept = &records[best_epoch - 1];
    let header = NetworkHeader {
        encoding: flat.encoding.clone(),
        hidden: config.hidden.clone(),
        training: TrainingSummary {
            data: data_name.to_string(),
            train_games: flat.train_games,
            validation_games: flat.validation_games,
            train_samples: flat.train.len(),
            validation_samples: flat.validation.len(),
            epoch: best_epoch,
            epochs_run: records.len(),
            validation_loss: kept.validation_loss,
            validation_accuracy: kept.validation_accuracy,
        },
    };
    // The check every loader makes: a network that would not load is not written.
    Network::new(header, layers).map_err(|e| Error::Unusable(e.to_string()))
}

#[cfg(test)]
mod tests;
