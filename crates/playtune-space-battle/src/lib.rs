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
pub mod objects;
pub mod params;
pub mod physics;
mod plan;
pub mod play;
#[cfg(feature = "draw")]
pub mod render;
pub mod state;

pub use action::{SbeAction, action_name};
pub use agents::{DoNothing, OneStepLookAhead, RotateAndShoot, WIN_BONUS, heuristic};
pub use def::{SKILL_DEPTH, SpaceBattle, WIN_POINTS, enemy, game_t, space};
pub use error::{Error, ParamError};
pub use geometry::Vec2;
pub use objects::{BlackHole, Object, ObjectKind, Ship};
pub use params::{MissileType, NUM_PARAMS, PARAM_DOMAINS, PARAM_NAMES, SbeParams};
pub use play::{GameRecord, play_from, play_game};
pub use state::{SbeState, ShipStats};
