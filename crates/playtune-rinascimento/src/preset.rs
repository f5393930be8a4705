//! Named sets of the readings where the spec and the reference Java framework
//! (Bravi's RinascimentoFramework) differ: four settings that change random games'
//! lengths and one rule of the random player (issue 15, part 4).
//!
//! | behaviour | `spec` (default) | `reference` |
//! |---|---|---|
//! | random player's kind ([`KindChoice`]) | uniform among legal kinds | weights 22.5 (buys, picks), 5 (reserves) |
//! | random player's give-back ([`GiveBack`]) | any token held, jokers included | a colour held, never a joker |
//! | end of game ([`GameEnd`]) | finish the round | at once |
//! | reserve with maxT tokens ([`FullHandReserve`]) | joker, then one token back | no joker, nothing back |
//! | real cards' bonuses ([`CardColours`]) | their own colour | the reference file's swap |
//!
//! [`KindChoice`]: super::actions::KindChoice
//! [`GiveBack`]: super::actions::GiveBack

use super::rules::{CardColours, FullHandReserve, GameEnd, Rules};

/// Which readings games follow: the spec's, or the reference framework's (to reproduce
/// its games and figures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The spec's rules and the paper's RAG as the spec reads it (uniform kinds).
    #[default]
    Spec,
    /// All five of the reference framework's behaviours.
    Reference,
}

impl Preset {
    /// Names [`Preset::parse`] knows.
    pub(crate) const NAMES: [&'static str; 2] = ["spec", "reference"];

    /// The preset of `name` (`spec` or `reference`, any case).
    pub fn parse(name: &str) -> Result<Preset, super::Error> {
        match name.trim().to_ascii_lowercase().as_str() {
            "spec" => Ok(Preset::Spec),
            "reference" => Ok(Preset::Reference),
            other => Err(super::Error::UnknownPreset {
                name: other.to_string(),
            }),
        }
    }

    /// The preset's name, as [`Preset::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Spec => "spec",
            Preset::Reference => "reference",
        }
    }

    /// `rules` with this preset's readings; the numbers of the rule vector stay.
    pub fn rules(self, rules: Rules) -> Rules {
        match self {
            Preset::Spec => Rules {
                game_end: GameEnd::FinishRound,
                full_hand_reserve: FullHandReserve::JokerAndReturn,
                card_colours: CardColours::Own,
                ..rules
            },
            Preset::Reference => Rules {
                game_end: GameEnd::Immediately,
                full_hand_reserve: FullHandReserve::NoJoker,
                card_colours: CardColours::Reference,
                ..rules
            },
        }
    }
}
