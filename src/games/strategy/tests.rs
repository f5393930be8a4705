//! Unit tests of the strategy game.
