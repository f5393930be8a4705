"""A Python game that lingers at its exit (an ``atexit`` handler that waits, a
``multiprocessing`` child that lives on) holds neither the command line nor the script
that registered it: its process ends once its work is done, and what it started is
killed with it, as a Node game's is (issue 72, item 4)."""
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LINGERING = '''
import atexit, multiprocessing, os, sys, time
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, {examples!r})
import playtune
import tictactoe


def _child(path):
    with open(path, "a") as f:
        f.write(f"{{os.getpid()}}\\n")
    time.sleep(60)


def _at_exit():
    open(os.path.join(HERE, "atexit-ran"), "w").close()
    time.sleep(8)


if os.environ.get("PLAYTUNE_WORKER") == "1":  # in a game process only
    atexit.register(_at_exit)
    multiprocessing.Process(target=_child, args=(os.path.join(HERE, "children"),)).start()

GAME = tictactoe.TicTacToe()

if __name__ == "__main__":
    playtune.register_game(GAME, workers=1)
    print(playtune.tournament(GAME.name, ["random", "osla"], games=2)["games"])
'''


@pytest.fixture
def lingering(tmp_path):
    path = tmp_path / "lingering.py"
    path.write_text(LINGERING.format(examples=os.path.join(ROOT, "examples", "tictactoe")))
    return path


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] not in "ZX"
    except OSError:
        return False


def _children_gone(folder):
    pids = [int(x) for x in (folder / "children").read_text().split()]
    assert pids, "the game started no child"
    for _ in range(50):  # a killed process is gone within moments
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def test_the_command_line_is_not_held_by_a_game_that_lingers(cli, lingering):
    out = cli("games", f"{lingering}:GAME")
    assert "tictactoe" in out.stdout, out.stdout
    assert not (lingering.parent / "atexit-ran").exists(), "the game's exit handler held the command"
    assert _children_gone(lingering.parent), "a child the game started outlived the command"


def test_the_registering_script_is_not_held_by_a_game_that_lingers(lingering):
    p = subprocess.run([sys.executable, str(lingering)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "2", p.stdout
    assert not (lingering.parent / "atexit-ran").exists(), "the game's exit handler held the script"
    assert _children_gone(lingering.parent), "a child the game started outlived the script"
