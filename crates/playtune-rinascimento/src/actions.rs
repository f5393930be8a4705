//! The actions, their legality, the random action generator (RAG) and enumeration.
//!
//! Rule readings fixed here:
//! - Pick-different takes as many colours as it can up to nTTPD (all non-empty stacks
//!   if fewer), and from each as many tokens as it can up to nTPD: a player chooses the
//!   colours, not to take less than the rules allow.
//! - Paying uses the colour tokens first and jokers only for the shortfall.
//! - Give-backs: after a pick or a reserve, a hand above maxT returns exactly the excess,
//!   of any colours or jokers it holds (the tokens just taken included).
//! - A reserve gains a joker if the bank has one; with maxT tokens already in hand the
//!   rules' [`super::rules::FullHandReserve`] decides.
//!
//! The random player's own choices (kind weights, what it gives back) are its settings,
//! [`RandomPlayer`], not rules.

use rand::RngExt;

use super::action::{Action, ActionKind, Tokens};
use super::rules::{FullHandReserve, MAX_COLOURS, MAX_DECKS, MAX_FACE_UP, MAX_RESERVED};
use super::state::{EMPTY, Hand, RinState};
use playtune_optim::rng::Rng;

/// `legal_actions` gives up (returns false) beyond this many actions.
pub(crate) const ENUMERATION_CAP: usize = 4096;

/// The reference framework's weights of the action kinds, in [`ActionKind::ALL`] order:
/// pick different, pick same, reserve face-up, reserve from a deck, buy face-up, buy
/// reserved (22.5, 22.5, 5, 5, 22.5, 22.5).
pub(crate) const REFERENCE_KIND_WEIGHTS: [f64; 6] = [22.5, 22.5, 5.0, 5.0, 22.5, 22.5];

/// How a random player draws the kind of its action. Kinds without a legal action are
/// never drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum KindChoice {
    /// Uniformly among the kinds with a legal action: the paper's RAG as the spec reads
    /// it, and the default (see [`RandomPlayer`]).
    #[default]
    Uniform,
    /// In proportion to a weight per kind (pick different, pick same, reserve face-up,
    /// reserve from a deck, buy face-up, buy reserved) among the kinds with a legal
    /// action. The reference framework draws a kind by weight and, if it has no legal
    /// action, drops it and draws again: the same distribution. Kinds of
    /// weight 0 are drawn (uniformly) only when no kind of positive weight is legal, so
    /// that the player always has an action while the game goes on.
    Weighted([f64; 6]),
}

/// Which token each step of a random give-back returns (a hand above maxT returns its
/// excess one token at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GiveBack {
    /// Uniformly among the tokens held, jokers included (the default).
    #[default]
    AnyToken,
    /// A colour uniformly among the colours held, never a joker (the reference
    /// framework); a joker only if the hand holds no colour at all.
    AnyColour,
}

/// The settings of a random player (the `rnd` agent): how it draws the kind of its
/// action and what it gives back. [`RandomPlayer::reference`] is the reference
/// framework's player.
///
/// The default is the paper's RAG as the spec reads it (uniform kinds, any token back),
/// which every search agent's rollouts also use. Neither the spec nor the paper
/// settles the weights: the paper's 14.1% stalemates fit uniform kinds, its sd of 21.35
/// actions the reference's weights. Uniform kinds stay the default because the spec's
/// RND is "a random legal action" with no weights named, because the reference's
/// length distribution comes from its five readings together (the weights alone, under
/// the spec's rules, give an sd near 17, not 21), and because every pinned and
/// published result (random games, the rules problem's ladder, rollouts) stays
/// byte-identical. To reproduce the reference, take its whole preset.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RandomPlayer {
    /// How the kind of action is drawn.
    pub kinds: KindChoice,
    /// What a hand above maxT returns.
    pub give_back: GiveBack,
}

impl RandomPlayer {
    /// The reference framework's random player: `REFERENCE_KIND_WEIGHTS` and
    /// [`GiveBack::AnyColour`].
    pub fn reference() -> RandomPlayer {
        RandomPlayer {
            kinds: KindChoice::Weighted(REFERENCE_KIND_WEIGHTS),
            give_back: GiveBack::AnyColour,
        }
    }
}

/// An index drawn in proportion to `weights` (all >= 0), or uniformly if they are all 0.
pub(super) fn weighted_index(weights: &[f64], rng: &mut Rng) -> usize {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return rng.random_range(0..weights.len());
    }
    let mut r = rng.random::<f64>() * total;
    // The last index of positive weight takes whatever rounding leaves over.
    let last = weights.iter().rposition(|&w| w > 0.0).unwrap_or(0);
    let mut i = 0;
    while i < last && r >= weights[i] {
        r -= weights[i];
        i += 1;
    }
    i
}

/// Up to 32 small items on the stack (candidates while sampling).
struct Picks {
    items: [u8; 32],
    len: usize,
}

impl Picks {
    fn new() -> Picks {
        Picks {
            items: [0; 32],
            len: 0,
        }
    }
    fn push(&mut self, x: u8) {
        if self.len < self.items.len() {
            self.items[self.len] = x;
            self.len += 1;
        }
    }
    fn choose(&self, rng: &mut Rng) -> Option<u8> {
        (self.len > 0).then(|| self.items[rng.random_range(0..self.len)])
    }
}

impl RinState {
    /// Tokens a hand still lacks for `card` after bonuses and colour tokens (jokers must
    /// cover it).
    fn shortfall(&self, hand: &Hand, card: u8) -> u32 {
        let cost = &self.content.cards[card as usize].cost;
        (0..self.colours())
            .map(|c| {
                cost[c]
                    .saturating_sub(hand.bonuses[c])
                    .saturating_sub(hand.tokens[c]) as u32
            })
            .sum()
    }

    fn affordable(&self, hand: &Hand, card: u8) -> bool {
        self.shortfall(hand, card) <= hand.gold as u32
    }

    fn can_reserve(&self, hand: &Hand) -> bool {
        (hand.reserved().len() as u32) < self.rules.max_reserved
            && hand.reserved().len() < MAX_RESERVED
    }

    /// Colours with a non-empty stack, as a bit mask.
    fn non_empty_mask(&self) -> u32 {
        (0..self.colours())
            .filter(|&c| self.bank[c] > 0)
            .fold(0, |m, c| m | 1 << c)
    }

    /// Whether a give-back is exactly the excess over maxT of a hand holding `tokens`
    /// and `gold`, and only returns tokens the hand has.
    fn give_ok(&self, tokens: &[u8; MAX_COLOURS], gold: u8, give: &Tokens) -> bool {
        let n = self.colours();
        let held: u32 = tokens.iter().map(|&t| t as u32).sum::<u32>() + gold as u32;
        let excess = held.saturating_sub(self.rules.max_tokens);
        give.total() == excess
            && give.gold <= gold
            && (0..MAX_COLOURS).all(|c| give.colours[c] <= if c < n { tokens[c] } else { 0 })
    }

    /// The tokens a hand holds after taking `take` (and `gold` extra jokers).
    fn after_taking(hand: &Hand, take: &[u8; MAX_COLOURS], gold: u8) -> ([u8; MAX_COLOURS], u8) {
        let mut t = hand.tokens;
        for c in 0..MAX_COLOURS {
            t[c] += take[c];
        }
        (t, hand.gold + gold)
    }

    /// The only take a pick-different of the colours in `mask` allows.
    fn pick_different_take(&self, mask: u32) -> [u8; MAX_COLOURS] {
        let mut take = [0u8; MAX_COLOURS];
        for (c, t) in take.iter_mut().enumerate().take(self.colours()) {
            if mask & (1 << c) != 0 {
                *t = self.bank[c].min(self.rules.pick_diff_each as u8);
            }
        }
        take
    }

    /// Colours a pick-different takes: nTTPD, or every non-empty stack if fewer.
    fn pick_different_count(&self) -> u32 {
        self.non_empty_mask()
            .count_ones()
            .min(self.rules.pick_diff_types)
    }

    /// Jokers a reserve by `hand` gains: one if the bank has any, except that under
    /// [`FullHandReserve::NoJoker`] a hand already at maxT gains none (and so returns
    /// nothing).
    pub(super) fn joker_on_reserve(&self, hand: &Hand) -> u8 {
        let full = hand.token_total() >= self.rules.max_tokens;
        let refused = full && self.rules.full_hand_reserve == FullHandReserve::NoJoker;
        u8::from(self.bank_gold > 0 && !refused)
    }

    /// Whether `player` may play `action` now.
    pub fn is_legal(&self, player: usize, action: &Action) -> bool {
        if self.end.is_some() || player != self.current as usize {
            return false;
        }
        let hand = &self.hands[player];
        let n = self.colours();
        match *action {
            Action::PickDifferent { take, give } => {
                let mut mask = 0u32;
                for (c, &t) in take.iter().enumerate() {
                    if t > 0 {
                        if c >= n || self.bank[c] == 0 {
                            return false;
                        }
                        mask |= 1 << c;
                    }
                }
                if mask.count_ones() != self.pick_different_count()
                    || mask == 0
                    || take != self.pick_different_take(mask)
                {
                    return false;
                }
                let (t, g) = Self::after_taking(hand, &take, 0);
                self.give_ok(&t, g, &give)
            }
            Action::PickSame { colour, give } => {
                let c = colour as usize;
                if c >= n || (self.bank[c] as u32) < self.rules.pick_same_min {
                    return false;
                }
                let mut take = [0u8; MAX_COLOURS];
                take[c] = self.rules.pick_same as u8;
                let (t, g) = Self::after_taking(hand, &take, 0);
                self.give_ok(&t, g, &give)
            }
            Action::ReserveFaceUp {
                deck,
                slot,
                card,
                give,
            } => {
                let (d, s) = (deck as usize, slot as usize);
                if !self.can_reserve(hand) || d >= self.decks() || s >= self.rules.face_up as usize
                {
                    return false;
                }
                if card == EMPTY || self.face_up[d][s] != card {
                    return false;
                }
                let (t, g) =
                    Self::after_taking(hand, &[0; MAX_COLOURS], self.joker_on_reserve(hand));
                self.give_ok(&t, g, &give)
            }
            Action::ReserveDeck { deck, give } => {
                let d = deck as usize;
                if !self.can_reserve(hand) || d >= self.decks() || self.deck_len[d] == 0 {
                    return false;
                }
                let (t, g) =
                    Self::after_taking(hand, &[0; MAX_COLOURS], self.joker_on_reserve(hand));
                self.give_ok(&t, g, &give)
            }
            Action::BuyFaceUp { deck, slot, card } => {
                let (d, s) = (deck as usize, slot as usize);
                d < self.decks()
                    && s < self.rules.face_up as usize
                    && card != EMPTY
                    && self.face_up[d][s] == card
                    && self.affordable(hand, card)
            }
            Action::BuyReserved { card } => {
                hand.reserved().contains(&card) && self.affordable(hand, card)
            }
        }
    }

    /// Whether `kind` has a legal instance for the player to move.
    fn kind_available(&self, kind: ActionKind, hand: &Hand) -> bool {
        let n = self.colours();
        let d = self.decks();
        let fu = self.rules.face_up as usize;
        match kind {
            ActionKind::PickDifferent => self.non_empty_mask() != 0,
            ActionKind::PickSame => (0..n).any(|c| self.bank[c] as u32 >= self.rules.pick_same_min),
            ActionKind::ReserveFaceUp => {
                self.can_reserve(hand)
                    && (0..d).any(|d| self.face_up[d][..fu].iter().any(|&c| c != EMPTY))
            }
            ActionKind::ReserveDeck => {
                self.can_reserve(hand) && self.deck_len[..d].iter().any(|&l| l > 0)
            }
            ActionKind::BuyFaceUp => (0..d).any(|d| {
                self.face_up[d][..fu]
                    .iter()
                    .any(|&c| c != EMPTY && self.affordable(hand, c))
            }),
            ActionKind::BuyReserved => hand.reserved().iter().any(|&c| self.affordable(hand, c)),
        }
    }

    /// Whether `player` (who must be the player to move) has any legal action.
    pub(crate) fn has_legal_action(&self, player: usize) -> bool {
        let hand = &self.hands[player];
        ActionKind::ALL
            .iter()
            .any(|&k| self.kind_available(k, hand))
    }

    /// The RAG: a kind drawn uniformly among those with a legal instance, then a random
    /// instance of it; `None` only if the player has no legal action (or is not to move).
    pub(crate) fn sample_action(&self, player: usize, rng: &mut Rng) -> Option<Action> {
        self.sample_action_with(player, &RandomPlayer::default(), rng)
    }

    /// A random action as `random` draws it: a kind by its [`KindChoice`] among those
    /// with a legal instance, then a random instance of it with its [`GiveBack`]. With
    /// the default settings this is [`RinState::sample_action`], draw for draw.
    pub(crate) fn sample_action_with(
        &self,
        player: usize,
        random: &RandomPlayer,
        rng: &mut Rng,
    ) -> Option<Action> {
        if self.end.is_some() || player != self.current as usize {
            return None;
        }
        let hand = &self.hands[player];
        let mut kinds = [ActionKind::PickDifferent; 6];
        let mut weights = [0.0; 6];
        let mut len = 0;
        for (i, k) in ActionKind::ALL.into_iter().enumerate() {
            if self.kind_available(k, hand) {
                kinds[len] = k;
                if let KindChoice::Weighted(w) = random.kinds {
                    // Negative or NaN weights count as 0.
                    weights[len] = w[i].max(0.0);
                }
                len += 1;
            }
        }
        if len == 0 {
            return None;
        }
        // Uniform kinds make the one integer draw the RAG has always made, so that the
        // default's games stay byte-identical.
        let chosen = match random.kinds {
            KindChoice::Uniform => rng.random_range(0..len),
            KindChoice::Weighted(_) => weighted_index(&weights[..len], rng),
        };
        self.random_action_with(player, kinds[chosen], random.give_back, rng)
    }

    /// The RAG of one kind: a random legal action of `kind`, or `None` if there is none.
    /// Instances: pick-different chooses its colours uniformly among non-empty stacks;
    /// pick-same a colour uniformly among stacks of at least minTPS; reserves and buys a
    /// card (or deck) uniformly among the legal ones. Give-backs return one token at a
    /// time, drawn uniformly among the tokens held.
    #[cfg(test)]
    pub(crate) fn random_action_of(
        &self,
        player: usize,
        kind: ActionKind,
        rng: &mut Rng,
    ) -> Option<Action> {
        self.random_action_with(player, kind, GiveBack::AnyToken, rng)
    }

    /// `RinState::random_action_of` with the give-backs drawn as `give_back` says.
    pub(crate) fn random_action_with(
        &self,
        player: usize,
        kind: ActionKind,
        give_back: GiveBack,
        rng: &mut Rng,
    ) -> Option<Action> {
        if self.end.is_some() || player != self.current as usize {
            return None;
        }
        let hand = &self.hands[player];
        let n = self.colours();
        let fu = self.rules.face_up as usize;
        let mut picks = Picks::new();
        match kind {
            ActionKind::PickDifferent => {
                for c in 0..n {
                    if self.bank[c] > 0 {
                        picks.push(c as u8);
                    }
                }
                let k = (self.rules.pick_diff_types as usize).min(picks.len);
                if k == 0 {
                    return None;
                }
                let mut mask = 0u32;
                for i in 0..k {
                    let j = rng.random_range(i..picks.len);
                    picks.items.swap(i, j);
                    mask |= 1 << picks.items[i];
                }
                let take = self.pick_different_take(mask);
                let (t, g) = Self::after_taking(hand, &take, 0);
                Some(Action::PickDifferent {
                    take,
                    give: self.random_give(t, g, give_back, rng),
                })
            }
            ActionKind::PickSame => {
                for c in 0..n {
                    if self.bank[c] as u32 >= self.rules.pick_same_min {
                        picks.push(c as u8);
                    }
                }
                let colour = picks.choose(rng)?;
                let mut take = [0u8; MAX_COLOURS];
                take[colour as usize] = self.rules.pick_same as u8;
                let (t, g) = Self::after_taking(hand, &take, 0);
                Some(Action::PickSame {
                    colour,
                    give: self.random_give(t, g, give_back, rng),
                })
            }
            ActionKind::ReserveFaceUp | ActionKind::BuyFaceUp => {
                let buying = kind == ActionKind::BuyFaceUp;
                if !buying && !self.can_reserve(hand) {
                    return None;
                }
                for d in 0..self.decks() {
                    for s in 0..fu {
                        let card = self.face_up[d][s];
                        if card != EMPTY && (!buying || self.affordable(hand, card)) {
                            picks.push((d * MAX_FACE_UP + s) as u8);
                        }
                    }
                }
                let at = picks.choose(rng)? as usize;
                let (deck, slot) = ((at / MAX_FACE_UP) as u8, (at % MAX_FACE_UP) as u8);
                let card = self.face_up[deck as usize][slot as usize];
                if buying {
                    return Some(Action::BuyFaceUp { deck, slot, card });
                }
                let (t, g) =
                    Self::after_taking(hand, &[0; MAX_COLOURS], self.joker_on_reserve(hand));
                Some(Action::ReserveFaceUp {
                    deck,
                    slot,
                    card,
                    give: self.random_give(t, g, give_back, rng),
                })
            }
            ActionKind::ReserveDeck => {
                if !self.can_reserve(hand) {
                    return None;
                }
                for d in 0..self.decks() {
                    if self.deck_len[d] > 0 {
                        picks.push(d as u8);
                    }
                }
                let deck = picks.choose(rng)?;
                let (t, g) =
                    Self::after_taking(hand, &[0; MAX_COLOURS], self.joker_on_reserve(hand));
                Some(Action::ReserveDeck {
                    deck,
                    give: self.random_give(t, g, give_back, rng),
                })
            }
            ActionKind::BuyReserved => {
                for &card in hand.reserved() {
                    if self.affordable(hand, card) {
                        picks.push(card);
                    }
                }
                Some(Action::BuyReserved {
                    card: picks.choose(rng)?,
                })
            }
        }
    }

    /// A random give-back of the excess over maxT from a hand of `tokens` and `gold`.
    fn random_give(
        &self,
        mut tokens: [u8; MAX_COLOURS],
        mut gold: u8,
        give_back: GiveBack,
        rng: &mut Rng,
    ) -> Tokens {
        let n = self.colours();
        let mut held: u32 = tokens[..n].iter().map(|&t| t as u32).sum::<u32>() + gold as u32;
        let mut give = Tokens::default();
        if give_back == GiveBack::AnyColour {
            while held > self.rules.max_tokens {
                let mut colours = Picks::new();
                for c in (0..n).filter(|&c| tokens[c] > 0) {
                    colours.push(c as u8);
                }
                match colours.choose(rng) {
                    Some(c) => {
                        tokens[c as usize] -= 1;
                        give.colours[c as usize] += 1;
                    }
                    // Only jokers are left above maxT: one goes back.
                    None => give.gold += 1,
                }
                held -= 1;
            }
            return give;
        }
        while held > self.rules.max_tokens {
            let mut r = rng.random_range(0..held);
            if r < gold as u32 {
                gold -= 1;
                give.gold += 1;
            } else {
                r -= gold as u32;
                for (c, t) in tokens.iter_mut().enumerate().take(n) {
                    if r < *t as u32 {
                        *t -= 1;
                        give.colours[c] += 1;
                        break;
                    }
                    r -= *t as u32;
                }
            }
            held -= 1;
        }
        give
    }

    /// Every give-back of the excess from a hand of `tokens` and `gold`; `f` returns
    /// false to stop (then so does this).
    fn for_each_give(
        &self,
        tokens: &[u8; MAX_COLOURS],
        gold: u8,
        f: &mut dyn FnMut(Tokens) -> bool,
    ) -> bool {
        let n = self.colours();
        let held: u32 = tokens[..n].iter().map(|&t| t as u32).sum::<u32>() + gold as u32;
        let excess = held.saturating_sub(self.rules.max_tokens);
        // Token types in order: colours 0..n, then jokers (index n).
        let mut avail = [0u8; MAX_COLOURS + 1];
        avail[..n].copy_from_slice(&tokens[..n]);
        avail[n] = gold;
        fn rec(
            i: usize,
            n: usize,
            left: u32,
            avail: &[u8; MAX_COLOURS + 1],
            cur: &mut Tokens,
            f: &mut dyn FnMut(Tokens) -> bool,
        ) -> bool {
            if left == 0 {
                return f(*cur);
            }
            if i > n {
                return true;
            }
            let most = (avail[i] as u32).min(left);
            for k in 0..=most {
                if i == n {
                    cur.gold = k as u8;
                } else {
                    cur.colours[i] = k as u8;
                }
                // Only the last type may (and must) take all that is left.
                if (i < n || k == left) && !rec(i + 1, n, left - k, avail, cur, f) {
                    return false;
                }
            }
            if i == n {
                cur.gold = 0;
            } else {
                cur.colours[i] = 0;
            }
            true
        }
        rec(0, n, excess, &avail, &mut Tokens::default(), f)
    }

    /// Enumerates every legal action of `player` into `out`; false (and `out` cleared)
    /// if there are more than [`ENUMERATION_CAP`], which give-back combinations can
    /// cause under generous rules.
    pub(crate) fn enumerate_actions(&self, player: usize, out: &mut Vec<Action>) -> bool {
        out.clear();
        if self.end.is_some() || player != self.current as usize {
            return true;
        }
        let hand = self.hands[player];
        let n = self.colours();
        let fu = self.rules.face_up as usize;
        let push = |a: Action, out: &mut Vec<Action>| {
            out.push(a);
            out.len() <= ENUMERATION_CAP
        };
        let mut ok = true;
        // Pick different: every set of the right number of non-empty colours.
        let avail = self.non_empty_mask();
        let k = self.pick_different_count();
        if k > 0 {
            for mask in 1u32..(1 << n) {
                if !ok {
                    break;
                }
                if mask & !avail != 0 || mask.count_ones() != k {
                    continue;
                }
                let take = self.pick_different_take(mask);
                let (t, g) = Self::after_taking(&hand, &take, 0);
                ok = self.for_each_give(&t, g, &mut |give| {
                    push(Action::PickDifferent { take, give }, out)
                });
            }
        }
        for c in 0..n {
            if ok && self.bank[c] as u32 >= self.rules.pick_same_min {
                let mut take = [0u8; MAX_COLOURS];
                take[c] = self.rules.pick_same as u8;
                let (t, g) = Self::after_taking(&hand, &take, 0);
                ok = self.for_each_give(&t, g, &mut |give| {
                    push(
                        Action::PickSame {
                            colour: c as u8,
                            give,
                        },
                        out,
                    )
                });
            }
        }
        if self.can_reserve(&hand) {
            let (t, g) = Self::after_taking(&hand, &[0; MAX_COLOURS], self.joker_on_reserve(&hand));
            for d in 0..self.decks().min(MAX_DECKS) {
                for s in 0..fu {
                    let card = self.face_up[d][s];
                    if ok && card != EMPTY {
                        let (deck, slot) = (d as u8, s as u8);
                        ok = self.for_each_give(&t, g, &mut |give| {
                            push(
                                Action::ReserveFaceUp {
                                    deck,
                                    slot,
                                    card,
                                    give,
                                },
                                out,
                            )
                        });
                    }
                }
                if ok && self.deck_len[d] > 0 {
                    let deck = d as u8;
                    ok = self.for_each_give(&t, g, &mut |give| {
                        push(Action::ReserveDeck { deck, give }, out)
                    });
                }
            }
        }
        for d in 0..self.decks() {
            for s in 0..fu {
                let card = self.face_up[d][s];
                if ok && card != EMPTY && self.affordable(&hand, card) {
                    ok = push(
                        Action::BuyFaceUp {
                            deck: d as u8,
                            slot: s as u8,
                            card,
                        },
                        out,
                    );
                }
            }
        }
        for &card in hand.reserved() {
            if ok && self.affordable(&hand, card) {
                ok = push(Action::BuyReserved { card }, out);
            }
        }
        if !ok {
            out.clear();
        }
        ok
    }
}
