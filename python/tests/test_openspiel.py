"""OpenSpiel games through playtune's adapter (playtune.openspiel): duel written as an
OpenSpiel game (examples/duel/duel_openspiel.py) designed to its closed-form deepest
rules, and OpenSpiel's own games, with chance nodes and simultaneous moves, played by
OpenSpiel's bots. Skipped where OpenSpiel is not installed."""
import math
import os
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")

import playtune  # noqa: E402
from playtune.openspiel import OpenSpielGame  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "duel"))
import duel_openspiel  # noqa: E402
from duel import depth, deepest, majority  # noqa: E402



@pytest.fixture(scope="module")
def duel():
    return playtune.register_game(duel_openspiel.adapter())


def test_openspiel_duel_wins_as_its_closed_form_says(duel):
    r = playtune.tournament(duel, ["effort(level=0)", "effort(level=2)"], games=1000, seed=2,
                            settings={"edge": 0.4, "rounds": 15})
    expert = r["agents"][1]["win_rate"]
    truth = majority(1 / (1 + math.exp(-0.8)), 15)
    assert abs(expert - truth) < 3 * math.sqrt(truth * (1 - truth) / 1000), (expert, truth)


def test_designing_an_openspiel_game_finds_its_deepest_rules(duel, tmp_path):
    best = deepest()
    run = playtune.create_run("design", settings={"game": duel, "games": 20}, budget=100,
                              trials=20, seed=1, runs_dir=tmp_path)
    result = run.run(progress=False)
    run.close()
    near = sum(depth(t["values"][0], int(t["values"][1])) >= best - 0.01 for t in result["trials"])
    # 17 of the 96 rule sets are within 0.01 of the deepest: a random pick lands there
    # in about 3.5 of 20 seeds.
    assert near >= 10, near


def test_openspiel_games_with_chance_and_simultaneous_moves():
    pig = playtune.register_game(
        OpenSpielGame("pig", {"winscore": {"int": [5, 30], "step": 5, "default": 10}})
    )
    r = playtune.tournament(pig, ["random", "mcts(simulations=20)"], games=10, settings={"winscore": 10})
    assert r["agents"][1]["win_rate"] >= 0.5, r["agents"]
    info = playtune.evaluate("design", {"winscore": 10}, seed=3,
                             settings={"game": pig, "games": 2, "ladder": "random,mcts(simulations=5)"})
    assert "mean_length" in info["features"]
    zumo = playtune.register_game(OpenSpielGame("oshi_zumo", {"coins": {"int": [10, 50], "step": 10, "default": 20}},
                                                ladder=["random", "random"]))
    r = playtune.tournament(zumo, ["random", "random"], games=10, settings={"coins": 10})
    assert r["design"]["games"] == 10
    with pytest.raises(playtune.PlaytuneError, match="no parameter `colour`"):
        OpenSpielGame("pig", {"colour": {"int": [1, 2]}})
