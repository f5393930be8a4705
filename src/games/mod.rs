//! The games playtune ships, one folder each.

pub mod rinascimento;
