"""Python games played in worker processes over the match protocol, named by a
reference (`FILE.py:NAME`) that every command resolves: the same figures as in process,
runs made from Python that end with a verdict and that the command line then
reevaluates, reports and resumes; OpenSpiel's bots play fair and reach every
2-player game OpenSpiel registers."""
import math
import os
import sys

import pytest

import playtune

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import worker_games  # noqa: E402

# The command line starts Python games with this interpreter (the one with playtune).
os.environ["PLAYTUNE_PYTHON"] = sys.executable


def test_a_module_level_game_is_named_by_its_reference():
    name = playtune.register_game(worker_games.DUEL, workers=2)
    assert playtune.games.reference(name) == os.path.join(HERE, "worker_games.py") + ":DUEL"


def test_the_same_tournament_in_process_and_in_workers():
    in_workers = playtune.register_game(worker_games.DUEL, workers=2)
    figures = playtune.tournament(in_workers, ["novice", "club", "expert"], games=60, seed=5,
                                  settings={"edge": 0.4, "rounds": 7})
    worker_games.DUEL.name = "duel-here"
    try:
        here = playtune.register_game(worker_games.DUEL, in_process=True)
        same = playtune.tournament(here, ["novice", "club", "expert"], games=60, seed=5,
                                   settings={"edge": 0.4, "rounds": 7})
    finally:
        worker_games.DUEL.name = "duel-in-workers"
    assert [a["wins"] for a in figures["agents"]] == [a["wins"] for a in same["agents"]]
    assert figures["pairs"] == same["pairs"]
    assert figures["design"] == same["design"]


def _design_run_then_the_command_line(cli, game, tmp_path, settings):
    run = playtune.create_run("design", settings={"game": game, **settings}, budget=16, seed=3,
                              runs_dir=tmp_path, name="from-python", race=0)
    result = run.run(progress=False, verdict=6)
    run.close()
    verdict = result["trials"][0]["verdict"]
    assert verdict["evaluations"] == 6 and verdict["sentence"]
    folder = tmp_path / "from-python"
    assert "verdict" in (folder / "result.ron").read_text()
    config = (folder / "config.ron").read_text()
    assert "worker_games.py:" in config, config
    # The command line reaches the game by the reference the run recorded.
    out = cli("reevaluate", folder, "-n", "3").stdout
    assert "skill depth" in out or "skill_depth" in out, out
    cli("report", folder)
    assert (folder / "report.html").exists() or any(folder.glob("report*"))
    cli("resume", folder)


def test_a_python_class_run_from_python_ends_with_a_verdict_the_command_line_reaches(cli, tmp_path):
    name = playtune.register_game(worker_games.DUEL, workers=2)
    _design_run_then_the_command_line(cli, name, tmp_path, {"games": 6})


def test_an_openspiel_run_from_python_ends_with_a_verdict_the_command_line_reaches(cli, tmp_path):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    name = playtune.register_game(worker_games.PIG, workers=2)
    _design_run_then_the_command_line(cli, name, tmp_path, {"games": 4})


def test_a_game_made_in_a_function_plays_in_process_and_says_so():
    class Local(playtune.Game):
        name = "local-duel"
        settings = {"rounds": {"int": [1, 5], "default": 3}}
        bots = [{"name": "a"}, {"name": "b"}]

        def __init__(self, x):
            self.x = x

        def play(self, match):
            return {"scores": [1, 0], "winners": [0], "length": 1}

    with pytest.warns(UserWarning, match="no other process can name it"):
        playtune.register_game(Local(1))
    assert playtune.games.reference("local-duel") == "local-duel"
