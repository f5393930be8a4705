//! One harness for every game: the play loop and game record ([`play`]), tournaments
//! ([`tournament`]), the skill-depth ladder ([`ladder`]), the agent registry
//! ([`agents`]) and the game descriptor [`GameDef`] that a game implements to get all
//! of them, and the command line, for free.
//!
//! Layer: above `game` and `agents`, below the game crates (`playtune-rinascimento`,
//! ...), which implement [`GameDef`]. A new game is a crate whose descriptor is listed
//! once in the `playtune` library's `registry::GAMES`.

pub mod agents;
pub mod design;
pub mod error;
pub mod ladder;
pub mod ladder_build;
pub mod ladder_check;
pub mod metrics;
pub mod play;
/// The settings vocabulary, on the ground floor since problems speak it too.
pub use playtune_optim::settings;
pub mod tournament;
pub mod tune;

pub use agents::{AgentEntry, AgentSpec, Generic, split_agents};
pub use error::Error;
pub use ladder_build::{BuildConfig, BuildError, BuiltLadder, LadderBuilder, LadderCache};
pub use play::Record;
pub use settings::{Setting, SettingError, Values};
pub use tournament::{TournamentResult, Watch};

use crate::game::{Acting, Agent, Game};
use crate::learn::samples::NO_WINNER;
use crate::learn::{Encoding, GameSamples, StateEncoding};
use playtune_optim::rng::derive_seed;
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// What a game tells the harness about itself. Implement it on a unit struct in the
/// game's folder; [`DynGame`] then gives the command line everything by name.
pub trait GameDef: Sync + 'static {
    /// The game's state: its rules and forward model.
    type State: Game + 'static;
    /// The game's rules as its settings set them, read from the settings once
    /// ([`GameDef::rules`]); every game of a request starts from them.
    type Rules: Sync;

    /// Where agent `i`'s generator comes from, `[AGENT_STREAM, i]` under the game's
    /// seed. Only a game whose published results predate the harness changes it.
    const AGENT_STREAM: u64 = play::AGENTS;

    /// The name on the command line (`--game NAME`).
    fn name(&self) -> &'static str;
    /// The game's name in prose ("Space Battle"), for messages.
    fn title(&self) -> &'static str;
    /// One line on what the game is.
    fn about(&self) -> &'static str;
    /// The game's settings (`--set NAME=VALUE`) with their defaults.
    fn settings(&self) -> Vec<Setting>;
    /// The rules `settings` set: every value read and checked here, once a request.
    fn rules(&self, settings: &Values) -> Result<Self::Rules, Error>;
    /// A new game under `rules`, its randomness (deal, map) drawn from `seed`.
    fn new_state(&self, rules: &Self::Rules, seed: u64) -> Result<Self::State, Error>;
    /// The game's own agents and presets; the generic agents come on top
    /// ([`agents::all_agents`]), and an entry here may take a generic name to give it
    /// the game's defaults.
    fn agents(&self) -> Vec<AgentEntry<Self::State>> {
        Vec::new()
    }
    /// Who plays when the user names no agents, one per seat.
    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, Error>;
    /// The game's own statistics of a finished game, by name (seat-numbered names for
    /// per-seat figures); the generic record already has scores, winners, length.
    fn summary(&self, state: &Self::State) -> Vec<(String, f64)> {
        let _ = state;
        Vec::new()
    }
    /// The game's design space, if it has one: settings a designer tunes, with their
    /// ranges and the game's own values as defaults (`--problem design` searches it
    /// unless a --space file names other settings).
    fn design_space(&self) -> Option<playtune_optim::space::Space> {
        None
    }
    /// The game's own rules under `settings`: every setting with the value the game
    /// itself plays, a placeholder such as "the value for this player count" made a
    /// number (2-player Splendor has 4 coins a colour, 4-player Splendor 7). A design
    /// run's baseline, and the design space's defaults, are these. By default the
    /// values as given.
    fn own_rules(&self, settings: &Values) -> Result<Vec<(String, String)>, Error> {
        Ok(settings.pairs().to_vec())
    }
    /// What a playable game of these rules is, as constraints on the design metrics
    /// (`stalemate_rate <= 0.05`): the design problem holds a search to them unless the
    /// user drops them, so a game that never ends cannot be recommended. By default
    /// none.
    fn playability(&self, settings: &Values) -> Vec<String> {
        let _ = settings;
        Vec::new()
    }
    /// How a design ladder's rung is measured where the game has its own measure
    /// (Space Battle: Eq. 2's T of ship 0 against the controller ENEMY_ID names).
    /// `None`, the default: every rung against copies of the weakest, seats rotating,
    /// scored by its wins ([`design::DesignProblem`]).
    fn rung_measure(&self) -> Option<design::RungMeasure> {
        None
    }
    /// Whether the game's own rules ended `state` (a capture, a score reached, no
    /// moves left) rather than a cap on its length (a tick or turn limit, a step cap):
    /// the design metric `ended_by_rules`. By default the rules end every game.
    fn ended_by_rules(&self, state: &Self::State) -> bool {
        let _ = state;
        true
    }
    /// Draws a played game into `out` (.png or .svg), with a legend: `history` holds
    /// every state before each step, then the final one; `at` the turns to show, one
    /// panel each (empty: the game's choice; a turn at or past the end, or `u32::MAX`,
    /// shows the final state: [`crate::draw::frames`]); `agents` who played each seat.
    /// `None` if the game has no picture.
    fn render(
        &self,
        history: &[Self::State],
        at: &[u32],
        title: &str,
        agents: &[String],
        out: &Path,
    ) -> Option<Result<(), Error>> {
        let _ = (history, at, title, agents, out);
        None
    }
    /// The game's state encoding for learned evaluation (`playtune selfplay`), if it
    /// has one.
    fn encoding(&self) -> Option<Arc<dyn StateEncoding<Self::State>>> {
        None
    }
    /// Every encoding the game can record self-play with, the default
    /// ([`GameDef::encoding`]) first. A network keeps the encoding it learned, so a
    /// game that adds an encoding keeps the old one here for the old networks.
    fn encodings(&self) -> Vec<Arc<dyn StateEncoding<Self::State>>> {
        self.encoding().into_iter().collect()
    }
}

/// Hands each finished self-play game to its writer (called from many threads).
pub type SampleSink<'a> = dyn Fn(GameSamples) -> Result<(), Error> + Sync + 'a;

/// An agent of a game, as listed by `playtune games`.
pub struct AgentInfo {
    /// Its names, the first the one listed.
    pub names: Vec<&'static str>,
    /// What it is, in a line.
    pub about: &'static str,
    /// Its settings with their defaults.
    pub settings: Vec<Setting>,
}

/// What every game offers the command line, type-erased so that the registry is a
/// plain `&'static [&'static dyn DynGame]`. Implemented for every [`GameDef`].
/// Settings and agents come as text and are checked here: errors are [`Error`]s. A
/// game's settings are read once ([`DynGame::settings_values`]) and the [`Values`]
/// passed on; a method given another game's refuses them.
pub trait DynGame: Sync {
    /// The name on the command line (`--game NAME`).
    fn name(&self) -> &'static str;
    /// One line on what the game is.
    fn about(&self) -> &'static str;
    /// The game's settings (`--set NAME=VALUE`) with their defaults.
    fn settings(&self) -> Vec<Setting>;
    /// The game's own agents and presets (the generic ones are [`Generic::ALL`]).
    fn own_agents(&self) -> Vec<AgentInfo>;
    /// The default lineup under `settings`.
    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, Error>;
    /// The game's settings as given (`NAME`, `VALUE`), read once: every setting with
    /// its value (defaults filled in), checked. The other methods take these.
    fn settings_values(&self, given: &[(String, String)]) -> Result<Values, Error>;
    /// Players of a game under `settings`.
    fn players(&self, settings: &Values) -> Result<usize, Error>;
    /// One game, agent `i` in seat `i`. `budget`, if given, is every agent's default
    /// forward-model budget.
    fn play(&self, game: &GameRequest) -> Result<Record, Error>;
    /// A request set up once for many games: its settings read, the game set up and
    /// every agent built once as a check. [`PreparedGame::play`] then plays one game
    /// on a seed, as [`DynGame::play`] would with that seed, without reading or
    /// checking anything again (a design or tuning evaluation plays many).
    fn prepare(&self, game: &GameRequest) -> Result<Box<dyn PreparedGame + '_>, Error>;
    /// Checks a request without playing: the settings set a game up and every agent
    /// builds.
    fn check(&self, game: &GameRequest) -> Result<(), Error>;
    /// Many games ([`tournament`]).
    fn tournament(&self, game: &GameRequest, games: usize) -> Result<TournamentResult, Error> {
        self.tournament_watched(game, games, &tournament::Watch::default())
    }
    /// [`DynGame::tournament`], `watch` counting its games and able to stop it.
    fn tournament_watched(
        &self,
        game: &GameRequest,
        games: usize,
        watch: &tournament::Watch,
    ) -> Result<TournamentResult, Error>;
    /// Game `index` of a tournament's `lineup` (agent indices into the request's), the
    /// seats rotating with `index` as [`DynGame::tournament`] rotates them, seeded by
    /// the request's seed: one game of a tournament played anywhere.
    fn play_lineup(
        &self,
        game: &GameRequest,
        lineup: &[usize],
        index: usize,
    ) -> Result<Record, Error>;
    /// The agents' names as a tournament's results give them (copies numbered).
    fn agent_names(&self, game: &GameRequest) -> Result<Vec<String>, Error>;
    /// One game, drawn into `out` after the turns `at` (see [`GameDef::render`]).
    fn render(&self, game: &GameRequest, at: &[u32], out: &Path) -> Result<Record, Error>;
    /// One game as [`DynGame::play`] plays it, with each state and the move made in it
    /// as text, then the final state: a match to watch. Only a game that gives a text
    /// form does (one that brings its rules, or whose matches reply with frames).
    fn play_shown(&self, game: &GameRequest) -> Result<(Record, Vec<String>), Error> {
        let _ = game;
        Err(Error::NoText {
            game: self.name().to_string(),
            why: "a built-in game draws its matches instead (`playtune render`)".into(),
        })
    }
    /// The game's default state encoding, if it has one.
    fn encoding(&self) -> Option<Encoding>;
    /// The game's state encoding named `name` (its default when `None`).
    fn encoding_named(&self, name: Option<&str>) -> Result<Encoding, Error>;
    /// What identifies the game, where a file describes it (a description, a Python
    /// game): a fingerprint of how it plays and is scored. `None`: a built-in game.
    fn identity(&self) -> Option<playtune_optim::eval::GameIdentity> {
        None
    }
    /// The game's design space, if it has one ([`GameDef::design_space`]).
    fn design_space(&self) -> Option<playtune_optim::space::Space>;
    /// The game's own rules under `settings` ([`GameDef::own_rules`]), checked.
    fn own_rules(&self, settings: &Values) -> Result<Vec<(String, String)>, Error>;
    /// What a playable game is under `settings` ([`GameDef::playability`]).
    fn playability(&self, settings: &Values) -> Result<Vec<String>, Error>;
    /// The game's own measure of a design ladder's rung, if it has one.
    fn rung_measure(&self) -> Option<design::RungMeasure>;
    /// Whether its matches report how the score moved step by step, which the lead
    /// metrics (`lead_changes`, `decided_at`) need: a game without has them
    /// unavailable, left out of its design evaluations.
    fn traced(&self) -> bool {
        true
    }
    /// The per-seat figures a game declares of its own matches (a game that brings its
    /// rules reports them from its final state): design runs report each as a metric,
    /// the mean over seats and games, and tune-agent runs each for the tuned agent.
    fn own_features(&self) -> Vec<String> {
        Vec::new()
    }
    /// The ladder a design run plays when the user names none, weakest first, where
    /// the game has its own (a described game's bots); `None`: the generic one.
    fn default_ladder(&self) -> Option<Vec<String>> {
        None
    }
    /// Whether the ladder a design run plays when the user names none is playtune's
    /// generic one, not one the game declares: a design run then builds one shown to
    /// be ordered ([`ladder_build`]) where it can.
    fn generic_ladder(&self) -> bool {
        false
    }
    /// Plays the self-play games `games` in parallel (game `g` seeded by
    /// `derive_seed(seed, [g])`, seats rotating with `g`) and hands each to `sink` as
    /// it finishes: one sample at the start of every turn (whenever the player to move
    /// changes), labelled with the winner.
    /// Samples are of the encoding `encoding` (the default when `None`).
    fn selfplay(
        &self,
        game: &GameRequest,
        encoding: Option<&str>,
        games: &[u32],
        sink: &SampleSink,
    ) -> Result<(), Error>;
}

/// A game to play as the user asked for it.
#[derive(Clone, Debug)]
pub struct GameRequest {
    /// The game's settings, read once where they were given
    /// ([`DynGame::settings_values`]): every one, the defaults filled in.
    pub settings: Values,
    /// Agent specs, one per seat, parsed once where they were given (empty: the
    /// game's default lineup).
    pub agents: Vec<AgentSpec>,
    /// Every agent's default forward-model budget, if given.
    pub budget: Option<usize>,
    /// The seed every game is played from.
    pub seed: u64,
}

/// The game's encoding named `name`, or its default.
fn encoder<D: GameDef>(
    def: &D,
    name: Option<&str>,
) -> Result<Arc<dyn StateEncoding<D::State>>, Error> {
    let all = def.encodings();
    let game = || GameDef::name(def).to_string();
    let Some(name) = name else {
        return def
            .encoding()
            .ok_or_else(|| Error::NoEncoding { game: game() });
    };
    if all.is_empty() {
        return Err(Error::NoEncoding { game: game() });
    }
    all.iter()
        .find(|e| e.encoding().name == name)
        .cloned()
        .ok_or_else(|| Error::UnknownEncoding {
            game: game(),
            name: name.to_string(),
            known: all
                .iter()
                .map(|e| e.encoding().name.clone())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// A game request set up once ([`DynGame::prepare`]).
pub trait PreparedGame: Sync {
    /// One game on `seed`, agent `i` in seat `i`: the record [`DynGame::play`] gives
    /// for the request with that seed.
    fn play(&self, seed: u64) -> Result<Record, Error>;
}

/// A game's settings, agents and lineup, checked.
struct Prepared<D: GameDef> {
    settings: Values,
    rules: D::Rules,
    entries: Vec<AgentEntry<D::State>>,
    specs: Vec<AgentSpec>,
    /// Each spec read against its entry, once.
    read: Vec<agents::ReadAgent>,
}

/// The game's settings: its defaults overridden by `given`, every name checked.
fn values<D: GameDef>(def: &D, given: &[(String, String)]) -> Result<Values, Error> {
    Ok(Values::new(&owner(def.name()), &def.settings(), given)?)
}

/// Whose settings a game's [`Values`] are: "game `NAME`".
fn owner(game: &str) -> String {
    format!("game `{game}`")
}

/// Refuses `settings` read for another game than `game` (the name on the command
/// line): a game reads only its own ([`DynGame::settings_values`]).
pub fn own_settings<'v>(game: &str, settings: &'v Values) -> Result<&'v Values, Error> {
    if settings.owner() == owner(game) {
        Ok(settings)
    } else {
        Err(Error::field(
            format!("settings of {}", settings.owner()),
            format!("given to game `{game}`, which reads only its own"),
        ))
    }
}

/// Players of game `def` under checked `settings`.
fn players_of<D: GameDef>(def: &D, settings: &Values) -> Result<usize, Error> {
    Ok(def.new_state(&def.rules(settings)?, 0)?.num_players())
}

fn prepare<D: GameDef>(def: &D, req: &GameRequest) -> Result<Prepared<D>, Error> {
    let settings = own_settings(GameDef::name(def), &req.settings)?.clone();
    // The rules read once for every game of the request; a game that cannot be set
    // up fails here, before any agent is looked at.
    let rules = def.rules(&settings)?;
    def.new_state(&rules, 0)?;
    let entries = agents::all_agents(def.agents());
    let specs = if req.agents.is_empty() {
        AgentSpec::parse_all(&def.default_agents(&settings)?)?
    } else {
        req.agents.clone()
    };
    // Each agent's spec read once; every agent builds, so that a bad name or setting
    // fails before any game.
    let read = specs
        .iter()
        .map(|s| agents::ReadAgent::new(def.title(), &entries, s, req.budget))
        .collect::<Result<Vec<_>, _>>()?;
    let p = Prepared {
        settings,
        rules,
        entries,
        specs,
        read,
    };
    for a in 0..p.read.len() {
        p.build(a)?;
    }
    Ok(p)
}

impl<D: GameDef> Prepared<D> {
    /// A fresh agent `a` (an index into the specs), for one game.
    fn build(&self, a: usize) -> Result<Box<dyn Agent<D::State>>, Error> {
        self.read[a].build(&self.entries, &self.settings)
    }

    /// One game of the agents `lineup` (indices into the specs) in `seats`.
    fn play_one(
        &self,
        def: &D,
        lineup: &[usize],
        seats: &[usize],
        seed: u64,
        observe: &mut play::Observer<D::State>,
    ) -> Result<(D::State, Record), Error> {
        let state = def.new_state(&self.rules, derive_seed(seed, &[play::STATE]))?;
        let mut built = lineup
            .iter()
            .map(|&a| self.build(a))
            .collect::<Result<Vec<_>, _>>()?;
        let mut refs: Vec<&mut dyn Agent<D::State>> = Vec::with_capacity(built.len());
        for b in built.iter_mut() {
            refs.push(b.as_mut());
        }
        let mut lead = metrics::LeadTracker::default();
        let end = play::play(
            state,
            &mut refs,
            seats,
            D::AGENT_STREAM,
            seed,
            &mut |s, a| {
                lead.observe(s);
                observe(s, a)
            },
        )?;
        lead.observe(&end);
        let lead = lead.finish(&end.winners(), end.step_count());
        let by_rules = def.ended_by_rules(&end);
        let record = Record::new(&end, seats, def.summary(&end), lead, by_rules);
        Ok((end, record))
    }

    /// The agents as given, settings included (`mcts(iterations=50)`), so that two
    /// configurations of one agent can be told apart; a spec given twice gets `#2`.
    fn names(&self) -> Vec<String> {
        numbered_names(&self.specs)
    }
}

/// Agent specs as a tournament names them, settings included (`mcts(iterations=50)`),
/// so that two configurations of one agent can be told apart; a spec given twice
/// gets `#2`.
pub fn numbered_names(specs: &[AgentSpec]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    specs
        .iter()
        .map(|s| {
            let text = s.to_string();
            let copies = seen.iter().filter(|t| **t == text).count();
            seen.push(text.clone());
            if copies == 0 {
                text
            } else {
                format!("{text} #{}", copies + 1)
            }
        })
        .collect()
}

/// A request of game `D`, prepared: agent `i` in seat `i`.
struct Ready<'a, D: GameDef> {
    def: &'a D,
    prepared: Prepared<D>,
    lineup: Vec<usize>,
}

impl<D: GameDef> PreparedGame for Ready<'_, D> {
    fn play(&self, seed: u64) -> Result<Record, Error> {
        let (_, record) =
            self.prepared
                .play_one(self.def, &self.lineup, &self.lineup, seed, &mut |_, _| {})?;
        Ok(record)
    }
}

impl<D: GameDef> DynGame for D {
    fn name(&self) -> &'static str {
        GameDef::name(self)
    }

    fn about(&self) -> &'static str {
        GameDef::about(self)
    }

    fn settings(&self) -> Vec<Setting> {
        GameDef::settings(self)
    }

    fn own_agents(&self) -> Vec<AgentInfo> {
        GameDef::agents(self)
            .into_iter()
            .map(|e| AgentInfo {
                names: e.names.to_vec(),
                about: e.about,
                settings: e.settings,
            })
            .collect()
    }

    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, Error> {
        GameDef::default_agents(self, own_settings(GameDef::name(self), settings)?)
    }

    fn settings_values(&self, given: &[(String, String)]) -> Result<Values, Error> {
        values(self, given)
    }

    fn players(&self, settings: &Values) -> Result<usize, Error> {
        players_of(self, own_settings(GameDef::name(self), settings)?)
    }

    fn check(&self, req: &GameRequest) -> Result<(), Error> {
        prepare(self, req).map(|_| ())
    }

    fn play(&self, req: &GameRequest) -> Result<Record, Error> {
        DynGame::prepare(self, req)?.play(req.seed)
    }

    fn prepare(&self, req: &GameRequest) -> Result<Box<dyn PreparedGame + '_>, Error> {
        let prepared = prepare(self, req)?;
        let lineup: Vec<usize> = (0..prepared.specs.len()).collect();
        Ok(Box::new(Ready {
            def: self,
            prepared,
            lineup,
        }))
    }

    fn tournament_watched(
        &self,
        req: &GameRequest,
        games: usize,
        watch: &tournament::Watch,
    ) -> Result<TournamentResult, Error> {
        tournament::run(
            games,
            req.seed,
            watch,
            || {
                let p = prepare(self, req)?;
                let players = self.new_state(&p.rules, 0)?.num_players();
                Ok((p.names(), players, p))
            },
            |p, lineup, seats, seed| Ok(p.play_one(self, lineup, seats, seed, &mut |_, _| {})?.1),
        )
    }

    fn play_lineup(
        &self,
        req: &GameRequest,
        lineup: &[usize],
        index: usize,
    ) -> Result<Record, Error> {
        let p = prepare(self, req)?;
        if let Some(&bad) = lineup.iter().find(|&&a| a >= p.specs.len()) {
            return Err(Error::Lineup {
                agent: bad,
                agents: p.specs.len(),
            });
        }
        let seats = play::rotated_seats(lineup.len(), index);
        Ok(p.play_one(self, lineup, &seats, req.seed, &mut |_, _| {})?
            .1)
    }

    fn agent_names(&self, req: &GameRequest) -> Result<Vec<String>, Error> {
        Ok(prepare(self, req)?.names())
    }

    fn render(&self, req: &GameRequest, at: &[u32], out: &Path) -> Result<Record, Error> {
        let p = prepare(self, req)?;
        let lineup: Vec<usize> = (0..p.specs.len()).collect();
        let seats = lineup.clone();
        let mut history = Vec::new();
        let (end, record) = p.play_one(self, &lineup, &seats, req.seed, &mut |s, _| {
            history.push(s.clone())
        })?;
        history.push(end);
        let scores: Vec<String> = record.scores.iter().map(|s| format!("{s:.0}")).collect();
        let title = format!("{}: {}", p.names().join(" vs "), scores.join(" to "));
        match GameDef::render(self, &history, at, &title, &p.names(), out) {
            None => Err(Error::NoPicture {
                game: GameDef::name(self).to_string(),
            }),
            Some(r) => r.map(|()| record),
        }
    }

    fn encoding(&self) -> Option<Encoding> {
        GameDef::encoding(self).map(|e| e.encoding().clone())
    }

    fn encoding_named(&self, name: Option<&str>) -> Result<Encoding, Error> {
        encoder(self, name).map(|e| e.encoding().clone())
    }

    fn design_space(&self) -> Option<playtune_optim::space::Space> {
        GameDef::design_space(self)
    }

    fn own_rules(&self, settings: &Values) -> Result<Vec<(String, String)>, Error> {
        GameDef::own_rules(self, own_settings(GameDef::name(self), settings)?)
    }

    fn playability(&self, settings: &Values) -> Result<Vec<String>, Error> {
        Ok(GameDef::playability(
            self,
            own_settings(GameDef::name(self), settings)?,
        ))
    }

    fn rung_measure(&self) -> Option<design::RungMeasure> {
        GameDef::rung_measure(self)
    }

    fn selfplay(
        &self,
        req: &GameRequest,
        encoding: Option<&str>,
        games: &[u32],
        sink: &SampleSink,
    ) -> Result<(), Error> {
        let encoder = encoder(self, encoding)?;
        let p = prepare(self, req)?;
        let players = self.new_state(&p.rules, 0)?.num_players();
        if p.specs.len() != players {
            return Err(Error::SelfplaySeats {
                agents: p.specs.len(),
                players,
            });
        }
        let lineup: Vec<usize> = (0..players).collect();
        let len = encoder.encoding().len();
        games.par_iter().try_for_each(|&g| {
            let seats = play::rotated_seats(players, g as usize);
            let mut samples = GameSamples {
                game: g,
                winner: NO_WINNER,
                movers: Vec::new(),
                counts: Vec::new(),
            };
            let mut last: Option<Acting> = None;
            let (end, _) = p.play_one(
                self,
                &lineup,
                &seats,
                derive_seed(req.seed, &[u64::from(g)]),
                &mut |s, _| {
                    let acting = s.acting();
                    if last != Some(acting) {
                        last = Some(acting);
                        samples
                            .movers
                            .push(u8::try_from(encoder.mover(s)).unwrap_or(u8::MAX));
                        let at = samples.counts.len();
                        samples.counts.resize(at + len, 0);
                        encoder.encode(s, &mut samples.counts[at..]);
                    }
                },
            )?;
            let winners = end.winners();
            let mut won = winners.iter().enumerate().filter(|(_, w)| **w);
            if let (Some((seat, _)), None) = (won.next(), won.next()) {
                samples.winner = u8::try_from(seat).unwrap_or(NO_WINNER);
            }
            sink(samples)
        })
    }
}
