//! Rinascimento: Splendor with its rules turned into a parameter vector (Bravi et al.,
//! 2019), and the forward model agents search with.
//!
//! - [`rules`]: the rule vector ([`Rules`]), its names and bounds.
//! - `cards`: the real 90 cards and 10 nobles, and the content a rule vector uses.
//! - `generator`: cards and nobles for colour and deck counts the real set lacks.
//! - [`state`]: the game state ([`RinState`]) and its forward model; implements
//!   [`playtune_harness::game::Game`].
//! - [`actions`]: actions, legality, the random action generator, enumeration.
//! - [`play`]: one game between agents ([`play_game`]).
//! - [`agents`]: the spec's MCTS* configuration and the reference's random player;
//!   the agents themselves are the harness's, with the game's presets and the spec's
//!   tuning grids in `def.rs` (designing and tuning go through `harness::design` and
//!   `harness::tune`).
//! - [`preset`]: the `spec` and `reference` readings where the spec and the reference
//!   Java framework differ ([`Preset`]).

mod action;
pub mod actions;
pub mod agents;
mod cards;
mod def;
pub mod error;
mod generator;
pub mod play;
pub mod preset;
pub mod rules;
pub mod state;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_reference;

pub use action::{Action, Tokens};
pub use actions::{GiveBack, KindChoice, RandomPlayer};
pub use agents::{RinRandom, mcts_star};
pub use def::{AGENT_TUNING, RULE_DESIGN, Rinascimento};
pub use error::Error;
pub use play::{GameRecord, play_game};
pub use preset::Preset;
pub use rules::{CardColours, FullHandReserve, GameEnd, Rules};
pub use state::RinState;
