//! The strategy game's state encoding for learned evaluation: the Prismata paper's
//! shape (the player to move, then per tribe its unit-type counts and resource
//! counts), with what this game adds to resources: production, cities and their
//! levels, territory, technologies, whether the capital still stands, units within
//! two tiles of the enemy capital, and the round (the turn limit decides by score).
//! Positions are left out as in the paper; the encoding is of the state at the start
//! of a turn, when no unit has moved yet.

use super::level::distance;
use super::rules::{ALL_TECHS, UNIT_KINDS};
use super::state::StrategyState;
use crate::learn::encoding::{Encoding, StateEncoding, count};
use std::sync::OnceLock;

/// The encoding's name, written into sample files and networks: change it when the
/// features change.
pub const NAME: &str = "strategy-counts-v1";

/// The strategy game's [`StateEncoding`].
#[derive(Clone, Copy, Debug, Default)]
pub struct StrategyEncoding;

/// The features and their caps (one-hot sizes), in order.
pub fn encoding() -> &'static Encoding {
    static ENCODING: OnceLock<Encoding> = OnceLock::new();
    ENCODING.get_or_init(|| {
        let mut features: Vec<(String, u8)> = vec![("to_move".into(), 2)];
        for p in 0..2 {
            for kind in UNIT_KINDS {
                features.push((format!("p{p}_{}", kind.stats().name), 16));
            }
            for (name, cap) in [
                ("stars", 40),
                ("production", 40),
                ("cities", 16),
                ("city_levels", 40),
                ("territory", 64),
                ("capital", 2),
                ("near_enemy_capital", 8),
            ] {
                features.push((format!("p{p}_{name}"), cap));
            }
            for tech in ALL_TECHS {
                features.push((format!("p{p}_{}", tech.info().name), 2));
            }
        }
        features.push(("round".into(), 65));
        Encoding::new(NAME, features)
    })
}

impl StateEncoding<StrategyState> for StrategyEncoding {
    fn encoding(&self) -> &Encoding {
        encoding()
    }

    fn encode(&self, s: &StrategyState, counts: &mut [u8]) {
        let mut at = 0;
        let mut put = |v: u8| {
            counts[at] = v;
            at += 1;
        };
        put(count(s.current()));
        let size = s.size();
        for p in 0..2 {
            let mut kinds = [0u8; 7];
            for (_, u) in s.units_of(p) {
                kinds[u.kind as usize] = kinds[u.kind as usize].saturating_add(1);
            }
            kinds.iter().for_each(|&k| put(k));
            let own = || s.cities().iter().filter(move |c| c.owner as usize == p);
            let capital = own().any(|c| c.capital_of as usize == p);
            let enemy_capital = s
                .cities()
                .iter()
                .find(|c| c.capital_of as usize == 1 - p)
                .map(|c| c.pos as usize);
            let near = enemy_capital.map_or(0, |cap| {
                s.units_of(p)
                    .filter(|(_, u)| distance(size, u.pos as usize, cap) <= 2)
                    .count()
            });
            put(count(s.stars(p)));
            put(count(s.production(p)));
            put(count(s.city_count(p)));
            put(count(own().map(|c| u32::from(c.level)).sum::<u32>()));
            put(count(s.tiles_owned(p)));
            put(u8::from(capital));
            put(count(near));
            for tech in ALL_TECHS {
                put(u8::from(s.has_tech(p, tech)));
            }
        }
        put(count(s.turn()));
    }

    fn mover(&self, s: &StrategyState) -> usize {
        s.current()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn the_encoding_fills_every_feature_and_follows_the_game() {
        let e = encoding();
        assert_eq!(e.len(), 1 + 2 * (7 + 7 + 13) + 1);
        let mut s = StrategyState::from_seed(3);
        let mut counts = vec![u8::MAX; e.len()];
        StrategyEncoding.encode(&s, &mut counts);
        assert!(!counts.contains(&u8::MAX), "every feature written");
        assert_eq!(counts[0], 0, "player 0 moves first");
        let capital = 1 + 7 + 5;
        assert_eq!(counts[capital], 1, "player 0 holds its capital");
        assert_eq!(counts[1 + 7 + 2], 1, "one city each at the start");
        // After player 0's turn, player 1 moves.
        s.advance(&[super::super::state::Action::EndTurn]);
        StrategyEncoding.encode(&s, &mut counts);
        assert_eq!(counts[0], 1);
        assert_eq!(StrategyEncoding.mover(&s), 1);
    }
}
