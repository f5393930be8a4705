//! The strategy game's problems: `strategy-styles` (MAP-Elites over P-MCTS(PU)'s script
//! weights, [`super::styles`]) and `strategy-hps` (`tune-agent` on HPS).

use super::def::Strategy;
use playtune_optim::eval::ProblemDef;

/// Problem `strategy-styles`.
pub const STYLES: ProblemDef = ProblemDef {
    name: "strategy-styles",
    about: "strategy play styles: P-MCTS(PU)'s 11 genome weights; win rate over levels x games against the opponent, features from the game logs",
    settings: &[
        ("levels", "2", "levels per evaluation"),
        ("level_set", "training", "training or validation levels"),
        ("games", "5", "games per level, seats alternating"),
        ("opponent", "mcts", "the opponent's agent spec"),
        (
            "budget",
            "2000",
            "forward-model calls a decision of P-MCTS(PU)",
        ),
        ("turns", "30", "turns before the score decides"),
    ],
    build: |v, _| {
        use super::styles::{StylesConfig, StylesProblem};
        Ok(Box::new(StylesProblem::new(StylesConfig {
            levels: v.count_in("levels", super::validation_levels().len())?,
            level_set: v.get("level_set").to_string(),
            games: v.count("games")?,
            opponent: v.get("opponent").to_string(),
            budget: v.count("budget")?,
            turns: v.count_in("turns", super::log::MAX_TURNS)?,
        })?))
    },
};

/// Problem `strategy-hps`: `tune-agent` on the strategy game's HPS, on levels drawn per
/// game, with the learned leaf among the categories when a network is given.
pub const HPS_TUNING: ProblemDef = ProblemDef {
    name: "strategy-hps",
    about: "tune-agent on the strategy game for HPS: search, depth, leaf (heuristic, playout, learned with model=FILE), partial-player caps; mean score against the opponent on levels drawn per game",
    settings: &[
        ("games", "10", "games per evaluation, seats rotating"),
        ("opponent", "hps", "the opponent's agent spec"),
        (
            "budget",
            "5000",
            "forward-model calls a turn of the tuned HPS",
        ),
        (
            "model",
            "",
            "a network from `playtune train-eval`: adds leaf=learned:FILE",
        ),
        ("turns", "30", "turns before the score decides"),
    ],
    build: |v, space| {
        use playtune_harness::tune::{TuneConfig, TuneProblem, tuning_space};
        use playtune_harness::{AgentSpec, DynGame, GameRequest};
        let agent = format!("hps(budget={})", v.count("budget")?);
        let model = v.get("model");
        let own;
        let space = match space {
            Some(given) => Some(given),
            None if model.is_empty() => None,
            None => {
                // The network must load before a search starts.
                DynGame::check(
                    &Strategy,
                    &GameRequest {
                        settings: DynGame::settings_values(
                            &Strategy,
                            &[("level".into(), "any".into())],
                        )?,
                        agents: AgentSpec::parse_all(&[
                            format!("hps(leaf=learned:{model})"),
                            "rule".into(),
                        ])?,
                        budget: None,
                        seed: 0,
                    },
                )?;
                let mut with_learned = tuning_space(&Strategy, &AgentSpec::parse(&agent)?)?;
                let leaf = with_learned.position("leaf").ok_or("hps has no leaf")?;
                if let playtune_optim::space::Domain::Categories(names) =
                    &mut with_learned.dims[leaf].domain
                {
                    names.push(format!("learned:{model}"));
                }
                own = with_learned;
                Some(&own)
            }
        };
        Ok(Box::new(TuneProblem::new(
            &Strategy,
            TuneConfig {
                agent,
                opponents: vec![v.get("opponent").to_string()],
                games: v.count("games")?,
                budget: None,
                settings: vec![
                    ("level".into(), "any".into()),
                    (
                        "turns".into(),
                        v.count_in("turns", super::log::MAX_TURNS)?.to_string(),
                    ),
                ],
            },
            space,
        )?))
    },
};
