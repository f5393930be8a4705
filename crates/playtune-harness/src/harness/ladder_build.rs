//! A ladder built to be ordered: starting at `random`, each next rung is a candidate
//! that has been shown, head to head against the rung below, to score at least the
//! target (0.6 by default) by a sequential test that stops as soon as it decides.
//! Candidates come first from more search of the top rung's kind (its iterations,
//! simulations, evaluations or budget multiplied by a factor), then from the next,
//! stronger kind of bot (`osla`, `mcts`, `ismcts` by default).
//!
//! Every game is seeded from (seed, rung, candidate, game), and the test looks at
//! fixed game counts, so a ladder is the same on one thread or sixteen. A built
//! ladder is kept in a cache file keyed by the game, its rules and the build's
//! settings ([`LadderCache`]), so that it is built once.

use super::agents::{AgentSpec, Generic};
use super::{DynGame, Error, GameRequest, PreparedGame, Setting, Values};
use playtune_optim::rng::derive_seed;
use playtune_optim::stats::Summary;
use playtune_optim::stats::sequential::{self, Decision, Sequence, SequentialPlan};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The ladder's first rung: every game's uniformly random player.
pub(crate) const WEAKEST: &str = "random";
/// The kinds of bot climbed when none are given, weakest first: one-step look-ahead,
/// then tree search, then tree search over re-sampled worlds (what a game that
/// hides information needs; elsewhere it is MCTS again, so rarely a rung).
pub(crate) const DEFAULT_KINDS: &[&str] = &["osla", "mcts", "ismcts"];
/// Rungs built when the user names no number, `random` counted.
pub const DEFAULT_RUNGS: usize = 3;
/// The most games a candidate plays against the rung below when none is given.
pub const DEFAULT_GAMES: usize = 200;
/// The score against the rung below a candidate must be shown to reach.
pub const DEFAULT_TARGET: f64 = 0.6;
/// How much more search each candidate of a kind gets than the rung below.
pub const DEFAULT_FACTOR: f64 = 4.0;
/// The most games a candidate may be given: beyond it a build takes days.
pub(crate) const MAX_GAMES: usize = 100_000;
/// The most rungs a ladder may be asked for.
pub(crate) const MAX_RUNGS: usize = 16;
/// The chance of keeping a candidate no stronger than the rung below.
pub const ALPHA: f64 = 0.01;
/// The chance of passing over a candidate that does reach the target.
pub const BETA: f64 = 0.05;
/// The fewest games played at once: looks come every few games early on, and a batch
/// of one look's games would leave most cores idle. Fixed, not the thread count, so
/// that the games played (the cost) are the same on any machine.
const PLAY_AHEAD: usize = 8;
/// The settings that say how much an agent searches a decision, by the names the
/// registry's agents give them; every one an agent has as a number grows together.
const SEARCH_LIMITS: &[&str] = &["iterations", "simulations", "evaluations", "budget"];
/// The cache file's format: a file of another is ignored and rebuilt.
const CACHE_FORMAT: u32 = 1;
/// The largest cache file read: a ladder's is a few kilobytes.
const CACHE_MAX_BYTES: u64 = 1 << 20;

/// What a ladder is built from.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildConfig {
    /// Game settings given (`NAME`, `VALUE`): the game's own rules fill in the rest.
    pub settings: Vec<(String, String)>,
    /// Rungs wanted, `random` counted.
    pub rungs: usize,
    /// The most games a candidate plays against the rung below.
    pub games: usize,
    /// The score against the rung below a candidate must be shown to reach (a win
    /// 1, a draw 1/2).
    pub target: f64,
    /// How much more search a candidate of the same kind gets than the rung below.
    pub factor: f64,
    /// The kinds of bot to climb, weakest first, each an agent spec at its starting
    /// settings; `None`: `osla`, `mcts`, `ismcts`, those the game does not offer left out.
    pub kinds: Option<Vec<String>>,
    /// The seed every game is drawn from.
    pub seed: u64,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            settings: Vec::new(),
            rungs: DEFAULT_RUNGS,
            games: DEFAULT_GAMES,
            target: DEFAULT_TARGET,
            factor: DEFAULT_FACTOR,
            kinds: None,
            seed: 1,
        }
    }
}

/// Why a ladder cannot be built as asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// No games a candidate.
    #[error("games 0: give the most games a candidate plays against the rung below (at least 1)")]
    NoGames,
    /// More games a candidate than any build should play.
    #[error("games {games}: at most {max} games a candidate (a build of more takes days)")]
    TooManyGames {
        /// The games asked for.
        games: usize,
        /// The most allowed.
        max: usize,
    },
    /// Fewer than two rungs, or more than 16.
    #[error("rungs {rungs}: give 2 to {max} rungs, `random` counted")]
    Rungs {
        /// The rungs asked for.
        rungs: usize,
        /// The most allowed.
        max: usize,
    },
    /// A target score a ladder cannot be built to.
    #[error(
        "target {target}: give the score a rung must be shown to reach against the one below, above 0.5 and below 1 (0.6: a margin of 0.1 over an even match)"
    )]
    Target {
        /// The target given.
        target: f64,
    },
    /// A factor that does not grow the search.
    #[error(
        "factor {factor}: give how much more search each candidate of a kind gets, a number above 1 and at most 1000"
    )]
    Factor {
        /// The factor given.
        factor: f64,
    },
    /// A game of other than two seats.
    #[error(
        "game `{game}` seats {players} players under these settings: only two-seat games are built for now (a rung is played head to head against the one below)"
    )]
    Seats {
        /// The game's name.
        game: String,
        /// Its seats.
        players: usize,
    },
    /// No kind of bot to climb.
    #[error("kinds: no kind of bot to climb (give agent specs, weakest first)")]
    NoKinds,
    /// A kind of bot that does not build in the game.
    #[error("kind `{spec}`: {source}")]
    Kind {
        /// The spec as given.
        spec: String,
        /// Why it does not build.
        #[source]
        source: Box<Error>,
    },
    /// The game has no `random` player to start from.
    #[error("the first rung, `random`, does not play this game: {0}")]
    Weakest(#[source] Box<Error>),
    /// The game's settings are refused, or a game failed.
    #[error(transparent)]
    Game(Box<Error>),
}

impl From<Error> for BuildError {
    fn from(e: Error) -> Self {
        BuildError::Game(Box::new(e))
    }
}

/// One candidate played against the rung below it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderStep {
    /// The rung it tried for: 1 is the first above `random`.
    pub rung: usize,
    /// The candidate, an agent spec.
    pub candidate: String,
    /// The rung below it.
    pub below: String,
    /// Whether it is more search of the rung below's kind (else a new kind).
    pub more_search: bool,
    /// Its mean score against the rung below (a win 1, a draw 1/2).
    pub score: f64,
    /// The score's standard error.
    pub se: f64,
    /// Games the test counted (the look it decided at, or the cap).
    pub games: usize,
    /// What the test decided: `Better` makes it a rung.
    pub decision: Decision,
}

impl LadderStep {
    /// Whether the candidate became a rung.
    pub fn kept(&self) -> bool {
        self.decision == Decision::Better
    }

    /// The step in a line: `osla against random: scores 0.735 ± 0.031 over 58 games:
    /// shown stronger (a rung)`.
    pub fn line(&self, target: f64) -> String {
        let verdict = match self.decision {
            Decision::Better => "shown stronger: a rung".to_string(),
            Decision::Equal => format!(
                "not stronger by the target {target}: within {:.2} of an even match",
                target - 0.5
            ),
            Decision::Worse => "shown weaker".to_string(),
            Decision::Undecided => "not shown stronger by the cap".to_string(),
        };
        format!(
            "{} against {}: scores {:.3} ± {:.3} over {} games: {verdict}",
            self.candidate, self.below, self.score, self.se, self.games
        )
    }
}

/// A ladder built, with every step tried and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuiltLadder {
    /// The game's name.
    pub game: String,
    /// The rules it was built at: every setting with its value.
    pub rules: Vec<(String, String)>,
    /// The rungs, weakest first: `random` and every candidate kept.
    pub ladder: Vec<String>,
    /// The rungs asked for.
    pub asked: usize,
    /// The target score of every step.
    pub target: f64,
    /// The most games a candidate could play.
    pub cap: usize,
    /// Every candidate tried, in order.
    pub steps: Vec<LadderStep>,
    /// Games played in all (a batch may run a few past the look that decided).
    pub games_played: usize,
    /// Wall time of the build, in seconds.
    pub seconds: f64,
    /// What the build passed over, and why (a kind the game does not offer).
    pub notes: Vec<String>,
}

impl BuiltLadder {
    /// Whether any rung stands above `random`: the rules admit an ordered ladder of
    /// these bots within the cap.
    pub fn ordered(&self) -> bool {
        self.ladder.len() >= 2
    }

    /// Whether every rung asked for was built.
    pub fn complete(&self) -> bool {
        self.ladder.len() >= self.asked
    }

    /// The ladder as the design problem takes it: `random,osla,mcts`.
    pub fn spec(&self) -> String {
        self.ladder.join(",")
    }

    /// Every step in a line, in the order tried.
    pub fn lines(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.line(self.target)).collect()
    }

    /// What was built, in a sentence: the ladder, a shorter one and why, or none.
    pub fn verdict(&self) -> String {
        if !self.ordered() {
            return format!(
                "no ordered ladder: no candidate was shown to score {} against random within {} games, so at these rules luck decides more than these bots' search (the scores are above)",
                self.target, self.cap
            );
        }
        if self.complete() {
            return format!(
                "an ordered ladder of {} rungs: each shown to score at least {} against the one below",
                self.ladder.len(),
                self.target
            );
        }
        format!(
            "an ordered ladder of {} rungs, not the {} asked: more search of every kind bought no strength by the target {} over {} within {} games",
            self.ladder.len(),
            self.asked,
            self.target,
            self.ladder.last().map_or(WEAKEST, String::as_str),
            self.cap
        )
    }
}

/// `NAME=VALUE NAME=VALUE`, as the design problem's `game_settings` takes them.
fn rules_text(rules: &[(String, String)]) -> String {
    rules
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What watches a build from its threads: a progress bar, a log. Every method does
/// nothing by default.
pub trait BuildProgress: Sync {
    /// A candidate starts its games against the rung below, at most `cap`.
    fn candidate(&self, candidate: &str, below: &str, cap: usize) {
        let _ = (candidate, below, cap);
    }
    /// A game finished (called from any thread).
    fn game(&self) {}
    /// A candidate's test decided (or reached the cap).
    fn step(&self, step: &LadderStep, target: f64) {
        let _ = (step, target);
    }
}

/// A build watched by nobody (the tests').
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Unwatched;

#[cfg(test)]
impl BuildProgress for Unwatched {}

/// A kind of bot the ladder may climb: its spec and the settings that bound its
/// search, by name.
#[derive(Clone, Debug)]
struct Kind {
    spec: AgentSpec,
    /// The agent's declared settings (the game's preset, or the generic agent's).
    settings: Vec<Setting>,
}

impl Kind {
    /// The same kind with `factor` times the search of `spec`: every search limit it
    /// has as a number multiplied (at least one more). `None` when it has none (a
    /// scripted bot), so more search cannot be bought.
    fn more_search(&self, spec: &AgentSpec, factor: f64) -> Option<AgentSpec> {
        let mut grown = spec.clone();
        let mut any = false;
        for name in SEARCH_LIMITS {
            let Some(declared) = self.settings.iter().find(|s| s.name == *name) else {
                continue;
            };
            let current = spec
                .settings
                .iter()
                .find(|(k, _)| k == name)
                .map_or(declared.default.as_str(), |(_, v)| v.as_str());
            let Ok(n) = current.trim().parse::<u64>() else {
                // `max`, or no number: not a limit that can grow.
                continue;
            };
            if n == 0 {
                continue;
            }
            let more = ((n as f64) * factor).round();
            let more = if more.is_finite() && more < u64::MAX as f64 {
                (more as u64).max(n + 1)
            } else {
                return None;
            };
            match grown.settings.iter_mut().find(|(k, _)| k == name) {
                Some(slot) => slot.1 = more.to_string(),
                None => grown.settings.push((name.to_string(), more.to_string())),
            }
            any = true;
        }
        any.then_some(grown)
    }
}

/// The declared settings of agent `name` in `game`: its own entry (a preset) first,
/// else the generic agent's.
fn agent_settings(game: &dyn DynGame, name: &str) -> Vec<Setting> {
    game.own_agents()
        .into_iter()
        .find(|a| a.names.iter().any(|n| n.eq_ignore_ascii_case(name)))
        .map(|a| a.settings)
        .or_else(|| {
            Generic::ALL
                .iter()
                .find(|g| g.name().eq_ignore_ascii_case(name))
                .map(|g| g.settings())
        })
        .unwrap_or_default()
}

/// A candidate and the rung below, set up once each way round: the candidate in seat
/// 0 of even games, seat 1 of odd ones.
struct HeadToHead<'g> {
    first: Box<dyn PreparedGame + 'g>,
    second: Box<dyn PreparedGame + 'g>,
}

impl HeadToHead<'_> {
    /// The candidate's score in game `g` on `seed`: a sole win 1, a sole loss 0,
    /// anything else (a draw, a game nobody won) 1/2.
    fn score(&self, g: usize, seed: u64) -> Result<f64, Error> {
        let (prepared, me) = if g % 2 == 0 {
            (&self.first, 0)
        } else {
            (&self.second, 1)
        };
        Ok(match prepared.play(seed)?.winner() {
            Some(w) if w == me => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        })
    }
}

/// What one candidate's games decided.
struct Contest {
    /// The per-game `score - 1/2` counted by the deciding look.
    summary: Summary,
    decision: Decision,
    /// Games played, a batch past the deciding look included.
    played: usize,
}

/// A ladder build for one game at its rules, checked: [`LadderBuilder::new`] refuses
/// what cannot be built before any game is played; [`LadderBuilder::build`] plays.
pub struct LadderBuilder<'g> {
    game: &'g dyn DynGame,
    config: BuildConfig,
    rules: Vec<(String, String)>,
    /// The same, read once as the game's settings.
    rule_values: Values,
    kinds: Vec<Kind>,
    kind_texts: Vec<String>,
    notes: Vec<String>,
    plan: SequentialPlan,
}

/// Checks a build's numbers, before the game is looked at.
pub fn check_config(config: &BuildConfig) -> Result<SequentialPlan, BuildError> {
    if config.games == 0 {
        return Err(BuildError::NoGames);
    }
    if config.games > MAX_GAMES {
        return Err(BuildError::TooManyGames {
            games: config.games,
            max: MAX_GAMES,
        });
    }
    if !(2..=MAX_RUNGS).contains(&config.rungs) {
        return Err(BuildError::Rungs {
            rungs: config.rungs,
            max: MAX_RUNGS,
        });
    }
    if !(config.target.is_finite() && config.target > 0.5 && config.target < 1.0) {
        return Err(BuildError::Target {
            target: config.target,
        });
    }
    if !(config.factor.is_finite() && config.factor > 1.0 && config.factor <= 1000.0) {
        return Err(BuildError::Factor {
            factor: config.factor,
        });
    }
    SequentialPlan::new(config.target - 0.5, ALPHA, BETA).ok_or(BuildError::Target {
        target: config.target,
    })
}

impl<'g> LadderBuilder<'g> {
    /// A build of `game` as `config` asks: the numbers checked, the game's own rules
    /// read under its settings, its seats counted (two), `random` and every kind of
    /// bot built once. A kind of the default ones the game does not offer is left out
    /// with a note; a kind the user gave that does not build is refused.
    pub fn new(game: &'g dyn DynGame, config: BuildConfig) -> Result<Self, BuildError> {
        let plan = check_config(&config)?;
        let values = game.settings_values(&config.settings)?;
        let players = game.players(&values)?;
        if players != 2 {
            return Err(BuildError::Seats {
                game: game.name().to_string(),
                players,
            });
        }
        let rules = game.own_rules(&values)?;
        let rule_values = game.settings_values(&rules)?;
        let weakest = AgentSpec::parse(WEAKEST)?;
        let request = |agents: Vec<AgentSpec>| GameRequest {
            settings: rule_values.clone(),
            agents,
            budget: None,
            seed: config.seed,
        };
        game.check(&request(vec![weakest.clone(), weakest.clone()]))
            .map_err(|e| BuildError::Weakest(Box::new(e)))?;
        let given = config.kinds.is_some();
        let texts: Vec<String> = match &config.kinds {
            Some(k) => k.clone(),
            None => DEFAULT_KINDS.iter().map(|k| k.to_string()).collect(),
        };
        let mut kinds = Vec::new();
        let mut notes = Vec::new();
        for text in &texts {
            let refused = |source: Error| BuildError::Kind {
                spec: text.clone(),
                source: Box::new(source),
            };
            let spec = AgentSpec::parse(text).map_err(refused)?;
            match game.check(&request(vec![spec.clone(), weakest.clone()])) {
                Ok(()) => kinds.push(Kind {
                    settings: agent_settings(game, &spec.name),
                    spec,
                }),
                Err(e) if given => return Err(refused(e)),
                Err(e) => notes.push(format!("kind `{text}` left out: {e}")),
            }
        }
        if kinds.is_empty() {
            return Err(BuildError::NoKinds);
        }
        Ok(LadderBuilder {
            game,
            config,
            rules,
            rule_values,
            kinds,
            kind_texts: texts,
            notes,
            plan,
        })
    }

    /// The game's rules the ladder is built at: every setting with its value.
    pub fn rules(&self) -> &[(String, String)] {
        &self.rules
    }

    /// What the build's result depends on, in a line: the program's version, the game
    /// (its name, and its fingerprint where a file describes it), its rules and the
    /// build's settings. The cache keys its files by it.
    pub fn key(&self) -> String {
        let identity = self.game.identity().map_or_else(
            || format!("built-in, playtune {}", env!("CARGO_PKG_VERSION")),
            |i| {
                format!(
                    "fingerprint {} code {}",
                    i.fingerprint,
                    i.code.as_deref().unwrap_or("-")
                )
            },
        );
        let c = &self.config;
        format!(
            "ladder-build {CACHE_FORMAT}; game {} ({identity}); rules {}; rungs {}; games {}; target {:?}; factor {:?}; kinds {}; seed {}; alpha {ALPHA:?}; beta {BETA:?}",
            self.game.name(),
            rules_text(&self.rules),
            c.rungs,
            c.games,
            c.target,
            c.factor,
            self.kind_texts.join(","),
            c.seed
        )
    }

    /// Builds the ladder: from `random`, each candidate plays the rung below until the
    /// test decides or the cap; a candidate shown stronger is a rung, and the next is
    /// more search of its kind; one that is not makes way for the next kind. Stops at
    /// the rungs asked for, or when no kind is left.
    pub fn build(&self, progress: &dyn BuildProgress) -> Result<BuiltLadder, BuildError> {
        let started = Instant::now();
        let mut ladder = vec![WEAKEST.to_string()];
        let mut steps: Vec<LadderStep> = Vec::new();
        let mut notes = self.notes.clone();
        let mut played = 0;
        // The next kind not yet tried, and the top rung's kind while more search of it
        // may still be a rung.
        let mut next_kind = 0;
        let mut growing: Option<(usize, AgentSpec)> = None;
        // Candidates tried for the rung being built, for the games' seeds.
        let mut tried = 0u64;
        while ladder.len() < self.config.rungs {
            let (kind, candidate, more_search) = match growing.take() {
                Some((k, top)) => match self.kinds[k].more_search(&top, self.config.factor) {
                    Some(c) => (k, c, true),
                    None => continue,
                },
                None if next_kind < self.kinds.len() => {
                    next_kind += 1;
                    (next_kind - 1, self.kinds[next_kind - 1].spec.clone(), false)
                }
                None => break,
            };
            let below = ladder.last().cloned().unwrap_or_else(|| WEAKEST.into());
            let text = candidate.to_string();
            let head_to_head = match self.head_to_head(&text, &below) {
                Ok(h) => h,
                // More search than the agent allows (a cap on its work): the kind is
                // spent; the next is tried.
                Err(e) if more_search => {
                    notes.push(format!("`{text}` not tried: {e}"));
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            progress.candidate(&text, &below, self.config.games);
            let rung = ladder.len() as u64;
            let contest = self.contest(&head_to_head, rung, tried, progress)?;
            tried += 1;
            played += contest.played;
            let step = LadderStep {
                rung: ladder.len(),
                candidate: text.clone(),
                below,
                more_search,
                score: contest.summary.mean + 0.5,
                se: contest.summary.se(),
                games: contest.summary.n as usize,
                decision: contest.decision,
            };
            progress.step(&step, self.config.target);
            if step.kept() {
                ladder.push(text);
                growing = Some((kind, candidate));
                tried = 0;
            }
            steps.push(step);
        }
        Ok(BuiltLadder {
            game: self.game.name().to_string(),
            rules: self.rules.clone(),
            ladder,
            asked: self.config.rungs,
            target: self.config.target,
            cap: self.config.games,
            steps,
            games_played: played,
            seconds: started.elapsed().as_secs_f64(),
            notes,
        })
    }

    /// `candidate` and `below` set up for games each way round.
    fn head_to_head(&self, candidate: &str, below: &str) -> Result<HeadToHead<'g>, Error> {
        let prepare = |agents: [&str; 2]| {
            self.game.prepare(&GameRequest {
                settings: self.rule_values.clone(),
                agents: AgentSpec::parse_all(&agents)?,
                budget: None,
                seed: self.config.seed,
            })
        };
        Ok(HeadToHead {
            first: prepare([candidate, below])?,
            second: prepare([below, candidate])?,
        })
    }

    /// Plays candidate `index` of rung `rung` against the rung below in batches until
    /// the sequential test decides at one of its fixed looks, or the cap.
    fn contest(
        &self,
        h: &HeadToHead<'_>,
        rung: u64,
        index: u64,
        progress: &dyn BuildProgress,
    ) -> Result<Contest, Error> {
        let cap = self.config.games;
        let looks: Vec<usize> = sequential::looks(cap as u64)
            .into_iter()
            .map(|n| n as usize)
            .collect();
        let mut sequence = Sequence::new(self.plan);
        let mut values: Vec<f64> = Vec::with_capacity(cap.min(1024));
        let mut look = 0;
        loop {
            let start = values.len();
            let end = looks
                .iter()
                .copied()
                .find(|&n| n >= start + PLAY_AHEAD)
                .unwrap_or(cap);
            let batch = (start..end)
                .into_par_iter()
                .map(|g| {
                    let seed = derive_seed(self.config.seed, &[rung, index, g as u64]);
                    let score = h.score(g, seed);
                    progress.game();
                    score.map(|s| s - 0.5)
                })
                .collect::<Result<Vec<f64>, Error>>()?;
            values.extend(batch);
            while look < looks.len() && looks[look] <= values.len() {
                let n = looks[look];
                look += 1;
                let summary = Summary::of(&values[..n]);
                let decision = sequence.look(&summary).decision;
                if decision != Decision::Undecided || n >= cap {
                    return Ok(Contest {
                        summary,
                        decision,
                        played: values.len(),
                    });
                }
            }
        }
    }
}

/// Where built ladders are kept: `$PLAYTUNE_CACHE/ladders`, else
/// `$XDG_CACHE_HOME/playtune/ladders`, else `~/.cache/playtune/ladders`; `None`
/// without a home.
pub fn default_cache_dir() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = set("PLAYTUNE_CACHE") {
        return Some(PathBuf::from(dir).join("ladders"));
    }
    if let Some(dir) = set("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("playtune").join("ladders"));
    }
    set("HOME").map(|h| {
        PathBuf::from(h)
            .join(".cache")
            .join("playtune")
            .join("ladders")
    })
}

/// A cache file: the key it answers, so that a file of another build is never taken
/// for this one's, and the ladder.
#[derive(Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    key: String,
    built: BuiltLadder,
}

/// What the cache holds for a key.
#[derive(Debug)]
pub enum CacheLookup {
    /// The ladder built before.
    Hit(Box<BuiltLadder>),
    /// Nothing: the ladder has not been built.
    Miss,
    /// A file that cannot be used (damaged, of another format, a link): it is
    /// rebuilt and replaced; `why` says what was wrong.
    Ignored {
        /// The file.
        file: PathBuf,
        /// Why it is not used.
        why: String,
    },
}

/// The folder of built ladders, one small RON file a build.
#[derive(Clone, Debug)]
pub struct LadderCache {
    dir: PathBuf,
}

/// FNV-1a, 64 bits: a stable hash of a key for a file name (std's hasher may change
/// between Rust versions, and the files must outlive them).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl LadderCache {
    /// The cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        LadderCache { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `game`'s ladder under `key`: the game's name (letters, digits, `-`
    /// and `_` kept) and the key's hash.
    pub fn file(&self, game: &str, key: &str) -> PathBuf {
        let name: String = game
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect();
        self.dir.join(format!("{name}-{:016x}.ron", fnv1a(key)))
    }

    /// The ladder kept for `key`, if a usable file holds it. Never panics: a file
    /// that does not read is [`CacheLookup::Ignored`].
    pub fn read(&self, game: &str, key: &str) -> CacheLookup {
        let file = self.file(game, key);
        let ignored = |why: String| CacheLookup::Ignored {
            file: file.clone(),
            why,
        };
        let meta = match std::fs::symlink_metadata(&file) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return CacheLookup::Miss,
            Err(e) => return ignored(e.to_string()),
        };
        if !meta.file_type().is_file() {
            return ignored("not a plain file (a link, a folder or a device): not followed".into());
        }
        if meta.len() > CACHE_MAX_BYTES {
            return ignored(format!("{} bytes, too large for a ladder", meta.len()));
        }
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => return ignored(e.to_string()),
        };
        let cached: CacheFile = match ron::from_str(&text) {
            Ok(c) => c,
            Err(e) => return ignored(format!("does not read as a built ladder: {e}")),
        };
        if cached.format != CACHE_FORMAT {
            return ignored(format!(
                "format {} (this playtune writes {CACHE_FORMAT})",
                cached.format
            ));
        }
        if cached.key != key {
            return ignored("written for another build (its key differs)".into());
        }
        let ladder = &cached.built.ladder;
        if ladder.first().map(String::as_str) != Some(WEAKEST)
            || ladder.iter().any(|r| AgentSpec::parse(r).is_err())
        {
            return ignored("its ladder is not `random` and agent specs".into());
        }
        CacheLookup::Hit(Box::new(cached.built))
    }

    /// Keeps `built` under `key`: written under a fresh temporary name (made with
    /// `O_EXCL`, which never follows a link) and renamed into place, which replaces a
    /// link there rather than writing through it. Returns the file.
    pub fn write(&self, key: &str, built: &BuiltLadder) -> std::io::Result<PathBuf> {
        static WRITES: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(&self.dir)?;
        let file = self.file(&built.game, key);
        let text = ron::ser::to_string_pretty(
            &CacheFile {
                format: CACHE_FORMAT,
                key: key.to_string(),
                built: built.clone(),
            },
            ron::ser::PrettyConfig::default(),
        )
        .map_err(std::io::Error::other)?;
        let tmp = self.dir.join(format!(
            ".{}.{}-{}.tmp",
            file.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("ladder"),
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = write_new(&tmp, &text).and_then(|()| std::fs::rename(&tmp, &file));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written.map(|()| file)
    }
}

/// Writes `text` to `path`, a file made afresh (`O_EXCL`: never through a link).
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    f.write_all(b"\n")?;
    f.sync_all()
}

#[cfg(test)]
mod tests;
