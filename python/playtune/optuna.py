"""NTBEA as an Optuna sampler: ``optuna.create_study(sampler=NtbeaSampler())``.

NTBEA (the N-Tuple Bandit Evolutionary Algorithm) searches a fixed, discrete space
and is made for noisy objectives: it models the mean of every value and pair of values
it has seen, so one lucky evaluation does not steer it. The sampler maps Optuna's
distributions onto playtune dimensions:

- ``IntDistribution``: every integer ``low..high`` in steps of ``step`` when there are
  at most ``max_levels`` of them, else ``levels`` evenly spaced integers (log-spaced
  when ``log=True``);
- ``FloatDistribution``: with a ``step``, its grid when at most ``max_levels`` values;
  otherwise ``levels`` evenly spaced values from ``low`` to ``high`` (log-spaced when
  ``log=True``);
- ``CategoricalDistribution``: its choices.

As Optuna's other relative samplers do, it samples the first trial independently
(``RandomSampler``) until the search space is known (the intersection of the completed
trials' distributions); parameters outside that space are sampled independently too.
Each finished trial's value is told to NTBEA, negated for a study that minimises; a
failed or pruned trial is told as a failed evaluation. Single-objective studies only.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Dict, List, Optional, Sequence

import optuna
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)
from optuna.samplers import BaseSampler, RandomSampler
from optuna.search_space import IntersectionSearchSpace
from optuna.study import Study, StudyDirection
from optuna.trial import FrozenTrial, TrialState

from . import Optimizer, space_from_dict

__all__ = ["NtbeaSampler"]


def _levels(low: float, high: float, n: int, log: bool) -> List[float]:
    if n <= 1 or high <= low:
        return [low]
    if log:
        a, b = math.log(low), math.log(high)
        return [math.exp(a + (b - a) * i / (n - 1)) for i in range(n)]
    return [low + (high - low) * i / (n - 1) for i in range(n)]


def _choices(dist: BaseDistribution, levels: int, max_levels: int) -> List[Any]:
    """The values NTBEA chooses from for one Optuna distribution."""
    if isinstance(dist, CategoricalDistribution):
        return list(dist.choices)
    if isinstance(dist, IntDistribution):
        step = dist.step or 1
        count = (dist.high - dist.low) // step + 1
        if count <= max_levels and not dist.log:
            return list(range(dist.low, dist.high + 1, step))
        if dist.log and count <= max_levels and dist.high - dist.low + 1 <= max_levels:
            return list(range(dist.low, dist.high + 1))
        raw = _levels(float(dist.low), float(dist.high), levels, dist.log)
        out: List[int] = []
        for x in raw:
            v = dist.low + round((x - dist.low) / step) * step
            v = min(max(v, dist.low), dist.high)
            if v not in out:
                out.append(int(v))
        return out
    if isinstance(dist, FloatDistribution):
        if dist.step is not None:
            count = int(round((dist.high - dist.low) / dist.step)) + 1
            if count <= max_levels:
                return [min(dist.low + i * dist.step, dist.high) for i in range(count)]
        vals = _levels(dist.low, dist.high, levels, dist.log)
        if dist.step is not None:
            vals = sorted({min(dist.low + round((v - dist.low) / dist.step) * dist.step, dist.high) for v in vals})
        return [min(max(v, dist.low), dist.high) for v in vals]
    raise TypeError(f"NtbeaSampler cannot map {dist!r}")


class NtbeaSampler(BaseSampler):
    """An Optuna sampler driven by playtune's NTBEA.

    Args:
        budget: the trials NTBEA plans for (its tuple choice and its exploration
            depend on it); set it to the study's ``n_trials``. Trials past it are
            sampled independently.
        seed: NTBEA's seed and the independent sampler's.
        levels: values a continuous (or too fine) distribution is cut into.
        max_levels: the most values an integer or stepped distribution keeps whole.
        **settings: NTBEA's settings by the names ``config.ron`` gives them
            (``k``, ``epsilon``, ``neighbours``, ``mutation``, ``tuples`` such as
            ``"1+2"``, ``batch`` for parallel workers...).
    """

    def __init__(
        self,
        budget: int = 1000,
        seed: Optional[int] = None,
        levels: int = 9,
        max_levels: int = 32,
        **settings: Any,
    ) -> None:
        self._budget = int(budget)
        self._seed = 0 if seed is None else int(seed)
        self._levels = int(levels)
        self._max_levels = int(max_levels)
        self._settings = dict(settings)
        self._random = RandomSampler(seed=seed)
        self._search_space = IntersectionSearchSpace()
        self._optimizer: Optional[Optimizer] = None
        self._names: List[str] = []
        self._dists: Dict[str, BaseDistribution] = {}
        self._values: Dict[str, List[Any]] = {}
        # The batch NTBEA asked: candidates not yet handed to a trial, the trial each
        # handed one went to, and the results told so far.
        self._unassigned: List[Dict[str, Any]] = []
        self._by_trial: Dict[int, int] = {}
        self._results: Dict[int, Any] = {}
        self._batch_size = 0
        self._minimize = False
        # Optuna's n_jobs threads share the sampler: one of them at a time in NTBEA.
        self._lock = threading.Lock()

    def reseed_rng(self) -> None:
        self._random.reseed_rng()

    def infer_relative_search_space(self, study: Study, trial: FrozenTrial) -> Dict[str, BaseDistribution]:
        if self._optimizer is not None:
            return dict(self._dists)
        space = {}
        for name, dist in self._search_space.calculate(study).items():
            if dist.single():
                continue
            space[name] = dist
        return space

    def _build(self, study: Study, search_space: Dict[str, BaseDistribution]) -> None:
        if len(study.directions) != 1:
            raise ValueError("NtbeaSampler is for single-objective studies")
        self._minimize = study.direction == StudyDirection.MINIMIZE
        self._names = sorted(search_space)
        self._dists = {n: search_space[n] for n in self._names}
        dims = []
        for i, n in enumerate(self._names):
            values = _choices(search_space[n], self._levels, self._max_levels)
            self._values[n] = values
            dims.append({"name": f"p{i}", "categories": [str(j) for j in range(len(values))]})
        space = space_from_dict({"name": "optuna", "dims": dims})
        self._optimizer = Optimizer(space, "ntbea", budget=self._budget, seed=self._seed, **self._settings)

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: Dict[str, BaseDistribution]
    ) -> Dict[str, Any]:
        if not search_space:
            return {}
        with self._lock:
            return self._sample(study, trial, search_space)

    def _sample(
        self, study: Study, trial: FrozenTrial, search_space: Dict[str, BaseDistribution]
    ) -> Dict[str, Any]:
        if self._optimizer is None:
            self._build(study, search_space)
        assert self._optimizer is not None
        if not self._unassigned and not self._by_trial:
            self._unassigned = list(self._optimizer.ask())
            self._batch_size = len(self._unassigned)
            self._results = {}
        if not self._unassigned:
            return {}  # the batch is out with other trials, or the budget is spent
        cand = self._unassigned.pop(0)
        self._by_trial[trial.number] = cand["id"]
        params = {}
        for i, n in enumerate(self._names):
            if n in search_space:
                params[n] = self._values[n][int(cand["values"][i])]
        return params

    def sample_independent(
        self,
        study: Study,
        trial: FrozenTrial,
        param_name: str,
        param_distribution: BaseDistribution,
    ) -> Any:
        return self._random.sample_independent(study, trial, param_name, param_distribution)

    def after_trial(
        self,
        study: Study,
        trial: FrozenTrial,
        state: TrialState,
        values: Optional[Sequence[float]],
    ) -> None:
        with self._lock:
            self._told(trial, state, values)

    def _told(self, trial: FrozenTrial, state: TrialState, values: Optional[Sequence[float]]) -> None:
        cid = self._by_trial.pop(trial.number, None)
        if cid is None or self._optimizer is None:
            return
        if state == TrialState.COMPLETE and values is not None and math.isfinite(values[0]):
            self._results[cid] = -values[0] if self._minimize else values[0]
        else:
            self._results[cid] = None  # failed or pruned: a failed evaluation
        if len(self._results) == self._batch_size and not self._unassigned:
            self._optimizer.tell(self._results)
            self._results = {}
            self._batch_size = 0

    def recommend(self) -> Optional[Dict[str, Any]]:
        """NTBEA's recommendation as Optuna params: on a noisy objective, a better
        answer than ``study.best_params`` (the luckiest evaluation). None before NTBEA
        has started."""
        with self._lock:
            if self._optimizer is None:
                return None
            rec = self._optimizer.recommend()
        return {n: self._values[n][int(rec["values"][i])] for i, n in enumerate(self._names)}
