"""Any OpenSpiel game, designed and tuned by playtune (docs/your-own-game.md#openspiel).

OpenSpiel (``pip install open_spiel``) is an optional extra: this module imports it
when a game is made. :class:`OpenSpielGame` is a :class:`playtune.Game` whose matches
OpenSpiel plays: the game parameters the user names, with their domains, are the
design space; the bots are OpenSpiel's uniform random bot and an MCTS bot chosen by
the game's kind, plus any the user adds::

    pig = OpenSpielGame("pig", {"winscore": {"int": [10, 100], "step": 10, "default": 100}})
    playtune.register_game(pig)          # known as "openspiel-pig", played on every core
    playtune.tournament("openspiel-pig", ["random", "mcts(simulations=50)"], games=100)

The ``mcts`` bot is, by the game's kind (:func:`search_kind`):

- ``mcts``: a perfect-information game written in C++: pyspiel's C++ ``MCTSBot``
  with random rollouts.
- ``playtune-mcts``: a perfect-information game written in Python: playtune's MCTS, in
  Rust, over the game's Python states (OpenSpiel's Python ``MCTSBot`` is several times
  slower at equal simulations, and pyspiel's C++ MCTS crashes on Python games).
- ``playtune-ismcts``: an imperfect-information game that resamples a state from a
  player's information state (leduc poker): playtune's information-set MCTS over
  OpenSpiel's resampler, which replays from its seed where pyspiel's ``ISMCTSBot``
  does not. A game written in Python that gives no resampler is resampled by
  :func:`sample_world` instead.
- ``determinized``: any other imperfect-information game written in C++ that gives
  information state (or observation) strings: ``worlds`` states consistent with what
  the bot has seen are sampled (:func:`sample_world`) and searched by the C++ MCTS,
  their root visit counts summed. The bot never reads the true state, so it cannot
  see the opponent's hidden cards or dice.

A simultaneous-move game (and a game that hides information but gives no
information state string) has no ``mcts`` bot: the random bot and the user's bots
play it. Chance nodes are sampled from the match's seed. A match that reaches
``max_steps`` ends by the cap. The winners are the seats with the highest return (all
of them on a draw).

:meth:`OpenSpielGame.bot` is a bot outside a match: one of the game's bots, or one of
playtune's (``osla``, ``mcts(iterations=N)``, ``ismcts(iterations=N)``, the
rolling-horizon agents) searched in Rust over the game's states as the
``playtune-*`` kinds above search them.
"""
from __future__ import annotations

import math
import numbers
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ._playtune import PlaytuneError
from .games import Game, whole_number

#: A bot factory: (OpenSpiel game, seat, the bot's settings, numpy RandomState) -> an
#: object with ``step(state) -> action`` (a ``pyspiel.Bot`` is one).
BotFactory = Callable[[Any, int, Dict[str, Any], Any], Any]

#: Loaded games kept per adapter: one per design point played lately.
_CACHE_SIZE = 32
#: Searches for one sampled world at most: a search that gave up on as many nodes as
#: the world may take steps restarts with new random orders.
_SAMPLE_RESTARTS = 50
#: Children the searches for one sampled world try at most, this many a step it may take.
_SAMPLE_CHILDREN = 50


def _pyspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise PlaytuneError(
            "OpenSpiel is not installed: pip install open_spiel (playtune's OpenSpiel adapter needs it)"
        ) from e
    return pyspiel


def _seed(rng: Any) -> int:
    return int(rng.randint(1 << 31))


def is_python_game(game: Any) -> bool:
    """Whether the game is written in Python (a ``pyspiel.Game`` subclass defined
    outside pyspiel; pyspiel's own C++ games have classes of their own too)."""
    return not type(game).__module__.startswith("pyspiel")


class _QuietStderr:
    """Silences the C++ side's own line on a refused call (file descriptor 2)."""

    def __enter__(self) -> None:
        import os
        import sys

        sys.stderr.flush()
        self.saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)

    def __exit__(self, *exc: Any) -> None:
        import os

        os.dup2(self.saved, 2)
        os.close(self.saved)


def _can_resample(game: Any) -> bool:
    """Whether the game's states resample from a player's information state (what
    pyspiel's ISMCTS needs): tried on the first decision of a random playout."""
    with _QuietStderr():
        return _resamples(game)


def _resamples(game: Any) -> bool:
    import numpy as np

    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    for _ in range(1000):
        if state.is_terminal():
            return False
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
            continue
        if state.is_simultaneous_node():
            return False
        try:
            state.resample_from_infostate(state.current_player(), lambda: float(rng.rand()))
            return True
        except Exception:
            return False
    return False


def search_kind(game: Any) -> Tuple[Optional[str], str]:
    """Which MCTS plays ``game`` (``mcts``, ``determinized``, ``playtune-mcts``,
    ``playtune-ismcts``, ``playtune-ismcts-sampled``, or None where none can) and why,
    in one line for ``playtune games``."""
    pyspiel = _pyspiel()
    t = game.get_type()
    if t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        return None, "no MCTS bot: moves are simultaneous (the random bot and your bots play it)"
    if t.reward_model != pyspiel.GameType.RewardModel.TERMINAL:
        return None, "no MCTS bot: OpenSpiel's MCTS takes games whose rewards come at the end only"
    python = is_python_game(game)
    if t.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        if python:
            return "playtune-mcts", "playtune's MCTS in Rust over the game's Python states"
        return "mcts", "pyspiel's C++ MCTS with random rollouts"
    resamples = _can_resample(game)
    if not (resamples or t.provides_information_state_string or t.provides_observation_string):
        return None, "no MCTS bot: the game hides information and gives no information state string"
    if resamples:
        return "playtune-ismcts", (
            "playtune's information-set MCTS over OpenSpiel's resampler (the game hides information)"
        )
    if python:
        return "playtune-ismcts-sampled", (
            "playtune's information-set MCTS on worlds sampled from what the bot has seen (the game hides information)"
        )
    return "determinized", (
        "pyspiel's C++ MCTS on worlds sampled from what the bot has seen (the game hides information)"
    )


def _view(state: Any, player: int, strings: str) -> str:
    try:
        if strings == "infostate":
            return state.information_state_string(player)
        return state.observation_string(player)
    except Exception:  # a chance or terminal node some games do not describe
        return ""


def _strings(game: Any) -> Tuple[str, str]:
    """Which strings are a seat's views of ``game``: those followed step by step
    (observation strings where the game gives them, else information state strings)
    and those that identify a state to the seat (information state strings where the
    game gives them, else observation strings). A game's information state string may
    hold what the seat is told at one moment and not later (dark hex's holds the move
    count, so following it step by step would read the turn order); its observation
    strings are what the seat sees at each step."""
    t = game.get_type()
    identify = "infostate" if t.provides_information_state_string else "observation"
    follow = "observation" if t.provides_observation_string else identify
    return follow, identify


def _seen(state: Any, player: int, follow: str) -> Tuple[List[Tuple[str, Any]], List[str]]:
    """What ``player`` saw of how ``state`` came about, as events in order:
    ``("own", action)`` for each of its moves and ``("view", view)`` for each change
    of its view (its ``follow`` strings). Equal consecutive views are one, so the
    events do not tell how many moves others made without changing its view. Also
    ``views``: ``views[k]`` is its view after the first ``k`` events (``views[0]``
    the initial one)."""
    replay = state.get_game().new_initial_state()
    views = [_view(replay, player, follow)]
    events: List[Tuple[str, Any]] = []
    for a in state.history():
        if replay.current_player() == player:
            events.append(("own", int(a)))
            views.append(views[-1])
        replay.apply_action(a)
        v = _view(replay, player, follow)
        if v != views[-1]:
            events.append(("view", v))
            views.append(v)
    return events, views


def sample_world(state: Any, player: int, rng: Any) -> Optional[Any]:
    """A state ``player`` cannot tell from ``state``: a history from the game's initial
    state, its chance outcomes and other players' moves drawn from ``rng``, in which
    ``player`` sees what it saw; None where none was found.

    It reads the true history only through :func:`_seen`: ``player``'s own moves and
    each change of its view, in order (its observation strings where the game gives
    them, else its information state strings), and through its view now (its
    information state string where the game gives one). Moves that left its view as
    it was count for nothing, so the turn order it cannot see (in dark hex a move onto
    a hidden stone is invisible to the other player and the mover moves again) is read
    nowhere: two states with the same events and view now give the same world from
    the same ``rng`` state.

    The world is searched depth first from the initial state. At ``player``'s turn the
    next event must be its own move, which is played; once every event is matched, its
    turn ends the search, the world found if its view now is the true one. At a chance
    node the outcomes are tried in an order drawn without replacement by probability;
    at another player's node its legal moves in a random order, those that change
    ``player``'s view or hand it the turn before those that do neither. A child is kept
    when ``player``'s view of it is its view so far (a move it cannot see) or the next
    change it saw; a terminal child is not. A world takes at most ``4 x events + 50``
    steps. A search that has given up on that many nodes restarts with new orders,
    ``_SAMPLE_RESTARTS`` searches at most, which together try at most
    ``_SAMPLE_CHILDREN`` children a step of that cap; a search that has tried every
    child finds none."""
    game = state.get_game()
    follow, identify = _strings(game)
    events, views = _seen(state, player, follow)
    target = None if identify == follow else _view(state, player, identify)
    steps = 4 * len(events) + 50
    children = [_SAMPLE_CHILDREN * steps]
    for _ in range(_SAMPLE_RESTARTS):
        world, stuck = _search_world(game, player, events, views, target, (follow, identify), steps, children, rng)
        if world is not None or not stuck:
            return world
    return None


def _search_world(
    game: Any,
    player: int,
    events: List[Tuple[str, Any]],
    views: List[str],
    target: Optional[str],
    strings: Tuple[str, str],
    steps: int,
    children: List[int],
    rng: Any,
) -> Tuple[Optional[Any], bool]:
    """One depth-first search of :func:`sample_world`: (the world or None, whether
    another search may find one: this one gave up on ``steps`` nodes). ``children``
    holds the children left to try, which it spends."""
    follow, identify = strings
    given_up = 0
    # A frame: [node, events matched, actions to try, next one, silent children held back].
    stack: List[List[Any]] = [[game.new_initial_state(), 0, None, 0, []]]
    while stack:
        frame = stack[-1]
        node, k, order, i, held = frame
        if order is None:
            order = []
            if node.is_terminal() or node.is_simultaneous_node():
                pass
            elif node.current_player() == player and k == len(events):
                if target is None or _view(node, player, identify) == target:
                    return node, False
            elif len(stack) > steps:  # the world has taken its steps
                pass
            elif node.current_player() == player:
                if events[k][0] == "own" and events[k][1] in node.legal_actions(player):
                    order = [events[k][1]]
            elif node.is_chance_node():
                outcomes, probs = zip(*node.chance_outcomes())
                # An order drawn without replacement, each outcome by its probability
                # (Efraimidis-Spirakis keys): the first consistent one is drawn by its
                # probability among the consistent ones.
                keys = [-math.log(max(rng.rand(), 1e-300)) / max(p, 1e-300) for p in probs]
                order = [int(outcomes[j]) for j in sorted(range(len(keys)), key=keys.__getitem__)]
            else:
                legal = list(node.legal_actions())
                order = [int(legal[j]) for j in rng.permutation(len(legal))]
            frame[2] = order
        if i == len(order):
            if held:  # the moves player cannot see that kept the turn from it, last
                child, matched = held.pop(0)
                stack.append([child, matched, None, 0, []])
                continue
            stack.pop()
            given_up += 1
            if given_up >= steps:
                return None, True
            continue
        frame[3] = i + 1
        children[0] -= 1
        if children[0] < 0:
            return None, False
        own = node.current_player() == player
        matched = k + 1 if own else k
        child = node.child(order[i])
        if child.is_terminal():
            continue
        seen = _view(child, player, follow)
        if seen != views[matched]:
            if matched < len(events) and events[matched] == ("view", seen):
                matched += 1
            else:
                continue
        if not own and matched == k and not node.is_chance_node() and child.current_player() != player:
            held.append((child, matched))
            continue
        stack.append([child, matched, None, 0, []])
    return None, False


class _Random:
    """Uniform over the legal actions, drawn from the match's generator."""

    def __init__(self, seat: int, rng: Any) -> None:
        self.seat, self.rng = seat, rng

    def step(self, state: Any) -> int:
        legal = state.legal_actions(self.seat)
        return int(legal[self.rng.randint(len(legal))])


def _random_bot(game: Any, seat: int, settings: Dict[str, Any], rng: Any) -> Any:
    return _Random(seat, rng)


def _cpp_mcts(game: Any, settings: Dict[str, Any], rng: Any, simulations: int) -> Any:
    pyspiel = _pyspiel()
    evaluator = pyspiel.RandomRolloutEvaluator(int(settings["rollouts"]), _seed(rng))
    return pyspiel.MCTSBot(
        game, evaluator, float(settings["uct_c"]), int(simulations), 1000, False, _seed(rng), False
    )


class _Determinized:
    """MCTS over sampled worlds: ``worlds`` states consistent with the seat's view,
    each searched with an equal share of the simulations, the root's visit counts
    summed; the most visited action is played (ties by the bot's generator)."""

    def __init__(self, seat: int, search: Any, worlds: int, rng: Any) -> None:
        self.seat, self.search, self.worlds, self.rng = seat, search, worlds, rng

    def step(self, state: Any) -> int:
        legal = [int(a) for a in state.legal_actions(self.seat)]
        if len(legal) == 1:
            return legal[0]
        visits = {a: 0 for a in legal}
        for _ in range(self.worlds):
            world = sample_world(state, self.seat, self.rng)
            if world is None:
                continue
            root = self.search.mcts_search(world)
            for c in root.children:
                if int(c.action) in visits:
                    visits[int(c.action)] += int(c.explore_count)
        best = max(visits.values())
        tied = [a for a in legal if visits[a] == best]
        return tied[self.rng.randint(len(tied))]


#: How deep playtune's MCTS rolls out: to the end of the game, as OpenSpiel's does.
_PLAYTUNE_DEPTH = 1000


def _playtune_kind(search: Optional[str]) -> Optional[str]:
    """How playtune's bots search a game whose MCTS is of kind ``search``
    (:func:`search_kind`): ``playtune-mcts`` over the true state where nothing is
    hidden, ``playtune-ismcts`` over OpenSpiel's resampler, ``playtune-ismcts-sampled``
    over worlds drawn by :func:`sample_world`; None where no MCTS plays the game."""
    if search in ("mcts", "playtune-mcts"):
        return "playtune-mcts"
    if search in ("determinized", "playtune-ismcts-sampled"):
        return "playtune-ismcts-sampled"
    return search


def _sampled_world(state: Any, player: int, seed: int) -> Any:
    """The resampler playtune's bots get for a game that gives none of its own."""
    import numpy as np

    return sample_world(state, player, np.random.RandomState(seed % (1 << 32)))


def _forward_bot(label: str, players: int, kind: str, spec: str, seat: int, seed: int) -> Any:
    """playtune's bot ``spec`` for ``seat``, searched in Rust over the game's states;
    ``kind`` (:func:`_playtune_kind`) says how it sees what the game hides. ``label``
    names the game in its errors."""
    from . import _playtune

    return _playtune.ForwardBot(
        label, spec, seat, seed, players,
        hidden=kind != "playtune-mcts",
        resampler=_sampled_world if kind == "playtune-ismcts-sampled" else None,
    )


def _playtune_bot(game: Any, seat: int, settings: Dict[str, Any], rng: Any, kind: str) -> Any:
    """playtune's MCTS (``playtune-mcts``) or ISMCTS, in Rust, over the game's states."""
    spec = "{}(iterations={},c={},depth={})".format(
        "mcts" if kind == "playtune-mcts" else "ismcts",
        int(settings["simulations"]), float(settings["uct_c"]), _PLAYTUNE_DEPTH,
    )
    return _forward_bot(game.get_type().short_name, game.num_players(), kind, spec, seat, _seed(rng))


def _mcts_factory(kind: str) -> BotFactory:
    def make(game: Any, seat: int, settings: Dict[str, Any], rng: Any) -> Any:
        sims = int(settings["simulations"])
        if kind == "mcts":
            return _cpp_mcts(game, settings, rng, sims)
        if kind.startswith("playtune"):
            return _playtune_bot(game, seat, settings, rng, kind)
        worlds = int(settings["worlds"])
        per_world = max(1, sims // worlds)
        return _Determinized(seat, _cpp_mcts(game, settings, rng, per_world), worlds, rng)

    return make


def _mcts_settings(kind: str) -> Dict[str, Any]:
    dims: Dict[str, Any] = {
        "simulations": {"int": [1, 100_000], "default": 100},
        "uct_c": {"float": [0.1, 10.0], "levels": 100, "default": 2.0},
    }
    if not kind.startswith("playtune"):
        # Random rollouts a leaf: pyspiel's evaluator takes several; playtune's one.
        dims["rollouts"] = {"int": [1, 100], "default": 1}
    if kind == "determinized":
        dims["worlds"] = {"int": [1, 1000], "default": 10}
    return dims


def _integral(x: Any) -> bool:
    return not isinstance(x, bool) and float(x).is_integer()


def _check_domain(game: str, name: str, kind: type, dim: Mapping[str, Any]) -> None:
    """Refuses a domain that holds values the parameter's type cannot take."""
    if kind is int:
        values: List[Any] = []
        if "float" in dim:
            raise PlaytuneError(
                f"OpenSpiel game {game}: parameter `{name}` is an integer: give it an int or list domain, not float"
            )
        values += list(dim.get("list", [])) + list(dim.get("int", []))
        if "default" in dim:
            values.append(dim["default"])
        bad = [v for v in values if not _integral(v)]
        if bad:
            raise PlaytuneError(
                f"OpenSpiel game {game}: parameter `{name}` is an integer and its domain holds {bad[0]!r}"
            )
    elif kind is bool and not ("bool" in dim):
        raise PlaytuneError(f"OpenSpiel game {game}: parameter `{name}` is a bool: give it a bool domain")


def _parse_spec(spec: str) -> Tuple[str, Dict[str, str]]:
    """``NAME`` or ``NAME(KEY=VALUE,...)`` as its name and settings as written, read
    as the command line reads an agent spec."""
    text = spec.strip()
    name, paren, rest = text.partition("(")
    name = name.strip()
    if paren and not rest.endswith(")"):
        raise PlaytuneError(f"bot spec {spec!r}: expected NAME(KEY=VALUE,...) with a closing `)`")
    if not name or any(c in name for c in "),="):
        raise PlaytuneError(f"bot spec {spec!r}: expected NAME or NAME(KEY=VALUE,...), such as mcts(simulations=50)")
    given: Dict[str, str] = {}
    inner = rest[:-1] if paren else ""
    for pair in inner.split(",") if inner.strip() else []:
        key, eq, value = (x.strip() for x in pair.partition("="))
        if not pair.strip():
            raise PlaytuneError(f"bot spec {spec!r}: an empty setting (two commas in a row, or one at an end)")
        if not (key and eq and value):
            raise PlaytuneError(f"bot spec {spec!r}: `{pair.strip()}` is not KEY=VALUE")
        if key in given:
            raise PlaytuneError(f"bot spec {spec!r}: setting `{key}` is given twice; give each setting once")
        given[key] = value
    return name, given


def _is_playtune_bot(name: str) -> bool:
    """Whether ``name`` is one of playtune's bots for games that bring their rules."""
    from . import _playtune

    bots, _ = _playtune.forward_bots(hidden=True, searchable=True)
    return name.lower() in {b[0].lower() for b in bots}


def _dims(dims: Any) -> Dict[str, Mapping[str, Any]]:
    """A bot's settings dims by name, written either way a space dict takes them."""
    if not dims:
        return {}
    if isinstance(dims, Mapping):
        return dict(dims)
    return {d["name"]: d for d in dims}


def _bot_settings(label: str, dims: Any, given: Mapping[str, str]) -> Dict[str, Any]:
    """The settings a match would hand the bot whose settings are ``dims`` for a spec
    that gives ``given``: every setting, the rest at their defaults, each checked
    against its domain and typed as its kind is."""
    from .spaces import space_from_dict

    by_name = _dims(dims)
    if not by_name:
        return {}
    space = space_from_dict({"name": "bot", "dims": by_name})
    values = space.default()
    for key, text in given.items():
        dim = by_name[key]
        try:
            if "categories" in dim:
                values[key] = text
            elif "bool" in dim:
                values[key] = {"true": True, "1": True, "false": False, "0": False}[text.lower()]
            else:
                values[key] = float(text)
        except (KeyError, ValueError):
            kind = "true or false" if "bool" in dim else "a number"
            raise PlaytuneError(f"{label}: {key}={text}: give {kind}") from None
    try:
        point = space.point(values)
    except PlaytuneError as e:
        raise PlaytuneError(f"{label}: {e}") from None
    typed: Dict[str, Any] = {}
    for key, value in point.items():
        dim = by_name[key]
        # As a match's request types them: whole numbers as ints, not 20.0.
        if "int" in dim or ("list" in dim and float(value).is_integer()):
            value = int(value)
        elif "float" in dim or "list" in dim:
            value = float(value)
        typed[key] = value
    return typed


class OpenSpielGame(Game):
    """The OpenSpiel game ``game`` as a playtune game.

    ``parameters``: the game parameters to design, as a space dict's ``dims`` (their
    defaults are the rules played unless a run says otherwise); an integer parameter
    takes only whole numbers. None: a game to play (tournaments, tuning its bots), with
    nothing to design. ``fixed``: parameters held at a value. ``bots`` adds
    bots: name -> ``(about, settings dims, factory)`` (see :data:`BotFactory`).
    ``ladder``: agent specs, weakest first (by default ``random``,
    ``mcts(simulations=10)``, ``mcts(simulations=100)``; ``random`` and the user's
    bots where the game has no MCTS bot). ``score``: ``score(state, seat) -> float``,
    a seat's standing during a game, which the lead metrics (``lead_changes``,
    ``decided_at``) follow; by default the sum of the game's intermediate rewards where
    it gives them, else the lead metrics are unavailable. ``max_steps``: the cap on a
    match's length. ``name``: the playtune name (by default ``openspiel-GAME``).
    """

    def __init__(
        self,
        game: str,
        parameters: Optional[Mapping[str, Any]] = None,
        *,
        fixed: Optional[Mapping[str, Any]] = None,
        bots: Optional[Mapping[str, Any]] = None,
        ladder: Optional[Sequence[str]] = None,
        playable: Sequence[str] = (),
        score: Optional[Callable[[Any, int], float]] = None,
        max_steps: int = 10_000,
        name: Optional[str] = None,
    ) -> None:
        pyspiel = _pyspiel()
        self.game_name = game
        self.fixed = dict(fixed or {})
        # Named here: pyspiel's own message for an unknown name is its list of every
        # game, whose tail alone a failure's message would show.
        registered = list(pyspiel.registered_names())
        if game.split("(", 1)[0] not in registered:
            import difflib

            near = difflib.get_close_matches(game, registered, n=3)
            raise PlaytuneError(
                f"unknown OpenSpiel game `{game}`: pyspiel registers {len(registered)} games, none of that name"
                + (f" (the nearest: {', '.join(near)})" if near else "")
                + "; pyspiel.registered_names() lists them"
            )
        try:
            probe = pyspiel.load_game(game, self.fixed)
        except Exception as e:  # OpenSpiel's own reason, for the game it could not load
            raise PlaytuneError(f"OpenSpiel cannot load game {game} with {self.fixed or 'its defaults'}: {e}") from e
        known = probe.get_parameters()
        params = dict(parameters or {})
        for p in list(params) + list(self.fixed):
            if p not in known:
                raise PlaytuneError(
                    f"OpenSpiel game {game} has no parameter `{p}` (its parameters: {', '.join(sorted(known)) or 'none'})"
                )
        self._kinds = {p: type(known[p]) for p in params}
        for p, dim in params.items():
            if isinstance(dim, Mapping):
                _check_domain(game, p, self._kinds[p], dim)
        self.name = name or f"openspiel-{game}"
        t = probe.get_type()
        self.players = probe.num_players()
        self.settings = params
        self.search, self.search_about = search_kind(probe)
        self._forward = _playtune_kind(self.search)
        self._bots: Dict[str, Any] = {"random": ("OpenSpiel's uniform random bot", {}, _random_bot)}
        if self.search is not None:
            self._bots["mcts"] = (
                self.search_about, _mcts_settings(self.search), _mcts_factory(self.search)
            )
        self._bots.update(bots or {})
        self.bots = [
            {"name": n, "about": about, "settings": dims} if dims else {"name": n, "about": about}
            for n, (about, dims, _) in self._bots.items()
        ]
        if ladder is None:
            ladder = (
                ["random", "mcts(simulations=10)", "mcts(simulations=100)"]
                if self.search is not None
                else list(self._bots)
            )
        self.ladder = list(ladder)
        self.playable = list(playable)
        self.max_steps = whole_number(max_steps, "OpenSpielGame: max_steps", 1)
        self._score = score
        self._rewards = t.reward_model == pyspiel.GameType.RewardModel.REWARDS
        self.traced = score is not None or self._rewards
        lead = (
            "the lead follows your score function" if score is not None
            else "the lead follows the game's rewards" if self._rewards
            else "lead metrics unavailable (rewards only at the end; give score=)"
        )
        self.about = f"OpenSpiel's {t.long_name}; mcts: {self.search or 'none'}; {lead}"
        self._loaded: "OrderedDict[tuple, Any]" = OrderedDict()

    def _own_bot(self, game: Any, seat: int, name: str, settings: Dict[str, Any], rng: Any) -> Any:
        """The game's bot ``name`` (one of :attr:`bots`) for ``seat``, every setting
        given: in a match and outside one (:meth:`bot`) alike."""
        _, _, factory = self._bots[name]
        return factory(game, seat, settings, rng)

    def bot(self, spec: str, seat: int, seed: int = 0) -> Any:
        """A bot for ``seat`` of this game at its own rules (every parameter at its
        default), outside a match: ``bot.step(state)`` returns its move in a pyspiel
        state where ``seat`` is to move, and leaves the state as it was. The same seed
        and states give the same moves.

        ``spec`` names one of the game's bots, the ones its matches play (``random``,
        ``mcts(simulations=50)``: OpenSpiel's random bot and the MCTS of the game's
        kind, plus yours), or one of playtune's bots (``osla``,
        ``mcts(iterations=200)``, ``ismcts(iterations=200)``, the rolling-horizon
        agents; docs/own-rules.md), searched in Rust over the game's
        states as its ``playtune-*`` MCTS is: on worlds re-sampled from what the seat
        has seen where the game hides information. A name both have (``random``,
        ``mcts``) is the game's bot when the spec gives only that bot's settings."""
        import numpy as np

        if not isinstance(spec, str):
            raise PlaytuneError(f"spec={spec!r}: give a bot spec as text, such as \"mcts(simulations=50)\"")
        # The checks Game.bot makes: 1.5, True and "0" are no seats.
        seat = whole_number(seat, "seat", 0, self.players - 1)
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise PlaytuneError(f"seed={seed!r}: give a whole number (an int), not a {type(seed).__name__}")
        name, given = _parse_spec(spec)
        label = f"{self.name} bot {spec!r}"
        own = self._bots.get(name)
        if own is not None:
            dims = _dims(own[1])
            unknown = [k for k in given if k not in dims]
            if not unknown:
                settings = _bot_settings(label, own[1], given)
                rng = np.random.RandomState(int(seed) % (1 << 32))
                return self._own_bot(self._own_rules(), seat, name, settings, rng)
            if not _is_playtune_bot(name):
                raise PlaytuneError(
                    f"{label}: bot `{name}` has no setting `{unknown[0]}` (its settings: {', '.join(dims) or 'none'})"
                )
        owns = "; ".join(
            n + (f" (settings: {', '.join(_dims(dims))})" if dims else "") for n, (_, dims, _) in self._bots.items()
        )
        if self._forward is None:
            why = self.search_about.partition("no MCTS bot: ")[2] or self.search_about
            if not _is_playtune_bot(name):
                raise PlaytuneError(f"{label}: {self.name} has no bot `{name}`: its bots are {owns}")
            raise PlaytuneError(f"{label}: playtune's bots do not play {self.game_name}: {why}; its own bots: {owns}")
        try:
            return _forward_bot(self.name, self.players, self._forward, spec, seat, int(seed) % (1 << 64))
        except PlaytuneError as e:
            # playtune's refusal names playtune's bots only: the game's are the others
            # a spec may name (one that mixes the settings of both is neither).
            raise PlaytuneError(f"{e}; {self.name}'s own bots: {owns}") from None

    def _own_rules(self) -> Any:
        """The game at its own rules: the parameters' defaults, the fixed ones held."""
        defaults = {p: d["default"] for p, d in self.settings.items() if isinstance(d, Mapping) and "default" in d}
        return self._load(defaults)

    def _load(self, settings: Mapping[str, Any]) -> Any:
        params = dict(self.fixed)
        for k, v in settings.items():
            kind = self._kinds.get(k)
            if kind is int:
                if not _integral(v):
                    raise PlaytuneError(f"parameter `{k}` is an integer, not {v!r}")
                v = int(v)
            elif kind in (float, bool, str):
                v = kind(v)
            params[k] = v
        key = tuple(sorted(params.items()))
        game = self._loaded.get(key)
        if game is None:
            game = _pyspiel().load_game(self.game_name, params)
            self._loaded[key] = game
            while len(self._loaded) > _CACHE_SIZE:
                self._loaded.popitem(last=False)
        else:
            self._loaded.move_to_end(key)
        return game

    def play(self, match: Dict[str, Any]) -> Dict[str, Any]:
        import numpy as np

        game = self._load(match["settings"])
        rng = np.random.RandomState(match["seed"] % (1 << 32))
        bots = [
            self._own_bot(game, seat, s["bot"], s["settings"], np.random.RandomState(rng.randint(1 << 31)))
            for seat, s in enumerate(match["seats"])
        ]
        state = game.new_initial_state()
        players = len(bots)
        standing = [0.0] * players
        trace: Optional[List[List[float]]] = [list(standing)] if self.traced else None
        steps = 0
        while not state.is_terminal() and steps < self.max_steps:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
                continue
            if state.is_simultaneous_node():
                state.apply_actions([int(b.step(state)) for b in bots])
            else:
                state.apply_action(int(bots[state.current_player()].step(state)))
            steps += 1
            if trace is not None:
                if self._score is not None:
                    standing = [float(self._score(state, s)) for s in range(players)]
                else:
                    standing = [a + float(r) for a, r in zip(standing, state.rewards())]
                trace.append(standing)
        returns = [float(r) for r in state.returns()]
        best = max(returns)
        reply: Dict[str, Any] = {
            "scores": returns,
            "winners": [s for s, r in enumerate(returns) if r == best],
            "length": steps,
            "ended_by": "rules" if state.is_terminal() else "cap",
        }
        if trace is not None:
            reply["trace"] = trace
        return reply
