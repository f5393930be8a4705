"""Optimisers in memory, driven by ask and tell."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _playtune
from ._playtune import Space
from ._common import Point, Result, _Progress, _feature_names, _point_function
from .spaces import _space


def algorithm_config(
    algorithm: str,
    space: Space,
    settings: Optional[Mapping[str, Any]] = None,
    tie_break: Optional[str] = None,
) -> str:
    """An optimiser's configuration as ``config.ron`` records it (RON text).

    ``algorithm`` is random, rmhc, brmhc, ntbea or map-elites; ``settings`` override
    its declared defaults by the command line's names with ``_`` for ``-`` (NTBEA:
    ``k``, ``k_absolute``, ``epsilon``, ``neighbours``, ``tuples`` such as ``"1+2"``,
    ``runs``, ``batch``...; MAP-Elites: ``batch``, ``axes`` such as ``["f=0:1:10"]``,
    ``emitters`` such as ``["gaussian", "iso-line"]`` with ``sigma`` and
    ``line_sigma``, ``archive`` ``"cvt"`` with ``centroids``, ``better``,
    ``init_random``...; every one in docs/optimizers.md's settings table).
    """
    return _playtune.algorithm_ron(algorithm, dict(settings or {}), space, tie_break)


class Optimizer:
    """An optimiser driven by ask and tell, in memory (no run folder).

    ``ask()`` gives a batch of candidates (dicts with ``id``, ``point`` by name,
    ``values`` in the space's order and ``phase``); ``tell()`` takes every result of
    that batch; ``recommend()`` gives the optimiser's answer.
    """

    def __init__(
        self,
        space: Union[Space, Mapping[str, Any], str, os.PathLike],
        algorithm: str = "ntbea",
        budget: int = 200,
        seed: int = 0,
        features: Sequence[str] = (),
        axes: Sequence[str] = (),
        **settings: Any,
    ) -> None:
        self.space: Space = _space(space)  # type: ignore[assignment]
        self.features: List[str] = _feature_names(features)
        ron = algorithm_config(algorithm, self.space, settings)
        self._inner = _playtune.Optimizer(self.space, ron, budget, seed, self.features, list(axes))
        self._batch: List[Dict[str, Any]] = []

    @property
    def algorithm(self) -> str:
        """The configuration as ``config.ron`` records it."""
        return self._inner.algorithm

    def ask(self) -> List[Dict[str, Any]]:
        """The next batch of candidates; empty when the budget is spent."""
        self._batch = self._inner.ask()
        return self._batch

    def tell(self, results: Union[Mapping[int, Result], Iterable[Tuple[Any, Result]]]) -> None:
        """Tells the whole batch's results: ``{id: result}`` or ``[(candidate, result)]``.

        A result is a fitness (higher is better), ``(fitness, features)``,
        ``{"fitness": f, "features": {...}}``, or ``None`` for a failed evaluation.
        """
        if not isinstance(results, Mapping):
            results = {(c["id"] if isinstance(c, Mapping) else int(c)): r for c, r in results}
        self._inner.tell(dict(results))

    def ask_array(self) -> Tuple[Any, Any]:
        """The next batch as numpy arrays (pyribs' shape): ``(ids, values)``, values of
        shape (batch, dimensions) in the space's order."""
        import numpy as np

        batch = self.ask()
        ids = np.array([c["id"] for c in batch], dtype=np.int64)
        values = np.array([c["values"] for c in batch], dtype=np.float64).reshape(len(batch), len(self.space))
        return ids, values

    def tell_array(self, ids: Any, fitness: Any, features: Any = None) -> None:
        """Tells a batch from numpy arrays: ``fitness`` of shape (batch,), ``features``
        of shape (batch, features); a NaN fitness is a failed evaluation."""
        import numpy as np

        fitness = np.asarray(fitness, dtype=np.float64)
        feats = None if features is None else np.asarray(features, dtype=np.float64)
        results: Dict[int, Result] = {}
        for j, i in enumerate(np.asarray(ids).tolist()):
            if not np.isfinite(fitness[j]):
                results[int(i)] = None
            elif feats is None:
                results[int(i)] = float(fitness[j])
            else:
                results[int(i)] = (float(fitness[j]), [float(x) for x in feats[j]])
        self._inner.tell(results)

    def recommend(self) -> Dict[str, Any]:
        """The optimiser's answer: ``point``, ``values``, ``estimate``, ``se``, ``samples``."""
        return self._inner.recommend()

    def elites(self) -> Optional[List[Dict[str, Any]]]:
        """MAP-Elites: the archive's elites; None for the other optimisers."""
        return self._inner.elites()

    def metrics(self) -> List[Dict[str, Any]]:
        """MAP-Elites: coverage, QD score and best fitness after each batch."""
        return self._inner.metrics()

    def optimize(self, func: Callable[[Point], Result], progress: bool = False) -> Dict[str, Any]:
        """Drives the loop: evaluates every candidate with ``func(point)`` until the
        budget is spent; returns the recommendation. An exception in ``func`` is a
        failed evaluation; Ctrl-C stops the loop."""
        func = _point_function(func, seeded=False)
        bar = _Progress(progress, None)
        try:
            while True:
                batch = self.ask()
                if not batch:
                    return self.recommend()
                results: Dict[int, Result] = {}
                for c in batch:
                    try:
                        results[c["id"]] = func(c["point"])
                    except Exception:  # a failed evaluation, told as such
                        results[c["id"]] = None
                    bar.update(1)
                self.tell(results)
        finally:
            bar.close()


def optimizer(
    space: Union[Space, Mapping[str, Any], str, os.PathLike],
    algorithm: str = "ntbea",
    budget: int = 200,
    seed: int = 0,
    features: Sequence[str] = (),
    axes: Sequence[str] = (),
    **settings: Any,
) -> Optimizer:
    """An in-memory ask/tell optimiser over ``space`` (a Space, a dict or a space file)."""
    return Optimizer(space, algorithm, budget, seed, features, axes, **settings)
