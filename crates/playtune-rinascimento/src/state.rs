//! The game state and its forward model (applying actions, passive nobles, the end of
//! the game, and the partially observable copies agents search from).
//!
//! Everything lives in fixed-size arrays so that cloning a state is one flat copy of
//! about 430 bytes and advancing it never allocates.

use rand::seq::SliceRandom;

use super::action::{Action, Tokens};
use super::cards::{Content, MAX_CARDS};
use super::generator::content_for;
use super::rules::{
    GameEnd, MAX_COLOURS, MAX_DECKS, MAX_FACE_UP, MAX_NOBLES, MAX_PLAYERS, MAX_RESERVED, Rules,
};
use playtune_harness::game::{Acting, Game};
use playtune_optim::rng::{Rng, rng_from_seed};

/// Marks an empty face-up slot.
pub(crate) const EMPTY: u8 = u8::MAX;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) enum EndReason {
    /// Someone reached the end-game points and the round was completed (or, under
    /// [`GameEnd::Immediately`], the action that reached them was played).
    Points,
    /// The player to move had no legal action (nobody wins).
    Stalemate,
    /// The action limit was reached (a stalemate too: nobody wins).
    Timeout,
}

/// What one player holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Hand {
    /// Tokens of each colour.
    pub(crate) tokens: [u8; MAX_COLOURS],
    /// Jokers.
    pub(crate) gold: u8,
    /// Permanent discounts from bought cards, per colour.
    pub(crate) bonuses: [u8; MAX_COLOURS],
    /// Prestige points (cards and nobles).
    pub(crate) points: u8,
    /// Cards bought.
    pub(crate) cards: u8,
    /// Nobles received.
    pub(crate) nobles: u8,
    reserved: [u8; MAX_RESERVED],
    /// Per reserved slot: taken face-down from a deck top, so opponents cannot see it.
    hidden: [bool; MAX_RESERVED],
    n_reserved: u8,
}

impl Hand {
    /// Reserved card ids, oldest first.
    pub(crate) fn reserved(&self) -> &[u8] {
        &self.reserved[..self.n_reserved as usize]
    }

    /// Whether reserved card `i` (index into [`Hand::reserved`]) is hidden from opponents.
    #[cfg(test)]
    pub(crate) fn is_hidden(&self, i: usize) -> bool {
        i < self.n_reserved as usize && self.hidden[i]
    }

    /// Tokens held, jokers included.
    pub(crate) fn token_total(&self) -> u32 {
        self.tokens.iter().map(|&t| t as u32).sum::<u32>() + self.gold as u32
    }

    pub(super) fn push_reserved(&mut self, card: u8, hidden: bool) {
        let i = self.n_reserved as usize;
        self.reserved[i] = card;
        self.hidden[i] = hidden;
        self.n_reserved += 1;
    }

    pub(super) fn remove_reserved(&mut self, i: usize) {
        let n = self.n_reserved as usize;
        self.reserved.copy_within(i + 1..n, i);
        self.hidden.copy_within(i + 1..n, i);
        self.n_reserved -= 1;
    }
}

/// A Rinascimento game in progress. Player indices are seats: seat 0 moves first.
#[derive(Clone, Debug)]
pub struct RinState {
    pub(super) rules: Rules,
    pub(super) content: &'static Content,
    pub(super) bank: [u8; MAX_COLOURS],
    pub(super) bank_gold: u8,
    pub(super) hands: [Hand; MAX_PLAYERS],
    /// All decks in one buffer: deck `d` is `deck_cards[deck_start[d]..][..deck_len[d]]`,
    /// its top card last. A deck only shrinks, except when `observe` returns hidden
    /// reserved cards, which fit in the space their draws freed.
    pub(super) deck_cards: [u8; MAX_CARDS],
    pub(super) deck_start: [u8; MAX_DECKS],
    pub(super) deck_len: [u8; MAX_DECKS],
    pub(super) face_up: [[u8; MAX_FACE_UP]; MAX_DECKS],
    pub(super) nobles: [u8; MAX_NOBLES],
    pub(super) n_nobles: u8,
    pub(super) current: u8,
    pub(super) actions: u32,
    /// Someone reached the end-game points: the game ends when the round completes
    /// (at once under [`GameEnd::Immediately`]).
    pub(super) end_triggered: bool,
    pub(super) end: Option<EndReason>,
}

impl RinState {
    /// A new game: shuffled decks and nobles from `seed`.
    pub fn new(rules: &Rules, seed: u64) -> Result<RinState, super::Error> {
        RinState::with_rng(rules, &mut rng_from_seed(seed))
    }

    /// A new game shuffled with `rng`; fails if the rules are invalid.
    pub(crate) fn with_rng(rules: &Rules, rng: &mut Rng) -> Result<RinState, super::Error> {
        rules.validate()?;
        let content = content_for(rules);
        let mut s = RinState {
            rules: *rules,
            content,
            bank: [0; MAX_COLOURS],
            bank_gold: rules.jokers as u8,
            hands: [Hand::default(); MAX_PLAYERS],
            deck_cards: [0; MAX_CARDS],
            deck_start: [0; MAX_DECKS],
            deck_len: [0; MAX_DECKS],
            face_up: [[EMPTY; MAX_FACE_UP]; MAX_DECKS],
            nobles: [0; MAX_NOBLES],
            n_nobles: 0,
            current: 0,
            actions: 0,
            end_triggered: false,
            end: None,
        };
        for c in 0..s.colours() {
            s.bank[c] = rules.coins as u8;
        }
        let mut start = 0usize;
        for d in 0..s.decks() {
            let mut len = 0usize;
            for id in content.deck_ids(d) {
                s.deck_cards[start + len] = id;
                len += 1;
            }
            s.deck_cards[start..start + len].shuffle(rng);
            s.deck_start[d] = start as u8;
            s.deck_len[d] = len as u8;
            start += len;
            for slot in 0..rules.face_up as usize {
                s.face_up[d][slot] = s.draw(d).unwrap_or(EMPTY);
            }
        }
        let mut nobles: Vec<u8> = (0..content.nobles.len() as u8).collect();
        nobles.shuffle(rng);
        let on_table = rules.nobles_on_table().min(nobles.len());
        s.nobles[..on_table].copy_from_slice(&nobles[..on_table]);
        s.n_nobles = on_table as u8;
        Ok(s)
    }

    /// The rules the game is played by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    #[cfg(test)]
    pub(crate) fn content(&self) -> &'static Content {
        self.content
    }

    #[cfg(test)]
    pub(crate) fn card(&self, id: u8) -> &'static super::cards::Card {
        &self.content.cards[id as usize]
    }

    /// Number of token colours.
    pub fn colours(&self) -> usize {
        self.rules.token_types as usize
    }

    pub(crate) fn decks(&self) -> usize {
        self.rules.decks as usize
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.rules.players as usize
    }

    /// Tokens of each colour in the bank (first [`RinState::colours`] entries).
    pub fn bank(&self) -> &[u8] {
        &self.bank[..self.colours()]
    }

    #[cfg(test)]
    pub(crate) fn bank_gold(&self) -> u8 {
        self.bank_gold
    }

    pub(crate) fn hand(&self, player: usize) -> &Hand {
        &self.hands[player]
    }

    /// The face-up row of deck `d` (`EMPTY` marks a slot its exhausted deck left empty).
    #[cfg(test)]
    pub(crate) fn face_up(&self, d: usize) -> &[u8] {
        &self.face_up[d][..self.rules.face_up as usize]
    }

    /// Cards left in deck `d`.
    #[cfg(test)]
    pub(crate) fn deck_len(&self, d: usize) -> usize {
        self.deck_len[d] as usize
    }

    /// The cards of deck `d`, top card last (hidden information: see `observe`).
    pub fn deck(&self, d: usize) -> &[u8] {
        let s = self.deck_start[d] as usize;
        &self.deck_cards[s..s + self.deck_len[d] as usize]
    }

    /// Noble ids still on the table.
    pub(crate) fn nobles(&self) -> &[u8] {
        &self.nobles[..self.n_nobles as usize]
    }

    /// The seat to move.
    pub fn current_player(&self) -> usize {
        self.current as usize
    }

    /// Why the game ended, once it has.
    pub(crate) fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// True if the game ended without a winner (no legal action, or the action limit).
    pub(crate) fn is_stalemate(&self) -> bool {
        matches!(self.end, Some(EndReason::Stalemate | EndReason::Timeout))
    }

    pub(super) fn draw(&mut self, d: usize) -> Option<u8> {
        let len = self.deck_len[d] as usize;
        if len == 0 {
            return None;
        }
        self.deck_len[d] -= 1;
        Some(self.deck_cards[self.deck_start[d] as usize + len - 1])
    }

    /// Plays `action` for the player to move; an illegal action (e.g. one found in
    /// another determinisation of the state) is a pass: the turn moves on unchanged.
    /// Nothing happens once the game is over.
    pub fn play(&mut self, action: &Action) {
        if self.end.is_some() {
            return;
        }
        let p = self.current as usize;
        if self.is_legal(p, action) {
            self.apply(p, action);
            self.visit_noble(p);
            if self.hands[p].points as u32 >= self.rules.end_points {
                self.end_triggered = true;
            }
        }
        self.end_turn();
    }

    /// Applies a legal action's effects (tokens, cards, refills).
    fn apply(&mut self, p: usize, action: &Action) {
        let n = self.colours();
        match *action {
            Action::PickDifferent { take, give } => {
                for (c, &t) in take.iter().enumerate().take(n) {
                    self.bank[c] -= t;
                    self.hands[p].tokens[c] += t;
                }
                self.give_back(p, &give);
            }
            Action::PickSame { colour, give } => {
                let c = colour as usize;
                let amount = self.rules.pick_same as u8;
                self.bank[c] -= amount;
                self.hands[p].tokens[c] += amount;
                self.give_back(p, &give);
            }
            Action::ReserveFaceUp {
                deck,
                slot,
                card,
                give,
            } => {
                let d = deck as usize;
                self.face_up[d][slot as usize] = self.draw(d).unwrap_or(EMPTY);
                self.hands[p].push_reserved(card, false);
                self.take_gold(p);
                self.give_back(p, &give);
            }
            Action::ReserveDeck { deck, give } => {
                if let Some(card) = self.draw(deck as usize) {
                    self.hands[p].push_reserved(card, true);
                    self.take_gold(p);
                    self.give_back(p, &give);
                }
            }
            Action::BuyFaceUp { deck, slot, card } => {
                let d = deck as usize;
                self.face_up[d][slot as usize] = self.draw(d).unwrap_or(EMPTY);
                self.buy(p, card);
            }
            Action::BuyReserved { card } => {
                if let Some(i) = self.hands[p].reserved().iter().position(|&r| r == card) {
                    self.hands[p].remove_reserved(i);
                    self.buy(p, card);
                }
            }
        }
    }

    /// The joker a reserve gains, if [`RinState::joker_on_reserve`] grants one.
    fn take_gold(&mut self, p: usize) {
        if self.joker_on_reserve(&self.hands[p]) > 0 {
            self.bank_gold -= 1;
            self.hands[p].gold += 1;
        }
    }

    fn give_back(&mut self, p: usize, give: &Tokens) {
        for c in 0..self.colours() {
            self.hands[p].tokens[c] -= give.colours[c];
            self.bank[c] += give.colours[c];
        }
        self.hands[p].gold -= give.gold;
        self.bank_gold += give.gold;
    }

    /// Pays for `card` (colour tokens first, jokers for the shortfall, both back to the
    /// bank) and takes its points and bonus.
    fn buy(&mut self, p: usize, card: u8) {
        let card = self.content.cards[card as usize];
        let hand = &mut self.hands[p];
        let mut shortfall = 0u8;
        for c in 0..self.rules.token_types as usize {
            let need = card.cost[c].saturating_sub(hand.bonuses[c]);
            let paid = need.min(hand.tokens[c]);
            hand.tokens[c] -= paid;
            self.bank[c] += paid;
            shortfall += need - paid;
        }
        hand.gold -= shortfall;
        self.bank_gold += shortfall;
        hand.bonuses[card.bonus as usize] += 1;
        hand.points += card.points;
        hand.cards += 1;
    }

    /// Passive rule: the first noble on the table whose requirement the player's bonuses
    /// meet visits them (at most one a turn).
    fn visit_noble(&mut self, p: usize) {
        let n = self.colours();
        let bonuses = self.hands[p].bonuses;
        let found = self.nobles().iter().position(|&id| {
            let req = &self.content.nobles[id as usize].requires;
            (0..n).all(|c| bonuses[c] >= req[c])
        });
        if let Some(i) = found {
            let noble = self.content.nobles[self.nobles[i] as usize];
            let len = self.n_nobles as usize;
            self.nobles.copy_within(i + 1..len, i);
            self.n_nobles -= 1;
            self.hands[p].points += noble.points;
            self.hands[p].nobles += 1;
        }
    }

    /// Passes the turn and checks the end: the round completed after the end-game
    /// points were reached (or the points reached, under [`GameEnd::Immediately`]), the
    /// action limit, or a player with no legal action. If the last round is under way
    /// when a player cannot act, the game ends on points.
    fn end_turn(&mut self) {
        self.actions += 1;
        self.current = ((self.current as u32 + 1) % self.rules.players) as u8;
        let round_done = self.current == 0 || self.rules.game_end == GameEnd::Immediately;
        if self.end_triggered && round_done {
            self.end = Some(EndReason::Points);
        } else if self.actions >= self.rules.max_actions {
            self.end = Some(EndReason::Timeout);
        } else if !self.has_legal_action(self.current as usize) {
            self.end = Some(if self.end_triggered {
                EndReason::Points
            } else {
                EndReason::Stalemate
            });
        }
    }

    /// Winners by the rules: most points, then fewest cards; ties all win; nobody wins
    /// a stalemate or an unfinished game.
    pub(crate) fn winner_flags(&self) -> Vec<bool> {
        let p = self.players();
        if self.end != Some(EndReason::Points) {
            return vec![false; p];
        }
        let key = |h: &Hand| (h.points, std::cmp::Reverse(h.cards));
        let best = self.hands[..p].iter().map(key).max();
        self.hands[..p]
            .iter()
            .map(|h| Some(key(h)) == best)
            .collect()
    }

    /// The copy `player` may search from: decks reshuffled, and every opponent's hidden
    /// reserved card returned to its deck and replaced by a random unseen card of the
    /// same level (from the deck and the other hidden cards, reshuffled together).
    pub(crate) fn observed_by(&self, player: usize, rng: &mut Rng) -> RinState {
        let mut s = self.clone();
        let p = s.players();
        for q in (0..p).filter(|&q| q != player) {
            for i in 0..s.hands[q].n_reserved as usize {
                if s.hands[q].hidden[i] {
                    let card = s.hands[q].reserved[i];
                    let d = s.content.cards[card as usize].level as usize;
                    let at = s.deck_start[d] as usize + s.deck_len[d] as usize;
                    s.deck_cards[at] = card;
                    s.deck_len[d] += 1;
                }
            }
        }
        for d in 0..s.decks() {
            let start = s.deck_start[d] as usize;
            let len = s.deck_len[d] as usize;
            s.deck_cards[start..start + len].shuffle(rng);
        }
        for q in (0..p).filter(|&q| q != player) {
            for i in 0..s.hands[q].n_reserved as usize {
                if s.hands[q].hidden[i] {
                    let d = s.content.cards[s.hands[q].reserved[i] as usize].level as usize;
                    // The deck holds at least the card returned above.
                    if let Some(card) = s.draw(d) {
                        s.hands[q].reserved[i] = card;
                    }
                }
            }
        }
        s
    }
}

impl Game for RinState {
    type Action = Action;

    fn num_players(&self) -> usize {
        self.players()
    }

    fn acting(&self) -> Acting {
        Acting::Player(self.current as usize)
    }

    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn step_count(&self) -> u32 {
        self.actions
    }

    /// The paper's random action generator: a kind drawn uniformly among the kinds with
    /// a legal instance, then a random instance of it.
    fn random_action(&self, player: usize, rng: &mut Rng) -> Option<Action> {
        self.sample_action(player, rng)
    }

    /// Every legal action, give-back choices included, unless there are more than
    /// `super::actions::ENUMERATION_CAP` (then false: sample instead).
    fn legal_actions(&self, player: usize, out: &mut Vec<Action>) -> bool {
        self.enumerate_actions(player, out)
    }

    fn advance(&mut self, actions: &[Action]) {
        match actions.first() {
            Some(a) => self.play(a),
            // No action given: the player passes (counted as an action).
            None if self.end.is_none() => self.end_turn(),
            None => {}
        }
    }

    fn score(&self, player: usize) -> f64 {
        self.hands.get(player).map_or(0.0, |h| h.points as f64)
    }

    fn winners(&self) -> Vec<bool> {
        self.winner_flags()
    }

    fn observe(&self, player: usize, rng: &mut Rng) -> Self {
        self.observed_by(player, rng)
    }
}
