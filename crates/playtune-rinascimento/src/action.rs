//! What a player does, as data: a bag of [`Tokens`] and an [`Action`], with its
//! [`ActionKind`]. The state applies actions ([`super::state`]); their legality, the
//! random action generator and enumeration read the state ([`super::actions`]). Both
//! import this, and neither the other's way back.

use super::rules::MAX_COLOURS;

/// A bag of tokens: counts per colour and jokers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tokens {
    /// Tokens of each colour (colours beyond the rules' count are 0).
    pub colours: [u8; MAX_COLOURS],
    /// Jokers.
    pub gold: u8,
}

impl Tokens {
    /// Tokens in the bag, jokers included.
    pub fn total(&self) -> u32 {
        self.colours.iter().map(|&t| t as u32).sum::<u32>() + self.gold as u32
    }
}

/// One player's action. Face-up cards are named by slot and card id, so an action
/// copied from another determinisation is recognised as illegal if the slot changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take `take[c]` tokens of each colour `c`, then return `give`.
    PickDifferent {
        /// Tokens taken of each colour.
        take: [u8; MAX_COLOURS],
        /// Tokens returned afterwards.
        give: Tokens,
    },
    /// Take nTPS tokens of `colour`, then return `give`.
    PickSame {
        /// The colour taken.
        colour: u8,
        /// Tokens returned afterwards.
        give: Tokens,
    },
    /// Reserve face-up `card` at `slot` of deck `deck`, gain a joker if any, return `give`.
    ReserveFaceUp {
        /// The deck whose row holds the card.
        deck: u8,
        /// The card's slot in that row.
        slot: u8,
        /// The card's id.
        card: u8,
        /// Tokens returned afterwards.
        give: Tokens,
    },
    /// Reserve the hidden top card of `deck`, gain a joker if any, return `give`.
    ReserveDeck {
        /// The deck drawn from.
        deck: u8,
        /// Tokens returned afterwards.
        give: Tokens,
    },
    /// Buy face-up `card` at `slot` of deck `deck`.
    BuyFaceUp {
        /// The deck whose row holds the card.
        deck: u8,
        /// The card's slot in that row.
        slot: u8,
        /// The card's id.
        card: u8,
    },
    /// Buy reserved `card`.
    BuyReserved {
        /// The card's id.
        card: u8,
    },
}

/// The kinds of action, one RAG each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ActionKind {
    PickDifferent,
    PickSame,
    ReserveFaceUp,
    ReserveDeck,
    BuyFaceUp,
    BuyReserved,
}

impl ActionKind {
    pub(crate) const ALL: [ActionKind; 6] = [
        ActionKind::PickDifferent,
        ActionKind::PickSame,
        ActionKind::ReserveFaceUp,
        ActionKind::ReserveDeck,
        ActionKind::BuyFaceUp,
        ActionKind::BuyReserved,
    ];
}

impl Action {
    #[cfg(test)]
    pub(crate) fn kind(&self) -> ActionKind {
        match self {
            Action::PickDifferent { .. } => ActionKind::PickDifferent,
            Action::PickSame { .. } => ActionKind::PickSame,
            Action::ReserveFaceUp { .. } => ActionKind::ReserveFaceUp,
            Action::ReserveDeck { .. } => ActionKind::ReserveDeck,
            Action::BuyFaceUp { .. } => ActionKind::BuyFaceUp,
            Action::BuyReserved { .. } => ActionKind::BuyReserved,
        }
    }
}
