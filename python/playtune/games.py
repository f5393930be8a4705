"""Games written in Python, designed and tuned in process (docs/your-own-game.md).

A game is a subclass of :class:`Game` that says what its settings and bots are and
plays one match with its own bots; :func:`register_game` makes it known by name to
every playtune function that takes a game (``tournament``, ``evaluate``,
``create_run`` with ``problem="design"`` or ``"tune-agent"``), with no subprocess::

    class Duel(playtune.Game):
        name = "duel"
        players = 2
        settings = {"edge": {"list": [0.2, 0.4, 0.8], "default": 0.4},
                    "rounds": {"int": [1, 15], "step": 2, "default": 3}}
        bots = [{"name": "novice"}, {"name": "expert"}]

        def play(self, match):
            ...  # match["settings"], match["seats"], match["seed"]
            return {"scores": [3, 1], "winners": [0], "length": 4}

    playtune.register_game(Duel())
    playtune.tournament("duel", ["novice", "expert"], games=100)

A match and its answer are the match protocol's, as dicts: ``match`` holds
``settings`` (every setting's value), ``seats`` (per seat ``{"bot": name,
"settings": {...}}``, seat 0 first) and ``seed``; the answer ``scores`` and
``winners`` (seats) and ``length``, optionally ``ended_by`` (``"rules"`` or
``"cap"``), ``trace`` (every seat's score after 0, 1, 2, ... steps) and ``features``
(per-seat lists of declared figures). Raising refuses the match: it fails, with the
exception's message, and the run goes on.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Sequence

from . import _playtune
from ._playtune import PlaytuneError
from .spaces import _dim_lines, _ron_string


class Game:
    """A game played in this Python process. Set the class attributes and write
    :meth:`play`; then :func:`register_game`."""

    #: The game's name, as functions taking a game take it.
    name: str = ""
    #: One line on what the game is.
    about: str = ""
    #: Seats in a match.
    players: int = 2
    #: The game's settings, as a space dict's ``dims`` (:func:`playtune.space_from_dict`):
    #: each a domain and a default (the game's own rules). They are the design space.
    settings: Any = {}
    #: The game's own bots, each ``{"name": ..., "about": ..., "settings": dims}``
    #: (a bot's settings are what ``tune-agent`` searches), weakest first.
    bots: Sequence[Mapping[str, Any]] = ()
    #: Agent specs, weakest first: the design ladder (by default every bot in order).
    ladder: Sequence[str] = ()
    #: What a playable game is, as constraints on the design metrics
    #: (``"stalemate_rate <= 0.05"``): design runs hold the search to them.
    playable: Sequence[str] = ()
    #: Names of per-seat figures a match may report under ``features``.
    features: Sequence[str] = ()
    #: Whether every match reports a ``trace`` (every seat's score after each step):
    #: the lead metrics (``lead_changes``, ``decided_at``) need one, and are
    #: unavailable for a game that does not say so.
    traced: bool = False

    def play(self, match: Dict[str, Any]) -> Mapping[str, Any]:
        """Plays one match with the game's own bots and says how it went."""
        raise NotImplementedError("a Game plays its matches in play(match)")


def _ron_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(_ron_string(str(x)) for x in items) + "]"


def description(game: Game) -> str:
    """The game's description, as a game description file would hold it (RON)."""
    if not isinstance(game, Game):
        raise PlaytuneError(f"register_game takes a playtune.Game, not {type(game).__name__}")
    out = "(\n"
    out += f"    name: {_ron_string(str(game.name))},\n"
    out += f"    about: {_ron_string(str(game.about))},\n"
    out += f"    players: {int(game.players)},\n"
    out += "    settings: [\n" + "".join(f"        {line},\n" for line in _dim_lines(game.settings)) + "    ],\n"
    out += "    bots: [\n"
    for b in game.bots:
        b = dict(b)
        name = b.pop("name", None)
        if not isinstance(name, str):
            raise PlaytuneError(f"{type(game).__name__}.bots: a bot needs a string `name`: {b!r}")
        about = str(b.pop("about", ""))
        dims = b.pop("settings", None)
        if b:
            raise PlaytuneError(f"bot {name}: unknown keys {sorted(b)} (give name, about, settings)")
        out += f"        (name: {_ron_string(name)}, about: {_ron_string(about)}"
        if dims:
            out += ", settings: [" + ", ".join(_dim_lines(dims)) + "]"
        out += "),\n"
    out += "    ],\n"
    if game.traced:
        out += "    traced: true,\n"
    for field in ("ladder", "playable", "features"):
        values = list(getattr(game, field) or ())
        if values:
            out += f"    {field}: {_ron_list(values)},\n"
    return out + ")\n"


#: The reference (``FILE.py:NAME``) of each game registered to play in worker
#: processes, by name: what a run records, so that the command line finds it.
_REFERENCES: Dict[str, str] = {}


def reference(name: str) -> str:
    """What a run records for the game ``name``: its reference where it was registered
    to play in worker processes (the command line then reaches it), else ``name``."""
    return _REFERENCES.get(str(name).strip(), name)


def register_game(
    game: Game,
    *,
    workers: int = 0,
    in_process: bool = False,
    timeout: float = 60.0,
) -> str:
    """Makes ``game`` known by its name to every function that takes a game; a game
    registered before under that name is replaced. Returns the name.

    The game plays its matches in ``workers`` processes (0, the default: one per core),
    each ``python -m playtune.worker serve REF`` over the match protocol, ``timeout``
    seconds a match at most, where ``REF`` names it from another process (the module
    attribute that holds it, or its class; see :mod:`playtune.worker`). A run records
    that reference as its game, so ``playtune resume``, ``reevaluate`` and ``report``
    reach it from the command line. A game no other process can name (made inside a
    function), or ``in_process=True``, plays in this process, one match at a time,
    and only this process knows it (a warning says so for the first). There a
    ``play`` past ``timeout`` is interrupted (TimeoutError, raised between bytecodes:
    one long C call ends first), Ctrl-C interrupts it, KeyboardInterrupt or SystemExit
    raised in ``play`` stops the run or tournament and is raised again, and ``play``
    may not call playtune itself (it would wait on its own match).
    """
    from . import worker

    text = description(game)
    if worker.in_worker():
        # A game module imported by a game process registers nothing: its matches
        # are this process's own.
        return str(game.name)
    ref = None if in_process else worker.reference_of(game)
    if ref is not None:
        import shlex
        import sys

        command = f"{shlex.quote(sys.executable)} -m playtune.worker serve {shlex.quote(ref)}"
        name = _playtune.register_game_process(text, ref, command, int(workers), float(timeout))
        _REFERENCES[name] = ref
        return name
    if not in_process:
        import warnings

        warnings.warn(
            f"game {game.name!r} is made where no other process can name it (inside a function?): "
            "it plays in this process, one match at a time, and the command line cannot reach its runs; "
            "make it at a module's top level (or pass in_process=True to silence this)",
            stacklevel=2,
        )
    _REFERENCES.pop(str(game.name), None)

    def play_line(line: str) -> str:
        request = json.loads(line)
        reply = dict(game.play(request))
        reply["id"] = request["id"]
        return json.dumps(reply)

    return _playtune.register_game(text, f"<{type(game).__name__}>", play_line, float(timeout))
