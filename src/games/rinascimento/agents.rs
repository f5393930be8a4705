//! The Rinascimento agents by name and by hyper-parameter point, and their tuning
//! spaces (the spec's grids).

use super::actions::{Action, RandomPlayer};
use super::state::RinState;
use crate::agents::{
    Bmrh, BmrhConfig, Mcts, MctsConfig, MutationPoint, OpponentModel, Osla, RandomAgent,
    Recommendation, Srh, SrhConfig,
};
use crate::game::Agent;
use crate::rng::Rng;
use crate::space::{Dimension, Domain, Space};

/// Forward-model calls per decision unless told otherwise (the paper's 1000 actions).
pub const DEFAULT_BUDGET: usize = 1000;

/// A Rinascimento agent and its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum RinAgentSpec {
    /// A random legal action, drawn as the paper's RAG (the default [`RandomPlayer`]).
    Rnd,
    /// A random legal action drawn with other settings (the `reference` preset's
    /// random player: [`RandomPlayer::reference`]).
    RndWith(RandomPlayer),
    /// One-step look-ahead trying up to `budget` own actions.
    Osla {
        budget: usize,
    },
    Bmrh(BmrhConfig),
    Srh(SrhConfig),
    Mcts(MctsConfig),
}

/// Which agent a tuning space configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TunedAgent {
    Bmrh,
    Srh,
    Mcts,
}

impl TunedAgent {
    pub fn parse(name: &str) -> Result<TunedAgent, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "bmrh" => Ok(TunedAgent::Bmrh),
            "srh" => Ok(TunedAgent::Srh),
            "mcts" => Ok(TunedAgent::Mcts),
            other => Err(format!(
                "unknown tunable Rinascimento agent `{other}` (known: bmrh, srh, mcts)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TunedAgent::Bmrh => "bmrh",
            TunedAgent::Srh => "srh",
            TunedAgent::Mcts => "mcts",
        }
    }

    /// The harness's name for dimension `dim` of [`TunedAgent::space`]: the setting a
    /// user types in `playtune play --agents` (the grid keeps the spec's names).
    pub fn setting_name(self, dim: &str) -> &str {
        match (self, dim) {
            (_, "opponent_model") => "opponent",
            (TunedAgent::Bmrh | TunedAgent::Srh, "sequence_length") => "length",
            (TunedAgent::Bmrh, "mutation_style") => "mutation",
            (TunedAgent::Bmrh, "exp_decay") => "decay",
            (TunedAgent::Bmrh, "gauss_mean") => "mean",
            (TunedAgent::Bmrh, "gauss_sd") => "sd",
            (TunedAgent::Mcts, "progression_width") => "width",
            (TunedAgent::Mcts, "recommendation") => "recommend",
            (_, other) => other,
        }
    }

    /// Point `x` of [`TunedAgent::space`] as the agent spec `playtune play` takes: the
    /// game's preset of this agent with every tuned setting and `budget` written out.
    pub fn agent_spec(self, x: &[f64], budget: usize) -> crate::harness::AgentSpec {
        let mut settings: Vec<(String, String)> = self
            .space()
            .render(x)
            .into_iter()
            .map(|(k, v)| (self.setting_name(&k).to_string(), v))
            .collect();
        settings.push(("budget".into(), budget.to_string()));
        crate::harness::AgentSpec {
            name: self.name().into(),
            settings,
        }
    }

    /// The agent's hyper-parameter grid, defaults at the tuned configuration.
    pub fn space(self) -> Space {
        match self {
            TunedAgent::Bmrh => bmrh_space(),
            TunedAgent::Srh => srh_space(),
            TunedAgent::Mcts => mcts_space(),
        }
    }
}

impl RinAgentSpec {
    /// Names [`RinAgentSpec::parse`] knows.
    pub const NAMES: [&'static str; 5] = ["rnd", "osla", "bmrh*", "srh*", "mcts*"];

    /// An agent by name with `budget` forward-model calls a decision: `rnd` (or
    /// `random`), `osla`, and the tuned `bmrh*`, `srh*`, `mcts*` (the star is optional).
    pub fn parse(name: &str, budget: usize) -> Result<RinAgentSpec, String> {
        let lower = name.trim().to_ascii_lowercase();
        Ok(match lower.trim_end_matches('*') {
            "rnd" | "random" => RinAgentSpec::Rnd,
            "osla" => RinAgentSpec::Osla { budget },
            "bmrh" => RinAgentSpec::Bmrh(BmrhConfig {
                budget,
                ..BmrhConfig::default()
            }),
            "srh" => RinAgentSpec::Srh(SrhConfig {
                budget,
                ..SrhConfig::default()
            }),
            "mcts" => RinAgentSpec::Mcts(MctsConfig::rinascimento_star(budget)),
            _ => {
                return Err(format!(
                    "unknown Rinascimento agent `{name}` (known: {})",
                    Self::NAMES.join(", ")
                ));
            }
        })
    }

    /// A short name: `rnd`, `osla`, `bmrh`, `srh`, `mcts`.
    pub fn name(&self) -> &'static str {
        match self {
            RinAgentSpec::Rnd | RinAgentSpec::RndWith(_) => "rnd",
            RinAgentSpec::Osla { .. } => "osla",
            RinAgentSpec::Bmrh(_) => "bmrh",
            RinAgentSpec::Srh(_) => "srh",
            RinAgentSpec::Mcts(_) => "mcts",
        }
    }

    /// The agent `kind` configured by a point of its space (`lookup` gives a value by
    /// dimension name; missing ones take the space's default), with `budget`
    /// forward-model calls a decision.
    pub fn from_point(
        kind: TunedAgent,
        lookup: impl Fn(&str) -> Option<f64>,
        budget: usize,
    ) -> Result<RinAgentSpec, String> {
        let space = kind.space();
        let get = |name: &str| -> f64 {
            lookup(name).unwrap_or_else(|| {
                let d = &space.dims[space.position(name).expect("a dimension of the space")];
                d.domain.value(d.default)
            })
        };
        let index = |name: &str, n: usize| -> Result<usize, String> {
            let v = get(name);
            let i = v.round();
            if (v - i).abs() > 1e-9 || i < 0.0 || i as usize >= n {
                return Err(format!("`{name}`: {v} is not an index below {n}"));
            }
            Ok(i as usize)
        };
        let count = |name: &str| -> Result<usize, String> {
            let v = get(name);
            if v.fract() != 0.0 || v < 0.0 {
                return Err(format!("`{name}`: {v} is not a whole number >= 0"));
            }
            Ok(v as usize)
        };
        let opponent =
            OpponentModel::from_index(index("opponent_model", 3)?).expect("index checked above");
        Ok(match kind {
            TunedAgent::Bmrh => RinAgentSpec::Bmrh(BmrhConfig {
                sequence_length: count("sequence_length")?.max(1),
                evaluations: count("evaluations")?,
                shift_buffer: get("shift_buffer") != 0.0,
                flip_at_least_one: get("flip_at_least_one") != 0.0,
                mutation: match index("mutation_style", 3)? {
                    0 => MutationPoint::Uniform,
                    1 => MutationPoint::Exponential {
                        decay: get("exp_decay"),
                    },
                    _ => MutationPoint::Gaussian {
                        mean: get("gauss_mean"),
                        sd: get("gauss_sd"),
                    },
                },
                opponent,
                opponent_budget: get("opponent_budget"),
                budget,
            }),
            TunedAgent::Srh => RinAgentSpec::Srh(SrhConfig {
                sequence_length: count("sequence_length")?.max(1),
                evaluations: count("evaluations")?,
                mutation_rate: get("mutation_rate"),
                flip_at_least_one: get("flip_at_least_one") != 0.0,
                shift_buffer: get("shift_buffer") != 0.0,
                opponent,
                opponent_budget: get("opponent_budget"),
                budget,
            }),
            TunedAgent::Mcts => RinAgentSpec::Mcts(MctsConfig {
                c: get("c"),
                rollout_depth: count("depth")?.max(1),
                opponent,
                opponent_budget: get("opponent_budget"),
                p_exp: Some(get("p_exp")),
                progression_width: count("progression_width")?.max(1),
                recommendation: Recommendation::from_index(index("recommendation", 3)?)
                    .expect("index checked above"),
                roll_with_opponents: get("roll_with_opponents") != 0.0,
                ..MctsConfig::rinascimento_star(budget)
            }),
        })
    }

    /// A fresh agent.
    pub fn build(&self) -> Box<dyn Agent<RinState>> {
        match self {
            RinAgentSpec::Rnd => Box::new(RandomAgent),
            RinAgentSpec::RndWith(random) => Box::new(RinRandom(*random)),
            RinAgentSpec::Osla { budget } => Box::new(Osla::new(*budget)),
            RinAgentSpec::Bmrh(c) => Box::new(Bmrh::new(c.clone())),
            RinAgentSpec::Srh(c) => Box::new(Srh::new(c.clone())),
            RinAgentSpec::Mcts(c) => Box::new(Mcts::new(c.clone())),
        }
    }
}

// A game's tuned presets live with the game, not in the generic agent's code: an
// inherent impl may sit anywhere in the crate, so callers keep writing
// `MctsConfig::rinascimento_star`.
impl MctsConfig {
    /// The spec's MCTS* for Rinascimento with `budget` forward-model calls a decision:
    /// C = 0, depth 1, pExp 0.4, width 1, secure child, random opponents; iterations
    /// bounded only by the budget.
    pub fn rinascimento_star(budget: usize) -> MctsConfig {
        MctsConfig {
            iterations: usize::MAX,
            rollout_depth: 1,
            c: 0.0,
            epsilon: 1e-6,
            p_exp: Some(0.4),
            progression_width: 1,
            recommendation: Recommendation::SecureChild,
            budget,
            ..MctsConfig::default()
        }
    }
}

/// A random player with settings. The default settings play as
/// [`crate::agents::RandomAgent`] does, which [`RinAgentSpec::Rnd`] keeps building so
/// that its games stay byte-identical.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RinRandom(pub RandomPlayer);

impl Agent<RinState> for RinRandom {
    fn name(&self) -> String {
        "Random".into()
    }

    fn act(&mut self, state: &RinState, player: usize, rng: &mut Rng) -> Action {
        // A game asks only a player who has a legal action (else it ends), so the
        // fallback, an illegal action played as a pass, is never reached.
        state
            .sample_action_with(player, &self.0, rng)
            .unwrap_or(Action::BuyReserved {
                card: super::state::EMPTY,
            })
    }

    fn simulates(&self) -> bool {
        false
    }
}

fn list(values: &[f64]) -> Domain {
    Domain::List(values.to_vec())
}

fn categories(names: &[&str]) -> Domain {
    Domain::Categories(names.iter().map(|s| s.to_string()).collect())
}

/// A dimension whose default is `default` (a value on the domain's grid).
fn dim(name: &str, domain: Domain, default: f64) -> Dimension {
    let default = domain
        .index_of(default)
        .unwrap_or_else(|| panic!("default {default} of `{name}` is off its grid"));
    Dimension {
        name: name.into(),
        domain,
        default,
        fixed: false,
    }
}

const OPPONENTS: [&str; 3] = ["nothing", "random", "osla"];

/// The BMRH grid; defaults are BMRH* (mutation style: 0 uniform, 1 exponential
/// decay, 2 Gaussian; opponent model: 0 nothing, 1 random, 2 OSLA).
pub fn bmrh_space() -> Space {
    Space {
        name: "rinascimento-bmrh".into(),
        dims: vec![
            dim("shift_buffer", Domain::Bool, 1.0),
            dim(
                "sequence_length",
                list(&[1.0, 2.0, 3.0, 5.0, 10.0, 20.0]),
                2.0,
            ),
            dim("evaluations", list(&[20.0, 50.0, 100.0, 200.0]), 200.0),
            dim("flip_at_least_one", Domain::Bool, 1.0),
            dim(
                "mutation_style",
                categories(&["uniform", "exponential", "gaussian"]),
                0.0,
            ),
            dim("opponent_model", categories(&OPPONENTS), 0.0),
            dim("opponent_budget", list(&[0.005, 0.01, 0.02, 0.05]), 0.01),
            dim("exp_decay", list(&[0.5, 0.7, 0.8, 0.9]), 0.5),
            dim("gauss_mean", list(&[0.0, 0.1, 0.3, 0.5, 0.75]), 0.0),
            dim("gauss_sd", list(&[0.5, 1.0, 2.0]), 1.0),
        ],
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

/// The SRH grid; defaults are SRH*.
pub fn srh_space() -> Space {
    Space {
        name: "rinascimento-srh".into(),
        dims: vec![
            dim("flip_at_least_one", Domain::Bool, 0.0),
            dim(
                "mutation_rate",
                list(&[0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0]),
                0.9,
            ),
            dim(
                "sequence_length",
                list(&[1.0, 2.0, 3.0, 5.0, 10.0, 20.0]),
                2.0,
            ),
            dim(
                "evaluations",
                list(&[0.0, 1.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0]),
                200.0,
            ),
            dim("shift_buffer", Domain::Bool, 1.0),
            dim("opponent_model", categories(&OPPONENTS), 1.0),
            dim(
                "opponent_budget",
                list(&[0.001, 0.005, 0.01, 0.02, 0.05]),
                0.01,
            ),
        ],
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

/// The MCTS grid; defaults are MCTS* (recommendation: 0 max, 1 robust, 2 secure child).
pub fn mcts_space() -> Space {
    Space {
        name: "rinascimento-mcts".into(),
        dims: vec![
            dim("c", list(&[0.0, 1.41, 4.0, 9.0, 15.0, 20.0]), 0.0),
            dim("depth", list(&[1.0, 2.0, 5.0, 10.0, 20.0]), 1.0),
            dim("opponent_model", categories(&OPPONENTS), 1.0),
            dim("opponent_budget", list(&[0.01, 0.05, 0.1]), 0.01),
            dim("p_exp", list(&[0.1, 0.2, 0.3, 0.4]), 0.4),
            dim("progression_width", list(&[1.0, 3.0, 5.0, 10.0, 15.0]), 1.0),
            dim(
                "recommendation",
                categories(&["max", "robust", "secure"]),
                2.0,
            ),
            dim("roll_with_opponents", Domain::Bool, 1.0),
        ],
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_the_tuned_configurations() {
        assert_eq!(RinAgentSpec::parse("rnd", 1000), Ok(RinAgentSpec::Rnd));
        assert_eq!(
            RinAgentSpec::parse("OSLA", 500),
            Ok(RinAgentSpec::Osla { budget: 500 })
        );
        assert_eq!(
            RinAgentSpec::parse("bmrh*", 1000),
            Ok(RinAgentSpec::Bmrh(BmrhConfig::default()))
        );
        assert_eq!(
            RinAgentSpec::parse("srh", 1000),
            Ok(RinAgentSpec::Srh(SrhConfig::default()))
        );
        let RinAgentSpec::Mcts(m) = RinAgentSpec::parse("mcts*", 700).unwrap() else {
            panic!("not MCTS");
        };
        assert_eq!((m.c, m.rollout_depth, m.p_exp), (0.0, 1, Some(0.4)));
        assert_eq!(m.recommendation, Recommendation::SecureChild);
        assert_eq!(m.budget, 700);
        assert!(RinAgentSpec::parse("alphazero", 1000).is_err());
    }

    #[test]
    fn default_points_are_the_tuned_configurations() {
        for kind in [TunedAgent::Bmrh, TunedAgent::Srh, TunedAgent::Mcts] {
            assert_eq!(TunedAgent::parse(kind.name()), Ok(kind));
            let s = kind.space();
            let x = s.decode(&s.default_indices());
            let spec =
                RinAgentSpec::from_point(kind, |n| s.position(n).map(|i| x[i]), 1000).unwrap();
            let star = RinAgentSpec::parse(&format!("{}*", kind.name()), 1000).unwrap();
            assert_eq!(spec, star, "{}", kind.name());
            // Every corner of the grid builds an agent.
            let last: Vec<u32> = s.dims.iter().map(|d| d.domain.len() as u32 - 1).collect();
            let y = s.decode(&last);
            let spec = RinAgentSpec::from_point(kind, |n| s.position(n).map(|i| y[i]), 1000);
            assert!(spec.is_ok(), "{spec:?}");
        }
    }

    /// The printed spec of a point plays exactly the games the point's agent plays.
    #[test]
    fn printed_specs_build_the_tuned_agent() {
        use crate::harness::agents::{all_agents, build_agent};
        use crate::harness::{GameDef, Values};
        let def = super::super::def::Rinascimento;
        let entries = all_agents(def.agents());
        let game = Values::new("game", &def.settings(), &[("players".into(), "2".into())]).unwrap();
        let rules = super::super::rules::Rules::splendor(2);
        for kind in [TunedAgent::Bmrh, TunedAgent::Srh, TunedAgent::Mcts] {
            let s = kind.space();
            let last: Vec<u32> = s.dims.iter().map(|d| d.domain.len() as u32 - 1).collect();
            let mid: Vec<u32> = s.dims.iter().map(|d| d.domain.len() as u32 / 2).collect();
            for idx in [s.default_indices(), last, mid] {
                let x = s.decode(&idx);
                let tuned =
                    RinAgentSpec::from_point(kind, |n| s.position(n).map(|i| x[i]), 60).unwrap();
                let text = kind.agent_spec(&x, 60).to_string();
                let parsed = crate::harness::AgentSpec::parse(&text).unwrap();
                let mut printed = build_agent("rinascimento", &entries, &parsed, None, &game)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                let mut direct = tuned.build();
                let mut rnd = RinAgentSpec::Rnd.build();
                let a =
                    super::super::play::play_game(&rules, &mut [direct.as_mut(), rnd.as_mut()], 4);
                let mut rnd = RinAgentSpec::Rnd.build();
                let b =
                    super::super::play::play_game(&rules, &mut [printed.as_mut(), rnd.as_mut()], 4);
                assert_eq!(a, b, "{text}");
            }
        }
    }

    #[test]
    fn shipped_space_files_equal_the_built_in_spaces() {
        for kind in [TunedAgent::Bmrh, TunedAgent::Srh, TunedAgent::Mcts] {
            let path = format!("spaces/rinascimento_{}.ron", kind.name());
            let file = crate::space::load_space(std::path::Path::new(&path)).unwrap();
            assert_eq!(file, kind.space(), "{path}");
        }
    }
}
