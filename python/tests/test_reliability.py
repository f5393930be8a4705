"""Reliability of the journal export and of the Python API (issue 44): damaged files,
wrong arguments and concurrent use give clear errors, never a panic, a bogus result or
a file left behind."""

import errno
import json
import os
import re
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import pytest

import playtune
import playtune.journal

BITS = {"name": "bits", "dims": {f"b{i}": {"bool": True} for i in range(6)}}
MIXED = {"name": "mixed", "dims": {"n": {"int": [1, 9], "step": 2}, "c": {"categories": ["a", "b"]},
                                   "f": {"float": [0.0, 2.0], "levels": 5}}}


def _journal_trials(out):
    return [json.loads(line) for line in Path(out).read_text().splitlines()
            if json.loads(line)["op_code"] == 4]


def _run_with_failures(tmp_path, name="fails"):
    """A finished manual run with some failures recorded in failures.jsonl."""

    def f(p):
        if p["c"] == "b":
            raise ValueError("refused")
        return p["n"] + p["f"]

    with playtune.create_run(space=MIXED, algorithm="random", budget=30, seed=3, runs_dir=tmp_path,
                             name=name, max_failures=1.0, retries=0) as run:
        run.run(f, progress=False)
    return Path(run.path)


# Class 7: the journal export.

def test_damaged_failure_lines_are_named_and_skipped_never_bogus_trials(tmp_path):
    run = _run_with_failures(tmp_path)
    failures = run / "failures.jsonl"
    lines = failures.read_text().splitlines()
    assert lines, "the run records failures"
    real = json.loads(lines[0])
    clean = playtune.journal.export_journal(run, tmp_path / "clean.journal")
    expected = _journal_trials(tmp_path / "clean.journal")

    def variant(**changes):
        r = dict(real, index=10_000 + len(damaged))
        r.update(changes)
        return json.dumps(r)

    damaged = []
    damaged.append("this is not JSON")
    damaged.append(variant(attempts=0))
    damaged.append(variant(phase="bogus"))
    damaged.append(variant(trial=-1))
    damaged.append(variant(values="abc"))
    damaged.append(variant(values=[99.0, 99.0, 99.0]))  # not a point of the space
    damaged.append(variant(values=[1.0]))  # too few values
    r = dict(real, index=10_000 + len(damaged))
    del r["reason"]
    damaged.append(json.dumps(r))
    damaged.append(variant(seed=1.5))
    damaged.append(variant(trial=1))  # the run has one trial
    with failures.open("a") as f:
        for line in damaged:
            f.write(line + "\n")
        f.write(variant(index=20_000)[:-5])  # a half-written last line: dropped silently
    with pytest.warns(UserWarning) as caught:
        assert playtune.journal.export_journal(run, tmp_path / "run.journal") == clean
    message = " ".join(str(w.message) for w in caught)
    assert str(failures) in message
    for number in range(len(lines) + 1, len(lines) + len(damaged) + 1):
        assert f"line {number}:" in message, message
    assert f"line {len(lines) + len(damaged) + 1}:" not in message  # the half-written one
    assert _journal_trials(tmp_path / "run.journal") == [
        dict(t, worker_id=_journal_trials(tmp_path / "run.journal")[0]["worker_id"]) for t in expected]


def test_a_failure_recorded_twice_is_one_trial_the_later_copy_winning(tmp_path):
    run = _run_with_failures(tmp_path)
    failures = run / "failures.jsonl"
    first = json.loads(failures.read_text().splitlines()[0])
    with failures.open("a") as f:
        f.write(json.dumps(dict(first, reason="the later copy")) + "\n")
    playtune.journal.export_journal(run, tmp_path / "run.journal")
    same = [t for t in _journal_trials(tmp_path / "run.journal")
            if (t["user_attrs"]["playtune_trial"], t["user_attrs"]["playtune_index"]) == (first["trial"], first["index"])]
    assert len(same) == 1 and same[0]["user_attrs"]["failure"] == "the later copy"


def _snapshot(folder):
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in Path(folder).iterdir()}


def test_the_export_reads_a_folder_another_process_holds_and_writes_nothing_there(tmp_path):
    run = _run_with_failures(tmp_path)
    before = _snapshot(run)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time, playtune; r = playtune.open_run(sys.argv[1]); print('held', flush=True); time.sleep(60)",
         str(run)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        playtune.journal.export_journal(run, tmp_path / "run.journal")
    finally:
        holder.kill()
        holder.wait()
    assert _journal_trials(tmp_path / "run.journal")
    after = _snapshot(run)
    del before[".playtune.lock"], after[".playtune.lock"]  # the holder's record
    assert after == before


def test_the_export_writes_nothing_into_the_run_folder(tmp_path):
    run = _run_with_failures(tmp_path)
    before = _snapshot(run)
    playtune.journal.export_journal(run, tmp_path / "run.journal")
    assert _snapshot(run) == before


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_the_export_reads_a_read_only_folder(tmp_path):
    run = _run_with_failures(tmp_path)
    os.chmod(run, 0o555)
    try:
        playtune.journal.export_journal(run, tmp_path / "run.journal")
    finally:
        os.chmod(run, 0o755)
    assert _journal_trials(tmp_path / "run.journal")


def test_a_changed_log_row_is_named_and_left_out_as_report_leaves_it_out(tmp_path):
    run = _run_with_failures(tmp_path)
    log = run / "evals.csv"
    rows = log.read_text().splitlines(keepends=True)
    playtune.journal.export_journal(run, tmp_path / "clean.journal")
    complete = [t for t in _journal_trials(tmp_path / "clean.journal") if t["state"] == 1]
    rows[1] = rows[1].replace(",", ",9", 1)  # the check no longer matches
    log.write_text("".join(rows))
    with pytest.warns(UserWarning, match=r"evals\.csv.*line 2"):
        playtune.journal.export_journal(run, tmp_path / "run.journal")
    assert len([t for t in _journal_trials(tmp_path / "run.journal") if t["state"] == 1]) == len(complete) - 1


def test_a_missing_config_is_a_playtune_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(playtune.PlaytuneError, match="config.ron"):
        playtune.journal.export_journal(tmp_path / "empty", tmp_path / "run.journal")


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    run = _run_with_failures(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    real_open = open

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def __getattr__(self, name):
            return getattr(self.f, name)

    def full_open(path, mode="r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        return Full(f) if "w" in mode else f

    monkeypatch.setattr(playtune.journal, "open", full_open, raising=False)
    with pytest.raises(OSError) as e:
        playtune.journal.export_journal(run, out / "run.journal")
    assert e.value.errno == errno.ENOSPC
    assert list(out.iterdir()) == []
    monkeypatch.undo()

    def no_rename(src, dst):
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(playtune.journal.os, "replace", no_rename)
    with pytest.raises(OSError):
        playtune.journal.export_journal(run, out / "run.journal")
    assert list(out.iterdir()) == []


# Class 10: the Python API.

@pytest.mark.parametrize("algorithm", ["random", "rmhc", "ntbea"])
def test_telling_before_asking_is_a_plain_error(algorithm, capfd):
    opt = playtune.optimizer(BITS, algorithm, budget=20, seed=1)
    for results in ({}, {0: 1.0}, {7: 1.0}):
        with pytest.raises(ValueError) as e:
            opt.tell(results)
        assert "internal error" not in str(e.value)
        assert "ask" in str(e.value)
    assert "panicked" not in capfd.readouterr().err
    batch = opt.ask()  # still usable
    opt.tell({c["id"]: 1.0 for c in batch})


@pytest.mark.parametrize("algorithm", ["random", "rmhc", "ntbea"])
def test_telling_a_batch_again_says_it_was_told(algorithm, capfd):
    opt = playtune.optimizer(BITS, algorithm, budget=20, seed=1)
    batch = opt.ask()
    opt.tell({c["id"]: 1.0 for c in batch})
    with pytest.raises(playtune.PlaytuneError, match=f"id {batch[0]['id']} is not waiting for a result: it was told already"):
        opt.tell({c["id"]: 1.0 for c in batch})
    with pytest.raises(playtune.PlaytuneError, match="was told already"):
        opt.tell({})
    opt.ask()
    with pytest.raises(playtune.PlaytuneError, match="id 10000 is not waiting for a result: it was not asked yet"):
        opt.tell({10_000: 1.0})
    assert "panicked" not in capfd.readouterr().err


def test_a_run_result_told_again_says_it_was_recorded(tmp_path):
    with playtune.create_run(space=BITS, algorithm="random", budget=8, seed=1, runs_dir=tmp_path, batch=4) as run:
        batch = run.ask()
        run.tell([(batch[0], 1.5), (batch[1], "crashed")])
        log = (Path(run.path) / "evals.csv").read_text()
        # The very result the logs hold, told again, is accepted and changes nothing
        # (as `playtune tell` takes it); another result is refused, naming the first.
        run.tell([(batch[0], 1.5), (batch[1], "crashed")])
        assert (Path(run.path) / "evals.csv").read_text() == log
        with pytest.raises(playtune.PlaytuneError, match="told already") as e:
            run.tell([(batch[0], 2.5)])
        assert "not asked" not in str(e.value) and "fitness 1.5" in str(e.value)
        with pytest.raises(playtune.PlaytuneError, match="told already") as e:
            run.tell([(batch[1], "hung")])
        assert "crashed" in str(e.value)
        with pytest.raises(playtune.PlaytuneError, match="not asked yet"):
            run.tell([({"trial": 0, "id": 99}, 1.0)])


def _echo_sum_command(tmp_path):
    script = tmp_path / "evaluator.py"
    script.write_text("import json, sys\nr = json.load(sys.stdin)\nprint(sum(float(v) for v in r['point'].values()))\n")
    return f"{sys.executable} {script}"


def test_the_command_problem_takes_the_space_it_is_given(tmp_path):
    space = {"name": "xy", "dims": {"x": {"int": [0, 5]}, "y": {"int": [0, 5]}}}
    cmd = _echo_sum_command(tmp_path)
    out = playtune.evaluate("command", {"x": 2, "y": 3}, space=space, settings={"cmd": cmd})
    assert out["fitness"] == 5.0
    with playtune.create_run("command", space=space, algorithm="random", budget=6, seed=1,
                             runs_dir=tmp_path, name="cmd", settings={"cmd": cmd}) as run:
        result = run.run(progress=False)
    assert result["trials"][0]["spent"]["search"] == 6
    assert run.space.names == ["x", "y"]
    info_space, features, _, _ = playtune.problem_info("command", {"cmd": cmd}, space=space)
    assert info_space.names == ["x", "y"] and features == []


def test_the_command_problem_takes_features(tmp_path):
    space = {"name": "xy", "dims": {"x": {"int": [0, 5]}}}
    script = tmp_path / "evaluator.py"
    script.write_text("import json, sys\nr = json.load(sys.stdin)\n"
                      "print(json.dumps({'fitness': r['point']['x'], 'features': {'twice': 2 * r['point']['x']}}))\n")
    with playtune.create_run("command", space=space, algorithm="random", budget=4, seed=1, runs_dir=tmp_path,
                             settings={"cmd": f"{sys.executable} {script}"}, features=["twice"]) as run:
        assert run.features == ["twice"]
        run.run(progress=False)


@pytest.mark.parametrize("make", [
    lambda features, tmp_path: playtune.optimizer(BITS, "random", budget=10, features=features),
    lambda features, tmp_path: playtune.create_run(space=BITS, runs_dir=tmp_path, features=features),
])
def test_feature_names_are_kept_whole_or_refused(make, tmp_path):
    with pytest.raises(TypeError, match="features is a list of names, got a string"):
        make("abc", tmp_path)
    for bad in ["x,y", " x", "", "a\nb"]:
        with pytest.raises(ValueError, match=repr(bad).replace("\\", "\\\\")):
            make([bad], tmp_path)
    with pytest.raises(ValueError, match="'x' is named twice"):
        make(["x", "x"], tmp_path)
    with pytest.raises(TypeError, match="features"):
        make([1], tmp_path)
    assert not list(tmp_path.iterdir()), "no run folder was made"


def test_the_rust_optimizer_refuses_a_feature_name_the_logs_would_split():
    space = playtune.space_from_dict(BITS)
    ron = playtune.algorithm_config("random", space)
    with pytest.raises(playtune.PlaytuneError, match="x,y"):
        playtune._playtune.Optimizer(space, ron, 10, 0, ["x,y"], [])


def test_space_point_checks_its_values():
    space = playtune.space_from_dict(MIXED)
    assert space.point([3, 1, 0.5]) == {"n": 3, "c": "b", "f": 0.5}
    with pytest.raises(ValueError, match="n"):
        space.point([4, 0, 0.5])  # off the step
    with pytest.raises(ValueError, match="`c`"):
        space.point([3, 7, 0.5])
    with pytest.raises(ValueError, match="`f`"):
        space.point([3, 0, 2.5])
    with pytest.raises(ValueError, match="`f`"):
        space.point([3, 0, float("nan")])
    with pytest.raises(ValueError, match="2 values for a space of 3"):
        space.point([3, 0])
    assert space.point({"n": 5, "c": "a", "f": 1.0}) == {"n": 5, "c": "a", "f": 1.0}
    with pytest.raises(ValueError, match="`zz`"):
        space.point({"n": 5, "c": "a", "f": 1.0, "zz": 1})
    with pytest.raises(ValueError, match="`c`"):
        space.point({"n": 5, "c": "z", "f": 1.0})


@pytest.mark.parametrize("func", [5, "f", lambda: 1.0, lambda a, b, c: 1.0])
def test_a_function_that_cannot_take_a_point_stops_the_run_before_it_starts(func, tmp_path):
    with playtune.create_run(space=BITS, algorithm="random", budget=8, seed=1, runs_dir=tmp_path) as run:
        with pytest.raises(TypeError, match="func"):
            run.run(func, progress=False)
        assert not Path(run.path, "evals.csv").exists() and not Path(run.path, "failures.jsonl").exists()
        run.run(lambda p: 1.0, progress=False)  # the folder is still usable


def test_a_function_that_cannot_take_a_point_stops_optimize():
    opt = playtune.optimizer(BITS, "random", budget=8, seed=1)
    with pytest.raises(TypeError, match="func"):
        opt.optimize(lambda a, b: 1.0)
    with pytest.raises(TypeError, match="func"):
        opt.optimize(5)


def test_threads_sharing_an_optimizer_take_turns():
    opt = playtune.optimizer(BITS, "random", budget=100_000, seed=1, batch=8)
    errors = []

    def work():
        for _ in range(150):
            try:
                batch = opt.ask()
                opt.recommend()
                opt.tell({c["id"]: 1.0 for c in batch})
            except playtune.PlaytuneError as e:
                # Another thread told this batch first.
                if "told already" not in str(e):
                    errors.append(e)
            except Exception as e:
                errors.append(e)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert opt.recommend()["samples"] >= 1


@pytest.mark.parametrize(
    "dim, says",
    [
        ({"float": [0.0, 1.0], "levels": "9"}, "levels takes a whole number"),
        ({"float": [0.0, 1.0], "levels": 2.5}, "levels takes a whole number"),
        ({"int": [0, 4], "levels": 3}, "levels is for float"),
        ({"float": [0.0, 1.0], "step": 2}, "step is for int"),
        ({"list": ["2", 3]}, "list takes numbers"),
        ({"float": ["0", 1.0]}, "float takes numbers"),
    ],
)
def test_space_from_dict_refuses_values_of_the_wrong_type(dim, says):
    # Issue 58, class 10: `levels: '9'` was read as 9.
    with pytest.raises(playtune.PlaytuneError, match=says):
        playtune.space_from_dict({"name": "s", "dims": {"x": dim}})


def test_a_class_games_errors_name_the_field_not_generated_lines():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples", "duel"))
    from duel_class import Duel

    class Wrong(Duel):
        name = "wrong"
        settings = {"edge": {"list": [0.1, 0.2], "default": 0.3}}

    with pytest.raises(playtune.PlaytuneError) as e:
        playtune.register_game(Wrong(), in_process=True)
    message = str(e.value)
    assert "`edge`.default" in message, message
    assert not re.search(r":\d+:\d+:", message), message


# Issue 65.

HERE = os.path.dirname(os.path.abspath(__file__))


class _Coin(playtune.Game):
    """A game of one coin toss a match, played in process: quick runs and verdicts."""

    name = "coin-reliability"
    players = 2
    settings = {"edge": {"list": [0.0, 0.2, 0.4], "default": 0.2}}
    bots = [{"name": "novice"}, {"name": "expert"}]

    def play(self, match):
        import random

        rng = random.Random(match["seed"])
        expert = [s["bot"] == "expert" for s in match["seats"]]
        p = 0.5 + match["settings"]["edge"] * (expert[0] - expert[1])
        w = 0 if rng.random() < p else 1
        return {"scores": [1 - w, w], "winners": [w], "length": 1}


def _live_children():
    """This process's children that are not yet reaped zombies."""
    me = os.getpid()
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] not in ("Z", "X"):
            out.append(int(p))
    return out


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts processes and descriptors in /proc")
def test_registering_a_game_again_replaces_its_game_processes():
    # Class 9: six registrations of one game left 12 processes and 42 descriptors.
    sys.path.insert(0, HERE)
    import worker_games

    counts = []
    for i in range(4):
        name = playtune.register_game(worker_games.DUEL, workers=2)
        r = playtune.tournament(name, ["novice", "expert"], games=4, seed=i)
        assert r["games"] == 4
        counts.append((len(_live_children()), len(os.listdir("/proc/self/fd"))))
    assert all(c == counts[0] for c in counts), f"(processes, descriptors) after each registration: {counts}"
    # In process now: the game processes of the last registration end too.
    playtune.register_game(worker_games.DUEL, in_process=True)
    playtune.tournament(worker_games.DUEL.name, ["novice", "expert"], games=2, seed=9)
    assert len(_live_children()) <= counts[0][0] - 2, "the processes of a game registered in process since are left"
    playtune.register_game(worker_games.DUEL, workers=2)  # as test_game_workers expects it


class _Fractional(_Coin):
    name = "coin-fractional"
    players = 2.7


class _StringPlayers(_Coin):
    name = "coin-string"
    players = "2"


class _BoolPlayers(_Coin):
    name = "coin-bool"
    players = True


class _Rules(_Coin):
    name = "coin-rules"
    bots = []
    max_steps = 2.5

    def new_initial_state(self, settings):
        return object()  # read for what it offers, never played


@pytest.mark.parametrize(
    "game, says",
    [
        (_Fractional, r"_Fractional.players=2.7: give a whole number of at least 1 \(an int\), not a float"),
        (_StringPlayers, r"players='2': give a whole number"),
        (_BoolPlayers, r"players=True: give a whole number .* not a bool"),
        (_Rules, r"_Rules.max_steps=2.5: give a whole number"),
    ],
)
def test_a_games_counts_are_whole_numbers_never_converted(game, says):
    # Class 13: `players = 2.7` played as 2.
    with pytest.raises(playtune.PlaytuneError, match=says):
        playtune.register_game(game(), in_process=True)


@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"workers": 2.5}, r"workers=2.5: give a whole number from 0 to 1024 \(an int\), not a float"),
        ({"workers": "2"}, r"workers='2': .* not a str"),
        ({"workers": True}, r"workers=True: .* not a bool"),
        # Class 14c: an OverflowError from the binding.
        ({"workers": -1}, r"workers=-1: give a whole number from 0 to 1024"),
        ({"workers": 10**30}, r"workers=1000000000000000000000000000000: give a whole number"),
        ({"timeout": "5"}, r"timeout='5': give the seconds a match may take as a number, not a str"),
        ({"timeout": True}, r"timeout=True: .* not a bool"),
    ],
)
def test_register_games_arguments_are_refused_not_converted(kwargs, says):
    # Class 13: workers=2.5, "2" and True, timeout="5" were taken.
    sys.path.insert(0, HERE)
    import worker_games

    with pytest.raises(playtune.PlaytuneError, match=says):
        playtune.register_game(worker_games.DUEL, **kwargs)


@pytest.mark.parametrize("max_steps, says", [(0, "max_steps=0: give a whole number of at least 1"),
                                             (2.5, "max_steps=2.5: .* not a float")])
def test_an_openspiel_games_cap_is_a_whole_number(max_steps, says):
    # Class 13: max_steps=0 played matches of length 0.
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    from playtune.openspiel import OpenSpielGame

    with pytest.raises(playtune.PlaytuneError, match=says):
        OpenSpielGame("tic_tac_toe", max_steps=max_steps)


_SCRIPT_GAME = '''
import random
import playtune


class Coin(playtune.Game):
    name = "coin-script"
    players = 2
    bots = [{"name": "novice"}, {"name": "expert"}]
    settings = {"edge": {"list": [0.0, 0.2, 0.4], "default": 0.2}}

    def play(self, match):
        w = random.Random(match["seed"]).randrange(2)
        return {"scores": [1 - w, w], "winners": [w], "length": 1}


playtune.register_game(Coin(), workers=1)
'''

_SCRIPT_RUN = '''run = playtune.create_run("design", settings={"game": "coin-script", "games": 2, "ladder": "novice,expert"},
                          algorithm="random", budget=4, runs_dir="runs", name="r", race=0)
print("result", run.run(progress=False, verdict=0)["trials"][0]["values"])
'''


def test_a_script_that_runs_its_own_game_unguarded_is_refused_at_once_naming_the_guard(tmp_path):
    # Class 15: game processes import the script, run it again, and every match
    # failed with a message about an unknown game.
    script = tmp_path / "unguarded.py"
    script.write_text(_SCRIPT_GAME + _SCRIPT_RUN)
    p = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode != 0
    line = len(_SCRIPT_GAME.splitlines()) + 1
    assert f"unguarded.py, line {line}: playtune.create_run() runs at the script's top level" in p.stderr, p.stderr
    assert 'if __name__ == "__main__":' in p.stderr
    assert "unknown game" not in p.stderr
    # Stopped before anything began: no run folder.
    assert not (tmp_path / "runs").exists()


def test_the_same_script_guarded_runs(tmp_path):
    script = tmp_path / "guarded.py"
    body = "".join("    " + line + "\n" for line in _SCRIPT_RUN.splitlines())
    script.write_text(_SCRIPT_GAME + "\n\ndef main():\n" + body + '\n\nif __name__ == "__main__":\n    main()\n')
    p = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "result" in p.stdout


def test_a_game_process_importing_an_unguarded_file_says_why(tmp_path):
    # What the command line (`--game FILE.py:NAME`) sees: the game process's own
    # refusal, naming the guard, where the game's module runs a tournament on import.
    module = tmp_path / "coin_module.py"
    module.write_text(_SCRIPT_GAME + 'print(playtune.tournament("coin-script", ["novice", "expert"], games=2))\n')
    p = subprocess.run([sys.executable, "-m", "playtune.worker", "describe", f"{module}:Coin"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1
    said = p.stdout + p.stderr  # `describe` may say why on its channel or on stderr
    assert "coin_module.py: playtune.tournament() ran while a game process imported the file" in said, said
    assert 'if __name__ == "__main__":' in said and "unknown game" not in said


@pytest.mark.parametrize("tqdm", ["installed", "absent"])
def test_a_runs_progress_bars_reach_the_verdict(tqdm, tmp_path, monkeypatch, capsys):
    # Class 17a: the verdict's bar read the run while the run held it: "RuntimeError:
    # Already mutably borrowed" at the verdict.
    if tqdm == "installed":
        pytest.importorskip("tqdm", reason="tqdm is not installed")
    else:
        monkeypatch.setitem(sys.modules, "tqdm", None)
        monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    name = playtune.register_game(_Coin(), in_process=True)
    run = playtune.create_run("design", settings={"game": name, "games": 2, "ladder": "novice,expert"},
                              algorithm="random", budget=8, seed=1, runs_dir=tmp_path, race=0)
    with run:
        result = run.run()  # progress=True, the default verdict: the docs' example
    assert result["trials"][0]["verdict"]["sentence"]
    err = capsys.readouterr().err
    assert "verdict evaluations" in err and "verdict, trial 0:" in err


def test_a_function_a_run_evaluates_may_read_the_run(tmp_path):
    # Class 17a at its root: Python called during a run may read the run.
    run = playtune.create_run(space=BITS, algorithm="random", budget=4, runs_dir=tmp_path)
    seen = []

    def f(point):
        seen.append(run.config()["budget"])
        return float(sum(point.values()))

    with run:
        run.run(f, progress=False)
    assert seen == [4, 4, 4, 4]


def test_a_run_driven_from_inside_itself_is_refused(tmp_path):
    run = playtune.create_run(space=BITS, algorithm="random", budget=2, runs_dir=tmp_path, retries=0)

    def f(point):
        return run.run(lambda p: 0.0, progress=False)

    with run, pytest.raises(playtune.PlaytuneError, match="being driven already"):
        run.run(f, progress=False)
