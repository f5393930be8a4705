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
sampler)``; optionally ``heuristic_value(player)``, and ``playout(seed, max_steps)``,
which plays up to ``max_steps`` uniformly random moves on the state from ``seed`` and
returns how many it played: one call a playout for the search, instead of three a
move). playtune's own bots (``random``,
``osla``, ``mcts``, ``ismcts``, the rolling-horizon agents) then play it, searched in
Rust, and a design run gets a ladder of them (docs/own-rules.md)::

    class TicTacToe(playtune.Game):
        name = "tictactoe"
        def new_initial_state(self, settings):
            return Board()
"""
from __future__ import annotations

import json
import numbers
import os
import sys
from typing import Any, Dict, List, Mapping, Optional, Sequence

from . import _playtune
from ._playtune import PlaytuneError
from ._protocol import ServedGame, reply
from .spaces import dimensions, ron_file

# playtune.worker (which does not import this module) is imported inside the functions
# that use it, not here: the package imports this module, and `python -m
# playtune.worker` must not find the worker imported before it runs it (runpy warns).


class Game(ServedGame):
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
        if not isinstance(spec, str):
            raise PlaytuneError(f"spec={spec!r}: give a bot spec as text, such as \"mcts(iterations=200)\"")
        players = _players(self)
        # The checks register_game makes: 1.5, True and "0" are no seats.
        seat = whole_number(seat, "seat", 0, players - 1)
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise PlaytuneError(f"seed={seed!r}: give a whole number (an int), not a {type(seed).__name__}")
        info = _forward_info(self)
        return _playtune.ForwardBot(
            str(self.name), spec, seat, int(seed) % (1 << 64), players,
            hidden=info["hidden"], searchable=info["searchable"], heuristic=info["heuristic"],
            playout=info["playout"],
        )

    # What a game process asks of its game (playtune.worker, which knows a game by
    # ServedGame and does not import this module).
    def _playtune_description(self) -> str:
        return description(self)

    def _playtune_answer(self, match: Dict[str, Any]) -> Mapping[str, Any]:
        return dispatch(self, match)


def whole_number(value: Any, what: str, least: int, most: Optional[int] = None) -> int:
    """``value`` as the whole number ``what`` is, from ``least`` (to ``most``): an int
    (numpy's too), never a float, a string or a bool, which ``int()`` would quietly
    turn into another number (``players = 2.7`` played as 2 seats)."""
    span = f"from {least} to {most}" if most is not None else f"of at least {least}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise PlaytuneError(f"{what}={value!r}: give a whole number {span} (an int), not a {type(value).__name__}")
    if int(value) < least or (most is not None and int(value) > most):
        raise PlaytuneError(f"{what}={value!r}: give a whole number {span}")
    return int(value)


def _players(game: Any) -> int:
    return whole_number(game.players, f"{type(game).__name__}.players", 1)


def _max_steps(game: Any) -> int:
    return whole_number(game.max_steps, f"{type(game).__name__}.max_steps", 1)


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
    where = f"{type(game).__name__}.new_initial_state()"
    try:
        state = game.new_initial_state(dict(settings)) if takes else game.new_initial_state()
    except Exception as e:
        raise PlaytuneError(f"{where} raised {type(e).__name__}: {e}") from e
    # Named here: a None played on would fail as `current_player()`, a rule it never had.
    if not callable(getattr(state, "current_player", None)):
        raise PlaytuneError(
            f"{where} returned {state!r}: give a state, an object with current_player(), legal_actions(), apply_action(), ..."
        )
    return state


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
        _check_clone(game, state)
        hidden = bool(getattr(game, "hidden_information", False))
        resamples = callable(getattr(state, "resample_from_infostate", None))
        info = {
            "hidden": hidden,
            "searchable": (not hidden) or resamples,
            "heuristic": callable(getattr(state, "heuristic_value", None)),
            "playout": callable(getattr(state, "playout", None)),
        }
        try:
            game._playtune_forward = info
        except AttributeError:  # a game object that takes no attributes
            pass
    return info


def _where(state: Any) -> Any:
    """What a search reads of ``state``: whose turn, and the moves or outcomes."""
    player = state.current_player()
    if player == -4 or state.is_terminal():
        return (player, "over")
    if player == -1:  # a chance node, as OpenSpiel numbers it
        return (player, [a for a, _ in state.chance_outcomes()])
    return (player, list(state.legal_actions()))


def _check_clone(game: Any, state: Any) -> None:
    """Refuses a ``clone()`` that is no copy, found on the initial state: one that
    returns the state itself, or shares what a move changes (a list assigned, not
    copied). A search plays its moves on clones: such a clone would play them on the
    match's own state, and the match would end in a few moves, quietly wrong. A
    ``clone`` or rule that raises here is left to the matches, which say so."""
    where = f"{type(game).__name__}: clone()"
    try:
        copy = state.clone()
        if copy is state:
            raise PlaytuneError(f"{where} returned the state itself: give an independent copy (a new object, every mutable part copied)")
        before = _where(state)
        if before[1] == "over" or not before[1]:
            return
        move = before[1][0]
        copy.apply_action(move)
        after = _where(state)
    except PlaytuneError:
        raise
    except Exception:  # noqa: BLE001 (a rule that fails here fails its matches, saying so)
        return
    if after != before:
        raise PlaytuneError(
            f"{where}: applying move {move} to a clone of the initial state changed the state it was cloned from "
            f"({before} became {after}): copy every mutable part (`list(self.cells)`, `copy.deepcopy`), do not share it"
        )


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
        _players(game), hidden=info["hidden"], searchable=info["searchable"],
        max_steps=_max_steps(game), heuristic=info["heuristic"],
        features=[str(f) for f in getattr(game, "features", ())], show=bool(match.get("show", False)),
        playout=info["playout"],
    )


def dispatch(game: Any, match: Dict[str, Any]) -> Mapping[str, Any]:
    """Plays ``match``: with playtune's bots over the game's rules where every seat
    holds one of them, else with the game's own ``play``."""
    if is_forward(game) and type(game).play is not Game.play:
        own = {b.get("name") for b in game.bots}
        if not any(s["bot"] in own for s in match["seats"]):
            return _play_forward(game, match)
    return game.play(match)


def _bot(game: Game, bot: Mapping[str, Any]) -> Dict[str, Any]:
    """One of ``game.bots`` as its description's struct."""
    b = dict(bot)
    name = b.pop("name", None)
    if not isinstance(name, str):
        raise PlaytuneError(f"{type(game).__name__}.bots: a bot needs a string `name`: {b!r}")
    about = str(b.pop("about", ""))
    dims = b.pop("settings", None)
    if b:
        raise PlaytuneError(f"bot {name}: unknown keys {sorted(b)} (give name, about, settings)")
    out: Dict[str, Any] = {"name": name, "about": about}
    if dims:
        out["settings"] = dimensions(dims)
    return out


def description(game: Game) -> str:
    """The game's description, as a game description file would hold it (RON)."""
    if not isinstance(game, Game):
        raise PlaytuneError(f"register_game takes a playtune.Game, not {type(game).__name__}")
    fields: Dict[str, Any] = {
        "name": str(game.name),
        "about": str(game.about),
        "players": _players(game),
        "settings": dimensions(game.settings),
        "bots": [_bot(game, b) for b in game.bots],
    }
    if game.traced:
        fields["traced"] = True
    if is_forward(game):
        max_steps = _max_steps(game)  # the class's own fields before its states
        info = _forward_info(game)
        fields["forward_model"] = True
        if info["hidden"]:
            fields["hidden"] = True
            if not info["searchable"]:
                fields["resample"] = False
        if max_steps != 10_000:
            fields["max_steps"] = max_steps
    for field in ("ladder", "playable", "features"):
        values = [str(x) for x in getattr(game, field) or ()]
        if values:
            fields[field] = values
    return ron_file(fields, spread=("settings", "bots"))


#: The reference (``FILE.py:NAME``) of each game registered to play in worker
#: processes, by name: what a run records, so that the command line finds it.
_REFERENCES: Dict[str, str] = {}


def reference(name: str) -> str:
    """What a run records for the game ``name``: its reference where it was registered
    to play in worker processes (the command line then reaches it), else ``name``."""
    return _REFERENCES.get(str(name).strip(), name)


#: The most game processes one game may have (``register_game(workers=...)``).
MAX_WORKERS = 1024


def check_script_guard(what: str, game: Optional[str] = None) -> None:
    """Refuses ``playtune.<what>()`` where it runs because a game process imports the
    user's script: a script that defines its game and runs a design at its top level,
    with no ``if __name__ == "__main__":`` guard, is run again by every game process
    that imports it for the game, and its matches would fail for reasons that name
    something else (an unknown game). ``game``: the game the call plays, if any.

    Two places see it. In the game process, while :mod:`playtune.worker` imports the
    game's module: the call is the script run again. In the script's own process, at
    once, before anything starts: the game lives in the script run as ``__main__``
    and the call comes from one of its top-level statements outside the guard, which
    a game process's import would run again."""
    from . import worker  # not at the top: see the imports

    if worker.in_worker():
        # By file and name, not identity: `python -m playtune.worker` runs the
        # module as __main__, a copy of the `playtune.worker` imported here.
        loading = (worker.load.__code__.co_filename, "load")
        script = None
        f = sys._getframe(1)
        while f is not None and (f.f_code.co_filename, f.f_code.co_name) != loading:
            if f.f_code.co_name == "<module>":
                script = f.f_code.co_filename
            f = f.f_back
        if f is None:
            return  # a match being played may call playtune: only the import may not
        where = script or "the game's module"
        raise PlaytuneError(
            f"{where}: playtune.{what}() ran while a game process imported the file for its game: "
            "the file runs it at its top level. Put the lines that run a design, a tournament or an evaluation under "
            '`if __name__ == "__main__":` so that importing the file only defines the game'
        )
    if game is None:
        return
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    ref = _REFERENCES.get(str(game).strip())
    if not path or ref is None or os.path.abspath(ref.rpartition(":")[0]) != os.path.abspath(path):
        return
    f = sys._getframe(1)
    while f is not None and not (f.f_code.co_name == "<module>" and f.f_globals is vars(main)):
        f = f.f_back
    if f is None or _guarded(path, f.f_lineno):
        return
    raise PlaytuneError(
        f"{path}, line {f.f_lineno}: playtune.{what}() runs at the script's top level, and the game `{game}` lives in this "
        "script: each of its game processes imports the script to play its matches, and would run this line again. "
        'Put the lines that run it under `if __name__ == "__main__":` (the game and register_game may stay above it), '
        "or keep the game in a module of its own"
    )


def _guarded(path: str, line: int) -> bool:
    """Whether ``line`` of the script ``path`` is inside an ``if __name__ ==
    "__main__":`` block at its top level (where an import does not run it). A file
    that cannot be read or parsed is taken as guarded: nothing is refused on a guess."""
    import ast

    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return True
    for node in tree.body:
        if not (node.lineno <= line <= (node.end_lineno or node.lineno)):
            continue
        if not isinstance(node, ast.If) or not node.body:
            return False
        t = node.test
        sides = [t.left, *t.comparators] if isinstance(t, ast.Compare) else []
        names = {x.id for x in sides if isinstance(x, ast.Name)}
        texts = {x.value for x in sides if isinstance(x, ast.Constant)}
        is_guard = len(sides) == 2 and isinstance(t.ops[0], ast.Eq) and names == {"__name__"} and texts == {"__main__"}
        return is_guard and node.body[0].lineno <= line <= (node.body[-1].end_lineno or line)
    return True


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

    ``workers`` is a whole number from 0 to :data:`MAX_WORKERS` and ``timeout`` a
    number: ``2.5``, ``"2"`` or ``True`` is refused, never converted. A game process
    imports the file that holds the game: a script that holds its game runs its design
    under ``if __name__ == "__main__":`` (see :func:`check_script_guard`).
    """
    from . import worker  # not at the top: see the imports

    # Checked here, where the arguments are named: the binding would take 2.5 as 2,
    # "5" as 5 seconds, True as one worker, and -1 as an OverflowError.
    workers = whole_number(workers, "register_game: workers", 0, MAX_WORKERS)
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
        raise PlaytuneError(
            f"register_game: timeout={timeout!r}: give the seconds a match may take as a number, not a {type(timeout).__name__}"
        )
    text = description(game)
    if worker.in_worker():
        # A game module imported by a game process registers nothing: its matches
        # are this process's own.
        return str(game.name)
    ref = None if in_process else worker.reference_of(game)
    if ref is not None:
        import shlex

        # `exec`: the interpreter is the process, so that a signal that ends it is named.
        command = f"exec {shlex.quote(sys.executable)} -m playtune.worker serve {shlex.quote(ref)}"
        name = _playtune.register_game_process(text, ref, command, workers, float(timeout))
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
        return reply(request["id"], dispatch(game, request))

    start = None
    if is_forward(game):
        # A match of playtune's bots alone is played in Rust on the game's states,
        # from this: no request line, no reply line (what _play_forward does with one).
        def start(settings: Dict[str, Any]) -> Any:
            info = _forward_info(game)
            return initial_state(game, settings), info["heuristic"], info["playout"]

    return _playtune.register_game(text, f"<{type(game).__name__}>", play_line, float(timeout), start)
