"""Liar's dice from OpenSpiel: an imperfect-information game, its MCTS bot searching
worlds sampled from what it has seen (it never reads the opponent's dice).

    playtune optimize --problem design --set game=examples/openspiel/liars_dice.py:GAME --set games=20
"""
from playtune.openspiel import OpenSpielGame

GAME = OpenSpielGame(
    "liars_dice",
    {
        "numdice": {"int": [1, 3], "default": 1},
        "dice_sides": {"int": [4, 8], "default": 6},
    },
)
