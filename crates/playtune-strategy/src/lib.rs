//! A compact two-player turn-based strategy game in the manner of The Battle of
//! Polytopia (and its research clone Tribes), built for portfolio agents: two tribes on
//! a small generated map grow cities, research a tree of technologies, train seven unit
//! types and fight with a deterministic damage formula, until one takes the other's
//! capital or the turn limit decides by score. `docs/strategy.md` has the rules.
//!
//! - [`rules`]: terrain, resources, units, technologies, buildings and their numbers.
//! - [`level`]: seeded level generation ([`Level::generate`]), training and
//!   validation seeds.
//! - [`state`]: the state ([`StrategyState`]), its actions and forward model;
//!   implements [`playtune_harness::game::Game`].
//! - [`log`]: the per-game statistics ([`GameLog`]) and play-style features.
//! - [`scripts`]: the portfolio of 31 scripts ([`scripts::StrategyScripts`]; the
//!   first 11, research and spawn, are the play-style genome) and script weights.
//! - [`phases`]: partial players per turn phase for HPS ([`phases::StrategyPhases`]).
//! - [`bot`]: the rule-based player ([`bot::RuleBased`]).
//! - [`encoding`]: the state encoding for learned evaluation ([`encoding::StrategyEncoding`]).

pub mod bot;
pub mod def;
pub mod encoding;
pub mod error;
pub mod level;
pub mod log;
pub mod phases;
pub mod problems;
#[cfg(feature = "draw")]
pub mod render;
pub mod rules;
pub mod scripts;
pub mod state;
pub mod styles;

#[cfg(test)]
mod tests;

pub use bot::RuleBased;
pub use def::Strategy;
pub use encoding::StrategyEncoding;
pub use error::Error;
pub use level::{Level, LevelConfig, training_levels, validation_levels};
pub use log::{Features, GameLog, TurnRecord, features};
pub use phases::StrategyPhases;
pub use rules::{Bonus, Building, Resource, Tech, Terrain, UnitKind};
pub use scripts::{GENOME_LEN, SCRIPTS, StrategyScripts};
pub use state::{Action, GameConfig, StrategyState};
