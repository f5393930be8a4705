"""Python games played in worker processes over the match protocol, named by a
reference (`FILE.py:NAME`) that every command resolves: the same figures as in process,
runs made from Python that end with a verdict and that the command line then
reevaluates, reports and resumes; OpenSpiel's bots play fair and reach every
2-player game OpenSpiel registers."""
import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import _binary

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


# Issue 65 (reliability 6): a game's own printing, reading, helpers and exits.

_PLAIN = '''
import os, sys
import playtune

class G(playtune.Game):
    name = "plain"
    players = 2
    bots = [{"name": "a"}, {"name": "b"}]
    timeout = 30

    def play(self, match):
        won = match["seed"] % 2
        return {"scores": [1 - won, won], "winners": [won], "length": 1 + len(sys.stdin.read())}
'''


def _game_file(tmp_path, name, source):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return f"{path}:G"


def _playtune(*args, timeout=300, env=None):
    """The command line, killed after ``timeout`` seconds (a generous deadline: a
    hang fails the test instead of holding up the suite)."""
    exe = _binary()
    if exe is None:
        pytest.skip("no playtune binary (cargo build --release makes one)")
    return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def test_a_game_s_own_printing_and_reading_cannot_corrupt_the_protocol(tmp_path):
    # Banners at import (one with the shape of a reply to the first requests, printed
    # at the C level too), printing during a match (by Python, by the OS, by a child
    # process) and reading standard input: none reaches the protocol.
    noisy = _game_file(tmp_path, "noisy", _PLAIN.replace("import playtune", '''import playtune
import json
print("pygame 2.5.2 (SDL 2.28.3, Python 3.11)")
print("Hello from the pygame community. https://www.pygame.org/contribute.html", flush=True)
for i in range(1, 4):
    print(json.dumps({"id": i, "scores": [0, 1], "winners": [1], "length": 99}), flush=True)
    os.write(1, (json.dumps({"id": i, "scores": [0, 1], "winners": [1], "length": 98}) + "\\n").encode())
''').replace('        won = match["seed"] % 2', '''        print("playing", match["seed"])
        os.write(1, (json.dumps({"id": match.get("id", 1), "scores": [0, 1], "winners": [1], "length": 97}) + "\\n").encode())
        os.system("echo from a child process")
        won = match["seed"] % 2'''))
    plain = _game_file(tmp_path, "plain", _PLAIN)
    out = _playtune("games", noisy)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("plain "), out.stdout
    results = []
    for game in (noisy, plain):
        out = _playtune("tournament", "--game", game, "--agents", "a,b", "--games", "8", "--json")
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout.splitlines()[-1])
        assert result["mean_length"] == 1.0, result
        results.append([(a["name"], a["wins"]) for a in result["agents"]])
    assert results[0] == results[1]


def test_describing_a_game_does_not_wait_on_the_helpers_its_module_started(tmp_path):
    # One helper a child of the describing process, one a daemon in a session of its
    # own; both would hold the describing process's output for a day.
    game = _game_file(tmp_path, "helped", _PLAIN.replace("import playtune", '''import playtune
import subprocess
_HELPERS = [
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(100000)"]),
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(100000)"], start_new_session=True),
]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "helpers"), "a") as f:
    f.write("".join(f"{p.pid}\\n" for p in _HELPERS))
'''))
    try:
        out = _playtune("games", game, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith("plain "), out.stdout
    finally:
        for pid in (tmp_path / "helpers").read_text().split():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.mark.parametrize("code, says", [(3, "sys.exit(3)"), (0, "sys.exit(0)"), ("'no licence'", "no licence")])
def test_a_module_that_exits_at_import_says_so(tmp_path, code, says):
    game = _game_file(tmp_path, "exits", f"import sys\nsys.exit({code})\n")
    out = _playtune("games", game)
    assert out.returncode == 2, out.stderr
    assert says in out.stderr and "while it was imported" in out.stderr, out.stderr
    assert "Expected opening" not in out.stderr


def test_an_unknown_openspiel_game_is_called_unknown(tmp_path):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    game = _game_file(tmp_path, "unknown", '''
        from playtune.openspiel import OpenSpielGame
        G = OpenSpielGame("tic_tac_tow")
    ''')
    out = _playtune("games", game)
    assert out.returncode == 2, out.stderr
    assert "unknown OpenSpiel game `tic_tac_tow`" in out.stderr, out.stderr
    assert "tic_tac_toe" in out.stderr, out.stderr  # the nearest name, suggested


def test_a_python_game_process_killed_by_a_signal_says_which(tmp_path):
    game = _game_file(tmp_path, "dies", _PLAIN.replace('        won = match["seed"] % 2', '''        os.kill(os.getpid(), 11)
        won = match["seed"] % 2'''))
    out = _playtune("play", "--game", game, "--agents", "a,b")
    assert out.returncode == 2, out.stderr
    assert "signal 11 (SIGSEGV)" in out.stderr, out.stderr


def test_a_registered_game_process_killed_by_a_signal_says_which(tmp_path):
    # The same game registered from Python: its worker is the interpreter itself (no
    # shell between), so the signal is named, not a shell's exit status 139.
    game = _game_file(tmp_path, "dies2", _PLAIN.replace('        won = match["seed"] % 2', '''        os.kill(os.getpid(), 11)
        won = match["seed"] % 2'''))
    script = tmp_path / "plays.py"
    script.write_text(textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import playtune, dies2
        if __name__ == "__main__":
            name = playtune.register_game(dies2.G(), workers=1)
            try:
                playtune.tournament(name, ["a", "b"], games=1)
            except playtune.PlaytuneError as e:
                print(e)
    '''))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert "killed by signal 11 (SIGSEGV)" in out.stdout, out.stdout + out.stderr
    assert "as a shell reports" not in out.stdout, out.stdout


def test_game_processes_die_with_the_python_process_that_started_them(tmp_path):
    # A Python process plays a hung game in a game process, and is killed with SIGKILL
    # (no handler, no atexit runs): the game process ends soon after (a generous 60 s).
    game = _game_file(tmp_path, "hangs", _PLAIN.replace('        won = match["seed"] % 2', '''        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pid.tmp"), "w") as f:
            f.write(str(os.getpid()))
        os.rename(f.name, f.name[:-4])
        import time
        time.sleep(100000)
        won = match["seed"] % 2'''))
    script = tmp_path / "plays.py"
    script.write_text(textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import playtune, hangs
        name = playtune.register_game(hangs.G(), workers=1)
        playtune.tournament(name, ["a", "b"], games=1)
    '''))
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid_file = tmp_path / "pid"
    start = time.monotonic()
    while not pid_file.exists():
        assert time.monotonic() - start < 60 and p.poll() is None, "the game never started"
        time.sleep(0.05)
    game_pid = int(pid_file.read_text())
    p.kill()
    p.wait()

    def running(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except OSError:
            return False

    start = time.monotonic()
    while running(game_pid) and time.monotonic() - start < 60:
        time.sleep(0.1)
    alive = running(game_pid)
    if alive:
        os.kill(game_pid, signal.SIGKILL)
    assert not alive, "the game process outlived the Python process that started it"
