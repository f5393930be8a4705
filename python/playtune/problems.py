"""The built-in problems and games: what a problem is, evaluations, tournaments."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

from . import _playtune
from ._playtune import Space
from ._common import _setting
from .games import check_script_guard
from .spaces import _space


class ProblemInfo(NamedTuple):
    """What :func:`problem_info` tells of a problem; a tuple too, in this order."""

    #: The space it searches.
    space: Space
    #: The features each evaluation reports.
    features: List[str]
    #: The feature MAP-Elites breaks fitness ties on, if any.
    tie_break: Optional[str]
    #: Its default MAP-Elites grid: one dict per axis.
    axes: List[Dict[str, Any]]


def problem_info(
    problem: str,
    settings: Optional[Mapping[str, Any]] = None,
    space: Union[Space, Mapping[str, Any], str, os.PathLike, None] = None,
) -> ProblemInfo:
    """A built-in problem under ``settings``: its space, the features each evaluation
    reports, the feature MAP-Elites breaks fitness ties on (if any) and its default
    MAP-Elites grid, by name (``info.features``) or unpacked as before. ``space``: the
    space searched, checked against the problem's; ``command`` (an external program)
    needs one, as ``--space`` gives it."""
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    return ProblemInfo(*_playtune.problem_info(problem, sets, _space(space)))


def evaluate(
    problem: str,
    point: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    settings: Optional[Mapping[str, Any]] = None,
    space: Union[Space, Mapping[str, Any], str, os.PathLike, None] = None,
) -> Dict[str, Any]:
    """Evaluates a point (by name; the dimensions left out take their defaults) of a
    built-in problem with ``seed``: ``{"fitness": f, "features": {...}}``. The
    ``design`` problem's features are the game-design metrics. ``space`` as
    :func:`problem_info` takes it (``command`` needs one)."""
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    check_script_guard("evaluate", sets.get("game"))
    return _playtune.evaluate(problem, dict(point or {}), seed, sets, _space(space))


def agent_spec(
    problem: str, point: Mapping[str, Any], settings: Optional[Mapping[str, Any]] = None
) -> Optional[str]:
    """A point of an agent-tuning problem (``tune-agent``, ``rinascimento-agent``,
    ``strategy-hps``) as the agent spec :func:`tournament` and ``playtune play`` take;
    None for a problem that tunes no agent."""
    sets = {str(k): _setting(v) for k, v in (settings or {}).items()}
    return _playtune.agent_spec(problem, dict(point), sets)


def tournament(
    game: str,
    agents: Sequence[str] = (),
    games: int = 10,
    seed: int = 0,
    settings: Optional[Mapping[str, Any]] = None,
    budget: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays ``games`` games between agent specs (``playtune tournament``); the
    result holds each agent's win rate and the games' design metrics (``design``).
    The GIL is released while the games play."""
    check_script_guard("tournament", game)
    sets = [(str(k), _setting(v)) for k, v in (settings or {}).items()]
    return _playtune.tournament(game, list(agents), games, seed, sets, budget)
