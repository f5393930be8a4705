//! Experiments that reproduce the papers' results: several optimisers on one problem,
//! re-evaluation of what they found, statistics, tables and pictures.

pub mod compare_optimizers;
pub mod declaration;
pub mod def;
mod error;
pub mod learned_eval;
pub mod ntbea_defaults;
pub mod play_styles;
pub mod rinascimento_tuning;
pub mod rule_design;
pub mod strategy;
pub mod validation;

pub use error::Error;

/// Every task kind a cluster's worker runs, one line a kind: the searches' trials and
/// batches, the executor's own tasks and the experiments'. A worker (`playtune task`)
/// hands it to [`playtune_exec::run_worker`].
pub const WORKER_KINDS: &[playtune_exec::Kind] = &[
    playtune_exec::Kind::SEARCH_TRIAL,
    playtune_exec::Kind::SEARCH_BATCH,
    playtune_exec::Kind::of::<playtune_exec::Evaluate>(),
    playtune_exec::Kind::of::<playtune_exec::TournamentGame>(),
    playtune_exec::Kind::of::<strategy::StrategyGame>(),
    playtune_exec::Kind::of::<ntbea_defaults::SuiteValidation>(),
];
