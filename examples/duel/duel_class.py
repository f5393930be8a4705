"""Duel as a Python class played in process (docs/your-own-game.md): the rules of
duel.py, with no game process. Register it, then use its name anywhere a game is
taken:

    import playtune
    from duel_class import Duel
    playtune.register_game(Duel())
    playtune.tournament("duel-in-process", ["novice", "expert"], games=100)
"""
import playtune

import duel


class Duel(playtune.Game):
    name = "duel-in-process"
    about = "best of `rounds` rounds; `edge` sets how much skill wins a round"
    players = 2
    settings = {
        "edge": {"list": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0], "default": 2.0},
        "rounds": {"int": [1, 15], "step": 2, "default": 5},
    }
    bots = [
        {"name": "novice", "about": "skill 0"},
        {"name": "club", "about": "skill 1"},
        {"name": "expert", "about": "skill 2"},
        {"name": "trained", "about": "skill 2 - (aim - 3)^2 / 4: tune its aim",
         "settings": {"aim": {"int": [0, 6], "default": 0}}},
    ]
    ladder = ["novice", "club", "expert"]
    traced = True  # duel.play reports every round's score

    def play(self, match):
        return duel.play(match)
