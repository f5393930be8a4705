//! Rolling horizon with a mutation point per sequence (BMRH), declared.

use super::shared::{
    call_budget, categories, evaluations, flip_at_least_one, opponent_budget, opponent_model,
    opponent_model_setting, rolling_horizon_work, sequence_length, shift_buffer,
};
use super::{GenericAgent, list};
use crate::agents::{BmrhConfig, MutationPoint};
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};

/// BMRH in the registry: its name, settings and how it builds.
pub(crate) struct Bmrh;

impl GenericAgent for Bmrh {
    const NAME: &'static str = "bmrh";
    const ABOUT: &'static str = "rolling horizon, a mutation point per sequence (BMRH)";

    fn settings() -> Vec<Setting> {
        let s = Setting::new;
        vec![
            sequence_length(),
            evaluations("sequences evaluated per decision"),
            shift_buffer(),
            flip_at_least_one("true"),
            s(
                "mutation",
                "uniform",
                "mutation point: uniform, exponential, gaussian or fresh",
            )
            .tuned(categories(&["uniform", "exponential", "gaussian"])),
            s("decay", "0.5", "exponential mutation point's decay")
                .tuned(list(&[0.5, 0.7, 0.8, 0.9])),
            s(
                "mean",
                "0",
                "gaussian mutation point's mean (share of the sequence)",
            )
            .tuned(list(&[0.0, 0.1, 0.3, 0.5, 0.75])),
            s("sd", "1", "gaussian mutation point's sd").tuned(list(&[0.5, 1.0, 2.0])),
            opponent_model_setting("nothing"),
            opponent_budget(),
            call_budget("1000"),
        ]
    }

    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        // Checked whichever mutation point uses them: a setting given is a setting
        // checked.
        let (decay, mean, sd) = (v.positive("decay")?, v.real("mean")?, v.non_negative("sd")?);
        let config = BmrhConfig {
            sequence_length: v.count("length")?,
            evaluations: v.limit("evaluations")?,
            shift_buffer: v.flag("shift_buffer")?,
            flip_at_least_one: v.flag("flip_at_least_one")?,
            mutation: match v
                .choice("mutation", &["uniform", "exponential", "gaussian", "fresh"])?
            {
                0 => MutationPoint::Uniform,
                1 => MutationPoint::Exponential { decay },
                2 => MutationPoint::Gaussian { mean, sd },
                _ => MutationPoint::Fresh,
            },
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
        Ok(Box::new(crate::agents::Bmrh::<G>::new(config)))
    }
}
