//! Space Battle's own errors: a parameter outside its domain, an ENEMY_ID that names
//! no controller, and a picture that cannot be drawn. The harness carries them as
//! [`harness::Error::Game`] (a drawing error as [`harness::Error::Draw`]).

use playtune_harness::harness;

/// A parameter of Table I outside its domain.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("parameter {name} = {value} is outside its domain {domain:?}")]
pub struct ParamError {
    /// The parameter's name.
    pub name: String,
    /// The value given.
    pub value: f64,
    /// The values it may take.
    pub domain: Vec<f64>,
}

/// An error of Space Battle.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter of Table I outside its domain.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// An ENEMY_ID that names no controller (`max`: the largest that does).
    #[error("ENEMY_ID {id} is outside 0..={max}")]
    Enemy {
        /// The ENEMY_ID given.
        id: f64,
        /// The largest that names a controller.
        max: usize,
    },
    /// The game's space has no ENEMY_ID dimension.
    #[error("no ENEMY_ID")]
    NoEnemyDimension,
    /// A game with no state to draw.
    #[error("the game has no state to draw")]
    NothingToDraw,
    /// Drawing or writing the picture failed.
    #[error(transparent)]
    Draw(#[from] playtune_harness::draw::PlotError),
}

impl From<Error> for harness::Error {
    fn from(e: Error) -> harness::Error {
        match e {
            Error::Draw(e) => harness::Error::Draw(e),
            e => harness::Error::Game(Box::new(e)),
        }
    }
}
