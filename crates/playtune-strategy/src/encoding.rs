//! The strategy game's state encoding for learned evaluation: the Prismata paper's
//! shape (the player to move, then per tribe its unit-type counts and resource
//! counts), with what this game adds to resources: production, cities and their
//! levels, territory, technologies, whether the capital still stands, units within
//! two tiles of the enemy capital, and the round (the turn limit decides by score).
//! Positions are left out as in the paper; the encoding is of the state at the start
//! of a turn, when no unit has moved yet. `StrategyPositions` adds where the units
//! stand: the paper's counts, then per tribe how its units stand against the enemy's
//! cities and its own.

use super::level::distance;
use super::rules::{ALL_TECHS, UNIT_KINDS};
use super::state::StrategyState;
use playtune_harness::learn::encoding::{Encoding, StateEncoding, count};
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

/// The positions encoding's name.
pub(crate) const POSITIONS_NAME: &str = "strategy-positions-v1";

/// [`StrategyEncoding`]'s counts, then per tribe where its units stand: next to and
/// near the enemy capital, near enemy cities, near its own capital, its cities with
/// an enemy unit near, its units' mean distance to the enemy capital, and their
/// health (hit points in fives).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StrategyPositions;

/// The positions encoding's features and caps, in order.
pub(crate) fn positions_encoding() -> &'static Encoding {
    static ENCODING: OnceLock<Encoding> = OnceLock::new();
    ENCODING.get_or_init(|| {
        let mut features: Vec<(String, u8)> = encoding()
            .features
            .iter()
            .map(|f| (f.name.clone(), f.cap))
            .collect();
        for p in 0..2 {
            for (name, cap) in POSITION_FEATURES {
                features.push((format!("p{p}_{name}"), cap));
            }
        }
        Encoding::new(POSITIONS_NAME, features)
    })
}

/// The features [`StrategyPositions`] adds per tribe, with their caps.
const POSITION_FEATURES: [(&str, u8); 6] = [
    ("next_to_enemy_capital", 8),
    ("near_enemy_cities", 16),
    ("near_own_capital", 16),
    ("own_cities_threatened", 8),
    ("distance_to_enemy_capital", 16),
    ("health_fives", 40),
];

impl StateEncoding<StrategyState> for StrategyPositions {
    fn encoding(&self) -> &Encoding {
        positions_encoding()
    }

    fn encode(&self, s: &StrategyState, counts: &mut [u8]) {
        let base = encoding().len();
        StrategyEncoding.encode(s, &mut counts[..base]);
        let size = s.size();
        let mut at = base;
        for p in 0..2 {
            let capital_of = |tribe: usize| {
                s.cities()
                    .iter()
                    .find(|c| c.capital_of as usize == tribe)
                    .map(|c| c.pos as usize)
            };
            let (enemy_capital, own_capital) = (capital_of(1 - p), capital_of(p));
            // No allocation: a learned leaf encodes a state at every leaf it values.
            let near_enemy_city = |pos: usize| {
                s.cities()
                    .iter()
                    .any(|c| c.owner as usize == 1 - p && distance(size, pos, c.pos as usize) <= 2)
            };
            let within = |pos: usize, target: Option<usize>, d: usize| {
                target.is_some_and(|t| distance(size, pos, t) <= d)
            };
            let (mut next, mut near_cities, mut home, mut hp) = (0usize, 0usize, 0usize, 0usize);
            let (mut dist_sum, mut units) = (0usize, 0usize);
            for (_, u) in s.units_of(p) {
                let pos = u.pos as usize;
                next += usize::from(within(pos, enemy_capital, 1));
                near_cities += usize::from(near_enemy_city(pos));
                home += usize::from(within(pos, own_capital, 2));
                hp += usize::from(u.hp);
                if let Some(cap) = enemy_capital {
                    dist_sum += distance(size, pos, cap);
                }
                units += 1;
            }
            let threatened = s
                .cities()
                .iter()
                .filter(|c| c.owner as usize == p)
                .filter(|c| {
                    s.units_of(1 - p)
                        .any(|(_, u)| distance(size, u.pos as usize, c.pos as usize) <= 2)
                })
                .count();
            let mean_distance = if units == 0 || enemy_capital.is_none() {
                0
            } else {
                (dist_sum + units / 2) / units
            };
            for v in [
                next,
                near_cities,
                home,
                threatened,
                mean_distance,
                hp.div_ceil(5),
            ] {
                counts[at] = count(v);
                at += 1;
            }
        }
    }

    fn mover(&self, s: &StrategyState) -> usize {
        s.current()
    }
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
    use playtune_harness::game::Game;

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

    #[test]
    fn the_positions_encoding_extends_the_counts() {
        let (counts, positions) = (encoding(), positions_encoding());
        assert_eq!(positions.len(), counts.len() + 2 * POSITION_FEATURES.len());
        assert_eq!(&positions.features[..counts.len()], &counts.features[..]);
        assert!(
            positions.seat_swap().is_some(),
            "every feature has its twin"
        );
        let s = StrategyState::from_seed(3);
        let mut a = vec![u8::MAX; counts.len()];
        let mut b = vec![u8::MAX; positions.len()];
        StrategyEncoding.encode(&s, &mut a);
        StrategyPositions.encode(&s, &mut b);
        assert_eq!(&b[..a.len()], &a[..], "the counts come first, unchanged");
        assert!(!b.contains(&u8::MAX), "every feature written");
        // At the start each tribe's units stand by their own capital, far from the
        // enemy's, and no city is threatened.
        let p0 = counts.len();
        assert_eq!(b[p0], 0, "no unit next to the enemy capital");
        assert!(b[p0 + 2] >= 1, "a unit by its own capital");
        assert_eq!(b[p0 + 3], 0, "no city threatened");
        assert!(b[p0 + 4] > 2, "far from the enemy capital");
        assert!(b[p0 + 5] >= 1, "some health");
    }
}
