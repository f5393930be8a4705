//! Development cards and nobles: the real Splendor set and the content a rule vector
//! plays with (real or generated, see [`super::generator`]).
//!
//! Content is immutable and shared by every state of a game through a `&'static`
//! reference: cloning a state then copies one pointer, with no reference counting.
//! Each distinct (colours, decks, seed) content is built once and kept for the life of
//! the process (a few kilobytes each).

use std::sync::OnceLock;

use serde::Deserialize;

use super::rules::{CardColours, MAX_COLOURS, MAX_NOBLES};

/// Most cards any content holds (real: 90; generated: at most 18 per colour).
pub(crate) const MAX_CARDS: usize = 160;

/// A development card. Its bonus discounts its own colour (the spec's DECISION).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Card {
    /// Deck index, 0-based (Splendor's level 1 is deck 0).
    pub(crate) level: u8,
    /// Colour of the permanent bonus the card gives.
    pub(crate) bonus: u8,
    /// Prestige points.
    pub(crate) points: u8,
    /// Tokens of each colour to pay (colours beyond the rules' count are 0).
    pub(crate) cost: [u8; MAX_COLOURS],
}

/// A noble tile: visits a player whose bonuses meet its requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Noble {
    pub(crate) points: u8,
    pub(crate) requires: [u8; MAX_COLOURS],
}

/// The cards and nobles a game is played with.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Content {
    pub(crate) colours: usize,
    pub(crate) decks: usize,
    /// Card ids are indices into this list; cards are grouped by level.
    pub(crate) cards: Vec<Card>,
    pub(crate) nobles: Vec<Noble>,
}

impl Content {
    /// Ids of the cards of deck `level`.
    pub(crate) fn deck_ids(&self, level: usize) -> impl Iterator<Item = u8> + '_ {
        self.cards
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.level as usize == level)
            .map(|(i, _)| i as u8)
    }

    /// Number of cards of deck `level`.
    #[cfg(test)]
    pub(crate) fn deck_size(&self, level: usize) -> usize {
        self.cards
            .iter()
            .filter(|c| c.level as usize == level)
            .count()
    }

    /// Mean total cost and mean points of the cards of deck `level` (for the generator's
    /// calibration and its tests).
    #[cfg(test)]
    pub(crate) fn level_means(&self, level: usize) -> (f64, f64) {
        let cards: Vec<&Card> = self
            .cards
            .iter()
            .filter(|c| c.level as usize == level)
            .collect();
        let n = cards.len().max(1) as f64;
        let cost: u32 = cards
            .iter()
            .map(|c| c.cost.iter().map(|&x| x as u32).sum::<u32>())
            .sum();
        let points: u32 = cards.iter().map(|c| c.points as u32).sum();
        (cost as f64 / n, points as f64 / n)
    }
}

#[derive(Deserialize)]
struct JsonContent {
    colours: Vec<String>,
    cards: Vec<JsonCard>,
    nobles: Vec<JsonNoble>,
}

#[derive(Deserialize)]
struct JsonCard {
    level: u8,
    bonus: String,
    points: u8,
    cost: Vec<u8>,
}

#[derive(Deserialize)]
struct JsonNoble {
    points: u8,
    requires: Vec<u8>,
}

/// The real card list, embedded at compile time (colours white, blue, green, red, black).
const SPLENDOR_JSON: &str = include_str!("splendor.json");

/// Splendor's colour names, in the order of cost vectors and colour indices.
pub(crate) const SPLENDOR_COLOURS: [&str; 5] = ["white", "blue", "green", "red", "black"];

fn parse_splendor(json: &str) -> Result<Content, super::Error> {
    use super::Error::Content as Bad;
    let raw: JsonContent = serde_json::from_str(json).map_err(|e| Bad(e.to_string()))?;
    if raw.colours != SPLENDOR_COLOURS {
        return Err(Bad(format!("unexpected colours {:?}", raw.colours)));
    }
    let mut cards = Vec::with_capacity(raw.cards.len());
    for c in &raw.cards {
        let bonus = SPLENDOR_COLOURS
            .iter()
            .position(|n| *n == c.bonus)
            .ok_or_else(|| Bad(format!("bad bonus {}", c.bonus)))?;
        if c.cost.len() != 5 || !(1..=3).contains(&c.level) {
            return Err(Bad(format!("bad card {:?}", c.cost)));
        }
        let mut cost = [0u8; MAX_COLOURS];
        cost[..5].copy_from_slice(&c.cost);
        cards.push(Card {
            level: c.level - 1,
            bonus: bonus as u8,
            points: c.points,
            cost,
        });
    }
    // Group by level so that a deck's ids are contiguous (stable: file order within).
    cards.sort_by_key(|c| c.level);
    let mut nobles = Vec::with_capacity(raw.nobles.len());
    for n in &raw.nobles {
        if n.requires.len() != 5 {
            return Err(Bad(format!("bad noble {:?}", n.requires)));
        }
        let mut requires = [0u8; MAX_COLOURS];
        requires[..5].copy_from_slice(&n.requires);
        nobles.push(Noble {
            points: n.points,
            requires,
        });
    }
    if nobles.len() < MAX_NOBLES || cards.len() > MAX_CARDS {
        return Err(Bad("card data does not fit the limits".into()));
    }
    Ok(Content {
        colours: 5,
        decks: 3,
        cards,
        nobles,
    })
}

/// The 90 real cards and 10 nobles.
pub(crate) fn splendor_content() -> &'static Content {
    static REAL: OnceLock<Content> = OnceLock::new();
    // The JSON is part of the source tree and checked by the tests: failing to parse it
    // is a build defect, not an input error.
    REAL.get_or_init(|| parse_splendor(SPLENDOR_JSON).expect("embedded splendor.json is valid"))
}

/// The real cards as the reference framework's card file has them: each bonus moved to
/// the colour [`CardColours::Reference`] names (for discounts and nobles alike, since
/// both read the one bonus colour), costs and points unchanged.
pub(crate) fn reference_splendor_content() -> &'static Content {
    static REFERENCE: OnceLock<Content> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let mut content = splendor_content().clone();
        for card in &mut content.cards {
            card.bonus = CardColours::Reference.bonus_colour(card.bonus as usize) as u8;
        }
        content
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_data_has_90_cards_by_level_and_10_nobles() {
        let c = splendor_content();
        assert_eq!(c.cards.len(), 90);
        assert_eq!(
            (c.deck_size(0), c.deck_size(1), c.deck_size(2)),
            (40, 30, 20)
        );
        assert_eq!(c.nobles.len(), 10);
        // Each level gives every colour's bonus equally often.
        for level in 0..3 {
            for colour in 0..5 {
                let n = c
                    .cards
                    .iter()
                    .filter(|k| k.level as usize == level && k.bonus as usize == colour)
                    .count();
                assert_eq!(n, c.deck_size(level) / 5);
            }
        }
        // Points rise with the level: level 1 at most 1, level 2 1-3, level 3 3-5.
        for k in &c.cards {
            let range = [(0, 1), (1, 3), (3, 5)][k.level as usize];
            assert!(k.points >= range.0 && k.points <= range.1, "{k:?}");
            assert!(k.cost.iter().map(|&x| x as u32).sum::<u32>() >= 3);
            assert!(k.cost[5..].iter().all(|&x| x == 0));
        }
        let means: Vec<(f64, f64)> = (0..3).map(|l| c.level_means(l)).collect();
        assert!((means[0].0 - 4.125).abs() < 1e-9 && (means[0].1 - 0.125).abs() < 1e-9);
        assert!((means[2].1 - 4.0).abs() < 1e-9);
        for n in &c.nobles {
            assert_eq!(n.points, 3);
            let total: u32 = n.requires.iter().map(|&x| x as u32).sum();
            assert!(total == 8 || total == 9);
        }
        // Ids of a deck are contiguous.
        let ids: Vec<u8> = c.deck_ids(1).collect();
        assert_eq!(ids, (40..70).collect::<Vec<u8>>());
    }
}
