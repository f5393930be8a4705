//! The agent registry: every agent a game can be played by, by name with settings,
//! `mcts(iterations=200,depth=10)`. The generic agents register once here and exist in
//! every game; a game adds only its scripts and presets ([`AgentEntry`]).

use super::Error;
use super::settings::{Setting, Values};
use crate::agents::{
    Bmrh, BmrhConfig, Mcts, MctsConfig, MicrobialConfig, MicrobialEa, MutationPoint, OpponentModel,
    Osla, RandomAgent, Recommendation, Srh, SrhConfig,
};
use crate::game::{Agent, Game};
use crate::space::Domain;

/// An agent as the user writes it: a name and its settings, `NAME` or
/// `NAME(KEY=VALUE,...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub name: String,
    pub settings: Vec<(String, String)>,
}

impl AgentSpec {
    pub fn parse(text: &str) -> Result<AgentSpec, Error> {
        let text = text.trim();
        let bad = |why: String| Error::Spec {
            spec: text.to_string(),
            why,
        };
        let (name, rest) = match text.split_once('(') {
            None => (text, None),
            Some((name, rest)) => {
                let inner = rest
                    .strip_suffix(')')
                    .ok_or_else(|| bad("expected NAME(KEY=VALUE,...) with a closing `)`".into()))?;
                (name, Some(inner))
            }
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("the name is missing".into()));
        }
        if name.contains([')', ',', '=']) {
            return Err(bad(format!(
                "`{name}` is not an agent name (NAME or NAME(KEY=VALUE,...))"
            )));
        }
        let mut settings: Vec<(String, String)> = Vec::new();
        // `NAME()` has no settings; any other empty item is a typing mistake.
        let inner = rest.filter(|r| !r.trim().is_empty());
        for pair in inner.into_iter().flat_map(|r| r.split(',')) {
            if pair.trim().is_empty() {
                return Err(bad(
                    "an empty setting (two commas in a row, or one at an end); expected KEY=VALUE,..."
                        .into(),
                ));
            }
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| bad(format!("`{pair}` is not KEY=VALUE")))?;
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() {
                return Err(bad(format!("`{pair}` has no KEY before `=`")));
            }
            if v.is_empty() {
                return Err(bad(format!(
                    "`{k}=` has no value (leave the setting out for its default)"
                )));
            }
            if let Some((_, first)) = settings.iter().find(|(n, _)| n == k) {
                return Err(bad(format!(
                    "setting `{k}` is given twice ({k}={first} and {k}={v}); give each setting once"
                )));
            }
            settings.push((k.to_string(), v.to_string()));
        }
        Ok(AgentSpec {
            name: name.to_string(),
            settings,
        })
    }
}

/// The spec as a user types it, `NAME` or `NAME(KEY=VALUE,...)`: what [`AgentSpec::parse`]
/// reads back to the same spec.
impl std::fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        if !self.settings.is_empty() {
            let pairs: Vec<String> = self
                .settings
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", pairs.join(","))?;
        }
        Ok(())
    }
}

/// Splits a list of agents at the commas outside parentheses, so that
/// `mcts(iterations=9,depth=3),random` is two agents.
pub fn split_agents(text: &str) -> Vec<String> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim().to_string());
    out.retain(|s| !s.is_empty());
    out
}

/// Builds an agent for game state `S` from its settings and the game's settings.
pub type Build<S> = fn(&Values, &Values) -> Result<Box<dyn Agent<S>>, Error>;

/// One agent a game offers: its names (the first is the one listed), what it is, its
/// settings with defaults, and how to build it.
pub struct AgentEntry<S: Game> {
    pub names: &'static [&'static str],
    pub about: &'static str,
    pub settings: Vec<Setting>,
    pub build: Build<S>,
}

impl<S: Game + 'static> AgentEntry<S> {
    /// A game's own agent.
    pub fn own(
        names: &'static [&'static str],
        about: &'static str,
        settings: Vec<Setting>,
        build: Build<S>,
    ) -> Self {
        AgentEntry {
            names,
            about,
            settings,
            build,
        }
    }

    /// A preset: generic agent `base` with the game's own defaults for some of its
    /// settings (the user may still override any).
    pub fn preset(
        names: &'static [&'static str],
        about: &'static str,
        base: Generic,
        defaults: &[(&str, &str)],
    ) -> Self {
        let mut settings = base.settings();
        for (k, v) in defaults {
            match settings.iter_mut().find(|s| s.name == *k) {
                Some(s) => s.default = v.to_string(),
                None => panic!("preset {names:?}: {base:?} has no setting `{k}`"),
            }
        }
        AgentEntry {
            names,
            about,
            settings,
            build: generic_builder::<S>(base),
        }
    }
}

impl<S: Game + 'static> AgentEntry<S> {
    /// The same entry with the game's own tuning grids for some settings (a paper's
    /// grid where the generic one differs); a setting may be made tunable here.
    pub(crate) fn with_grids(mut self, grids: Vec<(&str, Domain)>) -> Self {
        for (k, domain) in grids {
            match self.settings.iter_mut().find(|s| s.name == k) {
                Some(s) => s.tune = Some(domain),
                None => panic!("agent {:?} has no setting `{k}` to tune", self.names),
            }
        }
        self
    }
}

/// A tuning grid of numbers.
pub fn list(values: &[f64]) -> Domain {
    Domain::List(values.to_vec())
}

/// A tuning grid of names.
fn categories(names: &[&str]) -> Domain {
    Domain::Categories(names.iter().map(|n| n.to_string()).collect())
}

/// The opponent models a rolling-horizon or tree search agent may assume.
fn opponents() -> Domain {
    categories(&["nothing", "random", "osla"])
}

/// Settings several rolling-horizon and tree agents share, declared once.
fn opponent_model_setting(default: &str) -> Setting {
    Setting::new(
        "opponent",
        default,
        "opponent model: nothing, random or osla",
    )
    .tuned(opponents())
}

fn opponent_budget() -> Setting {
    Setting::new(
        "opponent_budget",
        "0.01",
        "share of the budget an OSLA opponent may spend per choice",
    )
    .tuned(list(&[0.005, 0.01, 0.02, 0.05]))
}

fn shift_buffer() -> Setting {
    Setting::new(
        "shift_buffer",
        "true",
        "keep the best sequence, shifted, for the next decision",
    )
    .tuned(Domain::Bool)
}

fn sequence_length() -> Setting {
    Setting::new("length", "2", "actions per sequence")
        .tuned(list(&[1.0, 2.0, 3.0, 5.0, 10.0, 20.0]))
}

fn flip_at_least_one(default: &str) -> Setting {
    Setting::new(
        "flip_at_least_one",
        default,
        "every mutation changes an action",
    )
    .tuned(Domain::Bool)
}

/// The generic agents, written once against [`Game`]: every game offers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generic {
    Random,
    Osla,
    Mcts,
    Bmrh,
    Srh,
    Microbial,
}

impl Generic {
    pub const ALL: [Generic; 6] = [
        Generic::Random,
        Generic::Osla,
        Generic::Mcts,
        Generic::Bmrh,
        Generic::Srh,
        Generic::Microbial,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Generic::Random => "random",
            Generic::Osla => "osla",
            Generic::Mcts => "mcts",
            Generic::Bmrh => "bmrh",
            Generic::Srh => "srh",
            Generic::Microbial => "microbial",
        }
    }

    pub fn about(self) -> &'static str {
        match self {
            Generic::Random => "a uniformly random legal action",
            Generic::Osla => "one-step look-ahead: tries up to `budget` own actions for one step",
            Generic::Mcts => "open-loop Monte Carlo tree search",
            Generic::Bmrh => "rolling horizon, a mutation point per sequence (BMRH)",
            Generic::Srh => "rolling horizon, per-action mutation (SRH)",
            Generic::Microbial => "rolling horizon, microbial evolutionary algorithm",
        }
    }

    /// The settings with the agent's own defaults. `budget` counts forward-model
    /// calls a decision (`max`: unlimited).
    pub fn settings(self) -> Vec<Setting> {
        let s = Setting::new;
        match self {
            Generic::Random => Vec::new(),
            Generic::Osla => vec![s("budget", "1000", "own actions tried per decision")],
            Generic::Mcts => {
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
                    s("roll_with_opponents", "true", "opponents act in rollouts")
                        .tuned(Domain::Bool),
                    s("budget", "max", "forward-model calls per decision"),
                ]
            }
            Generic::Bmrh => vec![
                sequence_length(),
                s("evaluations", "200", "sequences evaluated per decision")
                    .tuned(list(&[20.0, 50.0, 100.0, 200.0])),
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
                s("budget", "1000", "forward-model calls per decision"),
            ],
            Generic::Srh => vec![
                sequence_length(),
                s(
                    "evaluations",
                    "200",
                    "sequences evaluated per decision (0 plays as 1)",
                )
                .tuned(list(&[20.0, 50.0, 100.0, 200.0])),
                s("mutation_rate", "0.9", "chance each action mutates")
                    .tuned(list(&[0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0])),
                flip_at_least_one("false"),
                shift_buffer(),
                opponent_model_setting("random"),
                opponent_budget(),
                s("budget", "1000", "forward-model calls per decision"),
            ],
            Generic::Microbial => vec![
                s("population", "5", "plans in the population")
                    .tuned(list(&[2.0, 3.0, 5.0, 10.0, 20.0])),
                s("length", "7", "actions per plan")
                    .tuned(list(&[3.0, 5.0, 7.0, 10.0, 15.0, 20.0])),
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
                s("discount", "0.9", "discount of later rewards")
                    .tuned(list(&[0.8, 0.9, 0.95, 1.0])),
                s("macro", "1", "ticks each action repeats"),
                opponent_model_setting("random"),
                opponent_budget(),
                s("budget", "1750", "forward-model calls per decision"),
            ],
        }
    }

    /// The agent configured by `v` (every setting present: defaults filled in). Every
    /// setting is checked against its domain, and every search agent gets a finite
    /// amount of work per decision (see [`finite_work`]).
    pub fn build<G: Game + 'static>(self, v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
        let opponent = opponent_model;
        Ok(match self {
            Generic::Random => Box::new(RandomAgent),
            // OSLA without enumerated actions samples `budget` of them: `max` would
            // never end.
            Generic::Osla => Box::new(Osla::<G>::new(v.count("budget").map_err(|e| {
                Error::from(e).note("osla's budget counts actions tried; max would never end in a game that does not list its actions")
            })?)),
            Generic::Mcts => Box::new(Mcts::<G>::new(mcts_config(v)?)),
            Generic::Bmrh => {
                // Checked whichever mutation point uses them: a setting given is a
                // setting checked.
                let (decay, mean, sd) = (
                    v.positive("decay")?,
                    v.real("mean")?,
                    v.non_negative("sd")?,
                );
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
                    opponent: opponent(v)?,
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
                Box::new(Bmrh::<G>::new(config))
            }
            Generic::Srh => {
                let config = SrhConfig {
                    sequence_length: v.count("length")?,
                    // 0 plays as 1 (the first sequence alone), and the spec's grid
                    // offers it: accepted so that its points build.
                    evaluations: if v.get("evaluations").trim() == "0" {
                        0
                    } else {
                        v.limit("evaluations")?
                    },
                    mutation_rate: v.probability("mutation_rate")?,
                    flip_at_least_one: v.flag("flip_at_least_one")?,
                    shift_buffer: v.flag("shift_buffer")?,
                    opponent: opponent(v)?,
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
                Box::new(Srh::<G>::new(config))
            }
            Generic::Microbial => {
                let population = v.count("population")?;
                if population < 2 {
                    return Err(Error::Combination {
                        settings: format!("population={population}"),
                        owner: v.owner().to_string(),
                        why: "takes a population of at least 2 (a tournament needs two plans)"
                            .into(),
                    });
                }
                let config = MicrobialConfig {
                    population,
                    plan_length: v.count("length")?,
                    recombination: v.probability("recombination")?,
                    mutation: v.probability("mutation")?,
                    discount: v.probability("discount")?,
                    macro_action: v.count("macro")?,
                    opponent: opponent(v)?,
                    opponent_budget: v.probability("opponent_budget")?,
                    budget: v.limit("budget")?,
                };
                // Tournaments go on while calls are left: the budget is its only limit.
                finite_work(v, &[("budget", config.budget)], &[])?;
                Box::new(MicrobialEa::<G>::new(config))
            }
        })
    }
}

/// The most forward-model calls a decision may make when no `budget` caps them (the
/// product of the other limits): more takes hours a decision.
pub(crate) const MAX_DECISION_CALLS: u128 = 1_000_000_000;

/// Refuses settings with which a search agent would think forever: at least one of
/// `limits` (settings whose value may be `max`, usize::MAX) must be a number, and the
/// work they allow, the product of the first finite limit with `factors`, must stay
/// within [`MAX_DECISION_CALLS`]. A limit named `budget` bounds calls by itself.
pub(crate) fn finite_work(
    v: &Values,
    limits: &[(&str, usize)],
    factors: &[(&str, usize)],
) -> Result<(), Error> {
    let shown = |pairs: &[(&str, usize)]| -> String {
        pairs
            .iter()
            .map(|(k, n)| {
                if *n == usize::MAX {
                    format!("{k}=max")
                } else {
                    format!("{k}={n}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    if limits.iter().all(|(_, n)| *n == usize::MAX) {
        let names: Vec<&str> = limits.iter().map(|(k, _)| *k).collect();
        return Err(Error::Combination {
            settings: shown(limits),
            owner: v.owner().to_string(),
            why: format!("would think forever: give {} a number", names.join(" or ")),
        });
    }
    if limits
        .iter()
        .any(|(k, n)| *k == "budget" && *n != usize::MAX)
    {
        return Ok(());
    }
    let first = limits
        .iter()
        .find(|(_, n)| *n != usize::MAX)
        .map_or(1, |(_, n)| *n as u128);
    let calls = factors
        .iter()
        .fold(first, |acc, (_, n)| acc.saturating_mul(*n as u128));
    if calls > MAX_DECISION_CALLS {
        let mut all = limits.to_vec();
        all.extend_from_slice(factors);
        return Err(Error::Combination {
            settings: shown(&all),
            owner: v.owner().to_string(),
            why: format!(
                "would make up to {calls} forward-model calls a decision (at most {MAX_DECISION_CALLS}): give budget a number, or smaller settings"
            ),
        });
    }
    Ok(())
}

/// The limits of a rolling-horizon agent (BMRH, SRH): evaluations of `length`-action
/// sequences, or a budget of calls; an OSLA opponent spends a share of the budget, so
/// it needs a budget that is a number.
fn rolling_horizon_work(
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

/// MCTS's settings from the values of [`Generic::Mcts`]'s settings (for agents that
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

/// The `opponent` setting.
fn opponent_model(v: &Values) -> Result<OpponentModel, Error> {
    Ok(
        match v.choice("opponent", &["nothing", "random", "osla"])? {
            0 => OpponentModel::DoNothing,
            1 => OpponentModel::Random,
            _ => OpponentModel::Osla,
        },
    )
}

/// The builder of a generic agent, as a plain function pointer for [`AgentEntry`].
fn generic_builder<S: Game + 'static>(base: Generic) -> Build<S> {
    match base {
        Generic::Random => |v, _| Generic::Random.build(v),
        Generic::Osla => |v, _| Generic::Osla.build(v),
        Generic::Mcts => |v, _| Generic::Mcts.build(v),
        Generic::Bmrh => |v, _| Generic::Bmrh.build(v),
        Generic::Srh => |v, _| Generic::Srh.build(v),
        Generic::Microbial => |v, _| Generic::Microbial.build(v),
    }
}

/// Every agent a game offers: its own entries first (so a preset may take a generic
/// agent's name and give it the game's defaults), then the generic agents.
pub fn all_agents<S: Game + 'static>(own: Vec<AgentEntry<S>>) -> Vec<AgentEntry<S>> {
    let mut all = own;
    for g in Generic::ALL {
        if !all.iter().any(|e| e.names.contains(&g.name())) {
            all.push(AgentEntry {
                names: std::slice::from_ref(NAMES[g as usize]),
                about: g.about(),
                settings: g.settings(),
                build: generic_builder::<S>(g),
            });
        }
    }
    all
}

/// The generic agents' names as `'static` slices for [`AgentEntry::names`].
const NAMES: [&&str; 6] = [&"random", &"osla", &"mcts", &"bmrh", &"srh", &"microbial"];

/// Builds the agent `spec` names among `entries` (case-insensitively). `budget`, if
/// given, is the default of every `budget` setting the spec does not set itself.
pub fn build_agent<S: Game + 'static>(
    game: &str,
    entries: &[AgentEntry<S>],
    spec: &AgentSpec,
    budget: Option<usize>,
    game_settings: &Values,
) -> Result<Box<dyn Agent<S>>, Error> {
    let lower = spec.name.to_ascii_lowercase();
    let entry = entries
        .iter()
        .find(|e| e.names.iter().any(|n| n.eq_ignore_ascii_case(&lower)))
        .ok_or_else(|| Error::UnknownAgent {
            game: game.to_string(),
            name: spec.name.clone(),
            known: entries.iter().map(|e| e.names[0].to_string()).collect(),
        })?;
    let owner = format!("agent `{}`", entry.names[0]);
    let mut given = spec.settings.clone();
    if let Some(b) = budget {
        if entry.settings.iter().any(|s| s.name == "budget")
            && !given.iter().any(|(k, _)| k == "budget")
        {
            given.push(("budget".into(), b.to_string()));
        }
    }
    let values = Values::new(&owner, &entry.settings, &given)?;
    (entry.build)(&values, game_settings).map_err(|e| e.context(owner))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_and_lists_parse_with_settings() {
        assert_eq!(
            split_agents("mcts(iterations=9,depth=3), random,osla(budget=5)"),
            ["mcts(iterations=9,depth=3)", "random", "osla(budget=5)"]
        );
        let s = AgentSpec::parse("mcts(iterations=9, depth=3)").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.settings[1], ("depth".into(), "3".into()));
        assert!(AgentSpec::parse("mcts(iterations=9").is_err());
        assert!(AgentSpec::parse("mcts(iterations)").is_err());
        assert!(AgentSpec::parse("(x=1)").is_err());
    }

    #[test]
    fn generic_defaults_build_the_agents_defaults() {
        use crate::games::rinascimento::RinState;
        let none = Values::new("game", &[], &[]).unwrap();
        let entries = all_agents::<RinState>(Vec::new());
        for g in Generic::ALL {
            let spec = AgentSpec::parse(g.name()).unwrap();
            assert!(
                build_agent("test", &entries, &spec, None, &none).is_ok(),
                "{g:?}"
            );
        }
        let bad = AgentSpec::parse("mcts(depht=3)").unwrap();
        let e = build_agent("test", &entries, &bad, None, &none)
            .err()
            .unwrap();
        assert!(matches!(e, Error::Setting(_)), "{e}");
        assert!(e.to_string().contains("no setting `depht`"), "{e}");
        let bad = AgentSpec::parse("osla(budget=-1)").unwrap();
        assert!(build_agent("test", &entries, &bad, None, &none).is_err());
        let e = build_agent(
            "test",
            &entries,
            &AgentSpec::parse("hal").unwrap(),
            None,
            &none,
        );
        let e = e.err().unwrap();
        assert!(matches!(&e, Error::UnknownAgent { name, .. } if name == "hal"));
        assert!(e.to_string().contains("unknown test agent `hal`"));
    }
}
