"""The command line from the Python package (issue 65, class 18): `python -m playtune`
and the `playtune` command the wheel installs run the binary's own Rust code, so a
Python user without Rust has every command."""

import os
import signal
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import pytest

import playtune


def _console_script():
    """The `playtune` command installed with the package, or a skip where the package
    is not installed (imported from a source folder): CI installs the wheel, which
    must bring it."""
    try:
        from importlib.metadata import distribution

        dist = distribution("playtune")
    except Exception:
        pytest.skip("playtune is not installed as a distribution: no console script to test")
    if not any(e.name == "playtune" and e.group == "console_scripts" for e in dist.entry_points):
        pytest.fail("the installed playtune declares no `playtune` console script")
    script = Path(sysconfig.get_path("scripts")) / "playtune"
    assert script.is_file(), f"the `playtune` console script is declared but not installed at {script}"
    return str(script)


def _no_cargo_env():
    """The environment with a PATH that holds the interpreter's scripts and the system's
    tools, never cargo's: what a user of the wheel without Rust has."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([sysconfig.get_path("scripts"), "/usr/bin", "/bin"])
    env.pop("PLAYTUNE_BIN", None)
    return env


def _commands():
    return {"python -m playtune": [sys.executable, "-m", "playtune"], "playtune": [_console_script()]}


@pytest.mark.parametrize("how", ["python -m playtune", "playtune"])
def test_help_and_version_come_from_the_command_line(how):
    command = _commands()[how]
    p = subprocess.run([*command, "--help"], capture_output=True, text=True, env=_no_cargo_env())
    assert p.returncode == 0, p.stderr
    assert "Usage: playtune" in p.stdout
    for subcommand in ("optimize", "resume", "report", "plot", "tournament"):
        assert subcommand in p.stdout
    p = subprocess.run([*command, "--version"], capture_output=True, text=True, env=_no_cargo_env())
    assert p.returncode == 0 and p.stdout.strip() == f"playtune {playtune.__version__}"


@pytest.mark.parametrize("how", ["python -m playtune", "playtune"])
def test_report_of_a_run_made_in_python_and_the_exit_status(how, tmp_path):
    command = _commands()[how]
    space = {"name": "s", "dims": {"x": {"int": [0, 9]}}}
    with playtune.create_run(space=space, algorithm="random", budget=6, runs_dir=tmp_path, name="r") as run:
        run.run(lambda p: p["x"], progress=False)
    p = subprocess.run([*command, "report", str(tmp_path / "r")], capture_output=True, text=True, env=_no_cargo_env())
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "r" / "report.html").is_file()
    # The command line's last line of output is there when the process ends.
    assert p.stdout.strip().endswith("report.html")
    # A refusal: the command line's message and status.
    p = subprocess.run([*command, "report", str(tmp_path / "nope")], capture_output=True, text=True, env=_no_cargo_env())
    assert p.returncode == 2 and "error:" in p.stderr and "nope" in p.stderr
    p = subprocess.run([*command, "no-such-command"], capture_output=True, text=True, env=_no_cargo_env())
    assert p.returncode == 2 and "no-such-command" in p.stderr


@pytest.mark.skipif(os.name != "posix", reason="process groups and signals are POSIX")
def test_ctrl_c_ends_the_command_and_its_evaluators(tmp_path):
    # An evaluator that starts a child and waits: both write their pids.
    pids = tmp_path / "pids"
    evaluator = tmp_path / "evaluator.sh"
    evaluator.write_text(textwrap.dedent(f"""\
        echo $$ >> {pids}
        sleep 300 &
        echo $! >> {pids}
        wait
        echo 1
    """))
    space = tmp_path / "x.ron"
    space.write_text('(name: "x", dims: [(name: "x", kind: Int(min: 0, max: 9))])')
    p = subprocess.Popen(
        [sys.executable, "-m", "playtune", "optimize", "--problem", "command", "--set", f"cmd=sh {evaluator}",
         "--space", str(space), "--algo", "random", "--budget", "4", "--runs-dir", str(tmp_path), "--name", "r", "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_no_cargo_env(),
    )
    try:
        # Signalled once an evaluator and its child run, not after some time.
        while len(pids.read_text().split() if pids.exists() else []) < 2:
            assert p.poll() is None, p.communicate()
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    # The command line's own Ctrl-C: status 130, its hint, every evaluator killed.
    assert p.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    for pid in map(int, pids.read_text().split()):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            continue
        assert state in ("Z", "X"), f"evaluator process {pid} left running"
