"""Kuhn poker, rules only, with hidden cards: each player antes `ante`, is dealt one of
three cards (a chance node), and may check, bet 1, call or fold; the higher card wins
a showdown.

A seat sees its own card and every bet, not the other card: the game says
``hidden_information = True`` and re-samples what a seat cannot see in
``resample_from_infostate``, so playtune's search bots (osla, mcts, ismcts, ...)
decide on worlds drawn from what their seat knows, never on the true deal.
"""
import playtune

CHECK, BET = 0, 1  # after a bet: 0 folds, 1 calls


class Hand:
    def __init__(self, ante):
        self.ante, self.cards, self.moves = ante, [], []

    def current_player(self):
        if len(self.cards) < 2:
            return -1
        return -4 if self.is_terminal() else len(self.moves) % 2

    def is_chance_node(self):
        return len(self.cards) < 2

    def chance_outcomes(self):
        left = [c for c in (0, 1, 2) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def legal_actions(self):
        return [CHECK, BET]

    def apply_action(self, a):
        (self.cards if len(self.cards) < 2 else self.moves).append(a)

    def is_terminal(self):
        m = self.moves
        return m in ([CHECK, CHECK], [BET, CHECK], [BET, BET], [CHECK, BET, CHECK], [CHECK, BET, BET])

    def returns(self):
        m = self.moves
        if m[-1] == CHECK and BET in m:  # the last to act folded: the bettor takes the antes
            winner, stake = 1 - (len(m) - 1) % 2, self.ante
        else:  # a showdown, for the antes and any called bet
            winner, stake = (0 if self.cards[0] > self.cards[1] else 1), self.ante + (BET in m)
        return [stake, -stake] if winner == 0 else [-stake, stake]

    def information_state_string(self, player):
        return f"card {self.cards[player]} moves {self.moves}" if len(self.cards) > player else ""

    def resample_from_infostate(self, player, sampler):
        other = [c for c in (0, 1, 2) if c != self.cards[player]]
        world = self.clone()
        world.cards[1 - player] = other[int(sampler() * len(other)) % len(other)]
        return world

    def clone(self):
        copy = Hand(self.ante)
        copy.cards, copy.moves = list(self.cards), list(self.moves)
        return copy


class Kuhn(playtune.Game):
    name = "kuhn"
    about = "Kuhn poker: one hidden card each, check, bet, call or fold"
    hidden_information = True
    settings = {"ante": {"int": [1, 4], "default": 1}}

    def new_initial_state(self, settings):
        return Hand(int(settings["ante"]))


GAME = Kuhn()
