//! A trained value network: its file and its forward pass.
//!
//! The file is self-describing and checked on load:
//! ```text
//! playtune-evalnet 1\n
//! u32 LE: length of the header, then the header as RON (NetworkHeader: the encoding
//!   with its features, the hidden layer sizes, how it was trained)
//! per layer, f32 LE: weights (inputs x outputs, one row per input), then biases
//! ```
//!
//! The forward pass is written for one state at a time inside a search, without
//! allocating: the inputs are one-hot, so the first layer adds one weight row per
//! feature instead of multiplying a mostly-zero vector, and later layers skip the
//! inputs that the ReLU zeroed. Training uses candle (the crate `playtune-train`); a test checks
//! that both passes agree.

use super::Error;
use super::encoding::Encoding;
use serde::{Deserialize, Serialize};
use std::path::Path;

const MAGIC: &[u8] = b"playtune-evalnet 1\n";

/// How a network was trained (for the record; not needed to evaluate).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingSummary {
    /// The sample file it learned from.
    pub data: String,
    /// Games trained on.
    pub train_games: usize,
    /// Games held out for validation.
    pub validation_games: usize,
    /// Samples trained on.
    pub train_samples: usize,
    /// Samples held out for validation.
    pub validation_samples: usize,
    /// The epoch whose weights were kept (lowest validation loss), from 1.
    pub epoch: usize,
    /// Epochs run in all.
    pub epochs_run: usize,
    /// The kept epoch's validation loss (binary cross-entropy).
    pub validation_loss: f64,
    /// The kept epoch's share of validation samples predicted right.
    pub validation_accuracy: f64,
}

/// What a network file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetworkHeader {
    /// The encoding of its inputs.
    pub encoding: Encoding,
    /// Hidden layer sizes; the output is one logit: the player to move wins.
    pub hidden: Vec<usize>,
    /// How it was trained.
    pub training: TrainingSummary,
}

/// A dense layer, weights stored one row per input.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Inputs (rows of `weights`).
    pub inputs: usize,
    /// Outputs (columns of `weights`).
    pub outputs: usize,
    /// `inputs x outputs`, row `i` the weights from input `i`.
    pub weights: Vec<f32>,
    /// One bias per output.
    pub biases: Vec<f32>,
}

/// Buffers for [`Network::logit`], reused across calls.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
}

/// A feed-forward network over an encoding's one-hot inputs: ReLU hidden layers, one
/// output logit for "the player to move wins".
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// What the network says about itself.
    pub header: NetworkHeader,
    /// Its layers, input first; the last has one output.
    pub layers: Vec<Layer>,
}

impl Network {
    /// A network of `layers`, checked ([`Network::check`]).
    pub fn new(header: NetworkHeader, layers: Vec<Layer>) -> Result<Network, Error> {
        let network = Network { header, layers };
        network.check()?;
        Ok(network)
    }

    /// The one check of a network, on writing and on reading alike: an encoding with
    /// features, none capped at 0; hidden layers of at least one unit; layers that
    /// chain from the encoding's width through the hidden sizes to one output; every
    /// weight and bias a finite number.
    pub fn check(&self) -> Result<(), Error> {
        let header = &self.header;
        super::samples::check_encoding(&header.encoding).map_err(Error::Network)?;
        if let Some(k) = header.hidden.iter().position(|&h| h == 0) {
            return Err(Error::Network(format!("hidden layer {k} has 0 units")));
        }
        let mut sizes = vec![header.encoding.width()];
        sizes.extend(&header.hidden);
        sizes.push(1);
        let layers = &self.layers;
        if layers.len() + 1 != sizes.len() {
            return Err(Error::Network(format!(
                "{} layers for {} hidden sizes",
                layers.len(),
                header.hidden.len()
            )));
        }
        for (k, l) in layers.iter().enumerate() {
            if l.inputs != sizes[k]
                || l.outputs != sizes[k + 1]
                || Some(l.weights.len()) != l.inputs.checked_mul(l.outputs)
                || l.biases.len() != l.outputs
            {
                return Err(Error::Network(format!(
                    "layer {k} is {}x{} with {} weights, expected {}x{}",
                    l.inputs,
                    l.outputs,
                    l.weights.len(),
                    sizes[k],
                    sizes[k + 1]
                )));
            }
            if let Some(i) = l.weights.iter().position(|w| !w.is_finite()) {
                return Err(Error::Network(format!(
                    "layer {k}: weight {i} is {}, not a finite number",
                    l.weights[i]
                )));
            }
            if let Some(i) = l.biases.iter().position(|b| !b.is_finite()) {
                return Err(Error::Network(format!(
                    "layer {k}: bias {i} is {}, not a finite number",
                    l.biases[i]
                )));
            }
        }
        Ok(())
    }

    /// The logit that the player to move wins, from the indices of the inputs set to
    /// 1 ([`Encoding::active_inputs`]). Allocation-free once `scratch` has grown.
    ///
    /// On x86-64 CPUs with AVX2 the same code is compiled a second time for 8-wide
    /// vectors and chosen at run time (the crate is built for the baseline CPU). The
    /// sums are the same multiplications and additions in the same order (no fused
    /// multiply-add), so both paths give the same bits.
    pub fn logit(&self, active: &[u32], scratch: &mut Scratch) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been seen to support AVX2.
            return unsafe { self.logit_avx2(active, scratch) };
        }
        self.logit_portable(active, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn logit_avx2(&self, active: &[u32], scratch: &mut Scratch) -> f32 {
        self.logit_portable(active, scratch)
    }

    #[inline(always)]
    fn logit_portable(&self, active: &[u32], scratch: &mut Scratch) -> f32 {
        let Scratch { a, b } = scratch;
        let first = &self.layers[0];
        a.clear();
        a.extend_from_slice(&first.biases);
        for &i in active {
            let i = i as usize;
            let row = &first.weights[i * first.outputs..(i + 1) * first.outputs];
            for (h, w) in a.iter_mut().zip(row) {
                *h += w;
            }
        }
        for layer in &self.layers[1..] {
            for h in a.iter_mut() {
                *h = h.max(0.0);
            }
            b.clear();
            b.extend_from_slice(&layer.biases);
            for (i, &x) in a.iter().enumerate() {
                if x == 0.0 {
                    continue;
                }
                let row = &layer.weights[i * layer.outputs..(i + 1) * layer.outputs];
                for (h, w) in b.iter_mut().zip(row) {
                    *h += x * w;
                }
            }
            std::mem::swap(a, b);
        }
        a[0]
    }

    /// An untrained network over `encoding` with weights drawn uniformly from
    /// `±1/sqrt(inputs)` (seeded): it costs what a trained one of its size costs to
    /// evaluate, for benchmarks and tests.
    pub fn random(encoding: Encoding, hidden: &[usize], seed: u64) -> Network {
        use rand::RngExt;
        let mut rng = playtune_optim::rng::rng_from_seed(seed);
        let mut sizes = vec![encoding.width()];
        sizes.extend(hidden);
        sizes.push(1);
        let layers = sizes
            .windows(2)
            .map(|w| {
                let bound = 1.0 / (w[0] as f32).sqrt();
                Layer {
                    inputs: w[0],
                    outputs: w[1],
                    weights: (0..w[0] * w[1])
                        .map(|_| rng.random_range(-bound..bound))
                        .collect(),
                    biases: (0..w[1]).map(|_| rng.random_range(-bound..bound)).collect(),
                }
            })
            .collect();
        let header = NetworkHeader {
            encoding,
            hidden: hidden.to_vec(),
            training: TrainingSummary::default(),
        };
        Network::new(header, layers).expect("the sizes chain by construction")
    }

    /// Parameters in all layers.
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weights.len() + l.biases.len())
            .sum()
    }

    /// Writes the network to `path` (whole: a temporary file, then a rename), after
    /// the check [`Network::load`] makes: no file is written that would not load.
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        self.check()
            .map_err(|e| Error::File(format!("{}: not written: {e}", path.display())))?;
        let text = ron::ser::to_string_pretty(&self.header, ron::ser::PrettyConfig::default())
            .map_err(|e| Error::File(format!("{}: header: {e}", path.display())))?;
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
        bytes.extend_from_slice(text.as_bytes());
        for l in &self.layers {
            for x in l.weights.iter().chain(&l.biases) {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::File(format!("{}: cannot create: {e}", dir.display())))?;
        }
        let tmp = path.with_extension("partial");
        std::fs::write(&tmp, &bytes)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| Error::File(format!("{}: cannot write: {e}", path.display())))
    }

    /// Reads a network written by [`Network::save`], checking every size.
    pub fn load(path: &Path) -> Result<Network, Error> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error::File(format!("{}: cannot read: {e}", path.display())))?;
        let bad = |why: &str| Error::File(format!("{}: {why}", path.display()));
        if !bytes.starts_with(MAGIC) {
            return Err(bad(
                "not a playtune evaluation network (no `playtune-evalnet 1` line); make one with `playtune train-eval`",
            ));
        }
        let at = MAGIC.len();
        let len = bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or_else(|| bad("header cut short"))?;
        let text = bytes
            .get(at + 4..at + 4 + len)
            .and_then(|t| std::str::from_utf8(t).ok())
            .ok_or_else(|| bad("header cut short or not UTF-8"))?;
        let header: NetworkHeader =
            ron::from_str(text).map_err(|e| bad(&format!("header: {e}")))?;
        super::samples::check_encoding(&header.encoding)
            .map_err(|e| bad(&format!("header: {e}")))?;
        if let Some(k) = header.hidden.iter().position(|&h| h == 0) {
            return Err(bad(&format!("header: hidden layer {k} has 0 units")));
        }
        let mut floats = bytes[at + 4 + len..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut sizes = vec![header.encoding.width()];
        sizes.extend(&header.hidden);
        sizes.push(1);
        // Sizes from a damaged header can be anything: counted without overflow.
        let expected = sizes
            .windows(2)
            .try_fold(0usize, |n, w| {
                w[0].checked_mul(w[1])?.checked_add(w[1])?.checked_add(n)
            })
            .unwrap_or(usize::MAX);
        let have = (bytes.len() - at - 4 - len) / 4;
        if have != expected || (bytes.len() - at - 4 - len) % 4 != 0 {
            return Err(bad(&format!(
                "{have} weights for a {} network of {expected}: the file is cut short or damaged",
                sizes
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            )));
        }
        let layers = sizes
            .windows(2)
            .map(|w| Layer {
                inputs: w[0],
                outputs: w[1],
                weights: floats.by_ref().take(w[0] * w[1]).collect(),
                biases: floats.by_ref().take(w[1]).collect(),
            })
            .collect();
        Network::new(header, layers).map_err(|e| bad(&e.to_string()))
    }
}

/// The value from -1 to 1 of a logit: `2 sigmoid(logit) - 1`, i.e. `tanh(logit / 2)`.
pub(crate) fn value_of_logit(logit: f32) -> f64 {
    (f64::from(logit) / 2.0).tanh()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A random network over a small encoding.
    pub(crate) fn random_network(hidden: &[usize], seed: u64) -> Network {
        let encoding = Encoding::new(
            "test-v1",
            [("p".into(), 2), ("a".into(), 5), ("b".into(), 7)],
        );
        Network::random(encoding, hidden, seed)
    }

    /// The plain dense forward pass, for comparison.
    fn dense_logit(net: &Network, active: &[u32]) -> f32 {
        let mut x = vec![0.0f32; net.header.encoding.width()];
        for &i in active {
            x[i as usize] = 1.0;
        }
        for (k, l) in net.layers.iter().enumerate() {
            let mut y = l.biases.clone();
            for (i, xi) in x.iter().enumerate() {
                for (o, yo) in y.iter_mut().enumerate() {
                    *yo += xi * l.weights[i * l.outputs + o];
                }
            }
            if k + 1 < net.layers.len() {
                y.iter_mut().for_each(|v| *v = v.max(0.0));
            }
            x = y;
        }
        x[0]
    }

    #[test]
    fn the_sparse_pass_equals_the_dense_one() {
        let net = random_network(&[16, 8], 1);
        let mut scratch = Scratch::default();
        let mut active = Vec::new();
        for counts in [[0u8, 0, 0], [1, 4, 6], [1, 2, 200], [0, 3, 1]] {
            net.header.encoding.active_inputs(&counts, &mut active);
            let fast = net.logit(&active, &mut scratch);
            let dense = dense_logit(&net, &active);
            assert!((fast - dense).abs() < 1e-5, "{fast} vs {dense}");
        }
    }

    #[test]
    fn the_vector_path_gives_the_same_bits() {
        let net = random_network(&[64, 48], 4);
        let (mut s1, mut s2) = (Scratch::default(), Scratch::default());
        let mut active = Vec::new();
        for counts in [[0u8, 0, 0], [1, 4, 6], [1, 2, 3], [0, 3, 1]] {
            net.header.encoding.active_inputs(&counts, &mut active);
            let portable = net.logit_portable(&active, &mut s1);
            assert_eq!(net.logit(&active, &mut s2).to_bits(), portable.to_bits());
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_named() {
        let net = random_network(&[6], 2);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.evalnet");
        net.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 6]).unwrap();
        let e = Network::load(&path).unwrap_err().to_string();
        assert!(e.contains("cut short or damaged"), "{e}");
        std::fs::write(&path, b"nonsense").unwrap();
        assert!(
            Network::load(&path)
                .unwrap_err()
                .to_string()
                .contains("not a playtune evaluation network")
        );
    }

    /// The bytes `save` would write, without its check.
    fn raw_bytes(net: &Network) -> Vec<u8> {
        let text =
            ron::ser::to_string_pretty(&net.header, ron::ser::PrettyConfig::default()).unwrap();
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
        bytes.extend_from_slice(text.as_bytes());
        for l in &net.layers {
            for x in l.weights.iter().chain(&l.biases) {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        bytes
    }

    #[test]
    fn one_check_refuses_what_cannot_be_evaluated_on_write_and_on_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.evalnet");
        let good = random_network(&[4], 3);
        let mut cases: Vec<(Network, &str)> = Vec::new();
        for (k, v) in [
            (0usize, f32::NAN),
            (1, f32::INFINITY),
            (1, f32::NEG_INFINITY),
        ] {
            let mut n = good.clone();
            n.layers[k].weights[2] = v;
            cases.push((n, "not a finite number"));
        }
        let mut n = good.clone();
        n.layers[1].biases[0] = f32::NAN;
        cases.push((n, "bias 0 is NaN"));
        let mut n = good.clone();
        n.header.encoding.features[1].cap = 0;
        n.layers[0].inputs -= 5;
        let kept = n.layers[0].inputs * 4;
        n.layers[0].weights.truncate(kept);
        cases.push((n, "cap of 0"));
        let mut n = good.clone();
        n.header.hidden = vec![0];
        n.layers[0].outputs = 0;
        n.layers[0].weights.clear();
        n.layers[0].biases.clear();
        n.layers[1].inputs = 0;
        n.layers[1].weights.clear();
        cases.push((n, "0 units"));
        let mut n = good.clone();
        n.layers[1].weights.pop();
        cases.push((n, "layer 1 is 4x1 with 3 weights"));
        for (net, needle) in cases {
            let e = Network::new(net.header.clone(), net.layers.clone())
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "new: {e}");
            let e = net.save(&path).unwrap_err().to_string();
            assert!(e.contains("not written") && e.contains(needle), "save: {e}");
            std::fs::write(&path, raw_bytes(&net)).unwrap();
            let e = Network::load(&path).unwrap_err().to_string();
            assert!(e.contains("m.evalnet"), "load: {e}");
            if !needle.starts_with("layer 1 is") {
                assert!(e.contains(needle), "load: {e}");
            }
        }
        good.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), good);
    }

    #[test]
    fn values_are_in_minus_one_to_one() {
        assert_eq!(value_of_logit(0.0), 0.0);
        assert!(value_of_logit(30.0) > 0.999);
        assert!(value_of_logit(-30.0) < -0.999);
    }
}
