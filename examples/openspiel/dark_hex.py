"""Dark hex from OpenSpiel, its board designed: a move onto a hidden stone is seen only
by its mover, who moves again, so neither seat knows how many moves the other made.

    playtune check-ladder --game examples/openspiel/dark_hex.py:GAME
    playtune optimize --problem design --set game=examples/openspiel/dark_hex.py:GAME --set games=20

Its `mcts` is determinized: worlds drawn from what the seat has seen, turn order
included (docs/own-rules.md#hidden-information). The design run checks the ladder at
dark hex's own rules first, and says so where a rung is not shown stronger.
"""
from playtune.openspiel import OpenSpielGame

GAME = OpenSpielGame(
    "dark_hex",
    {
        "num_rows": {"int": [3, 4], "default": 3},
        "num_cols": {"int": [3, 4], "default": 3},
    },
)
