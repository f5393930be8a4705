"""playtune from Python: design games and tune game-playing bots.

The optimisers (random search, RMHC, B-RMHC, NTBEA, MAP-Elites), the run folders and
the built-in games are the Rust crate's own; this package is a thin layer over them.

- :func:`optimizer` gives an optimiser driven by ask/tell from a Python loop, in memory.
- :func:`create_run` / :func:`open_run` give a :class:`Run`: a run folder the command
  line reads and writes too (``playtune resume``, ``report``, ``plot``, ``ask``,
  ``tell``). :meth:`Run.run` drives it: a Python function, or the run's built-in problem.
- :func:`evaluate`, :func:`tournament`, :func:`problem_info` and :func:`catalogue` reach
  the built-in problems and games.
- :mod:`playtune.optuna` holds an NTBEA sampler for Optuna; :mod:`playtune.journal`
  exports a run folder to Optuna's journal storage.

Every error is a :class:`PlaytuneError` (a ``ValueError``) with the command line's
message. See ``docs/python.md``. The modules, one concept each: :mod:`playtune.spaces`,
:mod:`playtune.optimizers`, :mod:`playtune.runs`, :mod:`playtune.problems` and
:mod:`playtune.games`; everything above is importable from ``playtune`` itself.
"""

from __future__ import annotations

import atexit

from . import _playtune
from ._common import Point, Result
from ._playtune import PlaytuneError, Space, catalogue
from .games import Game, register_game
from .optimizers import Optimizer, algorithm_config, optimizer
from .problems import ProblemInfo, agent_spec, evaluate, problem_info, tournament
from .runs import Run, create_run, open_run, resume
from .spaces import load_space, parse_space, space_from_dict

__version__: str = _playtune.__version__

__all__ = [
    "PlaytuneError",
    "Space",
    "Optimizer",
    "Run",
    "load_space",
    "parse_space",
    "space_from_dict",
    "optimizer",
    "create_run",
    "open_run",
    "resume",
    "evaluate",
    "tournament",
    "problem_info",
    "ProblemInfo",
    "catalogue",
    "algorithm_config",
    "agent_spec",
    "Game",
    "register_game",
]

# Game processes live as long as the interpreter; their process groups end with it.
atexit.register(_playtune.end_games)
