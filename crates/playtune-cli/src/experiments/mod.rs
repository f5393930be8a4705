//! Experiments that reproduce the papers' results: several optimisers on one problem,
//! re-evaluation of what they found, statistics, tables and pictures.

pub mod compare_optimizers;
pub mod def;
mod error;
pub mod learned_eval;
pub mod ntbea_defaults;
pub mod play_styles;
pub mod rinascimento_tuning;
pub mod rule_design;
pub mod strategy;
pub mod validation;

pub use crate::draw::PlotError;
pub use error::Error;
