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

A game may bring only its rules instead of bots: a method
``new_initial_state(settings)`` returning a state with OpenSpiel's State API
(``current_player()`` (a seat, -1 at a chance node, -4 once over),
``legal_actions()``, ``apply_action(a)``, ``is_terminal()``, ``returns()``,
``is_chance_node()`` and ``chance_outcomes()``, ``clone()``; where a seat may not see
everything, ``hidden_information = True`` and ``resample_from_infostate(player,
sampler)``; optionally ``heuristic_value(player)``). playtune's own bots (``random``,
``osla``, ``mcts``, ``ismcts``, the rolling-horizon agents) then play it, searched in
Rust, and a design run gets a ladder of them (docs/own-rules.md)::

    class TicTacToe(playtune.Game):
        name = "tictactoe"
        def new_initial_state(self, settings):
            return Board()
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
    #: For a game that brings its rules (``new_initial_state``): whether a seat may
    #: not see everything. Search bots then decide on states re-sampled by
    #: ``resample_from_infostate``; a game that gives none is played by ``random`` only.
    hidden_information: bool = False
    #: For a game that brings its rules: the moves after which a match ends by the cap.
    max_steps: int = 10_000

    def play(self, match: Dict[str, Any]) -> Mapping[str, Any]:
        """Plays one match with the game's own bots and says how it went. A game that
        brings only its rules (``new_initial_state``) needs none: playtune's bots play
        its matches."""
        if is_forward(self):
            return _play_forward(self, match)
        raise NotImplementedError("a Game plays its matches in play(match), or gives its rules in new_initial_state(settings)")

    def bot(self, spec: str, seat: int, seed: int = 0) -> Any:
        """One of playtune's bots (``"mcts(iterations=200)"``) for ``seat`` of this
        game, outside a match: ``bot.step(state)`` returns its move in ``state`` (which
        it leaves as it was). The same seed and states give the same moves."""
        if not is_forward(self):
            raise PlaytuneError(f"game {self.name!r} gives no rules (new_initial_state): playtune's bots cannot play it")
        info = _forward_info(self)
        return _playtune.ForwardBot(
            str(self.name), str(spec), int(seat), int(seed) % (1 << 64), int(self.players),
            hidden=info["hidden"], searchable=info["searchable"], heuristic=info["heuristic"],
        )


def is_forward(game: Any) -> bool:
    """Whether ``game`` brings its rules (``new_initial_state``)."""
    return callable(getattr(game, "new_initial_state", None)) and not _is_openspiel(game)


def _is_openspiel(game: Any) -> bool:
    return type(game).__module__.startswith("playtune.openspiel")


def initial_state(game: Any, settings: Mapping[str, Any]) -> Any:
    """The game's initial state under ``settings``: ``new_initial_state(settings)``,
    or ``new_initial_state()`` for a game with nothing to set."""
    import inspect

    try:
        takes = len(inspect.signature(game.new_initial_state).parameters) > 0
    except (TypeError, ValueError):
        takes = True
    return game.new_initial_state(dict(settings)) if takes else game.new_initial_state()


def _defaults(game: Any) -> Dict[str, Any]:
    dims = game.settings
    items = dims.items() if isinstance(dims, Mapping) else ((d["name"], d) for d in dims)
    out = {}
    for name, d in items:
        if "default" in d:
            out[name] = d["default"]
    return out


def _forward_info(game: Any) -> Dict[str, bool]:
    """How playtune's bots search ``game``, read once from a state at its defaults."""
    info = getattr(game, "_playtune_forward", None)
    if info is None:
        state = initial_state(game, _defaults(game))
        hidden = bool(getattr(game, "hidden_information", False))
        resamples = callable(getattr(state, "resample_from_infostate", None))
        info = {
            "hidden": hidden,
            "searchable": (not hidden) or resamples,
            "heuristic": callable(getattr(state, "heuristic_value", None)),
        }
        try:
            game._playtune_forward = info
        except AttributeError:  # a game object that takes no attributes
            pass
    return info


def seat_spec(seat: Mapping[str, Any]) -> str:
    """A match request's seat as an agent spec, ``NAME(KEY=VALUE,...)``."""
    settings = seat.get("settings") or {}
    if not settings:
        return str(seat["bot"])
    items = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in settings.items())
    return f"{seat['bot']}({items})"


def _play_forward(game: Any, match: Mapping[str, Any]) -> Dict[str, Any]:
    info = _forward_info(game)
    own = {b.get("name") for b in game.bots}
    seats = list(match["seats"])
    mine = [s["bot"] for s in seats if s["bot"] in own]
    if mine:
        raise PlaytuneError(
            f"the game's own bots ({', '.join(mine)}) play in its play(match); playtune's bots play the rest of its matches"
        )
    state = initial_state(game, match["settings"])
    return _playtune.play_forward(
        str(game.name), state, [seat_spec(s) for s in seats], int(match["seed"]) % (1 << 64),
        int(game.players), hidden=info["hidden"], searchable=info["searchable"],
        max_steps=int(game.max_steps), heuristic=info["heuristic"],
    )


def dispatch(game: Any, match: Dict[str, Any]) -> Mapping[str, Any]:
    """Plays ``match``: with playtune's bots over the game's rules where every seat
    holds one of them, else with the game's own ``play``."""
    if is_forward(game) and type(game).play is not Game.play:
        own = {b.get("name") for b in game.bots}
        if not any(s["bot"] in own for s in match["seats"]):
            return _play_forward(game, match)
    return game.play(match)


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
    if is_forward(game):
        info = _forward_info(game)
        out += "    forward_model: true,\n"
        if info["hidden"]:
            out += "    hidden: true,\n"
            if not info["searchable"]:
                out += "    resample: false,\n"
        if int(game.max_steps) != 10_000:
            out += f"    max_steps: {int(game.max_steps)},\n"
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
        reply = dict(dispatch(game, request))
        reply["id"] = request["id"]
        return json.dumps(reply)

    return _playtune.register_game(text, f"<{type(game).__name__}>", play_line, float(timeout))
