"""The built-in problems and games from Python; the GIL released while games play;
Ctrl-C stopping a run cleanly."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import playtune

RULES = {"game": "rinascimento", "ladder": "rnd,osla(budget=50)", "games": 4, "game_settings": "players=2"}


def test_the_catalogue_names_every_game_and_problem():
    problems, games = playtune.catalogue()
    assert {"space-battle", "rinascimento", "strategy"} <= {g for g, _ in games}
    assert {"noisy-onemax", "design", "tune-agent", "strategy-styles", "manual"} <= {p for p, _ in problems}


def test_evaluate_any_problem_with_a_seed():
    a = playtune.evaluate("noisy-onemax", {"x0": 1}, seed=3, settings={"dims": 4})
    assert a == playtune.evaluate("noisy-onemax", {"x0": 1}, seed=3, settings={"dims": 4})
    assert a != playtune.evaluate("noisy-onemax", {"x0": 1}, seed=4, settings={"dims": 4})
    d = playtune.evaluate("design", {}, seed=1, settings=RULES)
    assert -1.0 <= d["fitness"] <= 1.0
    for metric in ("seat_advantage", "draw_rate", "stalemate_rate", "lead_changes", "decided_at"):
        assert metric in d["features"]
    info = playtune.problem_info("strategy-styles")
    space, features, tie_break, axes = info
    assert len(space) == 11 and tie_break == "mean_score" and [a["name"] for a in axes] == ["attacks", "ranged_minus_melee"]
    # Named, as well as a tuple.
    assert isinstance(info, playtune.ProblemInfo)
    assert (info.space, info.features, info.tie_break, info.axes) == (space, features, tie_break, axes)


def test_a_tournament_between_agent_specs_of_each_game():
    r = playtune.tournament("space-battle", ["ras", "1sla"], games=4, seed=1)
    assert [a["name"] for a in r["agents"]] == ["ras", "1sla"] and r["games"] == 4
    assert len(r["design"]["seat_win_rate"]) == 2
    r = playtune.tournament("rinascimento", ["osla", "rnd"], games=4, seed=1, settings={"players": 2}, budget=50)
    assert abs(sum(a["wins"] for a in r["agents"]) - 4) <= 4
    r = playtune.tournament("strategy", [], games=2, seed=1, settings={"turns": 10})
    assert r["games"] == 2


def test_bad_game_input_raises_the_command_lines_message():
    with pytest.raises(playtune.PlaytuneError, match="unknown game"):
        playtune.tournament("chess", ["a", "b"])
    with pytest.raises(playtune.PlaytuneError, match="one agent per player"):
        playtune.tournament("rinascimento", ["osla", "rnd"], games=2)
    with pytest.raises(playtune.PlaytuneError, match="at least one game"):
        playtune.tournament("space-battle", ["ras", "ras"], games=0)
    with pytest.raises(playtune.PlaytuneError, match="not a value"):
        playtune.evaluate("noisy-onemax", {"x0": 7})
    # 2-player rules fix `players`: a point with 3 would be another game.
    with pytest.raises(playtune.PlaytuneError, match="`players` is fixed at 2 in this space, and the point gives 3"):
        playtune.evaluate("design", {"players": 3}, settings=RULES)
    with pytest.raises(playtune.PlaytuneError, match="not a dimension"):
        playtune.evaluate("noisy-onemax", {"nope": 1})
    with pytest.raises(playtune.PlaytuneError, match="unknown setting|no setting|setting"):
        playtune.evaluate("noisy-onemax", {}, settings={"colour": "red"})


def test_the_gil_is_released_while_games_play():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    started = time.perf_counter()
    playtune.tournament("space-battle", ["1sla", "1sla"], games=96, seed=2)
    took = time.perf_counter() - started
    done.set()
    t.join()
    # A thread holding the GIL for the whole tournament would leave the counter at ~0.
    assert took < 0.05 or len(ticks) >= took * 1000 * 0.2


def test_ctrl_c_stops_a_run_cleanly_and_it_resumes_to_the_same_files(cli, tmp_path):
    script = f"""
import playtune
run = playtune.create_run("design", settings={RULES!r}, algorithm="random", budget=800, seed=4,
                          runs_dir={str(tmp_path)!r}, name="cut", batch=8)
print("started", flush=True)
run.run(progress=False)
"""
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "started"
    # Signalled once the log holds a batch (its header and 8 rows), not after some time:
    # a busy machine may have evaluated nothing yet, or an idle one everything.
    log = tmp_path / "cut" / "evals.csv"
    while not (log.exists() and len(log.read_text().splitlines()) >= 9):
        assert p.poll() is None, p.communicate()
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode != 0, "the run was meant to be interrupted; make it longer"
    assert "KeyboardInterrupt" in err and "interrupted: every evaluation done is in" in err
    assert "panicked" not in err
    assert not (tmp_path / "cut" / "result.ron").exists()
    playtune.resume(tmp_path / "cut", progress=False)
    cli("optimize", "--problem", "design", *sum((["--set", f"{k}={v}"] for k, v in RULES.items()), []),
        "--algo", "random", "--batch", 8, "--budget", 800, "--seed", 4, "--runs-dir", tmp_path, "--name", "full", "-q")
    # Both judged, at the same default size: the verdicts are the same bytes too.
    assert "verdict" in Path(tmp_path, "cut", "result.ron").read_text()
    for f in ("config.ron", "evals.csv", "result.ron"):
        assert Path(tmp_path, "full", f).read_bytes() == Path(tmp_path, "cut", f).read_bytes(), f


def test_the_command_lines_design_object_has_pythons_shape(cli):
    # Issue 58, class 12: one shape for the tournament's design metrics.
    import json

    here = playtune.tournament("space-battle", ["ras", "1sla"], games=2, seed=1)
    out = cli("tournament", "--game", "space-battle", "--agents", "ras,1sla", "--games", "2", "--seed", "1", "--json")
    there = json.loads(out.stdout.strip().splitlines()[-1])["design"]
    assert set(there) == set(here["design"])
    assert there["seat_win_rate"] == here["design"]["seat_win_rate"]
