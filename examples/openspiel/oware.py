"""Oware from OpenSpiel, its board designed: houses a side and seeds a house.

    playtune optimize --problem design --set game=examples/openspiel/oware.py:GAME --set games=20

(``PLAYTUNE_PYTHON`` names the interpreter with playtune and open_spiel installed.)
"""
from playtune.openspiel import OpenSpielGame

GAME = OpenSpielGame(
    "oware",
    {
        "num_houses_per_player": {"int": [3, 6], "default": 6},
        "num_seeds_per_house": {"int": [2, 5], "default": 4},
    },
)
