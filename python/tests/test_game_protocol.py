"""A Python game's side of the match protocol: the worker (`python -m playtune.worker`)
never imports playtune.games (games imports the worker), and a game's description and
a space dict, built as data and written as RON once, read back as they were given,
quotes and backslashes included."""
import ast
import os
import subprocess
import sys

import playtune

PACKAGE = os.path.dirname(os.path.abspath(playtune.__file__))

#: Every kind of dimension, with quotes and backslashes in names and values.
DIMS = {
    'we"ird\\name': {"int": [1, 9], "step": 2, "default": 3},
    "f\\": {"float": [0.0, 2.0], "levels": 5, "default": 0.5},
    'l"': {"list": [1.0, 2.5, 4.0], "default": 2.5},
    "c": {"categories": ['x"y', "p\\q", 'both\\"', "plain"], "default": "p\\q"},
    "b": {"bool": True, "default": True},
}
ABOUT = 'about "quoted" text, a \\ backslash and two \\\\ of them'
BOT_ABOUT = 'a bot\'s "about" \\ text'


def _package_imports(module, package=PACKAGE):
    """The modules of the playtune package that ``module`` (its name in the package)
    imports, at its top or inside a function."""
    with open(os.path.join(package, module + ".py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):  # import playtune.games
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("playtune."))
        elif isinstance(node, ast.ImportFrom):
            where = node.module or ""
            if node.level == 0 and not (where == "playtune" or where.startswith("playtune.")):
                continue
            parts = where.split(".")[0 if node.level else 1:] if where else []
            if parts:  # from .games import x, from playtune.games import x
                found.add(parts[0])
            else:  # from . import games, from playtune import games
                found.update(a.name for a in node.names)
    return {m for m in found if os.path.isfile(os.path.join(package, m + ".py"))}


def test_the_worker_never_imports_games():
    # Whatever the worker imports, and what that imports, leaves playtune.games out:
    # games imports the worker, never the other way round.
    seen, todo = set(), ["worker"]
    while todo:
        module = todo.pop()
        for m in _package_imports(module) - seen:
            assert m != "games", f"playtune.{module} imports playtune.games"
            seen.add(m)
            todo.append(m)
    assert "_protocol" in seen


def test_the_import_check_sees_every_spelling(tmp_path):
    spellings = [
        "from .games import Game",
        "from . import games",
        "import playtune.games",
        "from playtune.games import dispatch",
        "from playtune import games",
        "def f():\n    from .games import description",
    ]
    for text in spellings:
        (tmp_path / "probe.py").write_text("import json\nfrom . import _protocol\n" + text + "\n")
        (tmp_path / "games.py").write_text("")
        (tmp_path / "_protocol.py").write_text("")
        assert _package_imports("probe", str(tmp_path)) == {"games", "_protocol"}, text


def test_importing_playtune_leaves_the_worker_unimported():
    # `python -m playtune.worker` imports the package first: had that imported the
    # worker, runpy would warn on every game process's standard error.
    code = "import sys, playtune; assert 'playtune.worker' not in sys.modules, 'imported'"
    p = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def _as_dict(dims):
    """A space's dimensions (Space.dims()) as the space dict that gives them."""
    out = {}
    for d in dims:
        kind = d["kind"]
        if kind == "int":
            given = {"int": [d["min"], d["max"]], "step": d["step"]}
        elif kind == "float":
            given = {"float": [d["min"], d["max"]], "levels": d["levels"]}
        elif kind == "bool":
            given = {"bool": True}
        else:
            given = {kind: d["values"]}
        out[d["name"]] = dict(given, default=d["default"])
    return out


def test_a_space_dict_reads_back_as_it_was_given():
    name = 'a "space" \\ named'
    space = playtune.space_from_dict(
        {"name": name, "dims": DIMS, "groups": {'g"\\': ["b"]}, "constraints": []}
    )
    assert space.name == name
    assert _as_dict(space.dims()) == DIMS


class Odd(playtune.Game):
    name = "odd-quotes"
    about = ABOUT
    settings = DIMS
    bots = [
        {"name": "novice", "about": BOT_ABOUT},
        {"name": "expert", "settings": {"depth": {"int": [1, 3], "step": 1, "default": 1},
                                        "style": {"categories": ['a"b', "c\\d"], "default": "c\\d"}}},
    ]

    def play(self, match):
        return {"scores": [1, 0], "winners": [0], "length": 1}


def test_a_game_description_reads_back_as_it_was_given():
    game = Odd()
    name = playtune.register_game(game, in_process=True)
    assert name == "odd-quotes"
    design = playtune.problem_info("design", {"game": name})
    assert _as_dict(design.space.dims()) == DIMS
    tune = playtune.problem_info("tune-agent", {"game": name, "agent": "expert", "opponents": "novice"})
    assert _as_dict(tune.space.dims()) == Odd.bots[1]["settings"]


def test_a_game_process_describes_it_with_its_texts_whole(tmp_path):
    # The description a game process writes (`python -m playtune.worker describe`)
    # as playtune reads it: `playtune games` prints the game's and its bots' about.
    here = os.path.abspath(__file__)
    script = tmp_path / "odd.py"
    script.write_text(
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('game_protocol_tests', {here!r})\n"
        "tests = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(tests)\n"
        "GAME = tests.Odd()\n"
    )
    p = subprocess.run(
        [sys.executable, "-m", "playtune", "games", f"{script}:GAME"], capture_output=True, text=True
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].split(None, 1) == ["odd-quotes", ABOUT]
    assert f"    novice  {BOT_ABOUT}" in lines
    assert '    c=p\\q  a rule of the game [takes one of x"y, p\\q, both\\", plain]' in lines
