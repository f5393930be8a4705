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


def test_a_play_that_never_returns_is_interrupted_at_its_timeout():
    class Endless(Duel):
        name = "endless"

        def play(self, match):
            if match["settings"]["rounds"] == 1:
                while True:
                    pass
            return super().play(match)

    playtune.register_game(Endless(), in_process=True, timeout=0.5)
    import time

    start = time.monotonic()
    with pytest.raises(PlaytuneError, match="longer than the match timeout of 0.5 s"):
        playtune.tournament("endless", ["novice", "expert"], games=2, settings={"rounds": 1})
    assert time.monotonic() - start < 30
    # The thread that played it plays on, no exception left pending in it.
    assert playtune.tournament("endless", ["novice", "expert"], games=4, settings={"rounds": 3})["games"] == 4


@pytest.mark.parametrize("raised", [KeyboardInterrupt, SystemExit])
def test_keyboard_interrupt_or_system_exit_in_play_stops_and_is_raised(raised, tmp_path):
    class Quitting(Duel):
        name = "quitting"

        def play(self, match):
            if match["seed"] % 3 == 0:
                raise raised()
            return super().play(match)

    playtune.register_game(Quitting(), in_process=True)
    with pytest.raises(raised):
        playtune.tournament("quitting", ["novice", "expert"], games=20)
    # The games create_run plays before the search (the ladder check, the cost's
    # timing) stop alike, and no folder is made.
    with pytest.raises(raised):
        playtune.create_run("design", settings={"game": "quitting", "games": 4}, budget=40,
                            seed=1, runs_dir=tmp_path / "checked")
    assert not (tmp_path / "checked").exists() or not any((tmp_path / "checked").iterdir())
    run = playtune.create_run("design", settings={"game": "quitting", "games": 4}, budget=40,
                              seed=1, runs_dir=tmp_path, ladder_check="off", quiet=True)
    with pytest.raises(raised):
        run.run(progress=False, verdict=0)
    run.close()
    # Stopped, not completed with failures tried again.
    assert not os.path.exists(os.path.join(run.path, "result.ron"))


def test_a_play_that_calls_playtune_is_refused_not_deadlocked():
    class Recursive(Duel):
        name = "recursive"

        def play(self, match):
            playtune.tournament(DUEL_FILE, ["novice", "expert"], games=1)
            return super().play(match)

    playtune.register_game(Recursive(), in_process=True)
    with pytest.raises(PlaytuneError, match="would wait on that very match"):
        playtune.tournament("recursive", ["novice", "expert"], games=2)


def test_ctrl_c_interrupts_a_play_that_never_returns(tmp_path):
    import signal
    import subprocess
    import time

    script = tmp_path / "endless.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {os.path.join(ROOT, 'examples', 'duel')!r})\n"
        "import playtune\n"
        "from duel_class import Duel\n"
        "class Endless(Duel):\n"
        "    name = 'endless'\n"
        "    def play(self, match):\n"
        "        while True:\n"
        "            pass\n"
        "playtune.register_game(Endless(), in_process=True, timeout=600)\n"
        "print('playing', flush=True)\n"
        "try:\n"
        "    playtune.tournament('endless', ['novice', 'expert'], games=4)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "playing"
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert "interrupted" in out and p.returncode == 0
