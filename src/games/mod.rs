//! The games playtune ships, each with its forward model and its game-specific agents.

pub mod space_battle;
