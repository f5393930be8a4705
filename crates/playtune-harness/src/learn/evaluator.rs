//! A trained network as a leaf evaluator for search agents.

use super::Error;
use super::encoding::StateEncoding;
use super::network::{Network, Scratch, value_of_logit};
use crate::agents::StateEvaluator;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Per-thread buffers: agents evaluate from many threads at once, each game on one.
#[derive(Default)]
struct Buffers {
    counts: Vec<u8>,
    active: Vec<u32>,
    scratch: Scratch,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// Values states of `S` with a network trained on `encoding`'s samples.
pub struct LearnedEvaluator<S> {
    network: Arc<Network>,
    encoding: Arc<dyn StateEncoding<S>>,
    label: String,
}

impl<S> Clone for LearnedEvaluator<S> {
    fn clone(&self) -> Self {
        LearnedEvaluator {
            network: self.network.clone(),
            encoding: self.encoding.clone(),
            label: self.label.clone(),
        }
    }
}

impl<S> LearnedEvaluator<S> {
    /// Checks that `network` learned `encoding`'s states.
    pub fn new(
        network: Arc<Network>,
        encoding: Arc<dyn StateEncoding<S>>,
        label: &str,
    ) -> Result<Self, Error> {
        encoding
            .encoding()
            .check_same(&network.header.encoding, &format!("the network {label}"))?;
        Ok(LearnedEvaluator {
            network,
            encoding,
            label: format!("learned:{label}"),
        })
    }

    /// The network of `path` (read once per process and file), checked against
    /// `encoding`.
    pub fn load(path: &Path, encoding: Arc<dyn StateEncoding<S>>) -> Result<Self, Error> {
        let network = load_shared(path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Self::new(network, encoding, &name)
    }

    /// The network of `path` with whichever of a game's `encodings` it learned; when
    /// none matches, the check against the first (the game's default) names the
    /// difference.
    pub fn load_matching(
        path: &Path,
        encodings: &[Arc<dyn StateEncoding<S>>],
    ) -> Result<Self, Error> {
        let network = load_shared(path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let learned = &network.header.encoding.name;
        let encoding = encodings
            .iter()
            .find(|e| &e.encoding().name == learned)
            .or(encodings.first())
            .cloned()
            .ok_or_else(|| Error::File(format!("{name}: the game has no state encoding")))?;
        Self::new(network, encoding, &name)
    }

    /// The logit that the player to move in `state` wins.
    pub fn logit(&self, state: &S) -> f32 {
        BUFFERS.with(|b| {
            let mut b = b.borrow_mut();
            let Buffers {
                counts,
                active,
                scratch,
            } = &mut *b;
            let encoding = self.encoding.encoding();
            counts.clear();
            counts.resize(encoding.len(), 0);
            self.encoding.encode(state, counts);
            encoding.active_inputs(counts, active);
            self.network.logit(active, scratch)
        })
    }
}

impl<S: Send + Sync> StateEvaluator<S> for LearnedEvaluator<S> {
    fn evaluate(&self, state: &S, player: usize) -> f64 {
        let value = value_of_logit(self.logit(state));
        if self.encoding.mover(state) == player {
            value
        } else {
            -value
        }
    }

    fn label(&self) -> String {
        self.label.clone()
    }
}

/// Networks already read, by file (path, length and modification time), so that a
/// tournament that builds an agent per game reads each file once.
fn load_shared(path: &Path) -> Result<Arc<Network>, Error> {
    type Key = (PathBuf, u64, Option<std::time::SystemTime>);
    static LOADED: OnceLock<Mutex<HashMap<Key, Arc<Network>>>> = OnceLock::new();
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::File(format!("{}: cannot read the network: {e}", path.display())))?;
    let key = (
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf()),
        meta.len(),
        meta.modified().ok(),
    );
    let loaded = LOADED.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(n) = loaded.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(n.clone());
    }
    let network = Arc::new(Network::load(path)?);
    loaded
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, network.clone());
    Ok(network)
}
