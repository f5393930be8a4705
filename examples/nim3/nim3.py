"""Nim for three: rules only, no bots. Three seats take turns to take 1 to `take`
stones from a pile of `pile`; whoever takes the last stone wins.

A game of three seats: `playtune check-ladder --game nim3.py:GAME` plays each rung of
its ladder against two copies of the rung below, as a design run seats a rung
(docs/ladders.md).
"""
import playtune


class Pile:
    def __init__(self, stones, take):
        self.stones, self.take, self.turn, self.winner = stones, take, 0, None

    def current_player(self):
        return -4 if self.is_terminal() else self.turn

    def legal_actions(self):
        return list(range(1, min(self.take, self.stones) + 1))

    def apply_action(self, a):
        self.stones -= a
        if self.stones == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % 3

    def is_terminal(self):
        return self.winner is not None

    def returns(self):
        return [1.0 if seat == self.winner else 0.0 for seat in range(3)]

    def clone(self):
        copy = Pile(self.stones, self.take)
        copy.turn, copy.winner = self.turn, self.winner
        return copy

    def __str__(self):
        return f"{self.stones} stones, seat {self.turn} to take 1 to {min(self.take, self.stones)}"


class Nim3(playtune.Game):
    name = "nim3"
    about = "three seats take stones; the last stone wins"
    players = 3
    settings = {"pile": {"int": [4, 40], "default": 15}, "take": {"int": [2, 5], "default": 3}}

    def new_initial_state(self, settings):
        return Pile(int(settings["pile"]), int(settings["take"]))


GAME = Nim3()

if __name__ == "__main__":
    # `python nim3.py` checks its default ladder (random, osla, mcts ...).
    import subprocess
    import sys

    sys.exit(subprocess.call(["playtune", "check-ladder", "--game", f"{__file__}:GAME", "--games", "100"]))
