//! Rinascimento as the harness sees it: players and the rule readings as settings,
//! the paper's agents (`rnd`, and the tuned `bmrh*`, `srh*`, `mcts*`) as presets, and
//! stalemates and cards bought per game.

use super::actions::RandomPlayer;
use super::agents::RinRandom;
use super::preset::Preset;
use super::rules::{MAX_PLAYERS, RULE_NAMES, Rules};
use super::state::RinState;
use crate::agents::RandomAgent;
use crate::game::Game;
use crate::harness::{AgentEntry, GameDef, Generic, Setting, Values};

/// The Rinascimento descriptor.
pub struct Rinascimento;

/// A rule setting left at Splendor's value for the player count.
const SPLENDOR: &str = "splendor";

/// The rule vector of `settings`: Splendor's for `players`, with the rules given over
/// it (read as a designer's point is: `rules_from_point`).
fn rules(settings: &Values, players: usize) -> Result<Rules, String> {
    let mut given = Vec::new();
    for &name in &RULE_NAMES[1..] {
        let text = settings.get(name);
        if text != SPLENDOR {
            let v: f64 = text
                .trim()
                .parse()
                .map_err(|_| format!("{name}={text}: give a whole number, or {SPLENDOR}"))?;
            given.push((name, v));
        }
    }
    if given.is_empty() {
        // Splendor itself, built exactly as before there were rule settings.
        return Ok(Rules::splendor(players as u32));
    }
    super::problem::rules_from_point(|n| {
        if n == "players" {
            Some(players as f64)
        } else {
            given.iter().find(|(g, _)| *g == n).map(|(_, v)| *v)
        }
    })
}

fn preset(settings: &Values) -> Result<Preset, String> {
    Preset::parse(settings.get("rules")).map_err(|e| format!("rules: {e}"))
}

impl GameDef for Rinascimento {
    type State = RinState;

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
            ),
            Setting::new(
                "rules",
                "spec",
                "spec, or reference: the Java framework's readings and random player",
            ),
        ];
        // The rest of the rule vector, each Splendor's value for the player count
        // unless given: what a designer tunes (`--problem design`).
        settings.extend(RULE_NAMES[1..].iter().map(|&name| {
            Setting::new(
                name,
                SPLENDOR,
                "a rule (docs/rinascimento.md); splendor: Splendor's value for the player count",
            )
        }));
        settings
    }

    fn new_state(&self, settings: &Values, seed: u64) -> Result<RinState, String> {
        let players = settings.count("players")?;
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!(
                "players={players}: Rinascimento takes 2 to {MAX_PLAYERS} players"
            ));
        }
        let rules = preset(settings)?.rules(rules(settings, players)?);
        RinState::new(&rules, seed)
    }

    fn design_space(&self) -> Option<crate::space::Space> {
        Some(super::problem::rules_space())
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
                "the spec's tuned MCTS* (MctsConfig::rinascimento_star)",
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
            ),
            AgentEntry::preset(
                &["bmrh*", "bmrh"],
                "the spec's tuned BMRH*",
                Generic::Bmrh,
                &[],
            ),
            AgentEntry::preset(&["srh*", "srh"], "the spec's tuned SRH*", Generic::Srh, &[]),
        ]
    }

    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{DynGame, GameRequest};

    /// The harness's tournament and the game's own give the same games.
    #[test]
    fn harness_tournament_matches_the_games_own() {
        let req = GameRequest {
            settings: vec![("players".into(), "2".into())],
            agents: vec!["rnd".into(), "osla(budget=20)".into(), "mcts*".into()],
            budget: Some(30),
            seed: 4,
        };
        let h = DynGame::tournament(&Rinascimento, &req, 3).unwrap();
        let specs =
            ["rnd", "osla", "mcts*"].map(|n| super::super::RinAgentSpec::parse(n, 30).unwrap());
        let mut specs = specs.to_vec();
        specs[1] = super::super::RinAgentSpec::Osla { budget: 20 };
        let own = super::super::tournament(&Rules::splendor(2), &specs, 2, 3, 4).unwrap();
        assert_eq!(
            h.agents.iter().map(|a| a.wins).collect::<Vec<_>>(),
            own.agents.iter().map(|a| a.wins).collect::<Vec<_>>()
        );
        assert_eq!(
            (h.mean_length, h.sd_length),
            (own.mean_length, own.sd_length)
        );
        assert_eq!(h.pairs, own.pairs);
    }
}
