//! Experiments that reproduce the papers' results: several optimisers on one problem,
//! re-evaluation of what they found, statistics, tables and pictures.

pub(crate) mod compare_optimizers;
pub(crate) mod declaration;
pub(crate) mod def;
mod error;
pub(crate) mod learned_eval;
pub(crate) mod ntbea_defaults;
pub(crate) mod play_styles;
pub(crate) mod rinascimento_tuning;
pub(crate) mod rule_design;
pub(crate) mod strategy;
pub(crate) mod validation;

pub(crate) use error::Error;
