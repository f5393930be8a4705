//! The agent registry: every agent a game can be played by, by name with settings,
//! `mcts(iterations=200,depth=10)`. The generic agents are declared once each (a file
//! here implementing [`GenericAgent`]: name, one line, settings, how it builds) and
//! registered with one line in `generic_agents!`'s list below; they exist in every
//! game. A game adds only its scripts and presets ([`AgentEntry`]).

mod bmrh;
mod ismcts;
mod mcts;
mod microbial;
mod osla;
mod random;
mod shared;
mod srh;

use super::Error;
use super::settings::{Setting, Values};
use crate::game::{Agent, Game};
use playtune_optim::space::Domain;

pub use mcts::mcts_config;

/// A generic agent's declaration: written once against [`Game`], offered by every game.
pub trait GenericAgent {
    /// Its name in agent specs, `NAME(KEY=VALUE,...)`.
    const NAME: &'static str;
    /// What it is, in a line (`playtune games` lists it).
    const ABOUT: &'static str;
    /// Its settings with its own defaults (a game's preset may change them). `budget`
    /// counts forward-model calls a decision (`max`: unlimited).
    fn settings() -> Vec<Setting>;
    /// The agent configured by `v` (every setting present: defaults filled in). Every
    /// setting is checked against its domain, and every search agent gets a finite
    /// amount of work per decision (see `finite_work`).
    fn build<G: Game + 'static>(v: &Values) -> Result<Box<dyn Agent<G>>, Error>;
}

/// Makes [`Generic`], the generic agents by name, from one line per declaration.
macro_rules! generic_agents {
    ($($(#[$doc:meta])* $variant:ident => $def:ty),* $(,)?) => {
        /// The generic agents, written once against [`Game`]: every game offers them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Generic {
            $($(#[$doc])* $variant),*
        }

        impl Generic {
            /// Every generic agent, in the order `playtune games` lists them.
            pub const ALL: &'static [Generic] = &[$(Generic::$variant),*];

            /// Its name in agent specs.
            pub fn name(self) -> &'static str {
                match self {
                    $(Generic::$variant => <$def>::NAME),*
                }
            }

            /// Its name as a `'static` slice, for [`AgentEntry::names`].
            fn names(self) -> &'static [&'static str] {
                match self {
                    $(Generic::$variant => &[<$def>::NAME]),*
                }
            }

            /// What it is, in a line.
            pub fn about(self) -> &'static str {
                match self {
                    $(Generic::$variant => <$def>::ABOUT),*
                }
            }

            /// The settings with the agent's own defaults.
            pub fn settings(self) -> Vec<Setting> {
                match self {
                    $(Generic::$variant => <$def>::settings()),*
                }
            }

            /// The agent configured by `v` (every setting present: defaults filled in).
            pub fn build<G: Game + 'static>(self, v: &Values) -> Result<Box<dyn Agent<G>>, Error> {
                match self {
                    $(Generic::$variant => <$def>::build::<G>(v)),*
                }
            }

            /// The builder as a plain function pointer, for [`AgentEntry`].
            fn builder<S: Game + 'static>(self) -> Build<S> {
                match self {
                    $(Generic::$variant => |v, _| <$def>::build::<S>(v)),*
                }
            }
        }
    };
}

// The generic agents, one line each, in the order `playtune games` lists them.
generic_agents! {
    /// A random legal action each decision (`random`).
    Random => random::Random,
    /// One-step look-ahead (`osla`).
    Osla => osla::Osla,
    /// Open-loop Monte Carlo tree search (`mcts`).
    Mcts => mcts::Mcts,
    /// Information-set MCTS, for games that hide information (`ismcts`).
    Ismcts => ismcts::Ismcts,
    /// Rolling horizon, a mutation point per sequence (`bmrh`).
    Bmrh => bmrh::Bmrh,
    /// Seeded rolling horizon (`srh`).
    Srh => srh::Srh,
    /// Rolling horizon with a microbial evolutionary algorithm (`microbial`).
    Microbial => microbial::Microbial,
}

/// An agent as the user writes it: a name and its settings, `NAME` or
/// `NAME(KEY=VALUE,...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// The agent's name.
    pub name: String,
    /// Its settings as given (`KEY`, `VALUE`), in order.
    pub settings: Vec<(String, String)>,
}

impl AgentSpec {
    /// Reads each of `texts` ([`AgentSpec::parse`]).
    pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<AgentSpec>, Error> {
        texts.iter().map(|t| AgentSpec::parse(t.as_ref())).collect()
    }

    /// Reads `NAME` or `NAME(KEY=VALUE,...)`.
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
        if text.is_empty() {
            return Err(bad(
                "an empty agent: two commas in a row, or a comma at an end of the list".into(),
            ));
        }
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
    // An empty place between commas stays, for the spec's parse to refuse: dropped,
    // `random,,osla` would quietly be a ladder of two.
    if out.iter().all(String::is_empty) {
        out.clear();
    }
    out
}

/// Builds an agent for game state `S` from its settings and the game's settings.
pub type Build<S> = fn(&Values, &Values) -> Result<Box<dyn Agent<S>>, Error>;

/// One agent a game offers: its names (the first is the one listed), what it is, its
/// settings with defaults, and how to build it.
pub struct AgentEntry<S: Game> {
    /// Its names, the first the one listed.
    pub names: &'static [&'static str],
    /// What it is, in a line.
    pub about: &'static str,
    /// Its settings with their defaults.
    pub settings: Vec<Setting>,
    /// How it builds from its settings and the game's.
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
                Some(s) => {
                    s.default = v.to_string();
                    // The preset's default is a value tuning may keep: the untuned
                    // agent is a point of its own space (a forward-model game's MCTS
                    // searches to depth 200, past the generic grid's 20).
                    if let (Some(playtune_optim::space::Domain::List(values)), Ok(x)) =
                        (&mut s.tune, v.parse::<f64>())
                        && !values.contains(&x)
                    {
                        values.push(x);
                        values.sort_by(f64::total_cmp);
                    }
                }
                None => panic!("preset {names:?}: {base:?} has no setting `{k}`"),
            }
        }
        AgentEntry {
            names,
            about,
            settings,
            build: base.builder::<S>(),
        }
    }
}

impl<S: Game + 'static> AgentEntry<S> {
    /// The same entry with the game's own tuning grids for some settings (a paper's
    /// grid where the generic one differs); a setting may be made tunable here.
    pub fn with_grids(mut self, grids: Vec<(&str, Domain)>) -> Self {
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

/// Every agent a game offers: its own entries first (so a preset may take a generic
/// agent's name and give it the game's defaults), then the generic agents.
pub fn all_agents<S: Game + 'static>(own: Vec<AgentEntry<S>>) -> Vec<AgentEntry<S>> {
    let mut all = own;
    for g in Generic::ALL {
        if !all.iter().any(|e| e.names.contains(&g.name())) {
            all.push(AgentEntry {
                names: g.names(),
                about: g.about(),
                settings: g.settings(),
                build: g.builder::<S>(),
            });
        }
    }
    all
}

/// The agent `spec` names among `entries` (case-insensitively), its settings read
/// once: a request's games each build it from these. `budget`, if given, is the
/// default of every `budget` setting the spec does not set itself.
pub(crate) struct ReadAgent {
    /// The entry in `entries`.
    entry: usize,
    /// Its settings, read.
    values: Values,
}

impl ReadAgent {
    /// Reads `spec` against `entries`.
    pub(crate) fn new<S: Game + 'static>(
        game: &str,
        entries: &[AgentEntry<S>],
        spec: &AgentSpec,
        budget: Option<usize>,
    ) -> Result<ReadAgent, Error> {
        let lower = spec.name.to_ascii_lowercase();
        let entry = entries
            .iter()
            .position(|e| e.names.iter().any(|n| n.eq_ignore_ascii_case(&lower)))
            .ok_or_else(|| Error::UnknownAgent {
                game: game.to_string(),
                name: spec.name.clone(),
                known: entries.iter().map(|e| e.names[0].to_string()).collect(),
            })?;
        let e = &entries[entry];
        let owner = format!("agent `{}`", e.names[0]);
        let mut given = spec.settings.clone();
        if let Some(b) = budget {
            if e.settings.iter().any(|s| s.name == "budget")
                && !given.iter().any(|(k, _)| k == "budget")
            {
                given.push(("budget".into(), b.to_string()));
            }
        }
        Ok(ReadAgent {
            entry,
            values: Values::new(&owner, &e.settings, &given)?,
        })
    }

    /// A fresh agent, for one game under `game_settings`.
    pub(crate) fn build<S: Game + 'static>(
        &self,
        entries: &[AgentEntry<S>],
        game_settings: &Values,
    ) -> Result<Box<dyn Agent<S>>, Error> {
        (entries[self.entry].build)(&self.values, game_settings)
            .map_err(|e| e.context(self.values.owner().to_string()))
    }
}

/// Builds the agent `spec` names among `entries` (case-insensitively). `budget`, if
/// given, is the default of every `budget` setting the spec does not set itself.
pub fn build_agent<S: Game + 'static>(
    game: &str,
    entries: &[AgentEntry<S>],
    spec: &AgentSpec,
    budget: Option<usize>,
    game_settings: &Values,
) -> Result<Box<dyn Agent<S>>, Error> {
    ReadAgent::new(game, entries, spec, budget)?.build(entries, game_settings)
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
        // An empty place is kept, and refused by name (issue 72's probe: a ladder
        // `random,,osla` was checked as two rungs).
        assert_eq!(split_agents("random,,osla"), ["random", "", "osla"]);
        assert!(split_agents("  ").is_empty());
        let empty = AgentSpec::parse("").unwrap_err().to_string();
        assert!(
            empty.contains("an empty agent: two commas in a row"),
            "{empty}"
        );
        let s = AgentSpec::parse("mcts(iterations=9, depth=3)").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.settings[1], ("depth".into(), "3".into()));
        assert!(AgentSpec::parse("mcts(iterations=9").is_err());
        assert!(AgentSpec::parse("mcts(iterations)").is_err());
        assert!(AgentSpec::parse("(x=1)").is_err());
    }
}
