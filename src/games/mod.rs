//! The games playtune ships, one folder each, with their forward models and their
//! game-specific agents.

pub mod external;
pub mod rinascimento;
pub mod space_battle;
pub mod strategy;
