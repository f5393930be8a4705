//! Games that live outside playtune, in any language: a game description file
//! ([`description`]) says what the game's settings and bots are and how to start it;
//! the game plays whole matches with its own bots, asked over JSON lines
//! ([`protocol`]) by a pool of long-lived game processes (the external evaluator's
//! workers: deadlines, process groups, a failed process replaced). [`ExternalGame`]
//! gives such a game everything a built-in game has from the harness: `design`,
//! `tune-agent`, tournaments, ladders and the design metrics.
//!
//! An in-process game (a Python class, a test's Rust game) plays the same matches
//! through [`MatchPlayer`].

pub mod description;
pub mod duel;
pub mod forward;
pub mod protocol;
pub mod python;

pub use description::{Bot, Description};
pub use protocol::{Match, MatchReport, SeatBot};

use playtune_harness::learn::Encoding;
use playtune_harness::metrics::LeadTracker;
use playtune_harness::{
    AgentInfo, AgentSpec, DynGame, Error, GameRequest, Record, Setting, SettingError,
    TournamentResult, Values, own_settings, tournament,
};
use playtune_optim::eval::{WorkerError, WorkerPool};
use playtune_optim::space::{Dimension, SpaceError};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Plays one match of a game, wherever the game runs.
pub trait MatchPlayer: Send + Sync {
    /// The match's report, or why the match failed.
    fn play(&self, m: &Match) -> Result<MatchReport, String>;

    /// The match played by playtune's bots alone (`seats`: their specs) on the game's
    /// states, where this player holds them: in a game process that answers the
    /// forward-model operations, or a Python game's states in this process. `None`:
    /// the player's own `play` takes such a match (a Python game's process plays
    /// playtune's bots itself).
    fn play_forward(
        &self,
        game: &str,
        m: &Match,
        seats: &[AgentSpec],
        setup: &forward::Setup,
    ) -> Option<Result<MatchReport, String>> {
        let _ = (game, m, seats, setup);
        None
    }

    /// Whether [`MatchPlayer::play_forward`] plays playtune's bots here (the game
    /// answers forward-model operations), so that a match mixing them with the
    /// game's own bots is refused before any process is asked.
    fn answers_forward(&self) -> bool {
        false
    }
}

/// A match that failed: the game refused it, its process failed, or its reply did not
/// fit the match. The run goes on; the evaluation that needed it fails with this.
#[derive(Debug, thiserror::Error)]
#[error("game `{game}`: a match failed: {why}")]
pub(crate) struct MatchError {
    /// The game whose match failed.
    pub(crate) game: String,
    /// Why, on one line.
    pub(crate) why: String,
}

/// Why a game process gave no answer to `what` (a match, `it`, or an operation), as a
/// failed match says it.
pub(crate) fn worker_failure(e: WorkerError, what: &str) -> String {
    match e {
        WorkerError::Refused(why) => format!("the game refused {what}: {why}"),
        WorkerError::Start(e) => format!("cannot start the game: {e}"),
        WorkerError::Failed(why) => why,
    }
}

/// Matches played by long-lived game processes.
struct ProcessPlayer {
    pool: std::sync::Arc<WorkerPool>,
    /// Whether the processes answer forward-model operations (not a Python game's,
    /// whose process plays playtune's bots itself).
    forward: bool,
    timeout: std::time::Duration,
    features: Vec<String>,
}

impl MatchPlayer for ProcessPlayer {
    fn play(&self, m: &Match) -> Result<MatchReport, String> {
        let seats = m.seats.len();
        self.pool
            .call(
                |id| m.line(id),
                self.timeout,
                |id, line| protocol::read_reply(line, id, seats, &self.features),
            )
            .map_err(|e| worker_failure(e, "it"))
    }

    fn play_forward(
        &self,
        game: &str,
        m: &Match,
        seats: &[AgentSpec],
        setup: &forward::Setup,
    ) -> Option<Result<MatchReport, String>> {
        if !self.forward {
            return None;
        }
        let played = (|| {
            let session = self
                .pool
                .session(self.timeout)
                .map_err(|e| worker_failure(e, "it"))?;
            let rules = std::sync::Arc::new(forward::process::ProcessRules::new(
                session,
                setup.players,
                &setup.features,
            ));
            let initial = rules
                .new_state(&m.settings, m.seed)
                .map_err(|e| e.to_string())?;
            let report = forward::play(
                game,
                rules.clone(),
                initial,
                setup,
                &forward::Lineup {
                    seats,
                    seed: m.seed,
                    show: m.show,
                },
            );
            // Every state the match made is dropped, a failed match's too: the game
            // process lives on for the next match. Where the failure was the process
            // itself (it died or was killed), the flush fails at once and the match's
            // own error is the one told.
            let flushed = rules.flush();
            // The match's failure, as every failed match is told: in words.
            let report = report.map_err(|e| e.to_string())?;
            flushed.map_err(|e| e.to_string())?;
            Ok(report)
        })();
        Some(played)
    }

    fn answers_forward(&self) -> bool {
        self.forward
    }
}

/// A game played outside playtune, described by a [`Description`].
pub struct ExternalGame {
    description: Description,
    name: &'static str,
    about: &'static str,
    player: Box<dyn MatchPlayer>,
    /// The identity a run recorded, for a game read back from its record
    /// ([`ExternalGame::of_record`]): it is that game, whatever its record's text.
    recorded: Option<playtune_optim::eval::GameIdentity>,
}

/// The player of a game read back from a run's record: it plays nothing, so that a
/// command that only reads a run runs none of the code the run names.
struct PlaysNothing;

impl MatchPlayer for PlaysNothing {
    fn play(&self, _m: &Match) -> Result<MatchReport, String> {
        Err("the game as its run recorded it plays no match: commands that only read a run run none of its code".into())
    }
}

/// Names of the descriptions loaded, leaked once each: a game lives as long as the
/// process, as built-in games do, and its game processes are shared by every user of
/// it in the process.
static LOADED: Mutex<Vec<(PathBuf, &'static ExternalGame)>> = Mutex::new(Vec::new());

/// The game described at `path`, loaded once per process.
pub fn load(path: &Path) -> Result<&'static ExternalGame, SpaceError> {
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, g)) = loaded.iter().find(|(p, _)| *p == key) {
        return Ok(g);
    }
    let game: &'static ExternalGame =
        Box::leak(Box::new(ExternalGame::new(Description::load(path)?)));
    loaded.push((key, game));
    Ok(game)
}

/// The Python game `reference` (`FILE.py:NAME`, relative to the current folder, or
/// `module:NAME`), loaded once per process.
pub fn load_python(reference: &str) -> Result<&'static ExternalGame, SpaceError> {
    let absolute = python::absolute(reference, Path::new("."));
    let key = PathBuf::from(&absolute);
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, g)) = loaded.iter().find(|(p, _)| *p == key) {
        return Ok(g);
    }
    let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let game: &'static ExternalGame = Box::leak(Box::new(ExternalGame::new(
        Description::of_python(&absolute, &dir)?,
    )));
    loaded.push((key, game));
    Ok(game)
}

/// Games registered in process (a Python class), by name.
static REGISTERED: Mutex<Vec<&'static ExternalGame>> = Mutex::new(Vec::new());

/// Registers `game` (played in process) under its name, in place of any game
/// registered under that name before; `registry::game` then finds it by name.
pub fn register(game: ExternalGame) -> &'static ExternalGame {
    let game: &'static ExternalGame = Box::leak(Box::new(game));
    let mut all = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    all.retain(|g| g.name != game.name);
    all.push(game);
    game
}

/// The game registered in process under `name`, if any.
pub fn registered(name: &str) -> Option<&'static ExternalGame> {
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|g| g.name == name.trim() || g.description.python.as_deref() == Some(name.trim()))
        .copied()
}

/// Where game descriptions named without a path are looked for: the folders in
/// `PLAYTUNE_GAMES` (separated by `:`), then `games/` under the current folder. A
/// name `duel` is `duel.ron` or `duel/duel.ron` in one of them.
fn search_path() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PLAYTUNE_GAMES")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    dirs.push(PathBuf::from("games"));
    dirs
}

/// The description file for the game `name`: a path as given (one ending `.ron` or
/// holding `/`), else `name.ron` or `name/name.ron` in a folder of `PLAYTUNE_GAMES` or
/// in `games/` (the first found). `None`: no such file.
pub fn find(name: &str) -> Option<PathBuf> {
    let name = name.trim();
    if name.ends_with(".ron") || name.contains('/') {
        return Some(PathBuf::from(name));
    }
    if name.is_empty() || name.starts_with('.') {
        return None;
    }
    search_path().into_iter().find_map(|dir| {
        [
            dir.join(format!("{name}.ron")),
            dir.join(name).join(format!("{name}.ron")),
        ]
        .into_iter()
        .find(|p| p.is_file())
    })
}

/// The descriptions in the folders of `PLAYTUNE_GAMES`, then in `games/`, for
/// `playtune games`.
pub fn listed() -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in search_path() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut here: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter_map(|p| {
                if p.extension().is_some_and(|e| e == "ron") {
                    Some(p)
                } else {
                    let name = p.file_name()?.to_str()?.to_string();
                    let inner = p.join(format!("{name}.ron"));
                    inner.is_file().then_some(inner)
                }
            })
            .collect();
        here.sort();
        found.extend(here);
    }
    found
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

impl ExternalGame {
    /// The game of `description`, its matches played by its command's processes.
    pub fn new(description: Description) -> ExternalGame {
        let workers = if description.workers == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            description.workers
        };
        let player = ProcessPlayer {
            pool: std::sync::Arc::new(
                WorkerPool::new(description.command.clone(), workers)
                    .in_dir(description.dir.clone())
                    .with_startup(description.startup),
            ),
            forward: description.forward_model && description.python.is_none(),
            timeout: description.timeout,
            features: description.features.clone(),
        };
        ExternalGame::with_player(description, Box::new(player))
    }

    /// The game of `description`, its matches played by `player` (in process).
    pub fn with_player(description: Description, player: Box<dyn MatchPlayer>) -> ExternalGame {
        ExternalGame {
            name: leak(&description.name),
            about: leak(&description.about),
            description,
            player,
            recorded: None,
        }
    }

    /// The game a run recorded (`identity`, with its description), for the commands
    /// that only read the run: its settings, bots and ladder as they were, its
    /// identity the recorded one, and no match ever played. `file` names the record in
    /// errors. `None`: the run recorded no description (it began before runs did).
    pub fn of_record(
        identity: &playtune_optim::eval::GameIdentity,
        file: &str,
    ) -> Option<Result<&'static ExternalGame, SpaceError>> {
        let text = identity.description.as_deref()?;
        Some(Description::of_record(text, file).map(|d| {
            let mut game = ExternalGame::with_player(d, Box::new(PlaysNothing));
            game.recorded = Some(identity.clone());
            &*Box::leak(Box::new(game))
        }))
    }

    /// The game's description.
    pub fn description(&self) -> &Description {
        &self.description
    }

    fn owner(&self) -> String {
        format!("game `{}`", self.name)
    }

    /// Every setting with its value, the given ones checked against their domains.
    fn values(&self, given: &[(String, String)]) -> Result<Vec<(String, String)>, Error> {
        checked(&self.owner(), &self.description.settings.dims, given)
    }

    fn bot(&self, name: &str) -> Result<&Bot, Error> {
        self.description
            .bots
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| Error::UnknownAgent {
                game: self.name.to_string(),
                name: name.to_string(),
                known: self
                    .description
                    .bots
                    .iter()
                    .map(|b| b.name.clone())
                    .collect(),
            })
    }

    /// The bot a spec (`expert(depth=2)`) names, its settings checked and filled in.
    fn seat(&self, spec: &AgentSpec) -> Result<Seat, Error> {
        if self.description.is_forward_bot(&spec.name) {
            forward::check_spec(self.name, spec, self.description.searchable())?;
            return Ok(Seat {
                bot: SeatBot {
                    bot: spec.name.clone(),
                    settings: spec
                        .settings
                        .iter()
                        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                        .collect(),
                },
                spec: spec.clone(),
            });
        }
        let bot = self.bot(&spec.name)?;
        let owner = format!("{} bot `{}`", self.name, bot.name);
        let values = checked(&owner, &bot.settings, &spec.settings)?;
        Ok(Seat {
            bot: SeatBot {
                bot: bot.name.clone(),
                settings: protocol::settings_json(&bot.settings, &values),
            },
            spec: spec.clone(),
        })
    }

    /// The request's seats, each bot checked: its agents, or the game's default
    /// lineup.
    fn seats(&self, req: &GameRequest) -> Result<Vec<Seat>, Error> {
        if req.agents.is_empty() {
            AgentSpec::parse_all(&self.default_lineup())?
                .iter()
                .map(|s| self.seat(s))
                .collect()
        } else {
            req.agents.iter().map(|s| self.seat(s)).collect()
        }
    }

    /// The request's settings as a match request carries them: read once where they
    /// were given, every one checked against the description there
    /// ([`DynGame::settings_values`]), and typed here once a request.
    fn settings_of(
        &self,
        req: &GameRequest,
    ) -> Result<serde_json::Map<String, serde_json::Value>, Error> {
        let given = own_settings(self.name, &req.settings)?.pairs();
        Ok(protocol::settings_json(
            &self.description.settings.dims,
            given,
        ))
    }

    /// The ladder's strongest rungs, one a seat.
    fn default_lineup(&self) -> Vec<String> {
        let ladder = &self.description.ladder;
        (0..self.description.players)
            .map(|i| ladder[ladder.len() - 1 - i % ladder.len()].clone())
            .collect()
    }

    /// One match, agent `i` (a bot in `bots`) in seat `seats[i]`: its record, and
    /// where `show` asks, each state and move as text.
    fn play_match(
        &self,
        settings: &serde_json::Map<String, serde_json::Value>,
        bots: &[&Seat],
        seats: &[usize],
        seed: u64,
        show: bool,
    ) -> Result<(Record, Vec<String>), Error> {
        let players = self.description.players;
        if bots.len() != players {
            return Err(Error::Seats {
                agents: bots.len(),
                players,
            });
        }
        let mut by_seat: Vec<Option<&Seat>> = vec![None; players];
        for (agent, &seat) in seats.iter().enumerate() {
            if seat >= players || by_seat[seat].is_some() {
                return Err(Error::Permutation {
                    seats: seats.to_vec(),
                    players,
                });
            }
            by_seat[seat] = Some(bots[agent]);
        }
        let by_seat: Vec<&Seat> = by_seat.into_iter().flatten().collect();
        let m = Match {
            settings: settings.clone(),
            seats: by_seat.iter().map(|s| s.bot.clone()).collect(),
            seed,
            show,
        };
        let failed = |why: String| {
            Error::Game(Box::new(MatchError {
                game: self.name.to_string(),
                // Whoever played it (a process, a game in process) may have put a
                // terminal's controls or line breaks in its reason: it is printed,
                // and kept on one line of failures.jsonl.
                why: playtune_optim::eval::printable(&why),
            }))
        };
        let forward: Vec<bool> = m
            .seats
            .iter()
            .map(|s| self.description.is_forward_bot(&s.bot))
            .collect();
        let report = if forward.iter().any(|&f| f) {
            let specs: Vec<AgentSpec> = by_seat.iter().map(|s| s.spec.clone()).collect();
            let setup = forward::Setup {
                players,
                hidden: self.description.hidden,
                searchable: self.description.searchable(),
                max_steps: self.description.max_steps,
                features: self.description.features.clone(),
            };
            if self.player.answers_forward() && !forward.iter().all(|&f| f) {
                return Err(failed(format!(
                    "a match of {} seats playtune's bots ({}) beside the game's own: a game played over the forward-model operations is played by playtune's bots only",
                    self.name,
                    specs
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            // A match beside the game's own bots is the game's own `play`'s to refuse
            // or to play (a Python game's `play` plays one of its own bots).
            let here = if forward.iter().all(|&f| f) {
                self.player.play_forward(self.name, &m, &specs, &setup)
            } else {
                None
            };
            match here {
                Some(played) => played.map_err(failed)?,
                None => self.player.play(&m).map_err(failed)?,
            }
        } else {
            self.player.play(&m).map_err(failed)?
        };
        if self.description.traced && report.trace.is_none() {
            return Err(failed(
                "the game declares `traced: true` and this reply has no `trace` (each seat's score after every step): send one, or leave `traced` out".into(),
            ));
        }
        let record = record(&report, seats);
        Ok((record, report.frames))
    }

    fn play_request(
        &self,
        req: &GameRequest,
        lineup: &[usize],
        rotation: usize,
        show: bool,
    ) -> Result<(Record, Vec<String>), Error> {
        let settings = self.settings_of(req)?;
        let agents = self.seats(req)?;
        if let Some(&bad) = lineup.iter().find(|&&a| a >= agents.len()) {
            return Err(Error::Lineup {
                agent: bad,
                agents: agents.len(),
            });
        }
        let bots: Vec<&Seat> = lineup.iter().map(|&a| &agents[a]).collect();
        let seats = playtune_harness::play::rotated_seats(lineup.len(), rotation);
        self.play_match(&settings, &bots, &seats, req.seed, show)
    }

    /// One match of `req`'s agents, seat `i` agent `i`, and where `show`, its frames.
    fn play_in_order(&self, req: &GameRequest, show: bool) -> Result<(Record, Vec<String>), Error> {
        let n = if req.agents.is_empty() {
            self.description.players
        } else {
            req.agents.len()
        };
        let lineup: Vec<usize> = (0..n).collect();
        self.play_request(req, &lineup, 0, show)
    }
}

/// A seat's bot, checked once: as the game's process reads it (every setting filled
/// in), and as it was given, the spec a match over the game's rules builds.
#[derive(Clone, Debug)]
struct Seat {
    bot: SeatBot,
    spec: AgentSpec,
}

/// A request set up once for many matches: its settings and its seats checked.
struct PreparedMatch<'g> {
    game: &'g ExternalGame,
    settings: serde_json::Map<String, serde_json::Value>,
    seats: Vec<Seat>,
}

impl playtune_harness::PreparedGame for PreparedMatch<'_> {
    fn play(&self, seed: u64) -> Result<Record, Error> {
        let bots: Vec<&Seat> = self.seats.iter().collect();
        let seats: Vec<usize> = (0..bots.len()).collect();
        Ok(self
            .game
            .play_match(&self.settings, &bots, &seats, seed, false)?
            .0)
    }
}

/// A dimension's default as its setting's text.
fn default_text(d: &Dimension) -> String {
    d.domain.render(d.domain.value(d.default))
}

/// Every setting of `dims` with its value (its default unless `given`), each given
/// name and value checked: `owner` names whose settings they are in errors.
fn checked(
    owner: &str,
    dims: &[Dimension],
    given: &[(String, String)],
) -> Result<Vec<(String, String)>, Error> {
    let mut values: Vec<(String, String)> = dims
        .iter()
        .map(|d| (d.name.clone(), default_text(d)))
        .collect();
    for (k, v) in given {
        let Some(d) = dims.iter().find(|d| d.name == *k) else {
            return Err(SettingError::Unknown {
                owner: owner.to_string(),
                name: k.clone(),
                value: v.clone(),
                known: dims.iter().map(|d| d.name.clone()).collect(),
            }
            .into());
        };
        let Some(x) = d.domain.parse_number(v) else {
            return Err(SettingError::Invalid {
                owner: owner.to_string(),
                name: k.clone(),
                value: v.clone(),
                expected: d.domain.describe(),
            }
            .into());
        };
        let slot = values.iter_mut().find(|(n, _)| n == k).expect("declared");
        slot.1 = d.domain.render(x);
    }
    Ok(values)
}

/// The record of a match's report, agent `i` having sat in `seats[i]`.
fn record(report: &MatchReport, seats: &[usize]) -> Record {
    let players = report.scores.len();
    let winners: Vec<bool> = (0..players).map(|s| report.winners.contains(&s)).collect();
    let mut lead = LeadTracker::default();
    let lead = match &report.trace {
        Some(rows) => {
            for (step, row) in rows.iter().enumerate() {
                lead.observe_scores(row, u32::try_from(step).unwrap_or(u32::MAX));
            }
            lead.observe_scores(&report.scores, report.length);
            lead.finish(&winners, report.length)
        }
        // Without a trace the lead's path is unknown: its figures are unavailable.
        None => playtune_harness::play::Lead {
            traced: false,
            changes: 0,
            decided_at: None,
        },
    };
    let extra = report
        .features
        .iter()
        .flat_map(|(name, per_seat)| {
            per_seat
                .iter()
                .enumerate()
                .map(move |(seat, v)| (format!("{name}_{seat}"), *v))
        })
        .collect();
    Record {
        seats: seats.to_vec(),
        scores: seats.iter().map(|&s| report.scores[s]).collect(),
        winners: seats.iter().map(|&s| winners[s]).collect(),
        length: report.length,
        extra,
        lead,
        by_rules: report.by_rules,
    }
}

impl DynGame for ExternalGame {
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn settings(&self) -> Vec<Setting> {
        self.description
            .settings
            .dims
            .iter()
            .map(|d| {
                let s = Setting::new(&d.name, &default_text(d), "a rule of the game")
                    .taking(d.domain.clone());
                match d.domain {
                    playtune_optim::space::Domain::Categories(_)
                    | playtune_optim::space::Domain::Bool => s,
                    _ => {
                        let (lo, hi) = d.domain.bounds();
                        s.within(lo, hi)
                    }
                }
            })
            .collect()
    }

    fn own_agents(&self) -> Vec<AgentInfo> {
        self.description
            .bots
            .iter()
            .map(|b| AgentInfo {
                names: vec![leak(&b.name)],
                about: leak(&b.about),
                settings: b
                    .settings
                    .iter()
                    .map(|d| {
                        Setting::new(
                            &d.name,
                            &default_text(d),
                            &format!("takes {}", d.domain.describe()),
                        )
                        .tuned(d.domain.clone())
                    })
                    .collect(),
            })
            .chain(
                forward::bots(self.description.searchable())
                    .into_iter()
                    .filter(|_| self.description.forward_model)
                    .filter(|(n, _, _)| !self.description.bots.iter().any(|b| b.name == *n))
                    .map(|(name, about, settings)| AgentInfo {
                        names: vec![name],
                        about,
                        settings,
                    }),
            )
            .collect()
    }

    fn default_agents(&self, settings: &Values) -> Result<Vec<String>, Error> {
        own_settings(self.name, settings)?;
        Ok(self.default_lineup())
    }

    fn default_ladder(&self) -> Option<Vec<String>> {
        Some(self.description.ladder.clone())
    }

    fn generic_ladder(&self) -> bool {
        self.description.generic_ladder
    }

    fn settings_values(&self, given: &[(String, String)]) -> Result<Values, Error> {
        // Every setting is declared and checked here, so the harness's reading of
        // them refuses nothing.
        Ok(Values::new(
            &self.owner(),
            &DynGame::settings(self),
            &self.values(given)?,
        )?)
    }

    fn players(&self, settings: &Values) -> Result<usize, Error> {
        own_settings(self.name, settings)?;
        Ok(self.description.players)
    }

    fn prepare(
        &self,
        req: &GameRequest,
    ) -> Result<Box<dyn playtune_harness::PreparedGame + '_>, Error> {
        Ok(Box::new(PreparedMatch {
            game: self,
            settings: self.settings_of(req)?,
            seats: self.seats(req)?,
        }))
    }

    fn play(&self, req: &GameRequest) -> Result<Record, Error> {
        Ok(self.play_in_order(req, false)?.0)
    }

    fn play_shown(&self, req: &GameRequest) -> Result<(Record, Vec<String>), Error> {
        let (record, frames) = self.play_in_order(req, true)?;
        if frames.is_empty() {
            return Err(Error::NoText {
                game: self.name.to_string(),
                why: "it plays whole matches with its own bots and its reply gave no `frames` (each state and move as text)".into(),
            });
        }
        Ok((record, frames))
    }

    fn check(&self, req: &GameRequest) -> Result<(), Error> {
        self.settings_of(req)?;
        self.seats(req).map(|_| ())
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
                let settings = self.settings_of(req)?;
                let agents = self.seats(req)?;
                let names = self.agent_names(req)?;
                Ok((names, self.description.players, (settings, agents)))
            },
            |(settings, agents), lineup, seats, seed| {
                let bots: Vec<&Seat> = lineup.iter().map(|&a| &agents[a]).collect();
                Ok(self.play_match(settings, &bots, seats, seed, false)?.0)
            },
        )
    }

    fn play_lineup(
        &self,
        req: &GameRequest,
        lineup: &[usize],
        index: usize,
    ) -> Result<Record, Error> {
        Ok(self.play_request(req, lineup, index, false)?.0)
    }

    fn agent_names(&self, req: &GameRequest) -> Result<Vec<String>, Error> {
        let specs: Vec<AgentSpec> = self.seats(req)?.into_iter().map(|s| s.spec).collect();
        Ok(playtune_harness::numbered_names(&specs))
    }

    fn render(&self, _req: &GameRequest, _at: &[u32], _out: &Path) -> Result<Record, Error> {
        Err(Error::NoPicture {
            game: self.name.to_string(),
        })
    }

    fn encoding(&self) -> Option<Encoding> {
        None
    }

    fn encoding_named(&self, _name: Option<&str>) -> Result<Encoding, Error> {
        Err(Error::NoEncoding {
            game: self.name.to_string(),
        })
    }

    fn identity(&self) -> Option<playtune_optim::eval::GameIdentity> {
        if let Some(recorded) = &self.recorded {
            return Some(recorded.clone());
        }
        let d = &self.description;
        Some(playtune_optim::eval::GameIdentity {
            name: self.name.to_string(),
            fingerprint: d.fingerprint(),
            code: d.code_fingerprint(),
            source: d.source.clone().or_else(|| d.python.clone()),
            description: Some(d.recorded()),
        })
    }

    fn design_space(&self) -> Option<playtune_optim::space::Space> {
        if self.description.settings.dims.is_empty() {
            return None;
        }
        let mut space = self.description.settings.clone();
        space.constraints.clear();
        Some(space)
    }

    fn own_rules(&self, settings: &Values) -> Result<Vec<(String, String)>, Error> {
        Ok(own_settings(self.name, settings)?.pairs().to_vec())
    }

    fn playability(&self, settings: &Values) -> Result<Vec<String>, Error> {
        own_settings(self.name, settings)?;
        Ok(self.description.playable.clone())
    }

    fn rung_measure(&self) -> Option<playtune_harness::design::RungMeasure> {
        None
    }

    fn own_features(&self) -> Vec<String> {
        self.description.features.clone()
    }

    fn traced(&self) -> bool {
        // Every match playtune's bots play over the rules reports a trace.
        self.description.traced || self.description.forward_model
    }

    fn selfplay(
        &self,
        _req: &GameRequest,
        _encoding: Option<&str>,
        _games: &[u32],
        _sink: &playtune_harness::SampleSink,
    ) -> Result<(), Error> {
        Err(Error::NoEncoding {
            game: self.name.to_string(),
        })
    }
}

#[cfg(test)]
mod failed_matches {
    use super::*;

    /// A player whose every match fails with a reason full of a terminal's controls.
    struct Rude;

    impl MatchPlayer for Rude {
        fn play(&self, _m: &Match) -> Result<MatchReport, String> {
            Err("bad \u{1b}]0;title\u{7}\u{1b}[2J\u{9b}31m move\non two lines".into())
        }
    }

    /// Issue 65: why a match failed reaches messages and the terminal without control
    /// characters, whoever played it (a process, or a game in process).
    #[test]
    fn a_failed_match_s_reason_loses_its_control_characters() {
        let d = Description::parse(
            "(name: \"rude\", command: \"true\", players: 2, bots: [(name: \"a\")])",
            "rude.ron",
            PathBuf::from("."),
        )
        .unwrap();
        let game = ExternalGame::with_player(d, Box::new(Rude));
        let e = game
            .play(&GameRequest {
                settings: game.settings_values(&[]).unwrap(),
                agents: AgentSpec::parse_all(&["a", "a"]).unwrap(),
                budget: None,
                seed: 1,
            })
            .unwrap_err()
            .to_string();
        assert!(!e.chars().any(char::is_control), "{e:?}");
        assert!(e.contains("move") && e.contains("on two lines"), "{e}");
    }
}
