//! A game description file (RON): what playtune needs to know of a game that lives
//! outside it, in any language. The settings are written as a space file's
//! dimensions, so they are the game's design space as they stand.
//!
//! ```ron
//! (
//!     name: "duel",
//!     about: "two players roll dice; `edge` sets how much skill counts",
//!     command: "python3 duel.py",
//!     players: 2,
//!     settings: [
//!         (name: "edge", kind: List([0.0, 0.5, 1.0]), default: 0.5),
//!         (name: "rounds", kind: Int(min: 1, max: 9), default: 5),
//!     ],
//!     bots: [
//!         (name: "novice", about: "plays at random"),
//!         (name: "expert", about: "looks ahead",
//!          settings: [(name: "depth", kind: Int(min: 1, max: 3), default: 1)]),
//!     ],
//!     ladder: ["novice", "expert(depth=1)", "expert(depth=3)"],
//!     playable: ["stalemate_rate <= 0.05"],
//! )
//! ```
//! Every error names the file, the line and the field.

use playtune_optim::space::{DimText, Dimension, Space, SpaceError, embedded_space, ron_error};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The largest description read: one is a page of text; more is the wrong file.
const MAX_FILE: u64 = 1 << 20;
/// Most seats a game may declare.
const MAX_PLAYERS: usize = 64;

fn default_timeout() -> f64 {
    60.0
}

fn default_startup() -> f64 {
    10.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDescription {
    #[serde(default)]
    name: String,
    #[serde(default)]
    about: String,
    #[serde(default)]
    command: String,
    /// A Python game (`FILE.py:NAME` or `module:NAME`) in place of `command`: its
    /// settings, bots, ladder and the rest come from the game itself.
    #[serde(default)]
    python: String,
    /// 0 where not given.
    #[serde(default)]
    players: usize,
    #[serde(default)]
    settings: Vec<DimText>,
    #[serde(default)]
    bots: Vec<RawBot>,
    #[serde(default)]
    ladder: Vec<String>,
    #[serde(default)]
    features: Vec<String>,
    #[serde(default)]
    playable: Vec<String>,
    #[serde(default = "default_timeout")]
    timeout: f64,
    /// Seconds a fresh game process has to start, beyond its first match's timeout.
    #[serde(default = "default_startup")]
    startup: f64,
    #[serde(default)]
    workers: usize,
    #[serde(default)]
    traced: bool,
    /// The game answers the forward-model operations: playtune's bots play it.
    #[serde(default)]
    forward_model: bool,
    /// A seat may not see everything (cards in hand, a hidden move).
    #[serde(default)]
    hidden: bool,
    /// Whether a hidden-information game answers `resample` (default: it does).
    #[serde(default = "yes")]
    resample: bool,
    /// Moves after which a forward-model match ends by the cap.
    #[serde(default = "default_max_steps")]
    max_steps: u32,
}

fn yes() -> bool {
    true
}

fn default_max_steps() -> u32 {
    10_000
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: String,
    #[serde(default)]
    about: String,
    #[serde(default)]
    settings: Vec<DimText>,
}

/// One of the game's own bots: its name, what it is, and its settings (each a domain,
/// which `tune-agent` searches, and a default).
#[derive(Clone, Debug, PartialEq)]
pub struct Bot {
    /// Its name in agent specs.
    pub name: String,
    /// What it is, in a line.
    pub about: String,
    /// Its settings, each a domain and a default.
    pub settings: Vec<Dimension>,
}

/// A game description, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    /// The file it was read from, as given.
    pub file: String,
    /// The game's name (`--game NAME`).
    pub name: String,
    /// One line on what the game is.
    pub about: String,
    /// The command that starts the game (`sh -c`), run in `dir`; empty for a game
    /// played in process (a Python class), which a file cannot describe.
    pub command: String,
    /// The description file's folder: the command starts there.
    pub dir: PathBuf,
    /// Seats a match has.
    pub players: usize,
    /// The settings, as a space: the design space, defaults the game's own rules.
    pub settings: Space,
    /// The game's own bots.
    pub bots: Vec<Bot>,
    /// Agent specs, weakest first: the design ladder unless a run names one (by
    /// default every bot, in order).
    pub ladder: Vec<String>,
    /// Whether `ladder` is playtune's generic one ([`crate::forward::default_ladder`]):
    /// the game declares neither a ladder nor bots of its own.
    pub generic_ladder: bool,
    /// Per-seat figures a match may report beside its scores.
    pub features: Vec<String>,
    /// What a playable game is, as constraints on the design metrics.
    pub playable: Vec<String>,
    /// The most a match may take before its process is killed.
    pub timeout: Duration,
    /// What a fresh game process has beyond its first match's timeout, to start.
    pub startup: Duration,
    /// Game processes at most (0: one per core).
    pub workers: usize,
    /// The Python game (`FILE.py:NAME`, the file's path absolute) whose processes
    /// play the matches, where the game is one.
    pub python: Option<String>,
    /// Whether every match reports a trace (each seat's score after every step), as
    /// `traced: true` declares: the lead metrics need one, and are unavailable for a
    /// game that does not declare it.
    pub traced: bool,
    /// Whether the game gives its rules (a forward model): playtune's own bots
    /// ([`crate::forward::bots`]) play it, beside any bots of its own.
    pub forward_model: bool,
    /// Whether a seat may not see everything: search bots then decide on states
    /// re-sampled from what their seat has seen.
    pub hidden: bool,
    /// Whether a hidden-information game re-samples states (search bots need it).
    pub resample: bool,
    /// Moves after which a match played by playtune's bots ends by the cap.
    pub max_steps: u32,
    /// Where the game was found, absolutely: the description file's path, or a Python
    /// game's reference with its file's path (`None`: a game handed over in process).
    /// A run records it, and plays the game from there wherever it is resumed.
    pub source: Option<String>,
}

impl Description {
    /// Whether search bots may play it: it hides nothing, or it re-samples.
    pub fn searchable(&self) -> bool {
        !self.hidden || self.resample
    }

    /// Whether `name` is one of playtune's bots for this game (not one of its own).
    pub(crate) fn is_forward_bot(&self, name: &str) -> bool {
        // Every generic name, searchable or not, so that a search bot of a game that
        // cannot be searched fairly is refused with the reason, not as unknown.
        self.forward_model
            && !self.bots.iter().any(|b| b.name == name)
            && crate::forward::is_bot(name)
    }

    /// A fingerprint of everything that decides how the game plays and is scored: its
    /// name, players, command (or Python object), settings and their domains, bots,
    /// ladder, features, playability and trace; not where its file lies, so a game
    /// moved with its run is the same game. FNV-1a of that text, in hexadecimal. The
    /// code that plays it has a fingerprint of its own (the `code` of the game's
    /// identity), which runs recorded before it lack.
    pub fn fingerprint(&self) -> String {
        // A Python game's command holds its file's absolute path: its object's name
        // and what it describes identify it.
        let plays = match &self.python {
            Some(r) => format!("python {}", r.rsplit(':').next().unwrap_or(r)),
            None => format!("command {}", self.command),
        };
        let mut text = format!(
            "name {}\nplayers {}\n{plays}\nsettings {}\nladder {:?}\nfeatures {:?}\nplayable {:?}\ntraced {}\n{}",
            self.name,
            self.players,
            ron_text(&self.settings),
            self.ladder,
            self.features,
            self.playable,
            self.traced,
            // Only where it is one, so that the fingerprints of the games before
            // forward models stay as they were.
            if self.forward_model {
                format!(
                    "forward hidden={} resample={} max_steps={}\n",
                    self.hidden, self.resample, self.max_steps
                )
            } else {
                String::new()
            },
        );
        for b in &self.bots {
            text += &format!("bot {} {}\n", b.name, ron_text(&b.settings));
        }
        format!("{:016x}", playtune_optim::damage::fnv1a(text.as_bytes()))
    }
}

/// A number of seconds as a message quotes it: as written where it is plain (`-1`,
/// `0.5`), in exponent form where plain would be a screenful of digits (`1e300`).
fn seconds(x: f64) -> String {
    if x.is_finite() && x.abs() < 1e9 {
        format!("{x}")
    } else {
        format!("{x:?}")
    }
}

/// Checks an `about`: one line, which `playtune games` prints as it is, so without a
/// line break or any other control character (a terminal's escape codes among them).
fn one_line(about: &str) -> Result<(), String> {
    match about.chars().find(|c| c.is_control()) {
        None => Ok(()),
        Some(c) => Err(format!(
            "one line of text, without control characters: it holds {} ({:?}); write it on one line",
            match c {
                '\n' | '\r' => "a line break".to_string(),
                '\t' => "a tab".to_string(),
                c => format!("the control character U+{:04X}", u32::from(c)),
            },
            c
        )),
    }
}

/// A value as compact RON, for a fingerprint.
fn ron_text<T: serde::Serialize>(value: &T) -> String {
    ron::to_string(value).unwrap_or_default()
}

impl Description {
    /// A fingerprint of the code that plays the game, where files hold it: a Python
    /// game's file (not the modules it imports), or each word of the command that names
    /// a file, relative to the description's folder or absolute (`python3 duel.py`:
    /// `duel.py`; `./game --fast`: `./game`; a program found on the `PATH`, such as
    /// `python3`, is not). Each file counts by the name the game gives it and its bytes,
    /// not where it lies, so a game moved with its files keeps its fingerprint. `None`
    /// where playtune cannot see the code: a game played in process, a Python game
    /// named by its module.
    pub(crate) fn code_fingerprint(&self) -> Option<String> {
        let files: Vec<(String, PathBuf)> = match &self.python {
            Some(reference) => {
                let (file, _) = reference.rsplit_once(':')?;
                if !file.ends_with(".py") {
                    return None;
                }
                let path = self.dir.join(file);
                let name = path.file_name()?.to_string_lossy().to_string();
                vec![(name, path)]
            }
            None if self.command.trim().is_empty() => return None,
            None => command_words(&self.command)
                .into_iter()
                .map(|w| (w.clone(), self.dir.join(w)))
                .filter(|(_, p)| p.is_file())
                .collect(),
        };
        let mut text: Vec<u8> = Vec::new();
        for (name, path) in files {
            // Lengths first, so that no two lists of files read as the same bytes. A
            // file that cannot be read counts as empty: loading the game says why.
            let bytes = std::fs::read(&path).unwrap_or_default();
            text.extend((name.len() as u64).to_le_bytes());
            text.extend(name.as_bytes());
            text.extend((bytes.len() as u64).to_le_bytes());
            text.extend(bytes);
        }
        Some(format!("{:016x}", playtune_optim::damage::fnv1a(&text)))
    }

    /// The description in the description file's format, as a run records it
    /// ([`Description::of_record`] reads it back to the same fingerprint): what the
    /// game is, its command as text, and never a Python game to ask (`python`), so that
    /// reading it back runs nothing.
    pub fn recorded(&self) -> String {
        let dims = |dims: &[Dimension]| dims.iter().map(dim_text).collect::<Vec<_>>().join(", ");
        let bots: Vec<String> = self
            .bots
            .iter()
            .map(|b| {
                format!(
                    "(name: {}, about: {}, settings: [{}])",
                    ron_text(&b.name),
                    ron_text(&b.about),
                    dims(&b.settings)
                )
            })
            .collect();
        let mut text = format!(
            "(name: {}, about: {}, command: {}, players: {}, settings: [{}], bots: [{}], ladder: {}, features: {}, playable: {}, timeout: {:?}, startup: {:?}, workers: {}, traced: {}",
            ron_text(&self.name),
            ron_text(&self.about),
            ron_text(&self.command),
            self.players,
            dims(&self.settings.dims),
            bots.join(", "),
            ron_text(&self.ladder),
            ron_text(&self.features),
            ron_text(&self.playable),
            self.timeout.as_secs_f64(),
            self.startup.as_secs_f64(),
            self.workers,
            self.traced,
        );
        // A file may say what a seat sees only of a game with a forward model.
        if self.forward_model {
            text += &format!(
                ", forward_model: true, hidden: {}, resample: {}, max_steps: {}",
                self.hidden, self.resample, self.max_steps
            );
        }
        text + ")"
    }

    /// A description a run recorded ([`Description::recorded`]), read back with every
    /// check of a description file and without reaching the game: a record that names
    /// a Python game (`python`), which only running Python could describe, is refused.
    /// `file` names the record in errors.
    pub fn of_record(text: &str, file: &str) -> Result<Description, SpaceError> {
        let raw: RawDescription = ron::from_str(text).map_err(|e| ron_error(text, file, &e))?;
        if !raw.python.is_empty() {
            return Err(SpaceError {
                file: file.to_string(),
                line: 0,
                column: 0,
                field: "python".into(),
                message: format!(
                    "the recorded game names the Python game `{}`, which a record never does (asking it would run its code): the record was edited",
                    raw.python
                ),
            });
        }
        Description::parse(text, file, PathBuf::from("."))
    }
}

/// The words of a command as `sh` splits a plain one: at white space outside quotes,
/// the quotes removed, a backslash outside single quotes taking the next character as
/// it is. Options (`-m`) and assignments (`A=1`) name no file.
fn command_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                let next = chars.next().unwrap_or('\\');
                word.get_or_insert_with(String::new).push(next);
            }
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words.retain(|w| !w.is_empty() && !w.starts_with('-') && !w.contains('='));
    words
}

/// A dimension as a description file writes it: `(name: "rounds", kind: Int(min: 1,
/// max: 15, step: 2), default: 5)`.
fn dim_text(d: &Dimension) -> String {
    use playtune_optim::space::Domain;
    let value = d.domain.value(d.default);
    let (kind, default) = match &d.domain {
        Domain::Int { min, max, step } => (
            format!("Int(min: {min}, max: {max}, step: {step})"),
            format!("{}", value as i64),
        ),
        Domain::List(v) => (format!("List({})", ron_text(v)), format!("{value:?}")),
        Domain::Categories(names) => (
            format!("Categories({})", ron_text(names)),
            ron_text(&names[d.default]),
        ),
        Domain::Bool => ("Bool".to_string(), (d.default == 1).to_string()),
        Domain::Float { min, max, levels } => (
            format!("Float(min: {min:?}, max: {max:?}, levels: {levels})"),
            format!("{value:?}"),
        ),
    };
    format!(
        "(name: {}, kind: {kind}, default: {default})",
        ron_text(&d.name)
    )
}

impl Description {
    /// Reads and checks the description at `path`.
    pub fn load(path: &Path) -> Result<Description, SpaceError> {
        let file = path.display().to_string();
        let whole = |message: String| SpaceError {
            file: file.clone(),
            line: 0,
            column: 0,
            field: "file".into(),
            message,
        };
        let meta = std::fs::metadata(path)
            .map_err(|e| whole(format!("cannot read the game description: {e}")))?;
        if !meta.is_file() {
            return Err(whole(
                "it is not a regular file: give a game description (RON)".into(),
            ));
        }
        if meta.len() > MAX_FILE {
            return Err(whole(format!(
                "it holds {} bytes, more than a game description's limit of 1 MiB: is it the right file?",
                meta.len()
            )));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| whole(format!("cannot read the game description: {e}")))?;
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let mut d = Description::parse(&text, &file, dir)?;
        d.source = Some(
            std::fs::canonicalize(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
                .to_string(),
        );
        if d.command.trim().is_empty() && d.python.is_none() {
            let at = text.find("name").unwrap_or(0);
            return Err(SpaceError {
                file,
                line: text[..at].matches('\n').count() + 1,
                column: 1,
                field: "command".into(),
                message: "give the command that starts the game (`command: \"python3 game.py\"`) or the Python game it is (`python: \"game.py:Game\"`)"
                    .into(),
            });
        }
        Ok(d)
    }

    /// Parses the description `text` (the file `file`, in the folder `dir`).
    pub fn parse(text: &str, file: &str, dir: PathBuf) -> Result<Description, SpaceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let raw: RawDescription = ron::from_str(text).map_err(|e| ron_error(text, file, &e))?;
        let at = |field: &str, needle: &str, message: String| {
            let offset = text
                .find(&format!("{field}:"))
                .map(|f| f + text[f..].find(needle).unwrap_or(0))
                .unwrap_or(0);
            let before = &text[..offset];
            SpaceError {
                file: file.into(),
                line: before.matches('\n').count() + 1,
                column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
                field: field.to_string(),
                message,
            }
        };
        // Checked before a Python game is asked (`python`), so that both kinds of game
        // are held to one check, and a wrong file starts no process.
        if !(raw.timeout.is_finite() && raw.timeout > 0.0 && raw.timeout <= 86_400.0) {
            return Err(at(
                "timeout",
                "",
                format!(
                    "{}: give the seconds a match may take, above 0 and at most a day",
                    seconds(raw.timeout)
                ),
            ));
        }
        if !(raw.startup.is_finite() && raw.startup >= 0.0 && raw.startup <= 86_400.0) {
            return Err(at(
                "startup",
                "",
                format!(
                    "{}: give the seconds a fresh game process may take to start, 0 to a day",
                    seconds(raw.startup)
                ),
            ));
        }
        one_line(&raw.about).map_err(|why| at("about", "", why))?;
        if !raw.python.is_empty() && raw.name.is_empty() {
            return python_description(&raw, &raw.python, file, dir, &at);
        }
        if raw.name.is_empty()
            || !raw
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(at(
                "name",
                "",
                format!(
                    "{:?}: a game's name is letters, digits, `-` and `_`",
                    raw.name
                ),
            ));
        }
        if !raw.python.is_empty() {
            return python_description(&raw, &raw.python, file, dir, &at);
        }
        let players = raw.players;
        if !(1..=MAX_PLAYERS).contains(&players) {
            let message = if players == 0 && !text.contains("players") {
                "give the seats in a match (`players: 2`)".to_string()
            } else {
                format!("{players}: give 1 to {MAX_PLAYERS} players")
            };
            return Err(at("players", "", message));
        }
        if raw.bots.is_empty() && !raw.forward_model {
            return Err(at(
                "bots",
                "",
                "declare at least one bot, or `forward_model: true` for a game that answers the forward-model operations (playtune's bots then play it)".into(),
            ));
        }
        if raw.max_steps == 0 {
            return Err(at(
                "max_steps",
                "",
                "0: give the moves after which a match ends by the cap (at least 1)".into(),
            ));
        }
        if (raw.hidden || !raw.resample) && !raw.forward_model {
            return Err(at(
                if raw.hidden { "hidden" } else { "resample" },
                "",
                "only a game with `forward_model: true` says what its seats see: playtune's bots play only such a game".into(),
            ));
        }
        // Quoted in messages and printed by `playtune games`: a terminal's controls in
        // them would reach the terminal.
        for (field, list) in [("ladder", &raw.ladder), ("playable", &raw.playable)] {
            for (i, text) in list.iter().enumerate() {
                if let Some(c) = text.chars().find(|c| c.is_control()) {
                    return Err(at(
                        field,
                        "",
                        format!(
                            "{field}[{i}]: {text:?} holds the control character {c:?}: write it without"
                        ),
                    ));
                }
            }
        }
        // A game with no settings is played (tournaments, tuning its bots), not
        // designed: its design space is none.
        if raw.settings.is_empty() && !raw.playable.is_empty() {
            return Err(at(
                "playable",
                "",
                "playable constrains the rules a design run searches, and a game without settings has none to search: declare settings, or leave playable out".into(),
            ));
        }
        let settings = if raw.settings.is_empty() {
            Space {
                name: raw.name.clone(),
                dims: Vec::new(),
                groups: Vec::new(),
                constraints: Vec::new(),
            }
        } else {
            embedded_space(
                text,
                file,
                &raw.name,
                "settings",
                raw.settings,
                "playable",
                raw.playable.clone(),
            )?
        };
        let mut bots: Vec<Bot> = Vec::with_capacity(raw.bots.len());
        for (i, b) in raw.bots.into_iter().enumerate() {
            let needle = format!("{:?}", b.name);
            let field = format!("bots[{i}]");
            if b.name.is_empty()
                || !b
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '*')
            {
                return Err(at(
                    "bots",
                    &needle,
                    format!(
                        "{field}: {:?}: a bot's name is letters, digits, `-`, `_` and `*`",
                        b.name
                    ),
                ));
            }
            if bots.iter().any(|o| o.name == b.name) {
                return Err(at(
                    "bots",
                    &needle,
                    format!("{field}: a second bot named `{}`", b.name),
                ));
            }
            one_line(&b.about)
                .map_err(|why| at("bots", &needle, format!("{field}.about: {why}")))?;
            let settings = if b.settings.is_empty() {
                Vec::new()
            } else {
                embedded_space(
                    text,
                    file,
                    &b.name,
                    "bots",
                    b.settings,
                    "playable",
                    Vec::new(),
                )?
                .dims
            };
            bots.push(Bot {
                name: b.name,
                about: b.about,
                settings,
            });
        }
        let searchable = !raw.hidden || raw.resample;
        let generic_ladder = raw.ladder.is_empty() && bots.is_empty();
        let ladder = if raw.ladder.is_empty() && bots.is_empty() {
            crate::forward::default_ladder(raw.hidden, searchable)
        } else if raw.ladder.is_empty() {
            bots.iter().map(|b| b.name.clone()).collect()
        } else {
            for (i, spec) in raw.ladder.iter().enumerate() {
                // Each rung as a match would take it: its bot, its settings' names and
                // values, here rather than at the first match.
                let bad = |message: String| {
                    at(
                        "ladder",
                        &format!("{spec:?}"),
                        format!("ladder[{i}]: {message}"),
                    )
                };
                let parsed = playtune_harness::AgentSpec::parse(spec)
                    .map_err(|e| bad(format!("{spec:?}: {e}")))?;
                let own = bots.iter().find(|b| b.name == parsed.name);
                if own.is_none() && raw.forward_model && crate::forward::is_bot(&parsed.name) {
                    crate::forward::check_spec(&raw.name, &parsed, searchable)
                        .map_err(|e| bad(e.to_string()))?;
                    continue;
                }
                let Some(bot) = own else {
                    let mut names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
                    if raw.forward_model {
                        names.extend(
                            crate::forward::bots(searchable)
                                .into_iter()
                                .map(|(n, _, _)| n.to_string()),
                        );
                    }
                    return Err(bad(format!(
                        "`{}` is not a bot (the bots: {})",
                        parsed.name,
                        names.join(", ")
                    )));
                };
                super::checked(
                    &format!("bot `{}`", bot.name),
                    &bot.settings,
                    &parsed.settings,
                )
                .map_err(|e| bad(e.to_string()))?;
            }
            raw.ladder
        };
        // A playable constraint holds a design metric, a rung's result or the depth's
        // standard error: any other feature would be refused by every design run.
        for (i, text) in raw.playable.iter().enumerate() {
            let Ok(c) = text.parse::<playtune_optim::space::Constraint>() else {
                continue; // refused with its position by `embedded_space` above
            };
            let metrics = playtune_harness::design::metric_names(raw.traced || raw.forward_model);
            let known = metrics.contains(&c.feature.as_str())
                || raw.features.contains(&c.feature)
                || c.feature == playtune_harness::design::DEPTH_SE
                || c.feature.starts_with("win_rate_");
            if !known {
                let lead = playtune_harness::design::LEAD_METRICS.contains(&c.feature.as_str());
                return Err(at(
                    "playable",
                    &format!("{text:?}"),
                    if lead {
                        format!(
                            "playable[{i}]: `{}` is a lead metric, measured only for a game that declares `traced: true`",
                            c.feature
                        )
                    } else {
                        format!(
                            "playable[{i}]: `{}` is not a design metric (they are {}, and win_rate_R_BOT for rung R of the ladder)",
                            c.feature,
                            metrics.join(", ")
                        )
                    },
                ));
            }
        }
        for (i, f) in raw.features.iter().enumerate() {
            if f.is_empty() || !f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(at(
                    "features",
                    &format!("{f:?}"),
                    format!("features[{i}]: {f:?}: a feature's name is letters, digits and `_`"),
                ));
            }
        }
        Ok(Description {
            file: file.to_string(),
            name: raw.name,
            about: raw.about,
            command: raw.command,
            dir,
            players,
            settings,
            bots,
            ladder,
            generic_ladder,
            features: raw.features,
            playable: raw.playable,
            timeout: Duration::from_secs_f64(raw.timeout),
            startup: Duration::from_secs_f64(raw.startup),
            workers: raw.workers,
            python: None,
            traced: raw.traced,
            forward_model: raw.forward_model,
            hidden: raw.hidden,
            resample: raw.resample,
            max_steps: raw.max_steps,
            source: None,
        })
    }

    /// The Python game `reference` (`FILE.py:NAME`, the file relative to `dir`, or
    /// `module:NAME`), described by the game itself ([`super::python::describe`]).
    pub(crate) fn of_python(reference: &str, dir: &Path) -> Result<Description, SpaceError> {
        let text = format!("(python: {reference:?})");
        let mut d = Description::parse(&text, reference, dir.to_path_buf())?;
        d.source = d.python.clone();
        Ok(d)
    }
}

/// A description whose `python` field names the game: the game describes itself, and
/// the file may set only its name, `about`, `timeout` and `workers`.
fn python_description(
    raw: &RawDescription,
    reference: &str,
    file: &str,
    dir: PathBuf,
    at: &dyn Fn(&str, &str, String) -> SpaceError,
) -> Result<Description, SpaceError> {
    let given = [
        ("command", !raw.command.is_empty()),
        ("players", raw.players != 0),
        ("settings", !raw.settings.is_empty()),
        ("bots", !raw.bots.is_empty()),
        ("ladder", !raw.ladder.is_empty()),
        ("features", !raw.features.is_empty()),
        ("playable", !raw.playable.is_empty()),
        ("traced", raw.traced),
        ("forward_model", raw.forward_model),
        ("hidden", raw.hidden),
        ("resample", !raw.resample),
        ("max_steps", raw.max_steps != default_max_steps()),
    ];
    if let Some((field, _)) = given.iter().find(|(_, g)| *g) {
        return Err(at(
            field,
            "",
            format!(
                "`{field}` comes from the Python game `{reference}`: a description with `python` sets only name, about, timeout, startup and workers"
            ),
        ));
    }
    let absolute = super::python::absolute(reference, &dir);
    let described =
        super::python::describe(&absolute, &dir).map_err(|message| at("python", "", message))?;
    let mut d =
        Description::parse(&described, &absolute, dir.clone()).map_err(SpaceError::of_generated)?;
    if d.python.is_some() {
        return Err(at(
            "python",
            "",
            format!("`{reference}` described itself as another Python game"),
        ));
    }
    if !raw.name.is_empty() {
        d.name = raw.name.clone();
    }
    if !raw.about.is_empty() {
        d.about = raw.about.clone();
    }
    d.file = file.to_string();
    d.timeout = Duration::from_secs_f64(raw.timeout);
    d.startup = Duration::from_secs_f64(raw.startup);
    d.workers = raw.workers;
    d.command = super::python::serve_command(&absolute);
    d.python = Some(absolute);
    d.dir = dir;
    Ok(d)
}

/// Checks of the fields a game process's life depends on, and of what is printed.
#[cfg(test)]
mod checked_fields;

/// Issue 65: a run's record of its game, and the fingerprint of the code that plays it.
#[cfg(test)]
mod record_tests;
