"""Games for test_game_workers.py, made at a module's top level so that game processes
and the command line can name them (`worker_games.py:DUEL`)."""
import os
import sys

import playtune

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "duel"))
from duel_class import Duel  # noqa: E402

DUEL = Duel()
DUEL.name = "duel-in-workers"

try:
    from playtune.openspiel import OpenSpielGame

    PIG = OpenSpielGame("pig", {"winscore": {"int": [5, 30], "step": 5, "default": 10}},
                        ladder=["random", "mcts(simulations=5)", "mcts(simulations=50)"])
except playtune.PlaytuneError:  # OpenSpiel is not installed: its tests skip
    PIG = None
