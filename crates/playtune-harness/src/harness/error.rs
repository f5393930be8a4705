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
        name: String,
        value: String,
        why: String,
    },
    /// A combination of an owner's settings refused together (`settings` as
    /// `NAME=VALUE, ...`): `SETTINGS: OWNER WHY`.
    #[error("{settings}: {owner} {why}")]
    Combination {
        settings: String,
        owner: String,
        why: String,
    },
    /// A field of a problem or request refused (`what`: the field, or `field=value`).
    #[error("{what}: {why}")]
    Field { what: String, why: String },
    /// An agent spec that does not read as `NAME` or `NAME(KEY=VALUE,...)`, or that
    /// sets what its agent does not have.
    #[error("agent `{spec}`: {why}")]
    Spec { spec: String, why: String },
    /// An agent name a game's registry does not know, with the names it knows.
    #[error("unknown {game} agent `{name}` (known: {})", known.join(", "))]
    UnknownAgent {
        game: String,
        name: String,
        known: Vec<String>,
    },
    /// An agent name that is neither the game's own agent nor a generic one.
    #[error("agent `{name}` is not an agent of {game} (`playtune games` lists them)")]
    NotAnAgent { game: String, name: String },
    /// An agent spec whose agent has no tunable setting left.
    #[error("agent `{spec}` has nothing to tune: {why}")]
    NothingToTune { spec: String, why: String },
    /// A search space's dimension that is not a setting of `owner`.
    #[error("dimension `{dimension}` is not a setting of {owner} (its settings: {})", known.join(", "))]
    NotASetting {
        dimension: String,
        owner: String,
        known: Vec<String>,
    },
    /// A search space's dimension whose values leave the range the game takes.
    #[error(
        "dimension `{dimension}` takes {domain}, but game `{game}` takes {dimension} from {min} to {max}: narrow the domain to that range"
    )]
    OutsideRange {
        dimension: String,
        game: String,
        domain: String,
        min: f64,
        max: f64,
    },
    /// A search space's dimension with values the game's setting does not take.
    #[error(
        "dimension `{dimension}` takes {domain}, but game `{game}` takes {takes} as {dimension}: give a domain within those"
    )]
    OutsideDomain {
        dimension: String,
        game: String,
        domain: String,
        takes: String,
    },
    /// A search space's dimension that the agent spec fixes too.
    #[error(
        "dimension `{dimension}` is fixed by the agent spec `{spec}`: leave it out of one of them"
    )]
    FixedDimension { dimension: String, spec: String },
    /// A setting given for a dimension that the space refuses to fix there (`field`:
    /// where the setting came from).
    #[error("{field} {source}")]
    Fix {
        field: String,
        source: Box<playtune_optim::space::Error>,
    },
    /// A search space file that does not read (a game's built-in space file).
    #[error(transparent)]
    Space(Box<playtune_optim::space::SpaceError>),
    /// A game without a built-in design space, asked to search it.
    #[error(
        "game `{game}` has no built-in design space: give a space file whose dimensions are its settings (`playtune games` lists them)"
    )]
    NoDesignSpace { game: String },
    /// A game's own rung measure naming a seat the game does not have.
    #[error("{game}: no seat {seat}")]
    NoSeat { game: String, seat: usize },
    /// A game's summary without the value a measure reads.
    #[error("{game} reports no `{name}`")]
    NoSummary { game: String, name: String },
    /// Agents that do not fill the game's seats.
    #[error("{agents} agents for {players} players")]
    Seats { agents: usize, players: usize },
    /// Seats that are not a permutation of the players.
    #[error("seats {seats:?} are not a permutation of 0..{players}")]
    Permutation { seats: Vec<usize>, players: usize },
    /// A tournament whose agents make no lineup.
    #[error(
        "{agents} agents for {players}-player games: give one agent per player, or more than two for a 2-player round robin"
    )]
    Lineups { agents: usize, players: usize },
    /// A lineup naming an agent the request does not have.
    #[error("lineup: agent {agent} of {agents} agents")]
    Lineup { agent: usize, agents: usize },
    /// A tournament of no games.
    #[error("0 games: play at least one game")]
    NoGames,
    /// A tournament stopped before its last game ([`super::tournament::Watch::stop`]).
    #[error("interrupted: the tournament stopped after {played} of its games")]
    Interrupted { played: usize },
    /// Self-play with agents that do not fill the seats one each.
    #[error("self-play needs one agent per seat: {agents} agents for {players} players")]
    SelfplaySeats { agents: usize, players: usize },
    /// A game without a picture, asked to draw one.
    #[error("game `{game}` has no picture")]
    NoPicture { game: String },
    /// A game without a state encoding, asked for self-play samples.
    #[error("game `{game}` has no state encoding, so it cannot record self-play samples")]
    NoEncoding { game: String },
    /// An encoding the game does not have.
    #[error("game `{game}` has no state encoding `{name}` (it has: {known})")]
    UnknownEncoding {
        game: String,
        name: String,
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
        context: String,
        #[source]
        source: Box<Error>,
    },
    /// Another error, with a note on what the value means: `ERROR (NOTE)`.
    #[error("{source} ({note})")]
    Note {
        #[source]
        source: Box<Error>,
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
