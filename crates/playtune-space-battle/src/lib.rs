//! Space Battle Evolved: a two-ship real-time duel on a torus with black holes, three
//! missile types and ammunition packs, whose 30 rules parameters are what the
//! optimisers evolve (Kunanusont et al., 2017, "The N-Tuple Bandit Evolutionary
//! Algorithm for Automatic Game Improvement"; rules in `docs/space-battle.md`).
//!
//! One tick, in order: ships fire and move; packs spawn and missiles move; ships meet
//! objects (ship 0 first); dead objects leave, bomb-type missiles leaving a bomb.

pub mod action;
pub mod agents;
mod def;
pub mod error;
mod game_impl;
pub(crate) mod geometry;
mod objects;
pub mod params;
mod physics;
mod plan;
pub mod play;
#[cfg(feature = "draw")]
pub mod render;
pub mod state;

pub use action::SbeAction;
pub use agents::{DoNothing, OneStepLookAhead, RotateAndShoot, WIN_BONUS, heuristic};
pub use def::{SKILL_DEPTH, SpaceBattle, enemy, space};
pub use error::{Error, ParamError};
pub use params::{MissileType, SbeParams};
pub use play::{GameRecord, play_from, play_game};
pub use state::SbeState;
