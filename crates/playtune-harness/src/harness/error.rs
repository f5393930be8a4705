//! The harness's errors: what went wrong setting up, playing or drawing a game, typed
//! so that a caller can tell an unknown agent from a refused setting or a game's own
//! rule, and with the messages the harness has always given. Flag names belong to the
//! command line, which adds them as context: a message here names the setting, the
//! agent spec or the field the bad value came from.

use super::settings::SettingError;

/// Anything boxed: a game's own error type, or a sample writer's.
pub use playtune_optim::BoxError;

/// An error of the harness or of a game played through it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A setting refused by its owner: a name it does not declare, or a value outside
    /// what it takes ([`SettingError`]).
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// A setting's value that its game refuses for a reason of its own:
    /// `NAME=VALUE: WHY`.
    #[error("{name}={value}: {why}")]
    Value {
        /// The setting's name.
        name: String,
        /// The value given.
        value: String,
        /// Why the game refuses it.
        why: String,
    },
    /// A combination of an owner's settings refused together (`settings` as
    /// `NAME=VALUE, ...`): `SETTINGS: OWNER WHY`.
    #[error("{settings}: {owner} {why}")]
    Combination {
        /// The settings refused, `NAME=VALUE, ...`.
        settings: String,
        /// Whose settings they are (`agent `mcts``, `game `duel``).
        owner: String,
        /// Why, as its owner says it.
        why: String,
    },
    /// A field of a problem or request refused (`what`: the field, or `field=value`).
    #[error("{what}: {why}")]
    Field {
        /// The field, or `field=value`.
        what: String,
        /// Why it is refused.
        why: String,
    },
    /// An agent spec that does not read as `NAME` or `NAME(KEY=VALUE,...)`, or that
    /// sets what its agent does not have.
    #[error("agent `{spec}`: {why}")]
    Spec {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
    /// An agent name a game's registry does not know, with the names it knows.
    #[error("unknown {game} agent `{name}` (known: {})", known.join(", "))]
    UnknownAgent {
        /// The game (or the registry) asked.
        game: String,
        /// The name given.
        name: String,
        /// The names it knows.
        known: Vec<String>,
    },
    /// An agent name that is neither the game's own agent nor a generic one.
    #[error("agent `{name}` is not an agent of {game} (`playtune games` lists them)")]
    NotAnAgent {
        /// The game, in prose.
        game: String,
        /// The name given.
        name: String,
    },
    /// An agent spec whose agent has no tunable setting left.
    #[error("agent `{spec}` has nothing to tune: {why}")]
    NothingToTune {
        /// The agent spec.
        spec: String,
        /// Why nothing is left.
        why: String,
    },
    /// A search space's dimension that is not a setting of `owner`.
    #[error("dimension `{dimension}` is not a setting of {owner} (its settings: {})", known.join(", "))]
    NotASetting {
        /// The dimension's name.
        dimension: String,
        /// Whose settings were looked in.
        owner: String,
        /// The settings it has.
        known: Vec<String>,
    },
    /// A search space's dimension whose values leave the range the game takes.
    #[error(
        "dimension `{dimension}` takes {domain}, but game `{game}` takes {dimension} from {min} to {max}: narrow the domain to that range"
    )]
    OutsideRange {
        /// The dimension's name.
        dimension: String,
        /// The game's name.
        game: String,
        /// The dimension's domain, described.
        domain: String,
        /// The least value the game takes.
        min: f64,
        /// The greatest value the game takes.
        max: f64,
    },
    /// A search space's dimension with values the game's setting does not take.
    #[error(
        "dimension `{dimension}` takes {domain}, but game `{game}` takes {takes} as {dimension}: give a domain within those"
    )]
    OutsideDomain {
        /// The dimension's name.
        dimension: String,
        /// The game's name.
        game: String,
        /// The dimension's domain, described.
        domain: String,
        /// What the game's setting takes, described.
        takes: String,
    },
    /// A search space's dimension that the agent spec fixes too.
    #[error(
        "dimension `{dimension}` is fixed by the agent spec `{spec}`: leave it out of one of them"
    )]
    FixedDimension {
        /// The dimension's name.
        dimension: String,
        /// The agent spec that fixes it.
        spec: String,
    },
    /// A setting given for a dimension that the space refuses to fix there (`field`:
    /// where the setting came from).
    #[error("{field} {source}")]
    Fix {
        /// Where the setting came from.
        field: String,
        /// Why the space refuses it.
        source: Box<playtune_optim::space::Error>,
    },
    /// A search space file that does not read (a game's built-in space file).
    #[error(transparent)]
    Space(Box<playtune_optim::space::SpaceError>),
    /// A game without a built-in design space, asked to search it.
    #[error(
        "game `{game}` has no built-in design space: give a space file whose dimensions are its settings (`playtune games` lists them)"
    )]
    NoDesignSpace {
        /// The game's name.
        game: String,
    },
    /// A game's own rung measure naming a seat the game does not have.
    #[error("{game}: no seat {seat}")]
    NoSeat {
        /// The game's name.
        game: String,
        /// The seat named.
        seat: usize,
    },
    /// A game's summary without the value a measure reads.
    #[error("{game} reports no `{name}`")]
    NoSummary {
        /// The game's name.
        game: String,
        /// The value the measure reads.
        name: String,
    },
    /// Agents that do not fill the game's seats.
    #[error("{agents} agents for {players} players")]
    Seats {
        /// Agents given.
        agents: usize,
        /// Seats the game has.
        players: usize,
    },
    /// Seats that are not a permutation of the players.
    #[error("seats {seats:?} are not a permutation of 0..{players}")]
    Permutation {
        /// The seats given, agent by agent.
        seats: Vec<usize>,
        /// Seats the game has.
        players: usize,
    },
    /// A tournament whose agents make no lineup.
    #[error(
        "{agents} agents for {players}-player games: give one agent per player, or more than two for a 2-player round robin"
    )]
    Lineups {
        /// Agents given.
        agents: usize,
        /// Seats the game has.
        players: usize,
    },
    /// A lineup naming an agent the request does not have.
    #[error("lineup: agent {agent} of {agents} agents")]
    Lineup {
        /// The agent index in the lineup.
        agent: usize,
        /// Agents the request has.
        agents: usize,
    },
    /// A tournament of no games.
    #[error("0 games: play at least one game")]
    NoGames,
    /// A tournament of more games a lineup than could ever be played.
    #[error("{games} games: give at most {max} a lineup")]
    TooManyGames {
        /// The games asked for.
        games: usize,
        /// The most a lineup plays ([`super::tournament::MAX_GAMES`]).
        max: usize,
    },
    /// A tournament stopped before its last game ([`super::tournament::Watch::stop`]).
    #[error("interrupted: the tournament stopped after {played} of its games")]
    Interrupted {
        /// Games played before it stopped.
        played: usize,
    },
    /// Self-play with agents that do not fill the seats one each.
    #[error("self-play needs one agent per seat: {agents} agents for {players} players")]
    SelfplaySeats {
        /// Agents given.
        agents: usize,
        /// Seats the game has.
        players: usize,
    },
    /// A game without a picture, asked to draw one.
    #[error("game `{game}` has no picture")]
    NoPicture {
        /// The game's name.
        game: String,
    },
    /// A game without a text form, asked to show a match.
    #[error("game `{game}` cannot show a match as text: {why}")]
    NoText {
        /// The game's name.
        game: String,
        /// Why not, and what would.
        why: String,
    },
    /// A game without a state encoding, asked for self-play samples.
    #[error("game `{game}` has no state encoding, so it cannot record self-play samples")]
    NoEncoding {
        /// The game's name.
        game: String,
    },
    /// An encoding the game does not have.
    #[error("game `{game}` has no state encoding `{name}` (it has: {known})")]
    UnknownEncoding {
        /// The game's name.
        game: String,
        /// The encoding named.
        name: String,
        /// The encodings it has, comma-separated.
        known: String,
    },
    /// Drawing or writing a picture failed (the file and why).
    #[error(transparent)]
    Draw(#[from] crate::draw::PlotError),
    /// A game's own error (its rules, level or content), as the game's type: match
    /// with `downcast_ref`, e.g. to `games::strategy::Error`.
    #[error(transparent)]
    Game(BoxError),
    /// The writer of self-play samples failed.
    #[error(transparent)]
    Sink(BoxError),
    /// Another error, with what was being done: `CONTEXT: ERROR` (an agent that did
    /// not build, an opponent that did not play).
    #[error("{context}: {source}")]
    Context {
        /// What was being done.
        context: String,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },
    /// Another error, with a note on what the value means: `ERROR (NOTE)`.
    #[error("{source} ({note})")]
    Note {
        /// What went wrong.
        #[source]
        source: Box<Error>,
        /// What the value means.
        note: String,
    },
}

impl Error {
    /// The error with `context` in front: `CONTEXT: ERROR`.
    pub fn context(self, context: impl Into<String>) -> Error {
        Error::Context {
            context: context.into(),
            source: Box::new(self),
        }
    }

    /// The error with `note` after it: `ERROR (NOTE)`.
    pub fn note(self, note: impl Into<String>) -> Error {
        Error::Note {
            source: Box::new(self),
            note: note.into(),
        }
    }

    /// A refused field: `WHAT: WHY`.
    pub fn field(what: impl Into<String>, why: impl Into<String>) -> Error {
        Error::Field {
            what: what.into(),
            why: why.into(),
        }
    }

    /// A refused value: `NAME=VALUE: WHY`.
    pub fn value(
        name: impl Into<String>,
        value: impl Into<String>,
        why: impl Into<String>,
    ) -> Error {
        Error::Value {
            name: name.into(),
            value: value.into(),
            why: why.into(),
        }
    }

    /// The error under any [`Error::Context`] and [`Error::Note`] layers: what went
    /// wrong, whatever was being done.
    pub fn root(&self) -> &Error {
        match self {
            Error::Context { source, .. } | Error::Note { source, .. } => source.root(),
            other => other,
        }
    }

    /// The game's own error of type `E`, if that is what went wrong.
    pub fn game_error<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self.root() {
            Error::Game(e) => e.downcast_ref::<E>(),
            _ => None,
        }
    }
}

impl From<playtune_optim::space::SpaceError> for Error {
    fn from(e: playtune_optim::space::SpaceError) -> Error {
        Error::Space(Box::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_and_notes_keep_the_cause_reachable() {
        let e = Error::Seats {
            agents: 1,
            players: 2,
        }
        .note("n")
        .context("c");
        assert_eq!(e.to_string(), "c: 1 agents for 2 players (n)");
        assert!(matches!(e.root(), Error::Seats { players: 2, .. }));
    }
}
