"""Games written in Python, in process (playtune.Game), and described games run over
the match protocol: the same rules give the same matches either way, a design run
finds the closed-form deepest rules, and a failing match fails alone."""
import os
import sys

import pytest

import playtune
from playtune import PlaytuneError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DUEL_FILE = os.path.join(ROOT, "examples", "duel", "duel.ron")
sys.path.insert(0, os.path.join(ROOT, "examples", "duel"))
from duel import deepest, depth  # noqa: E402
from duel_class import Duel  # noqa: E402


@pytest.fixture(scope="module")
def duel():
    return playtune.register_game(Duel())


def test_a_python_game_plays_as_the_same_game_over_the_protocol(duel):
    settings = {"edge": 0.4, "rounds": 11}
    agents = ["novice", "expert", "trained(aim=2)"]
    here = playtune.tournament(duel, agents, games=50, seed=4, settings=settings)
    there = playtune.tournament(DUEL_FILE, agents, games=50, seed=4, settings=settings)
    assert here == there
    assert here["design"]["lead_changes"] > 0


def test_designing_a_python_game_finds_its_deepest_rules(duel, tmp_path):
    best = deepest()
    run = playtune.create_run("design", settings={"game": duel, "games": 20}, budget=100,
                              trials=20, seed=1, runs_dir=tmp_path)
    result = run.run(progress=False)
    run.close()
    near = sum(depth(t["values"][0], int(t["values"][1])) >= best - 0.01
               for t in result["trials"])
    # 17 of the 96 rule sets are within 0.01 of the deepest: a random pick lands there
    # in about 3.5 of 20 seeds.
    assert near >= 10, near


def test_a_match_that_raises_fails_alone(tmp_path):
    class Fragile(Duel):
        name = "fragile"

        def play(self, match):
            if match["settings"]["rounds"] == 1:
                raise RuntimeError("one round is no game")
            return super().play(match)

    playtune.register_game(Fragile())
    with pytest.raises(PlaytuneError, match="its play raised one round is no game"):
        playtune.tournament("fragile", ["novice", "expert"], games=2, settings={"rounds": 1})
    assert playtune.tournament("fragile", ["novice", "expert"], games=2, settings={"rounds": 3})


def test_a_bad_game_is_refused_by_field():
    class NoBots(Duel):
        name = "nobots"
        bots = []

    with pytest.raises(PlaytuneError, match="bots"):
        playtune.register_game(NoBots())

    class Shadow(Duel):
        name = "rinascimento"

    with pytest.raises(PlaytuneError, match="built-in game"):
        playtune.register_game(Shadow())
    with pytest.raises(PlaytuneError, match="edge=0.45"):
        playtune.tournament(DUEL_FILE, ["novice", "expert"], games=2, settings={"edge": 0.45})
