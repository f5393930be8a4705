"""Run folders: the files the command line writes, resumed across languages."""

import filecmp
import os
import json
import shutil
from pathlib import Path

import pytest

import playtune
import playtune.runs

FILES = ["config.ron", "evals.csv", "result.ron"]
BITS = {"name": "bits", "dims": {f"b{i}": {"bool": True} for i in range(10)}}


def same_files(a, b, files=FILES):
    for f in files:
        assert Path(a, f).read_bytes() == Path(b, f).read_bytes(), f"{f} differs"


def test_a_python_run_writes_the_command_lines_files(cli, tmp_path):
    cli("optimize", "--problem", "noisy-onemax", "--set", "dims=12", "--budget", 120, "--trials", 2,
        "--seed", 5, "--runs-dir", tmp_path, "--name", "cli", "-q")
    with playtune.create_run("noisy-onemax", settings={"dims": 12}, budget=120, trials=2, seed=5,
                             runs_dir=tmp_path, name="py") as run:
        result = run.run(progress=False)
    assert result["trials"][0]["spent"]["search"] == 120
    same_files(tmp_path / "cli", tmp_path / "py")
    report = cli("report", tmp_path / "py", "--out", tmp_path / "report").stdout
    assert "report" in report.lower() or (tmp_path / "report").exists()


def test_map_elites_run_matches_the_command_line(cli, tmp_path):
    cli("map-elites", "--problem", "sphere", "--evaluations", 144, "--seed", 3, "--emitters", "gaussian,iso-line",
        "--runs-dir", tmp_path, "--name", "cli", "-q")
    run = playtune.create_run("sphere", algorithm="map-elites", budget=144, seed=3,
                              emitters=["gaussian", "iso-line"], runs_dir=tmp_path, name="py")
    run.run(progress=False)
    run.close()
    same_files(tmp_path / "cli", tmp_path / "py")


def test_a_python_run_stopped_midway_resumes_from_the_command_line(cli, tmp_path):
    cli("optimize", "--problem", "noisy-onemax", "--set", "dims=10", "--algo", "rmhc", "--budget", 80,
        "--seed", 9, "--runs-dir", tmp_path, "--name", "full", "-q")
    run = playtune.create_run("noisy-onemax", settings={"dims": 10}, algorithm="rmhc", budget=80, seed=9,
                              runs_dir=tmp_path, name="cut")
    for _ in range(7):  # seven batches evaluated, then the process "dies"
        run._folder.evaluate_waiting()
    run.close()
    assert not (tmp_path / "cut" / "result.ron").exists()
    out = json.loads(cli("resume", tmp_path / "cut", "--json", "-q").stdout.strip().splitlines()[-1])
    assert out["evaluations_reused"] > 0
    same_files(tmp_path / "full", tmp_path / "cut")


def test_a_command_line_run_cut_short_resumes_in_python(cli, tmp_path):
    cli("optimize", "--problem", "noisy-onemax", "--set", "dims=10", "--budget", 100, "--seed", 4,
        "--runs-dir", tmp_path, "--name", "full", "-q")
    cut = tmp_path / "cut"
    cut.mkdir()
    shutil.copy(tmp_path / "full" / "config.ron", cut / "config.ron")
    lines = (tmp_path / "full" / "evals.csv").read_text().splitlines(keepends=True)
    (cut / "evals.csv").write_text("".join(lines[:40]) + "0,39,sea")  # the last line half written
    playtune.resume(cut, progress=False)
    same_files(tmp_path / "full", cut)


def test_a_python_function_run_killed_by_ctrl_c_resumes_byte_identically(cli, tmp_path):
    def f(point, seed):
        return sum(point.values()) + (seed % 1000) / 1000.0

    full = playtune.create_run(space=BITS, budget=60, seed=2, runs_dir=tmp_path, name="full")
    full.run(f, progress=False)
    full.close()

    calls = []

    def interrupted(point, seed):
        calls.append(1)
        if len(calls) == 25:
            raise KeyboardInterrupt
        return f(point, seed)

    run = playtune.create_run(space=BITS, budget=60, seed=2, runs_dir=tmp_path, name="cut")
    with pytest.raises(KeyboardInterrupt):
        run.run(interrupted, progress=False)
    run.close()
    playtune.resume(tmp_path / "cut", f, progress=False)
    same_files(tmp_path / "full", tmp_path / "cut")
    # The command line reads it: a run evaluated outside playtune, finished.
    out = cli("resume", tmp_path / "cut", "-q").stdout
    assert "final value" in out


def test_ask_and_tell_across_languages(cli, tmp_path):
    space = tmp_path / "bits.ron"
    space.write_text("(name: \"bits\", dims: [" + ", ".join(
        f"(name: \"b{i}\", kind: Bool)" for i in range(6)) + "])")
    cli("optimize", "--problem", "manual", "--space", space, "--budget", 12, "--algo", "random", "--batch", 4,
        "--seed", 1, "--runs-dir", tmp_path, "--name", "both")
    run = playtune.open_run(tmp_path / "both")
    assert run.manual
    batch = run.ask()
    assert len(batch) == 4
    run.tell([(c, float(sum(c["values"]))) for c in batch[:2]] + [(batch[2], "the simulator crashed"),
                                                                   (batch[3], {"fitness": 1.0})])
    with pytest.raises(playtune.PlaytuneError, match="not waiting"):
        run.tell([({"trial": 0, "id": 99}, 1.0)])
    run.close()
    # The command line takes the next batch...
    asked = [json.loads(l) for l in cli("ask", tmp_path / "both", "--n", 4).stdout.splitlines()]
    assert [a["id"] for a in asked] == [4, 5, 6, 7]
    results = "".join(json.dumps({"id": a["id"], "fitness": 0.5}) + "\n" for a in asked)
    cli("tell", tmp_path / "both", input=results)
    # ...and Python finishes it with a function.
    result = playtune.resume(tmp_path / "both", lambda p: float(sum(p.values())), progress=False)
    assert result["trials"][0]["spent"]["failed"] == 1
    failures = (tmp_path / "both" / "failures.jsonl").read_text()
    assert "the simulator crashed" in failures


def test_an_exception_in_the_function_is_a_recorded_failure(tmp_path):
    def f(point):
        if point["b0"]:
            raise RuntimeError("no b0")
        return 1.0

    with playtune.create_run(space=BITS, algorithm="random", budget=40, seed=3, runs_dir=tmp_path,
                             max_failures=1.0) as run:
        result = run.run(f, progress=False)
    assert result["trials"][0]["spent"]["failed"] > 0
    failures = [json.loads(l) for l in Path(run.path, "failures.jsonl").read_text().splitlines()]
    assert failures[0]["reason"] == "RuntimeError: no b0" and failures[0]["attempts"] == 3


def test_a_flaky_function_is_tried_again_with_the_same_seed(tmp_path):
    seen = {}

    def flaky(point, seed):
        seen[seed] = seen.get(seed, 0) + 1
        if seen[seed] == 1:
            raise OSError("flaky")
        return 1.0

    with playtune.create_run(space=BITS, algorithm="random", budget=20, seed=3, runs_dir=tmp_path) as run:
        result = run.run(flaky, progress=False)
    assert result["trials"][0]["spent"].get("failed", 0) == 0 and set(seen.values()) == {2}


def test_a_folder_open_here_is_locked_for_others(cli, tmp_path):
    run = playtune.create_run("noisy-onemax", budget=20, runs_dir=tmp_path, name="locked")
    p = cli("resume", tmp_path / "locked", "-q", ok=False)
    assert p.returncode != 0 and "panicked" not in p.stderr
    run.close()
    playtune.resume(tmp_path / "locked", progress=False)


def test_run_errors_carry_the_command_lines_messages(cli, tmp_path):
    with pytest.raises(playtune.PlaytuneError) as e:
        playtune.create_run("no-such-problem", runs_dir=tmp_path)
    p = cli("optimize", "--problem", "no-such-problem", "--runs-dir", tmp_path, ok=False)
    # The same message; the command line names its flags where Python names the argument.
    assert str(e.value).split(": ", 1)[1] in p.stderr
    with pytest.raises(playtune.PlaytuneError, match="run at least one trial"):
        playtune.create_run("noisy-onemax", trials=0, runs_dir=tmp_path)
    with pytest.raises(playtune.PlaytuneError, match="one plain name"):
        playtune.create_run("noisy-onemax", name="../x", runs_dir=tmp_path)
    with pytest.raises(playtune.PlaytuneError, match="needs a space"):
        playtune.create_run(runs_dir=tmp_path)
    with pytest.raises(playtune.PlaytuneError) as e:
        playtune.open_run(tmp_path / "nothing-here")
    p = cli("resume", tmp_path / "nothing-here", ok=False)
    assert str(e.value) in p.stderr
    run = playtune.create_run(space=BITS, budget=10, runs_dir=tmp_path)
    with pytest.raises(playtune.PlaytuneError, match="give run\\(\\) a Python function"):
        run.run(progress=False)
    with pytest.raises(playtune.PlaytuneError, match="fitness"):
        run.tell([(run.ask()[0], "x" * 0 or {"features": {}})])


def test_a_space_file_is_recorded_as_the_command_line_records_it(cli, tmp_path):
    space = tmp_path / "bits.ron"
    space.write_text("(name: \"bits\", dims: [" + ", ".join(
        f"(name: \"b{i}\", kind: Bool)" for i in range(6)) + "])")
    cli("optimize", "--problem", "manual", "--space", space, "--budget", 12, "--seed", 1,
        "--runs-dir", tmp_path, "--name", "cli")
    playtune.create_run(space=space, budget=12, seed=1, runs_dir=tmp_path, name="py").close()
    same_files(tmp_path / "cli", tmp_path / "py", ["config.ron"])


def test_a_map_elites_run_folder_by_numpy_batches(cli, tmp_path):
    import numpy as np

    space = {"name": "plane", "dims": {"x": {"float": [-1.0, 1.0], "levels": 21},
                                       "y": {"float": [-1.0, 1.0], "levels": 21}}}
    run = playtune.create_run(space=space, algorithm="map-elites", budget=60, seed=2, runs_dir=tmp_path,
                              name="me", features=["fx", "fy"], axes=["fx=-1:1:4", "fy=-1:1:4"], batch=20)
    while True:
        batch, x = run.ask_array()
        if not batch:
            break
        assert x.shape == (len(batch), 2)
        run.tell_array(batch, -np.sum(x**2, axis=1), x)
    assert run.finished()
    trial = run.result()["trials"][0]
    run.close()
    assert trial["history"][-1]["filled"] >= 4
    cli("report", tmp_path / "me")


def test_a_result_told_twice_is_recorded_once_and_never_replaced(tmp_path):
    run = playtune.create_run(space=BITS, algorithm="random", budget=8, seed=1, runs_dir=tmp_path, batch=4)
    batch = run.ask()
    run.tell([(c, 1.0) for c in batch[:2]])
    # The same result again is nothing new (as `playtune tell` takes it); another one
    # would replace a recorded result, and is refused.
    run.tell([(batch[0], 1.0)])
    with pytest.raises(playtune.PlaytuneError, match="not waiting"):
        run.tell([(batch[0], 3.0)])
    run.tell([(c, 2.0) for c in batch[2:]])
    assert [c["id"] for c in run.ask()] == [4, 5, 6, 7]
    assert len(Path(run.path, "evals.csv").read_text().splitlines()) == 5
    run.close()


def test_a_function_run_reads_its_folder_once_not_at_every_batch(tmp_path):
    # NTBEA asks one candidate at a time: a run that replayed its logs at every batch
    # (as ask() and tell() do) would replay 200 times.
    space = {"name": "bits", "dims": {f"b{i}": {"bool": True} for i in range(20)}}
    calls = []

    def f(point, seed):
        calls.append(seed)
        return sum(point.values()) + (seed % 1000) / 1000.0

    before = playtune._playtune._replay_count()
    with playtune.create_run(space=space, algorithm="ntbea", budget=200, seed=1, runs_dir=tmp_path,
                             name="once") as run:
        result = run.run(f, progress=False)
        assert playtune._playtune._replay_count() == before
        assert len(calls) == 200 == len(set(calls))
        assert result["trials"][0]["spent"]["search"] + result["trials"][0]["spent"]["select"] == 200
        # Asked again, a finished run gives its result without evaluating anything.
        assert run.run(f, progress=False)["trials"] == result["trials"] and len(calls) == 200
    with playtune.open_run(tmp_path / "once") as run:
        assert run.finished()
    assert playtune._playtune._replay_count() == before + 1


def _ask_and_tell_by_hand(run, func, attempts):
    """The file protocol: every batch asked, evaluated and told, the folder replayed each time."""
    while True:
        batch = run.ask()
        if not batch:
            return run.result()
        told = []
        for c in batch:
            for attempt in range(1, attempts + 1):
                try:
                    r = func(c["point"], c["seed"])
                except Exception as e:
                    r = f"{type(e).__name__}: {e}"
                if not isinstance(r, str):
                    break
            told.append((c["trial"], c["id"], r, attempt))
        run._folder.tell(told)


def test_a_function_run_writes_what_asking_and_telling_by_hand_writes(tmp_path):
    def flaky(point, seed):
        if seed % 7 == 0:
            raise RuntimeError(f"crash {seed % 3}")
        if seed % 11 == 0:
            return "told as a failure"
        return {"fitness": sum(point.values()) + (seed % 100) / 100, "features": {"ones": sum(point.values())}}

    kw = dict(space=BITS, algorithm="random", budget=48, trials=3, seed=3, batch=4, max_failures=1.0,
              features=["ones"])
    with playtune.create_run(runs_dir=tmp_path, name="driven", **kw) as run:
        driven = run.run(flaky, progress=False)
    with playtune.create_run(runs_dir=tmp_path, name="by-hand", **kw) as run:
        by_hand = _ask_and_tell_by_hand(run, flaky, run._folder.attempts)
    assert driven["trials"] == by_hand["trials"] and driven["spent"]["failed"] > 0
    same_files(tmp_path / "driven", tmp_path / "by-hand", FILES + ["failures.jsonl"])


def test_system_exit_in_the_function_stops_the_run_and_is_raised_again(tmp_path):
    def f(point, seed):
        return sum(point.values()) + (seed % 1000) / 1000.0

    with playtune.create_run(space=BITS, algorithm="rmhc", budget=40, seed=6, runs_dir=tmp_path, name="full") as run:
        run.run(f, progress=False)
    calls = []

    def leaves(point, seed):
        calls.append(1)
        if len(calls) == 15:
            raise SystemExit(3)
        return f(point, seed)

    with playtune.create_run(space=BITS, algorithm="rmhc", budget=40, seed=6, runs_dir=tmp_path, name="cut") as run:
        with pytest.raises(SystemExit):
            run.run(leaves, progress=False)
    assert len(calls) == 15 and not (tmp_path / "cut" / "result.ron").exists()
    assert len((tmp_path / "cut" / "evals.csv").read_text().splitlines()) == 1 + 14
    playtune.resume(tmp_path / "cut", f, progress=False)
    same_files(tmp_path / "full", tmp_path / "cut")


def test_a_result_that_is_none_stops_the_run_with_the_reason(tmp_path):
    with playtune.create_run(space=BITS, algorithm="rmhc", budget=20, seed=6, runs_dir=tmp_path) as run:
        with pytest.raises(playtune.PlaytuneError, match="NaN"):
            run.run(lambda point: float("nan"), progress=False)
        assert not Path(run.path, "result.ron").exists()


def test_a_raced_python_run_writes_the_command_lines_files_with_its_baseline(cli, tmp_path):
    """`race_baseline` is `--race-baseline`: the same folder either way, and the
    synthetic design benchmark's baseline (its default rules) raced as an incumbent."""
    cli("optimize", "--problem", "synthetic-design", "--algo", "random", "--budget", 80,
        "--seed", 3, "--race-baseline", "incumbent", "--verdict", 0, "--runs-dir", tmp_path,
        "--name", "cli", "-q")
    with playtune.create_run("synthetic-design", algorithm="random", budget=80, seed=3,
                             runs_dir=tmp_path, name="py", race_baseline="incumbent") as run:
        assert run.config()["race"]["baseline"] == "Incumbent"
        run.run(progress=False, verdict=0)
    same_files(tmp_path / "cli", tmp_path / "py")
    raced = [line for line in (tmp_path / "py" / "evals.csv").read_text().splitlines()
             if ",race," in line]
    assert raced, "the run raced"
    with playtune.create_run("synthetic-design", budget=80, runs_dir=tmp_path) as run:
        assert run.config()["race"]["baseline"] == "Entrant"
    with pytest.raises(playtune.PlaytuneError, match="race_baseline"):
        playtune.create_run("synthetic-design", budget=80, runs_dir=tmp_path,
                            race_baseline="sideways")


def test_an_intensified_python_run_writes_the_command_lines_files(cli, tmp_path):
    """NTBEA intensifies by default on a problem judged against its baseline, from
    Python as from the command line, to the same files; `intensify=False` is
    `--no-intensify`."""
    cli("optimize", "--problem", "synthetic-design", "--budget", 60, "--seed", 4,
        "--verdict", 0, "--runs-dir", tmp_path, "--name", "cli", "-q")
    with playtune.create_run("synthetic-design", budget=60, seed=4, runs_dir=tmp_path,
                             name="py") as run:
        assert run.config()["intensify"]["max_evaluations"] == 8
        run.run(progress=False, verdict=0)
    same_files(tmp_path / "cli", tmp_path / "py")
    with playtune.create_run("synthetic-design", budget=60, runs_dir=tmp_path,
                             intensify=False) as run:
        assert "intensify" not in run.config()


def test_a_resumed_runs_progress_counts_the_evaluations_its_log_holds(tmp_path, monkeypatch):
    # Issue 58, class 12: the bar stopped at 124 of 200, reused evaluations uncounted.
    run = playtune.create_run("noisy-onemax", settings={"dims": 4}, budget=200, seed=1, runs_dir=tmp_path)
    run.run(progress=False)
    run.close()
    log = Path(run.path) / "evals.csv"
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[: 1 + 124]) + "\n")
    (Path(run.path) / "result.ron").unlink()
    counted = []

    class Recorder:
        def __init__(self, show, total, what="evaluations"):
            self.n = 0
            counted.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            pass

    monkeypatch.setattr(playtune.runs, "_Progress", Recorder)
    playtune.resume(run.path, progress=True)
    assert counted[0].n == 200


@pytest.mark.parametrize("share", [0.99, 0.001])
def test_a_race_share_the_budget_cannot_honour_is_refused(share, tmp_path):
    # Issue 58, class 5: written to config.ron and silently not run, before.
    with pytest.raises(playtune.PlaytuneError, match="budget of 40"):
        playtune.create_run("synthetic-design", budget=40, race=share, runs_dir=tmp_path)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("budget", [8, 40])
def test_the_progress_bar_reaches_the_last_evaluation(tmp_path, monkeypatch, capsys, budget):
    # The plain bar (tqdm hidden) prints its count: it must end at the budget, not one
    # batch short of it (the driver's end was seen before the last count was shown).
    monkeypatch.setitem(__import__("sys").modules, "tqdm", None)
    monkeypatch.setitem(__import__("sys").modules, "tqdm.auto", None)
    with playtune.create_run("noisy-onemax", settings={"dims": 6}, budget=budget, seed=3,
                             runs_dir=tmp_path, name="bar") as run:
        run.run(progress=True)
    err = capsys.readouterr().err
    counts = [int(p.split("/")[0]) for p in err.replace("\r", "\n").split() if f"/{budget}" in p]
    assert counts and counts[-1] == budget, err


DUEL = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples", "duel", "duel.ron")


def test_python_and_the_command_line_make_the_same_run_folder(tmp_path, capfd, cli):
    """One sequence creates a run (issue 74, item 1): `playtune optimize` and
    `create_run` make the same `config.ron` from the same arguments (race, intensify
    and verdict chosen alike), and both check the ladder and say the cost first."""
    made = cli("optimize", "--problem", "design", "--set", f"game={DUEL}", "--set", "games=4",
               "--budget", "10", "--seed", "5", "--runs-dir", tmp_path, "--name", "cli")
    assert "ladder check: novice, club, expert is ordered at duel's own rules" in made.stderr, made.stderr
    assert "timing evaluations of the baseline" in made.stderr, made.stderr
    with playtune.create_run("design", settings={"game": DUEL, "games": 4}, budget=10, seed=5,
                             runs_dir=tmp_path, name="py"):
        pass
    err = capfd.readouterr().err
    assert "ladder check: novice, club, expert is ordered at duel's own rules" in err, err
    assert "timing evaluations of the baseline" in err, err
    by_cli = (tmp_path / "cli" / "config.ron").read_text()
    by_python = (tmp_path / "py" / "config.ron").read_text()
    assert by_python == by_cli, f"command line:\n{by_cli}\nPython:\n{by_python}"
    assert "race: Some(" in by_cli and "verdict: Some(" in by_cli and "intensify: Some(" in by_cli, by_cli


def test_a_design_run_from_python_checks_its_ladder_and_says_its_cost(tmp_path, capfd):
    """create_run does what `playtune optimize --problem design` does before the search
    (issue 72, item 14): the ladder checked at the game's own rules, and the run's cost
    said; `ladder_check="off"` skips the check, `quiet=True` says nothing."""
    playtune.create_run("design", settings={"game": DUEL, "games": 4}, budget=10, runs_dir=tmp_path, name="told")
    err = capfd.readouterr().err
    assert "ladder check: novice, club, expert is ordered at duel's own rules" in err, err
    assert "timing evaluations of the baseline" in err, err
    playtune.create_run("design", settings={"game": DUEL, "games": 4}, budget=10, runs_dir=tmp_path, name="off",
                        ladder_check="off")
    err = capfd.readouterr().err
    assert "ladder check" not in err and "timing evaluations" in err, err
    playtune.create_run("design", settings={"game": DUEL, "games": 4}, budget=10, runs_dir=tmp_path, name="quiet",
                        quiet=True)
    assert capfd.readouterr().err == ""
    with pytest.raises(playtune.PlaytuneError, match="ladder_check_games=3: give 10 to"):
        playtune.create_run("design", settings={"game": DUEL}, budget=10, runs_dir=tmp_path, name="few",
                            ladder_check_games=3)
    with pytest.raises(playtune.PlaytuneError, match='ladder_check="maybe": one of "warn", "use", "off"'):
        playtune.create_run("design", settings={"game": DUEL}, budget=10, runs_dir=tmp_path, name="bad",
                            ladder_check="maybe")
