//! Tuning HPS in the strategy game (`--problem strategy-hps`): its search, depth, leaf
//! evaluation (the heuristic, a symmetric playout, or a learned network) and partial
//! player settings, scored by win rate against an opponent. The leaf evaluator is one
//! more categorical parameter, so NTBEA tunes it with the rest.

use super::def::{Strategy, level_seed};
use super::state::StrategyState;
use crate::eval::{EvalError, Evaluation, Problem};
use crate::game::Agent;
use crate::harness::agents::{AgentSpec, all_agents, build_agent};
use crate::harness::play::{AGENTS, play};
use crate::harness::{GameDef, Values};
use crate::rng::derive_seed;
use crate::space::{Dimension, Domain, Space};
use rayon::prelude::*;

/// Settings of the problem.
#[derive(Clone, Debug, PartialEq)]
pub struct HpsTuningConfig {
    /// Games per evaluation, seats alternating, each on a level drawn from its seed.
    pub games: usize,
    /// The opponent, an agent spec (`hps`, `rule`, `p-mcts-pu(budget=500)`, ...).
    pub opponent: String,
    /// Forward-model calls per turn of the tuned HPS.
    pub budget: usize,
    /// A network from `playtune train-eval`; empty leaves `learned` out of the space.
    pub model: String,
    /// Turns before the score decides.
    pub turns: usize,
}

/// The problem (see the module).
pub struct HpsTuning {
    config: HpsTuningConfig,
    space: Space,
    game: Values,
    opponent: AgentSpec,
}

fn dim(name: &str, domain: Domain, default: usize) -> Dimension {
    Dimension {
        name: name.into(),
        domain,
        default,
        fixed: false,
    }
}

/// HPS's tunable settings; `leaf` offers `learned` when a model is given.
pub fn hps_space(with_learned: bool) -> Space {
    let mut leaves = vec!["heuristic".to_string(), "playout".to_string()];
    if with_learned {
        leaves.push("learned".into());
    }
    Space {
        name: "strategy-hps".into(),
        dims: vec![
            dim(
                "search",
                Domain::Categories(vec!["alphabeta".into(), "uct".into()]),
                0,
            ),
            dim("depth", Domain::List(vec![1.0, 2.0, 3.0, 4.0]), 1),
            dim("leaf", Domain::Categories(leaves), 0),
            dim("playout_turns", Domain::List(vec![1.0, 2.0, 4.0, 8.0]), 1),
            dim("c", Domain::List(vec![0.5, 1.0, 1.41, 2.0, 4.0]), 2),
            dim("phase_cap", Domain::List(vec![10.0, 20.0, 40.0]), 2),
        ],
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

impl HpsTuning {
    pub fn new(config: HpsTuningConfig) -> Result<HpsTuning, String> {
        let game = Values::new(
            "game `strategy`",
            &GameDef::settings(&Strategy),
            &[
                ("level".to_string(), "any".to_string()),
                ("turns".to_string(), config.turns.to_string()),
            ],
        )?;
        let problem = HpsTuning {
            space: hps_space(!config.model.is_empty()),
            opponent: AgentSpec::parse(&config.opponent)?,
            game,
            config,
        };
        // Bad settings (an opponent's, the model file) fail here, before any search.
        problem.agent(&problem.opponent)?;
        problem.agent(&problem.spec(&problem.space.decode(&problem.space.default_indices()))?)?;
        if !problem.config.model.is_empty() {
            let learned = problem.space.dims[2].domain.len() - 1;
            let mut x = problem.space.decode(&problem.space.default_indices());
            x[2] = learned as f64;
            problem.agent(&problem.spec(&x)?)?;
        }
        Ok(problem)
    }

    fn agent(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<StrategyState>>, String> {
        build_agent(
            "strategy",
            &all_agents(Strategy.agents()),
            spec,
            None,
            &self.game,
        )
    }

    /// The HPS agent spec of point `x`, as `playtune play` would take it.
    pub fn spec(&self, x: &[f64]) -> Result<AgentSpec, String> {
        let text: std::collections::HashMap<String, String> =
            self.space.render(x).into_iter().collect();
        let leaf = match text["leaf"].as_str() {
            "learned" => format!("learned:{}", self.config.model),
            other => other.to_string(),
        };
        let mut settings = vec![
            ("leaf".to_string(), leaf),
            ("budget".into(), self.config.budget.to_string()),
        ];
        for k in ["search", "depth", "playout_turns", "c", "phase_cap"] {
            settings.push((k.to_string(), text[k].clone()));
        }
        Ok(AgentSpec {
            name: "hps".into(),
            settings,
        })
    }
}

impl Problem for HpsTuning {
    fn space(&self) -> &Space {
        &self.space
    }

    /// A win rate.
    fn fitness_range(&self) -> Option<(f64, f64)> {
        Some((0.0, 1.0))
    }

    fn agent_spec(&self, x: &[f64]) -> Option<String> {
        self.spec(x).ok().map(|s| s.to_string())
    }

    /// Win rate (a draw counts half) over the games, each seeded by (seed, game).
    fn evaluate(&self, x: &[f64], seed: u64) -> Result<Evaluation, EvalError> {
        let me = self.spec(x).map_err(EvalError)?;
        let results: Vec<f64> = (0..self.config.games)
            .into_par_iter()
            .map(|i| -> Result<f64, String> {
                let game_seed = derive_seed(seed, &[i as u64]);
                let level = level_seed("any", game_seed)?;
                let state = Strategy.new_state(&self.game, level)?;
                let (mut a, mut b) = (self.agent(&me)?, self.agent(&self.opponent)?);
                let seat = i % 2;
                let mut agents: Vec<&mut dyn Agent<StrategyState>> = vec![a.as_mut(), b.as_mut()];
                let end = play(
                    state,
                    &mut agents,
                    &[seat, 1 - seat],
                    AGENTS,
                    game_seed,
                    &mut |_, _| {},
                )?;
                // 1 a win, 1/2 a draw, 0 a loss.
                Ok((crate::agents::outcome(&end, seat) + 1.0) / 2.0)
            })
            .collect::<Result<_, _>>()
            .map_err(EvalError)?;
        Ok(Evaluation {
            fitness: results.iter().sum::<f64>() / results.len().max(1) as f64,
            features: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(model: &str) -> HpsTuningConfig {
        HpsTuningConfig {
            games: 2,
            opponent: "rule".into(),
            budget: 500,
            model: model.into(),
            turns: 8,
        }
    }

    #[test]
    fn points_become_hps_specs_and_evaluate_reproducibly() {
        let p = HpsTuning::new(config("")).unwrap();
        assert_eq!(
            p.space().dims[2].domain.len(),
            2,
            "no model, no learned leaf"
        );
        let mut x = p.space().decode(&p.space().default_indices());
        x[2] = 1.0;
        let spec = p.spec(&x).unwrap();
        assert!(spec.settings.contains(&("leaf".into(), "playout".into())));
        let a = p.evaluate(&x, 9).unwrap();
        assert_eq!(a, p.evaluate(&x, 9).unwrap());
        assert!((0.0..=1.0).contains(&a.fitness));
    }

    #[test]
    fn a_missing_model_fails_at_setup() {
        let e = HpsTuning::new(config("/no/such.evalnet")).err().unwrap();
        assert!(e.contains("cannot read the network"), "{e}");
    }

    const HEADER: &str = "// HPS's settings in the strategy game (src/games/strategy/hps_tuning.rs), for\n// --problem strategy-hps. `learned` needs --set model=FILE (a network from\n// `playtune train-eval`); without it, search the space without that category.\n";

    #[test]
    fn the_shipped_space_file_agrees() {
        let text = std::fs::read_to_string("spaces/strategy_hps.ron").unwrap();
        assert_eq!(
            text,
            format!("{HEADER}{}", crate::space::to_space_file(&hps_space(true)))
        );
    }

    /// Writes the shipped space file:
    /// `cargo test --release --lib export_strategy_hps_space -- --ignored`.
    #[test]
    #[ignore]
    fn export_strategy_hps_space() {
        let text = format!("{HEADER}{}", crate::space::to_space_file(&hps_space(true)));
        std::fs::write("spaces/strategy_hps.ron", text).unwrap();
    }
}
