"""Ctrl-C, SIGTERM and SIGHUP to a Python process driving playtune leave no evaluator
running, and stop long calls at once, as they do for the command line."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and signals are POSIX")


def _alive(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting for its parent is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def _evaluator(tmp_path: Path) -> str:
    """A one-shot evaluator that starts a child and waits: both write their pids."""
    script = tmp_path / "evaluator.sh"
    pids = tmp_path / "pids"
    script.write_text(textwrap.dedent(f"""\
        echo $$ >> {pids}
        sleep 300 &
        echo $! >> {pids}
        wait
        echo 1
    """))
    return f"sh {script}"


def _pids(tmp_path: Path):
    f = tmp_path / "pids"
    if not f.exists():
        return []
    return [int(x) for x in f.read_text().split()]


def _start(code: str, tmp_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _signal_and_wait(p: subprocess.Popen, sig: int) -> float:
    """Sends `sig` to `p` and waits for its end: the seconds it took."""
    try:
        started = time.monotonic()
        p.send_signal(sig)
        p.wait(timeout=90)
        return time.monotonic() - started
    finally:
        if p.poll() is None:
            p.kill()


def _none_left(tmp_path: Path) -> None:
    pids = _pids(tmp_path)
    assert _wait_for(lambda: not any(_alive(q) for q in pids), 5), f"left running: {[q for q in pids if _alive(q)]}"


RUN = """
import playtune
space = {{"name": "x", "dims": {{"x": {{"int": [0, 9]}}}}}}
with playtune.create_run("command", space=space, algorithm="random", budget=4, seed=1,
                         runs_dir={runs!r}, name="r", settings={{"cmd": {cmd!r}}}) as run:
    run.run(progress=False)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_python_in_a_run_leaves_no_evaluator(sig, tmp_path):
    code = RUN.format(runs=str(tmp_path / "runs"), cmd=_evaluator(tmp_path))
    p = _start(code, tmp_path)
    # Every evaluator of the first batch and its child have started.
    assert _wait_for(lambda: len(_pids(tmp_path)) >= 2, 30), "no evaluator started"
    time.sleep(0.3)
    took = _signal_and_wait(p, sig)
    _none_left(tmp_path)
    # At once, not after the evaluators' 300 s or their deadline.
    assert took < 60
    if sig == signal.SIGINT:
        assert "KeyboardInterrupt" in p.stderr.read()
    else:
        # Ended by the same signal, as without playtune.
        assert p.returncode == -sig


def test_ctrl_c_stops_a_tournament_at_once(tmp_path):
    code = """
import playtune
print("playing", flush=True)
playtune.tournament("rinascimento", ["rnd", "osla"], games=400000, seed=1, settings={"players": 2})
"""
    p = _start(code, tmp_path)
    assert p.stdout.readline().strip() == "playing"
    time.sleep(1.5)
    took = _signal_and_wait(p, signal.SIGINT)
    assert "KeyboardInterrupt" in p.stderr.read()
    assert took < 60


def test_ctrl_c_stops_an_evaluation_and_its_evaluator(tmp_path):
    code = f"""
import playtune
space = {{"name": "x", "dims": {{"x": {{"int": [0, 9]}}}}}}
playtune.evaluate("command", {{"x": 1}}, space=space, settings={{"cmd": {_evaluator(tmp_path)!r}}})
"""
    p = _start(code, tmp_path)
    assert _wait_for(lambda: len(_pids(tmp_path)) >= 2, 30)
    took = _signal_and_wait(p, signal.SIGINT)
    _none_left(tmp_path)
    assert "KeyboardInterrupt" in p.stderr.read()
    assert took < 60
