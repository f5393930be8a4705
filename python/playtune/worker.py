"""A Python game as a game process: the match protocol served by ``playtune.Game``
(docs/your-own-game.md#one-name-for-every-command).

A Python game is named by a *reference*, ``FILE.py:NAME`` or ``package.module:NAME``,
where ``NAME`` is a :class:`playtune.Game` instance, a ``Game`` subclass (made with no
arguments) or a function of no arguments that returns a game. The command line, the
Slurm executor and :func:`playtune.register_game` start such a game as
``python -m playtune.worker serve REF``, one process a worker, and ask it
``python -m playtune.worker describe REF`` what its settings and bots are::

    python -m playtune.worker describe examples/duel/duel_class.py:Duel
    echo '{"id": 1, "settings": {...}, "seats": [...], "seed": 7}' | python -m playtune.worker serve REF

A file named in a reference is imported under a module name of its own, not as
``__main__``: a script whose last lines run a design from ``if __name__ ==
"__main__":`` is safe to name; one that runs it unguarded is refused in the worker.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from typing import Any, Optional, Tuple

from ._protocol import ServedGame, reply

#: Set in a game process's environment (by playtune's worker pool): a process that
#: serves matches must not start runs of its own.
WORKER_ENV = "PLAYTUNE_WORKER"


def in_worker() -> bool:
    """Whether this process is a game process playtune started."""
    return os.environ.get(WORKER_ENV) == "1"


def _module_of_file(path: str) -> Any:
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    # Its sibling modules import as they do when the file is run as a script.
    if folder not in sys.path:
        sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    name = f"_playtune_game_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load(reference: str) -> Any:
    """The game a reference names (see the module's doc): a :class:`playtune.Game`
    (a :class:`ServedGame`; this module does not import :mod:`playtune.games`)."""
    where, sep, attr = reference.rpartition(":")
    if not sep or not where or not attr:
        raise ValueError(f"`{reference}`: a Python game is FILE.py:NAME or package.module:NAME")
    if where.endswith(".py"):
        if not os.path.isfile(where):
            raise ValueError(f"`{reference}`: no file {where}")
        module = _module_of_file(where)
    else:
        module = importlib.import_module(where)
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"`{reference}`: {where} has no `{attr}`")
        obj = getattr(obj, part)
    if isinstance(obj, type) and issubclass(obj, ServedGame):
        obj = obj()
    elif not isinstance(obj, ServedGame) and callable(obj):
        obj = obj()
    if not isinstance(obj, ServedGame):
        raise ValueError(
            f"`{reference}` is a {type(obj).__name__}: name a playtune.Game, a Game subclass or a function returning one"
        )
    return obj


def _where(module: Any) -> Optional[str]:
    """How another process names ``module``: its dotted name inside a package (its
    relative imports need it), else its file's absolute path."""
    origin = getattr(module, "__file__", None)
    if not origin:
        return None
    name = module.__name__
    if "." in name and not name.startswith("_playtune_game_"):
        return name
    return os.path.abspath(origin)


def reference_of(game: Any) -> Optional[str]:
    """A reference that names ``game`` from another process, or None: a module
    attribute that holds it (the module of its class, every other module imported,
    then the script run), else its
    class where the class is made with no arguments. A game made inside a function
    (or in a notebook) has none."""
    # The module that defines the game's class first, the script run last: a script
    # that imports its game (`from tictactoe import GAME`) records the module, which a
    # game process imports without running the script.
    home = type(game).__module__
    others = [
        m for k, m in list(sys.modules.items()) if k not in ("__main__", home) and not k.startswith(("playtune", "_"))
    ]
    modules = [sys.modules.get(home) if home != "__main__" else None, *others, sys.modules.get("__main__")]
    for m in modules:
        if m is None or _where(m) is None:
            continue
        for name, value in list(vars(m).items()):
            if value is game and not name.startswith("_"):
                return f"{_where(m)}:{name}"
    cls = type(game)
    m = sys.modules.get(cls.__module__)
    if (
        m is not None
        and _where(m) is not None
        and getattr(m, cls.__name__, None) is cls
        and _made_without_arguments(cls)
        and vars(game) == vars(cls())
    ):
        return f"{_where(m)}:{cls.__name__}"
    return None


def _made_without_arguments(cls: type) -> bool:
    import inspect

    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in sig.parameters.values()
    )


def serve(game: Any, stdin: Any = None, stdout: Any = None) -> None:
    """Answers match requests, one JSON line each, until the input ends."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as e:
            stdout.write(reply(None, {"error": f"not a JSON request: {e}"}) + "\n")
            stdout.flush()
            continue
        try:
            answer = reply(request.get("id"), game._playtune_answer(request))
        except Exception as e:  # a failed match, not a failed process
            answer = reply(request.get("id"), {"error": f"its play raised {type(e).__name__}: {e}"})
        stdout.write(answer + "\n")
        stdout.flush()


def _protocol_channel() -> Tuple[Any, Any]:
    """Moves the protocol onto descriptors of its own, before the game is imported:
    the game's standard output (``print``, a C library's ``printf``, a child process
    it starts) goes to standard error, where a failure quotes it, and its standard
    input is empty, so that nothing the game prints is read as a description or a
    reply, and nothing it reads takes a request. The protocol's descriptors are not
    inherited by the game's children (``os.dup`` makes them close on exec)."""
    requests = os.dup(0)
    replies = os.dup(1)
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    os.dup2(2, 1)
    # The objects Python's own code writes through, too (print, help, warnings).
    sys.stdout.flush()
    sys.stdout = sys.stderr
    return (
        os.fdopen(requests, "r", encoding="utf-8", newline="\n"),
        os.fdopen(replies, "w", encoding="utf-8", newline="\n"),
    )


def main(argv: Optional[list] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) != 2 or argv[0] not in ("describe", "serve"):
        sys.stderr.write("usage: python -m playtune.worker describe|serve FILE.py:NAME\n")
        return 2
    what, reference = argv
    # The game's module must not start runs of its own when imported here.
    os.environ[WORKER_ENV] = "1"
    requests, replies = _protocol_channel()

    def failed(why: str) -> int:
        # `describe` says why on its channel, which playtune quotes as the reason;
        # `serve` on standard error, which a failed match quotes.
        out = replies if what == "describe" else sys.stderr
        out.write(why + "\n")
        out.flush()
        return 1

    try:
        game = load(reference)
        if what == "describe":
            replies.write(game._playtune_description())
            replies.flush()
            return 0
    except SystemExit as e:  # the game's module ending the interpreter as it loads
        return failed(f"`{reference}`: its module called sys.exit({e.code!r}) while it was imported")
    except Exception as e:
        return failed(f"{type(e).__name__}: {e}")
    serve(game, requests, replies)
    return 0


def _end(code: int) -> None:
    """Ends the game process at once, its output flushed: the game's own exit work
    (``atexit`` handlers, ``multiprocessing`` joining its children) would hold the
    command waiting on it, and what the game started is killed with its process group
    by playtune, as a game in any other language is."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    _end(main())
