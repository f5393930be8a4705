//! Rinascimento: Splendor with its rules turned into a parameter vector (Bravi et al.,
//! 2019), and the forward model agents search with.
//!
//! - [`rules`]: the rule vector ([`Rules`]), its names and bounds.
//! - [`cards`]: the real 90 cards and 10 nobles, and the content a rule vector uses.
//! - [`generator`]: cards and nobles for colour and deck counts the real set lacks.
//! - [`state`]: the game state ([`RinState`]) and its forward model; implements
//!   [`crate::game::Game`].
//! - [`actions`]: actions, legality, the random action generator, enumeration.
//! - [`play`]: one game between agents ([`play_game`]).
//! - [`agents`]: agents by name or hyper-parameter point ([`RinAgentSpec`]) and their
//!   tuning spaces.
//! - [`preset`]: the `spec` and `reference` readings where the spec and the reference
//!   Java framework differ ([`Preset`]).
//! - [`problem`]: the tuning problems `rinascimento-agent` and `rinascimento-rules`.
//! - [`tournament`]: many games between agents, with statistics ([`tournament()`]).

pub mod actions;
pub mod agents;
pub mod cards;
mod def;
pub mod generator;
pub mod play;
pub mod preset;
pub mod problem;
pub mod rules;
pub mod state;
pub mod tournament;

#[cfg(test)]
mod tests;

pub use actions::{Action, ActionKind, GiveBack, KindChoice, RandomPlayer, Tokens};
pub use agents::{RinAgentSpec, RinRandom, TunedAgent};
pub use cards::{Card, Content, Noble};
pub use def::Rinascimento;
pub use play::{GameRecord, play_game, play_game_seated, try_play_game};
pub use preset::Preset;
pub use rules::{CardColours, FullHandReserve, GameEnd, RULE_NAMES, RULE_SYMBOLS, Rules};
pub use state::{EndReason, Hand, RinState};
pub use tournament::{TournamentResult, tournament};
