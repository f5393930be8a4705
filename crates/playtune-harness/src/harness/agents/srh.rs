//! Seeded rolling horizon (SRH), declared.

use super::shared::{
    call_budget, evaluations, flip_at_least_one, opponent_budget, opponent_model,
    opponent_model_setting, rolling_horizon_work, sequence_length, shift_buffer,
};
use super::{GenericAgent, list};
use crate::agents::SrhConfig;
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};

/// SRH in the registry: its name, settings and how it builds.
pub(crate) struct Srh;

impl GenericAgent for Srh {
    const NAME: &'static str = "srh";
    const ABOUT: &'static str = "rolling horizon, per-action mutation (SRH)";

    fn settings() -> Vec<Setting> {
        let s = Setting::new;
        vec![
            sequence_length(),
            evaluations("sequences evaluated per decision (0 plays as 1)"),
            s("mutation_rate", "0.9", "chance each action mutates")
                .tuned(list(&[0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0])),
            flip_at_least_one("false"),
            shift_buffer(),
            opponent_model_setting("random"),
            opponent_budget(),
            call_budget("1000"),
        ]
    }

    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        let config = SrhConfig {
            sequence_length: v.count("length")?,
            // 0 plays as 1 (the first sequence alone), and the spec's grid offers it:
            // accepted so that its points build.
            evaluations: if v.get("evaluations").trim() == "0" {
                0
            } else {
                v.limit("evaluations")?
            },
            mutation_rate: v.probability("mutation_rate")?,
            flip_at_least_one: v.flag("flip_at_least_one")?,
            shift_buffer: v.flag("shift_buffer")?,
            opponent: opponent_model(v)?,
            opponent_budget: v.probability("opponent_budget")?,
            budget: v.limit("budget")?,
        };
        rolling_horizon_work(
            v,
            config.evaluations,
            config.sequence_length,
            config.budget,
            config.opponent,
        )?;
        Ok(Box::new(crate::agents::Srh::<G>::new(config)))
    }
}
