//! The rule vector of Rinascimento (paper Tables I-III) plus the action limit and the
//! seed of generated content.
//!
//! Every field has a documented name (`RULE_NAMES`) and the paper's symbol
//! (`RULE_SYMBOLS`); `Rules::from_values` reads a rule vector from any name -> value
//! lookup (an optimiser's point, a RON map) and validates it.
//!
//! Three more fields are not numbers of the rule vector but readings of the rules where
//! the spec and the reference Java framework differ ([`GameEnd`], [`FullHandReserve`],
//! [`CardColours`]). They default to the spec's readings; the `reference` preset
//! ([`super::preset::Preset`]) selects the framework's. They are no dimensions of the
//! rule-vector space: a search keeps the readings its problem was given.

use super::Error;
use serde::{Deserialize, Serialize};

/// Most players a game can seat.
pub(crate) const MAX_PLAYERS: usize = 4;
/// Fewest token colours: with fewer, pick-different and nobles lose their meaning.
pub(crate) const MIN_COLOURS: usize = 3;
/// Most token colours: per-colour counts live in fixed `[u8; MAX_COLOURS]` arrays.
pub(crate) const MAX_COLOURS: usize = 8;
/// Most decks (card levels).
pub(crate) const MAX_DECKS: usize = 5;
/// Most face-up cards per deck.
pub(crate) const MAX_FACE_UP: usize = 6;
/// Most reserved cards a hand can hold.
pub(crate) const MAX_RESERVED: usize = 5;
/// Nobles in the content (real and generated); nobles on the table = players + extra.
pub(crate) const MAX_NOBLES: usize = 10;

/// When reaching the end-game points ends the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameEnd {
    /// The round is completed, so that every player has had as many turns (the spec,
    /// the paper and the box).
    #[default]
    FinishRound,
    /// The game ends after the action that reached the points (the reference
    /// framework): later seats lose their last turn, which shortens finished games.
    Immediately,
}

/// What reserving a card gives a hand that already holds maxT tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FullHandReserve {
    /// A joker, if the bank has one, and the hand returns one token of its choice
    /// (the spec: every reserve gains a joker, and every hand ends at most at maxT).
    #[default]
    JokerAndReturn,
    /// No joker and nothing returned (the reference framework gives the joker only if
    /// the hand stays within maxT): the bank's jokers run out more slowly and the
    /// bank's colours are not refilled.
    NoJoker,
}

/// Which colour each real card's bonus discounts (real cards only; generated content
/// always discounts the card's own colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardColours {
    /// A card discounts its own colour (the spec's DECISION, the box).
    #[default]
    Own,
    /// The reference framework's card file: a black card's bonus counts as white, a
    /// white card's as green, green as red and red as black; blue is right. A bug in
    /// the reference, kept here only to reproduce its games.
    Reference,
}

impl CardColours {
    /// The colour a bonus of colour `c` (white, blue, green, red, black) counts as.
    pub(crate) fn bonus_colour(self, c: usize) -> usize {
        match self {
            CardColours::Own => c,
            CardColours::Reference => [2, 1, 3, 4, 0][c],
        }
    }
}

/// One rule vector. `Default` is 4-player Splendor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Rules {
    /// P: number of players (2-4).
    pub players: u32,
    /// nTT: number of token colours (3-8); anything but 5 uses generated cards.
    pub token_types: u32,
    /// nJT: number of jokers (gold tokens).
    pub jokers: u32,
    /// D: number of decks / card levels (1-5); anything but 3 uses generated cards.
    pub decks: u32,
    /// FUC: face-up cards per deck.
    pub face_up: u32,
    /// EN: nobles on the table beyond one per player.
    pub extra_nobles: u32,
    /// Tokens of each colour in the bank at the start.
    pub coins: u32,
    /// maxT: most tokens a hand may hold after an action.
    pub max_tokens: u32,
    /// maxRC: most reserved cards a hand may hold.
    pub max_reserved: u32,
    /// PP: prestige points that trigger the last round.
    pub end_points: u32,
    /// nTTPD: colours taken by pick-different.
    pub pick_diff_types: u32,
    /// nTPD: tokens of each colour taken by pick-different.
    pub pick_diff_each: u32,
    /// nTPS: tokens taken by pick-same.
    pub pick_same: u32,
    /// minTPS: least tokens a stack must hold for pick-same.
    pub pick_same_min: u32,
    /// Actions after which the game stops as a stalemate (the paper's timeout, 300).
    pub max_actions: u32,
    /// Seed of the card and noble generator; unused when the real cards apply.
    pub content_seed: u64,
    /// When reaching the points ends the game (spec: the round is finished).
    pub game_end: GameEnd,
    /// Reserving with maxT tokens in hand (spec: a joker, then one token returned).
    pub full_hand_reserve: FullHandReserve,
    /// Which colour the real cards' bonuses discount (spec: their own).
    pub card_colours: CardColours,
}

/// The documented names of the rules, in field order (as `from_values` reads them).
pub(crate) const RULE_NAMES: [&str; 16] = [
    "players",
    "token_types",
    "jokers",
    "decks",
    "face_up",
    "extra_nobles",
    "coins",
    "max_tokens",
    "max_reserved",
    "end_points",
    "pick_diff_types",
    "pick_diff_each",
    "pick_same",
    "pick_same_min",
    "max_actions",
    "content_seed",
];

/// The paper's symbols for the same rules (accepted by `from_values` as aliases).
pub(crate) const RULE_SYMBOLS: [&str; 16] = [
    "P",
    "nTT",
    "nJT",
    "D",
    "FUC",
    "EN",
    "coins",
    "maxT",
    "maxRC",
    "PP",
    "nTTPD",
    "nTPD",
    "nTPS",
    "minTPS",
    "maxActions",
    "contentSeed",
];

/// Inclusive bounds of the integer rules, in `RULE_NAMES` order (content_seed: any u64
/// that an f64 holds exactly). The bounds follow from the fixed-size arrays of the state
/// and from keeping every count in a `u8`.
const BOUNDS: [(u64, u64); 16] = [
    (2, MAX_PLAYERS as u64),
    (MIN_COLOURS as u64, MAX_COLOURS as u64),
    (0, 20),
    (1, MAX_DECKS as u64),
    (1, MAX_FACE_UP as u64),
    (0, (MAX_NOBLES - 2) as u64),
    (1, 20),
    (1, 30),
    (0, MAX_RESERVED as u64),
    (1, 50),
    (1, MAX_COLOURS as u64),
    (1, 5),
    (1, 10),
    (1, 20),
    (1, 100_000),
    (0, 1 << 53),
];

/// The inclusive bounds of rule `name` (a documented name), as the game checks them.
pub(crate) fn bounds(name: &str) -> Option<(u64, u64)> {
    RULE_NAMES
        .iter()
        .position(|n| *n == name)
        .map(|i| BOUNDS[i])
}

impl Default for Rules {
    fn default() -> Self {
        Rules::splendor(4)
    }
}

impl Rules {
    /// Splendor for `players` players: 7 coins per colour with 4 players, 5 with 3, 4
    /// with 2; everything else as in the box.
    pub fn splendor(players: u32) -> Rules {
        Rules {
            players,
            token_types: 5,
            jokers: 5,
            decks: 3,
            face_up: 4,
            extra_nobles: 1,
            coins: splendor_coins(players),
            max_tokens: 10,
            max_reserved: 3,
            end_points: 15,
            pick_diff_types: 3,
            pick_diff_each: 1,
            pick_same: 2,
            pick_same_min: 4,
            max_actions: 300,
            content_seed: 0,
            game_end: GameEnd::FinishRound,
            full_hand_reserve: FullHandReserve::JokerAndReturn,
            card_colours: CardColours::Own,
        }
    }

    /// Reads a rule vector: each rule is looked up by its name, then by its symbol;
    /// missing rules keep Splendor's values for the player count read (so `players = 2`
    /// alone gives 2-player Splendor with 4 coins). Values must be whole numbers within
    /// bounds; an invalid value or combination gives an error naming the rule.
    pub(crate) fn from_values(lookup: impl Fn(&str) -> Option<f64>) -> Result<Rules, Error> {
        let read = |i: usize| -> Result<Option<u64>, Error> {
            match lookup(RULE_NAMES[i]).or_else(|| lookup(RULE_SYMBOLS[i])) {
                None => Ok(None),
                Some(v) => to_whole(v).map(Some).ok_or_else(|| Error::NotWhole {
                    rule: RULE_NAMES[i].to_string(),
                    value: v,
                }),
            }
        };
        let players = read(0)?.unwrap_or(4);
        let (lo, hi) = BOUNDS[0];
        if players < lo || players > hi {
            return Err(out_of_bounds(0, players));
        }
        let mut rules = Rules::splendor(players as u32);
        for (i, &(lo, hi)) in BOUNDS.iter().enumerate().skip(1) {
            if let Some(v) = read(i)? {
                if v < lo || v > hi {
                    return Err(out_of_bounds(i, v));
                }
                rules.set(i, v);
            }
        }
        rules.validate()?;
        Ok(rules)
    }

    /// The value of a rule by name or symbol.
    pub fn value(&self, name: &str) -> Option<f64> {
        let i = RULE_NAMES
            .iter()
            .position(|n| *n == name)
            .or_else(|| RULE_SYMBOLS.iter().position(|n| *n == name))?;
        Some(self.get(i) as f64)
    }

    /// Checks bounds and combinations; the error names the offending rule.
    pub fn validate(&self) -> Result<(), Error> {
        for (i, &(lo, hi)) in BOUNDS.iter().enumerate() {
            let v = self.get(i);
            if v < lo || v > hi {
                return Err(out_of_bounds(i, v));
            }
        }
        let refuse = |rule: &str, why: String| Error::Combination {
            rule: rule.to_string(),
            why,
        };
        if self.pick_diff_types > self.token_types {
            return Err(refuse(
                "pick_diff_types",
                format!(
                    "{} colours picked but only {} token types",
                    self.pick_diff_types, self.token_types
                ),
            ));
        }
        if self.pick_same > self.pick_same_min {
            return Err(refuse(
                "pick_same_min",
                format!(
                    "{} is below pick_same ({}), a stack could not pay the pick",
                    self.pick_same_min, self.pick_same
                ),
            ));
        }
        if (self.players + self.extra_nobles) as usize > MAX_NOBLES {
            return Err(refuse(
                "extra_nobles",
                format!(
                    "players + extra_nobles = {} exceeds the {MAX_NOBLES} nobles",
                    self.players + self.extra_nobles
                ),
            ));
        }
        Ok(())
    }

    /// Whether the real Splendor cards apply (5 colours, 3 decks); else they are generated.
    pub(crate) fn uses_real_cards(&self) -> bool {
        self.token_types == 5 && self.decks == 3
    }

    /// Nobles placed on the table.
    pub(crate) fn nobles_on_table(&self) -> usize {
        (self.players + self.extra_nobles) as usize
    }

    fn get(&self, i: usize) -> u64 {
        match i {
            0 => self.players as u64,
            1 => self.token_types as u64,
            2 => self.jokers as u64,
            3 => self.decks as u64,
            4 => self.face_up as u64,
            5 => self.extra_nobles as u64,
            6 => self.coins as u64,
            7 => self.max_tokens as u64,
            8 => self.max_reserved as u64,
            9 => self.end_points as u64,
            10 => self.pick_diff_types as u64,
            11 => self.pick_diff_each as u64,
            12 => self.pick_same as u64,
            13 => self.pick_same_min as u64,
            14 => self.max_actions as u64,
            _ => self.content_seed,
        }
    }

    /// Sets rule `i`; `v` is within `BOUNDS[i]`, so the narrowing casts are lossless.
    fn set(&mut self, i: usize, v: u64) {
        let w = v as u32;
        match i {
            0 => self.players = w,
            1 => self.token_types = w,
            2 => self.jokers = w,
            3 => self.decks = w,
            4 => self.face_up = w,
            5 => self.extra_nobles = w,
            6 => self.coins = w,
            7 => self.max_tokens = w,
            8 => self.max_reserved = w,
            9 => self.end_points = w,
            10 => self.pick_diff_types = w,
            11 => self.pick_diff_each = w,
            12 => self.pick_same = w,
            13 => self.pick_same_min = w,
            14 => self.max_actions = w,
            _ => self.content_seed = v,
        }
    }
}

/// Splendor's tokens per colour for a player count.
pub(crate) fn splendor_coins(players: u32) -> u32 {
    match players {
        2 => 4,
        3 => 5,
        _ => 7,
    }
}

/// A whole, non-negative, exactly representable value (tolerating float noise).
/// Rule `i` at `value`, outside its bounds.
fn out_of_bounds(i: usize, value: u64) -> Error {
    let (lo, hi) = BOUNDS[i];
    Error::OutOfBounds {
        rule: RULE_NAMES[i].to_string(),
        value,
        lo,
        hi,
    }
}

fn to_whole(v: f64) -> Option<u64> {
    let r = v.round();
    (v.is_finite() && r >= 0.0 && (v - r).abs() < 1e-6 && r <= (1u64 << 53) as f64)
        .then_some(r as u64)
}

/// Reads a rule vector from a point, repairing combinations the game refuses:
/// `pick_diff_types` is capped at `token_types`, `pick_same_min` raised to
/// `pick_same`, `extra_nobles` capped so that players + extra nobles <= 10.
pub(crate) fn rules_from_point(lookup: impl Fn(&str) -> Option<f64>) -> Result<Rules, Error> {
    let get = |n: &str| lookup(n);
    let players = get("players").unwrap_or(4.0);
    let colours = get("token_types").unwrap_or(5.0);
    let same = get("pick_same").unwrap_or(2.0);
    Rules::from_values(|n| {
        let v = get(n)?;
        Some(match n {
            "pick_diff_types" => v.min(colours),
            "pick_same_min" => v.max(same),
            "extra_nobles" => v.min(MAX_NOBLES as f64 - players),
            _ => v,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, f64)]) -> impl Fn(&str) -> Option<f64> {
        let m: HashMap<String, f64> = pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        move |k: &str| m.get(k).copied()
    }

    #[test]
    fn default_is_four_player_splendor() {
        let r = Rules::default();
        assert_eq!(
            (
                r.players,
                r.token_types,
                r.jokers,
                r.decks,
                r.face_up,
                r.extra_nobles
            ),
            (4, 5, 5, 3, 4, 1)
        );
        assert_eq!(
            (r.coins, r.max_tokens, r.max_reserved, r.end_points),
            (7, 10, 3, 15)
        );
        assert_eq!(
            (
                r.pick_diff_types,
                r.pick_diff_each,
                r.pick_same,
                r.pick_same_min
            ),
            (3, 1, 2, 4)
        );
        assert_eq!(r.max_actions, 300);
        assert!(r.validate().is_ok());
        assert!(r.uses_real_cards());
        assert_eq!(Rules::splendor(3).coins, 5);
        assert_eq!(Rules::splendor(2).coins, 4);
    }

    #[test]
    fn from_values_reads_names_and_symbols_and_keeps_defaults() {
        assert_eq!(Rules::from_values(|_| None).unwrap(), Rules::default());
        let r =
            Rules::from_values(lookup(&[("players", 2.0), ("nTT", 6.0), ("decks", 4.0)])).unwrap();
        assert_eq!((r.players, r.coins, r.token_types, r.decks), (2, 4, 6, 4));
        let r = Rules::from_values(lookup(&[("players", 3.0), ("coins", 9.0)])).unwrap();
        assert_eq!(r.coins, 9);
        for (i, name) in RULE_NAMES.iter().enumerate() {
            assert_eq!(
                Rules::default().value(name),
                Some(Rules::default().get(i) as f64)
            );
        }
    }

    #[test]
    fn from_values_names_the_bad_rule() {
        let e = Rules::from_values(lookup(&[("players", 5.0)])).unwrap_err();
        assert!(matches!(&e, Error::OutOfBounds { rule, value: 5, .. } if rule == "players"));
        let e = e.to_string();
        assert!(e.contains("players"), "{e}");
        let e = Rules::from_values(lookup(&[("coins", 2.5)]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("coins"), "{e}");
        let e = Rules::from_values(lookup(&[("token_types", 3.0), ("pick_diff_types", 4.0)]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pick_diff_types"), "{e}");
        let e = Rules::from_values(lookup(&[("pick_same", 5.0)]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("pick_same_min"), "{e}");
        let e = Rules::from_values(lookup(&[("extra_nobles", 7.0)]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("extra_nobles"), "{e}");
        let e = Rules::from_values(lookup(&[("decks", f64::NAN)]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("decks"), "{e}");
    }
}
