"""Any OpenSpiel game, designed and tuned by playtune (docs/your-own-game.md).

OpenSpiel (``pip install open_spiel``) is an optional extra: this module imports it
when a game is made. :class:`OpenSpielGame` is a :class:`playtune.Game` whose matches
OpenSpiel plays: the game parameters the user names, with their domains, are the
design space; the bots are OpenSpiel's uniform random bot and its MCTS bot (random
rollouts) at chosen budgets, plus any the user adds::

    pig = OpenSpielGame("pig", {"winscore": {"int": [10, 100], "step": 10, "default": 100}})
    playtune.register_game(pig)          # known as "openspiel-pig"
    playtune.tournament("openspiel-pig", ["random", "mcts(simulations=50)"], games=100)

Chance nodes are sampled from the match's seed; simultaneous-move games are played by
bots that act on a simultaneous node (the random bot does; OpenSpiel's MCTS bot does
not, and a match it cannot play fails with OpenSpiel's message). A match that reaches
``max_steps`` ends by the cap. The winners are the seats with the highest return (all
of them on a draw).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from . import PlaytuneError
from .games import Game

#: A bot factory: (OpenSpiel game, seat, the bot's settings, numpy RandomState) -> an
#: object with ``step(state) -> action`` (a ``pyspiel.Bot`` is one).
BotFactory = Callable[[Any, int, Dict[str, Any], Any], Any]


def _pyspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise PlaytuneError(
            "OpenSpiel is not installed: pip install open_spiel (playtune's OpenSpiel adapter needs it)"
        ) from e
    return pyspiel


class _Random:
    """Uniform over the legal actions, drawn from the match's generator."""

    def __init__(self, seat: int, rng: Any) -> None:
        self.seat, self.rng = seat, rng

    def step(self, state: Any) -> int:
        legal = state.legal_actions(self.seat)
        return int(legal[self.rng.randint(len(legal))])


def _random_bot(game: Any, seat: int, settings: Dict[str, Any], rng: Any) -> Any:
    return _Random(seat, rng)


def _mcts_bot(game: Any, seat: int, settings: Dict[str, Any], rng: Any) -> Any:
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(
        game,
        uct_c=float(settings["uct_c"]),
        max_simulations=int(settings["simulations"]),
        evaluator=evaluator,
        random_state=rng,
        solve=False,
    )


#: OpenSpiel's own bots, as playtune offers them for every OpenSpiel game.
BUILT_IN_BOTS: Dict[str, Any] = {
    "random": ("OpenSpiel's uniform random bot", {}, _random_bot),
    "mcts": (
        "OpenSpiel's MCTS bot with random rollouts",
        {
            "simulations": {"int": [1, 10_000], "default": 100},
            "uct_c": {"list": [0.5, 1.0, 2.0, 4.0], "default": 2.0},
        },
        _mcts_bot,
    ),
}


class OpenSpielGame(Game):
    """The OpenSpiel game ``game`` as a playtune game.

    ``parameters``: the game parameters to design, as a space dict's ``dims`` (their
    defaults are the rules played unless a run says otherwise); ``fixed``: parameters
    held at a value. ``bots`` adds bots: name -> ``(about, settings dims, factory)``
    (see :data:`BotFactory`). ``ladder``: agent specs, weakest first (by default
    random, then MCTS at 10 and 100 simulations). ``name``: the playtune name (by
    default ``openspiel-GAME``).
    """

    def __init__(
        self,
        game: str,
        parameters: Optional[Mapping[str, Any]] = None,
        *,
        fixed: Optional[Mapping[str, Any]] = None,
        bots: Optional[Mapping[str, Any]] = None,
        ladder: Sequence[str] = ("random", "mcts(simulations=10)", "mcts(simulations=100)"),
        playable: Sequence[str] = (),
        max_steps: int = 10_000,
        name: Optional[str] = None,
    ) -> None:
        pyspiel = _pyspiel()
        self.game_name = game
        self.fixed = dict(fixed or {})
        probe = pyspiel.load_game(game, self.fixed)
        known = probe.get_parameters()
        params = dict(parameters or {})
        for p in list(params) + list(self.fixed):
            if p not in known:
                raise PlaytuneError(
                    f"OpenSpiel game {game} has no parameter `{p}` (its parameters: {', '.join(sorted(known)) or 'none'})"
                )
        if not params:
            raise PlaytuneError(
                f"name at least one parameter of OpenSpiel game {game} to design (its parameters: {', '.join(sorted(known)) or 'none'})"
            )
        self.name = name or f"openspiel-{game}"
        self.about = f"OpenSpiel's {probe.get_type().long_name}"
        self.players = probe.num_players()
        self.settings = params
        self._kinds = {p: type(known[p]) for p in params}
        self._bots: Dict[str, Any] = dict(BUILT_IN_BOTS)
        self._bots.update(bots or {})
        self.bots = [
            {"name": n, "about": about, "settings": dims} if dims else {"name": n, "about": about}
            for n, (about, dims, _) in self._bots.items()
        ]
        self.ladder = list(ladder)
        self.playable = list(playable)
        self.max_steps = int(max_steps)
        self._loaded: Dict[tuple, Any] = {}

    def _load(self, settings: Mapping[str, Any]) -> Any:
        params = dict(self.fixed)
        for k, v in settings.items():
            kind = self._kinds.get(k)
            params[k] = kind(v) if kind in (int, float, bool, str) else v
        key = tuple(sorted(params.items()))
        game = self._loaded.get(key)
        if game is None:
            game = self._loaded[key] = _pyspiel().load_game(self.game_name, params)
        return game

    def play(self, match: Dict[str, Any]) -> Dict[str, Any]:
        import numpy as np

        game = self._load(match["settings"])
        rng = np.random.RandomState(match["seed"] % (1 << 32))
        bots: List[Any] = []
        for seat, s in enumerate(match["seats"]):
            _, _, factory = self._bots[s["bot"]]
            bots.append(factory(game, seat, s["settings"], np.random.RandomState(rng.randint(1 << 31))))
        state = game.new_initial_state()
        players = len(bots)
        trace = [[0.0] * players]
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
            trace.append([float(r) for r in state.returns()])
        returns = [float(r) for r in state.returns()]
        best = max(returns)
        return {
            "scores": returns,
            "winners": [s for s, r in enumerate(returns) if r == best],
            "length": steps,
            "ended_by": "rules" if state.is_terminal() else "cap",
            "trace": trace,
        }
