//! Rolling horizon with a microbial evolutionary algorithm, declared.

use super::shared::{call_budget, opponent_budget, opponent_model, opponent_model_setting};
use super::{GenericAgent, finite_work, list};
use crate::agents::{MicrobialConfig, MicrobialEa};
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};

/// The microbial EA in the registry: its name, settings and how it builds.
pub(crate) struct Microbial;

impl GenericAgent for Microbial {
    const NAME: &'static str = "microbial";
    const ABOUT: &'static str = "rolling horizon, microbial evolutionary algorithm";

    fn settings() -> Vec<Setting> {
        let s = Setting::new;
        vec![
            s("population", "5", "plans in the population")
                .tuned(list(&[2.0, 3.0, 5.0, 10.0, 20.0])),
            s("length", "7", "actions per plan").tuned(list(&[3.0, 5.0, 7.0, 10.0, 15.0, 20.0])),
            s(
                "recombination",
                "0.1",
                "chance a gene comes from the winner",
            )
            .tuned(list(&[0.0, 0.1, 0.3, 0.5])),
            s(
                "mutation",
                &(1.0f64 / 7.0).to_string(),
                "chance a gene mutates",
            )
            .tuned(list(&[0.05, 0.1, 0.2, 0.3, 0.5])),
            s("discount", "0.9", "discount of later rewards").tuned(list(&[0.8, 0.9, 0.95, 1.0])),
            s("macro", "1", "ticks each action repeats"),
            opponent_model_setting("random"),
            opponent_budget(),
            call_budget("1750"),
        ]
    }

    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        let population = v.count("population")?;
        if population < 2 {
            return Err(Error::Combination {
                settings: format!("population={population}"),
                owner: v.owner().to_string(),
                why: "takes a population of at least 2 (a tournament needs two plans)".into(),
            });
        }
        let config = MicrobialConfig {
            population,
            plan_length: v.count("length")?,
            recombination: v.probability("recombination")?,
            mutation: v.probability("mutation")?,
            discount: v.probability("discount")?,
            macro_action: v.count("macro")?,
            opponent: opponent_model(v)?,
            opponent_budget: v.probability("opponent_budget")?,
            budget: v.limit("budget")?,
        };
        // Tournaments go on while calls are left: the budget is its only limit.
        finite_work(v, &[("budget", config.budget)], &[])?;
        Ok(Box::new(MicrobialEa::<G>::new(config)))
    }
}
