//! Learned state evaluation (Churchill and Buro's Prismata method): states recorded at
//! the start of every turn of games between strong bots, each labelled with the game's
//! winner, train a feed-forward network that predicts the winner; search agents then
//! call it at their leaves ([`crate::agents::StateEvaluator`]).
//!
//! - [`encoding`]: a game's fixed-length state encoding (counts, one-hot in the network).
//! - [`samples`]: the self-play sample file (a header naming the encoding, then games).
//! - [`network`]: the trained network's file and its allocation-free forward pass.
//! - training with candle on the CPU (split by game, early stopping) is the crate
//!   `playtune-train`, the one that depends on candle.
//! - [`evaluator`]: the network as a leaf evaluator, loaded once per file.
//!
//! Layer: beside [`crate::agents`], below the harness (which records self-play) and the
//! games (which define encodings and build agents with learned leaves).

pub mod encoding;
mod error;
pub mod evaluator;
pub mod network;
pub mod samples;

pub use encoding::{Encoding, Feature, StateEncoding};
pub use error::Error;
pub use evaluator::LearnedEvaluator;
pub use network::Network;
pub use samples::{GameSamples, SampleFile, SampleHeader};
