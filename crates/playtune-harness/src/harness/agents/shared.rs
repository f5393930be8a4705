//! What several generic agents declare alike: the opponent model and its budget, and a
//! rolling horizon's sequence settings and limits, each declared once.

use super::{finite_work, list};
use crate::agents::OpponentModel;
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};
use playtune_optim::space::Domain;

/// A tuning grid of names.
pub(super) fn categories(names: &[&str]) -> Domain {
    Domain::Categories(names.iter().map(|n| n.to_string()).collect())
}

/// The opponent models a rolling-horizon or tree search agent may assume.
fn opponents() -> Domain {
    categories(&["nothing", "random", "osla"])
}

/// The `opponent` setting, with the agent's own default.
pub(super) fn opponent_model_setting(default: &str) -> Setting {
    Setting::new(
        "opponent",
        default,
        "opponent model: nothing, random or osla",
    )
    .tuned(opponents())
}

/// The `budget` setting: forward-model calls per decision, `default` unless given.
pub(super) fn call_budget(default: &str) -> Setting {
    Setting::new("budget", default, "forward-model calls per decision")
}

/// A rolling horizon's `evaluations` setting (BMRH, SRH): sequences evaluated per
/// decision, 200 unless given; `about` says so in the agent's words.
pub(super) fn evaluations(about: &str) -> Setting {
    Setting::new("evaluations", "200", about).tuned(list(&[20.0, 50.0, 100.0, 200.0]))
}

/// The `opponent_budget` setting: the share of the budget an OSLA opponent may spend.
pub(super) fn opponent_budget() -> Setting {
    Setting::new(
        "opponent_budget",
        "0.01",
        "share of the budget an OSLA opponent may spend per choice",
    )
    .tuned(list(&[0.005, 0.01, 0.02, 0.05]))
}

/// The `shift_buffer` setting: a rolling horizon keeps its best sequence, shifted.
pub(super) fn shift_buffer() -> Setting {
    Setting::new(
        "shift_buffer",
        "true",
        "keep the best sequence, shifted, for the next decision",
    )
    .tuned(Domain::Bool)
}

/// The `length` setting: a rolling horizon's actions per sequence.
pub(super) fn sequence_length() -> Setting {
    Setting::new("length", "2", "actions per sequence")
        .tuned(list(&[1.0, 2.0, 3.0, 5.0, 10.0, 20.0]))
}

/// The `flip_at_least_one` setting, with the agent's own default.
pub(super) fn flip_at_least_one(default: &str) -> Setting {
    Setting::new(
        "flip_at_least_one",
        default,
        "every mutation changes an action",
    )
    .tuned(Domain::Bool)
}

/// The `opponent` setting's value.
pub(super) fn opponent_model(v: &Values) -> Result<OpponentModel, Error> {
    Ok(
        match v.choice("opponent", &["nothing", "random", "osla"])? {
            0 => OpponentModel::DoNothing,
            1 => OpponentModel::Random,
            _ => OpponentModel::Osla,
        },
    )
}

/// The limits of a rolling-horizon agent (BMRH, SRH): evaluations of `length`-action
/// sequences, or a budget of calls; an OSLA opponent spends a share of the budget, so
/// it needs a budget that is a number.
pub(super) fn rolling_horizon_work(
    v: &Values,
    evaluations: usize,
    length: usize,
    budget: usize,
    opponent: OpponentModel,
) -> Result<(), Error> {
    if budget == usize::MAX && opponent == OpponentModel::Osla {
        return Err(Error::Combination {
            settings: "opponent=osla, budget=max".into(),
            owner: v.owner().to_string(),
            why: "gives an OSLA opponent a share of its budget: give budget a number".into(),
        });
    }
    finite_work(
        v,
        &[("evaluations", evaluations), ("budget", budget)],
        &[("length", length)],
    )
}
