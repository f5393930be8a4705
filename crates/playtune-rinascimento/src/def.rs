//! Rinascimento as the harness sees it: players and the rule readings as settings,
//! the paper's agents (`rnd`, and the tuned `bmrh*`, `srh*`, `mcts*`) as presets, and
//! stalemates and cards bought per game.

use super::actions::RandomPlayer;
use super::agents::RinRandom;
use super::preset::Preset;
use super::rules::{MAX_PLAYERS, RULE_NAMES, Rules};
use super::state::RinState;
use playtune_harness::agents::RandomAgent;
use playtune_harness::game::Game;
use playtune_harness::list;
use playtune_harness::{AgentEntry, Error, GameDef, Generic, Setting, Values};
use playtune_optim::space::{Dimension, Domain, Space};

/// The Rinascimento descriptor.
pub struct Rinascimento;

/// A rule setting left at Splendor's value for the player count.
const SPLENDOR: &str = "splendor";

/// The rule vector of `settings`: Splendor's for `players`, with the rules given over
/// it (read as a designer's point is: `rules_from_point`).
fn rules(settings: &Values, players: usize) -> Result<Rules, Error> {
    let mut given = Vec::new();
    for &name in &RULE_NAMES[1..] {
        let text = settings.get(name);
        if text != SPLENDOR {
            let v: f64 = text.trim().parse().map_err(|_| {
                Error::value(name, text, format!("give a whole number, or {SPLENDOR}"))
            })?;
            given.push((name, v));
        }
    }
    if given.is_empty() {
        // Splendor itself, built exactly as before there were rule settings.
        return Ok(Rules::splendor(players as u32));
    }
    Ok(super::rules::rules_from_point(|n| {
        if n == "players" {
            Some(players as f64)
        } else {
            given.iter().find(|(g, _)| *g == n).map(|(_, v)| *v)
        }
    })?)
}

fn preset(settings: &Values) -> Result<Preset, Error> {
    Preset::parse(settings.get("rules")).map_err(|e| Error::from(e).context("rules"))
}

/// The rules a rule-vector space searches, with their ranges (inclusive) and
/// Splendor's 4-player defaults; `max_actions` (300) and `content_seed` (0) stay fixed.
const RULE_RANGES: [(&str, i64, i64); 14] = [
    ("players", 2, 4),
    ("token_types", 3, 8),
    ("jokers", 0, 10),
    ("decks", 1, 5),
    ("face_up", 1, 6),
    ("extra_nobles", 0, 6),
    ("coins", 2, 10),
    ("max_tokens", 5, 15),
    ("max_reserved", 0, 5),
    ("end_points", 5, 30),
    ("pick_diff_types", 1, 5),
    ("pick_diff_each", 1, 3),
    ("pick_same", 1, 5),
    ("pick_same_min", 1, 8),
];

/// The rule vector as a space (ranges the game supports; defaults: 4-player Splendor).
pub(crate) fn rules_space() -> Space {
    let defaults = Rules::splendor(4);
    Space {
        name: "rinascimento-rules".into(),
        dims: RULE_RANGES
            .iter()
            .map(|&(name, min, max)| {
                let v = defaults.value(name).expect("a rule name") as i64;
                Dimension {
                    name: name.into(),
                    domain: Domain::Int { min, max, step: 1 },
                    default: (v - min) as usize,
                    fixed: false,
                }
            })
            .collect(),
        groups: Vec::new(),
        constraints: Vec::new(),
    }
}

impl GameDef for Rinascimento {
    type State = RinState;
    type Rules = Rules;

    fn name(&self) -> &'static str {
        "rinascimento"
    }

    fn title(&self) -> &'static str {
        "Rinascimento"
    }

    fn about(&self) -> &'static str {
        "Rinascimento: Splendor with its rules as a parameter vector (Bravi et al., 2019)"
    }

    fn settings(&self) -> Vec<Setting> {
        let mut settings = vec![
            Setting::new(
                "players",
                "4",
                "players, 2 to 4 (Splendor's rules for that count)",
            )
            .within(2.0, MAX_PLAYERS as f64),
            Setting::new(
                "rules",
                "spec",
                "spec, or reference: the Java framework's readings and random player",
            ),
        ];
        // The rest of the rule vector, each Splendor's value for the player count
        // unless given: what a designer tunes (`--problem design`).
        settings.extend(RULE_NAMES[1..].iter().map(|&name| {
            let setting = Setting::new(
                name,
                SPLENDOR,
                "a rule (docs/rinascimento.md); splendor: Splendor's value for the player count",
            );
            match super::rules::bounds(name) {
                // Whole numbers only: a design space of 2.5 coins is refused before
                // any game, not at every evaluation.
                Some((lo, hi)) => setting.within(lo as f64, hi as f64).taking(Domain::Int {
                    min: lo as i64,
                    max: hi as i64,
                    step: 1,
                }),
                None => setting,
            }
        }));
        settings
    }

    fn rules(&self, settings: &Values) -> Result<Rules, Error> {
        let players = settings.count("players")?;
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(Error::value(
                "players",
                players.to_string(),
                format!("Rinascimento takes 2 to {MAX_PLAYERS} players"),
            ));
        }
        Ok(preset(settings)?.rules(rules(settings, players)?))
    }

    fn new_state(&self, rules: &Rules, seed: u64) -> Result<RinState, Error> {
        Ok(RinState::new(rules, seed)?)
    }

    fn design_space(&self) -> Option<playtune_optim::space::Space> {
        Some(rules_space())
    }

    /// Splendor's rules for the player count, every rule a number: 2-player Splendor
    /// has 4 coins a colour, not the 4-player 7.
    fn own_rules(&self, settings: &Values) -> Result<Vec<(String, String)>, Error> {
        let players = settings.count("players")?;
        let rules = rules(settings, players)?;
        Ok(settings
            .pairs()
            .iter()
            .map(|(name, text)| match rules.value(name) {
                Some(v) if text == SPLENDOR => (name.clone(), format!("{v}")),
                _ => (name.clone(), text.clone()),
            })
            .collect())
    }

    /// The rule-design study's bounds, from Splendor's own 2-player games (66 to 70
    /// steps, 0 to 3% without a winner, seat win rates within 0.02; docs/design.md):
    /// nearly always won, neither a sprint nor a slog (20 to 60 steps a player), and no
    /// seat decisive (loose, since a fair game's measured seat advantage over one
    /// evaluation's games is itself about 0.1 +- 0.1).
    fn playability(&self, settings: &Values) -> Vec<String> {
        let players = settings.count("players").unwrap_or(MAX_PLAYERS);
        vec![
            "stalemate_rate <= 0.05".into(),
            format!("mean_length in {}..{}", 20 * players, 60 * players),
            "seat_advantage <= 0.3".into(),
        ]
    }

    fn agents(&self) -> Vec<AgentEntry<RinState>> {
        vec![
            AgentEntry::own(
                &["rnd", "random"],
                "the paper's random player (the framework's under rules=reference)",
                Vec::new(),
                |_, game| {
                    Ok(match preset(game)? {
                        Preset::Spec => Box::new(RandomAgent),
                        Preset::Reference => Box::new(RinRandom(RandomPlayer::reference())),
                    })
                },
            ),
            AgentEntry::preset(
                &["mcts*", "mcts"],
                "the spec's tuned MCTS* (rinascimento::mcts_star)",
                Generic::Mcts,
                &[
                    ("iterations", "max"),
                    ("depth", "1"),
                    ("c", "0"),
                    ("epsilon", "0.000001"),
                    ("p_exp", "0.4"),
                    ("width", "1"),
                    ("recommend", "secure"),
                    ("budget", "1000"),
                ],
            )
            .with_grids(vec![
                ("c", list(&[0.0, 1.41, 4.0, 9.0, 15.0, 20.0])),
                ("depth", list(&[1.0, 2.0, 5.0, 10.0, 20.0])),
                ("opponent_budget", list(&[0.01, 0.05, 0.1])),
                ("p_exp", list(&[0.1, 0.2, 0.3, 0.4])),
                ("width", list(&[1.0, 3.0, 5.0, 10.0, 15.0])),
            ]),
            // The generic BMRH grid is the spec's.
            AgentEntry::preset(
                &["bmrh*", "bmrh"],
                "the spec's tuned BMRH*",
                Generic::Bmrh,
                &[],
            ),
            AgentEntry::preset(&["srh*", "srh"], "the spec's tuned SRH*", Generic::Srh, &[])
                .with_grids(vec![
                    (
                        "mutation_rate",
                        list(&[0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0]),
                    ),
                    (
                        "evaluations",
                        list(&[0.0, 1.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0]),
                    ),
                    ("opponent_budget", list(&[0.001, 0.005, 0.01, 0.02, 0.05])),
                ]),
        ]
    }

    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, Error> {
        Ok(vec![
            "rnd".into();
            settings.count("players")?.min(MAX_PLAYERS)
        ])
    }

    /// The action limit is the cap; points and a player without moves are the rules.
    fn ended_by_rules(&self, state: &RinState) -> bool {
        state.end_reason() != Some(super::state::EndReason::Timeout)
    }

    fn summary(&self, state: &RinState) -> Vec<(String, f64)> {
        // Indicators, so that their means over a tournament are rates and shares (the
        // length cut points are the reference framework's figures').
        let indicator = |b: bool| f64::from(u8::from(b));
        let length = state.step_count();
        let mut out = vec![
            (
                "stalemate_rate".to_string(),
                indicator(state.is_stalemate()),
            ),
            ("share_under_100".to_string(), indicator(length < 100)),
            ("share_160_plus".to_string(), indicator(length >= 160)),
        ];
        out.extend(
            (0..state.num_players()).map(|s| (format!("cards_{s}"), state.hand(s).cards as f64)),
        );
        out
    }
}

/// The `rules` problem setting: `spec` or `reference` (see [`Preset`]).
fn rules_setting(v: &Values) -> Result<String, Error> {
    Preset::parse(v.get("rules"))
        .map(|p| p.name().to_string())
        .map_err(|e| Error::from(e).context(format!("rules={}", v.get("rules"))))
}

/// Problem `rinascimento-agent`: `tune-agent` on Rinascimento with the paper's
/// defaults, the budget part of the agent so that a recommendation pastes whole.
pub const AGENT_TUNING: playtune_optim::eval::ProblemDef = playtune_optim::eval::ProblemDef {
    name: "rinascimento-agent",
    about: "tune-agent on Rinascimento with the paper's defaults: the agent (bmrh|srh|mcts, the spec's grids) against players-1 opponents, every agent at `budget` forward-model calls a decision",
    settings: &[
        (
            "agent",
            "bmrh",
            "bmrh, srh or mcts (the spec's presets and grids), or a spec",
        ),
        ("players", "4", "players per game"),
        ("opponents", "osla", "what the other seats play"),
        ("games", "1", "games per evaluation"),
        (
            "budget",
            "1000",
            "forward-model calls per decision, every agent",
        ),
        ("rules", "spec", "rule readings: spec or reference"),
    ],
    build: |v, space| {
        use playtune_harness::tune::{TuneConfig, TuneProblem};
        let budget = v.count("budget")?;
        let mut agent = playtune_harness::AgentSpec::parse(v.get("agent"))?;
        if !agent.settings.iter().any(|(k, _)| k == "budget") {
            agent.settings.push(("budget".into(), budget.to_string()));
        }
        Ok(Box::new(TuneProblem::new(
            &Rinascimento,
            TuneConfig {
                agent: agent.to_string(),
                opponents: vec![v.get("opponents").to_string()],
                games: v.count("games")?,
                budget: Some(budget),
                settings: vec![
                    ("players".into(), v.count("players")?.to_string()),
                    ("rules".into(), rules_setting(v)?),
                ],
            },
            space,
        )?))
    },
};

/// Problem `rinascimento-rules`: `design` on Rinascimento's rule vector with the
/// paper's defaults.
pub const RULE_DESIGN: playtune_optim::eval::ProblemDef = playtune_optim::eval::ProblemDef {
    name: "rinascimento-rules",
    about: "design on Rinascimento with the paper's defaults: skill depth of the ladder over the rule vector, each rung against the weakest, every agent at `budget` forward-model calls a decision",
    settings: &[
        ("ladder", "rnd,osla,mcts*", "agent specs, weakest first"),
        ("games", "1", "games per ladder agent per evaluation"),
        (
            "budget",
            "1000",
            "forward-model calls per decision, every agent",
        ),
        ("rules", "spec", "rule readings: spec or reference"),
    ],
    build: |v, space| {
        use playtune_harness::design::{DesignConfig, DesignProblem};
        Ok(Box::new(DesignProblem::new(
            &Rinascimento,
            DesignConfig {
                ladder: playtune_harness::split_agents(v.get("ladder")),
                games: v.count("games")?,
                budget: Some(v.count("budget")?),
                settings: vec![("rules".into(), rules_setting(v)?)],
                metrics: true,
                playable: false,
            },
            space,
        )?))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use playtune_harness::{AgentSpec, tune::tuning_space};

    /// What the rules' space file says of the readings it leaves out.
    const RULES_NOTE: &str = "// The readings where the spec and the reference framework differ (end of game,\n// reserving with a full hand, card colours) are no dimensions: problems take them\n// as a game setting, spec by default: --set rules=reference for --problem\n// rinascimento-rules, --set game_settings=rules=reference for --problem design.\n";

    /// The spaces shipped as files: the rule vector, and the tuning grid of each of the
    /// spec's tuned agents (what `--problem tune-agent --set game=rinascimento` searches).
    fn shipped() -> Vec<(String, Space, &'static str)> {
        let mut spaces = vec![("rules".to_string(), rules_space(), RULES_NOTE)];
        for agent in ["bmrh", "srh", "mcts"] {
            let spec = AgentSpec::parse(agent).unwrap();
            spaces.push((
                agent.into(),
                tuning_space(&Rinascimento, &spec).unwrap(),
                "",
            ));
        }
        spaces
    }

    #[test]
    fn rules_space_defaults_are_splendor_and_every_corner_plays() {
        let s = rules_space();
        let x = s.decode(&s.default_indices());
        let rules = super::super::rules::rules_from_point(|n| s.position(n).map(|i| x[i])).unwrap();
        assert_eq!(rules, Rules::splendor(4));
        for corner in [0u32, 1] {
            let idx: Vec<u32> = s
                .dims
                .iter()
                .map(|d| corner * (d.domain.len() as u32 - 1))
                .collect();
            let y = s.decode(&idx);
            assert!(super::super::rules::rules_from_point(|n| s.position(n).map(|i| y[i])).is_ok());
        }
    }

    /// The tuned agents' grids are the spec's, defaults at the tuned configurations.
    #[test]
    fn tuning_grids_are_the_specs_with_the_tuned_defaults() {
        let mcts = tuning_space(&Rinascimento, &AgentSpec::parse("mcts").unwrap()).unwrap();
        let at_default: Vec<(String, String)> = mcts.render(&mcts.decode(&mcts.default_indices()));
        let value = |k: &str| {
            at_default
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(value("c"), Some("0"));
        assert_eq!(value("p_exp"), Some("0.4"));
        assert_eq!(value("recommend"), Some("secure"));
        assert_eq!(mcts.len(), 8);
        let srh = tuning_space(&Rinascimento, &AgentSpec::parse("srh").unwrap()).unwrap();
        assert_eq!(srh.len(), 7);
        let bmrh = tuning_space(&Rinascimento, &AgentSpec::parse("bmrh").unwrap()).unwrap();
        assert_eq!(bmrh.len(), 10);
    }

    #[test]
    fn shipped_space_files_equal_the_built_in_spaces() {
        for (name, space, _) in shipped() {
            let path = format!(
                "{}/../../spaces/rinascimento_{name}.ron",
                env!("CARGO_MANIFEST_DIR")
            );
            let file = playtune_optim::space::load_space(std::path::Path::new(&path)).unwrap();
            assert_eq!(file, space, "{path}");
        }
    }

    /// Writes the shipped space files. Run with
    /// `cargo test --release -p playtune-rinascimento --lib export_rinascimento_spaces -- --ignored`.
    #[test]
    #[ignore]
    fn export_rinascimento_spaces() {
        let header = "// Generated from the built-in space (crates/playtune-rinascimento); a test checks they agree.\n";
        for (name, space, note) in shipped() {
            let text = format!(
                "{header}{note}{}",
                playtune_optim::space::to_space_file(&space)
            );
            std::fs::write(
                format!(
                    "{}/../../spaces/rinascimento_{name}.ron",
                    env!("CARGO_MANIFEST_DIR")
                ),
                text,
            )
            .unwrap();
        }
    }
}
