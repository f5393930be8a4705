"""A new user's first hour, outside the repository, with only the wheel (issue 72,
item 12): the docs' examples come from `playtune examples`, and a script that imports
its game from a module of its own runs as the docs show it."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _playtune(*args, cwd):
    """The wheel's command line, as a user with only the wheel runs it."""
    return subprocess.run([sys.executable, "-m", "playtune", *map(str, args)], cwd=cwd, capture_output=True, text=True)


def _repository_examples():
    """The files the docs' examples read: every example game and evaluator, every space."""
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "examples").glob("*/*") if p.is_file()}
    files |= {p.relative_to(ROOT).as_posix() for p in (ROOT / "spaces").glob("*.ron")}
    return files


def test_playtune_examples_writes_every_example_the_docs_name(tmp_path):
    p = _playtune("examples", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    written = {q.relative_to(tmp_path).as_posix() for q in tmp_path.rglob("*") if q.is_file()}
    assert written == _repository_examples()
    for f in written:
        assert (tmp_path / f).read_bytes() == (ROOT / f).read_bytes(), f
    again = _playtune("examples", cwd=tmp_path)
    assert again.returncode == 0 and "0 file(s) written" in again.stdout, again.stdout + again.stderr


def test_playtune_examples_never_overwrites_a_users_file(tmp_path):
    mine = tmp_path / "examples" / "duel" / "duel.py"
    mine.parent.mkdir(parents=True)
    mine.write_text("# my own duel\n")
    p = _playtune("examples", "duel", "tictactoe", cwd=tmp_path)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "examples/duel/duel.py exists and differs" in p.stderr, p.stderr
    assert mine.read_text() == "# my own duel\n"
    assert not (tmp_path / "examples" / "tictactoe").exists(), "a refused command wrote files"
    p = _playtune("examples", "chess", cwd=tmp_path)
    assert p.returncode == 2 and "no example `chess`: the examples are duel, tictactoe" in p.stderr, p.stderr


SCRIPT = '''
import playtune
from tictactoe import GAME

playtune.register_game(GAME, workers=1)
print(playtune.games.reference(GAME.name))
print(playtune.tournament(GAME.name, ["random", "osla"], games=2)["games"])
'''


def test_a_script_that_imports_its_game_records_the_module_that_defines_it(tmp_path):
    """own-rules.md's example, saved as a script beside the game's module: the game is
    the module's, so the script needs no main guard, and its runs name the module."""
    assert _playtune("examples", "tictactoe", cwd=tmp_path).returncode == 0
    folder = tmp_path / "examples" / "tictactoe"
    (folder / "design.py").write_text(SCRIPT)
    p = subprocess.run([sys.executable, "design.py"], cwd=folder, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    reference, games = p.stdout.split()
    assert reference == f"{folder / 'tictactoe.py'}:GAME", reference
    assert games == "2"
