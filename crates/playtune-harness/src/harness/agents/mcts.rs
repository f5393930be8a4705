//! Open-loop Monte Carlo tree search, declared; [`mcts_config`] for agents that extend
//! it (a game's portfolio MCTS).

use super::shared::{
    call_budget, categories, opponent_budget, opponent_model, opponent_model_setting,
};
use super::{GenericAgent, finite_work, list};
use crate::agents::{MctsConfig, Recommendation};
use crate::game::{Agent, Game};
use crate::harness::Error;
use playtune_optim::settings::{Setting, Values};
use playtune_optim::space::Domain;

/// MCTS in the registry: its name, settings and how it builds.
pub(crate) struct Mcts;

impl GenericAgent for Mcts {
    const NAME: &'static str = "mcts";
    const ABOUT: &'static str = "open-loop Monte Carlo tree search";

    fn settings() -> Vec<Setting> {
        let s = Setting::new;
        let d = MctsConfig::default();
        vec![
            s(
                "iterations",
                "175",
                "iterations per decision (max: unlimited)",
            ),
            s("depth", "10", "steps per iteration, tree steps included")
                .tuned(list(&[1.0, 2.0, 5.0, 10.0, 20.0])),
            s("macro", "1", "ticks each step repeats its action"),
            s("c", &d.c.to_string(), "UCB1 exploration constant")
                .tuned(list(&[0.0, 0.5, 1.0, 1.41, 2.0, 4.0, 9.0])),
            s("epsilon", "0", "added to visits in UCB; tie-break size"),
            s(
                "p_exp",
                "none",
                "expansion probability (none: one untried action at a time)",
            ),
            s("width", "1", "actions sampled per expansion with p_exp")
                .tuned(list(&[1.0, 3.0, 5.0, 10.0])),
            s(
                "children",
                "10",
                "children sampled where actions are not enumerated",
            ),
            s("recommend", "robust", "max, robust or secure child")
                .tuned(categories(&["max", "robust", "secure"])),
            opponent_model_setting("random"),
            opponent_budget(),
            s("roll_with_opponents", "true", "opponents act in rollouts").tuned(Domain::Bool),
            call_budget("max"),
        ]
    }

    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        Ok(Box::new(crate::agents::Mcts::<G>::new(mcts_config(v)?)))
    }
}

/// MCTS's settings from the values of `Generic::Mcts`'s settings (for agents that
/// extend MCTS, such as a game's portfolio MCTS). Every setting in its domain, and a
/// finite search: iterations or budget a number.
pub fn mcts_config(v: &Values) -> Result<MctsConfig, Error> {
    let config = MctsConfig {
        iterations: v.limit("iterations")?,
        rollout_depth: v.count("depth")?,
        macro_action: v.count("macro")?,
        c: v.non_negative("c")?,
        epsilon: v.non_negative("epsilon")?,
        p_exp: v.optional_probability("p_exp")?,
        progression_width: v.count("width")?,
        max_children_sampled: v.count("children")?,
        recommendation: Recommendation::from_index(
            v.choice("recommend", &["max", "robust", "secure"])?,
        )
        .unwrap_or_default(),
        opponent: opponent_model(v)?,
        opponent_budget: v.probability("opponent_budget")?,
        roll_with_opponents: v.flag("roll_with_opponents")?,
        budget: v.limit("budget")?,
    };
    finite_work(
        v,
        &[("iterations", config.iterations), ("budget", config.budget)],
        &[
            ("depth", config.rollout_depth),
            ("macro", config.macro_action),
        ],
    )?;
    Ok(config)
}
